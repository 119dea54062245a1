"""Secrets and addresses inside base64 or hex: a blob that decodes to text holding one is that value.

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
from collections.abc import Callable, Iterator

from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

# The runs are found in a copy of the text with one byte per character: "x" for base64's characters,
# "e" for "=", " " for anything else (a pattern of one byte class runs at C speed; offsets stay the text's).
_TABLE = bytes(
    ord("x") if chr(code).isascii() and (chr(code).isalnum() or chr(code) in "+/_-") else ord("e") if code == 61 else 32
    for code in range(256)
)
_SHORTEST = 20  # a 16-character address encodes to 22 characters and its "==" (a 20-character key to 27 and "=")
_HINT = b"x" * _SHORTEST  # found by a substring search, which skips prose at C speed
_REST = lazy_compile(rb"x*e{0,2}")
_LONGEST = 4096
_BUDGET = 1 << 16  # characters of decoded text read per text (harmless runs first cannot hide one later)
_PRINTABLE = 0.95  # share of the decoded characters that must be printable text


def may_hold_encoded_secret(scan: Scan) -> bool:
    return len(scan.text) >= _SHORTEST


def find_encoded_secrets(scan: Scan, secrets_in: Callable[[str], list[Hit]]) -> Iterator[Hit]:
    """The runs of ``scan`` whose decoded text ``secrets_in`` finds a secret in."""
    budget = _BUDGET
    for start, end, decoded, bytewise in _decoded_runs(scan):
        budget -= len(decoded)
        if budget < 0:
            return
        found = secrets_in(decoded)
        # (no user and password pair from hex bytes: a field's "key:Value2024" beside "auth", an attacker's round)
        if found and not (bytewise and found[0][0] == "BASIC_AUTH"):
            yield found[0][0], start, end


def _decoded_runs(scan: Scan) -> Iterator[tuple[int, int, str, bool]]:
    """Each run that decodes to text: its span, its text, and whether it was hex bytes one by one."""
    marked = scan.encoded.translate(_TABLE)
    at = marked.find(_HINT)
    while at != -1:
        start = at
        while start and marked[start - 1] == 0x78:  # "x": the run began before the search's find
            start -= 1
        rest = _REST.match(marked, at + _SHORTEST)
        end = rest.end() if rest is not None else at + _SHORTEST
        at = marked.find(_HINT, end)
        if end - start > _LONGEST or (end < len(marked) and marked[end] in b"xe"):
            continue  # too long for a token's encoding, or "=" inside it: not one base64 value
        decoded = _decoded(scan.text[start:end])
        if decoded is not None:
            yield start, end, decoded, False
    # A spaced run holds 16 bytes or more, each led by an ASCII digit 2-7: text with fewer ASCII digits (a count
    # the scan keeps; most prose) holds none, and no pass of the pattern is made.
    if scan.digit_count >= _SPACED_LEAST:
        for run in _SPACED_HEX.finditer(scan.text):
            if _HEX_LETTER.search(run.group()) is None:
                continue  # two-digit numbers in a row (ages, scores, a lottery's draws), no byte with a letter
            decoded = _hex_text(_BYTE_JOINT.sub("", run.group()))
            if decoded is not None:
                yield run.start(), run.end(), decoded, True


# Text encodes to base64 whose every fourth character, from the first, stands for a byte below 0x80's
# top six bits: one of the alphabet's first 32 characters. A random token fails this within a few
# groups (each passes one time in two): no decoding for it.
_TEXT_LEAD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef")
_LEADS_CHECKED = 12


# Text in hex: pairs of hex digits whose first is 2 to 7 (printable ASCII's high nibbles): "6768705f41..." is "ghp_A..."
# ("release bot creds (hex so the scanner shuts up): 6768705f...": reviewer CU). A digest's or a key's hex fails this
# within a few pairs.
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_TEXT_NIBBLES = frozenset("234567")
_HEX_SHORTEST = 32
# The same bytes one by one, a blank or a colon between ("api key bytes: 67 68 70 5f 41 ...": a dump's form), 16 at
# least, one joint throughout
_SPACED_HEX = lazy_compile(
    # (led by a digit, the look-behind after it: a pattern led by a look-behind is tried at every character)
    r"[2-7](?<![0-9A-Za-z][2-7])[0-9A-Fa-f](?P<joint>[ :])[2-7][0-9A-Fa-f](?:(?P=joint)[2-7][0-9A-Fa-f]){14,2046}"
    r"(?![0-9A-Za-z])"
)
_SPACED_LEAST = 16  # the pattern's bytes at least (two, then fourteen more), each led by a digit
_HEX_LETTER = lazy_compile(r"[2-7][A-Fa-f]")
_BYTE_JOINT = lazy_compile(r"[ :]")


def _hex_text(value: str) -> str | None:
    if value[:2] in ("0x", "0X"):
        value = value[2:]  # a hex literal's prefix ("0x6768705f...")
    if len(value) < _HEX_SHORTEST or len(value) % 2 or not _TEXT_NIBBLES.issuperset(value[::2]):
        return None
    if not _HEX_DIGITS.issuperset(value):
        return None
    text = bytes.fromhex(value).decode("ascii")  # every pair is below 0x80: ASCII
    return text if text.isprintable() else None


def _decoded(value: str) -> str | None:
    """``value`` decoded as base64 (standard or URL-safe alphabet) or as hex, when it decodes to text."""
    hexed = _hex_text(value)
    if hexed is not None:
        return hexed
    body = value.rstrip("=")
    if len(body) % 4 == 1 or any(body[at] not in _TEXT_LEAD for at in range(0, min(len(body), 4 * _LEADS_CHECKED), 4)):
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
