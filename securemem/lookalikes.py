"""Look-alikes of plain Latin names that stay inside one script: what mixed-script detection misses.

TR39's mixed-script test (``scripts.py``) refuses ``rеference`` with a Cyrillic ``е``, but a name
can look like another without mixing scripts: a Latin small capital (``rᴇference``), a click letter
drawn as a bar (``heǀǀo``), a mark drawn over a letter or on a letter that has no accented form
(``no̸tes``, ``ı̇nfo``), a dash that is not the ASCII hyphen (``re‐port``), or a name written wholly in
Cyrillic letters that all have Latin twins (``ѕсоре`` reads as ``scope``). TR39 keeps the first four
out of identifiers (their Identifier_Status is not Allowed) and calls the last a whole-script
confusable. Each is a small rule here over ``unicodedata`` and TR39's own tables' choices, with no
data file: NFKC already refuses what it folds (fullwidth and small forms, superscripts, U+2011).
"""

from __future__ import annotations

import unicodedata

from securemem.scripts import ANY, dash_beside_latin, script_set

# Letters that are another drawing of a plain Latin letter and spell no language: the Phonetic
# Extensions blocks (small capitals such as U+1D07 "ᴇ", turned and barred letters), every Latin
# small capital elsewhere (ʀ, ɪ, ꜱ...), the click letters drawn as bars and a "!" (ǀ ǁ ǂ ǃ), and
# IPA's single-storey a and script g. The letters African orthographies use (ɛ ɔ ɣ ʋ ŋ...) stay.
_PHONETIC_BLOCKS = (0x1D00, 0x1DBF)
_CLICKS = frozenset("\u01c0\u01c1\u01c2\u01c3")
_IPA_TWINS = frozenset("\u0251\u0261")
_DOTLESS = frozenset("\u0131\u0237")  # ı, ȷ: with a mark above they are i or j with that mark
# Drawn as the ASCII hyphen but not one (TR39 confusables): NFKC leaves these alone, unlike
# U+2011, U+FE63 and U+FF0D, which the path's NFKC check refuses before any name is looked at.
_MINUS_SIGNS = frozenset("\u2212\u02d7\u2796\u2043")


def phonetic_letter(name: str) -> str | None:
    """The first letter of ``name`` that is a phonetic twin of a plain Latin letter, or None."""
    for char in name:
        if not char.isascii() and _is_phonetic(char):
            return char
    return None


def _is_phonetic(char: str) -> bool:
    if _PHONETIC_BLOCKS[0] <= ord(char) <= _PHONETIC_BLOCKS[1] or char in _CLICKS or char in _IPA_TWINS:
        return True
    return unicodedata.name(char, "").startswith("LATIN LETTER SMALL CAPITAL")


def disguising_mark(name: str) -> str | None:
    """The first combining mark of ``name`` that disguises a letter rather than spelling one.

    The path is NFC, so every accented letter that exists is already one character: a mark still
    standing after an ASCII character (``no̸tes``, ``i̇nfo``) makes a letter no language writes.
    Marks after a dotless ``ı`` or ``ȷ`` draw the dotted letter (``ı̇nfo`` is ``info``), and the
    overlays (combining class 1: strokes, slashes and rings drawn through a letter) belong to no
    script's spelling. Marks on other letters (Yoruba ``ẹ́``, Russian stress ``мо́ре``) are spelling.
    """
    for at, char in enumerate(name):
        if at == 0 or not unicodedata.category(char).startswith("M"):
            continue
        base = _base_of(name, at)
        if base.isascii() or base in _DOTLESS or _is_overlay(char):
            return char
    return None


def _base_of(name: str, at: int) -> str:
    while at > 0 and unicodedata.category(name[at]).startswith("M"):
        at -= 1
    return name[at]


def _is_overlay(mark: str) -> bool:
    # Script-owned overlays (Vedic signs, Bassa Vah tones) are spelling in their script.
    return unicodedata.combining(mark) == 1 and script_set(mark) == ANY


def hyphen_lookalike(name: str) -> str | None:
    """The first character of ``name`` drawn as a hyphen that is not the ASCII ``-``.

    Every dash of no script of its own (U+2010 hyphen, figure, en and em dashes, U+2E17...) and the
    minus signs. A script's own hyphen (Armenian, the Hebrew maqaf, Mongolian) spells in that
    script; beside Latin letters it is mixed-script. The CJK wave dash and double hyphen read as
    ``~`` and ``=`` beside Latin letters and digits and are judged like the other CJK look-alikes.
    """
    for char in name:
        if char != "-" and (char in _MINUS_SIGNS or _is_common_dash(char)):
            return char
    return dash_beside_latin(name)


def _is_common_dash(char: str) -> bool:
    if unicodedata.category(char) != "Pd":
        return False
    scripts = script_set(char)
    return scripts == ANY or "LATN" in scripts


# Letters of Cyrillic, Greek, Armenian and Cherokee drawn exactly as a plain Latin letter (TR39's
# confusables with an ASCII prototype). Not here: the small-capital shapes (Cyrillic в к м н т,
# Greek κ τ), which stand as tall as x and read as their own letters beside one another (Москва).
_LATIN_TWINS = {
    **dict(zip("аеорсухѕіјԁԛԝӏһүѵҽѡг", "aeopcyxsijdqwlhyvewr", strict=True)),  # Cyrillic
    **dict(zip("АВЕКМНОРСТХЅІЈУҮӀԜԌѴ", "ABEKMHOPCTXSIJYYlWGV", strict=True)),
    **dict(zip("αινορυχϲϳ", "aivopuxcj", strict=True)),  # Greek
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹͿϜ", "ABEZHIKMNOPTYXCJF", strict=True)),
    **dict(zip("օսոհցզգՕՍՏ", "ounhgqqOUS", strict=True)),  # Armenian
    **dict(zip("ᎠᎡᎢᎥᎩᎪᎫᎬᎳᎷᎻᎽᏀᏂᏃᏏᏒᏔᏕᏙᏚᏞᏟᏢᏦᏧᏳᏴ", "DRTiYAJEWMHYGhZbRWSVSLCPKdGB", strict=True)),  # Cherokee
}


def latin_twin(name: str) -> str | None:
    """The Latin name that ``name`` reads as when every letter of it has a Latin twin, else None.

    ``ѕсоре`` reads as ``scope`` (TR39's whole-script confusable); ``Москва``, ``данные`` and
    ``Αθήνα`` have letters of their own and read as nothing else. ASCII digits, punctuation and an
    extension (``ѕсоре.md``) belong to the Latin reading too; marks are set aside (``ѕсо́ре``).
    """
    twin, decomposed = [], unicodedata.normalize("NFD", name)
    for char in decomposed:
        if unicodedata.category(char).startswith("M"):
            continue
        if char.isascii() or char in _LATIN_TWINS:
            twin.append(_LATIN_TWINS.get(char, char))
        elif char.isalpha() or script_set(char) != ANY:
            return None  # a letter of its own script: the name reads as itself
    reading = "".join(twin)
    return reading if any(char in _LATIN_TWINS for char in decomposed) else None
