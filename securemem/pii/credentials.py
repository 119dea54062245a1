"""Secrets with a structure of their own: PEM private keys, JWTs and bearer tokens.

Provider keys are in catalogue.py; keyword-anchored and URL secrets in secrets.py.
"""

from __future__ import annotations

import base64
import json
import re
from bisect import bisect_left
from collections.abc import Iterator

from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, Span, accepted

_KEY_CHARS = r"A-Za-z0-9_\-"

_PEM_BEGIN = lazy_compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = lazy_compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
# A block cut before its END line still leaks the key: take the base64 body that follows.
_PEM_BODY = lazy_compile(r"[A-Za-z0-9+/=\s:,\\-]*")


# A private key's base64 body with its header and footer cut off ("header and footer stripped so the PEM rule
# misses it": reviewer BC): its DER encoding starts the same way for each kind, so the base64 does. SEC1 EC keys
# (P-256, P-384, P-521), PKCS#1 RSA keys, PKCS#8 keys (RSA, EC P-256, Ed25519, X25519), OpenSSH's format
# ("openssh-key-v1"): the prefix, then enough base64 to be a key, on one line or wrapped.
_DER_KEY = lazy_compile(
    r"(?<![A-Za-z0-9+/])(?:M[HI][A-Za-z0-9+/]{2}AQEEI|MIGkAgEBBD[A-D]|MIHcAgEBBE[I-L]"
    r"|MII[A-Za-z0-9+/]{2}[AQgw]IBAAK(?:C[AQ][A-Za-z0-9+/]EA|BgQ)"
    r"|MII[A-Za-z0-9+/]{2}[AQgw]IBADANBgkqhkiG9w0BAQEFAASC|MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg"
    r"|MI[A-Za-z0-9+/]{2}AgEAMBAGByqGSM49AgEGBSuBBAA[ijK]|MII[A-Za-z0-9+/]{2}[AQgw]IBADCCA[A-Za-z0-9+/]{3}ByqGSM44"
    r"|MC4CAQAwBQYDK2Vw|MC4CAQAwBQYDK2Vu|b3BlbnNzaC1rZXktdjEA)"
    r"(?:[A-Za-z0-9+/]|\r?\n[ \t]*(?=[A-Za-z0-9+/])){24,}={0,2}"
)
DER_KEY_HINTS = ("AQEEI", "MIGkAgEB", "MIHcAgEB", "IBAAKC", "IBAAKBgQ", "IBADANBgkqhkiG9w0BAQEFAASC", "MC4CAQAwBQYDK2V",
                 "MIGHAgEAMBMGByqGSM49", "AgEAMBAGByqGSM49", "ByqGSM44", "b3BlbnNzaC1rZXktdjEA")  # fmt: skip


def find_der_keys(scan: Scan) -> Iterator[Span]:
    text = scan.text
    for match in _DER_KEY.finditer(text):
        start, end = match.span()
        length = _der_chars(text[start : start + 8])
        if length is not None:  # the DER's own length says where the body ends, wrapped or not
            counted = 0
            for at in range(start, end):
                if not text[at].isspace():
                    counted += 1
                    if counted == length:
                        end = at + 1
                        break
            else:
                continue  # cut short: fewer characters than the key has
        elif end - start < 300:
            continue  # OpenSSH's fixed header alone ("grep for b3BlbnNzaC1rZXktdjEAAAAABG5vbmUA..."): no key
        else:  # OpenSSH's format: a wrapped body goes on past full lines only (its 70 characters)
            at = start
            while (newline := text.find("\n", at, end)) != -1:
                if len(text[at:newline].strip()) < 60:
                    end = newline
                    break
                at = newline + 1
        yield start, end - (text[end - 1] == "\r")


