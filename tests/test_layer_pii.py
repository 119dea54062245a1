"""The PII layer: what it scrubs, how, what it tells the model, and that no value gets past it.

Detection itself is covered by test_pii_detect and test_pii_scrub; this suite tests the layer:
which fields and paths go through the scrubber, what is stored, what the result and errors say,
and that nothing scrubbed reaches the database file, its WAL, logs or messages.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from securemem import Result, SecureMemory, load_policy
from securemem.middleware import Call, Handler
from securemem.middleware.pii import PIIScrub
from securemem.pii import Scrubber, keyed_token
from securemem.store.factory import open_store
from securemem.store.memory import MemoryStore
from tests.helpers import dump, err, ok, pii_refusal, seed, stored_text, write_policy
from tests.sqlcipher_pages import plaintext_of

EMAIL, PHONE, CARD = "Jane.Doe@Example.com", "(415) 555-2671", "4111 1111 1111 1111"
IBAN, SSN, IP = "DE89 3704 0044 0532 0130 00", "123-45-6789", "10.0.0.1"
API_KEY = "sk-ant-api03-Zx81bd0QpLm3VtY7nRk2Hs9WqE4cFa6U"
ALL_PII = f"Mail {EMAIL}, call {PHONE}, card {CARD}, iban {IBAN}, ssn {SSN}, ip {IP}\n"
# Every spelling of the values above that must never be stored: as sent and as normalised.
FORBIDDEN = (
    EMAIL,
    EMAIL.lower(),
    PHONE,
    "4155552671",
    CARD,
    CARD.replace(" ", ""),
    IBAN,
    IBAN.replace(" ", ""),
    SSN,
    "123456789",
    API_KEY,
    "ASIAC70QGTSN7CJ1AY3Y",
)
HASH_NOTE = "replaced by a stable token (the same value always gives the same token)"
NOTE_END = (
    "The stored text holds the placeholders, not the values; this is expected, so do not retry with the "
    "original values."
)
PATH_REFUSED = (
    "Error: The path contains {}; paths must not carry personal data or secrets (policy 'regulated'). "
    "Use a neutral name, such as /memories/customers/customer-42.md, and keep details inside the file."
)


def token(mem: SecureMemory, entity: str, normalised: str) -> str:
    """The keyed token the store must write: HMAC-SHA256 with the store's own key (96 bits + a tag)."""
    message = f"{entity}\x00{normalised}".encode()
    digest = hmac.new(mem.store.token_key, message, hashlib.sha256).hexdigest()
    expected = keyed_token(mem.store.token_key, entity, normalised)
    assert expected.startswith(f"[{entity}:{digest[:24]}")
    return expected


def open_policy(tmp_path: Path, text: str, name: str = "m.db") -> SecureMemory:
    policy = write_policy(tmp_path, text, f"{name}.toml")
    return SecureMemory.open(tmp_path / name, key=os.urandom(32), policy=policy)


@pytest.fixture
def regulated(tmp_path: Path, key: bytes) -> Iterator[SecureMemory]:
    with SecureMemory.open(tmp_path / "m.db", key=key, policy="regulated") as memory:
        yield memory


# ---------------------------------------------------------------- actions and the note


def test_create_scrubs_each_type_by_its_action_and_says_so(regulated: SecureMemory) -> None:
    text = ok(regulated, command="create", path="/memories/c.md", file_text=ALL_PII)
    assert stored_text(regulated, "/memories/c.md") == (
        f"Mail {token(regulated, 'EMAIL', 'jane.doe@example.com')}, call {token(regulated, 'PHONE', '14155552671')}, "
        "card [CREDIT_CARD ****1111], iban [IBAN ****3000], ssn [US_SSN], ip [IP_ADDRESS]\n"
    )
    assert text == (
        "File created successfully at: /memories/c.md\nNote: before storing, the memory policy scrubbed "
        f"1 CREDIT_CARD masked to its last 4 characters; 1 EMAIL {HASH_NOTE}; 1 IBAN masked to its last 4 "
        f"characters; 1 IP_ADDRESS redacted to a [TYPE] placeholder; 1 PHONE {HASH_NOTE}; 1 US_SSN redacted to a "
        f"[TYPE] placeholder. {NOTE_END}"
    )


def test_the_note_counts_each_type(regulated: SecureMemory) -> None:
    text = ok(
        regulated,
        command="create",
        path="/memories/c.md",
        file_text=f"{EMAIL} a@example.org\n{PHONE}, +1 212 555 0100, 415.555.2671\n",
    )
    assert f"scrubbed 2 EMAIL {HASH_NOTE}; 3 PHONE {HASH_NOTE}. {NOTE_END}" in text


