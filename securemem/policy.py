"""Policy: what each middleware layer enforces, validated by pydantic, unknown keys refused.

A policy is a TOML file (see ``policies/``). ``load_policy`` accepts a path, or the name of a
shipped policy ("default", "regulated", "refuse-pii"). Durations are strings like ``"90s"``,
``"30m"``, ``"12h"``, ``"7d"``, ``"2w"``; a bare number in a file is refused. Rules target paths by
glob; the most specific matching rule wins (see ``Policy.rule_for``).

A policy that cannot mean what it says is refused here (see the validators); one that is valid
but likely not meant is reported by ``securemem.policy_check``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from securemem.errors import PolicyError
from securemem.pii.entities import PII_TYPES, entity_types, policy_names
from securemem.pii.entities import resolve as resolve_actions
from securemem.pii.regions import DEFAULT_PHONE_REGIONS, check_phone_regions
from securemem.private_files import read_limited

_RULE_CACHE_SIZE = 8192
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
_BARE_NUMBER = re.compile(r"^\s*[-+]?\d+(?:\.\d*)?\s*$")
DURATION_FORMS = "'90s', '30m', '12h', '7d' or '2w'"
Action = Literal["redact", "mask", "hash", "refuse", "allow"]
# The entity types the detectors report (built in). [pii.actions] also accepts the families that
# group them (FAMILY_NAMES: PII, SECRET, API_KEY; see securemem/pii/entities.py) and types a
# deployment registers for a plug-in detector (the check below asks the registry at validation time).
ENTITY_NAMES: tuple[str, ...] = entity_types()
PII_TYPE_NAMES: tuple[str, ...] = PII_TYPES


def parse_duration(value: str | float) -> float:
    """Seconds in a duration such as '90s', '30m', '12h', '7d' or '2w'.

    The one parser for policy files and the CLI (``sweep --every``). A bare number is refused:
    ``expire_after = 90`` could mean seconds or days, and guessing wrong would delete memories
    early or keep them for months. Zero is refused too: an expiry of zero would hide every file
    as it is written, and a sweep interval of zero would spin.
    """
    text = value if isinstance(value, str) else repr(value)
    if not isinstance(value, str) or _BARE_NUMBER.match(text):
        raise ValueError(f"{text.strip()} has no unit; write a duration like {DURATION_FORMS}")
    match = _DURATION.match(text)
    if not match:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise ValueError(f"{shown!r} is not a duration; write one like {DURATION_FORMS}")
    if Decimal(match.group(1)) == 0:  # (a float reads "0.000...0001s" with thousands of zeros as zero)
        raise ValueError(f"a duration must be above zero; write one like {DURATION_FORMS}")
    return float(match.group(1)) * _UNITS[match.group(2)]


def exact_duration(value: str) -> Decimal:
    """The seconds of a duration parse_duration accepts, exactly ("0.99999999999999999s" is below 1s, which its
    float is not): for a floor that a rounded float would let through."""
    match = _DURATION.match(value)
    if not match:
        raise ValueError("not a duration")  # parse_duration said why first
    return Decimal(match.group(1)) * _UNITS[match.group(2)]


def format_duration(seconds: float) -> str:
    """A duration as people write it: 7776000.0 -> '90d', 5400.0 -> '90m'; parse_duration reads it back."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    if seconds == int(seconds):
        return f"{int(seconds)}s"
    return f"{Decimal(repr(seconds)):f}s"  # never '1e-07s', which parse_duration would refuse


# Set while a policy file is validated (load_policy): there a duration must carry its unit. In
# Python, a number is seconds (TTLSettings(expire_after=3600)), as elsewhere in the API.
_FROM_FILE = "securemem.policy_file"


def _seconds(value: object, info: ValidationInfo) -> object:
    if isinstance(value, str):
        return parse_duration(value)
    from_file = isinstance(info.context, dict) and info.context.get(_FROM_FILE)
    if from_file and isinstance(value, int | float) and not isinstance(value, bool):
        return parse_duration(value)
    return value


Seconds = Annotated[
    float,
    BeforeValidator(_seconds),
    Field(gt=0),
    PlainSerializer(format_duration, return_type=str, when_used="json"),
]


