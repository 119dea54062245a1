"""End to end: the real anthropic SDK's tool runner drives SecureMemoryTool against a scripted API.

The scripted server (tests/scripted_server.py) plays the model; the SDK runs our tool and sends the
results back, and the server records what it was sent. Assertions are on the wire (tool_result
blocks, is_error flags, tool_use_id pairing, the tool declaration), on the store afterwards and on
the bytes of the database files.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anthropic
import pytest
from anthropic.types.beta import BetaMessageParam

from securemem import AsyncSecureMemoryTool, SecureMemory, SecureMemoryTool
from tests.helpers import sha256_of, view
from tests.scripted_server import (
    MODEL,
    ScriptedServer,
    memory_call,
    scripted_server,
    text_reply,
    tool_use_reply,
)

JSON = dict[str, Any]
NOTES = "/memories/customer/notes.md"
MEMORY_TOOL_PARAM = {"type": "memory_20250818", "name": "memory"}
USER_TURN: list[BetaMessageParam] = [{"role": "user", "content": "Remember what you learn about this customer."}]
FINAL_TEXT = "Noted for next time."
# A Python repr leaking into a tool result: ToolError('...'), ValueError(...), KeyError(...), ...
REPR_LEAK = re.compile(r"\b[A-Z]\w*(Error|Exception|Warning)\(|Traceback \(most recent call last\)")
ETC_PASSWD = Path("/etc/passwd")
TIMEOUT = 10.0  # seconds per request: a stuck server fails the test instead of hanging it

pytestmark = pytest.mark.filterwarnings(f"ignore:The model '{MODEL}' is deprecated:DeprecationWarning")


# -- the scripted session --------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """What the tool_result for one tool_use must look like."""

    is_error: bool
    starts: str
    contains: tuple[str, ...] = ()


@dataclass(frozen=True)
class Session:
    replies: list[JSON]
    expected: dict[str, Expect]  # tool_use id -> expectation

    @property
    def tool_use_ids(self) -> list[str]:
        return [block["id"] for reply in self.replies for block in reply["content"] if block["type"] == "tool_use"]


def _step(session: list[tuple[JSON, Expect]], *steps: tuple[JSON, Expect]) -> JSON:
    session.extend(steps)
    return tool_use_reply(*(call for call, _ in steps))


def build_session(marker: str) -> Session:
    """The model's side: view, create, view, str_replace, then three kinds of bad input, then end."""
    calls: list[tuple[JSON, Expect]] = []
    invalid = "Error: Invalid path:"
    replies = [
        _step(
            calls,
            (
                memory_call(command="view", path="/memories"),
                Expect(False, "Here're the files and directories up to 2 levels deep in /memories"),
            ),
        ),
        _step(
            calls,
            (
                memory_call(command="create", path=NOTES, file_text=f"# Customer\n- prefers email\n- ref {marker}\n"),
                Expect(False, f"File created successfully at: {NOTES}"),
            ),
        ),
        _step(
            calls,
            (
                memory_call(command="view", path=NOTES),
                Expect(
                    False,
                    f"Here's the content of {NOTES} with line numbers:\n     1\t# Customer\n"
                    f"     2\t- prefers email\n     3\t- ref {marker}",
                ),
            ),
        ),
        _step(
            calls,
            (
                memory_call(command="str_replace", path=NOTES, old_str="- prefers email", new_str="- prefers phone"),
                Expect(False, "The memory file has been edited.", ("- prefers phone",)),
            ),
        ),
        # Two traversal attempts in one turn: a read of a real file and a write next to the store.
        _step(
            calls,
            (
                memory_call(command="view", path="/memories/../../etc/passwd"),
                Expect(True, invalid, ("'..' segments are not allowed",)),
            ),
            (
                memory_call(command="create", path="/memories/../escaped.md", file_text="pwned"),
                Expect(True, invalid, ("'..' segments are not allowed",)),
            ),
        ),
        _step(
            calls,
            (
                memory_call(command="create", path="/memoriesX/evil", file_text="pwned"),
                Expect(True, invalid, ("the path is outside /memories",)),
            ),
        ),
        # Malformed input the SDK passes through unvalidated: a missing field, a wrong type, an
        # unknown command.
        _step(
            calls,
            (
                memory_call(command="create", path="/memories/half.md"),
                Expect(True, "Error: Invalid `create` command:", ("missing required field `file_text`",)),
            ),
            (
                memory_call(command="view", path=NOTES, view_range="1-2"),
                Expect(True, "Error: Invalid `view` command:", ("view_range",)),
            ),
            (
                memory_call(command="delete_all", path="/memories"),
                Expect(True, "Error: Unknown or missing command", ("view, create",)),
            ),
        ),
        text_reply(FINAL_TEXT),
    ]
    return Session(replies, {call["id"]: expect for call, expect in calls})