def test_a_clean_write_gets_no_note(regulated: SecureMemory) -> None:
    assert (
        ok(regulated, command="create", path="/memories/c.md", file_text="order 4417, v1.2.3, 2024-05-01\n")
        == "File created successfully at: /memories/c.md"
    )
    assert stored_text(regulated, "/memories/c.md") == "order 4417, v1.2.3, 2024-05-01\n"


@pytest.mark.parametrize(
    "tool_input",
    [
        {"command": "create", "path": "/memories/n.md", "file_text": f"mail {EMAIL}\n"},
        {"command": "str_replace", "path": "/memories/n.md", "old_str": "seed", "new_str": f"mail {EMAIL}"},
        {"command": "insert", "path": "/memories/n.md", "insert_line": 1, "insert_text": f"mail {EMAIL}"},
    ],
)
def test_every_written_field_is_scrubbed(regulated: SecureMemory, tool_input: dict[str, Any]) -> None:
    if tool_input["command"] != "create":
        ok(regulated, command="create", path="/memories/n.md", file_text="seed\n")
    text = ok(regulated, **tool_input)
    content = stored_text(regulated, "/memories/n.md")
    assert f"mail {token(regulated, 'EMAIL', 'jane.doe@example.com')}" in content and EMAIL not in content
    assert f"Note: before storing, the memory policy scrubbed 1 EMAIL {HASH_NOTE}." in text and EMAIL not in text


# ---------------------------------------------------------------- keyed tokens


def test_one_value_one_token_within_a_store_whatever_the_namespace_or_spelling(regulated: SecureMemory) -> None:
    other = regulated.in_namespace("team-b")
    ok(regulated, command="create", path="/memories/a.md", file_text=f"{EMAIL}\n")
    ok(other, command="create", path="/memories/b.md", file_text=f"{EMAIL.upper()}\n")
    expected = token(regulated, "EMAIL", "jane.doe@example.com")
    assert stored_text(regulated, "/memories/a.md") == stored_text(other, "/memories/b.md") == f"{expected}\n"


def test_another_store_gives_another_token_and_a_token_reveals_nothing(regulated: SecureMemory, tmp_path: Path) -> None:
    other = SecureMemory.open(tmp_path / "other.db", key=os.urandom(32), policy="regulated")
    ok(regulated, command="create", path="/memories/a.md", file_text=f"{EMAIL}\n")
    ok(other, command="create", path="/memories/a.md", file_text=f"{EMAIL}\n")
    mine, theirs = stored_text(regulated, "/memories/a.md"), stored_text(other, "/memories/a.md")
    assert mine.startswith("[EMAIL:") and theirs.startswith("[EMAIL:") and mine != theirs
    # The token is keyed: not an unkeyed hash anyone could compute from a guessed address.
    for unkeyed in (hashlib.sha256(b"jane.doe@example.com"), hashlib.sha256(b"EMAIL\x00jane.doe@example.com")):
        assert unkeyed.hexdigest()[:10] not in mine
    assert regulated.store.token_key != other.store.token_key
    other.close()


# ---------------------------------------------------------------- editing by the original value


@pytest.mark.parametrize(
    ("sent", "old_str"),
    [
        (f"contact {EMAIL} today\n", "JANE.DOE@example.com"),  # hash: any spelling gives the token
        (f"card {CARD} on file\n", CARD.replace(" ", "")),  # mask
        (f"ssn {SSN} verified\n", SSN),  # redact
        (f"ip {IP} blocked\n", f"ip {IP}"),  # redact, inside a longer old_str
    ],
)
def test_old_str_by_the_original_value_matches_the_stored_form(
    regulated: SecureMemory, sent: str, old_str: str
) -> None:
    ok(regulated, command="create", path="/memories/c.md", file_text=sent)
    text = ok(regulated, command="str_replace", path="/memories/c.md", old_str=old_str, new_str="(on file)")
    assert "(on file)" in stored_text(regulated, "/memories/c.md")
    assert "Note: before storing" not in text  # old_str is matched, never stored, so it is not counted
    # A placeholder that stands for any value of its type says so; a keyed token is the value's own.
    shared = "matched the stored placeholder, which stands for any such value" in text
    assert shared == (old_str != "JANE.DOE@example.com")


