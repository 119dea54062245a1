"""``securemem backup | restore | verify --backup`` (backup.py): keys.md's promises, from outside.

A backup holds no plaintext; a restore holds exactly a state the store committed (the one when
the backup began, even with a writer going on meanwhile); a backup made with ``--backup-kek
file:R`` restores with ``--kek file:R`` alone; a damaged backup, a wrong KEK or an existing
target is exit 2 with one line, and nothing is left behind.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest

from securemem import SecureMemory
from tests.helpers import FORK, aggregate_errors, audit_records, read_state, run_cli, sha256_of

Cap = pytest.CaptureFixture[str]
MARKER = "plaintext-marker-7f3a9c"


@pytest.fixture(autouse=True)
def no_env_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)


@pytest.fixture
def db(tmp_path: Path, capsys: Cap) -> Path:
    path = tmp_path / "s.db"
    assert run_cli(capsys, "init", "--db", str(path), "--kek", f"file:{path}.kek")[0] == 0
    with SecureMemory.open(path, kek=f"file:{path}.kek") as memory:
        for n in range(20):
            memory.execute({"command": "create", "path": f"/memories/n{n}.md", "file_text": f"{MARKER} {n}\n"})
    return path


def state_of(db: Path, kek: str) -> object:
    with SecureMemory.open(db, kek=kek, create=False) as memory:
        return read_state(memory.store)


def fails(capsys: Cap, code: int, *argv: str) -> str:
    got, out, err = run_cli(capsys, *argv)
    assert got == code, (got, out, err)
    assert err.count("\n") == 1 and err.startswith("securemem: ") and "Traceback" not in err, err
    return err.strip()


def test_a_backup_restores_exactly_and_holds_no_plaintext(db: Path, tmp_path: Path, capsys: Cap) -> None:
    kek = f"file:{db}.kek"
    out = tmp_path / "s.smb"
    code, text, _ = run_cli(capsys, "backup", "--db", str(db), "--out", str(out))
    assert code == 0 and f"backup of {db} written to {out}" in text
    data = out.read_bytes()
    assert MARKER.encode() not in data and b"/memories" not in data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.db", "s.db.kek", "s.db.keys", "s.smb"]  # no temp file
    assert run_cli(capsys, "verify", "--backup", str(out), "--kek", kek)[0] == 0
    restored = tmp_path / "restored.db"
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))[0] == 0
    assert state_of(restored, kek) == state_of(db, kek)
    assert run_cli(capsys, "verify", "--db", str(restored), "--kek", kek)[0] == 0


def test_a_backup_wrapped_by_a_recovery_kek_restores_with_it_alone(db: Path, tmp_path: Path, capsys: Cap) -> None:
    out, recovery = tmp_path / "r.smb", f"file:{tmp_path / 'R.kek'}"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out), "--backup-kek", recovery)[0] == 0
    err = fails(capsys, 2, "restore", "--backup", str(out), "--kek", f"file:{db}.kek", "--db", str(tmp_path / "x.db"))
    assert err == f"securemem: error: the KEK file:{db}.kek is not one of the KEKs of the backup {out} (wrong KEK)"
    assert not (tmp_path / "x.db").exists()
    os.rename(f"{db}.kek", tmp_path / "store-kek-gone")  # only the recovery key exists now
    restored = tmp_path / "elsewhere.db"
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", recovery, "--db", str(restored))[0] == 0
    with SecureMemory.open(restored, kek=recovery, create=False) as memory:
        assert len(read_state(memory.store).files) == 20


def test_a_store_with_two_keks_is_backed_up_with_both_by_default(db: Path, tmp_path: Path, capsys: Cap) -> None:
    """Found by an acceptance tester: --kek was kept once, so a store with two KEKs could not make its
    default backup (every KEK of the store) whatever was given."""
    first, second = f"file:{db}.kek", f"file:{tmp_path / 'b.kek'}"
    assert run_cli(capsys, "keys", "add", "--db", str(db), "--kek", first, "--new-kek", second)[0] == 0
    err = fails(capsys, 1, "backup", "--db", str(db), "--kek", first, "--out", str(tmp_path / "one.smb"))
    assert "needs every KEK" in err and "give it with another --kek" in err
    out = tmp_path / "both.smb"
    assert run_cli(capsys, "backup", "--db", str(db), "--kek", second, "--kek", first, "--out", str(out))[0] == 0
    for kek in (first, second):  # each of the store's KEKs opens the backup alone
        assert run_cli(capsys, "verify", "--backup", str(out), "--kek", kek)[0] == 0


@pytest.mark.parametrize("where", [0, 20, 40, 300, -5000, -40, -1])
def test_a_damaged_backup_is_refused_and_nothing_is_restored(db: Path, tmp_path: Path, capsys: Cap, where: int) -> None:
    out = tmp_path / "s.smb"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    data = bytearray(out.read_bytes())
    data[where] ^= 0x10
    out.write_bytes(bytes(data))
    kek = f"file:{db}.kek"
    assert "is damaged" in fails(capsys, 2, "verify", "--backup", str(out), "--kek", kek)
    assert "is damaged" in fails(
        capsys, 2, "restore", "--backup", str(out), "--kek", kek, "--db", str(tmp_path / "n.db")
    )
    assert not any(p.name.startswith("n.db") for p in tmp_path.iterdir())


def test_a_truncated_backup_is_refused(db: Path, tmp_path: Path, capsys: Cap) -> None:
    out = tmp_path / "s.smb"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    data = out.read_bytes()
    for cut in (0, 10, 100, len(data) // 2, len(data) - 1):
        out.write_bytes(data[:cut])
        assert "is damaged" in fails(capsys, 2, "verify", "--backup", str(out), "--kek", f"file:{db}.kek")


def test_restore_and_backup_never_overwrite(db: Path, tmp_path: Path, capsys: Cap) -> None:
    out = tmp_path / "s.smb"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    before = sha256_of(out)
    assert "already exists" in fails(capsys, 2, "backup", "--db", str(db), "--out", str(out))
    assert sha256_of(out) == before
    other = tmp_path / "other.db"
    other.write_bytes(b"someone's file")
    err = fails(capsys, 2, "restore", "--backup", str(out), "--kek", f"file:{db}.kek", "--db", str(other))
    assert "already exists; restore never overwrites" in err and other.read_bytes() == b"someone's file"


def test_restore_and_init_refuse_a_wal_left_at_the_new_path(db: Path, tmp_path: Path, capsys: Cap) -> None:
    """A -wal left at NEWDB by an earlier store there (a process killed before its checkpoint, the
    store file then thrown away) was replayed into the restored store: a memory the backup never
    held appeared, and the integrity checks passed. Restore (and init) refuse it in one line,
    naming it, and leave it as it is: it may be someone's data."""
    kek = f"file:{db}.kek"
    out, restored = tmp_path / "s.smb", tmp_path / "r.db"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))[0] == 0
    with SecureMemory.open(restored, kek=kek, create=False) as memory:  # killed before its checkpoint:
        memory.execute({"command": "create", "path": "/memories/injected.md", "file_text": "not in the backup\n"})
        left = {end: Path(f"{restored}{end}").read_bytes() for end in ("-wal", "-shm")}
    for path in (restored, Path(f"{restored}.keys")):
        path.unlink()
    for end, data in left.items():
        Path(f"{restored}{end}").write_bytes(data)
    err = fails(capsys, 2, "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))
    assert err.startswith(f"securemem: error: {restored}-wal exists: it would be read into the new store"), err
    assert not restored.exists() and not Path(f"{restored}.keys").exists()
    assert {end: Path(f"{restored}{end}").read_bytes() for end in left} == left
    err = fails(capsys, 2, "init", "--db", str(restored), "--kek", kek)
    assert f"{restored}-wal exists" in err and not restored.exists()
    Path(f"{restored}-shm").unlink()
    Path(f"{restored}-wal").rename(tmp_path / "kept-aside.wal")  # what the operator does
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))[0] == 0
    assert state_of(restored, kek) == state_of(db, kek)