def _der_chars(head: str) -> int | None:
    """The base64 characters of the DER whose first eight are ``head`` (a SEQUENCE and its length), or None."""
    try:
        der = base64.b64decode(head)
    except ValueError:
        return None
    if der[:1] != b"\x30":
        return None
    if der[1] < 0x80:
        total = 2 + der[1]
    elif der[1] == 0x81:
        total = 3 + der[2]
    elif der[1] == 0x82:
        total = 4 + (der[2] << 8 | der[3])
    else:
        return None
    return 4 * -(-total // 3)


def find_private_keys(scan: Scan) -> Iterator[Span]:
    """Pair each BEGIN line with the first END line after it (found once, so linear in the text)."""
    text = scan.text
    if "PRIVATE KEY" not in text:
        return
    ends = [(footer.start(), footer.end()) for footer in _PEM_END.finditer(text)]
    begin = _PEM_BEGIN.search(text)
    while begin is not None:
        index = bisect_left(ends, (begin.end(), 0))
        end = ends[index][1] if index < len(ends) else _truncated_end(text, begin.end())
        if index >= len(ends) and _prose(text[begin.end() : end]):
            # A header named in prose ("Never paste anything that starts with -----BEGIN OPENSSH PRIVATE
            # KEY----- into a ticket": reviewer AO): words follow it, not a key's body, however cut.
            begin = _PEM_BEGIN.search(text, begin.end())
            continue
        if index < len(ends) and _placeholder(text[begin.end() : ends[index][0]]):
            # A template's block, its body a placeholder ("-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE
            # KEY-----", "<your key here>", "[redacted]": reviewer CQ): no key's bytes in it.
            begin = _PEM_BEGIN.search(text, end)
            continue
        end = _escaped_line_end(text, begin.end(), end)
        yield begin.start(), end
        begin = _PEM_BEGIN.search(text, end)


def _escaped_line_end(text: str, body_start: int, end: int) -> int:
    """Past the escaped line break that ends a block held in a JSON or code string, whose lines are
    joined by "\\n" (a service account's "private_key": "-----BEGIN ...\\n-----END PRIVATE KEY-----\\n"):
    the string's whole value goes."""
    if text.startswith(("\\n", "\\r\\n"), body_start):
        for escape in ("\\r\\n", "\\n"):
            if text.startswith(escape, end):
                return end + len(escape)
    return end


def _prose(body: str) -> bool:
    """Words of prose only: small letters, maybe a capital first or a number after ("base64"), or a short
    word in capitals ("END"), with no "+", "/" or "=". A key's base64 mixes cases within a word
    ("MHcCAQEEIBkg"), in groups of any length (an attacker's round cut bodies into groups of 4 to 15)."""
    words = _BODY_WORD.findall(body)
    return bool(words) and all(_PROSE_WORD.fullmatch(word) for word in words)


_BODY_WORD = lazy_compile(r"[A-Za-z0-9+/=]+")


def _placeholder(body: str) -> bool:
    """A block's body that is a placeholder: no word at all ("..."), or a few words that read as words ("<your key
    here>", "REDACTED", "${TLS_PRIVATE_KEY}", "XXXXXXXX"). A word of base64 mixes cases and digits ("MIIEowIBAAKCAQEA",
    a key's first characters, however few, are read as the key); a key's base64 cut into pieces that read as words
    (an attacker's round cut an EC key's so) holds more characters than a placeholder's words: 64 at least."""
    words = _BODY_WORD.findall(body)
    return not words or (
        sum(map(len, words)) < _PLACEHOLDER_MOST and all(_PLACEHOLDER_WORD.fullmatch(word) for word in words)
    )


_PLACEHOLDER_MOST = 48  # characters of a placeholder's words, fewer than any key's base64 (64 at least)
_PLACEHOLDER_WORD = lazy_compile(r"[A-Z]?[a-z]+[0-9]{0,6}|[A-Z]+[0-9]{0,3}")


_PROSE_WORD = lazy_compile(r"[A-Z]?[a-z]+[0-9]{0,3}|[A-Z]{1,5}")


def _truncated_end(text: str, body_start: int) -> int:
    body = _PEM_BODY.match(text, body_start)
    end = body.end() if body is not None else body_start
    while end > body_start and text[end - 1].isspace():
        end -= 1
    return end


_JWT = lazy_compile(
    rf"eyJ(?<![{_KEY_CHARS}.]eyJ)[{_KEY_CHARS}]{{2,}}(?:\.[{_KEY_CHARS}]*){{2}}"
    rf"(?:(?:\.[{_KEY_CHARS}]*){{2}})?(?![{_KEY_CHARS}])"
)


def find_jwts(scan: Scan) -> Iterator[Span]:
    if "eyJ" not in scan.text:
        return iter(())
    return accepted(_JWT, scan.text, scan.whole, _has_jose_header)


# A JWT a log or a terminal wrapped at a fixed width, its first line led by it: the lines are only the
# token's characters, each but the last 40 or more long ("eyJhbGci...
# iwia" then "XNzIjoi...", "...In0.PwKO...", "jngbJ8RL9J0"); joined they make a JWT whose header decodes
# (reviewer AF: a SMART launch's token wrapped at 64 columns, its signature two lines down).
_WRAPPED_LINE = rf"[ \t]*\r?\n[ \t]*[{_KEY_CHARS}.]+(?=[ \t]*(?:\r?\n|$))"
_WRAPPED_JWT = lazy_compile(rf"eyJ(?<![{_KEY_CHARS}.]eyJ)[{_KEY_CHARS}.]{{37,}}(?:{_WRAPPED_LINE}){{1,32}}")
_LINE_BREAK = lazy_compile(r"[ \t]*\r?\n[ \t]*")
_WRAP_MIN = 40


def find_wrapped_jwts(scan: Scan) -> Iterator[Span]:
    text = scan.text
    if "eyJ" not in text or "\n" not in text:
        return
    for block in _WRAPPED_JWT.finditer(text):
        breaks = list(_LINE_BREAK.finditer(text, block.start(), block.end()))
        pieces = [(block.start(), breaks[0].start() if breaks else block.end())]
        for index, found in enumerate(breaks):
            pieces.append((found.end(), breaks[index + 1].start() if index + 1 < len(breaks) else block.end()))
        lengths = [end - start for start, end in pieces]
        kept = 1
        while kept < len(pieces) and lengths[kept - 1] >= _WRAP_MIN:
            kept += 1
        first = _JWT.match(text, *pieces[0])
        if kept < 2 or (first is not None and _has_jose_header(first)):
            continue  # one line; or the first line holds the whole token (_JWT and the wrap join read the rest)
        joined = "".join(text[start:end] for start, end in pieces[:kept])
        token = _JWT.match(joined)
        if token is None or not _has_jose_header(token) or token.end() <= lengths[0]:
            continue
        at = token.end()
        for start, end in pieces[:kept]:  # the joined token's end, back in the text
            if at <= end - start:
                yield pieces[0][0], start + at
                break
            at -= end - start


def _has_jose_header(match: re.Match[str]) -> bool:
    """The first part must decode to a JSON object naming its algorithm, as every JWS/JWE does."""
    header = match.group().split(".", 1)[0]
    # No length limit: a header carrying an x5c certificate chain runs to kilobytes.
    try:
        decoded = json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))
    except (ValueError, RecursionError):  # deeply nested JSON must not crash a scan
        return False
    return isinstance(decoded, dict) and "alg" in decoded


