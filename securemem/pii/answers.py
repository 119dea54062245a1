"""Passwords written apart from their label: in the next chat message, in brackets after words, after a
qualifier in brackets, or before the colon that opens what they unlock.

The keyword finder reads a label and what its syntax assigns ("password: ...", "password is ...").
People and chat exports also write (reviewers N and O, blind rounds):
- "[09:16] Sam: what's the bastion password" then "[09:16] Tyler: 0I&Gul$uD2  (rotate after)": the
  question names the secret, the answer is the next message's first word;
- "the password you gave on the phone (glacier.meadow77#) didn't work": the value in brackets (or
  in backticks, as chat writes code) a few words after its label;
- "become password (sudo) n0uI3mhB?XMc.": a qualifier in brackets between label and value;
- "Encrypted signing key, passphrase LedgerKey#2231:" then a PEM block: the value, then the colon
  that introduces what it opens.
Words carry none of these marks, so each value must look like a password that no word is: letters
and a digit (or mixed case and a symbol), no spaces, 6 to 64 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

_LABELS = ("password", "passwort", "passphrase", "pass phrase", "passcode", "pwd", "pw", "kennwort", "wachtwoord",
           "mot de passe", "contraseña", "senha", "hasło")  # fmt: skip
_LABEL = "|".join(sorted(_LABELS, key=len, reverse=True))
# Each pattern is tried only where a label starts a word (found by substring searches: no pattern
# steps through ordinary text).
# A question (or a request) that ends its line with the label: "what's the bastion password?",
# "send me the wifi pw pls". Not a format's field list ("hostname:port:database:username:password",
# .pgpass's header: see _NOT_BEFORE).
_ASKED = re.compile(rf"(?:{_LABEL})[ \t]*(?:\?+|pls|please)?[ \t]*\??[ \t]*\r?(?:\n|\Z)")
# The next line's message: a quote mark, up to two bracketed stamps ("[2024-12-24 09:16]", "[victim]"),
# a speaker and a colon, then the first word.
_ANSWER = re.compile(
    r"[ \t]*(?:>[ \t]*)*(?:\[[^\]\n]{1,40}\][ \t]*){0,2}(?:[^\s:\[\]][^\n:\[\]]{0,38}:[ \t]+)?"
    r"(?P<value>[^\s\"'`:,;|]{6,64})(?=[ \t]*(?:\r?$|[ \t]\(|[ \t]{2}|[ \t]-))",
    re.MULTILINE,
)
# "the password you gave on the phone (glacier.meadow77#)": up to eight words, then the value alone in brackets.
# Or in backticks, as chat writes code ("can someone reset the QA db password? it's still `kPU1CYN#...`").
_BRACKETED = re.compile(
    rf"(?:{_LABEL})[?!.,]?(?:[ \t]+[^\s()`]{{1,24}}){{1,8}}[ \t]+"
    r"(?:\((?P<value>[^\s()]{8,64})\)|`(?P<code>[^\s`]{8,64})`)"
)
# "become password (sudo) n0uI3mhB?XMc", "password (prod): ...".
_QUALIFIED = re.compile(rf"(?:{_LABEL})[ \t]*\([^()\n]{{1,24}}\)[ \t]*(?:[:=]|is)?[ \t]*(?P<value>[^\s\"'`]{{6,64}})")
# "passphrase LedgerKey#2231:" ending its line: the block it opens follows.
_BEFORE_COLON = re.compile(rf"(?:{_LABEL})[ \t]+(?P<value>[^\s:\"'`]{{6,64}}):[ \t]*\r?(?:\n|\Z)")
_NOT_BEFORE = frozenset(":/.-_,;|\t")  # a label inside a word, a path, a field list, a table's header, code
_TRAILING = ".,;:!?)"
_STRONG_SYMBOLS = frozenset("!#$%&*@^~?+=")


_OTHER_LABELS = ("kennwort", "wachtwoord", "contraseña", "senha", "hasło")  # the labels without "pass" or "pw"


def may_hold_answered_password(scan: Scan) -> bool:
    lower = scan.lower
    if scan.hints is not None:  # the keyword finder's, when it ran: "pass" and "pw" among them
        if any(lower.startswith(("pass", "pw"), at) for at, _ in scan.hints):
            return True
    elif "pass" in lower or "pw" in lower:
        return True
    return "wort" in lower or "woord" in lower or "senha" in lower or not lower.isascii()


def _label_starts(scan: Scan) -> list[int]:
    """Where a label may start a word: at "pass" and "pw" (the keyword finder's hints, when it ran),
    before "mot de passe", and at the labels that hold neither."""
    lower = scan.lower
    if scan.hints is not None:
        found = [at for at, _ in scan.hints if lower.startswith(("pass", "pw"), at)]
    else:
        found = [at for hint in ("pass", "pw") for at in _occurrences(lower, hint)]
    found += [at - 7 for at in found if lower.startswith("mot de ", at - 7)]
    if "wort" in lower or "woord" in lower or "senha" in lower or not lower.isascii():
        found += [at for label in _OTHER_LABELS for at in _occurrences(lower, label)]
    return sorted({at for at in found if at == 0 or (at > 0 and not _inside_word(lower[at - 1]))})


def _inside_word(before: str) -> bool:
    return before.isalnum() or before in _NOT_BEFORE


def _occurrences(lower: str, word: str) -> Iterator[int]:
    at = lower.find(word)
    while at != -1:
        yield at
        at = lower.find(word, at + len(word))


def find_answered_passwords(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    for at in _label_starts(scan):
        asked = _ASKED.match(lower, at)
        if asked is not None:
            if asked.group().endswith("\n"):
                answer = _ANSWER.match(lower, asked.end())
                if answer is not None:
                    yield from _value(text, *answer.span("value"))
            continue
        bracketed = _BRACKETED.match(lower, at)  # brackets also hold ticket numbers and remarks: strict
        found = bracketed or _QUALIFIED.match(lower, at) or _BEFORE_COLON.match(lower, at)
        if found is not None:
            group = "code" if found is bracketed and found["code"] is not None else "value"
            yield from _value(text, *found.span(group), strict=found is bracketed)


def _value(text: str, start: int, end: int, strict: bool = False) -> Iterator[Hit]:
    while end > start and text[end - 1] in _TRAILING and not _balanced_bracket(text, start, end):
        end -= 1
    if _password_like(text[start:end], strict):
        yield "PASSWORD", start, end


def _balanced_bracket(text: str, start: int, end: int) -> bool:
    return text[end - 1] == ")" and text.count("(", start, end) >= text.count(")", start, end)


def _password_like(value: str, strict: bool = False) -> bool:
    """6 to 64 characters of letters with a digit, or of both cases with a symbol; not a path, a URL,
    an address, a placeholder or a name of code. ``strict``: a symbol of a password's own ("#", "!",
    "$"...) or small and capital letters with a digit ("JIRA-4521" and "RFC-7617" are references)."""
    if not 6 <= len(value) <= 64 or "://" in value or value.startswith(("/", "<", "$", "{", "%")):
        return False
    letters = sum(char.isalpha() for char in value)
    digits = sum(char.isdigit() for char in value)
    symbols = [char for char in value if not char.isalnum()]
    if not letters or ("@" in value and "." in value.rsplit("@", 1)[1]):
        return False  # no letter, or an email address
    if all(char in "._-" for char in symbols) and (not digits or value.replace("_", "").replace(".", "").isalpha()):
        return False  # a name of code, a file name
    mixed = value.lower() != value != value.upper()
    strong = any(char in _STRONG_SYMBOLS for char in symbols)
    if strict:
        return strong or (mixed and bool(digits))
    return (bool(digits) and letters >= 2) or (mixed and strong)
