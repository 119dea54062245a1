"""Secrets inside base64: a blob that decodes to text holding a secret is that secret.

Configuration is often stored or shown base64-encoded: a Kubernetes ConfigMap's or Secret's data, a
CI log's "echo $TOKEN | base64", a Docker config's auth. Reviewer Q's blind round had a JSON
settings blob ("eyJwcmVmZWN0X2FwaV9rZXkiOi...": {"prefect_api_key": "pnu_..."}) and a PlanetScale
token echoed as base64 ("cHNjYWxlX3Rrbl9..."). Each run of base64 characters long enough to hold a
token is decoded; where the result is text and the secret detectors find a secret in it, the whole
run is reported, typed as what was found. Decoded text is not decoded again, and a text's runs are
read up to a budget.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator

from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{28,4096}={0,2}(?![A-Za-z0-9+/=_\-])")
_HINT = b"x" * 28
_TABLE = bytes(
    ord("x") if chr(code).isascii() and (chr(code).isalnum() or chr(code) in "+/=_-") else ord(" ")
    for code in range(256)
)
_BUDGET = 1 << 16  # characters of decoded text read per text (harmless runs first cannot hide one later)
_PRINTABLE = 0.95  # share of the decoded characters that must be printable text


def may_hold_encoded_secret(scan: Scan) -> bool:
    return _HINT in scan.encoded.translate(_TABLE)


def find_encoded_secrets(scan: Scan, secrets_in: Callable[[str], list[Hit]]) -> Iterator[Hit]:
    """The runs of ``scan`` whose decoded text ``secrets_in`` finds a secret in."""
    budget = _BUDGET
    for run in _RUN.finditer(scan.text):
        decoded = _decoded(run.group())
        if decoded is None:
            continue
        budget -= len(decoded)
        if budget < 0:
            return
        found = secrets_in(decoded)
        if found:
            yield found[0][0], *run.span()


def _decoded(value: str) -> str | None:
    """``value`` decoded as base64 (standard or URL-safe alphabet), when it decodes to text."""
    body = value.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    altchars = b"-_" if ("-" in body or "_" in body) else None
    if altchars is not None and ("+" in body or "/" in body):
        return None
    try:
        raw = base64.b64decode(padded, altchars=altchars, validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    printable = sum(char.isprintable() or char in "\t\r\n" for char in text)
    return text if len(text) >= 16 and printable >= _PRINTABLE * len(text) else None
