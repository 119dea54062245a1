"""SecureMemory, the safe recipe: the policy belongs to the store, execute never raises, namespaces."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from securemem import PolicyError, SecureMemError, SecureMemory
from securemem.cli import main
from securemem.keys import create_key_file
from securemem.memory import recorded_policy
from securemem.store.factory import open_store
from tests.helpers import audit_records, entry_of, ok

# -- the policy belongs to the store -----------------------------------------------------------------


def test_a_new_store_records_the_policy_it_was_opened_with(tmp_path: Path, key: bytes) -> None:
    db = tmp_path / "p.db"
    SecureMemory.open(db, key=key, policy="regulated").close()
    with SecureMemory.open(db, key=key) as memory:  # no policy given: the store's own, not the default
        assert memory.policy.name == "regulated"
        assert memory.execute(
            {"command": "create", "path": "/memories/k.md", "file_text": "AKIAIOSFODNN7EXAMPLE"}
        ).is_error


def test_opening_with_another_policy_is_refused_and_changes_nothing(tmp_path: Path, key: bytes) -> None:
    db = tmp_path / "p.db"
    SecureMemory.open(db, key=key, policy="regulated").close()
    with pytest.raises(PolicyError, match=r"runs under policy 'regulated'.*adopt_policy=True"):
        SecureMemory.open(db, key=key, policy="default")
    store = open_store(db, key)
    try:
        recorded = recorded_policy(store)
        assert recorded is not None and recorded.name == "regulated"
    finally:
        store.close()


def test_adopting_a_policy_is_recorded_audited_and_restamps_expiry(
    tmp_path: Path, key: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "p.db"
    with SecureMemory.open(db, key=key, policy="regulated") as memory:
        ok(memory, command="create", path="/memories/scratch/t.md", file_text="today\n")
        stamped = entry_of(memory, "/memories/scratch/t.md")
        assert stamped is not None and stamped.expires is not None  # scratch/** expires after a day
    caplog.set_level(logging.INFO, logger="securemem.audit")
    with SecureMemory.open(db, key=key, policy="default", adopt_policy=True) as memory:
        restamped = entry_of(memory, "/memories/scratch/t.md")
        assert restamped is not None and restamped.expires is None  # the default policy never expires
    [record] = audit_records(caplog)
    assert (record["event"], record["previous"], record["policy"]) == ("policy_adopted", "regulated", "default")
    with SecureMemory.open(db, key=key) as memory:
        assert memory.policy.name == "default"


def test_the_cli_uses_the_store_policy_and_switches_it_only_with_policy_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db = str(tmp_path / "c.db")
    assert main(["init", "--db", db, "--policy", "regulated"]) == 0
    secret = json.dumps({"command": "create", "path": "/memories/k.md", "file_text": "AKIAIOSFODNN7EXAMPLE"})
    assert main(["exec", "--db", db, secret]) == 1  # refused by the regulated policy the store records
    assert main(["exec", "--db", db, "--policy", "default", secret]) == 2  # another policy: refused
    assert "securemem policy set" in capsys.readouterr().err
    assert main(["policy", "set", "--db", db, "default"]) == 0
    assert main(["exec", "--db", db, secret]) == 0


# -- execute never raises ----------------------------------------------------------------------------


def test_execute_never_raises_on_a_closed_store(tmp_path: Path, key: bytes) -> None:
    memory = SecureMemory.open(tmp_path / "x.db", key=key)
    memory.close()
    result = memory.execute({"command": "view", "path": "/memories"})
    assert result.is_error and "closed" in result.text


class Exploding(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        raise RuntimeError("the audit sink is down")

    def handleError(self, record: logging.LogRecord) -> None:
        raise RuntimeError("and so is its error handler")


class Raising(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        raise RuntimeError("a filter that fails")


@pytest.mark.parametrize("breaker", [Exploding(), Raising()], ids=["handler", "filter"])
def test_a_broken_audit_sink_never_breaks_a_command(tmp_path: Path, key: bytes, breaker: Any) -> None:
    audit_log = logging.getLogger("securemem.audit")
    audit_log.setLevel(logging.INFO)
    if isinstance(breaker, logging.Filter):
        audit_log.addFilter(breaker)
    else:
        audit_log.addHandler(breaker)
    try:
        with SecureMemory.open(tmp_path / "a.db", key=key) as memory:
            assert ok(memory, command="create", path="/memories/a.md", file_text="a") == (
                "File created successfully at: /memories/a.md"
            )
    finally:
        audit_log.removeHandler(breaker) if isinstance(breaker, logging.Handler) else audit_log.removeFilter(breaker)
        audit_log.setLevel(logging.NOTSET)


@pytest.mark.parametrize("where", ["securemem", ""], ids=["package-logger", "root-logger"])
def test_a_broken_handler_above_the_audit_logger_never_breaks_a_command(tmp_path: Path, key: bytes, where: str) -> None:
    """The handler that fails the audit record also receives the message saying so (and any other
    message of the package): that one must not escape either, whatever the command's outcome."""
    audit_log, above = logging.getLogger("securemem.audit"), logging.getLogger(where)
    audit_log.setLevel(logging.INFO)
    breaker = Exploding()
    above.addHandler(breaker)
    try:
        with SecureMemory.open(tmp_path / "a.db", key=key) as memory:
            assert ok(memory, command="create", path="/memories/a.md", file_text="a") == (
                "File created successfully at: /memories/a.md"
            )
            assert memory.execute({"command": "nope"}).is_error
            assert ok(memory, command="view", path="/memories/a.md").endswith("a")
    finally:
        above.removeHandler(breaker)
        audit_log.setLevel(logging.NOTSET)