def test_the_default_backup_keks_are_every_kek_of_the_store(db: Path, tmp_path: Path, capsys: Cap) -> None:
    assert run_cli(capsys, "keys", "add", "--db", str(db), "--new-kek", f"file:{tmp_path / 'second.kek'}")[0] == 0
    err = fails(capsys, 1, "backup", "--db", str(db), "--out", str(tmp_path / "b.smb"))
    assert "a backup needs every KEK of" in err and "--backup-kek" in err
    assert not (tmp_path / "b.smb").exists()


def test_a_legacy_store_is_backed_up_under_named_keks(tmp_path: Path, capsys: Cap) -> None:
    legacy = tmp_path / "l.db"
    assert run_cli(capsys, "init", "--db", str(legacy))[0] == 0
    err = fails(capsys, 2, "backup", "--db", str(legacy), "--out", str(tmp_path / "l.smb"))
    assert "name the backup's with --backup-kek URI" in err
    kek = f"file:{tmp_path / 'b.kek'}"
    assert run_cli(capsys, "backup", "--db", str(legacy), "--out", str(tmp_path / "l.smb"), "--backup-kek", kek)[0] == 0
    assert (
        run_cli(capsys, "restore", "--backup", str(tmp_path / "l.smb"), "--kek", kek, "--db", str(tmp_path / "e.db"))[0]
        == 0
    )