def _seconds_or_zero(value: object, info: ValidationInfo) -> object:
    if isinstance(value, str) and re.fullmatch(r"\s*0+(\.0*)?\s*[smhdw]\s*", value):
        return 0.0
    return _seconds(value, info)


# An erasure bound may be zero (erase at every commit), and at most an hour.
EraseSeconds = Annotated[
    float,
    BeforeValidator(_seconds_or_zero),
    Field(ge=0, le=3600),
    PlainSerializer(format_duration, return_type=str, when_used="json"),
]


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
    # How soon content that a command deletes or overwrites must be unrecoverable from the
    # store's files, even with the key (the store batches the scrub within this bound).
    erase_within: EraseSeconds = 1.0


class PIISettings(_Section):
    enabled: bool = False
    # National numbers (no "+" or "00") are read in each region in turn; "+" numbers in any region.
    phone_regions: tuple[str, ...] = Field(DEFAULT_PHONE_REGIONS, strict=False, min_length=1, max_length=50)
    # The single-region spelling of older policies, read as phone_regions = [phone_region]. Kept as
    # written (None when not): a value derived here would read as set when the settings are
    # validated again (inside a Policy, or from the JSON a store records) and shrink phone_regions
    # to their first region.
    phone_region: str | None = Field(None, pattern=r"^[A-Z]{2}$")
    refuse_paths: bool = True
    # Entity types or families (PII, SECRET, API_KEY): the most specific entry wins.
    actions: dict[str, Action] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _one_switch(cls, data: Any) -> Any:
        """Actions switch scrubbing on; ``enabled = true`` alone scrubs the default actions.

        Either way a file that mentions PII scrubs it: no table of actions is silently ignored,
        and no switch is silently a no-op. ``enabled = false`` beside actions is a contradiction.
        """
        if not isinstance(data, Mapping):
            return data
        actions, enabled = data.get("actions"), data.get("enabled")
        if isinstance(actions, Mapping) and actions:
            if enabled is False:
                raise ValueError(
                    "enabled = false contradicts the actions set in [pii.actions]; remove one "
                    "(actions switch scrubbing on by themselves)"
                )
            return {**data, "enabled": True}
        if enabled is True and not actions:
            return {**data, "actions": default_pii_actions()}
        return data

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
            pass
        elif "phone_regions" not in self.model_fields_set:
            object.__setattr__(self, "phone_regions", check_phone_regions((self.phone_region,)))
        elif self.phone_region != self.phone_regions[0]:
            raise ValueError("set phone_regions (a list) or the older phone_region, not both")
        known = set(policy_names())
        unknown = sorted(set(self.actions) - known)
        if unknown:
            raise ValueError(f"unknown entity type {unknown[0]!r}; known: {', '.join(ENTITY_NAMES)}")
        return self

    def describe_actions(self) -> list[tuple[str, str]]:
        """(what, what happens to it before anything is stored), in plain words.

        The personal types are listed one by one. The secret types (close to 200) are grouped by
        what happens to them, so a family entry (``SECRET = "refuse"``) reads as one line, and a
        type acted on apart from its family gets a line of its own.
        """
        if not self.enabled:
            return [("every type", "stored as written (PII scrubbing is off)")]
        resolved = resolve_actions(self.actions)
        lines = [(name, _words(resolved.get(name), name)) for name in PII_TYPE_NAMES]
        groups: dict[str | None, list[str]] = {}
        for name in ENTITY_NAMES:
            if name not in PII_TYPE_NAMES:
                groups.setdefault(resolved.get(name), []).append(name)
        for action, names in sorted(
            groups.items(), key=lambda item: (item[0] is None, len(item[1]) < 4, item[0] or "")
        ):
            label = names[0] if len(names) == 1 else f"{len(names)} secret types"
            if len(names) > 1 and len(names) <= 4:
                label = ", ".join(names)
            lines.append((label, _words(action, names[0] if len(names) == 1 else "TYPE")))
        return lines


