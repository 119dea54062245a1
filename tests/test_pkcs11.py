"""PKCS#11 KEKs (keys/pkcs11.py) against a real SoftHSM2 token that these tests create.

The token lives in a temporary directory (its own SOFTHSM2_CONF), made once per test session
(the ``token`` and ``hsm`` fixtures, conftest.py): a PKCS#11 module reads its configuration once,
when the process first loads it. The AES key is
generated on the token, sensitive and not extractable, so the only way to use it is to ask the
token, which is what the provider does. Without softhsm2 these tests skip with one line; under
CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.custody import add_kek, rotate_kek
from securemem.errors import KekError
from securemem.keys.header import read_header
from securemem.keys.pkcs11 import MODULE_ENV, PIN_ENV
from securemem.keys.uri import parse_kek
from securemem.store.envelope import unlock
from tests.helpers import create, run_cli, view
from tests.hsm import LABEL, PIN, TOKEN, URI


def test_a_store_wrapped_by_the_hsm_opens_through_it(hsm: str, tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    with SecureMemory.open(db, kek=URI) as memory:
        create(memory, "/memories/a.md", "held by the HSM\n")
    with SecureMemory.open(db, kek=URI, create=False) as memory:
        assert "held by the HSM" in view(memory, "/memories/a.md")
    [entry] = read_header(db).entries
    assert entry.provider == URI and entry.key_id == parse_kek(URI).key_id  # type: ignore[attr-defined]


def test_the_kek_never_leaves_the_token(hsm: str) -> None:
    import pkcs11
    from pkcs11 import Attribute, KeyType, ObjectClass

    with pkcs11.lib(hsm).get_token(token_label=TOKEN).open(user_pin=PIN) as session:
        key = session.get_key(label=LABEL, key_type=KeyType.AES, object_class=ObjectClass.SECRET_KEY)
        assert key[Attribute.SENSITIVE] and not key[Attribute.EXTRACTABLE]
        with pytest.raises(pkcs11.exceptions.PKCS11Error):
            key[Attribute.VALUE]


def test_the_pin_can_come_from_a_private_file(hsm: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PIN_ENV)
    pin = tmp_path / "pin"
    pin.write_text(PIN + "\n")
    pin.chmod(0o600)
    SecureMemory.open(tmp_path / "p.db", kek=f"{URI};pin-source=file:{pin}").close()
    with pytest.raises(KekError, match="no PIN: add ;pin-source=file:/path to the URI or set"):
        SecureMemory.open(tmp_path / "p.db", kek=URI)
    pin.chmod(0o644)
    with pytest.raises(KekError, match=f"the PIN file {pin} is accessible by other users"):
        SecureMemory.open(tmp_path / "p.db", kek=f"{URI};pin-source=file:{pin}")


def test_a_pin_that_is_not_utf8_is_a_key_error_naming_the_kek(
    hsm: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A byte of $SECUREMEM_PKCS11_PIN that is not UTF-8 (Python holds it as a lone surrogate) was an
    internal error (UnicodeEncodeError); it is a key error naming the KEK, as a PIN file with the
    same bytes gets, and the PIN is not in it."""
    db = tmp_path / "u.db"
    assert run_cli(capsys, "init", "--db", str(db), "--kek", URI)[0] == 0
    monkeypatch.setenv(PIN_ENV, PIN + "\udcff")  # the byte 0xff in the process's environment
    code, out, err = run_cli(capsys, "keys", "list", "--db", str(db), "--kek", URI)
    assert (code, out) == (2, "") and err.count("\n") == 1 and PIN not in err, err
    assert err == f"securemem: error: KEK {URI}: ${PIN_ENV} cannot be read as a PIN (it is not UTF-8 text)\n"


