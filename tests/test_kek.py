"""KEK providers (keys/kek.py, keys/command.py, keys/uri.py): one interface, named by URIs.

Each is checked through a real envelope store: it wraps, it unwraps, it says where it failed
in one line, and no message holds key material.
"""

from __future__ import annotations

import logging
import os
import stat
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.custody import add_kek, rotate_kek
from securemem.errors import KekError, RefusedError, WrongKekError
from securemem.keys import kek as kek_module
from securemem.keys.command import CommandKek
from securemem.keys.header import Entry, read_header, utc_stamp, write_header
from securemem.keys.kek import FileKek, KekProvider
from securemem.keys.uri import parse_kek
from securemem.store.envelope import unlock
from tests.helpers import audit_records, create, view


@pytest.fixture(autouse=True)
def cheap_scrypt(monkeypatch: pytest.MonkeyPatch) -> None:
    # The parameters are recorded per entry, so tests may use cheaper ones than production.
    monkeypatch.setattr(kek_module, "SCRYPT_N", 2**12)


def round_trip(tmp_path: Path, kek: str | KekProvider, name: str = "s") -> Path:
    db = tmp_path / f"{name}.db"
    with SecureMemory.open(db, kek=kek) as memory:
        create(memory, "/memories/a.md", "kept\n")
    with SecureMemory.open(db, kek=kek, create=False) as memory:
        assert "kept" in view(memory, "/memories/a.md")
    return db


def helper(tmp_path: Path, body: str, name: str = "helper") -> Path:
    script = tmp_path / name
    script.write_text(f"#!{sys.executable}\nimport sys, os, time\n{body}\n")
    script.chmod(0o700)
    return script


def private(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o600)
    return path


# -- URIs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("kek.hex", "a KEK is a URI starting with one of: file:, env:, passphrase:, command:, pkcs11:"),
        ("http://x", "a KEK is a URI starting with one of"),
        ("file:", "a file: KEK names its file"),
        ("env:1BAD", "an env: KEK names an environment variable"),
        ("passphrase:hunter2", "a passphrase KEK is passphrase: (asked on the terminal) or passphrase:file:/path"),
        ("command:", "a command: KEK names a helper program"),
        ("pkcs11:token=a", "a pkcs11: KEK names its token and object"),
        ("pkcs11:token=a;object=b;pin=1234", "a pkcs11: KEK is pkcs11:token=NAME;object=LABEL"),
    ],
)
def test_a_malformed_uri_is_one_line_that_does_not_echo_it(uri: str, message: str) -> None:
    with pytest.raises(KekError) as caught:
        parse_kek(uri)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert "hunter2" not in str(caught.value) and "1234" not in str(caught.value)


# -- file: and env: ------------------------------------------------------------------------------


def test_a_file_kek_is_made_0600_and_refused_once_others_can_read_it(tmp_path: Path) -> None:
    kek_file = tmp_path / "k.kek"
    db = round_trip(tmp_path, f"file:{kek_file}")
    assert stat.S_IMODE(kek_file.stat().st_mode) == 0o600
    kek_file.chmod(0o640)
    with pytest.raises(KekError, match=f"KEK file:{kek_file}: key file {kek_file} is accessible by other users"):
        SecureMemory.open(db, kek=f"file:{kek_file}")


def test_an_env_kek_reads_hex_and_says_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SM_KEK", os.urandom(32).hex())
    db = round_trip(tmp_path, "env:SM_KEK")
    monkeypatch.setenv("SM_KEK", "not hex at all")
    with pytest.raises(KekError, match=r"^KEK env:SM_KEK does not hold a KEK \(64 hex digits\)$"):
        SecureMemory.open(db, kek="env:SM_KEK")
    monkeypatch.delenv("SM_KEK")
    with pytest.raises(KekError, match=r"\$SM_KEK is not set"):
        SecureMemory.open(db, kek="env:SM_KEK")


def test_the_same_kek_by_another_name_has_the_same_key_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The key id is a keyed hash of the KEK, not of its URI: the file's key, given in a variable, opens.
    kek_file = tmp_path / "k.kek"
    db = round_trip(tmp_path, f"file:{kek_file}")
    monkeypatch.setenv("SM_KEK", kek_file.read_text().strip())
    with SecureMemory.open(db, kek="env:SM_KEK", create=False):
        pass


# -- passphrase ----------------------------------------------------------------------------------


