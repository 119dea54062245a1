"""Key sources: one KeyProvider interface; the CLI always says which source it used, never the key."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from securemem import SecureMemory, WrongKeyError
from securemem.errors import KeyFileError
from securemem.keys import KeyFile, Passphrase, RawKey, as_key_provider, create_key_file
from securemem.keys.sources import resolve_key
from tests.helpers import ok, run_cli


@pytest.fixture(autouse=True)
def no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "k.db"
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    return path


VIEW = '{"command":"view","path":"/memories"}'


# -- the provider interface ----------------------------------------------------------------------------


def test_providers_never_show_their_key() -> None:
    raw = os.urandom(32)
    for provider in (RawKey(raw), Passphrase("hunter2-correct-horse"), as_key_provider(raw.hex())):
        assert raw.hex() not in repr(provider) and "hunter2" not in repr(provider)


def test_a_hex_string_is_a_raw_key_not_a_passphrase(tmp_path: Path) -> None:
    key = os.urandom(32)
    db = tmp_path / "h.db"
    with SecureMemory.open(db, key=key) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="a")
    for spelled in (key.hex(), key.hex().upper(), key.hex() + "\n", f"  {key.hex()}\n"):  # open(...).read() style
        with SecureMemory.open(db, key=spelled) as memory:
            assert ok(memory, command="view", path="/memories/a.md").endswith("\ta")
    assert isinstance(as_key_provider(key.hex()), RawKey)
    assert isinstance(as_key_provider("not hex, a passphrase"), Passphrase)


def test_a_wrong_key_names_its_source_and_never_the_key(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    SecureMemory.open(db, key=os.urandom(32)).close()
    wrong = os.urandom(32)
    with pytest.raises(WrongKeyError) as caught:
        SecureMemory.open(db, key=wrong)
    assert "the raw key given does not open" in str(caught.value) and wrong.hex() not in str(caught.value)


# -- the command line: which source -----------------------------------------------------------------


def test_the_cli_names_the_key_source_it_tried(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other.key"
    secret = create_key_file(other)
    code, _, err = run_cli(capsys, "exec", "--db", str(db), "--key-file", str(other), VIEW)
    assert code == 2 and f"--key-file {other} does not open" in err and secret.hex() not in err
    monkeypatch.setenv("SECUREMEM_KEY", "a wrong passphrase")
    code, _, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
    assert code == 2 and "$SECUREMEM_KEY (a passphrase) does not open" in err and "wrong passphrase" not in err
    monkeypatch.delenv("SECUREMEM_KEY")
    Path(f"{db}.key").write_text(os.urandom(32).hex())
    code, _, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
    assert code == 2 and f"key file {db}.key does not open" in err


def test_an_environment_key_that_overrides_the_key_file_says_so(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECUREMEM_KEY", Path(f"{db}.key").read_text())  # the same key, in hex: nothing to say
    assert run_cli(capsys, "exec", "--db", str(db), VIEW)[2] == ""
    monkeypatch.setenv("SECUREMEM_KEY", "a passphrase")
    _, _, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
    assert err.startswith(f"securemem: warning: $SECUREMEM_KEY is set, so it is the key used; the key file {db}.key")


def test_a_passphrase_can_come_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    phrase = tmp_path / "phrase"
    phrase.write_text("correct horse battery staple\n")
    os.chmod(phrase, 0o600)
    db = tmp_path / "p.db"
    assert run_cli(capsys, "init", "--db", str(db), "--passphrase-file", str(phrase))[0] == 0
    assert not Path(f"{db}.key").exists()  # no key file: the passphrase is the key
    code, out, _ = run_cli(capsys, "exec", "--db", str(db), "--passphrase-file", str(phrase), VIEW)
    assert code == 0 and out.startswith("Here're the files")
    with SecureMemory.open(db, key="correct horse battery staple") as memory:  # the same stretch
        ok(memory, command="view", path="/memories")
    os.chmod(phrase, 0o644)
    code, _, err = run_cli(capsys, "exec", "--db", str(db), "--passphrase-file", str(phrase), VIEW)
    assert code == 2 and "accessible by other users" in err and "horse" not in err


def test_key_sources_in_order(tmp_path: Path) -> None:
    db = str(tmp_path / "o.db")
    create_key_file(f"{db}.key")
    provider, warnings = resolve_key(db, environ={})
    assert isinstance(provider, KeyFile) and provider.source == f"key file {db}.key" and warnings == []
    provider, _ = resolve_key(db, key_file="/elsewhere.key", environ={"SECUREMEM_KEY": "x"})
    assert provider.source == "--key-file /elsewhere.key"
    with pytest.raises(Exception, match="no key for"):
        resolve_key(str(tmp_path / "none.db"), environ={})


# -- rekey ---------------------------------------------------------------------------------------------


def test_rekey_replaces_the_default_key_file_and_keeps_the_old_one_aside(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_key = Path(f"{db}.key").read_text()
    code, out, _ = run_cli(capsys, "rekey", "--db", str(db))
    assert code == 0 and f"now in {db}.key" in out and "no longer opens the store" in out
    saved = [p for p in db.parent.iterdir() if p.name.startswith(f"{db.name}.key.old-")]
    assert len(saved) == 1 and saved[0].read_text() == old_key
    assert stat.S_IMODE(Path(f"{db}.key").stat().st_mode) == 0o600
    assert run_cli(capsys, "exec", "--db", str(db), VIEW)[0] == 0  # the default key file opens it
    code, _, _ = run_cli(capsys, "exec", "--db", str(db), "--key-file", str(saved[0]), VIEW)
    assert code == 2  # the old key does not


def test_rekey_to_a_named_key_file_says_where_the_key_is(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "new.key"
    code, out, _ = run_cli(capsys, "rekey", "--db", str(db), "--new-key-file", str(new))
    assert code == 0 and f"under the key in {new}" in out and f"key file {db}.key) no longer opens it" in out
    assert run_cli(capsys, "exec", "--db", str(db), "--key-file", str(new), VIEW)[0] == 0


_REKEY_KILLED_AFTER_COMMIT = """
import os, signal, sys
from securemem.store.sqlcipher import SQLCipherStore
from securemem.cli import main