def test_a_failed_match_echoes_the_token_not_the_value(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/c.md", file_text=f"mail {EMAIL}\n")
    text = err(regulated, command="str_replace", path="/memories/c.md", old_str=f"call {EMAIL}", new_str="x")
    assert text == (
        f"No replacement was performed, old_str `call {token(regulated, 'EMAIL', 'jane.doe@example.com')}`"
        " did not appear verbatim in /memories/c.md."
    )


def test_an_ambiguous_match_echoes_the_placeholder_not_the_value(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/c.md", file_text=f"ssn {SSN}\nssn 219-09-9999\n")
    text = err(regulated, command="str_replace", path="/memories/c.md", old_str=SSN, new_str="x")
    assert text == (
        "No replacement was performed. Multiple occurrences of old_str `[US_SSN]` in lines: 1, 2. "
        "Please ensure it is unique"
    )


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("tool_input", "where"),
    [
        ({"command": "create", "path": "/memories/new.md", "file_text": f"deploy with {API_KEY}\n"}, "`file_text`"),
        ({"command": "create", "path": "/memories/new.md", "file_text": f"{EMAIL} {API_KEY}\n"}, "`file_text`"),
        ({"command": "str_replace", "path": "/memories/n.md", "old_str": "seed", "new_str": API_KEY}, "`new_str`"),
        ({"command": "str_replace", "path": "/memories/n.md", "old_str": API_KEY, "new_str": "x"}, "`old_str`"),
        ({"command": "insert", "path": "/memories/n.md", "insert_line": 0, "insert_text": API_KEY}, "`insert_text`"),
    ],
)
def test_a_refused_type_names_the_field_and_type_never_the_value(
    regulated: SecureMemory, tool_input: dict[str, Any], where: str
) -> None:
    ok(regulated, command="create", path="/memories/n.md", file_text="seed\n")
    before = dump(regulated)
    assert err(regulated, **tool_input) == pii_refusal(where, "ANTHROPIC_API_KEY")
    assert dump(regulated) == before


def test_the_safety_net_scrubs_a_value_assembled_by_an_edit(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/x.md", file_text="contact: jane.doe@exam\n")
    text = ok(regulated, command="str_replace", path="/memories/x.md", old_str="exam\n", new_str="example.com\n")
    assert stored_text(regulated, "/memories/x.md") == f"contact: {token(regulated, 'EMAIL', 'jane.doe@example.com')}\n"
    # The snippet shows what was stored, not the assembled value; the note counts it.
    assert "jane.doe@example.com" not in text and token(regulated, "EMAIL", "jane.doe@example.com") in text
    assert f"scrubbed 1 EMAIL {HASH_NOTE}" in text


def test_the_safety_net_refuses_a_secret_assembled_by_an_edit(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/x.md", file_text="id ASIAC70QGT\n")
    before = dump(regulated)
    text = err(regulated, command="str_replace", path="/memories/x.md", old_str="QGT\n", new_str="QGTSN7CJ1AY3Y\n")
    assert text == pii_refusal("the edited file", "AWS_ACCESS_KEY")
    assert dump(regulated) == before


def test_the_safety_net_scrubs_what_a_laxer_policy_let_in_when_the_file_is_next_edited(regulated: SecureMemory) -> None:
    seed(regulated, {"/memories/old.md": f"from before: {PHONE}\n"})  # as the laxer default policy let it in
    text = ok(regulated, command="insert", path="/memories/old.md", insert_line=1, insert_text="follow up")
    assert (
        stored_text(regulated, "/memories/old.md")
        == f"from before: {token(regulated, 'PHONE', '14155552671')}\nfollow up\n"
    )
    assert f"scrubbed 1 PHONE {HASH_NOTE}" in text


# ---------------------------------------------------------------- paths


@pytest.mark.parametrize(
    ("tool_input", "types"),
    [
        ({"command": "view", "path": f"/memories/customers/{EMAIL}.md"}, "EMAIL"),
        ({"command": "create", "path": f"/memories/customers/{EMAIL}.md", "file_text": "x"}, "EMAIL"),
        ({"command": "create", "path": "/memories/calls/415-555-2671/notes.md", "file_text": "x"}, "PHONE"),
        ({"command": "str_replace", "path": f"/memories/{SSN}.md", "old_str": "a", "new_str": "b"}, "US_SSN"),
        ({"command": "insert", "path": f"/memories/{EMAIL}", "insert_line": 0, "insert_text": "x"}, "EMAIL"),
        ({"command": "delete", "path": f"/memories/{EMAIL}"}, "EMAIL"),
        ({"command": "rename", "old_path": f"/memories/{EMAIL}", "new_path": "/memories/c.md"}, "EMAIL"),
        (
            {"command": "rename", "old_path": "/memories/n.md", "new_path": f"/memories/{EMAIL}/{SSN}.md"},
            "EMAIL, US_SSN",
        ),
    ],
)
def test_a_path_carrying_pii_is_refused_for_every_command(
    regulated: SecureMemory, tool_input: dict[str, Any], types: str
) -> None:
    ok(regulated, command="create", path="/memories/n.md", file_text="a\n")
    before = dump(regulated)
    text = err(regulated, **tool_input)
    assert text == PATH_REFUSED.format(types)
    assert dump(regulated) == before


@pytest.mark.parametrize(
    ("path", "types"),
    [
        ("/memories/calls/+1 415 555/2671.md", "PHONE"),  # split across two levels: the joined reading
        ("/memories/calls/12/4111 1111 1111 1111/3.md", "CREDIT_CARD"),  # between slashes: the names alone
    ],
)
def test_a_path_is_read_joined_and_name_by_name_in_one_scan(
    regulated: SecureMemory, path: str, types: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scans: list[str] = []
    contains = Scrubber.contains

    def counted(self: Scrubber, text: str) -> tuple[str, ...]:
        scans.append(text)
        return contains(self, text)

    monkeypatch.setattr(Scrubber, "contains", counted)
    assert err(regulated, command="create", path=path, file_text="x\n") == PATH_REFUSED.format(types)
    assert len(scans) == 1


@pytest.mark.parametrize(
    "path",
    ["/memories/notes/2024-05-01-meeting.md", "/memories/v1.2.3/build-20240501.md", "/memories/orders/order-4417.md"],
)
def test_ordinary_paths_pass(regulated: SecureMemory, path: str) -> None:
    assert ok(regulated, command="create", path=path, file_text="x\n") == f"File created successfully at: {path}"


def test_refuse_paths_off_lets_a_path_through(tmp_path: Path) -> None:
    memory = open_policy(tmp_path, '[pii]\nenabled = true\nrefuse_paths = false\n[pii.actions]\nEMAIL = "redact"\n')
    path = f"/memories/{EMAIL}.md"
    assert ok(memory, command="create", path=path, file_text=f"{EMAIL}\n").startswith(
        f"File created successfully at: {path}\nNote:"
    )
    assert stored_text(memory, path) == "[EMAIL]\n"


# ---------------------------------------------------------------- what the policy leaves alone


def test_allowed_and_unlisted_types_are_not_touched(tmp_path: Path) -> None:
    memory = open_policy(tmp_path, '[pii]\nenabled = true\n[pii.actions]\nEMAIL = "allow"\nPHONE = "redact"\n')
    path = f"/memories/{EMAIL}.md"  # an allowed type does not make a path refused either
    ok(memory, command="create", path=path, file_text=f"{EMAIL}, {PHONE}, card {CARD}\n")
    assert stored_text(memory, path) == f"{EMAIL}, [PHONE], card {CARD}\n"


def test_a_disabled_layer_scrubs_nothing(tmp_path: Path) -> None:
    # (enabled = false beside [pii.actions] is refused as a contradiction: see test_policy.py)
    memory = open_policy(tmp_path, "[pii]\nenabled = false\n")
    assert (
        ok(memory, command="create", path="/memories/a.md", file_text=f"{EMAIL}\n")
        == "File created successfully at: /memories/a.md"
    )
    assert stored_text(memory, "/memories/a.md") == f"{EMAIL}\n"


# ---------------------------------------------------------------- nothing gets past


class Boom:
    """A deployment layer with a bug: its exception message carries a value."""

    def __call__(self, call: Call, call_next: Handler) -> Result:
        if call.command.paths == ("/memories/boom.md",):
            raise RuntimeError(f"bug while handling {EMAIL} {CARD}")
        return call_next(call)


def test_nothing_scrubbed_reaches_the_database_its_wal_logs_or_messages(
    tmp_path: Path, key: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    db = tmp_path / "m.db"
    inputs: list[dict[str, Any]] = [
        {"command": "create", "path": "/memories/c.md", "file_text": ALL_PII},
        {"command": "str_replace", "path": "/memories/c.md", "old_str": EMAIL, "new_str": f"{SSN} / {PHONE}"},
        {"command": "str_replace", "path": "/memories/c.md", "old_str": f"nowhere {CARD}", "new_str": "x"},
        {"command": "insert", "path": "/memories/c.md", "insert_line": 0, "insert_text": f"{IBAN} {EMAIL}"},
        {"command": "create", "path": "/memories/k.md", "file_text": f"{EMAIL} {API_KEY}"},
        {"command": "create", "path": "/memories/k.md", "file_text": "id ASIAC70QGT\n"},
        {"command": "str_replace", "path": "/memories/k.md", "old_str": "QGT", "new_str": "QGTSN7CJ1AY3Y"},
        {"command": "create", "path": f"/memories/{EMAIL}/{CARD}.md", "file_text": "x"},
        {"command": "rename", "old_path": "/memories/c.md", "new_path": f"/memories/{SSN}.md"},
        {"command": "view", "path": "/memories/boom.md"},
        {"command": "view", "path": "/memories/c.md"},
        {"command": "view", "path": "/memories"},
    ]
    with SecureMemory.open(db, key=key, policy="regulated", layers=[Boom()]) as memory:
        results = [memory.execute(tool_input) for tool_input in inputs]
        assert [r.is_error for r in results] == [
            False,
            False,
            True,
            False,
            True,
            False,
            True,
            True,
            True,
            True,
            False,
            False,
        ]
        while_open = plaintext_of(db, key)
        assert Path(f"{db}-wal").stat().st_size > 0  # the WAL was there to be read
    after_close = plaintext_of(db, key)
    assert token(memory, "EMAIL", "jane.doe@example.com").encode() in after_close  # the decryptor sees content
    messages = "\n".join(r.text for r in results)
    logs = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records)
    assert "RuntimeError at" in logs
    for value in FORBIDDEN:
        assert value.encode() not in while_open and value.encode() not in after_close, value
        assert value not in messages and value not in logs, value


def test_input_is_scanned_before_the_store_lock_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow scan of a big text must not hold up other writers: it runs outside the transaction."""
    store = open_store("memory://")
    assert isinstance(store, MemoryStore)
    memory = SecureMemory(store, load_policy("regulated"), owns_store=False)
    lock = store._lock
    scans: list[bool] = []
    original = PIIScrub._scrub

    def watched(self: PIIScrub, text: str, field: Any, counts: Any, searched: Any) -> str:
        # RLock has no public "held by this thread?"; CPython's private _is_owned answers it.
        scans.append(lock._is_owned())  # type: ignore[attr-defined]
        return original(self, text, field, counts, searched)

    monkeypatch.setattr(PIIScrub, "_scrub", watched)
    ok(memory, command="create", path="/memories/a.md", file_text=f"mail {EMAIL}\n")
    ok(memory, command="str_replace", path="/memories/a.md", old_str="mail", new_str="write to")
    assert scans == [False, False, False]  # file_text; old_str and new_str: none under the lock


# ---------------------------------------------------------------- values run together


@pytest.mark.parametrize("sep", [" ", "\t", "  ", " - "])
def test_every_value_of_a_long_run_is_replaced(regulated: SecureMemory, sep: str) -> None:
    """Cards run together read as the tail of the one before until that one is replaced: each pass
    reveals the next. A run of 40 is replaced whole (16 passes left the 17th on in clear)."""
    text = sep.join(["4111 1111 1111 1111", "5500-0000-0000-0004"] * 20) + "\n"
    ok(regulated, command="create", path="/memories/c.md", file_text=text)
    ok(regulated, command="insert", path="/memories/c.md", insert_line=1, insert_text=text)
    stored = stored_text(regulated, "/memories/c.md")
    assert "1111 1111" not in stored and "0000-0000" not in stored
    assert stored.count("[CREDIT_CARD ****") == 80


def test_a_run_longer_than_the_passes_can_scrub_is_refused_not_stored(
    regulated: SecureMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    import securemem.pii.scrub as scrub

    monkeypatch.setattr(scrub, "SCAN_BUDGET", 1)  # the least number of passes, MIN_PASSES
    # Joined by tabs, each card reads as the tail of the one before until that one is replaced (joined
    # by single spaces they are one run of groups, whose cards are all found in one pass).
    text = "\t".join(["4111 1111 1111 1111"] * (scrub.MIN_PASSES + 4))
    for command in (
        {"command": "create", "path": "/memories/r.md", "file_text": text},
        {"command": "str_replace", "path": "/memories/r.md", "old_str": "x", "new_str": text},
    ):
        message = err(regulated, **command)
        assert "more values of CREDIT_CARD run together than one write can scrub" in message
        assert "4111" not in message
    ok(regulated, command="create", path="/memories/r.md", file_text="x\n")
    message = err(regulated, command="insert", path="/memories/r.md", insert_line=1, insert_text=text)
    assert "run together" in message and stored_text(regulated, "/memories/r.md") == "x\n"
