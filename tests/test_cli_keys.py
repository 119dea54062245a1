"""``securemem init --kek`` and ``securemem keys ...`` (cli.py, cli_keys.py, custody.py): keys.md from outside.

Exit codes (0 ok, 1 refused, 2 usage/key/database) with one line on stderr; add, remove and
rotate-kek never change a byte of DB; hostile headers and wrong KEKs refused with nothing
changed; no key material in any output, audit record or helper's argv.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from securemem.keys.header import keys_path
from securemem.keys.uri import parse_kek
from securemem.store.envelope import unlock
from tests.helpers import REPO, audit_records, child_argv, fork_all, run_cli, sha256_of

Cap = pytest.CaptureFixture[str]
VIEW = '{"command":"view","path":"/memories/a.md"}'
CREATE = '{"command":"create","path":"/memories/a.md","file_text":"kept across every key change\\n"}'


@pytest.fixture(autouse=True)
def no_env_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)


@pytest.fixture
def db(tmp_path: Path, capsys: Cap) -> Path:
    """An envelope store with one memory, its KEK in the default place (DB.kek)."""
    path = tmp_path / "e.db"
    code, out, err = run_cli(capsys, "init", "--db", str(path), "--kek", f"file:{path}.kek")
    assert (code, err) == (0, ""), err
    assert out == (
        f"created encrypted store {path}; its data key is in {path}.keys, wrapped by a new KEK file "
        f"file:{path}.kek (mode 0600: back it up)\n"
    )
    assert run_cli(capsys, "exec", "--db", str(path), CREATE)[0] == 0
    return path


def fails(capsys: Cap, code: int, *argv: str) -> str:
    """The command exits ``code`` with exactly one line on stderr; that line."""
    got, out, err = run_cli(capsys, *argv)
    assert got == code, (got, out, err)
    assert err.count("\n") == 1 and err.startswith("securemem: ") and "Traceback" not in err, err
    return err.strip()


def key_ids(capsys: Cap, db: Path, *kek: str) -> list[str]:
    code, out, _ = run_cli(capsys, "keys", "list", "--db", str(db), *kek)
    assert code == 0
    return [json.loads(line)["key_id"] for line in out.splitlines()]


def reads(capsys: Cap, db: Path, *kek: str) -> bool:
    code, out, _ = run_cli(capsys, "exec", "--db", str(db), *kek, VIEW)
    return code == 0 and "kept across every key change" in out


def new_kek(tmp_path: Path, name: str) -> str:
    return f"file:{tmp_path / name}"


# -- init and the order keys are looked for in -----------------------------------------------------


def test_init_with_a_kek_makes_private_files_and_opens_without_flags(db: Path) -> None:
    for made in (keys_path(db), Path(f"{db}.kek")):
        assert stat.S_IMODE(made.stat().st_mode) == 0o600
    assert not Path(f"{db}.key").exists()


def test_init_without_a_kek_is_the_legacy_store_of_the_quick_start(tmp_path: Path, capsys: Cap) -> None:
    path = tmp_path / "legacy.db"
    code, out, _ = run_cli(capsys, "init", "--db", str(path))
    assert code == 0 and out.startswith(f"created encrypted store {path} with a key file {path}.key")
    assert not keys_path(path).exists() and not Path(f"{path}.kek").exists()


def test_the_kek_comes_from_the_environment_when_no_flag_names_one(
    tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "env.db"
    monkeypatch.setenv("SM_TEST_KEK", os.urandom(32).hex())
    monkeypatch.setenv("SECUREMEM_KEK", "env:SM_TEST_KEK")
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    assert keys_path(path).exists() and not Path(f"{path}.key").exists()
    assert run_cli(capsys, "exec", "--db", str(path), CREATE)[0] == 0
    monkeypatch.delenv("SECUREMEM_KEK")
    assert reads(capsys, path, "--kek", "env:SM_TEST_KEK")
    err = fails(capsys, 2, "exec", "--db", str(path), VIEW)
    assert "pass --kek URI, --key-file F or --passphrase-file F, set $SECUREMEM_KEK or $SECUREMEM_KEY" in err


def test_init_refuses_a_kek_with_a_key_file_and_leaves_nothing(tmp_path: Path, capsys: Cap) -> None:
    err = fails(capsys, 2, "init", "--db", str(tmp_path / "x.db"), "--kek", "file:k", "--key-file", "f")
    assert err == "securemem: error: give --kek or --key-file/--passphrase-file, not both"
    fails(capsys, 2, "init", "--db", str(tmp_path / "x.db"), "--kek", "env:SM_TEST_UNSET")
    assert list(tmp_path.iterdir()) == []


# -- add, remove, rotate-kek: only DB.keys changes ----------------------------------------------------


def test_add_remove_and_rotate_never_change_a_byte_of_the_store(db: Path, tmp_path: Path, capsys: Cap) -> None:
    before = sha256_of(db)
    recovery = new_kek(tmp_path, "recovery.kek")
    code, out, _ = run_cli(capsys, "keys", "add", "--db", str(db), "--new-kek", recovery)
    assert code == 0 and f"KEK {recovery} (a new KEK file, mode 0600: back it up) added as key id k" in out
    first, second = key_ids(capsys, db)
    assert reads(capsys, db, "--kek", recovery)
    assert run_cli(capsys, "keys", "remove", "--db", str(db), "--key-id", first)[0] == 0
    assert not reads(capsys, db)  # DB.kek no longer opens it
    assert run_cli(capsys, "keys", "rotate-kek", "--db", str(db), "--kek", recovery, "--to", f"file:{db}.kek")[0] == 0
    assert key_ids(capsys, db) == [first] and reads(capsys, db)
    assert second not in key_ids(capsys, db) and not reads(capsys, db, "--kek", recovery)
    assert sha256_of(db) == before
    assert stat.S_IMODE(keys_path(db).stat().st_mode) == 0o600


def test_key_operations_leave_no_file_beside_the_store(db: Path, tmp_path: Path, capsys: Cap) -> None:
    """Found by an acceptance tester: checking that a KEK opens the store went through a read-only
    connection, which left empty DB-wal and DB-shm files behind; only DB.keys (and a new KEK file) may change."""
    for side in (f"{db}-wal", f"{db}-shm"):
        Path(side).unlink(missing_ok=True)
    before = {p.name for p in tmp_path.iterdir()}
    assert run_cli(capsys, "keys", "list", "--db", str(db), "--kek", f"file:{db}.kek")[0] == 0
    recovery = new_kek(tmp_path, "recovery.kek")
    assert run_cli(capsys, "keys", "add", "--db", str(db), "--new-kek", recovery)[0] == 0
    assert (
        run_cli(capsys, "keys", "rotate-kek", "--db", str(db), "--kek", recovery, "--to", new_kek(tmp_path, "r2.kek"))[
            0
        ]
        == 0
    )
    assert {p.name for p in tmp_path.iterdir()} == before | {"recovery.kek", "r2.kek"}


def test_removing_the_last_kek_is_refused_with_exit_1(db: Path, capsys: Cap) -> None:
    [only] = key_ids(capsys, db)
    header = keys_path(db).read_bytes()
    err = fails(capsys, 1, "keys", "remove", "--db", str(db), "--key-id", only)
    assert (
        err
        == f"securemem: refused: {only} is the last KEK of {db}: without it nothing opens the store; add another first"
    )
    assert keys_path(db).read_bytes() == header and reads(capsys, db)


def test_adding_a_kek_twice_and_removing_an_unknown_id_are_refused(db: Path, capsys: Cap) -> None:
    header = keys_path(db).read_bytes()
    err = fails(capsys, 1, "keys", "add", "--db", str(db), "--new-kek", f"file:{db}.kek")
    assert "already wraps the data key" in err
    # keys.md: exit 1 for a refused operation (a PostgreSQL deployment says the same, exit 1).
    err = fails(capsys, 1, "keys", "remove", "--db", str(db), "--key-id", "k0000")
    assert err == f"securemem: refused: no KEK with key id k0000 in {db}.keys (see: securemem keys list)"
    assert keys_path(db).read_bytes() == header


def test_list_prints_json_lines_and_warns_when_it_cannot_authenticate(db: Path, capsys: Cap) -> None:
    code, out, err = run_cli(capsys, "keys", "list", "--db", str(db))
    [line] = out.splitlines()
    record = json.loads(line)
    assert set(record) == {"key_id", "provider", "added_at"} and record["provider"] == f"file:{db}.kek"
    assert code == 0 and err == ""
    os.rename(f"{db}.kek", f"{db}.aside")
    code, out2, err = run_cli(capsys, "keys", "list", "--db", str(db))
    assert code == 0 and out2 == out and err.startswith("securemem: warning: no KEK given")


def test_a_new_kek_file_made_for_a_failed_operation_is_removed(db: Path, tmp_path: Path, capsys: Cap) -> None:
    fails(capsys, 2, "keys", "add", "--db", str(db), "--kek", "env:SM_TEST_UNSET", "--new-kek", new_kek(tmp_path, "n"))
    assert not (tmp_path / "n").exists()


# -- hostile headers and wrong KEKs, from outside --------------------------------------------------


def test_one_flipped_byte_fails_every_command_with_exit_2_and_changes_nothing(db: Path, capsys: Cap) -> None:
    data = bytearray(keys_path(db).read_bytes())
    data[len(data) // 2] ^= 0x04
    keys_path(db).write_bytes(bytes(data))
    before = (sha256_of(db), sha256_of(keys_path(db)))
    id_ = "k00"
    for argv in (
        ["exec", "--db", str(db), VIEW],
        ["verify", "--db", str(db)],
        ["keys", "list", "--db", str(db), "--kek", f"file:{db}.kek"],
        ["keys", "add", "--db", str(db), "--new-kek", f"file:{db}.other"],
        ["keys", "remove", "--db", str(db), "--key-id", id_],
        ["keys", "rotate-kek", "--db", str(db), "--to", f"file:{db}.other"],
    ):
        assert (
            fails(capsys, 2, *argv)
            == f"securemem: error: the key header {db}.keys is damaged; restore it from a backup"
        )
    assert (sha256_of(db), sha256_of(keys_path(db))) == before


def test_another_stores_header_fails_with_exit_2(db: Path, tmp_path: Path, capsys: Cap) -> None:
    other = tmp_path / "other.db"
    assert run_cli(capsys, "init", "--db", str(other), "--kek", f"file:{db}.kek")[0] == 0  # the same KEK
    shutil.copyfile(keys_path(other), keys_path(db))
    err = fails(capsys, 2, "exec", "--db", str(db), VIEW)
    assert err == f"securemem: error: the key header {db}.keys belongs to another store, not {db}"


def test_a_wrong_kek_names_its_scheme_and_path_only(db: Path, tmp_path: Path, capsys: Cap) -> None:
    wrong = tmp_path / "wrong.kek"
    wrong.write_text(os.urandom(32).hex() + "\n")
    wrong.chmod(0o600)
    err = fails(capsys, 2, "exec", "--db", str(db), "--kek", f"file:{wrong}", VIEW)
    assert err.startswith(f"securemem: error: the KEK file:{wrong} is not one of the KEKs of {db} (wrong KEK)")
    assert wrong.read_text().strip() not in err


def test_rekey_refuses_an_envelope_store(db: Path, capsys: Cap) -> None:
    before = (sha256_of(db), sha256_of(keys_path(db)))
    err = fails(capsys, 2, "rekey", "--db", str(db), "--new-key-file", f"{db}.new")
    assert "rekey does not apply" in err and not Path(f"{db}.new").exists()
    assert (sha256_of(db), sha256_of(keys_path(db))) == before


# -- adopt: legacy stores move to KEKs without re-encrypting ---------------------------------------


@pytest.mark.parametrize("legacy", ["key file", "passphrase"])
def test_adopt_wraps_a_legacy_key_without_touching_the_store(
    tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch, legacy: str
) -> None:
    path = tmp_path / "old.db"
    if legacy == "passphrase":
        monkeypatch.setenv("SECUREMEM_KEY", "an old passphrase")
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    assert run_cli(capsys, "exec", "--db", str(path), CREATE)[0] == 0
    before = sha256_of(path)
    code, out, _ = run_cli(capsys, "keys", "adopt", "--db", str(path), "--new-kek", f"file:{path}.kek")
    assert code == 0 and "not re-encrypted" in out
    assert sha256_of(path) == before
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    Path(f"{path}.key").unlink(missing_ok=True)
    assert reads(capsys, path)  # through DB.kek, the default KEK
    # a passphrase store's DEK is the PBKDF2-derived key (the RawKey form), not the passphrase
    if legacy == "passphrase":
        from securemem.keys.passphrase import stretch

        assert unlock(path, parse_kek(f"file:{path}.kek")).dek == stretch("an old passphrase", path.read_bytes()[:16])
    assert fails(capsys, 1, "keys", "adopt", "--db", str(path), "--key-file", f"{path}.kek", "--new-kek", "env:X")


def test_the_key_file_an_adopted_store_had_is_named_as_stale_once_its_data_key_was_rotated(
    tmp_path: Path, capsys: Cap
) -> None:
    """Found by an attacker: after `keys adopt` and `keys rotate-dek`, DB.key (tried first, as keys.md
    orders) no longer opened the store, and the error blamed a wrong key or a damaged first page."""
    path = tmp_path / "old.db"
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    assert run_cli(capsys, "exec", "--db", str(path), CREATE)[0] == 0
    assert run_cli(capsys, "keys", "adopt", "--db", str(path), "--new-kek", f"file:{path}.kek")[0] == 0
    code, _, err = run_cli(capsys, "keys", "rotate-dek", "--db", str(path), "--kek", f"file:{path}.kek", "--quiet")
    assert code == 0 and f"{path}.key holds the old data key" in err and "remove it" in err
    line = fails(capsys, 2, "exec", "--db", str(path), VIEW)
    assert f"{path}.key is the key the store had before it took KEKs" in line and "--kek" in line
    assert reads(capsys, path, "--kek", f"file:{path}.kek")
    Path(f"{path}.key").unlink()
    assert reads(capsys, path)  # through DB.kek, the default KEK once no key file is beside the store


def test_a_kek_that_fails_gets_no_hint_about_the_key_file_beside_the_store(tmp_path: Path, capsys: Cap) -> None:
    """Found by an attacker: a failing default KEK drew the stale key file's hint, though DB.key still opened it."""
    path = tmp_path / "s.db"
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    assert run_cli(capsys, "keys", "adopt", "--db", str(path), "--new-kek", f"file:{path}.kek")[0] == 0
    code = run_cli(
        capsys, "keys", "rotate-kek", "--db", str(path), "--kek", f"file:{path}.kek", "--to", new_kek(tmp_path, "k2")
    )
    assert code[0] == 0
    line = fails(capsys, 2, "keys", "add", "--db", str(path), "--new-kek", new_kek(tmp_path, "k3"))
    assert "is not one of the KEKs" in line and "keys adopt" not in line