def test_a_passphrase_file_kek_records_scrypt_and_its_parameters(tmp_path: Path) -> None:
    words = private(tmp_path / "pass", "correct horse battery staple\n")
    db = round_trip(tmp_path, f"passphrase:file:{words}")
    [entry] = read_header(db).entries
    kdf = entry.wrapped.kdf
    assert kdf is not None and kdf["alg"] == "scrypt" and (kdf["n"], kdf["r"], kdf["p"]) == (2**12, 8, 1)
    assert len(bytes.fromhex(kdf["salt"])) == 16
    assert b"correct horse" not in Path(f"{db}.keys").read_bytes()
    private(words, "a wrong passphrase\n")
    with pytest.raises(WrongKekError, match=f"the KEK passphrase:file:{words} is not one of the KEKs"):
        SecureMemory.open(db, kek=f"passphrase:file:{words}")


def test_a_passphrase_file_that_is_not_there_is_said_so_not_a_wrong_kek(tmp_path: Path) -> None:
    # A store wrapped by a file KEK, opened with a passphrase file whose path has a typo: the file
    # was never read, so "wrong KEK" would send the operator after the wrong problem (attacker B).
    db = round_trip(tmp_path, f"file:{tmp_path / 'kek'}")
    with pytest.raises(KekError, match=r"passphrase:file:.*: the file does not exist"):
        SecureMemory.open(db, kek=f"passphrase:file:{tmp_path / 'no-such-file'}")


def test_a_passphrase_file_others_can_read_is_refused(tmp_path: Path) -> None:
    words = private(tmp_path / "pass", "correct horse battery staple\n")
    words.chmod(0o644)
    with pytest.raises(KekError, match="the file is accessible by other users; run: chmod 600"):
        SecureMemory.open(tmp_path / "p.db", kek=f"passphrase:file:{words}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pass"]


def test_a_passphrase_is_asked_on_the_terminal_and_only_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "typed at the terminal"

    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", ask)
    round_trip(tmp_path, "passphrase:")
    # Asked twice when it makes the store (a typo would lock it for good), then once per open.
    assert asked == [
        "securemem: KEK passphrase: ",
        "securemem: KEK passphrase (again): ",
        "securemem: KEK passphrase: ",
    ]
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    with pytest.raises(KekError, match="needs a terminal to ask on; use passphrase:file:/path in scripts"):
        SecureMemory.open(tmp_path / "s.db", kek="passphrase:")


def test_a_hostile_scrypt_cost_in_a_header_is_refused_before_any_work(tmp_path: Path) -> None:
    words = private(tmp_path / "pass", "correct horse battery staple\n")
    db = round_trip(tmp_path, f"passphrase:file:{words}")
    kek = parse_kek(f"passphrase:file:{words}")
    [entry] = read_header(db).entries
    hostile = type(entry.wrapped)(entry.key_id, entry.wrapped.nonce, entry.wrapped.sealed, kdf={
        **dict(entry.wrapped.kdf or {}), "n": 2**30})  # fmt: skip
    with pytest.raises(Exception, match="out of range"):
        kek.unwrap(hostile, "any store")


# -- command: ------------------------------------------------------------------------------------


def test_a_command_kek_runs_its_helper_without_a_shell(tmp_path: Path) -> None:
    key = os.urandom(32).hex()
    seen = tmp_path / "argv"
    script = helper(tmp_path, f"open({str(seen)!r}, 'w').write(repr(sys.argv[1:]))\nprint({key!r})")
    round_trip(tmp_path, f"command:{script} --vault 'prod kek' $(touch {tmp_path / 'pwned'})")
    assert seen.read_text() == repr(["--vault", "prod kek", "$(touch", f"{tmp_path / 'pwned'})"])
    assert not (tmp_path / "pwned").exists() and key not in seen.read_text()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "sys.stderr.write('TOKEN s3cr3t\\n'); sys.exit(3)",
            "the helper exited with status 3 (its stderr is not shown)",
        ),
        ("print('not a key')", "the helper's output does not hold a KEK (64 hex digits)"),
        ("sys.stdout.buffer.write(bytes(range(256)))", "the helper's output does not hold a KEK (64 hex digits)"),
        ("time.sleep(30)", "the helper did not answer within 0.5 s"),
    ],
)
def test_a_failing_helper_is_one_line_without_its_stderr(tmp_path: Path, body: str, message: str) -> None:
    script = helper(tmp_path, body)
    with pytest.raises(KekError) as caught:
        SecureMemory.open(tmp_path / "c.db", kek=CommandKek(str(script), timeout=0.5))
    text = str(caught.value)
    assert text == f"KEK command:{script}: {message}" and "s3cr3t" not in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["helper"]


