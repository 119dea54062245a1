"""What two independent acceptance testers found against the contracts (memory-tool.md, stores-api.md,
keys.md) and the README, each fixed: a test per finding, each failing before its fix."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from securemem import Admin, InvalidRequest, NotFound, SecureMemory
from securemem.store.base import StoreInfo
from tests.helpers import err, ok, run_cli

Cap = pytest.CaptureFixture[str]


@pytest.fixture(params=["memory", "sqlcipher"])
def admin(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Admin]:
    url = "memory://" if request.param == "memory" else f"sqlcipher://{tmp_path / 'a.db'}"
    with Admin.open(url, key=b"k" * 32, api_key_id="ops-test") as handle:
        yield handle


def test_a_store_deleted_between_its_lookup_and_a_read_is_not_found(
    admin: Admin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process deletes the store while a call runs: the contract's NotFound, never the
    store's own MissingStore (no ``code``)."""
    store = admin.memory_stores.create(name="doomed")
    memory = admin.memories.write(store.id, path="/a.md", content="x")
    version = admin.memory_versions.list(store.id).data[0]
    found = admin.store.find_store

    def found_then_deleted(**how: Any) -> StoreInfo | None:
        info = found(**how)
        if info is not None:
            admin.store.drop_namespace(info.name)  # as another process would, right after the lookup
        return info

    calls: list[Callable[[], object]] = [
        lambda: admin.memories.list(store.id),
        lambda: admin.memories.retrieve(store.id, memory.id),
        lambda: admin.memories.update(store.id, memory.id, content="y"),
        lambda: admin.memory_versions.list(store.id),
        lambda: admin.memory_versions.retrieve(store.id, version.id),
    ]
    for call in calls:
        monkeypatch.setattr(admin.store, "find_store", found_then_deleted)
        with pytest.raises(NotFound) as caught:
            call()
        assert caught.value.code == "not_found"
        monkeypatch.undo()
        store = admin.memory_stores.create(name="doomed")  # the next call's store
        memory = admin.memories.write(store.id, path="/a.md", content="x")
        version = admin.memory_versions.list(store.id).data[0]


def test_a_session_opened_by_name_stays_with_its_store_when_an_operator_renames_it(admin: Admin) -> None:
    store = admin.memory_stores.create(name="casework")
    admin.memories.write(store.id, path="/a.md", content="kept")
    session = SecureMemory(admin.store, admin.policy, namespace="casework", owns_store=False, session_id="sess_a")
    assert "/memories/a.md" in ok(session, command="view", path="/memories")
    admin.memory_stores.update(store.id, name="casework-2024")
    # Same store: its file is still seen, and a new one lands beside it, not in a new "casework".
    assert "/memories/a.md" in ok(session, command="view", path="/memories")
    ok(session, command="create", path="/memories/b.md", file_text="new")
    assert [s.name for s in admin.memory_stores.list().data] == ["casework-2024"]
    assert sorted(m.path for m in admin.memories.list(store.id).data) == ["/a.md", "/b.md"]
    # Deleted, the name is free: the session goes on by name, in a new, empty store (as before).
    admin.memory_stores.delete(store.id)
    ok(session, command="create", path="/memories/c.md", file_text="after")
    (again,) = admin.memory_stores.list().data
    assert again.name == "casework" and again.id != store.id
    assert [m.path for m in admin.memories.list(again.id).data] == ["/c.md"]


def test_a_namespace_outside_the_rule_that_names_no_store_is_an_invalid_request(tmp_path: Path) -> None:
    with pytest.raises(InvalidRequest) as caught:
        SecureMemory.open(tmp_path / "s.db", key=os.urandom(32), namespace="New Store!")
    assert caught.value.code == "invalid_request"


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[SecureMemory]:
    with SecureMemory.open(tmp_path / "s.db", key=os.urandom(32), policy="regulated") as handle:
        yield handle


def test_an_old_str_with_a_lone_surrogate_is_refused_not_echoed(memory: SecureMemory) -> None:
    ok(memory, command="create", path="/memories/a.md", file_text="one\n")
    message = err(memory, command="str_replace", path="/memories/a.md", old_str="x\udcff", new_str="y")
    message.encode("utf-8")  # the answer can be sent on, as every answer must
    assert "unpaired surrogate" in message


def test_str_replace_never_leaves_a_bare_lf_in_a_crlf_file(memory: SecureMemory) -> None:
    ok(memory, command="create", path="/memories/c.txt", file_text="a\r\nb\r\nc\r\n")
    assert "carriage return" in err(memory, command="str_replace", path="/memories/c.txt", old_str="c\r", new_str="C")
    ok(memory, command="str_replace", path="/memories/c.txt", old_str="c", new_str="C")
    with memory.store.transaction(memory.namespace, write=False, clock=memory.clock) as tx:
        found = tx.get("/memories/c.txt")
    assert found is not None and found[1] == b"a\r\nb\r\nC\r\n"


@pytest.mark.parametrize("path", ["/memories/Reference/x.md", "/memories/REFERENCE/x.md", "/memories/reFerence"])
def test_a_case_variant_of_a_read_only_area_is_refused(memory: SecureMemory, path: str) -> None:
    message = err(memory, command="create", path=path, file_text="looks official")
    assert "only in upper and lower case" in message and "/memories/reference/**" in message
    ok(memory, command="create", path="/memories/d/policy.md", file_text="x")
    assert "only in upper and lower case" in err(
        memory, command="rename", old_path="/memories/d", new_path=path.removesuffix("/x.md")
    )
    ok(memory, command="create", path="/memories/references/x.md", file_text="a different name")


def test_replay_answers_blank_lines_and_shows_results_as_its_echo(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "r.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    lines = [
        '{"command":"create","path":"/memories/ssn-123-45-6789.md","file_text":"x"}',
        "",
        "   ",
        '{"command":"bogus"}',
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    code, said, _ = run_cli(capsys, "replay", "--db", str(db), str(source))
    assert code == 1
    assert "123-45-6789" not in said  # the echo and the result both show it by type
    assert "File created successfully at: /memories/ssn-[US_SSN].md" in said
    assert "[2] skipped: the line is blank" in said and "[3] skipped: the line is blank" in said
    assert "[4] error:" in said and said.rstrip().endswith("replayed 2 commands, 1 failed")


def test_exec_with_an_empty_file_name_says_so(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "x.db"
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    code, out, said = run_cli(capsys, "exec", "--db", str(db), "@")
    assert (code, out) == (2, "")
    assert said == "securemem: error: @ needs a file name: @input.json reads the tool input from input.json\n"
