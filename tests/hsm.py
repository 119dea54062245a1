"""The SoftHSM2 token the PKCS#11 tests share (fixtures ``token`` and ``hsm`` in conftest.py)."""

from __future__ import annotations

from pathlib import Path

MODULES = ("/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so")
TOKEN, LABEL, PIN, SO_PIN = "securemem-test", "kek", "246810", "13579111"
URI = f"pkcs11:token={TOKEN};object={LABEL}"


def softhsm_module() -> str | None:
    return next((m for m in MODULES if Path(m).exists()), None)