def test_a_busy_store_is_audited_with_the_paths_that_passed_the_guards(
    tmp_path: Path, key: bytes, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from securemem.errors import StoreBusyError

    caplog.set_level(logging.INFO, logger="securemem.audit")
    with SecureMemory.open(tmp_path / "b.db", key=key, policy="regulated") as memory:

        def busy(*_: Any, **__: Any) -> Any:
            raise StoreBusyError("the memory store is busy (another writer holds it); try again shortly")

        monkeypatch.setattr(memory.store, "transaction", busy)
        for path in ("/memories/jane.doe@example.com.md", "/memories/plain.md"):
            assert memory.execute({"command": "create", "path": path, "file_text": "x"}).is_error
    refused, plain = audit_records(caplog)
    assert refused["paths"] == ["[refused]"] and refused["error"] == "PIIRefused"
    assert plain["paths"] == ["/memories/plain.md"] and plain["error"] == "StoreBusyError"
    assert "jane" not in caplog.text


# -- namespaces --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["user-1\n", "user-1\nevil", "", "-lead", "a" * 129, "sp ace", "ünï"])
def test_namespace_names_are_matched_whole(tmp_path: Path, key: bytes, name: str) -> None:
    with pytest.raises(SecureMemError, match="a namespace is 1-128 characters"):
        SecureMemory.open(tmp_path / "n.db", key=key, namespace=name)


def test_the_audit_trail_names_a_namespace_by_a_keyed_digest(
    tmp_path: Path, key: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="securemem.audit")
    with SecureMemory.open(tmp_path / "d.db", key=key, namespace="jane.doe@example.com") as memory:
        ok(memory, command="view", path="/memories")
        digest = memory.namespace_id
    assert "jane" not in caplog.text and digest in caplog.text and digest.startswith("ns_")
    with SecureMemory.open(tmp_path / "d.db", key=key, namespace="jane.doe@example.com") as again:
        assert again.namespace_id == digest  # stable: an operator can find a namespace's records
    with SecureMemory.open(tmp_path / "other.db", key=os.urandom(32), namespace="jane.doe@example.com") as other:
        assert other.namespace_id != digest  # keyed per store: not a dictionary-checkable hash


def test_a_key_file_made_by_init_opens_through_the_library(tmp_path: Path) -> None:
    key = create_key_file(tmp_path / "k.key")
    with SecureMemory.open(tmp_path / "k.db", key=(tmp_path / "k.key").read_text()) as memory:  # hex text: a key
        ok(memory, command="create", path="/memories/a.md", file_text="a")
    with SecureMemory.open(tmp_path / "k.db", key=key) as memory:
        assert ok(memory, command="view", path="/memories/a.md").endswith("\ta")


# -- a policy set by an operator while a handle is open ----------------------------------------------


def test_a_handle_open_when_the_policy_changes_runs_nothing_under_the_old_policy(tmp_path: Path) -> None:
    from securemem.memory import store_policy
    from securemem.policy import load_policy

    key, db = os.urandom(32), tmp_path / "p.db"
    agent = SecureMemory.open(db, key=key)  # a long-running agent, default policy
    try:
        ok(agent, command="create", path="/memories/a.md", file_text="before\n")
        operator = open_store(db, key, create=False)  # `securemem policy set` in another process
        try:
            store_policy(operator, load_policy("regulated"), adopt=True)
        finally:
            operator.close()
        writes: list[dict[str, Any]] = [
            {"command": "create", "path": "/memories/c.md", "file_text": "Dana: dana.reyes@example.com\n"},
            {"command": "create", "path": "/memories/reference/p.md", "file_text": "overwritten\n"},
            {"command": "delete", "path": "/memories/a.md"},
        ]
        results = [agent.execute(command) for command in [*writes, {"command": "view", "path": "/memories/a.md"}]]
        assert [(r.is_error, r.error) for r in results] == [(True, "PolicyChangedError")] * 4
        assert all("policy" in r.text and "'regulated'" in r.text and "reopen" in r.text for r in results)
    finally:
        agent.close()
    with SecureMemory.open(db, key=key) as fresh:
        assert fresh.policy.name == "regulated"
        assert fresh.execute({"command": "view", "path": "/memories/a.md"}).text.endswith("before")
        assert fresh.execute({"command": "view", "path": "/memories/c.md"}).is_error
        assert fresh.execute({"command": "view", "path": "/memories/reference/p.md"}).is_error


def test_no_write_of_an_old_handle_lands_while_a_new_policy_re_stamps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from securemem import memory as memory_module
    from securemem.policy import Policy, TTLSettings

    key, db = os.urandom(32), tmp_path / "r.db"
    agent = SecureMemory.open(db, key=key)  # default policy: nothing expires
    raced: list[bool] = []
    real = memory_module.restamp

    def restamp_with_a_racing_write(store: Any, policy: Policy, now: float) -> int:
        # The old handle writes while the re-stamp is about to run: it must be refused by then.
        raced.append(agent.execute({"command": "create", "path": "/memories/late.md", "file_text": "x\n"}).is_error)
        return real(store, policy, now)

    monkeypatch.setattr(memory_module, "restamp", restamp_with_a_racing_write)
    try:
        operator = open_store(db, key, create=False)
        try:
            short = Policy(name="short", ttl=TTLSettings(expire_after=2, since="write"))
            memory_module.store_policy(operator, short, adopt=True)
            assert operator.get_setting(memory_module.RESTAMP_SETTING) == ""
        finally:
            operator.close()
    finally:
        agent.close()
    assert raced == [True]


def test_an_adoption_cut_short_is_re_stamped_at_the_next_open(tmp_path: Path) -> None:
    from securemem import memory as memory_module
    from securemem.policy import Policy, TTLSettings

    key, db = os.urandom(32), tmp_path / "c.db"
    with SecureMemory.open(db, key=key) as first:
        ok(first, command="create", path="/memories/a.md", file_text="x\n")
    short = Policy(name="short", ttl=TTLSettings(expire_after=60, since="write"))
    store = open_store(db, key, create=False)
    try:  # what a crash leaves after the policy was recorded and before the re-stamp ran
        store.set_setting(memory_module.RESTAMP_SETTING, "pending")
        store.set_setting(memory_module.POLICY_SETTING, memory_module.policy_json(short))
    finally:
        store.close()
    with SecureMemory.open(db, key=key) as again:
        assert again.policy.name == "short"
        found = entry_of(again, "/memories/a.md")
        assert found is not None and found.expires is not None
        assert again.store.get_setting(memory_module.RESTAMP_SETTING) == ""


def test_the_same_policy_set_again_keeps_the_handle_running(tmp_path: Path) -> None:
    from securemem.memory import store_policy
    from securemem.policy import load_policy

    key, db = os.urandom(32), tmp_path / "p.db"
    with SecureMemory.open(db, key=key, policy="regulated") as agent:
        operator = open_store(db, key, create=False)
        try:
            store_policy(operator, load_policy("regulated"), adopt=True)
        finally:
            operator.close()
        ok(agent, command="create", path="/memories/a.md", file_text="still running\n")
