"""Unicode scripts of path names: mixed-script detection after Unicode TR39 (section 5.1).

A name such as ``rеference`` (with a Cyrillic ``е``) looks like ``reference`` but is another
entry; refusing names that mix scripts means no look-alike of a protected tree can sit beside it.
The test is TR39's *resolved script set*: intersect, over the characters of a name, the
*augmented* Script_Extensions of each (Common and Inherited characters, such as digits and
punctuation, belong to every script). An empty intersection is a mixed-script name. Augmented
sets keep Japanese (Han with Hiragana and Katakana), Korean (Han with Hangul) and Chinese with
Bopomofo single-script, as their writers expect.

Script_Extensions come from the ``regex`` package's Unicode tables (imported here only, and only when a name
that is not ASCII is first judged: every process that loads securemem, the CLI's included, would otherwise pay
for the package and its 170 patterns, about 25 ms, to judge ASCII paths that need neither).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex

# Every ISO 15924 script code with characters in Unicode, less Zyyy (Common), Zinh (Inherited)
# and Zzzz (Unknown), which mix with everything.
# fmt: off
SCRIPTS = (
    "ADLM", "AGHB", "AHOM", "ARAB", "ARMI", "ARMN", "AVST", "BALI", "BAMU", "BASS", "BATK", "BENG", "BERF",
    "BHKS", "BOPO", "BRAH", "BRAI", "BUGI", "BUHD", "CAKM", "CANS", "CARI", "CHAM", "CHER", "CHRS", "COPT",
    "CPMN", "CPRT", "CYRL", "DEVA", "DIAK", "DOGR", "DSRT", "DUPL", "EGYP", "ELBA", "ELYM", "ETHI", "GARA",
    "GEOR", "GLAG", "GONG", "GONM", "GOTH", "GRAN", "GREK", "GUJR", "GUKH", "GURU", "HANG", "HANI", "HANO",
    "HATR", "HEBR", "HIRA", "HLUW", "HMNG", "HMNP", "HRKT", "HUNG", "ITAL", "JAVA", "JURC", "KALI", "KANA",
    "KAWI", "KHAR", "KHMR", "KHOJ", "KITS", "KNDA", "KRAI", "KTHI", "LANA", "LAOO", "LATN", "LEPC", "LIMB",
    "LINA", "LINB", "LISU", "LYCI", "LYDI", "MAHJ", "MAKA", "MAND", "MANI", "MARC", "MEDF", "MEND", "MERC",
    "MERO", "MIAO", "MLYM", "MODI", "MONG", "MROO", "MTEI", "MULT", "MYMR", "NAGM", "NAND", "NARB", "NBAT",
    "NEWA", "NKOO", "NSHU", "OGAM", "OLCK", "ONAO", "ORKH", "ORYA", "OSGE", "OSMA", "OUGR", "PALM", "PAUC",
    "PCUN", "PERM", "PHAG", "PHLI", "PHLP", "PHNX", "PRTI", "RJNG", "ROHG", "RUNR", "SAMR", "SARB", "SAUR",
    "SEAL", "SGNW", "SHAW", "SHRD", "SIDD", "SIDT", "SIND", "SINH", "SOGD", "SOGO", "SORA", "SOYO", "SUND",
    "SUNU", "SYLO", "SYRC", "TAGB", "TAKR", "TALE", "TALU", "TAML", "TANG", "TAVT", "TAYO", "TELU", "TFNG",
    "TGLG", "THAA", "THAI", "TIBT", "TIRH", "TNSA", "TODR", "TOLS", "TOTO", "TUTG", "UGAR", "VAII", "VITH",
    "WARA", "WCHO", "XPEO", "XSUX", "YEZI", "YIII", "ZANB",
)
# fmt: on


@functools.cache
def _patterns() -> dict[str, regex.Pattern[str]]:
    import regex  # (see the module's docstring)

    return {code: regex.compile(rf"\p{{scx={code}}}") for code in SCRIPTS}


# TR39's augmentation: the writing systems that combine several scripts.
_AUGMENT = {
    "HANI": ("HANB", "JPAN", "KORE"),
    "HIRA": ("JPAN",),
    "KANA": ("JPAN",),
    "HRKT": ("JPAN",),
    "HANG": ("KORE",),
    "BOPO": ("HANB",),
}
ANY: frozenset[str] = frozenset()  # marker: a character of every script (Common, Inherited)


@functools.lru_cache(maxsize=4096)
def script_set(char: str) -> frozenset[str]:
    """The augmented Script_Extensions of ``char``; ANY (empty) for Common and Inherited."""
    found = {code for code, pattern in _patterns().items() if pattern.match(char)}
    for code in list(found):
        found.update(_AUGMENT.get(code, ()))
    return frozenset(found)


# TR39's "highly restrictive" level also admits Latin with the scripts East Asian writing mixes it
# with, so that a Japanese, Chinese or Korean name with an ASCII extension (メモ.md) stays valid.
_CJK_WITH_LATIN = (
    frozenset({"LATN", "HANI", "HIRA", "KANA", "HRKT", "JPAN", "HANB"}),
    frozenset({"LATN", "HANI", "BOPO", "HANB"}),
    frozenset({"LATN", "HANI", "HANG", "KORE", "HANB"}),
)


def is_mixed_script(name: str) -> bool:
    """True when ``name`` mixes scripts (TR39 5.1, "highly restrictive" 5.2), its extension aside.

    The name is judged whole but for an ASCII extension (the part after its last dot), so an
    extension does not count against the name before it (``Москва.md``), while a look-alike inside
    a part (``rеference``, ``nоtes.md``) is caught, and so are parts of two scripts on either side
    of a dot: an extension of another script (``notes.ехе`` in Cyrillic beside ``notes.exe``), a
    Cyrillic ``е`` before Latin words (``е.notes.md`` beside ``e.notes.md``).
    """
    if name.isascii():
        return False
    stem, dot, extension = name.rpartition(".")
    return _mixes(stem if dot and stem and extension.isascii() else name)


def _mixes(part: str) -> bool:
    if part.isascii():
        return False  # ASCII letters are all Latin; the rest is Common
    sets = [s for s in map(_scripts_of, set(part)) if s]
    if not sets:
        return False
    resolved = set(sets[0]).intersection(*sets[1:])
    if resolved:
        return False
    return not any(all(s & allowed for s in sets) for allowed in _CJK_WITH_LATIN)


@functools.cache
def _ignorable() -> regex.Pattern[str]:
    import regex  # (see the module's docstring)

    return regex.compile(r"\p{Default_Ignorable_Code_Point}")


_JOINERS = frozenset("\u200c\u200d")  # ZWNJ, ZWJ: spelling in Persian, Indic scripts, Sinhala...
# Scripts whose words need no joiner: a joiner beside their letters only hides something.
_NO_JOINERS = frozenset({"LATN", "GREK", "CYRL", "ARMN", "GEOR"})
# CJK characters that read as a slash or a dot beside Latin letters (``reference丿policy.md``), the
# katakana middle dot, and the CJK strokes (U+31C0-U+31E3), which are lines more than letters.
_SEPARATOR_LOOKALIKES = frozenset(
    "\u4e3f\u30ce\u3002\u4e28\u4e36\u30fd\u30fb" + "".join(map(chr, range(0x31C0, 0x31E4)))
)
# CJK characters drawn like a Latin letter, a digit or a dash (Unicode's confusables and their kin):
# the Han 一 丁 工 口 〇 二 十 卜 人 入 八 乙 己 冂 凵 匚 亅 乚 乂 几, the katakana ー ロ エ ニ ト ハ ヘ
# メ レ ソ ン コ ユ, the hiragana へ く し り, and every Hangul jamo and Bopomofo letter, which are
# strokes more than words. Beside Latin letters (``ref一policy``, ``heᅵlo``, ``rロle``, ``工nvoice``)
# they make a look-alike of a Latin name; in CJK text (``一覧``, ``エラー``, ``ロボット``) they spell.
_LETTER_LOOKALIKES = frozenset(
    "\u4e00\u4e01\u5de5\u53e3\u3007\u4e8c\u5341\u535c\u4eba\u5165\u516b\u4e59\u5df1\u5182\u51f5\u531a\u4e85"
    "\u4e5a\u4e42\u51e0"
    "\u30fc\u30ed\u30a8\u30cb\u30c8\u30cf\u30d8\u30e1\u30ec\u30bd\u30f3\u30b3\u30e6"
    "\u3078\u304f\u3057\u308a"
)
_STROKE_LETTERS = frozenset(
    "".join(map(chr, [*range(0x1100, 0x1200), *range(0x3131, 0x318F), *range(0xA960, 0xA980), *range(0xD7B0, 0xD800)]))
    + "".join(map(chr, [*range(0x3105, 0x3130), *range(0x31A0, 0x31C0)]))
)
_LOOKALIKES = _SEPARATOR_LOOKALIKES | _LETTER_LOOKALIKES | _STROKE_LETTERS
# The CJK wave dash, wavy dash and double hyphen: "~" and "=" beside Latin letters (``re〜port``),
# a range or a hyphen in CJK text (``1月〜3月``).
_DASH_LOOKALIKES = frozenset("\u301c\u3030\u30a0")
_CJK = frozenset({"HANI", "HIRA", "KANA", "HRKT", "JPAN", "HANB", "HANG", "KORE", "BOPO"})


def invisible_char(name: str) -> str | None:
    """The first Default_Ignorable_Code_Point of ``name`` (variation selectors, the combining
    grapheme joiner, Hangul fillers...): characters that draw nothing, so ``reference\u034f``
    looks exactly like ``reference``. None if there is none.

    ZWNJ and ZWJ are spelling inside a word of a script that uses them (``می‌خواهم``, ``ශ්‍රී``): they
    pass between two letters or marks of one such script, and nowhere else.
    """
    if name.isascii():
        return None  # every default-ignorable code point is beyond ASCII
    for found in _ignorable().finditer(name):
        at = found.start()
        if not (found.group() in _JOINERS and _joins(name, at)):
            return str(found.group())
    return None


def _joins(name: str, at: int) -> bool:
    if at == 0 or at + 1 >= len(name):
        return False
    before, after = name[at - 1], name[at + 1]
    if before.isascii() or after.isascii() or not (_letter_or_mark(before) and _letter_or_mark(after)):
        return False
    shared = script_set(before) & script_set(after)
    return bool(shared) and not shared & _NO_JOINERS and not shared & _CJK


def _letter_or_mark(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM"


def separator_lookalike(name: str) -> str | None:
    """A CJK character that reads as ``/`` or ``.`` and does not stand in CJK text.

    In ``ノート`` or ``ジョン・スミス`` the katakana ``ノ`` and ``・`` stand among syllables; in
    ``referenceノpolicy.md`` or ``reference-ノノ-policy`` they draw separators between Latin words.
    A run of such characters is judged by the characters on either side of the whole run: it is
    refused unless one of them is a CJK character.
    """
    for at, end in _runs(name, _SEPARATOR_LOOKALIKES):
        if not _beside_cjk(name, at, end):
            return name[at]
    return None


def letter_lookalike(name: str) -> str | None:
    """A CJK character drawn like a Latin letter or a dash, standing among Latin letters and not in
    CJK text (``ref一policy``, ``工nvoice``, ``heᅵlo``; ``Python入門``, ``エラーlog``, ``Pythonノート``
    and ``一覧`` are fine).

    TR39's "highly restrictive" level lets Latin mix with Han, kana and Hangul (``Tシャツ``,
    ``A型``, ``iPhone用``), so mixed-script detection alone lets these through. Judged like the
    separators, by the characters on either side: a Han or kana look-alike alone between Latin
    letters or at the name's edge is refused, and so is a run of them inside a Latin word
    (``g〇〇gle``, ``b口口ks``: no CJK word stands between two Latin letters); a run at the name's
    edge is a word (``ハローworld``, ``Pythonノート``, ``data人口``). A Hangul jamo or Bopomofo
    letter is refused in any run; nothing is in a name with no Latin letter.
    """
    if not any("LATN" in _scripts_of(c) for c in name if c.isalpha()):
        return None
    for at, end in _runs(name, _LOOKALIKES):
        if _beside_cjk(name, at, end):
            continue
        stroke = next((c for c in name[at:end] if c in _STROKE_LETTERS), None)
        if stroke is not None or end - at == 1 or _inside_latin_word(name, at, end):
            return stroke or name[at]
    return None


def _inside_latin_word(name: str, at: int, end: int) -> bool:
    """A Latin letter on both sides of ``name[at:end]``."""
    return at > 0 and end < len(name) and all(_latin_letter(name[i]) for i in (at - 1, end))


def _latin_letter(char: str) -> bool:
    return char.isalpha() and "LATN" in _scripts_of(char)


def dash_beside_latin(name: str) -> str | None:
    """A CJK dash that does not stand in CJK text, judged by the run like the separators."""
    for at, end in _runs(name, _DASH_LOOKALIKES):
        if not _beside_cjk(name, at, end):
            return name[at]
    return None


def _runs(name: str, members: frozenset[str]) -> Iterator[tuple[int, int]]:
    """The (start, end) of each run of ``members`` in ``name``."""
    at = 0
    while at < len(name):
        if name[at] not in members:
            at += 1
            continue
        end = at
        while end < len(name) and name[end] in members:
            end += 1
        yield at, end
        at = end


def _beside_cjk(name: str, at: int, end: int) -> bool:
    return any(_scripts_of(name[i]) & _CJK for i in (at - 1, end) if 0 <= i < len(name))


def _scripts_of(char: str) -> frozenset[str]:
    return ANY if char.isascii() and not char.isalpha() else script_set(char)