def test_adopt_erases_what_a_writer_that_died_left_to_erase(tmp_path: Path, capsys: Cap) -> None:
    # A writer killed inside its erasure bound left deleted text decryptable; adopt opened the store, left
    # it so and said nothing (a fresh attacker's round). It erases first now, as the other commands do.
    from tests.sqlcipher_pages import plaintext_of

    path, key = tmp_path / "old.db", b"c" * 32
    (tmp_path / "old.db.key").write_text(key.hex())
    (tmp_path / "old.db.key").chmod(0o600)
    writer = (
        "import os, sys\n"
        "from securemem import Policy, SecureMemory\n"
        "policy = Policy.model_validate({'history': {'versions': False}})\n"
        "m = SecureMemory.open(sys.argv[1], key=b'c' * 32, policy=policy)\n"
        "for i in range(20):\n"
        "    text = f'GONEMARK{i:04d} ' + 'z' * 2000\n"
        "    m.execute({'command': 'create', 'path': f'/memories/p{i}', 'file_text': text})\n"
        "m.execute({'command': 'delete', 'path': '/memories/p10'})\n"
        "os._exit(0)\n"  # as a SIGKILL would, inside the bound
    )
    subprocess.run([sys.executable, "-c", writer, str(path)], cwd=REPO, check=True, timeout=60)
    assert b"GONEMARK0010" in plaintext_of(path, key)  # what the dead writer owed
    code, out, _ = run_cli(capsys, "keys", "adopt", "--db", str(path), "--new-kek", f"file:{path}.kek")
    assert code == 0 and "not re-encrypted" in out
    plain = plaintext_of(path, key)
    assert b"GONEMARK0010" not in plain and b"GONEMARK0011" in plain