real = SQLCipherStore.rekey

def rekey_then_die(self, *args, **kwargs):
    real(self, *args, **kwargs)  # the store is under the new key now
    os.kill(os.getpid(), signal.SIGKILL)

SQLCipherStore.rekey = rekey_then_die
main(sys.argv[1:])
"""


def test_a_rekey_killed_before_its_key_files_moved_is_finished_by_the_next_command(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Killed after the store took its new key and before the key files changed places, a rekey left the
    store under DB.key.new while DB.key held the old key: every command then failed with a wrong key. The
    next command finishes the swap (the old key kept aside) and says so on stderr."""
    import subprocess
    import sys

    old_key = Path(f"{db}.key").read_text()
    done = subprocess.run(
        [sys.executable, "-c", _REKEY_KILLED_AFTER_COMMIT, "rekey", "--db", str(db)], capture_output=True, timeout=120
    )
    assert done.returncode == -9, done.stderr
    assert Path(f"{db}.key.new").exists() and Path(f"{db}.key").read_text() == old_key
    code, out, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
    assert code == 0 and "/memories" in out
    assert err.startswith("securemem: warning: a rekey of ") and "was interrupted" in err and err.count("\n") == 1
    assert not Path(f"{db}.key.new").exists()
    saved = [p for p in db.parent.iterdir() if p.name.startswith(f"{db.name}.key.old-")]
    assert len(saved) == 1 and saved[0].read_text() == old_key
    assert run_cli(capsys, "rekey", "--db", str(db))[0] == 0  # and a rekey runs again
    assert run_cli(capsys, "exec", "--db", str(db), VIEW)[0] == 0


