"""The page format: new stores hash their pages with HMAC-SHA256, older stores keep HMAC-SHA512.

Every page a commit writes, and every page a read decrypts, is hashed for its HMAC. SQLCipher's
default, HMAC-SHA512, costs about a third more per page than HMAC-SHA256 here, for nothing a
256-bit tag lacks, so stores are created with HMAC-SHA256. A store written by an earlier release
keeps its format through writes, erasure scrubs, re-keys and backups; an open finds which format a
file has. The formats are checked from outside with ``tests/sqlcipher_pages.py``, which decrypts
page 1 without securemem's page code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.errors import WrongKeyError
from securemem.keys import RawKey
from securemem.store import pages
from securemem.store.sqlcipher import peek_store_id
from tests.helpers import ok, run_cli, sqlcipher_of, view
from tests.sqlcipher_pages import PAGE, hmac_size_of, plaintext_of

V4_STORE = Path(__file__).parent / "data" / "v4" / "store-v4.db"  # written by the previous release
V4_KEY = bytes(range(96, 128))  # the fixture's published test key (tests/data/v4/make_store_v4.py)
Cap = pytest.CaptureFixture[str]


def hmac_size(db: Path, key: bytes) -> int:
    return hmac_size_of(key, db.read_bytes()[:PAGE])


def test_a_new_store_has_hmac_sha256_pages(tmp_path: Path) -> None:
    key, db = os.urandom(32), tmp_path / "s.db"
    with SecureMemory.open(db, key=key) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="alpha\n")
        store_id = memory.store.store_id
    assert hmac_size(db, key) == 32
    salt = db.read_bytes()[:16]
    assert pages.detect(db, key, salt) is pages.SHA256
    assert pages.detect(db, os.urandom(32), salt) is None
    assert peek_store_id(db, RawKey(key)) == store_id
    with pytest.raises(WrongKeyError):
        peek_store_id(db, RawKey(os.urandom(32)))
    with pytest.raises(WrongKeyError):
        SecureMemory.open(db, key=os.urandom(32))
    with SecureMemory.open(db, key=key) as memory:
        assert view(memory, "/memories/a.md").endswith("alpha")


def test_a_store_of_the_previous_release_keeps_its_hmac_sha512_pages(tmp_path: Path) -> None:
    db = tmp_path / "v4.db"
    db.write_bytes(V4_STORE.read_bytes())
    db.chmod(0o600)
    assert hmac_size(db, V4_KEY) == 64
    new_key = os.urandom(32)
    with SecureMemory.open(db, key=V4_KEY) as memory:
        ok(memory, command="create", path="/memories/sha512.md", file_text="OKAPI-OLD-FORMAT\n" * 40)
        ok(memory, command="delete", path="/memories/sha512.md")
        memory.store.flush_erasure()
        assert memory.store.integrity_errors() == []
        assert peek_store_id(db, RawKey(V4_KEY)) == memory.store.store_id
        sqlcipher_of(memory.store).rekey(RawKey(new_key))
    assert hmac_size(db, new_key) == 64  # a re-key keeps the format
    with pytest.raises(WrongKeyError):
        SecureMemory.open(db, key=V4_KEY)
    with SecureMemory.open(db, key=new_key) as memory:
        ok(memory, command="create", path="/memories/after.md", file_text="after the re-key\n")
        assert view(memory, "/memories/after.md").endswith("after the re-key")
        assert memory.store.integrity_errors() == []
    assert hmac_size(db, new_key) == 64
    assert b"after the re-key" in plaintext_of(db, new_key)  # the control: the proof reads this format


@pytest.mark.parametrize("page_format", pages.FORMATS, ids=lambda page_format: page_format.digest)
def test_a_backup_restores_in_the_format_of_its_store(
    tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch, page_format: pages.PageFormat
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db = tmp_path / "s.db"
    kek = f"file:{db}.kek"
    with monkeypatch.context() as patched:  # the store is created as this release or an older one would
        patched.setattr(pages, "NEW_STORES", page_format)
        assert run_cli(capsys, "init", "--db", str(db), "--kek", kek)[0] == 0
    with SecureMemory.open(db, kek=kek) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text="kept\n")
        assert sqlcipher_of(memory.store).page_format is page_format
    out, restored = tmp_path / "s.smb", tmp_path / "restored.db"
    assert run_cli(capsys, "backup", "--db", str(db), "--out", str(out))[0] == 0
    assert run_cli(capsys, "restore", "--backup", str(out), "--kek", kek, "--db", str(restored))[0] == 0
    with SecureMemory.open(restored, kek=kek) as memory:
        assert sqlcipher_of(memory.store).page_format is page_format
        assert view(memory, "/memories/a.md").endswith("kept")
        assert memory.store.integrity_errors() == []