def rekey_child(db: str) -> None:
    """``securemem rekey --db DB`` in a fresh interpreter; its exit code is the process's."""
    from securemem.cli import main

    raise SystemExit(main(["rekey", "--db", db]))


def test_rekey_waits_for_an_adopt_in_progress_and_then_refuses(tmp_path: Path, capsys: Cap) -> None:
    # A legacy rekey and a keys adopt at once left a key header wrapping the key the rekey retired:
    # its KEK opened nothing and both said they succeeded (attacker B). The rekey is a key change
    # like the others now, under the same lock: it waits, then finds the store moved to KEKs.
    from securemem import custody
    from securemem.keys import KeyFile
    from securemem.keys.kek import FileKek
    from securemem.store import keylock

    path = tmp_path / "race.db"
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    assert run_cli(capsys, "exec", "--db", str(path), CREATE)[0] == 0
    with keylock.key_change(path):  # an adopt has begun
        argv = child_argv(rekey_child, str(path))
        child = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(2.0)  # time enough for a rekey that does not wait to finish
        custody._adopt(path, KeyFile(f"{path}.key"), FileKek(f"{path}.kek"))
    _, err = child.communicate(timeout=60)
    assert child.returncode == 2 and b"rekey does not apply" in err, err
    Path(f"{path}.key").unlink()
    assert reads(capsys, path)  # through the new KEK: it wraps the key that opens the store


