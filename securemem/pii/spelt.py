"""Passwords spelt out character by character, as callers and meetings dictate them (reviewer BM's transcripts):
"the wifi password is capital b, l, lowercase u, e, ... nine, eight, exclamation mark", "lowercase Victor,
lowercase Hotel, ..." (a radio alphabet), "le mot de passe c'est m majuscule, a, r, m, ..., point
d'exclamation".

A run of six spelt characters or more (a letter, said alone or by its radio-alphabet word, with or without a
case word before or after it; a digit said as a word; a symbol's name), two letters among them at least and a case
or a radio-alphabet word (what says it is dictated, not a list: "use a, b, c, d, e, f style options"), with a
password's word before it on its line or on the two lines before (a password asked for, then spelt). Each spelt
character is a token of its own: a word that is none ends the run, so prose ("capital S spring ...") is not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.checksums import iban_valid
from securemem.pii.contact import DIGIT_WORDS
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, index_words
from securemem.pii.secrets import whole_token_type

Hit = tuple[str, int, int]

_CASES = (
    "capital", "uppercase", "upper case", "lowercase", "lower case", "small", "majuscule", "minuscule", "großes",
    "grosses", "kleines", "groß", "klein", "mayúscula", "mayuscula", "minúscula", "minuscula", "maiúscula",
    "maiuscola", "minuscola",
)  # fmt: skip
_RADIO = (
    "alpha", "alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "juliett",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor",
    "whiskey", "whisky", "x-ray", "xray", "yankee", "zulu",
)  # fmt: skip
_SYMBOLS = (
    "exclamation mark", "exclamation point", "question mark", "at sign", "hash", "hashtag", "pound sign", "dollar",
    "dollar sign", "percent", "ampersand", "asterisk", "star", "underscore", "hyphen", "dash", "dot", "period",
    "plus", "equals", "slash", "point d'exclamation", "point d'interrogation", "arobase", "dièse", "tiret",
    "ausrufezeichen", "fragezeichen", "unterstrich", "bindestrich", "raute", "signo de exclamación", "arroba",
    "guion bajo", "ponto de exclamação",
)  # fmt: skip
_DIGIT = "|".join(re.escape(word) for word in sorted(DIGIT_WORDS, key=len, reverse=True) if len(DIGIT_WORDS[word]) == 1)
_CASE = "|".join(re.escape(word) for word in _CASES)
_LETTER = rf"(?:[a-z]|{'|'.join(_RADIO)})"
_CHARACTER = (
    rf"(?:(?:{_CASE})[ \t]+{_LETTER}|{_LETTER}(?:[ \t]+(?:{_CASE}))?|{_DIGIT}|"
    + "|".join(re.escape(word) for word in sorted(_SYMBOLS, key=len, reverse=True))
    + ")"
)
_RUN = lazy_compile(rf"(?<![^\W\d_]){_CHARACTER}(?:(?:[ \t]*,[ \t]*|[ \t]+){_CHARACTER}){{5,40}}(?![^\W\d_'])")
# What says the characters are dictated: a case said, or a radio-alphabet word
_DICTATED = lazy_compile(rf"(?<![^\W\d_])(?:{_CASE}|{'|'.join(_RADIO)})(?![^\W\d_])")
_LETTERED = lazy_compile(rf"(?<![^\W\d_]){_LETTER}(?![^\W\d_])")
_PASSWORD_SAID = lazy_compile(
    r"(?<![^\W\d_])(?:password|passwort|kennwort|mot de passe|contraseña|contrasena|senha|wachtwoord|hasło|haslo"
    r"|lösenord|passcode|passphrase|login|pin)(?![^\W\d_])"
)
_BACK = 200  # characters read back for a password's word: its line and the two before
_MIN_LETTERS = 2


def may_hold_spelt_password(scan: Scan) -> bool:
    """A case said, or a radio-alphabet word rare in prose (found in the scan's one pass over its words): what
    every password dictated here holds; the password's word is looked for after."""
    if not _GATE_WORDS.isdisjoint(scan.words):
        return True
    lower = scan.lower
    return not lower.isascii() and any(word in lower for word in _OTHER_GATE_WORDS)


_GATE_WORDS = index_words(
    "capital", "uppercase", "upper case", "lowercase", "lower case", "majuscule", "minuscule", "klein", "mayuscula",
    "minuscula", "maiuscola", "minuscola", "foxtrot", "yankee", "zulu", "juliet", "quebec", "whiskey", "x-ray",
    "iban",  # (an IBAN named, whose letters may be read in words the gate does not hold: "India Echo six eight")
)  # fmt: skip
_IBAN_SHAPE = lazy_compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}")
_OTHER_GATE_WORDS = ("groß", "mayúscula", "minúscula", "maiúscula")


def find_spelt_passwords(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    for run in _RUN.finditer(lower):
        if len(_LETTERED.findall(run.group())) < _MIN_LETTERS or _DICTATED.search(run.group()) is None:
            continue  # a list of letters ("use a, b, c, d, e, f style options") is no password dictated
        low = max(0, run.start() - _BACK)
        back = lower[low : run.start()]
        lines = back.split("\n")[-3:]
        if _PASSWORD_SAID.search("\n".join(lines)) is not None:
            yield "PASSWORD", run.start(), run.end()
            continue
        # Or, whatever names it, what a provider's rule reads whole once written out ("the access key as: Alfa Kilo
        # India Alfa ... Victor five", an AWS key's id: reviewer CQ); its letters in capitals unless a case is said.
        written = _written_out(run.group())
        kind = whole_token_type(written)
        if kind is None and _IBAN_SHAPE.fullmatch(written) and iban_valid(written):
            kind = (
                "IBAN"  # an IBAN read back in the radio alphabet ("India Echo six eight India Papa ...": reviewer CR)
            )
        if kind is not None:
            yield kind, run.start(), run.end()


_SPELT_SYMBOLS = {"underscore": "_", "hyphen": "-", "dash": "-", "dot": ".", "period": ".", "plus": "+", "slash": "/",
                  "equals": "="}  # fmt: skip
_UPPER_CASES = frozenset({"capital", "uppercase", "majuscule", "großes", "grosses", "groß", "mayúscula", "mayuscula",
                          "maiúscula", "maiuscola"})  # fmt: skip


def _written_out(run: str) -> str:
    """The characters a spelt run says, in order ("" where one cannot be written: an unknown symbol)."""
    words = re.findall(r"[^\s,]+", run.replace("upper case", "uppercase").replace("lower case", "lowercase"))
    out: list[str] = []
    case: str | None = None
    for word in words:
        if word in _CASES or word in ("uppercase", "lowercase"):
            if out and case is None and out[-1].isalpha() and word not in _UPPER_CASES:
                out[-1] = out[-1].lower()  # "Victor lowercase": the case said after its letter
            case = "upper" if word in _UPPER_CASES else "lower"
            continue
        if word in _RADIO or (len(word) == 1 and word.isalpha()):
            letter = "X" if word in ("x-ray", "xray") else word[0].upper()
            out.append(letter.lower() if case == "lower" else letter)
        elif word in DIGIT_WORDS and len(DIGIT_WORDS[word]) == 1:
            out.append(DIGIT_WORDS[word])
        elif word in _SPELT_SYMBOLS:
            out.append(_SPELT_SYMBOLS[word])
        else:
            return ""
        case = None
    return "".join(out)
