"""Envelope stores (store/envelope.py, keys/header.py): a random DEK kept only wrapped in DB.keys.

The hostile cases of keys.md, from the Python side: every flipped byte of the header, another
store's header (same KEK or not), a forged header with a fixed-up checksum, a wrong KEK; each is
refused with its own message and changes nothing on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from securemem import KeyFileError, SecureMemory, WrongKeyError
from securemem.errors import KekError, KeyHeaderError, StorageError, WrongKekError
from securemem.keys.header import keys_path, read_header
from securemem.keys.kek import FileKek
from securemem.keys.uri import parse_kek
from securemem.store.envelope import unlock
from tests.helpers import create, sha256_of, view


def make(tmp_path: Path, name: str = "e", kek: str | None = None) -> tuple[Path, str]:
    db = tmp_path / f"{name}.db"
    uri = kek or f"file:{tmp_path / name}.kek"
    with SecureMemory.open(db, kek=uri) as memory:
        create(memory, "/memories/note.md", "the committed text\n")
    return db, uri


def files_of(db: Path) -> dict[str, str]:
    """Hashes of the store file and its header: what "nothing changed on disk" compares."""
    return {p.name: sha256_of(p) for p in (db, keys_path(db)) if p.exists()}


def refused_with(db: Path, kek: str, *messages: str) -> str:
    before = files_of(db)
    with pytest.raises((KeyHeaderError, WrongKekError)) as caught:
        SecureMemory.open(db, kek=kek, create=False)
    text = str(caught.value)
    assert "\n" not in text and any(m in text for m in messages), text
    assert files_of(db) == before
    return text


def test_a_new_store_opens_with_its_kek_and_keeps_its_content(tmp_path: Path) -> None:
    db, kek = make(tmp_path)
    with SecureMemory.open(db, kek=kek) as memory:
        assert "the committed text" in view(memory, "/memories/note.md")
    assert not Path(f"{db}.key").exists()  # no legacy key file: the DEK is nowhere in clear


def test_the_header_is_private_and_holds_no_key_in_clear(tmp_path: Path) -> None:
    db, kek = make(tmp_path)
    header = keys_path(db)
    assert stat.S_IMODE(header.stat().st_mode) == 0o600
    dek = unlock(db, parse_kek(kek)).dek
    kek_bytes = FileKek(kek.removeprefix("file:")).material()
    data = header.read_bytes()
    for secret in (dek, kek_bytes):
        assert secret not in data and secret.hex().encode() not in data and secret.hex().upper().encode() not in data
    # The DEK is the store's SQLCipher key in its raw form: key= opens the store with it.
    with SecureMemory.open(db, key=dek) as memory:
        assert "the committed text" in view(memory, "/memories/note.md")


@pytest.mark.parametrize("mask", [0x01, 0x20, 0x80])
def test_every_flipped_byte_of_the_header_is_refused_and_nothing_changes(tmp_path: Path, mask: int) -> None:
    db, kek = make(tmp_path)
    header = keys_path(db)
    good = header.read_bytes()
    for index in range(len(good)):
        bad = bytearray(good)
        bad[index] ^= mask
        header.write_bytes(bytes(bad))
        refused_with(db, kek, "is damaged", "belongs to another store")
    header.write_bytes(good)
    SecureMemory.open(db, kek=kek).close()


def test_a_truncated_or_empty_or_missing_header_is_refused(tmp_path: Path) -> None:
    db, kek = make(tmp_path)
    header = keys_path(db)
    good = header.read_bytes()
    for cut in (b"", good[:10], good[: len(good) // 2], good[:-2]):
        header.write_bytes(cut)
        refused_with(db, kek, f"the key header {header} is damaged")
    header.unlink()
    refused_with(db, kek, "has no key header", "keys adopt")


@pytest.mark.parametrize("same_kek", [True, False])
def test_another_stores_header_is_refused(tmp_path: Path, same_kek: bool) -> None:
    db, kek = make(tmp_path, "a")
    other, other_kek = make(tmp_path, "b", kek if same_kek else None)
    shutil.copyfile(keys_path(other), keys_path(db))
    for opener in {kek, other_kek}:
        refused_with(db, opener, f"the key header {keys_path(db)} belongs to another store")


def test_another_stores_header_with_this_stores_salt_is_still_refused(tmp_path: Path) -> None:
    # A forger who copies b's header, writes a's salt into it and fixes up the checksum: the MAC
    # (under b's DEK) no longer matches.
    db, kek = make(tmp_path, "a")
    other, _ = make(tmp_path, "b", kek)
    doc = json.loads(keys_path(other).read_text())
    doc["db_salt"] = db.read_bytes()[:16].hex()
    write_forged(keys_path(db), doc)
    refused_with(db, kek, "is damaged (its MAC does not match)")


def write_forged(path: Path, doc: dict[str, object]) -> None:
    """A header edited on purpose, with its checksum recomputed (what the MAC is there for)."""
    doc.pop("check")
    body = json.dumps(doc, sort_keys=True, indent=1).encode()
    doc["check"] = hashlib.sha256(body).hexdigest()
    path.write_bytes(json.dumps(doc, sort_keys=True, indent=1).encode() + b"\n")


def test_an_edit_with_a_fixed_up_checksum_fails_the_mac(tmp_path: Path) -> None:
    db, kek = make(tmp_path)
    doc = json.loads(keys_path(db).read_text())
    doc["entries"][0]["added_at"] = "2001-01-01T00:00:00Z"
    write_forged(keys_path(db), doc)
    refused_with(db, kek, "is damaged (its MAC does not match)")


def test_a_sealed_key_moved_to_another_entry_fails_its_check(tmp_path: Path) -> None:
    # The key id is associated data of the seal: the same seal under another entry's id opens nothing.
    db, kek = make(tmp_path)
    doc = json.loads(keys_path(db).read_text())
    doc["store_id"] = "memstore_" + "0" * 24
    write_forged(keys_path(db), doc)
    refused_with(db, kek, "is damaged (a wrapped key fails its check)")


def test_a_wrong_kek_names_its_scheme_and_path_and_never_the_key(tmp_path: Path) -> None:
    db, _ = make(tmp_path)
    wrong = tmp_path / "wrong.kek"
    FileKek(str(wrong)).create_if_missing()
    text = refused_with(db, f"file:{wrong}", f"the KEK file:{wrong} is not one of the KEKs of {db}")
    assert wrong.read_text().strip() not in text
    os.environ["SM_TEST_WRONG_KEK"] = os.urandom(32).hex()
    try:
        text = refused_with(db, "env:SM_TEST_WRONG_KEK", "the KEK env:SM_TEST_WRONG_KEK is not one of the KEKs")
        assert os.environ["SM_TEST_WRONG_KEK"] not in text
    finally:
        del os.environ["SM_TEST_WRONG_KEK"]
    with pytest.raises(WrongKeyError):  # a wrong KEK is a wrong key, for callers that catch that
        SecureMemory.open(db, kek=f"file:{wrong}")


def test_key_and_kek_are_exclusive(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="not both"):
        SecureMemory.open(tmp_path / "x.db", key=os.urandom(32), kek=f"file:{tmp_path / 'x.kek'}")
    assert list(tmp_path.iterdir()) == []


def test_a_kek_cannot_open_a_legacy_store(tmp_path: Path) -> None:
    db = tmp_path / "legacy.db"
    SecureMemory.open(db, key=os.urandom(32)).close()
    with pytest.raises(KeyHeaderError, match=r"has no key header .*securemem keys adopt"):
        SecureMemory.open(db, kek=f"file:{tmp_path / 'k.kek'}")


def test_a_failed_creation_leaves_nothing_behind(tmp_path: Path) -> None:
    with pytest.raises(KekError, match=r"^KEK env:SM_TEST_UNSET: \$SM_TEST_UNSET is not set$"):
        SecureMemory.open(tmp_path / "n.db", kek="env:SM_TEST_UNSET")
    assert list(tmp_path.iterdir()) == []


def test_a_header_without_its_store_is_never_replaced(tmp_path: Path) -> None:
    db, kek = make(tmp_path)
    db.unlink()
    saved = keys_path(db).read_bytes()
    with pytest.raises(StorageError, match="does not exist, but its key header"):
        SecureMemory.open(db, kek=kek)
    assert keys_path(db).read_bytes() == saved and not db.exists()


def test_the_header_records_what_keys_md_promises(tmp_path: Path) -> None:
    db, kek = make(tmp_path)
    header = read_header(db)
    [entry] = header.entries
    assert entry.provider == kek and entry.key_id == FileKek(kek.removeprefix("file:")).key_id
    with SecureMemory.open(db, kek=kek) as memory:
        assert header.store_id == memory.store.store_id
    assert header.db_salt == db.read_bytes()[:16]
