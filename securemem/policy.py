"""Policy: what each middleware layer enforces, validated by pydantic, unknown keys refused.

A policy is a TOML file (see ``policies/``). ``load_policy`` accepts a path, or the name of a
shipped policy ("default", "regulated", "refuse-pii"). Durations are strings like ``"90s"``,
``"30m"``, ``"12h"``, ``"7d"``, ``"2w"``. Rules target paths by glob; the most specific matching
rule wins (see ``Policy.rule_for``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator, model_validator

from securemem.errors import PolicyError
from securemem.pii import DEFAULT_PHONE_REGIONS, ENTITY_TYPES, policy_names
from securemem.pii.contact import check_phone_regions

_RULE_CACHE_SIZE = 8192
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
Action = Literal["redact", "mask", "hash", "refuse", "allow"]
# The entity types the detectors report (built in). [pii.actions] also accepts the families that
# group them (FAMILY_NAMES: PII, SECRET, API_KEY; see securemem/pii/entities.py) and types a
# deployment registers for a plug-in detector (the check below asks the registry at validation time).
ENTITY_NAMES: tuple[str, ...] = ENTITY_TYPES


def parse_duration(text: str) -> float:
    """Seconds in a duration such as '90s', '30m', '12h', '7d' or '2w'.

    Zero is refused: an expiry of zero would hide every file as it is written, and a sweep
    interval of zero would spin.
    """
    match = _DURATION.match(text)
    if not match or float(match.group(1)) == 0:
        raise ValueError("a duration above zero, like '90s', '30m', '12h', '7d' or '2w'")
    return float(match.group(1)) * _UNITS[match.group(2)]


def _seconds(value: object) -> object:
    return parse_duration(value) if isinstance(value, str) else value


Seconds = Annotated[float, BeforeValidator(_seconds), Field(gt=0)]


class _Section(BaseModel):
    # Strict: TOML has real booleans and numbers, so a string or a boolean where the other is
    # expected is a mistake to report, not to convert ("yes" is not a boolean; expire_after = true
    # must not become a one-second expiry).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ViewSettings(_Section):
    max_chars: int = Field(16_000, ge=1_000, le=1_000_000)
    max_image_bytes: int = Field(5 * 1024 * 1024, ge=1, le=50 * 1024 * 1024)


class CreateSettings(_Section):
    overwrite: bool = False


class StorageSettings(_Section):
    durability: Literal["full", "normal"] = "full"


class PIISettings(_Section):
    enabled: bool = False
    # National numbers (no "+" or "00") are read in each region in turn; "+" numbers in any region.
    phone_regions: tuple[str, ...] = Field(DEFAULT_PHONE_REGIONS, strict=False, min_length=1, max_length=50)
    # The single-region spelling of older policies, read as phone_regions = [phone_region]. After
    # validation it is always the first of phone_regions.
    phone_region: str | None = Field(None, pattern=r"^[A-Z]{2}$")
    refuse_paths: bool = True
    # Entity types or families (PII, SECRET, API_KEY): the most specific entry wins.
    actions: dict[str, Action] = Field(default_factory=dict)

    @field_validator("phone_regions")
    @classmethod
    def _regions(cls, regions: tuple[str, ...]) -> tuple[str, ...]:
        for region in regions:
            if not isinstance(region, str) or not re.fullmatch(r"[A-Z]{2}", region):
                raise ValueError(f"phone regions are ISO 3166 codes such as 'US' or 'GB', not {region!r}")
        return check_phone_regions(regions)

    @model_validator(mode="after")
    def _settle(self) -> PIISettings:
        if self.phone_region is None:
            object.__setattr__(self, "phone_region", self.phone_regions[0])
        elif "phone_regions" not in self.model_fields_set:
            object.__setattr__(self, "phone_regions", check_phone_regions((self.phone_region,)))
        elif self.phone_region != self.phone_regions[0]:
            raise ValueError("set phone_regions (a list) or the older phone_region, not both")
        known = set(policy_names())
        unknown = sorted(set(self.actions) - known)
        if unknown:
            raise ValueError(f"unknown entity type {unknown[0]!r}; known: {', '.join(ENTITY_NAMES)}")
        return self


class QuotaSettings(_Section):
    max_file_bytes: int | None = Field(None, ge=1)
    max_file_lines: int | None = Field(None, ge=1, le=999_999)
    max_total_bytes: int | None = Field(None, ge=1)
    max_files: int | None = Field(None, ge=1)


class TTLSettings(_Section):
    refresh_on_read: bool = True
    expire_after: Seconds | None = None
    since: Literal["access", "write"] = "access"


class Rule(_Section):
    """Settings for paths matching ``glob`` (``*`` within a name, ``**`` across directories)."""

    glob: str = Field(pattern=r"^/memories(/|$)")
    read_only: bool = False
    expire_after: Seconds | None = None
    since: Literal["access", "write"] | None = None
    never_expire: bool = False

    @model_validator(mode="after")
    def _one_expiry(self) -> Rule:
        # Both would be silently resolved in favour of never_expire: refuse the contradiction.
        if self.never_expire and (self.expire_after is not None or self.since is not None):
            raise ValueError("never_expire = true cannot be combined with expire_after or since; keep one")
        return self

    def matches(self, path: str) -> bool:
        return self._pattern.match(path) is not None

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        return _glob_regex(self.glob)

    @property
    def specificity(self) -> tuple[int, int]:
        """More literal characters, then fewer wildcards: the most specific rule wins."""
        literal = len(self.glob.replace("**", "").replace("*", "").replace("?", ""))
        return literal, -self.glob.count("*")


@dataclass(frozen=True)
class Expiry:
    after: float | None  # seconds; None: never expires
    since: Literal["access", "write"]
    rule: str | None  # the glob of the rule that decided, None for the [ttl] default

    def deadline(self, base: float) -> float | None:
        return None if self.after is None else base + self.after


class Policy(_Section):
    name: str = "custom"
    description: str = ""
    view: ViewSettings = ViewSettings()
    create: CreateSettings = CreateSettings()
    storage: StorageSettings = StorageSettings()
    pii: PIISettings = PIISettings()
    quota: QuotaSettings = QuotaSettings()
    ttl: TTLSettings = TTLSettings()
    rules: tuple[Rule, ...] = Field((), strict=False)  # a TOML array arrives as a list

    def rule_for(self, path: str) -> Rule | None:
        """The most specific rule whose glob matches ``path`` (later rules win ties)."""
        if not self.rules:
            return None
        cache = self._rule_cache
        if path not in cache:
            if len(cache) >= _RULE_CACHE_SIZE:
                cache.clear()
            cache[path] = self._best_rule(path)
        return cache[path]

    def _best_rule(self, path: str) -> Rule | None:
        best: Rule | None = None
        for rule in self.rules:
            if rule.matches(path) and (best is None or rule.specificity >= best.specificity):
                best = rule
        return best

    @cached_property
    def _rule_cache(self) -> dict[str, Rule | None]:
        # A policy is frozen, so the rule for a path never changes: every layer asks for the
        # same few paths on every command.
        return {}

    def expiry_for(self, path: str) -> Expiry:
        """How long a file at ``path`` lives, counted from what, and the rule that said so."""
        rule = self.rule_for(path)
        if rule is not None and rule.never_expire:
            return Expiry(None, "write", rule.glob)
        if rule is not None and (rule.expire_after is not None or rule.since is not None):
            return Expiry(rule.expire_after or self.ttl.expire_after, rule.since or self.ttl.since, rule.glob)
        return Expiry(self.ttl.expire_after, self.ttl.since, None)

    @cached_property
    def has_expiry(self) -> bool:
        return self.ttl.expire_after is not None or any(r.expire_after for r in self.rules)


def _glob_regex(glob: str) -> re.Pattern[str]:
    parts = re.split(r"(\*\*/?|\*|\?)", glob)
    out = []
    for part in parts:
        if part in ("**", "**/"):
            out.append("(?:.*/)?" if part == "**/" else ".*")
        elif part == "*":
            out.append("[^/]*")
        elif part == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + r"\Z")


def _locate(source: str | Path) -> tuple[str, str]:
    """(text, name for messages) of a policy file path or a shipped policy name."""
    path = Path(source)
    if path.suffix != ".toml" and not path.exists():
        shipped = resources.files("securemem.policies").joinpath(f"{source}.toml")
        if not shipped.is_file():
            raise PolicyError(f"no policy file or shipped policy named {source!s}")
        return shipped.read_text(encoding="utf-8"), f"{source} (shipped)"
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except OSError as exc:
        raise PolicyError(f"cannot read policy {path}: {exc.strerror}") from None


def load_policy(source: str | Path | Policy | None = None) -> Policy:
    """A Policy from a file path, a shipped policy name, a Policy, or None (the default policy)."""
    if isinstance(source, Policy):
        return source
    text, where = _locate("default" if source is None else source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{where}: not valid TOML ({exc})") from None
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        key = ".".join(str(p) for p in first["loc"]) or "(top level)"
        message = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
        raise PolicyError(f"{where}: {key}: {message}") from None
