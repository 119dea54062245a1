"""Policies: shipped files, validation with one-line errors naming the key, rule precedence,
expiry_for, and ``securemem policy check``."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.errors import PolicyError
from securemem.mounts import parse_stores
from securemem.pii import ENTITY_TYPES
from securemem.pii.entities import resolve as resolve_actions
from securemem.policy import (
    ENTITY_NAMES,
    Expiry,
    PIISettings,
    Policy,
    Rule,
    TTLSettings,
    default_pii_actions,
    format_duration,
    load_policy,
    parse_duration,
)
from securemem.store.factory import open_store
from tests.helpers import DAY, run_cli, write_policy

POLICIES = Path(__file__).parents[1] / "policies"
SHIPPED = ("default", "regulated", "refuse-pii")
FORM = "write a duration like '90s', '30m', '12h', '7d' or '2w'"
ONE = "write one like '90s', '30m', '12h', '7d' or '2w'"
NEVER = "can never match a memory path"


def load_error(path: Path) -> str:
    """The PolicyError that loading the policy file ``path`` raises, as text."""
    with pytest.raises(PolicyError) as caught:
        load_policy(path)
    return str(caught.value)


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
        ("max_file_bytes", "max_file_lines", "max_total_bytes", "max_files", "max_entries")
    )
    assert policy.ttl.expire_after is None and policy.rules == () and policy.has_expiry is False
    assert (policy.view.max_chars, policy.view.max_image_bytes) == (16_000, 5 * 1024 * 1024)
    assert policy.create.overwrite is False and policy.storage.durability == "full"
    assert policy.storage.erase_within == 1.0


def test_regulated_policy_settings() -> None:
    policy = load_policy("regulated")
    assert policy.pii.enabled and policy.pii.refuse_paths and policy.pii.phone_regions[0] == "US"
    assert policy.pii.actions == {
        "PII": "redact",
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
        "max_entries": 4000,
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
            f"ttl.expire_after: 'soon' is not a duration; {ONE}",
        ),
        (
            '[ttl]\nexpire_after = "0s"',
            f"ttl.expire_after: a duration must be above zero; {ONE}",
        ),
        # A bare number could be seconds or days: refused, naming the key and showing the form.
        ("[ttl]\nexpire_after = 0", f"ttl.expire_after: 0 has no unit; {FORM}"),
        ("[ttl]\nexpire_after = 90", f"ttl.expire_after: 90 has no unit; {FORM}"),
        ("[ttl]\nexpire_after = 1.5", f"ttl.expire_after: 1.5 has no unit; {FORM}"),
        ('[ttl]\nexpire_after = "90"', f"ttl.expire_after: 90 has no unit; {FORM}"),
        ('[[rules]]\nglob = "/memories/t/**"\nexpire_after = 3600', f"rules.0.expire_after: 3600 has no unit; {FORM}"),
        ('[ttl]\nsince = "read"', "ttl.since: Input should be 'access' or 'write'"),
        ('[storage]\ndurability = "fast"', "storage.durability: Input should be 'full' or 'normal'"),
        ('[pii]\nphone_region = "usa"', "pii.phone_region: String should match pattern '^[A-Z]{2}$'"),
        (
            '[pii.actions]\nEMAIL = "scramble"',
            "pii.actions.EMAIL: Input should be 'redact', 'mask', 'hash', 'refuse' or 'allow'",
        ),
        (
            '[pii.actions]\nSSN = "redact"',
            "pii: unknown entity type 'SSN'; known: " + ", ".join(ENTITY_NAMES),
        ),
        (
            '[[rules]]\nglob = "/etc/**"\nread_only = true',
            f"rules.0.glob: '/etc/**' {NEVER}: every path is /memories or starts with /memories/",
        ),
        (
            '[[rules]]\nglob = "/memoriesX/**"',
            f"rules.0.glob: '/memoriesX/**' {NEVER}: every path is /memories or starts with /memories/",
        ),
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
            "rules.1: never_expire = true cannot be combined with expire_after or since; keep one",
        ),
    ],
)
def test_a_broken_policy_is_one_line_naming_the_key(tmp_path: Path, text: str, error: str) -> None:
    path = write_policy(tmp_path, text)
    assert load_error(path) == f"{path}: {error}"


def test_invalid_toml_is_one_line(tmp_path: Path) -> None:
    path = write_policy(tmp_path, "[quota\nmax_files = 3\n")
    message = load_error(path)
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


def test_a_policy_file_may_set_any_subset(tmp_path: Path) -> None:
    path = write_policy(
        tmp_path,
        'name = "bank"\n[ttl]\nexpire_after = "1h"\n[[rules]]\nglob = "/memories/t/**"\nexpire_after = "1.5h"\n',
    )
    policy = load_policy(path)
    assert policy.name == "bank" and policy.ttl.expire_after == 3600.0 and policy.rules[0].expire_after == 5400.0
    assert policy.view == load_policy(None).view


def test_in_python_a_number_of_seconds_is_still_a_duration() -> None:
    # Only a file is ambiguous (is 90 seconds or days?); the Python API takes seconds, as sweeper(every=600) does.
    assert TTLSettings(expire_after=3600).expire_after == 3600.0
    assert TTLSettings.model_validate({"expire_after": "1h"}).expire_after == 3600.0
    assert Rule(glob="/memories/t/**", expire_after=90).expire_after == 90.0


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


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7", f"7 has no unit; {FORM}"),
        ("1.5", f"1.5 has no unit; {FORM}"),
        ("-3", f"-3 has no unit; {FORM}"),
        ("7 days", f"'7 days' is not a duration; {ONE}"),
        ("-1d", f"'-1d' is not a duration; {ONE}"),
        ("1y", f"'1y' is not a duration; {ONE}"),
        ("", f"'' is not a duration; {ONE}"),
        ("d", f"'d' is not a duration; {ONE}"),
        ("0s", f"a duration must be above zero; {ONE}"),
        ("0.0h", f"a duration must be above zero; {ONE}"),
    ],
)
def test_bad_durations(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_duration(text)
    assert str(caught.value) == message


def test_a_long_bad_duration_is_cut_in_the_message() -> None:
    with pytest.raises(ValueError) as caught:
        parse_duration("x" * 10_000)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (90 * DAY, "90d"),
        (14 * DAY, "14d"),
        (DAY, "1d"),
        (5400.0, "90m"),
        (3600.0, "1h"),
        (90.0, "90s"),
        (0.5, "0.5s"),
        (1e-07, "0.0000001s"),
        (86_401.0, "86401s"),
    ],
)
def test_durations_are_shown_as_people_write_them_and_read_back(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text
    assert parse_duration(text) == seconds


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


@pytest.mark.parametrize(
    ("name", "chain"),
    [
        ("default", "PathGuard -> ViewTruncate -> Transaction -> Dispatcher"),
        ("regulated", "PathGuard -> PIIScrub -> Access -> TTL -> Quota -> ViewTruncate -> Transaction -> Dispatcher"),
        ("refuse-pii", "PathGuard -> PIIScrub -> ViewTruncate -> Transaction -> Dispatcher"),
    ],
)
def test_policy_check_prints_the_chain_and_every_effective_setting(
    capsys: pytest.CaptureFixture[str], name: str, chain: str
) -> None:
    path = str(POLICIES / f"{name}.toml")
    code, out, err = run_cli(capsys, "policy", "check", path)
    assert (code, err) == (0, "")  # the shipped policies draw no warning
    first, second, _ = out.split("\n", 2)
    assert first == f"{path}: valid policy '{name}'"
    assert second == f"middleware chain: {chain}"
    assert settings_of(out) == load_policy(name).model_dump(mode="json")


def settings_of(out: str) -> dict[str, object]:
    settings: dict[str, object] = json.loads(out.split("effective settings, defaults included:\n", 1)[1])
    return settings


def test_policy_check_shows_defaults_a_file_leaves_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_policy(
        tmp_path,
        '[ttl]\nexpire_after = "2d"\n[[rules]]\nglob = "/memories/ref/**"\nread_only = true\nnever_expire = true\n',
    )
    code, out, _ = run_cli(capsys, "policy", "check", str(path))
    settings = settings_of(out)
    assert code == 0 and "PathGuard -> Access -> TTL -> ViewTruncate" in out
    assert settings["name"] == "custom" and settings["view"] == {"max_chars": 16_000, "max_image_bytes": 5_242_880}
    assert settings["ttl"] == {"refresh_on_read": True, "expire_after": "2d", "since": "access"}
    assert settings["rules"] == [
        {"glob": "/memories/ref/**", "read_only": True, "expire_after": None, "since": None, "never_expire": True}
    ]


def test_policy_check_prints_durations_as_people_write_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "policy", "check", "regulated")
    assert code == 0 and "7776000" not in out and "86400" not in out
    assert "expiry: files expire 90d after the last access (a view pushes it back)" in out
    assert "  /memories/scratch/**    expires 1d after the last write" in out
    assert "  /memories/reference/**  read-only; never expires" in out
    assert '"expire_after": "90d"' in out and '"expire_after": "1d"' in out
    assert "quota: 262,144 bytes and 5,000 lines per file; 16,777,216 bytes and 2,000 files per namespace" in out


def test_policy_check_says_what_is_scrubbed_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "policy", "check", "regulated")
    assert re.search(r"\n  EMAIL +replaced by a keyed token \(the same value always gives the same token\)\n", out)
    assert re.search(r"\n  \d+ secret types +refused: the write fails", out)
    assert re.search(r"\n  CREDIT_CARD +masked: only the last 4 characters are kept\n", out)
    assert re.search(r"\n  US_SSN +redacted: replaced by \[US_SSN\]\n", out)
    assert re.search(r"\n  GENERIC_SECRET, HIGH_ENTROPY_SECRET +redacted", out)  # acted on apart from SECRET
    assert "  a path carrying any scanned type is refused\n" in out
    _, out, _ = run_cli(capsys, "policy", "check", "default")
    assert "PII: nothing is scrubbed; every value is stored as written ([pii] is off)\n" in out


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


# ---------------------------------------------------------------- one parser for files and --every


@pytest.mark.parametrize(
    ("every", "message"),
    [
        ("90", f"--every: 90 has no unit; {FORM}"),
        ("0s", f"--every: a duration must be above zero; {ONE}"),
        # an empty interval ran one sweep and exited 0, as if --every had not been given (an attacker's round)
        ("", f"--every: '' is not a duration; {ONE}"),
        ("soon", f"--every: 'soon' is not a duration; {ONE}"),
        # Past threading.TIMEOUT_MAX the wait after the first sweep failed as an internal error (attacker B).
        *(
            (every, "--every: at most 366d between two sweeps; a sweeper run less often is better run by cron")
            # (and values a float rounds down to 366d, "366.00000000000002d": an attack on the README's promises)
            for every in (
                "3000000d",
                "999999999999w",
                "9999999999999999999s",
                "367d",
                "366.00000000000002d",
                "31622400.000000001s",
            )
        ),
        # "0.0001s" swept about every millisecond: a core and 1,700 log lines a second (an attacker's round)
        *(
            (
                every,
                "--every: at least 1s between two sweeps (nothing expired is ever shown, swept or not)",
            )
            # (and a value whose float rounds up to 1.0, "0.99999999999999999s": an attacker's round)
            for every in (
                "0.0001s",
                "0.999s",
                "0.5s",
                "0.99999999999999999s",
                "0.0166666666666666666m",
                "0." + "0" * 400 + "1s",
            )  # (a float reads the last as zero: "must be above zero" was the reason)
        ),
    ],
)
def test_sweep_every_takes_the_same_durations_as_policy_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], every: str, message: str
) -> None:
    # The interval is read before the store is opened: no store or key is needed to see the error.
    code, out, err = run_cli(capsys, "sweep", "--db", str(tmp_path / "m.db"), "--every", every)
    assert (code, out, err) == (2, "", f"securemem: error: {message}\n")


# ---------------------------------------------------------------- [pii]: one switch, never silently off


EMAIL_ADDRESS = "dana.reyes@example.com"


def stored_text(tmp_path: Path, policy_text: str) -> str:
    """Write a note with an email under the policy; what the model sees when it views it back."""
    path = write_policy(tmp_path, policy_text)
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy=path) as memory:
        memory.execute({"command": "create", "path": "/memories/a.md", "file_text": f"mail {EMAIL_ADDRESS}\n"})
        return memory.execute({"command": "view", "path": "/memories/a.md"}).text


def test_pii_actions_without_enabled_switch_scrubbing_on(tmp_path: Path) -> None:
    policy = load_policy(write_policy(tmp_path, '[pii.actions]\nEMAIL = "redact"\n'))
    assert policy.pii.enabled is True and policy.pii.actions == {"EMAIL": "redact"}
    text = stored_text(tmp_path, '[pii.actions]\nEMAIL = "redact"\n')
    assert EMAIL_ADDRESS not in text and "[EMAIL]" in text


def test_pii_enabled_without_actions_scrubs_the_default_actions(tmp_path: Path) -> None:
    policy = load_policy(write_policy(tmp_path, "[pii]\nenabled = true\n"))
    assert policy.pii.actions == default_pii_actions() == load_policy("regulated").pii.actions
    # every type is handled, through its own entry or its family's: none is left unscanned
    assert set(resolve_actions(default_pii_actions())) == set(ENTITY_NAMES)
    assert PIISettings(enabled=True).actions == default_pii_actions()
    text = stored_text(tmp_path, "[pii]\nenabled = true\n")
    assert EMAIL_ADDRESS not in text and "[EMAIL:" in text


def test_pii_enabled_false_beside_actions_is_a_contradiction(tmp_path: Path) -> None:
    path = write_policy(tmp_path, '[pii]\nenabled = false\n[pii.actions]\nEMAIL = "hash"\n')
    assert load_error(path) == (
        f"{path}: pii: enabled = false contradicts the actions set in [pii.actions]; remove one "
        "(actions switch scrubbing on by themselves)"
    )


def test_no_pii_section_scrubs_nothing_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert EMAIL_ADDRESS in stored_text(tmp_path, 'name = "plain"\n')
    assert load_policy(write_policy(tmp_path, "[pii]\nenabled = false\n")).pii.actions == {}


def test_policy_check_names_the_types_a_partial_table_leaves_unscanned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_policy(tmp_path, '[pii.actions]\nEMAIL = "mask"\n')
    code, out, err = run_cli(capsys, "policy", "check", str(path))
    assert (code, err) == (0, "") and "PIIScrub" in out
    assert re.search(r"\n  EMAIL +masked: only the last 4 characters are kept\n", out)
    assert re.search(r"\n  PHONE +stored as written \(not in \[pii.actions\], so not scanned\)\n", out)


# ---------------------------------------------------------------- what cannot mean what it says is refused


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            '[[rules]]\nglob = "/memories/reference/"\nread_only = true',
            f"rules.0.glob: '/memories/reference/' {NEVER}: paths never end with '/'; "
            "write '/memories/reference/**' for everything under it",
        ),
        (
            '[[rules]]\nglob = "/memories//a/**"',
            f"rules.0.glob: '/memories//a/**' {NEVER}: paths have no empty, '.' or '..' segments",
        ),
        (
            '[[rules]]\nglob = "/memories/../a/**"',
            f"rules.0.glob: '/memories/../a/**' {NEVER}: paths have no empty, '.' or '..' segments",
        ),
        (
            '[[rules]]\nglob = "/memories/./a"',
            f"rules.0.glob: '/memories/./a' {NEVER}: paths have no empty, '.' or '..' segments",
        ),
        (
            "[[rules]]\nglob = '/memories/a\\b/**'",
            f"rules.0.glob: '/memories/a\\\\b/**' {NEVER}: paths never contain a backslash",
        ),
        (
            '[[rules]]\nglob = "memories/a/**"',
            f"rules.0.glob: 'memories/a/**' {NEVER}: every path is /memories or starts with /memories/",
        ),
        (
            '[[rules]]\nglob = "/memories/a/**"\nread_only = true\n'
            '[[rules]]\nglob = "/memories/a/**"\nexpire_after = "1d"',
            "rules.1.glob: '/memories/a/**' is also the glob of rules.0; merge the two rules (the later one would "
            "replace the earlier one whole, nothing is combined)",
        ),
        (
            "[quota]\nmax_file_bytes = 2048\nmax_total_bytes = 1024",
            "quota: max_file_bytes (2048) is above max_total_bytes (1024), so no file could ever reach it; "
            "lower max_file_bytes or raise max_total_bytes",
        ),
        ('[ttl]\nsince = "write"', "ttl.since is set, but nothing expires: set ttl.expire_after, or remove since"),
        (
            '[[rules]]\nglob = "/memories/logs/**"\nsince = "write"',
            "rules.0.since is set, but files under '/memories/logs/**' never expire: set expire_after in the rule "
            "or in [ttl], or remove since",
        ),
    ],
)
def test_a_policy_that_cannot_mean_what_it_says_is_refused(tmp_path: Path, text: str, error: str) -> None:
    path = write_policy(tmp_path, text)
    assert load_error(path) == f"{path}: {error}"


def test_since_is_meaningful_once_anything_expires(tmp_path: Path) -> None:
    load_policy(
        write_policy(tmp_path, '[ttl]\nsince = "write"\n[[rules]]\nglob = "/memories/t/**"\nexpire_after = "1d"')
    )
    load_policy(
        write_policy(tmp_path, '[ttl]\nexpire_after = "9d"\n[[rules]]\nglob = "/memories/t/**"\nsince = "write"')
    )
    load_policy(write_policy(tmp_path, "[quota]\nmax_file_bytes = 1024\nmax_total_bytes = 1024"))


# ---------------------------------------------------------------- what is likely not meant is warned about


@pytest.mark.parametrize(
    ("text", "warnings"),
    [
        (
            '[[rules]]\nglob = "/memories/reference/*"\nread_only = true\nnever_expire = true',
            [
                "rules.0 (/memories/reference/*) covers only the files directly in /memories/reference/, not its "
                "subfolders; write '/memories/reference/**' to cover them too"
            ],
        ),
        (
            '[ttl]\nexpire_after = "30d"\n[[rules]]\nglob = "/memories/reference/**"\nread_only = true',
            [
                "rules.0 (/memories/reference/**) is read-only, but its files still expire 30d after the last access "
                "(from [ttl]); add never_expire = true to keep them"
            ],
        ),
        (
            '[[rules]]\nglob = "/memories/ref/**"\nread_only = true\n[[rules]]\nglob = "/memories/ref/inbox/**"',
            [
                "rules.1 (/memories/ref/inbox/**) is more specific than rules.0 (/memories/ref/**) and wins whole "
                "(rules inherit nothing): its files are not read-only; repeat what is meant in rules.1"
            ],
        ),
        (
            '[[rules]]\nglob = "/memories/k/**"\nnever_expire = true\n'
            '[[rules]]\nglob = "/memories/k/x/**"\nread_only = true\n[ttl]\nexpire_after = "1d"',
            [
                "rules.1 (/memories/k/x/**) is read-only, but its files still expire 1d after the last access (from "
                "[ttl]); add never_expire = true to keep them",
                "rules.1 (/memories/k/x/**) is more specific than rules.0 (/memories/k/**) and wins whole (rules "
                "inherit nothing): its files expire by [ttl], not by that rule; repeat what is meant in rules.1",
            ],
        ),
        (
            '[[rules]]\nglob = "/memories/notes/**"',
            [
                "rules.0 (/memories/notes/**) sets nothing (read_only, expire_after, since or never_expire), "
                "so it has no effect"
            ],
        ),
        (
            '[[rules]]\nglob = "/memories/[ab]/**"\nread_only = true',
            [
                "rules.0 (/memories/[ab]/**): '[', ']', '{' and '}' are literal characters here; "
                "only *, ** and ? are wildcards"
            ],
        ),
        (
            '[[rules]]\nglob = "/memories"\nread_only = true',
            ["rules.0 (/memories) matches only the root folder, no file in it; write '/memories/**' for every file"],
        ),
        (
            '[pii]\nphone_region = "GB"',
            ["pii.phone_region has no effect: PII scrubbing is off (set enabled = true or [pii.actions])"],
        ),
        (
            '[pii.actions]\nEMAIL = "allow"',
            ["pii: every action is 'allow', so nothing is scrubbed although [pii] is on"],
        ),
        (
            "[ttl]\nrefresh_on_read = false",
            ["ttl.refresh_on_read has no effect: nothing expires (no expire_after in [ttl] or any rule)"],
        ),
    ],
)
def test_policy_check_warns_one_line_each_about_what_is_likely_not_meant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, warnings: list[str]
) -> None:
    path = write_policy(tmp_path, text)
    code, out, err = run_cli(capsys, "policy", "check", str(path))
    assert code == 0 and out.startswith(f"{path}: valid policy")
    assert err.splitlines() == [f"securemem: warning: {path}: {warning}" for warning in warnings]


def test_a_deliberate_writable_area_inside_a_read_only_one_draws_no_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_policy(
        tmp_path,
        '[[rules]]\nglob = "/memories/ref/**"\nread_only = true\n'
        '[[rules]]\nglob = "/memories/ref/inbox/**"\nread_only = false\n',
    )
    assert run_cli(capsys, "policy", "check", str(path))[2] == ""


def test_a_handle_made_from_an_open_store_runs_under_the_stores_policy_or_adopts(tmp_path: Path) -> None:
    """Found by an attacker: ``SecureMemory(open_store(db, key), Policy())`` on a ``regulated``
    store stored PII and wrote into its read-only area, with no adoption and no audit record."""
    db, key = tmp_path / "p.db", b"k" * 32
    SecureMemory.open(db, key=key, policy="regulated").close()
    store = open_store(str(db), key)
    try:
        with pytest.raises(PolicyError, match="adopt_policy=True"):
            SecureMemory(store, Policy())
        same = SecureMemory(store, load_policy("regulated"), owns_store=False)
        assert same.execute({"command": "create", "path": "/memories/reference/x.md", "file_text": "x"}).is_error
        adopted = SecureMemory(store, Policy(), owns_store=False, adopt_policy=True)
        assert not adopted.execute({"command": "create", "path": "/memories/reference/x.md", "file_text": "x"}).is_error
    finally:
        store.close()
    with SecureMemory.open(db, key=key) as reopened:
        assert reopened.policy.name == Policy().name
    fresh = open_store(str(tmp_path / "new.db"), key)
    try:
        SecureMemory(fresh, load_policy("regulated"), owns_store=False)  # a store with none records this one
    finally:
        fresh.close()
    with SecureMemory.open(tmp_path / "new.db", key=key) as reopened:
        assert reopened.policy.name == "regulated"


def test_a_handle_over_mounted_stores_runs_under_the_stores_policy_too(tmp_path: Path) -> None:
    """Found by an attacker: with mounts the constructor skipped the check, and a handle under
    `default` stored PII in a `regulated` store's mounted store."""
    db, key = tmp_path / "m.db", b"k" * 32
    SecureMemory.open(db, key=key, policy="regulated").close()
    store = open_store(str(db), key)
    try:
        team = store.create_store("team", "", 0.0)
        assert team is not None
        table = parse_stores([{"memory_store_id": team.id}], lambda id_: store.find_store(store_id=id_))
        with pytest.raises(PolicyError, match="adopt_policy=True"):
            SecureMemory(store, load_policy("default"), mounts=table, owns_store=False)
    finally:
        store.close()