def test_adopt_with_a_wrong_key_is_exit_2_and_writes_nothing(tmp_path: Path, capsys: Cap) -> None:
    path = tmp_path / "old.db"
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    wrong = tmp_path / "wrong.key"
    wrong.write_text(os.urandom(32).hex())
    wrong.chmod(0o600)
    err = fails(capsys, 2, "keys", "adopt", "--db", str(path), "--key-file", str(wrong), "--new-kek", "file:n.kek")
    assert err == f"securemem: error: --key-file {wrong} does not open {path} (wrong key)"
    assert not keys_path(path).exists() and not Path("n.kek").exists()


# -- no key material anywhere ----------------------------------------------------------------------


def test_no_key_material_in_any_output_audit_record_or_helper_argv(
    db: Path, tmp_path: Path, capsys: Cap, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="securemem.audit")
    helper_kek = os.urandom(32).hex()
    argv_log = tmp_path / "argv"
    helper = tmp_path / "get-kek"
    helper.write_text(
        f"#!{sys.executable}\nimport sys\nopen({str(argv_log)!r}, 'a').write(repr(sys.argv))\nprint({helper_kek!r})\n"
    )
    helper.chmod(0o700)
    seen: list[str] = []
    for argv in (
        ["keys", "add", "--db", str(db), "--new-kek", f"command:{helper} --name prod"],
        ["keys", "list", "--db", str(db), "--kek", f"command:{helper} --name prod"],
        ["keys", "rotate-kek", "--db", str(db), "--kek", f"command:{helper} --name prod", "--to", f"file:{tmp_path}/r"],
        ["exec", "--db", str(db), "--kek", f"file:{tmp_path}/r", VIEW],
        ["keys", "remove", "--db", str(db), "--kek", f"file:{tmp_path}/r", "--key-id", "kbad"],
    ):
        _, out, err = run_cli(capsys, *argv)
        seen += [out, err]
    records = audit_records(caplog)
    assert [r.get("event") for r in records] == ["kek_added", "kek_rotated", None]  # None: the view command
    for record in records[:2]:
        assert record["by"] and record["store"].startswith("memstore_") and record["key_id"].startswith("k")
    seen += [json.dumps(r) for r in records] + [argv_log.read_text(), keys_path(db).read_text()]
    dek = unlock(db, parse_kek(f"file:{tmp_path}/r")).dek.hex()
    secrets = [helper_kek, dek, Path(f"{db}.kek").read_text().strip(), (tmp_path / "r").read_text().strip()]
    for text in seen:
        for secret in secrets:
            assert secret not in text and secret.upper() not in text