# What `enabled = true` without [pii.actions] scrubs: the regulated policy's choices. Contact
# details become keyed tokens (customers stay distinguishable), payment numbers are masked,
# other identifiers redacted, secrets refused. A type missing here is redacted.
_DEFAULT_ACTIONS: dict[str, Action] = {
    "EMAIL": "hash",
    "PHONE": "hash",
    "CREDIT_CARD": "mask",
    "IBAN": "mask",
    "US_SSN": "redact",
    "IP_ADDRESS": "redact",
    "SECRET": "refuse",  # every secret type, provider keys included
    "GENERIC_SECRET": "redact",  # a value after "secret:" or "token=" may be a harmless word
    "HIGH_ENTROPY_SECRET": "redact",
}
ACTION_WORDS: dict[str, str] = {
    "redact": "redacted: replaced by [{entity}]",
    "mask": "masked: only the last 4 characters are kept",
    "hash": "replaced by a keyed token (the same value always gives the same token)",
    "refuse": "refused: the write fails, naming the type, and nothing is stored",
    "allow": "allowed: stored as written (not scanned)",
}
NOT_SCANNED = "stored as written (not in [pii.actions], so not scanned)"


def _words(action: str | None, entity: str) -> str:
    return NOT_SCANNED if action is None else ACTION_WORDS[action].format(entity=entity)


def default_pii_actions() -> dict[str, Action]:
    """The actions of ``[pii] enabled = true`` when the file sets none (families included: a more
    specific entry wins, and a personal type a plug-in registers later is redacted)."""
    return {"PII": "redact", **_DEFAULT_ACTIONS}


class QuotaSettings(_Section):
    max_file_bytes: int | None = Field(None, ge=1)
    max_file_lines: int | None = Field(None, ge=1, le=999_999)
    max_total_bytes: int | None = Field(None, ge=1)  # file contents plus the text of every path
    max_files: int | None = Field(None, ge=1)
    max_entries: int | None = Field(None, ge=1)  # files and directories

    @model_validator(mode="after")
    def _file_fits_total(self) -> QuotaSettings:
        per_file, total = self.max_file_bytes, self.max_total_bytes
        if per_file is not None and total is not None and per_file > total:
            raise ValueError(
                f"max_file_bytes ({per_file}) is above max_total_bytes ({total}), so no file could ever "
                "reach it; lower max_file_bytes or raise max_total_bytes"
            )
        return self


class TTLSettings(_Section):
    refresh_on_read: bool = True
    expire_after: Seconds | None = None
    since: Literal["access", "write"] = "access"


class HistorySettings(_Section):
    """What the version history keeps: every change is a version with who made it (the audit trail).

    ``content = "keep"`` keeps each version's text, so an operator can review and restore it; the
    text a command replaced or deleted then stays in the history until it is redacted (by an
    operator, by ``keep_content_for``, or by expiry). ``"metadata"`` keeps who changed which
    path when, and the content hash, but no text: replaced and deleted text is erased as if there
    were no history. ``versions = false`` records nothing.
    """

    versions: bool = True
    content: Literal["keep", "metadata"] = "keep"
    keep_content_for: Seconds | None = None  # then sweeps redact the version (None: until redacted)
    redact_expired: bool = True  # expiry redacts every version of what expires


