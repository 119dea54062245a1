"""Policies: shipped files, validation with one-line errors naming the key, rule precedence,
expiry_for, and ``securemem policy check``."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.cli import main
from securemem.errors import PolicyError
from securemem.pii import ENTITY_TYPES
from securemem.policy import ENTITY_NAMES, Expiry, Policy, Rule, TTLSettings, load_policy, parse_duration

POLICIES = Path(__file__).parents[1] / "policies"
SHIPPED = ("default", "regulated", "refuse-pii")
DAY = 86_400.0


def write_policy(tmp_path: Path, text: str, name: str = "p.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def rules(*specs: Mapping[str, object]) -> Policy:
    return Policy(rules=tuple(Rule.model_validate(spec) for spec in specs))


def glob_for(policy: Policy, path: str) -> str | None:
    rule = policy.rule_for(path)
    return None if rule is None else rule.glob


# ---------------------------------------------------------------- the shipped files


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_policy_loads_by_name_and_by_path(name: str) -> None:
    by_name = load_policy(name)
    assert by_name.name == name
    assert by_name == load_policy(POLICIES / f"{name}.toml") == load_policy(str(POLICIES / f"{name}.toml"))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_policy_file_is_commented(name: str) -> None:
    lines = (POLICIES / f"{name}.toml").read_text().splitlines()
    assert lines[0].startswith(f"# securemem {name}") or lines[0].startswith(f'# securemem "{name}"')
    comments = [line for line in lines if line.lstrip().startswith("#") or " # " in line]
    assert len(comments) >= 4


def test_no_policy_means_the_shipped_default() -> None:
    assert load_policy(None) == load_policy("default")


def test_default_policy_settings() -> None:
    policy = load_policy("default")
    assert policy.pii.enabled is False and policy.pii.actions == {}
    assert policy.quota.model_dump() == dict.fromkeys(
        ("max_file_bytes", "max_file_lines", "max_total_bytes", "max_files")
    )
    assert policy.ttl.expire_after is None and policy.rules == () and policy.has_expiry is False
    assert (policy.view.max_chars, policy.view.max_image_bytes) == (16_000, 5 * 1024 * 1024)
    assert policy.create.overwrite is False and policy.storage.durability == "full"


def test_regulated_policy_settings() -> None:
    policy = load_policy("regulated")
    assert policy.pii.enabled and policy.pii.refuse_paths and policy.pii.phone_region == "US"
    assert policy.pii.actions == {
        "EMAIL": "hash",
        "PHONE": "hash",
        "CREDIT_CARD": "mask",
        "IBAN": "mask",
        "US_SSN": "redact",
        "IP_ADDRESS": "redact",
        "SECRET": "refuse",
        "GENERIC_SECRET": "redact",
        "HIGH_ENTROPY_SECRET": "redact",
    }
    assert policy.quota.model_dump() == {
        "max_file_bytes": 262_144,
        "max_file_lines": 5000,
        "max_total_bytes": 16 * 1024 * 1024,
        "max_files": 2000,
    }
    assert policy.ttl == TTLSettings(refresh_on_read=True, expire_after=90 * DAY, since="access")
    assert policy.view.max_image_bytes == 2 * 1024 * 1024 and policy.create.overwrite is False
    scratch, reference = policy.rules
    assert (scratch.glob, scratch.expire_after, scratch.since, scratch.read_only) == (
        "/memories/scratch/**",
        DAY,
        "write",
        False,
    )
    assert (reference.glob, reference.read_only, reference.never_expire) == ("/memories/reference/**", True, True)


def test_refuse_pii_policy_refuses_every_known_type_and_nothing_else_is_set() -> None:
    policy = load_policy("refuse-pii")
    assert set(ENTITY_NAMES) == set(ENTITY_TYPES)  # the policy's list and the engine's agree
    assert policy.pii.enabled and policy.pii.refuse_paths
    assert policy.pii.actions == {"PII": "refuse", "SECRET": "refuse"}  # the families cover every type
    assert policy.has_expiry is False and policy.rules == ()
    assert set(policy.quota.model_dump().values()) == {None}


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('colour = "red"', "colour: unknown key"),
        ("[quota]\nmax_filez = 3", "quota.max_filez: unknown key"),
        ("[pathguard]\nenabled = false", "pathguard: unknown key"),  # nothing can switch the guard off
        ('[[rules]]\nglob = "/memories/a/**"\nreadonly = true', "rules.0.readonly: unknown key"),
        ("[quota]\nmax_files = 0", "quota.max_files: Input should be greater than or equal to 1"),
        ("[quota]\nmax_files = 2.5", "quota.max_files: Input should be a valid integer"),
        ("[view]\nmax_chars = 10", "view.max_chars: Input should be greater than or equal to 1000"),
        (
            '[ttl]\nexpire_after = "soon"',
            "ttl.expire_after: Value error, a duration above zero, like '90s', '30m', '12h', '7d' or '2w'",
        ),
        (
            '[ttl]\nexpire_after = "0s"',
            "ttl.expire_after: Value error, a duration above zero, like '90s', '30m', '12h', '7d' or '2w'",
        ),
        ("[ttl]\nexpire_after = 0", "ttl.expire_after: Input should be greater than 0"),
        ('[ttl]\nsince = "read"', "ttl.since: Input should be 'access' or 'write'"),
        ('[storage]\ndurability = "fast"', "storage.durability: Input should be 'full' or 'normal'"),
        ('[pii]\nphone_region = "usa"', "pii.phone_region: String should match pattern '^[A-Z]{2}$'"),
        (
            '[pii.actions]\nEMAIL = "scramble"',
            "pii.actions.EMAIL: Input should be 'redact', 'mask', 'hash', 'refuse' or 'allow'",
        ),
        (
            '[pii.actions]\nSSN = "redact"',
            "pii: Value error, unknown entity type 'SSN'; known: " + ", ".join(ENTITY_NAMES),
        ),
        (
            '[[rules]]\nglob = "/etc/**"\nread_only = true',
            "rules.0.glob: String should match pattern '^/memories(/|$)'",
        ),
        ('[[rules]]\nglob = "/memoriesX/**"', "rules.0.glob: String should match pattern '^/memories(/|$)'"),
        ("[[rules]]\nread_only = true", "rules.0.glob: Field required"),
        ("rules = 5", "rules: Input should be a valid tuple"),
        # Strict types: TOML has booleans and numbers, so a look-alike is a mistake, not something to convert.
        ('[pii]\nenabled = "yes"', "pii.enabled: Input should be a valid boolean"),
        (
            '[[rules]]\nglob = "/memories/a/**"\nread_only = "true"',
            "rules.0.read_only: Input should be a valid boolean",
        ),
        ("[ttl]\nexpire_after = true", "ttl.expire_after: Input should be a valid number"),
        ('[quota]\nmax_files = "10"', "quota.max_files: Input should be a valid integer"),
        ("[quota]\nmax_files = true", "quota.max_files: Input should be a valid integer"),
        (
            '[[rules]]\nglob = "/memories/a/**"\n[[rules]]\nglob = "/memories/b/**"\nnever_expire = true\n'
            'expire_after = "1d"',
            "rules.1: Value error, never_expire = true cannot be combined with expire_after or since; keep one",
        ),
    ],
)
def test_a_broken_policy_is_one_line_naming_the_key(tmp_path: Path, text: str, error: str) -> None:
    path = write_policy(tmp_path, text)
    with pytest.raises(PolicyError) as caught:
        load_policy(path)
    assert str(caught.value) == f"{path}: {error}"


def test_invalid_toml_is_one_line(tmp_path: Path) -> None:
    path = write_policy(tmp_path, "[quota\nmax_files = 3\n")
    with pytest.raises(PolicyError) as caught:
        load_policy(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: not valid TOML (") and "line 1" in message and "\n" not in message


def test_missing_policies(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match=r"^no policy file or shipped policy named strict$"):
        load_policy("strict")
    with pytest.raises(PolicyError, match=r"^cannot read policy .*missing\.toml: No such file or directory$"):
        load_policy(tmp_path / "missing.toml")


def test_open_refuses_to_start_with_a_broken_policy_and_creates_nothing(tmp_path: Path) -> None:
    path = write_policy(tmp_path, "[quota]\nmax_files = -1\n")
    db = tmp_path / "m.db"
    with pytest.raises(PolicyError, match=r"quota\.max_files: Input should be greater than or equal to 1$"):
        SecureMemory.open(db, key=os.urandom(32), policy=path)
    with pytest.raises(PolicyError, match="no policy file or shipped policy named regulatd"):
        SecureMemory.open(db, key=os.urandom(32), policy="regulatd")
    assert list(tmp_path.iterdir()) == [path]


def test_a_policy_file_may_set_any_subset_and_durations_or_seconds(tmp_path: Path) -> None:
    path = write_policy(
        tmp_path,
        'name = "bank"\n[ttl]\nexpire_after = 3600\n[[rules]]\nglob = "/memories/t/**"\nexpire_after = "1.5h"\n',
    )
    policy = load_policy(path)
    assert policy.name == "bank" and policy.ttl.expire_after == 3600.0 and policy.rules[0].expire_after == 5400.0
    assert policy.view == load_policy(None).view


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90s", 90),
        ("30m", 1800),
        ("12h", 43_200),
        ("7d", 604_800),
        ("2w", 1_209_600),
        ("1.5h", 5400),
        (" 7d ", 604_800),
    ],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["7", "7 days", "-1d", "0s", "0.0h", "1y", "", "d"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError, match="a duration above zero"):
        parse_duration(text)


# ---------------------------------------------------------------- globs and precedence


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("/memories/scratch/**", "/memories/scratch/a.md", True),
        ("/memories/scratch/**", "/memories/scratch/deep/er/a.md", True),
        ("/memories/scratch/**", "/memories/scratch", False),  # the directory itself: see Access for subtrees
        ("/memories/scratch/**", "/memories/scratch-old/a.md", False),
        ("/memories/*.md", "/memories/a.md", True),
        ("/memories/*.md", "/memories/x/a.md", False),  # '*' stays within one name
        ("/memories/**/secret.md", "/memories/secret.md", True),  # '**/' is zero or more directories
        ("/memories/**/secret.md", "/memories/a/b/secret.md", True),
        ("/memories/**/secret.md", "/memories/a/b/secret.mdx", False),
        ("/memories/log?.md", "/memories/log1.md", True),
        ("/memories/log?.md", "/memories/log12.md", False),
        ("/memories/a.b/**", "/memories/aXb/c.md", False),  # literal characters are literal
    ],
)
def test_glob_semantics(glob: str, path: str, matches: bool) -> None:
    assert Rule(glob=glob).matches(path) is matches


def test_most_literal_characters_win_whatever_the_order() -> None:
    specs: list[Mapping[str, object]] = [
        {"glob": "/memories/**", "expire_after": "7d"},
        {"glob": "/memories/scratch/**", "expire_after": "1d"},
        {"glob": "/memories/scratch/keep/**", "never_expire": True},
    ]
    for ordered in (specs, specs[::-1]):
        policy = rules(*ordered)
        assert glob_for(policy, "/memories/a.md") == "/memories/**"
        assert glob_for(policy, "/memories/scratch/a.md") == "/memories/scratch/**"
        assert glob_for(policy, "/memories/scratch/keep/a/b.md") == "/memories/scratch/keep/**"


def test_with_equal_literals_fewer_wildcards_win_whatever_the_order() -> None:
    specs: list[Mapping[str, object]] = [{"glob": "/memories/a/**.md"}, {"glob": "/memories/a/*.md"}]
    for ordered in (specs, specs[::-1]):
        assert glob_for(rules(*ordered), "/memories/a/x.md") == "/memories/a/*.md"


def test_on_a_full_tie_the_later_rule_wins() -> None:
    first, second = {"glob": "/memories/*/x.md"}, {"glob": "/memories/a/*.md"}
    assert glob_for(rules(first, second), "/memories/a/x.md") == "/memories/a/*.md"
    assert glob_for(rules(second, first), "/memories/a/x.md") == "/memories/*/x.md"


def test_no_matching_rule() -> None:
    assert load_policy("regulated").rule_for("/memories/notes/a.md") is None
    assert Policy().rule_for("/memories/a.md") is None


# ---------------------------------------------------------------- expiry_for


def test_expiry_for_the_regulated_areas() -> None:
    policy = load_policy("regulated")
    assert policy.expiry_for("/memories/scratch/a/b.md") == Expiry(DAY, "write", "/memories/scratch/**")
    assert policy.expiry_for("/memories/reference/a.md") == Expiry(None, "write", "/memories/reference/**")
    assert policy.expiry_for("/memories/notes/a.md") == Expiry(90 * DAY, "access", None)


def test_a_rule_falls_back_to_ttl_for_what_it_does_not_set() -> None:
    policy = Policy(
        ttl=TTLSettings(expire_after=10 * DAY, since="access"),
        rules=(
            Rule(glob="/memories/logs/**", since="write"),
            Rule(glob="/memories/tmp/**", expire_after=60),
            Rule(glob="/memories/docs/**", read_only=True),
        ),
    )
    assert policy.expiry_for("/memories/logs/a") == Expiry(10 * DAY, "write", "/memories/logs/**")
    assert policy.expiry_for("/memories/tmp/a") == Expiry(60, "access", "/memories/tmp/**")
    # A rule that says nothing about expiry does not decide it: the [ttl] default does.
    assert policy.expiry_for("/memories/docs/a") == Expiry(10 * DAY, "access", None)


def test_expiry_from_rules_alone_and_the_deadline() -> None:
    policy = Policy(rules=(Rule(glob="/memories/tmp/**", expire_after=60),))
    assert policy.has_expiry is True
    assert policy.expiry_for("/memories/a.md") == Expiry(None, "access", None)
    assert policy.expiry_for("/memories/tmp/a").deadline(1000.0) == 1060.0
    assert policy.expiry_for("/memories/a.md").deadline(1000.0) is None
    assert Policy(rules=(Rule(glob="/memories/k/**", never_expire=True),)).has_expiry is False


# ---------------------------------------------------------------- securemem policy check


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("name", "chain"),
    [
        ("default", "PathGuard -> ViewTruncate -> Dispatcher"),
        ("regulated", "PathGuard -> PIIScrub -> Access -> TTL -> Quota -> ViewTruncate -> Dispatcher"),
        ("refuse-pii", "PathGuard -> PIIScrub -> ViewTruncate -> Dispatcher"),
    ],
)
def test_policy_check_prints_the_chain_and_every_effective_setting(
    capsys: pytest.CaptureFixture[str], name: str, chain: str
) -> None:
    path = str(POLICIES / f"{name}.toml")
    code, out, err = run_cli(capsys, "policy", "check", path)
    assert (code, err) == (0, "")
    first, second, rest = out.split("\n", 2)
    assert first == f"{path}: valid policy '{name}'"
    assert second == f"middleware chain: {chain}"
    assert json.loads(rest) == load_policy(name).model_dump(mode="json")


def test_policy_check_shows_defaults_a_file_leaves_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_policy(
        tmp_path, '[ttl]\nexpire_after = "2d"\n[[rules]]\nglob = "/memories/ref/**"\nread_only = true\n'
    )
    code, out, _ = run_cli(capsys, "policy", "check", str(path))
    settings = json.loads(out.split("\n", 2)[2])
    assert code == 0 and "PathGuard -> Access -> TTL -> ViewTruncate" in out
    assert settings["name"] == "custom" and settings["view"]["max_chars"] == 16_000
    assert settings["ttl"] == {"refresh_on_read": True, "expire_after": 172_800.0, "since": "access"}
    assert settings["rules"] == [
        {"glob": "/memories/ref/**", "read_only": True, "expire_after": None, "since": None, "never_expire": False}
    ]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("[quota]\nmax_filez = 3\n", "quota.max_filez: unknown key"),
        (
            '[[rules]]\nglob = "/memories/**"\nread_only = "maybe"\n',
            "rules.0.read_only: Input should be a valid boolean",
        ),
    ],
)
def test_policy_check_of_a_broken_file_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, error: str
) -> None:
    path = write_policy(tmp_path, text)
    assert run_cli(capsys, "policy", "check", str(path)) == (2, "", f"securemem: error: {path}: {error}\n")


def test_policy_check_of_a_missing_file_or_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "policy", "check", "nosuch")
    assert (code, out, err) == (2, "", "securemem: error: no policy file or shipped policy named nosuch\n")
    code, _, err = run_cli(capsys, "policy", "check", str(tmp_path / "gone.toml"))
    assert code == 2 and err.startswith("securemem: error: cannot read policy") and err.count("\n") == 1
