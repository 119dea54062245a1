"""Decrypt a SQLCipher 4 file page by page, free pages included, to prove what is (not) stored.

SQLCipher 4 defaults: 4096-byte pages, AES-256-CBC, and a reserve of 80 bytes at the end of each
page (16-byte IV, 64-byte HMAC-SHA512). Page 1 starts with the 16-byte salt. With a raw key the
key is the AES key itself. Free pages are decrypted too, which is what a logical export can't do.
"""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PAGE = 4096
RESERVE = 80
WAL_HEADER, FRAME_HEADER = 32, 24


def decrypt_page(key: bytes, page: bytes, first: bool) -> bytes:
    iv = page[PAGE - RESERVE : PAGE - RESERVE + 16]
    start = 16 if first else 0
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return decryptor.update(page[start : PAGE - RESERVE]) + decryptor.finalize()


def plaintext_of(db: Path, key: bytes) -> bytes:
    """Every page of the file and every frame of its WAL, decrypted and concatenated."""
    out = bytearray()
    data = db.read_bytes()
    for offset in range(0, len(data) - PAGE + 1, PAGE):
        out += decrypt_page(key, data[offset : offset + PAGE], first=offset == 0)
    wal = Path(f"{db}-wal")
    if wal.exists():
        frames = wal.read_bytes()
        for offset in range(WAL_HEADER, len(frames) - FRAME_HEADER - PAGE + 1, FRAME_HEADER + PAGE):
            number = int.from_bytes(frames[offset : offset + 4], "big")
            page = frames[offset + FRAME_HEADER : offset + FRAME_HEADER + PAGE]
            out += decrypt_page(key, page, first=number == 1)
    return bytes(out)