class Rule(_Section):
    """Settings for paths matching ``glob`` (``*`` within a name, ``**`` across directories)."""

    glob: str
    read_only: bool = False
    expire_after: Seconds | None = None
    since: Literal["access", "write"] | None = None
    never_expire: bool = False

    @field_validator("glob")
    @classmethod
    def _can_match(cls, glob: str) -> str:
        """Refuse a glob that no memory path can match: the rule would silently do nothing."""
        never = f"{glob!r} can never match a memory path"
        if glob != "/memories" and not glob.startswith("/memories/"):
            raise ValueError(f"{never}: every path is /memories or starts with /memories/")
        if glob.endswith("/"):
            raise ValueError(f"{never}: paths never end with '/'; write {glob + '**'!r} for everything under it")
        if "//" in glob or any(part in (".", "..") for part in glob.split("/")):
            raise ValueError(f"{never}: paths have no empty, '.' or '..' segments")
        if "\\" in glob:
            raise ValueError(f"{never}: paths never contain a backslash")
        return glob

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
        return rule_pattern(self.glob)

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
    history: HistorySettings = HistorySettings()
    rules: tuple[Rule, ...] = Field((), strict=False)  # a TOML array arrives as a list

    @model_validator(mode="after")
    def _says_what_it_means(self) -> Policy:
        """Refuse what cannot mean what it says (``securemem policy check`` warns about the rest)."""
        seen: dict[str, int] = {}
        for index, rule in enumerate(self.rules):
            if rule.glob in seen:
                raise ValueError(
                    f"rules.{index}.glob: {rule.glob!r} is also the glob of rules.{seen[rule.glob]}; merge the "
                    "two rules (the later one would replace the earlier one whole, nothing is combined)"
                )
            seen[rule.glob] = index
        if self.ttl.expire_after is None and not any(rule.expire_after for rule in self.rules):
            if "since" in self.ttl.model_fields_set:
                raise ValueError("ttl.since is set, but nothing expires: set ttl.expire_after, or remove since")
            for index, rule in enumerate(self.rules):
                if rule.since is not None:
                    raise ValueError(
                        f"rules.{index}.since is set, but files under {rule.glob!r} never expire: set expire_after "
                        "in the rule or in [ttl], or remove since"
                    )
        return self

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

    @cached_property
    def _expiry_cache(self) -> dict[str, Expiry]:
        return {}  # as _rule_cache: every read and write of a file asks for its expiry

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Policy:
        """A copy, without what this policy worked out and cached (the rule and expiry for each path,
        ``has_expiry``): pydantic copies the instance's ``__dict__``, where cached properties live, and a
        copy with other rules or another TTL would answer with this policy's."""
        copy = super().model_copy(update=update, deep=deep)
        for name in _CACHED_PROPERTIES:
            copy.__dict__.pop(name, None)
        return copy

    def expiry_for(self, path: str) -> Expiry:
        """How long a file at ``path`` lives, counted from what, and the rule that said so."""
        cache = self._expiry_cache
        found = cache.get(path)
        if found is None:
            if len(cache) >= _RULE_CACHE_SIZE:
                cache.clear()
            found = cache[path] = self._expiry(path)
        return found

    def _expiry(self, path: str) -> Expiry:
        rule = self.rule_for(path)
        if rule is not None and rule.never_expire:
            return Expiry(None, "write", rule.glob)
        if rule is not None and (rule.expire_after is not None or rule.since is not None):
            return Expiry(rule.expire_after or self.ttl.expire_after, rule.since or self.ttl.since, rule.glob)
        return Expiry(self.ttl.expire_after, self.ttl.since, None)

    @cached_property
    def has_expiry(self) -> bool:
        return self.ttl.expire_after is not None or any(r.expire_after for r in self.rules)


_CACHED_PROPERTIES = tuple(name for name, value in vars(Policy).items() if isinstance(value, cached_property))


def rule_pattern(glob: str) -> re.Pattern[str]:
    """The pattern a rule's glob compiles to (``**`` any depth, ``*`` and ``?`` within a segment)."""
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


_MAX_POLICY_BYTES = 1 << 20  # a policy is a page of TOML: a device (/dev/zero) or a huge file is none


def _locate(source: str | Path) -> tuple[str, str]:
    """(text, name for messages) of a policy file path or a shipped policy name."""
    path = Path(source)
    if path.suffix != ".toml" and not path.exists():
        shipped = resources.files("securemem.policies").joinpath(f"{source}.toml")
        if not shipped.is_file():
            raise PolicyError(f"no policy file or shipped policy named {source!s}")
        return shipped.read_text(encoding="utf-8"), f"{source} (shipped)"
    try:
        return read_limited(path, _MAX_POLICY_BYTES).decode("utf-8"), str(path)
    except OSError as exc:
        raise PolicyError(f"cannot read policy {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise PolicyError(f"{path}: not UTF-8 text (byte {exc.start + 1})") from None


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
        return Policy.model_validate(data, context={_FROM_FILE: True})
    except ValidationError as exc:
        raise PolicyError(f"{where}: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    """One line naming the key: ``quota.max_files: Input should be ...``."""
    first = exc.errors(include_url=False)[0]
    message = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
    message = message.removeprefix("Value error, ")
    key = ".".join(str(p) for p in first["loc"])
    return f"{key}: {message}" if key else message