def test_a_helper_that_prints_without_end_is_stopped_at_the_bound_every_key_source_has(tmp_path: Path) -> None:
    """Its stdout was read whole (a runaway helper drove the process past 600 MB before the time
    limit); now at most 1 MiB is read, as from a key file, the helper is killed, and the error is
    one line naming the KEK, never what the helper printed."""
    pid_file = tmp_path / "pid"
    script = helper(tmp_path, f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                    "while True:\n    sys.stdout.write('SECRETISH' * 8192)")  # fmt: skip
    started = time.monotonic()
    with pytest.raises(KekError) as caught:
        SecureMemory.open(tmp_path / "c.db", kek=CommandKek(str(script), timeout=10))
    assert (
        str(caught.value)
        == f"KEK command:{script}: the helper printed more than 1,048,576 bytes (no KEK): it was stopped"
    )
    assert time.monotonic() - started < 5
    with pytest.raises(ProcessLookupError):  # killed and reaped, not left running
        os.kill(int(pid_file.read_text()), 0)


def test_a_child_the_helper_leaves_holding_its_stdout_neither_stalls_the_open_nor_outlives_it(tmp_path: Path) -> None:
    """An attacker's round: a helper that starts a child with its stdout ("sleep 600 &", an agent) and
    exits held the read until the time limit (30 s, then "did not answer"), and the child ran on."""
    key = os.urandom(32).hex()
    pid_file = tmp_path / "child"
    script = helper(tmp_path, f"import subprocess\nchild = subprocess.Popen(['sleep', '600'])\n"
                    f"open({str(pid_file)!r}, 'w').write(str(child.pid))\nprint({key!r}, flush=True)")  # fmt: skip
    db = round_trip(tmp_path, CommandKek(str(script), timeout=20))
    assert db.exists()
    child = int(pid_file.read_text())
    for _ in range(100):  # killed with the helper's process group; init reaps it
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the helper's child outlived the open")


def test_a_missing_helper_says_so(tmp_path: Path) -> None:
    with pytest.raises(KekError, match=r"command:/nonexistent/get-kek: cannot run the helper \(No such file"):
        SecureMemory.open(tmp_path / "c.db", kek="command:/nonexistent/get-kek")


def test_every_provider_fails_closed_on_another_providers_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One store, three KEKs wrapping its DEK: each opens it; a fourth, which wraps nothing, does not.
    from securemem.custody import add_kek

    kek_file = tmp_path / "k.kek"
    db = round_trip(tmp_path, f"file:{kek_file}")
    words = private(tmp_path / "pass", "a passphrase\n")
    monkeypatch.setenv("SM_KEK", os.urandom(32).hex())
    for new in (f"passphrase:file:{words}", "env:SM_KEK"):
        add_kek(db, parse_kek(f"file:{kek_file}"), parse_kek(new))
    for uri in (f"file:{kek_file}", f"passphrase:file:{words}", "env:SM_KEK"):
        assert unlock(db, parse_kek(uri)).used.provider == uri
    FileKek(str(tmp_path / "other.kek")).create_if_missing()
    with pytest.raises(WrongKekError):
        unlock(db, parse_kek(f"file:{tmp_path / 'other.kek'}"))