def test_rotate_dek_needs_every_kek_and_leaves_the_old_header_useless(db: Path, tmp_path: Path, capsys: Cap) -> None:
    recovery = new_kek(tmp_path, "recovery.kek")
    assert run_cli(capsys, "keys", "add", "--db", str(db), "--new-kek", recovery)[0] == 0
    old_header, old_db = keys_path(db).read_bytes(), sha256_of(db)
    err = fails(capsys, 1, "keys", "rotate-dek", "--db", str(db))
    assert "rotate-dek needs every KEK" in err and sha256_of(db) == old_db
    code, out, _ = run_cli(capsys, "keys", "rotate-dek", "--db", str(db), "--kek", f"file:{db}.kek", "--kek", recovery)
    assert code == 0 and "every page re-encrypted under a new data key" in out
    assert sha256_of(db) != old_db and reads(capsys, db) and reads(capsys, db, "--kek", recovery)
    keys_path(db).write_bytes(old_header)
    assert "belongs to another store" in fails(capsys, 2, "exec", "--db", str(db), VIEW)


def add_one(db: str, kek: str, new: str) -> bool:
    from securemem.custody import add_kek

    add_kek(db, parse_kek(kek), parse_kek(new))
    return True


def test_key_changes_at_the_same_time_lose_nothing(db: Path, tmp_path: Path, capsys: Cap) -> None:
    jobs = [(add_one, (str(db), f"file:{db}.kek", f"file:{tmp_path / f'n{i}.kek'}")) for i in range(4)]
    assert fork_all(jobs, tmp_path) == [True] * 4
    assert len(key_ids(capsys, db)) == 5