# -- fixtures and drivers --------------------------------------------------------------------


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "memory.db"


@pytest.fixture
def mem(db_path: Path, key: bytes) -> Iterator[SecureMemory]:
    db_path.parent.mkdir()
    with SecureMemory.open(db_path, key=key) as memory:
        yield memory


def run_sync(server: ScriptedServer, memory: SecureMemory) -> list[Any]:
    client = anthropic.Anthropic(api_key="test", base_url=server.url, max_retries=0, timeout=TIMEOUT)
    with client:
        runner = client.beta.messages.tool_runner(
            model=MODEL, max_tokens=1024, tools=[SecureMemoryTool(memory)], messages=USER_TURN, thread=False
        )
        return list(runner)


async def _run_async(server: ScriptedServer, memory: SecureMemory) -> list[Any]:
    async with anthropic.AsyncAnthropic(api_key="test", base_url=server.url, max_retries=0, timeout=TIMEOUT) as client:
        runner = client.beta.messages.tool_runner(
            model=MODEL, max_tokens=1024, tools=[AsyncSecureMemoryTool(memory)], messages=USER_TURN, thread=False
        )
        return [message async for message in runner]


def run_async(server: ScriptedServer, memory: SecureMemory) -> list[Any]:
    return asyncio.run(_run_async(server, memory))


Driver = Callable[[ScriptedServer, SecureMemory], list[Any]]
DRIVERS = pytest.mark.parametrize("drive", [run_sync, run_async], ids=["sync", "async"])


def run_session(drive: Driver, memory: SecureMemory, session: Session) -> tuple[ScriptedServer, list[Any]]:
    with scripted_server(session.replies) as server:
        messages = drive(server, memory)
    assert server.unexpected == []
    assert server.remaining == 0
    return server, messages


# -- reading what the SDK sent ---------------------------------------------------------------


def tool_results(request: JSON) -> list[JSON]:
    """The tool_result blocks of a request's last (user) message."""
    last = request["messages"][-1]
    assert last["role"] == "user"
    assert isinstance(last["content"], list)
    return [block for block in last["content"] if block["type"] == "tool_result"]


def all_tool_results(server: ScriptedServer) -> list[JSON]:
    return [block for request in server.requests[1:] for block in tool_results(request)]


def store_files(db_path: Path) -> dict[str, bytes]:
    """The database file and whatever SQLite keeps next to it (-wal, -shm, -journal)."""
    return {p.name: p.read_bytes() for p in sorted(db_path.parent.iterdir()) if p.name.startswith(db_path.name)}


# -- the tests -------------------------------------------------------------------------------


@DRIVERS
def test_runner_sends_our_results_and_errors(drive: Driver, mem: SecureMemory) -> None:
    session = build_session(f"marker-{uuid.uuid4().hex}")
    server, messages = run_session(drive, mem, session)

    assert len(server.requests) == len(session.replies)
    assert [m.stop_reason for m in messages] == [r["stop_reason"] for r in session.replies]
    assert messages[-1].content[-1].text == FINAL_TEXT

    results = all_tool_results(server)
    assert [r["tool_use_id"] for r in results] == session.tool_use_ids
    for result in results:
        expect = session.expected[result["tool_use_id"]]
        content = result["content"]
        assert isinstance(content, str), result
        assert result.get("is_error", False) is expect.is_error, result
        assert content.startswith(expect.starts), result
        for fragment in expect.contains:
            assert fragment in content, result
        assert not REPR_LEAK.search(content), result
        assert set(result) <= {"type", "tool_use_id", "content", "is_error"}


