"""How the layers work together: the chain a policy builds, deployment layers, which refusal wins,
quota after scrubbing, expiry under quota and renames, and a short scenario under each shipped policy."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from securemem import Result, SecureMemory, load_policy, middleware
from securemem.errors import CommandError
from securemem.middleware import Call, Handler, Middleware, Transaction, build_layers
from securemem.pii import members
from securemem.policy import PIISettings, Policy, QuotaSettings, Rule, TTLSettings
from securemem.store.factory import open_store
from tests.helpers import DAY, T0, Clock, dump, ok, pii_refusal, refused, stored_text, write_policy

EMAIL = "dana.reyes@example.com"
READ_ONLY = (
    "Error: {} is read-only (policy 'regulated', rule '/memories/reference/**'): it can be viewed but not "
    "created, edited, moved or deleted. Write your notes elsewhere."
)
PATH_PII = (
    "Error: The path contains EMAIL; paths must not carry personal data or secrets (policy '{}'). Use a "
    "neutral name, such as /memories/customers/customer-42.md, and keep details inside the file."
)


OpenMem = Callable[..., SecureMemory]


@pytest.fixture
def open_mem(tmp_path: Path, key: bytes) -> OpenMem:
    """``open_mem(policy, clock=None, layers=())``: a shipped name or TOML text, on tmp_path/m.db."""

    def make(policy: str, clock: Clock | None = None, layers: tuple[Middleware, ...] = ()) -> SecureMemory:
        if policy not in ("default", "regulated", "refuse-pii"):
            policy = str(write_policy(tmp_path, policy))
        return SecureMemory.open(tmp_path / "m.db", key=key, policy=policy, clock=clock or Clock(), layers=layers)

    return make


# ---------------------------------------------------------------- the chain


class Recorder:
    """A deployment's own layer: remembers what reached it."""

    def __init__(self) -> None:
        self.seen: list[tuple[tuple[str, ...], str | None]] = []

    def __call__(self, call: Call, call_next: Handler) -> Result:
        self.seen.append((call.command.paths, getattr(call.command, "file_text", None)))
        return call_next(call)


def names(policy: Policy, extra: tuple[Middleware, ...] = ()) -> list[str]:
    store = open_store("memory://")
    return [type(layer).__name__ for layer in build_layers(policy, Transaction(store, "default", time.time), extra)]


@pytest.mark.parametrize(
    ("policy", "chain"),
    [
        (load_policy("default"), ["PathGuard", "ViewTruncate"]),
        (load_policy("refuse-pii"), ["PathGuard", "PIIScrub", "ViewTruncate"]),
        (load_policy("regulated"), ["PathGuard", "PIIScrub", "Access", "TTL", "Quota", "ViewTruncate"]),
        (Policy(quota=QuotaSettings(max_files=1)), ["PathGuard", "Quota", "ViewTruncate"]),
        (Policy(ttl=TTLSettings(expire_after=60)), ["PathGuard", "TTL", "ViewTruncate"]),
        (Policy(rules=(Rule(glob="/memories/t/**", expire_after=60),)), ["PathGuard", "TTL", "ViewTruncate"]),
        (Policy(rules=(Rule(glob="/memories/r/**", read_only=True),)), ["PathGuard", "Access", "ViewTruncate"]),
        # Actions switch scrubbing on; enabled = true alone scrubs the default actions.
        (Policy(pii=PIISettings(actions={"EMAIL": "refuse"})), ["PathGuard", "PIIScrub", "ViewTruncate"]),
        (Policy(pii=PIISettings(enabled=True)), ["PathGuard", "PIIScrub", "ViewTruncate"]),
        (Policy(pii=PIISettings(refuse_paths=True)), ["PathGuard", "ViewTruncate"]),
    ],
)
def test_the_chain_is_built_from_the_policy_with_the_path_guard_first(policy: Policy, chain: list[str]) -> None:
    # The policy's layers run before the store's lock is taken; a deployment's own inside the transaction.
    assert names(policy) == [*chain, "Transaction"]
    assert names(policy, (Recorder(),)) == [*chain, "Transaction", "Recorder"]