@pytest.mark.parametrize(
    ("uri", "pin", "message"),
    [
        (URI, "000000", "the token refused the PIN"),
        (f"pkcs11:token=absent;object={LABEL}", PIN, "no token labelled 'absent' (is the HSM reachable?)"),
        (f"pkcs11:token={TOKEN};object=absent", PIN, "no AES key labelled 'absent' on the token"),
    ],
)
def test_hsm_failures_are_one_line_and_leave_nothing(
    hsm: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, uri: str, pin: str, message: str
) -> None:
    monkeypatch.setenv(PIN_ENV, pin)
    with pytest.raises(KekError) as caught:
        SecureMemory.open(tmp_path / "f.db", kek=uri)
    assert str(caught.value).endswith(message) and "\n" not in str(caught.value) and pin not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_module_says_which_variable_to_set(hsm: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MODULE_ENV)
    with pytest.raises(KekError, match=f"set \\${MODULE_ENV} to the PKCS#11 module"):
        SecureMemory.open(tmp_path / "m.db", kek=URI)


def test_another_key_under_the_same_name_does_not_unwrap(hsm: str, tmp_path: Path) -> None:
    # "other" wraps the store; a header entry claiming the id of "kek" must not open under "other".
    db = tmp_path / "o.db"
    SecureMemory.open(db, kek=f"pkcs11:token={TOKEN};object=other").close()
    with pytest.raises(Exception, match="is not one of the KEKs"):
        SecureMemory.open(db, kek=URI)


def test_an_hsm_kek_and_an_offline_recovery_file_open_the_same_store(hsm: str, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with SecureMemory.open(db, kek=URI) as memory:
        create(memory, "/memories/a.md", "recoverable\n")
    recovery = tmp_path / "recovery.kek"
    add_kek(db, parse_kek(URI), parse_kek(f"file:{recovery}"))
    with SecureMemory.open(db, kek=f"file:{recovery}") as memory:
        assert "recoverable" in view(memory, "/memories/a.md")
    # and back: rotate from the recovery file to the HSM's other key
    rotate_kek(db, parse_kek(f"file:{recovery}"), parse_kek(f"pkcs11:token={TOKEN};object=other"))
    assert {e.provider for e in read_header(db).entries} == {URI, f"pkcs11:token={TOKEN};object=other"}
    assert unlock(db, parse_kek(URI)).dek == unlock(db, parse_kek(f"pkcs11:token={TOKEN};object=other")).dek


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        (f"pkcs11:token=absent;object={LABEL}", "no token labelled 'absent' (is the HSM reachable?)"),
        (f"pkcs11:token={TOKEN};object=absent", "no AES key labelled 'absent' on the token"),
    ],
)
def test_opening_with_an_hsm_key_out_of_reach_says_so_not_wrong_kek(
    hsm: str, tmp_path: Path, uri: str, message: str
) -> None:
    """Found by an acceptance tester: opening an existing store named a missing token a wrong KEK
    (making a store with it said the token was missing)."""
    db = tmp_path / "h.db"
    SecureMemory.open(db, kek=URI).close()
    with pytest.raises(KekError) as caught:
        SecureMemory.open(db, kek=uri, create=False)
    assert type(caught.value) is KekError and str(caught.value).endswith(message)


def test_two_keys_under_one_label_are_one_line_and_no_traceback(hsm: str, tmp_path: Path) -> None:
    """python-pkcs11's get_key raised with the token's search still open; the search, closed after its
    session was gone, printed "Exception ignored ... Traceback ... SessionHandleInvalid" after the one-line
    error (an attacker's round). Run in a child process, where that finaliser writes to stderr."""
    import os
    import subprocess
    import sys

    twin = parse_kek(f"pkcs11:token={TOKEN};object=dup")
    for _ in range(2):
        twin.create_key()  # type: ignore[attr-defined]
    try:
        argv = [sys.executable, "-m", "securemem.cli", "init", "--db", str(tmp_path / "d.db"), "--kek", twin.source]
        done = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ), timeout=120, check=False)
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == [
            f"securemem: error: KEK pkcs11:token={TOKEN};object=dup: several keys are labelled 'dup' on the token"
        ], done.stderr
    finally:
        assert twin.destroy_key() == 2  # type: ignore[attr-defined]
