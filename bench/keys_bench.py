"""Key custody: open time per KEK provider; rotate-kek, rotate-dek and backup against the store's size.

Run from the repository root:

    .venv/bin/python bench/keys_bench.py            # 10 MB and 1 GB stores (about a minute)
    .venv/bin/python bench/keys_bench.py --smoke    # a 1 MB store, few repeats

Anchors: opening a legacy store with a raw key (the floor: no key work at all) and with a
passphrase (PBKDF2, 256,000 iterations: what a legacy store pays on every open). An envelope
open adds reading DB.keys and one unwrap; a passphrase KEK adds scrypt (memory-hard, on
purpose); a PKCS#11 KEK a round trip to the token (SoftHSM2 here: a real HSM is slower).
rotate-kek rewrites DB.keys only, so its time should not grow with the store; rotate-dek
re-encrypts every page and a backup copies every page, so their figure is a throughput.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from harness import machine, median, scratch_dir, table

from securemem import SecureMemory
from securemem.backup import make_backup
from securemem.custody import rotate_dek, rotate_kek
from securemem.keys.uri import parse_kek

MODULES = ("/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so")
CHUNK = 256 * 1024  # bytes per stored file when filling a store


def fill(memory: SecureMemory, megabytes: int) -> None:
    """About ``megabytes`` of incompressible content, written below every layer (no quota applies)."""
    now = time.time()
    for start in range(0, megabytes * 4, 64):
        with memory.store.transaction(memory.namespace, write=True, clock=lambda: now) as tx:
            for n in range(start, min(start + 64, megabytes * 4)):
                path = f"/memories/blob-{n:06d}.bin"
                tx.put_file(path, os.urandom(CHUNK // 2).hex().encode(), 1, None, tx.ancestry(path).entry)


def open_seconds(db: Path, repeats: int, **how: object) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        SecureMemory.open(db, create=False, **how).close()  # type: ignore[arg-type]
        times.append(time.perf_counter() - started)
    return median(times)


def softhsm(where: Path) -> str | None:
    """A SoftHSM2 token with an AES key "kek" in ``where``; its URI, or None without softhsm2."""
    module = next((m for m in MODULES if Path(m).exists()), None)
    if module is None or shutil.which("softhsm2-util") is None:
        return None
    (where / "tokens").mkdir()
    conf = where / "softhsm2.conf"
    conf.write_text(f"directories.tokendir = {where / 'tokens'}\nobjectstore.backend = file\nlog.level = ERROR\n")
    os.environ["SOFTHSM2_CONF"] = str(conf)
    init = ["softhsm2-util", "--init-token", "--free", "--label", "bench", "--so-pin", "87654321", "--pin", "1234"]
    subprocess.run(init, check=True, capture_output=True)
    import pkcs11
    from pkcs11 import Attribute, KeyType

    with pkcs11.lib(module).get_token(token_label="bench").open(user_pin="1234", rw=True) as session:
        template = {Attribute.SENSITIVE: True, Attribute.EXTRACTABLE: False}
        session.generate_key(KeyType.AES, 256, label="kek", store=True, template=template)
    os.environ.update(SECUREMEM_PKCS11_MODULE=module, SECUREMEM_PKCS11_PIN="1234")
    return "pkcs11:token=bench;object=kek"


def providers(where: Path) -> list[tuple[str, dict[str, object]]]:
    os.environ["SM_BENCH_KEK"] = os.urandom(32).hex()
    words = where / "passphrase"
    words.write_text("a bench passphrase\n")
    words.chmod(0o600)
    helper = where / "get-kek"
    helper.write_text(f"#!/bin/sh\necho {os.urandom(32).hex()}\n")
    helper.chmod(0o700)
    found: list[tuple[str, dict[str, object]]] = [
        ("legacy raw key (floor)", {"key": os.urandom(32)}),
        ("legacy passphrase (PBKDF2)", {"key": "a legacy passphrase"}),
        ("file: KEK", {"kek": f"file:{where / 'file.kek'}"}),
        ("env: KEK", {"kek": "env:SM_BENCH_KEK"}),
        ("passphrase:file: KEK (scrypt)", {"kek": f"passphrase:file:{words}"}),
        ("command: KEK", {"kek": f"command:{helper}"}),
    ]
    uri = softhsm(where / "hsm")
    if uri is not None:
        found.append(("pkcs11: KEK (SoftHSM2)", {"kek": uri}))
    return found


def open_table(where: Path, repeats: int) -> str:
    (where / "hsm").mkdir()
    rows = []
    floor = float("nan")
    for n, (label, how) in enumerate(providers(where)):
        db = where / f"open-{n}.db"
        SecureMemory.open(db, **how).close()  # type: ignore[arg-type]
        seconds = open_seconds(db, repeats, **how)
        floor = seconds if n == 0 else floor
        rows.append((label, seconds * 1000, seconds / floor))
    return table(["store opened with", "open ms (median)", "x floor"], rows)


def rotate_table(where: Path, sizes: list[int], repeats: int) -> str:
    rows = []
    a, b = parse_kek(f"file:{where / 'a.kek'}"), parse_kek(f"file:{where / 'b.kek'}")
    for megabytes in sizes:
        db = where / f"rotate-{megabytes}.db"
        with SecureMemory.open(db, kek=a) as memory:
            fill(memory, megabytes)
        times = []
        for n in range(repeats):
            started = time.perf_counter()
            rotate_kek(db, *((a, b) if n % 2 == 0 else (b, a)))
            times.append(time.perf_counter() - started)
        opener = a if repeats % 2 == 0 else b
        size = db.stat().st_size / 2**20
        started = time.perf_counter()
        rotate_dek(db, [opener])
        dek_seconds = time.perf_counter() - started
        with SecureMemory.open(db, kek=opener, create=False) as memory:
            started = time.perf_counter()
            make_backup(memory.store, where / "b.smb", [opener])  # type: ignore[arg-type]
            backup_seconds = time.perf_counter() - started
        rows.append(
            (f"{size:,.0f} MB", median(times) * 1000, max(times) * 1000, size / dek_seconds, size / backup_seconds)
        )
        for done in (db, where / "b.smb"):
            done.unlink()
    return table(["store size", "rotate-kek ms (median)", "max ms", "rotate-dek MB/s", "backup MB/s"], rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--smoke", action="store_true", help="a 1 MB store and few repeats (CI)")
    parser.add_argument("--dir", default=None, help="where to build the stores (default: the temp dir)")
    options = parser.parse_args()
    sizes, repeats = ([1], 3) if options.smoke else ([10, 1024], 9)
    print(machine())
    with scratch_dir(options.dir, "keys") as where:
        print("\nOpen time per key provider (open + close of a small store):\n")
        print(open_table(where, repeats), flush=True)
        print("\nrotate-kek (DB.keys rewritten, no data page touched), rotate-dek and backup against the size:\n")
        print(rotate_table(where, sizes, repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