def test_verify_backup_takes_a_kek_and_no_db(db: Path, tmp_path: Path, capsys: Cap) -> None:
    err = fails(capsys, 2, "verify", "--backup", str(tmp_path / "x.smb"), "--db", str(db), "--kek", "file:k")
    assert err == "securemem: error: verify --backup FILE takes --kek URI (a KEK of the backup) and no --db"
    assert fails(capsys, 2, "verify") == (
        "securemem: error: verify needs --db DB (a store) or --backup FILE --kek URI (a backup)"
    )


def test_backups_are_audited(db: Path, tmp_path: Path, capsys: Cap, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="securemem.audit")
    out, kek = tmp_path / "s.smb", f"file:{db}.kek"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(tmp_path / "r.db"))[0] == 0
    events = [r for r in audit_records(caplog) if "event" in r]
    assert [e["event"] for e in events] == ["backup_made", "backup_restored"]
    assert all(e["by"] and e["store"].startswith("memstore_") for e in events)


def writer(db: str, kek: str, stop_file: str) -> None:
    """Numbered files, one per transaction, until ``stop_file`` appears."""
    with SecureMemory.open(db, kek=kek, create=False) as memory:
        n = 0
        while not os.path.exists(stop_file):
            memory.execute({"command": "create", "path": f"/memories/w/{n:06d}.md", "file_text": f"{n}\n" * 50})
            n += 1


@pytest.mark.slow
def test_a_backup_taken_while_a_writer_writes_is_a_committed_state(db: Path, tmp_path: Path, capsys: Cap) -> None:
    kek, stop = f"file:{db}.kek", tmp_path / "stop"
    child = FORK.Process(target=writer, args=(str(db), kek, str(stop)))
    child.start()
    try:
        time.sleep(0.5)
        started = time.perf_counter()
        assert run_cli(capsys, "backup", "--db", str(db), "--out", str(tmp_path / "live.smb"))[0] == 0
        took = time.perf_counter() - started
        time.sleep(0.2)
    finally:
        stop.touch()
        child.join(30)
    assert child.exitcode == 0
    restored = tmp_path / "live.db"
    assert (
        run_cli(capsys, "restore", "--backup", str(tmp_path / "live.smb"), "--kek", kek, "--db", str(restored))[0] == 0
    )
    with SecureMemory.open(restored, kek=kek, create=False) as memory:
        state = read_state(memory.store)
    written = sorted(p for p in state.files if p.startswith("/memories/w/"))
    assert written == [f"/memories/w/{n:06d}.md" for n in range(len(written))]  # a prefix: nothing torn
    assert all(state.files[p] == f"{int(p[-9:-3])}\n" * 50 for p in written)
    assert not aggregate_errors(state) and len(written) > 0
    with SecureMemory.open(db, kek=kek, create=False) as memory:
        assert len([p for p in read_state(memory.store).files if p.startswith("/memories/w/")]) > len(written)
    print(f"backup during writes: {took:.3f}s, snapshot held {len(written)} of the writer's files")


# A backup or a restore killed outright (kill -9, the OOM killer, a power cut) never reaches its
# clean-up: the child below runs the real CLI and kills itself halfway through the copy.
_KILLED_HALFWAY = """
import os, signal, sys
import securemem.backup as backup
from securemem.cli import main

def halfway(*args, **kwargs):
    real(*args, **kwargs)  # the file is written
    os.kill(os.getpid(), signal.SIGKILL)

name = sys.argv[1]
real = getattr(backup, name)
setattr(backup, name, halfway)
main(sys.argv[2:])
"""


def _killed_halfway(tmp_path: Path, step: str, *argv: str) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _KILLED_HALFWAY, step, *argv], cwd=tmp_path, capture_output=True, timeout=120
    )
    assert done.returncode == -9, done.stderr


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_killed_backup_leaves_nothing_a_later_backup_keeps(db: Path, tmp_path: Path, capsys: Cap) -> None:
    """A backup killed while it writes leaves no backup at --out, and its hidden copies of the store (a
    snapshot and a partial container, both under the backup's key) are removed by the next backup made
    in that directory, whatever its name: no delete or redaction would ever reach them."""
    out = tmp_path / "monday.smb"
    _killed_halfway(tmp_path, "_write_container", "backup", "--db", str(db), "--out", str(out))
    assert not out.exists()
    left = _hidden(tmp_path)
    assert any(".snapshot-" in name for name in left) and any(".partial-" in name for name in left), left
    # Under an hour old they may be a live run's in another PID namespace (a container sharing the
    # directory): left alone. Older, they go.
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(tmp_path / "tuesday.smb"))[0] == 0
    assert _hidden(tmp_path) == left
    _age(tmp_path, left)
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(tmp_path / "wednesday.smb"))[0] == 0
    assert _hidden(tmp_path) == []