def test_a_copy_with_other_rules_never_answers_with_the_originals_cached_rule() -> None:
    # The rule found for a path is cached on the policy; pydantic's model_copy copies the instance's
    # __dict__, where that cache lives.
    original = load_policy("regulated")
    assert original.expiry_for("/memories/scratch/a.md").rule == "/memories/scratch/**"  # cached now
    copy = original.model_copy(update={"rules": [Rule(glob="/memories/**", never_expire=True)]})
    assert copy.expiry_for("/memories/scratch/a.md") == Expiry(None, "write", "/memories/**")
    assert original.expiry_for("/memories/scratch/a.md").rule == "/memories/scratch/**"
    # ... nor with the original's expiry or has_expiry once its TTL differs
    assert original.has_expiry and original.expiry_for("/memories/a.md").after is not None
    forever = original.model_copy(update={"ttl": original.ttl.model_copy(update={"expire_after": None}), "rules": ()})
    assert not forever.has_expiry
    assert forever.expiry_for("/memories/a.md").after is None


def test_a_refused_policy_of_the_same_name_says_which_settings_differ(tmp_path: Path) -> None:
    """Found by an attacker: a copy of `regulated` with one quota changed was refused as "runs under
    policy 'regulated' ..., not the policy 'regulated'", which says nothing of what differs."""
    db, key = tmp_path / "p.db", b"k" * 32
    SecureMemory.open(db, key=key, policy="regulated").close()
    regulated = load_policy("regulated")
    changed = regulated.model_copy(update={"quota": regulated.quota.model_copy(update={"max_files": 2001})})
    with pytest.raises(PolicyError) as caught:
        SecureMemory.open(db, key=key, policy=changed)
    assert "(they differ in quota.max_files)" in str(caught.value)
    assert "2001" not in str(caught.value)  # names, never values
    with pytest.raises(PolicyError, match=r"\(they differ in [\w.]+(, [\w.]+){4}, \.\.\.\)"):
        SecureMemory.open(db, key=key, policy="default")