_BEARER = lazy_compile(
    # Sanctum's "653|..." and URL-encoded tokens ("...%2B...%3D") hold "|" and "%"; an id and a
    # secret may be joined by ":" ("Bearer ZlLU...:MreC...").
    # Okta's "SSWS" scheme too.
    r"(?<![A-Za-z0-9_\-])(?i:bearer|ssws)[ \t]+(?P<token>[A-Za-z0-9\-._~+/|%:]*[A-Za-z0-9\-_~+/]=*)"
    r"(?![A-Za-z0-9\-_~+/=|%])"
)
# Right after "Authorization:" the space may be lost ("Authorization:Bearer2O39..."): a bounded token
# with no ":", so that a run of such headers is read in linear time; random-looking only.
_GLUED_BEARER = lazy_compile(
    r"(?<=(?i:authorization):)(?i:bearer)(?P<token>[A-Za-z0-9\-._~+/]{16,512}=*)(?![A-Za-z0-9\-_~+/=|%:])"
)
# "Authorization: Bearer", "'Authorization': 'Bearer", "auth=Bearer": any 16+ character token.
_AUTH_CONTEXT = lazy_compile(r"(?:authori[sz]ation|auth|header|token)[\"']?\s*[:=]?\s*[\"']?\s*$")


def find_bearer_tokens(scan: Scan) -> Iterator[Span]:
    if "earer" not in scan.text and "EARER" not in scan.text and "SSWS" not in scan.text:
        return iter(())
    return _bearer_tokens(scan)


def _bearer_tokens(scan: Scan) -> Iterator[Span]:
    yield from accepted(_BEARER, scan.text, scan.whole, lambda match: _is_bearer(scan, match), "token")
    if "uthorization:" in scan.text or "UTHORIZATION:" in scan.text:
        for match in _GLUED_BEARER.finditer(scan.text):
            token = match["token"]
            if any(char.isdigit() for char in token) and any(char.isalpha() for char in token):
                yield match.span("token")


def _is_bearer(scan: Scan, match: re.Match[str]) -> bool:
    """Outside an Authorization-like context, the token must look random (letters and digits)."""
    token = match["token"]
    if len(token) < 16:
        return False
    if _AUTH_CONTEXT.search(scan.before(match.start(), 24)):
        return True
    return any(char.isdigit() for char in token) and any(char.isalpha() for char in token)