LAYERS = ("PathGuard", "PIIScrub", "Access", "TTL", "Quota", "ViewTruncate", "Transaction")


def test_a_view_runs_through_every_layer_but_those_that_never_act_on_one(
    open_mem: OpenMem, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Access and Quota act only on a command that changes something: a view skips them. Every other
    # layer sees it, a deployment's own included (an object or a plain function).
    seen: list[str] = []
    for name in LAYERS:
        layer = getattr(middleware, name)

        def spy(self: Any, call: Call, call_next: Handler, original: Any = layer.__call__, name: str = name) -> Result:
            seen.append(name)
            return cast(Result, original(self, call, call_next))

        monkeypatch.setattr(layer, "__call__", spy)

    def function_layer(call: Call, call_next: Handler) -> Result:
        seen.append("function")
        return call_next(call)

    recorder = Recorder()
    memory = open_mem("regulated", layers=(recorder, function_layer))
    ok(memory, command="create", path="/memories/a.md", file_text="x\n")
    assert seen == [*LAYERS, "function"]
    seen.clear()
    ok(memory, command="view", path="/memories/a.md")
    assert seen == ["PathGuard", "PIIScrub", "TTL", "ViewTruncate", "Transaction", "function"]
    assert [paths for paths, _ in recorder.seen] == [("/memories/a.md",), ("/memories/a.md",)]


def test_a_deployment_layer_sees_guarded_and_scrubbed_input(open_mem: OpenMem) -> None:
    recorder = Recorder()
    memory = open_mem("regulated", layers=(recorder,))
    ok(memory, command="create", path="/memories//notes///a.md", file_text=f"mail {EMAIL}\n")
    for hostile in ("/memories/../etc/passwd", f"/memories/{EMAIL}.md"):
        assert memory.execute({"command": "create", "path": hostile, "file_text": "x"}).is_error
    [(paths, text)] = recorder.seen  # the refused calls never reached it
    assert paths == ("/memories/notes/a.md",) and text is not None
    assert text.startswith("mail [EMAIL:") and EMAIL not in text


class NoFridays:
    """A deployment layer that refuses some writes, before or after the write."""

    def __init__(self, after: bool) -> None:
        self.after = after

    def __call__(self, call: Call, call_next: Handler) -> Result:
        if call.command.command != "create":
            return call_next(call)
        if not self.after:
            raise CommandError("Error: no new memories on Fridays")
        call_next(call)  # the write happened inside the command's transaction...
        raise CommandError("Error: no new memories on Fridays")  # ...and is rolled back with it


@pytest.mark.parametrize("after", [False, True])
def test_a_deployment_layer_can_refuse_and_nothing_is_written(open_mem: OpenMem, after: bool) -> None:
    memory = open_mem("default", layers=(NoFridays(after),))
    ok(memory, command="view", path="/memories")
    refused(memory, "Error: no new memories on Fridays", command="create", path="/memories/d/a.md", file_text="x")


# ---------------------------------------------------------------- which refusal wins


def test_a_pii_path_into_a_read_only_area_gets_the_pii_message(open_mem: OpenMem) -> None:
    memory = open_mem("regulated")
    refused(
        memory, PATH_PII.format("regulated"), command="create", path=f"/memories/reference/{EMAIL}.md", file_text="x"
    )


def test_a_write_into_the_reference_area_names_the_rule(open_mem: OpenMem) -> None:
    memory = open_mem("regulated")
    # Read-only comes before the quota: the message that helps is "not here", not "too big".
    refused(
        memory,
        READ_ONLY.format("/memories/reference/big.md"),
        command="create",
        path="/memories/reference/big.md",
        file_text="x" * 300_000,
    )


def test_a_secret_in_an_oversized_write_gets_the_pii_message(open_mem: OpenMem) -> None:
    memory = open_mem('[pii]\nenabled = true\n[pii.actions]\nAPI_KEY = "refuse"\n[quota]\nmax_file_bytes = 10\n')
    refused(
        memory,
        pii_refusal("`file_text`", "ANTHROPIC_API_KEY", "custom"),
        command="create",
        path="/memories/a.md",
        file_text="key sk-ant-api03-Zx81bd0QpLm3VtY7nRk2Hs9WqE4cFa6U " * 3,
    )


# ---------------------------------------------------------------- quota after scrubbing


SCRUB_AND_LIMIT = '[pii]\nenabled = true\n[pii.actions]\nEMAIL = "hash"\nIBAN = "mask"\n[quota]\nmax_file_bytes = {}\n'


def test_the_quota_counts_the_scrubbed_bytes_when_a_token_is_longer(open_mem: OpenMem) -> None:
    memory = open_mem(SCRUB_AND_LIMIT.format(20))
    raw = "mail a@b.co\n"  # 12 bytes as sent; 46 once the address is a token
    refused(
        memory,
        "Error: Quota exceeded: /memories/a.md would be 46 bytes; the limit per file is 20 bytes "
        "(policy 'custom'). Nothing was written. Keep the file shorter or split it.",
        command="create",
        path="/memories/a.md",
        file_text=raw,
    )


def test_the_quota_counts_the_scrubbed_bytes_when_a_mask_is_shorter(open_mem: OpenMem) -> None:
    memory = open_mem(SCRUB_AND_LIMIT.format(25))
    ok(memory, command="create", path="/memories/a.md", file_text="iban DE89 3704 0044 0532 0130 00\n")  # 33 bytes
    assert stored_text(memory, "/memories/a.md") == "iban [IBAN ****3000]\n"


def test_the_quota_sees_what_the_pii_safety_net_stores(open_mem: OpenMem) -> None:
    memory = open_mem(SCRUB_AND_LIMIT.format(15))
    ok(memory, command="create", path="/memories/x.md", file_text="m a@b.c\n")
    # The edit assembles an address (9 bytes as edited); stored as a token it would be 43 bytes.
    refused(
        memory,
        "Error: Quota exceeded: /memories/x.md would be 43 bytes (it is 8 now); the limit per file is 15 "
        "bytes (policy 'custom'). Nothing was written. Keep the file shorter or split it.",
        command="str_replace",
        path="/memories/x.md",
        old_str="c\n",
        new_str="co\n",
    )


# ---------------------------------------------------------------- expiry with quota and renames


def test_expired_files_do_not_count_against_the_quota(open_mem: OpenMem) -> None:
    clock = Clock()
    # Each file stores 5 bytes of text and 14 of path ("/memories/a.md"): two fit in 38 bytes.
    # The live quota alone (a history would keep a copy of each text: tests/test_layer_quota.py).
    text = '[ttl]\nexpire_after = "1d"\n[quota]\nmax_files = 2\nmax_total_bytes = 38\n[history]\nversions = false\n'
    memory = open_mem(text, clock)
    ok(memory, command="create", path="/memories/a.md", file_text="a" * 5)
    ok(memory, command="create", path="/memories/b.md", file_text="b" * 5)
    clock.now = T0 + DAY  # a and b expire; no sweep runs: the write purges them, they no longer count
    ok(memory, command="create", path="/memories/c.md", file_text="c" * 5)
    ok(memory, command="create", path="/memories/a.md", file_text="A" * 5)  # an expired path, reused
    refused(
        memory,
        "Error: Quota exceeded: this write would bring your memory to 53 bytes (file contents and path names); "
        "the limit is 38 bytes and 38 are in use (policy 'custom'). Nothing was written. Delete or shorten "
        "memories you no longer need, then retry.",
        command="create",
        path="/memories/d.md",
        file_text="d",
    )


def test_renaming_onto_an_expired_scratch_file(open_mem: OpenMem) -> None:
    clock = Clock()
    memory = open_mem("regulated", clock)
    ok(memory, command="create", path="/memories/scratch/todo.md", file_text="stale\n")
    ok(memory, command="create", path="/memories/notes.md", file_text="fresh notes\n")
    clock.now = T0 + DAY
    assert (
        ok(memory, command="rename", old_path="/memories/notes.md", new_path="/memories/scratch/todo.md")
        == "Successfully renamed /memories/notes.md to /memories/scratch/todo.md"
    )
    assert dump(memory, now=T0) == {
        "/memories": (True, None, 12),
        "/memories/scratch": (True, None, 12),
        "/memories/scratch/todo.md": (False, b"fresh notes\n", 1),
    }
    clock.now = T0 + 2 * DAY - 1  # a day from the move, as scratch says
    assert "fresh notes" in ok(memory, command="view", path="/memories/scratch/todo.md")
    clock.now = T0 + 2 * DAY
    assert memory.execute({"command": "view", "path": "/memories/scratch/todo.md"}).is_error


# ---------------------------------------------------------------- one scenario per shipped policy


def test_default_policy_scenario(open_mem: OpenMem) -> None:
    clock = Clock()
    memory = open_mem("default", clock)
    assert (
        ok(memory, command="create", path="/memories/c.md", file_text=f"mail {EMAIL}\n")
        == "File created successfully at: /memories/c.md"
    )
    assert stored_text(memory, "/memories/c.md") == f"mail {EMAIL}\n"  # no scrubbing
    ok(memory, command="create", path="/memories/reference/big.md", file_text="x" * 300_000)  # no rules, no quota
    ok(memory, command="create", path="/memories/scratch/a.md", file_text="x")
    clock.now = T0 + 36_500 * DAY  # no expiry
    assert sorted(dump(memory)) == [
        "/memories",
        "/memories/c.md",
        "/memories/reference",
        "/memories/reference/big.md",
        "/memories/scratch",
        "/memories/scratch/a.md",
    ]


def test_regulated_policy_scenario(open_mem: OpenMem) -> None:
    clock = Clock()
    memory = open_mem("regulated", clock)
    text = ok(
        memory,
        command="create",
        path="/memories/customers/customer-17.md",
        file_text=f"Dana, {EMAIL}, +1 415 555 2671\nCard 4111 1111 1111 1111, SSN 123-45-6789\n",
    )
    content = stored_text(memory, "/memories/customers/customer-17.md")
    assert content.startswith("Dana, [EMAIL:") and ", [PHONE:" in content
    assert content.endswith("\nCard [CREDIT_CARD ****1111], SSN [US_SSN]\n")
    assert "scrubbed 1 CREDIT_CARD masked" in text and "1 US_SSN redacted" in text
    ok(
        memory,
        command="str_replace",
        path="/memories/customers/customer-17.md",
        old_str=EMAIL.upper(),
        new_str="(email on file)",
    )
    refused(
        memory,
        pii_refusal("`file_text`", "ANTHROPIC_API_KEY", "regulated"),
        command="create",
        path="/memories/k.md",
        file_text="sk-ant-api03-Zx81bd0QpLm3VtY7nRk2Hs9WqE4cFa6U",
    )
    refused(
        memory,
        "Error: Quota exceeded: /memories/dump.md would be 262,145 bytes; the limit per file is 262,144 "
        "bytes (policy 'regulated'). Nothing was written. Keep the file shorter or split it.",
        command="create",
        path="/memories/dump.md",
        file_text="x" * 262_145,
    )
    refused(
        memory,
        READ_ONLY.format("/memories/reference/x.md"),
        command="create",
        path="/memories/reference/x.md",
        file_text="x",
    )
    ok(memory, command="create", path="/memories/scratch/todo.md", file_text="call back\n")
    clock.now = T0 + DAY
    # scratch/ expired with its only file: a directory's name can be personal data too
    assert sorted(dump(memory)) == ["/memories", "/memories/customers", "/memories/customers/customer-17.md"]
    clock.now = T0 + 90 * DAY
    assert sorted(dump(memory)) == ["/memories"]


REFUSE_PII_SAMPLES = [
    ("EMAIL", "Ana.Ibarra@corp.example.de"),
    ("PHONE", "(415) 555-2671"),
    ("CREDIT_CARD", "4111111111111111"),
    ("IBAN", "DE11173712695551537321"),
    ("US_SSN", "894-29-3607"),
    ("IP_ADDRESS", "192.168.1.10"),
    ("BANK_ACCOUNT", "checking account 53351448733"),
    ("NATIONAL_ID", "BSN 682090359"),
    ("AWS_ACCESS_KEY", "ASIAC70QGTSN7CJ1AY3Y"),
    (
        "ANTHROPIC_API_KEY",
        "sk-ant-api03-Nevqy9kkhBTCTRHXX9zIdq3TiH44ol2iz86__o305Pvu9IIqQUu8FGs1oOw1tHx4kJnbEFOKvvj-RV8N",
    ),
    (
        "PRIVATE_KEY",
        "-----BEGIN RSA PRIVATE KEY-----\nG0QHU+2hQt9OI74BF8s88bd2QUxiIu54MwtqfwmCDuXbL4ViKhE/MjcVW+u/"
        "EvoL\n-----END RSA PRIVATE KEY-----",
    ),
    (
        "JWT",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzNDE4MjQiLCJpYXQiOjE3MDAwMDAwMDAsInJvbGUiOiJ0ZWxsZXIifQ."
        "v615X86TPHD0lIlAj0G7DKA96hjI1n62TFHBpB1gkZY",
    ),
    ("BEARER_TOKEN", "Authorization: Bearer dLFUH9_bCt1B4fY-Jvmv-IvgyabSsMXDOuhl6lNE9"),
]


def test_refuse_pii_samples_cover_every_type() -> None:
    # refuse-pii acts on the families; the samples cover every PII type and the secret structures.
    assert load_policy("refuse-pii").pii.actions == {"PII": "refuse", "SECRET": "refuse"}
    assert set(members("PII")) <= {t for t, _ in REFUSE_PII_SAMPLES}


@pytest.mark.parametrize(("entity", "value"), REFUSE_PII_SAMPLES, ids=[t for t, _ in REFUSE_PII_SAMPLES])
def test_refuse_pii_policy_refuses_every_type(open_mem: OpenMem, entity: str, value: str) -> None:
    memory = open_mem("refuse-pii")
    ok(memory, command="create", path="/memories/notes.md", file_text="customer called back\n")
    attempts: list[tuple[dict[str, Any], str]] = [
        ({"command": "create", "path": "/memories/new.md", "file_text": f"note: {value}\n"}, "`file_text`"),
        (
            {"command": "str_replace", "path": "/memories/notes.md", "old_str": "back", "new_str": f"back: {value}"},
            "`new_str`",
        ),
        ({"command": "insert", "path": "/memories/notes.md", "insert_line": 1, "insert_text": value}, "`insert_text`"),
    ]
    for tool_input, where in attempts:
        before = dump(memory)
        result = memory.execute(tool_input)
        assert (result.is_error, result.text) == (True, pii_refusal(where, entity, "refuse-pii"))
        assert dump(memory) == before


def test_refuse_pii_policy_refuses_a_path_and_stores_clean_text(open_mem: OpenMem) -> None:
    memory = open_mem("refuse-pii")
    refused(memory, PATH_PII.format("refuse-pii"), command="create", path=f"/memories/{EMAIL}.md", file_text="x")
    assert (
        ok(memory, command="create", path="/memories/ok.md", file_text="order 4417 shipped 2024-05-01\n")
        == "File created successfully at: /memories/ok.md"
    )
    assert stored_text(memory, "/memories/ok.md") == "order 4417 shipped 2024-05-01\n"