@pytest.mark.parametrize("option", ["--kek", "--new-kek"])
def test_an_empty_kek_uri_is_a_usage_error(db: Path, capsys: Cap, option: str) -> None:
    """Found by an acceptance tester: --kek "" (an unset shell variable) fell back to the default KEK."""
    argv = ["keys", "add", "--db", str(db), "--kek", f"file:{db}.kek", "--new-kek", "file:x"]
    argv[argv.index(option) + 1] = ""
    code, _, err = run_cli(capsys, *argv)
    assert (
        code == 2
        and err == f"securemem: error: {option} was given an empty KEK URI; give a URI such as file:/path/to/kek\n"
    )


def test_keys_of_a_store_that_does_not_exist_say_so(tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "none.db"
    code, _, err = run_cli(capsys, "keys", "list", "--db", str(db), "--kek", f"file:{tmp_path / 'a.kek'}")
    assert code == 2 and err.startswith(f"securemem: error: no securemem store at {db}; create one with:")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mode", [0o644, 0o666, 0o640])
def test_a_key_header_others_can_read_or_write_is_refused(db: Path, capsys: Cap, mode: int) -> None:
    """keys.md: DB.keys is 0600. Writable by others, anyone could make the store fail to open; it is
    refused as the other key files are, and opens again once its mode is put back."""
    keys_path(db).chmod(mode)
    err = fails(capsys, 2, "exec", "--db", str(db), VIEW)
    assert err == f"securemem: error: the key header {db}.keys is accessible by other users; run: chmod 600 {db}.keys"
    keys_path(db).chmod(0o600)
    assert run_cli(capsys, "exec", "--db", str(db), VIEW)[0] == 0


def test_a_kek_and_a_key_file_together_are_a_usage_error_that_says_so(db: Path, capsys: Cap) -> None:
    key_file = db.parent / "k.key"
    key_file.write_bytes(os.urandom(32))
    key_file.chmod(0o600)
    err = fails(capsys, 2, "keys", "list", "--db", str(db), "--kek", f"file:{db}.kek", "--key-file", str(key_file))
    assert (
        err
        == "securemem: error: --kek and --key-file/--passphrase-file cannot be given together: a store opens with one"
    )


# -- what the CLI echoes: one line, whatever a path or a URI holds ---------------------------------

# A newline forges a second line ("securemem: ok"), an escape sequence drives the terminal, NEL and
# U+2028 are line breaks to some readers, and a bidi control reorders what the line shows.
HOSTILE = ("\nsecuremem: ok", "\x1b[2J\x1b]0;title\x07", "\x85", "\u2028", "\u202e")


@pytest.mark.parametrize("bad", HOSTILE)
def test_a_control_character_in_a_path_or_kek_uri_is_escaped_on_its_one_line(
    db: Path, tmp_path: Path, capsys: Cap, bad: str
) -> None:
    """keys.md: one line on stderr for exit 1 and 2, whatever --db or a KEK URI holds; the success
    lines that name them are one line too (a wrapper reads them line by line)."""
    failing = [
        ("keys", "list", "--db", str(tmp_path / f"nx{bad}.db")),
        ("stores", "list", "--db", str(db), "--kek", f"file:{tmp_path / 'k'}{bad}"),
        ("init", "--db", str(tmp_path / "x.db"), "--kek", f"file:{tmp_path / 'nodir'}{bad}/k"),
        ("keys", "remove", "--db", str(db), "--key-id", f"k{bad}"),
    ]
    for argv in failing:
        err = fails(capsys, 1 if argv[1] == "remove" else 2, *argv)
        assert bad not in err and "\x1b" not in err and "\\" in err, err
    new = tmp_path / f"new{bad}.kek"
    code, out, err = run_cli(capsys, "keys", "add", "--db", str(db), "--new-kek", f"file:{new}")
    assert (code, err) == (0, "") and out.count("\n") == 1 and bad not in out, out
    assert out.startswith(f"{db}: KEK file:{tmp_path}/new\\") and new.exists()


# -- a key kept at one of the store's own files ----------------------------------------------------


def _files(folder: Path) -> dict[str, str]:
    return {p.name: sha256_of(p) for p in folder.iterdir() if p.is_file() and not p.is_symlink()}


@pytest.mark.parametrize("end", ["-wal", "-shm", "-journal", "-scrub", ".keys", "-wal via a symlink"])
def test_a_key_at_one_of_the_stores_own_files_is_refused_before_anything_changes(
    db: Path, tmp_path: Path, capsys: Cap, end: str
) -> None:
    """SQLite owns DB-wal, DB-shm and DB-journal: it deletes them when the last connection closes
    (init's own close, or the next open), so a KEK or key file made there was reported made and
    then lost with the store. Every command that makes a key file, or points the store at one,
    refuses the store's own files (symlinks followed) in one line, exit 2, and changes nothing."""
    legacy = tmp_path / "l.db"
    assert run_cli(capsys, "init", "--db", str(legacy))[0] == 0
    if end.endswith("symlink"):
        (tmp_path / "e.link").symlink_to(f"{db}-wal")
        (tmp_path / "n.link").symlink_to(tmp_path / "n.db-wal")
        (tmp_path / "l.link").symlink_to(f"{legacy}-wal")
        at = {db: tmp_path / "e.link", tmp_path / "n.db": tmp_path / "n.link", legacy: tmp_path / "l.link"}
    else:
        at = {store: Path(f"{store}{end}") for store in (db, tmp_path / "n.db", legacy)}
    before = _files(tmp_path)
    commands = [
        ("init", "--db", str(tmp_path / "n.db"), "--kek", f"file:{at[tmp_path / 'n.db']}"),
        ("init", "--db", str(tmp_path / "n.db"), "--key-file", str(at[tmp_path / "n.db"])),
        ("keys", "add", "--db", str(db), "--new-kek", f"file:{at[db]}"),
        ("keys", "rotate-kek", "--db", str(db), "--to", f"file:{at[db]}"),
        ("rekey", "--db", str(legacy), "--new-key-file", str(at[legacy])),
        ("keys", "adopt", "--db", str(legacy), "--new-kek", f"file:{at[legacy]}"),
    ]
    for argv in commands:
        err = fails(capsys, 2, *argv)
        assert "choose another file" in err and "a key kept there would be lost" in err, err
        assert _files(tmp_path) == before, argv
    assert reads(capsys, db) and key_ids(capsys, db) == key_ids(capsys, db, "--kek", f"file:{db}.kek")


def _planted(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o600)
    os.chown(path, 12345, 12345)  # another user's file, as a root job could read it
    return path


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_new_key_is_never_taken_from_another_users_file(tmp_path: Path, capsys: Cap) -> None:
    """An attacker's round: a root cron job would take a KEK, a key file or a passphrase file another user
    planted (and so knows) as the new key of a store or a backup; legacy init alone refused it."""
    planted = _planted(tmp_path / "planted.kek", "ab" * 32 + "\n")
    mine = tmp_path / "mine.kek"
    mine.write_text("cd" * 32 + "\n")
    mine.chmod(0o600)
    assert run_cli(capsys, "init", "--db", str(tmp_path / "e.db"), "--kek", f"file:{planted}")[0] == 2
    assert not (tmp_path / "e.db").exists() and not (tmp_path / "e.db.keys").exists()
    assert run_cli(capsys, "init", "--db", str(tmp_path / "e.db"), "--kek", f"file:{mine}")[0] == 0
    before = sha256_of(tmp_path / "e.db.keys")
    code, _, err = run_cli(capsys, "keys", "add", "--db", str(tmp_path / "e.db"), "--kek", f"file:{mine}",
                           "--new-kek", f"file:{planted}")  # fmt: skip
    assert code == 2 and "belongs to another user" in err and str(planted) in err
    assert sha256_of(tmp_path / "e.db.keys") == before
    assert run_cli(capsys, "init", "--db", str(tmp_path / "l.db"))[0] == 0
    key_before = sha256_of(tmp_path / "l.db.key")
    new_key = _planted(tmp_path / "nk", "ef" * 32 + "\n")
    assert run_cli(capsys, "rekey", "--db", str(tmp_path / "l.db"), "--new-key-file", str(new_key))[0] == 2
    assert sha256_of(tmp_path / "l.db.key") == key_before
    assert run_cli(capsys, "init", "--db", str(tmp_path / "p.db"), "--passphrase-file", str(new_key))[0] == 2
    assert not (tmp_path / "p.db").exists()
    # a file of this user's that only opens a store may be anyone's: a wrong one opens nothing
    os.chown(mine, 12345, 12345)
    assert run_cli(capsys, "keys", "list", "--db", str(tmp_path / "e.db"), "--kek", f"file:{mine}")[0] == 0


def test_a_store_files_url_works_with_every_key_command(tmp_path: Path, capsys: Cap) -> None:
    """Found by an attacker: "keys adopt --db sqlcipher:///..." ended in an internal error (the files beside the store
    were looked for beside the URL's text)."""
    url = f"sqlcipher://{tmp_path / 'u.db'}"
    assert run_cli(capsys, "init", "--db", url)[0] == 0
    assert run_cli(capsys, "exec", "--db", url, CREATE)[0] == 0
    assert run_cli(capsys, "keys", "adopt", "--db", url, "--new-kek", f"file:{tmp_path / 'u.db.kek'}")[0] == 0
    code, _, err = run_cli(
        capsys, "keys", "rotate-dek", "--db", url, "--kek", f"file:{tmp_path / 'u.db.kek'}", "--quiet"
    )
    assert code == 0, err
    code, out, err = run_cli(capsys, "exec", "--db", url, "--kek", f"file:{tmp_path / 'u.db.kek'}", VIEW)
    assert code == 0 and "kept across every key change" in out, err
