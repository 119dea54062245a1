"""Decrypt a SQLCipher 4 file page by page, free pages included, to prove what is (not) stored.

SQLCipher 4: 4096-byte pages, AES-256-CBC over the page, then a 16-byte IV and the page's HMAC at
its end (32 bytes of HMAC-SHA256 in stores created since the store's page format 2, 64 bytes of
HMAC-SHA512 before). Page 1 starts with the 16-byte salt. With a raw key the key is the AES key
itself. Free pages are decrypted too, which is what a logical export can't do. Written apart from
securemem's own page code, so that a proof does not lean on what it checks.
"""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PAGE = 4096
HMAC_SIZES = (32, 64)  # the IV sits 16 bytes before the HMAC
WAL_HEADER, FRAME_HEADER = 32, 24
# Bytes 16-23 of SQLite's header in clear: page size 4096, file format 2 (WAL) read and written,
# 80 reserved bytes, payload fractions 64/32/32.
HEADER_16_24 = bytes([0x10, 0x00, 2, 2, 80, 64, 32, 32])


def decrypt_page(key: bytes, page: bytes, first: bool, hmac_size: int = 64) -> bytes:
    iv_at = PAGE - 16 - hmac_size
    iv = page[iv_at : iv_at + 16]
    start = 16 if first else 0
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return decryptor.update(page[start:iv_at]) + decryptor.finalize()


def hmac_size_of(key: bytes, first_page: bytes) -> int:
    """The HMAC size under which page 1's header decrypts (only its first block depends on the IV)."""
    for size in HMAC_SIZES:
        if decrypt_page(key, first_page, True, size)[:8] == HEADER_16_24:
            return size
    raise AssertionError("page 1 decrypts under neither page format: a wrong key, or not a SQLCipher 4 store")


def plaintext_of(db: Path, key: bytes) -> bytes:
    """Every page of the file and every frame of its WAL, decrypted and concatenated."""
    out = bytearray()
    data = db.read_bytes()
    size = hmac_size_of(key, data[:PAGE])
    for offset in range(0, len(data) - PAGE + 1, PAGE):
        out += decrypt_page(key, data[offset : offset + PAGE], offset == 0, size)
    wal = Path(f"{db}-wal")
    if wal.exists():
        frames = wal.read_bytes()
        for offset in range(WAL_HEADER, len(frames) - FRAME_HEADER - PAGE + 1, FRAME_HEADER + PAGE):
            number = int.from_bytes(frames[offset : offset + 4], "big")
            page = frames[offset + FRAME_HEADER : offset + FRAME_HEADER + PAGE]
            out += decrypt_page(key, page, number == 1, size)
    return bytes(out)