@DRIVERS
def test_every_request_declares_the_memory_tool_and_carries_the_history(drive: Driver, mem: SecureMemory) -> None:
    session = build_session("m")
    server, _ = run_session(drive, mem, session)

    for turn, request in enumerate(server.requests):
        assert request["model"] == MODEL
        assert request["max_tokens"] == 1024
        assert request["tools"] == [MEMORY_TOOL_PARAM]
        assert request["messages"][0] == USER_TURN[0]
        # thread=False: the whole history each time, the model's turns echoed as it sent them.
        assert len(request["messages"]) == 1 + 2 * turn
        if turn:
            echoed = request["messages"][-2]
            assert echoed["role"] == "assistant"
            sent_ids = [b["id"] for b in echoed["content"] if b["type"] == "tool_use"]
            scripted = session.replies[turn - 1]["content"]
            assert sent_ids == [b["id"] for b in scripted if b["type"] == "tool_use"]
            assert [r["tool_use_id"] for r in tool_results(request)] == sent_ids


@DRIVERS
def test_store_after_the_session(drive: Driver, mem: SecureMemory, db_path: Path) -> None:
    marker = f"marker-{uuid.uuid4().hex}"
    passwd_before = sha256_of(ETC_PASSWD) if ETC_PASSWD.exists() else None
    run_session(drive, mem, build_session(marker))

    assert view(mem, NOTES).endswith(f"     1\t# Customer\n     2\t- prefers phone\n     3\t- ref {marker}")
    listing = view(mem, "/memories").splitlines()[1:]
    assert [line.split("\t", 1)[1] for line in listing] == ["/memories", "/memories/customer/", NOTES]
    for refused in ("/memories/half.md", "/memories/escaped.md", "/memories/X/evil"):
        assert mem.execute({"command": "view", "path": refused}).is_error

    # Nothing outside the store was read into a result or written.
    assert sorted(p.name for p in db_path.parent.parent.rglob("*")) == sorted(
        ["store", *(p.name for p in db_path.parent.iterdir())]
    )
    assert all(name.startswith(db_path.name) for name in store_files(db_path))
    if passwd_before is not None:
        assert sha256_of(ETC_PASSWD) == passwd_before


@DRIVERS
def test_memory_persists_encrypted_across_reopen(drive: Driver, db_path: Path, key: bytes) -> None:
    marker = f"persist-marker-{uuid.uuid4().hex}"
    path = "/memories/persist.md"
    session = Session(
        [tool_use_reply(memory_call(command="create", path=path, file_text=f"{marker}\n")), text_reply(FINAL_TEXT)], {}
    )
    db_path.parent.mkdir()
    with SecureMemory.open(db_path, key=key) as memory:
        server, _ = run_session(drive, memory, session)
        assert "is_error" not in tool_results(server.requests[1])[0]
        files_while_open = store_files(db_path)
    files_after_close = store_files(db_path)

    assert db_path.name in files_while_open
    for files in (files_while_open, files_after_close):
        for name, data in files.items():
            assert marker.encode() not in data, f"plaintext marker in {name}"
            assert marker.encode("utf-16-le") not in data, f"UTF-16 marker in {name}"
            assert b"/memories/persist.md" not in data, f"plaintext path in {name}"
            assert not data.startswith(b"SQLite format 3"), f"{name} is a plain SQLite file"

    with SecureMemory.open(db_path, key=key) as reopened:
        assert view(reopened, path).endswith(f"     1\t{marker}")


@DRIVERS
def test_the_same_session_runs_on_postgresql_which_holds_none_of_it_in_clear(drive: Driver, key: bytes) -> None:
    """The SDK's runner against a PostgreSQL store (the layers, dispatcher and adapter unchanged):
    the same results on the wire, the memory there on reopen, and no byte of what the model wrote
    in any column of the database (the real server of tests/pg.py; it skips with one line where
    none answers)."""
    from tests.pg import PG, sql

    url = PG.fresh_url()
    marker = f"marker-{uuid.uuid4().hex}"
    session = build_session(marker)
    with SecureMemory.open(url, key=key) as memory:
        server, _ = run_session(drive, memory, session)
    results = all_tool_results(server)
    assert [r["tool_use_id"] for r in results] == session.tool_use_ids
    for result in results:
        expect = session.expected[result["tool_use_id"]]
        assert result.get("is_error", False) is expect.is_error and result["content"].startswith(expect.starts)
    with SecureMemory.open(url, key=key) as memory:
        assert marker in view(memory, NOTES) and "- prefers phone" in view(memory, NOTES)
    with sql(url) as conn:
        dumped = b"".join(
            bytes(str(row), "utf-8")
            for table in ("sm_meta", "sm_stores", "sm_entries", "sm_versions")
            for row in conn.execute(f"SELECT * FROM {table}").fetchall()
        )
    assert dumped and marker.encode() not in dumped and b"prefers" not in dumped and b"customer" not in dumped