def test_a_rekey_that_never_took_leaves_the_key_files_alone(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A DB.key.new beside a store its DB.key still opens (a rekey killed before it committed) is left
    for the next rekey: nothing moves, nothing is said."""
    create_key_file(f"{db}.key.new")
    old_key = Path(f"{db}.key").read_text()
    code, _, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
    assert code == 0 and err == "" and Path(f"{db}.key").read_text() == old_key
    assert run_cli(capsys, "rekey", "--db", str(db))[0] == 0
    assert Path(f"{db}.key").read_text() != old_key and not Path(f"{db}.key.new").exists()


def test_rekey_refuses_a_new_key_file_holding_the_current_key(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Re-keying to the key the store is under changes nothing: refused, never reported as done."""
    copy = tmp_path / "same.key"
    copy.write_text(Path(f"{db}.key").read_text())
    copy.chmod(0o600)
    code, out, err = run_cli(capsys, "rekey", "--db", str(db), "--key-file", str(copy), "--new-key-file", str(copy))
    assert code == 2 and out == "" and "holds the key" in err and err.count("\n") == 1, err
    assert run_cli(capsys, "exec", "--db", str(db), "--key-file", str(copy), VIEW)[0] == 0


def test_rekeys_in_the_same_second_keep_every_old_key(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each old key is set aside under its own name: a second rekey in the same second once replaced the
    first one's old key, the only key of every copy of the store made before it."""
    import time

    monkeypatch.setattr(time, "strftime", lambda *_: "20261205T010203Z")  # every rekey in one second
    keys = [Path(f"{db}.key").read_text()]
    for _ in range(3):
        assert run_cli(capsys, "rekey", "--db", str(db))[0] == 0
        keys.append(Path(f"{db}.key").read_text())
    saved = sorted(p.read_text() for p in db.parent.iterdir() if p.name.startswith(f"{db.name}.key.old-"))
    assert saved == sorted(keys[:-1])


def test_a_rekey_killed_between_its_two_moves_is_finished(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The old key set aside, the new one not yet in DB.key: no DB.key at all. The next command finishes the
    move (it said "no key" before)."""
    import subprocess
    import sys

    child = _REKEY_KILLED_AFTER_COMMIT.replace(
        "SQLCipherStore.rekey = rekey_then_die",
        "import os as _os\nreal_replace = _os.replace\n"
        "def replace_then_die(a, b):\n    if str(a).endswith('.key.new'):\n        _os.kill(_os.getpid(), 9)\n"
        "    return real_replace(a, b)\n_os.replace = replace_then_die",
    ).replace("    os.kill(os.getpid(), signal.SIGKILL)\n", "")
    done = subprocess.run([sys.executable, "-c", child, "rekey", "--db", str(db)], capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr
    assert not Path(f"{db}.key").exists() and Path(f"{db}.key.new").exists()
    code, out, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
    assert code == 0 and "/memories" in out and "had been moved aside already" in err
    assert Path(f"{db}.key").exists() and not Path(f"{db}.key.new").exists()


def test_a_rekey_not_yet_checkpointed_is_finished_at_the_first_command(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Killed after its commit and before its checkpoint, a rekey leaves its new salt in the WAL only: the
    new key opens the store with it, so the first command finishes the swap (not the second)."""
    from securemem.keys import RawKey
    from securemem.store.sqlcipher import SQLCipherStore
    from tests.helpers import connection_of

    new = create_key_file(f"{db}.key.new")
    rekeyer = SQLCipherStore.open(db, KeyFile(f"{db}.key"), create=False)
    try:
        conn = connection_of(rekeyer)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        salt = os.urandom(16)
        conn.execute(f"PRAGMA rekey = \"x'{RawKey(new).store_key(salt).hex()}{salt.hex()}'\"")  # no checkpoint
        assert db.read_bytes()[:16] != salt
        code, out, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
        assert code == 0 and "/memories" in out and "was interrupted" in err, err
        assert Path(f"{db}.key").read_text().strip() == new.hex()
    finally:
        rekeyer.close()


def test_rekey_refuses_the_name_it_stages_its_own_key_under(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "rekey", "--db", str(db), "--new-key-file", f"{db}.key.new")
    assert code == 2 and out == "" and "stages a new" in err


def test_an_empty_new_key_file_left_by_a_rekey_is_replaced(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path(f"{db}.key.new").touch(mode=0o600)
    assert run_cli(capsys, "rekey", "--db", str(db))[0] == 0
    assert run_cli(capsys, "exec", "--db", str(db), VIEW)[0] == 0


_REKEY_KILLED_BEFORE_ITS_CHECKPOINT = """
import os, sys
from securemem.store.sqlcipher import SQLCipherStore
from securemem.cli import main

def rekey_no_checkpoint(self, key, *, salt=None):
    conn = self._open_conn()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    salt = os.urandom(16)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(f"PRAGMA rekey = \\"x'{key.store_key(salt).hex()}{salt.hex()}'\\"")
    conn.execute("COMMIT")
    os.kill(os.getpid(), 9)  # committed: the new salt is in the WAL only

SQLCipherStore.rekey = rekey_no_checkpoint
main(sys.argv[1:])
"""


def test_a_rekey_killed_before_its_checkpoint_is_finished_by_the_first_command(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In another process, killed after its commit: the first command's failed try with the head's salt
    checkpointed the WAL away before the WAL's salt was read, so that command failed and only the next one
    worked (an attacker's round). The WAL's salt is read first now."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _REKEY_KILLED_BEFORE_ITS_CHECKPOINT, "rekey", "--db", str(db)],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == -9, done.stderr
    code, out, err = run_cli(capsys, "exec", "--db", str(db), VIEW)
    assert code == 0 and "/memories" in out and "was interrupted" in err, err


def test_a_rekey_on_a_file_system_without_hard_links_sets_the_old_key_aside(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where links are refused (FAT, some network mounts), the old key is moved aside instead."""
    import errno

    def no_links(*_: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    old_key = Path(f"{db}.key").read_text()
    monkeypatch.setattr(os, "link", no_links)
    assert run_cli(capsys, "rekey", "--db", str(db))[0] == 0
    saved = [p for p in db.parent.iterdir() if p.name.startswith(f"{db.name}.key.old-")]
    assert [p.read_text() for p in saved] == [old_key]
    assert run_cli(capsys, "exec", "--db", str(db), VIEW)[0] == 0


@pytest.mark.parametrize("blank", ["\n", "   ", "\t\r\n", "\x00"])
def test_a_passphrase_of_blanks_alone_is_refused_and_makes_no_store(tmp_path: Path, blank: str) -> None:
    """An empty key file's newline, or a variable set to a space, is no passphrase: it opened a store under "\\n"
    (an attacker's round), where the empty string was refused."""
    with pytest.raises(KeyFileError, match="empty"):
        SecureMemory.open(tmp_path / "a.db", key=blank)
    assert not (tmp_path / "a.db").exists()