def test_a_killed_restore_leaves_no_store_and_can_be_run_again(db: Path, tmp_path: Path, capsys: Cap) -> None:
    """A restore killed while it copies leaves nothing at --db (a store there would be cut short), so
    running it again restores; the hidden copy is removed then."""
    kek, out, restored = f"file:{db}.kek", tmp_path / "s.smb", tmp_path / "r.db"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    _killed_halfway(tmp_path, "_copy_snapshot", "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))
    assert not restored.exists() and not Path(f"{restored}.keys").exists()
    left = _hidden(tmp_path)
    assert any(".restoring-" in name for name in left)
    _age(tmp_path, left)
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))[0] == 0
    assert _hidden(tmp_path) == []
    assert state_of(restored, kek) == state_of(db, kek)


_KILLED_BEFORE_THE_STORE_IS_LINKED = """
import os, signal, sys
from securemem.cli import main

real, calls = os.link, []

def link(source, target, *args, **kwargs):
    if str(target).endswith("r.db"):
        os.kill(os.getpid(), signal.SIGKILL)  # the key header is in place, the store not yet
    return real(source, target, *args, **kwargs)

os.link = link
main(sys.argv[1:])
"""


def test_a_restore_killed_between_its_key_header_and_its_store_is_run_again(
    db: Path, tmp_path: Path, capsys: Cap
) -> None:
    """Killed between its two links, a restore leaves NEW.keys alone: a restore of the same backup takes it
    as its own (byte for byte what it writes); another store's key header there is still refused."""
    import subprocess
    import sys

    kek, out, restored = f"file:{db}.kek", tmp_path / "s.smb", tmp_path / "r.db"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    argv = ["restore", "--backup", str(out), "--kek", kek, "--db", str(restored)]
    done = subprocess.run(
        [sys.executable, "-c", _KILLED_BEFORE_THE_STORE_IS_LINKED, *argv],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == -9, done.stderr
    assert Path(f"{restored}.keys").exists() and not restored.exists()
    assert run_cli(capsys, *argv)[0] == 0
    assert state_of(restored, kek) == state_of(db, kek)
    other = tmp_path / "o.db"
    Path(f"{other}.keys").write_bytes(Path(f"{db}.keys").read_bytes())  # the store's own header, not the backup's
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(other))[0] == 2
    assert not other.exists()


def test_names_like_staged_files_that_staging_never_makes_are_left_alone(db: Path, tmp_path: Path, capsys: Cap) -> None:
    """A directory named like a staged file, a process id no system has, a symlink: never removed (nor its target)."""
    folder = tmp_path / ".photos.snapshot-4194305-00000000"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "p.jpg").write_text("x")
    huge = tmp_path / ".x.partial-99999999999999999999-deadbeef"
    huge.write_text("y")
    target = tmp_path / "precious.txt"
    target.write_text("z")
    link = tmp_path / ".l.partial-4194305-0badcafe"
    link.symlink_to(target)
    _age(tmp_path, [folder.name, huge.name])
    os.utime(link, (time.time() - 7200, time.time() - 7200), follow_symlinks=False)
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(tmp_path / "b.smb"))[0] == 0
    assert (folder / "sub" / "p.jpg").exists() and huge.exists() and target.read_text() == "z"


def _age(folder: Path, names: list[str]) -> None:
    """Make staged files two hours old, as a killed run's are by the time a later one looks."""
    for name in names:
        os.utime(folder / name, (time.time() - 7200, time.time() - 7200))


def test_staged_files_of_a_live_process_are_left_alone(db: Path, tmp_path: Path, capsys: Cap) -> None:
    """Only a gone process's staged files are removed: one still running may be writing them."""
    live = tmp_path / f".other.smb.partial-{os.getppid()}-0123abcd"
    live.write_bytes(b"in progress")
    _age(tmp_path, [live.name])
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(tmp_path / "b.smb"))[0] == 0
    assert live.exists()


def test_a_restore_that_loses_the_race_to_another_leaves_the_winners_key_header(
    db: Path, tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two restores of one backup to one --db: the one whose store link finds the other's store in place
    fails, and must not remove the key header the other's store now opens with (it did: an attacker's round)."""
    import securemem.backup as backup

    kek, out, restored = f"file:{db}.kek", tmp_path / "s.smb", tmp_path / "r.db"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    real = backup.link_or_move

    def other_restore_wins(source: Path | str, target: Path | str) -> None:
        if str(target) == str(restored):
            real(source, target)  # the other restore's store, byte for byte this one's
            raise FileExistsError(17, "File exists", str(target))
        real(source, target)

    monkeypatch.setattr(backup, "link_or_move", other_restore_wins)
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))[0] == 2
    monkeypatch.undo()
    assert Path(f"{restored}.keys").exists()
    assert state_of(restored, kek) == state_of(db, kek)