def test_a_new_passphrase_typed_differently_the_second_time_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = iter(["first try", "first tyr"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(typed))
    with pytest.raises(KekError, match="the two passphrases typed differ; nothing was changed"):
        SecureMemory.open(tmp_path / "s.db", kek="passphrase:")
    assert list(tmp_path.iterdir()) == []


def test_the_same_passphrase_wraps_a_store_once_and_leaves_it_whole_when_rotated_away_from(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by an attacker: each wrap by a passphrase draws its own salt, so its key id differs from
    entry to entry; the same passphrase was added twice, and after `rotate-kek` away from it, its
    second entry still opened the store."""
    words = private(tmp_path / "words", "correct horse battery staple\n")
    uri = f"passphrase:file:{words}"
    db = round_trip(tmp_path, uri)
    with pytest.raises(RefusedError, match="already wraps the data key"):
        add_kek(db, parse_kek(uri), parse_kek(uri))
    assert len(read_header(db).entries) == 1
    # A header an earlier release wrote, with the passphrase in it twice:
    unlocked = unlock(db, parse_kek(uri))
    twin = Entry(uri, utc_stamp(), parse_kek(uri).wrap(unlocked.dek, unlocked.header.store_id))
    write_header(db, replace(unlocked.header, entries=(*unlocked.header.entries, twin)).signed(unlocked.dek))
    assert len(read_header(db).entries) == 2
    caplog.set_level(logging.INFO, logger="securemem.audit")
    rotate_kek(db, parse_kek(uri), FileKek(str(tmp_path / "new.kek")))
    assert [entry.provider for entry in read_header(db).entries] == [f"file:{tmp_path / 'new.kek'}"]
    (rotated,) = [record for record in audit_records(caplog) if record.get("event") == "kek_rotated"]
    assert rotated["also_removed"] == [twin.key_id]  # every entry removed is named (an attacker's round)
    with pytest.raises(WrongKekError):
        SecureMemory.open(db, kek=uri, create=False)
    with SecureMemory.open(db, kek=f"file:{tmp_path / 'new.kek'}", create=False) as memory:
        assert "kept" in view(memory, "/memories/a.md")


def test_a_helper_never_gets_the_secrets_securemem_reads_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an attacker: a `command:` helper inherited the hex of the `env:` KEK being rotated
    away from, the HSM's PIN and PostgreSQL's password (readable in its /proc/PID/environ)."""
    monkeypatch.setenv("OLD_KEK_HEX", os.urandom(32).hex())
    monkeypatch.setenv("SECUREMEM_PKCS11_PIN", "246810")
    monkeypatch.setenv("PGPASSWORD", "pg-secret")
    monkeypatch.setenv("HELPER_VISIBLE", "kept")
    db = round_trip(tmp_path, "env:OLD_KEK_HEX")
    seen = tmp_path / "seen"
    script = helper(
        tmp_path, f"open({str(seen)!r}, 'w').write(repr(sorted(os.environ)))\nprint({os.urandom(32).hex()!r})"
    )
    rotate_kek(db, parse_kek("env:OLD_KEK_HEX"), parse_kek(f"command:{script}"))
    names = seen.read_text()
    assert "'HELPER_VISIBLE'" in names and "'PATH'" in names
    for secret in ("OLD_KEK_HEX", "SECUREMEM_PKCS11_PIN", "PGPASSWORD"):
        assert f"'{secret}'" not in names


def test_a_helper_never_gets_a_variable_a_key_header_or_securemem_kek_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an attacker: a store whose header has an `env:OLD` entry, opened through its `command:` entry, gave
    the helper $OLD (a KEK that opens the store); so did $SECUREMEM_KEK naming `env:OTHER` beside --kek."""
    monkeypatch.setenv("HEADER_ONLY_KEK", os.urandom(32).hex())
    monkeypatch.setenv("NAMED_BY_SECUREMEM_KEK", os.urandom(32).hex())
    monkeypatch.setenv("SECUREMEM_KEK", "env:NAMED_BY_SECUREMEM_KEK")
    monkeypatch.setattr(kek_module, "_KEK_VARIABLES", set())
    seen = tmp_path / "seen"
    helper_kek = os.urandom(32).hex()
    script = helper(tmp_path, f"open({str(seen)!r}, 'w').write(repr(sorted(os.environ)))\nprint({helper_kek!r})")
    db = tmp_path / "s.db"
    with SecureMemory.open(db, kek=f"command:{script}") as memory:
        create(memory, "/memories/a.md", "kept\n")
    unlocked = unlock(db, parse_kek(f"command:{script}"))
    extra = Entry(
        "env:HEADER_ONLY_KEK",
        utc_stamp(),
        parse_kek("env:HEADER_ONLY_KEK").wrap(unlocked.dek, unlocked.header.store_id),
    )
    write_header(db, replace(unlocked.header, entries=(*unlocked.header.entries, extra)).signed(unlocked.dek))
    monkeypatch.setattr(kek_module, "_KEK_VARIABLES", set())  # a fresh process: only what it reads names them
    with SecureMemory.open(db, kek=CommandKek(str(script)), create=False) as memory:
        assert "kept" in view(memory, "/memories/a.md")
    names = seen.read_text()
    assert "'HEADER_ONLY_KEK'" not in names and "'NAMED_BY_SECUREMEM_KEK'" not in names and "'PATH'" in names
