"""Key custody: open time per KEK provider; rotate-kek, rotate-dek and backup against the store's size.

Run from the repository root:

    .venv/bin/python bench/keys_bench.py            # a 10 MB store (about half a minute)
    .venv/bin/python bench/keys_bench.py --gb       # and a 1 GB store (a few minutes, 3 GB of disk)
    .venv/bin/python bench/keys_bench.py --smoke    # a 1 MB store, few repeats

Anchors: opening a legacy store with a raw key (the floor: no key work at all) and with a
passphrase (PBKDF2, 256,000 iterations: what a legacy store pays on every open). An envelope
open adds reading DB.keys and one unwrap; a passphrase KEK adds scrypt (memory-hard, on
purpose); a PKCS#11 KEK a round trip to the token (SoftHSM2 here: a real HSM is slower); an
aws-kms KEK two HTTP round trips (DescribeKey, then Decrypt) to moto's KMS server on 127.0.0.1
(the test emulator: real KMS adds the network, tens of milliseconds).
rotate-kek rewrites DB.keys only, so its time should not grow with the store; rotate-dek
re-encrypts every page and a backup copies every page, so their figure is a throughput. While
each runs, another process writes a small file after another (reopening when told the store
was re-keyed): its longest pause between two writes is set against its longest pause when it
writes alone for as long (the anchor).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from harness import machine, median, scratch_dir, table

from securemem import SecureMemory
from securemem.backup import make_backup
from securemem.custody import rotate_dek, rotate_kek
from securemem.keys.kek import KekProvider
from securemem.keys.uri import parse_kek
from tests import kms_server

MODULES = ("/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so")
CHUNK = 256 * 1024  # bytes per stored file when filling a store
FORK = multiprocessing.get_context("fork")
SETTLE = 0.3  # seconds the writer runs before and after each operation


def fill(memory: SecureMemory, db: Path, megabytes: int) -> None:
    """Incompressible content below every layer (no quota applies) until the store file is ``megabytes`` MB.

    The size is read from the file, not counted from what was written: each file is also kept
    in the store's version history, so what is written is not what the file grows by.
    """
    now, n = time.time(), 0
    while not db.exists() or db.stat().st_size < megabytes * 2**20:
        with memory.store.transaction(memory.namespace, write=True, clock=lambda: now) as tx:
            for _ in range(4):
                path = f"/memories/blob-{n:06d}.bin"
                tx.put_file(path, os.urandom(CHUNK // 2).hex().encode(), 1, None, tx.ancestry(path).entry)
                n += 1


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


@contextlib.contextmanager
def kms_key(where: Path) -> Iterator[str | None]:
    """moto's KMS server on 127.0.0.1 with one key and the AWS settings pointing at it: the key's URI, or None."""
    try:
        with kms_server.kms_server(where) as url:
            env = kms_server.aws_env(url, where)
            os.environ.update(env)
            yield f"aws-kms:{kms_server.new_key(env)[0]}"
    except RuntimeError as exc:
        print(f"(no aws-kms row: {exc})")
        yield None


def open_table(where: Path, repeats: int) -> str:
    (where / "hsm").mkdir()
    (where / "kms").mkdir()
    rows: list[tuple[str, float]] = []
    with kms_key(where / "kms") as kms:
        found = providers(where) + ([("aws-kms: KEK (moto, 127.0.0.1)", {"kek": kms})] if kms else [])
        for n, (label, how) in enumerate(found):
            db = where / f"open-{n}.db"
            SecureMemory.open(db, **how).close()  # type: ignore[arg-type]
            rows.append((label, open_seconds(db, repeats, **how) * 1000))
    floor = rows[0][1]
    return table(["store opened with", "open ms (median)", "x floor"], [(label, ms, ms / floor) for label, ms in rows])


# -- another process writing while an operation runs ------------------------------------------------------------


def writer(db: str, kek: str, log: str, stop: str, tag: str) -> None:
    """Write small files one after another until ``stop`` exists; log when each write returned success.

    Told the store was re-keyed, it reopens and tries again (what an agent is told to do); told
    it is busy, it tries again. The times are CLOCK_MONOTONIC, which every process shares.
    """
    memory = SecureMemory.open(db, kek=kek, create=False)
    n = 0
    with open(log, "w", encoding="ascii") as out:
        while not os.path.exists(stop):
            result = memory.execute({"command": "create", "path": f"/memories/{tag}/{n:07d}.md", "file_text": "note\n"})
            if result.is_error:
                if result.error == "RekeyedError":
                    memory.close()
                    memory = SecureMemory.open(db, kek=kek, create=False)
                elif result.error != "StoreBusyError":
                    raise RuntimeError(result.text)
                continue
            out.write(f"{time.monotonic():.6f}\n")
            out.flush()
            n += 1
    memory.close()


def longest_pause(db: Path, kek: str, where: Path, operation: Callable[[], object]) -> tuple[float, float]:
    """Run ``operation`` while a writer process writes: (its seconds, the writer's longest pause in ms around it)."""
    log, stop = where / "writer.log", where / "writer.stop"
    stop.unlink(missing_ok=True)
    tag = f"w{time.monotonic_ns()}"
    child = FORK.Process(target=writer, args=(str(db), kek, str(log), str(stop), tag), daemon=True)
    child.start()
    try:
        while not log.exists() or log.stat().st_size < 64:  # the writer is under way
            time.sleep(0.01)
        time.sleep(SETTLE)
        started = time.monotonic()
        operation()
        ended = time.monotonic()
        time.sleep(SETTLE)
    finally:
        stop.touch()
        child.join(120)
    if child.exitcode != 0:
        raise RuntimeError(f"the writer failed (exit {child.exitcode})")
    return ended - started, max_gap(log, started - SETTLE, ended + SETTLE)


def max_gap(log: Path, start: float, end: float) -> float:
    """The longest time between two successful writes (or a window edge) within [start, end], in ms."""
    times = [float(line) for line in log.read_text(encoding="ascii").split()]
    inside = [start] + [t for t in times if start <= t <= end] + [end]
    return max(b - a for a, b in itertools.pairwise(inside)) * 1000


def rotate_table(where: Path, sizes: list[int], repeats: int) -> str:
    a, b = parse_kek(f"file:{where / 'a.kek'}"), parse_kek(f"file:{where / 'b.kek'}")
    rows = [size_row(where, megabytes, a, b, repeats) for megabytes in sizes]
    headers = [
        "store size",
        "rotate-kek ms (median)",
        "max ms",
        "rotate-dek MB/s",
        "writer's longest pause ms",
        "backup MB/s",
        "writer's longest stall ms",
        "writer alone: longest gap ms (anchor)",
    ]
    return table(headers, rows)


def size_row(where: Path, megabytes: int, a: KekProvider, b: KekProvider, repeats: int) -> tuple[object, ...]:
    db, out = where / f"rotate-{megabytes}.db", where / "b.smb"
    with SecureMemory.open(db, kek=a) as memory:
        fill(memory, db, megabytes)
    times = []
    for n in range(repeats):
        started = time.perf_counter()
        rotate_kek(db, *((a, b) if n % 2 == 0 else (b, a)))
        times.append(time.perf_counter() - started)
    opener = a if repeats % 2 == 0 else b
    size = db.stat().st_size / 2**20
    alone = longest_pause(db, opener.source, where, lambda: time.sleep(2 * SETTLE))[1]
    dek_seconds, dek_pause = longest_pause(db, opener.source, where, lambda: rotate_dek(db, [opener]))

    def backup() -> None:
        with SecureMemory.open(db, kek=opener, create=False) as memory:
            make_backup(memory.store, out, [opener])  # type: ignore[arg-type]

    backup_seconds, backup_pause = longest_pause(db, opener.source, where, backup)
    for done in (db, out):
        done.unlink()
    return (
        f"{size:,.0f} MB",
        median(times) * 1000,
        max(times) * 1000,
        size / dek_seconds,
        dek_pause,
        size / backup_seconds,
        backup_pause,
        alone,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--smoke", action="store_true", help="a 1 MB store and few repeats (CI)")
    parser.add_argument("--gb", action="store_true", help="a 1 GB store too (a few minutes, about 3 GB of disk)")
    parser.add_argument("--dir", default=None, help="where to build the stores (default: the temp dir)")
    options = parser.parse_args()
    sizes, repeats = ([1], 3) if options.smoke else ([10, 1024] if options.gb else [10], 9)
    print(machine())
    with scratch_dir(options.dir, "keys") as where:
        print("\nOpen time per key provider (open + close of a small store):\n")
        print(open_table(where, repeats), flush=True)
        print("\nrotate-kek (DB.keys rewritten, no data page touched), rotate-dek and backup against the size,")
        print("each while another process writes small files (its longest pause between two writes):\n")
        print(rotate_table(where, sizes, repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
