r"""The normalised view that detectors scan, and the map from its offsets back to the original text.

An adversarial writer (or a model told to slip a value past the scrubber) can spell a value so that
it reads the same to a person but not to a regular expression: fullwidth or other-script digits
(U+FF14, Arabic-Indic U+0664), a fullwidth at sign (U+FF20), a zero-width space or a bidi control inside a card number,
Unicode dashes and no-break spaces as separators, Cyrillic letters that look Latin inside a key
prefix. Detectors never see the original: they see a *view* in which

- invisible format characters (Unicode category Cf: zero-width spaces and joiners, bidi controls,
  the soft hyphen, word joiners, tag characters), combining marks (Mn, Me), control characters
  other than tab and line breaks, and a few blank letters (Hangul fillers, braille blank) are
  removed; but a run of tag characters that stands as a word of its own is read as the ASCII it
  copies (see ``_tag_run``);
- every decimal digit of any script becomes its ASCII digit;
- every space separator becomes " ", every dash (Pd, the minus sign) becomes "-", the ideographic
  full stop becomes ".", colons NFKC keeps (the modifier letter colon, Ethiopic's) become ":";
- letters that are visually Latin in Cyrillic and Greek become Latin (Cyrillic A, K, I in a key
  prefix read as "AKIA");
- everything else is NFKC-normalised character by character (fullwidth forms, mathematical
  alphanumerics, circled and superscript digits, ligatures); what NFKC leaves alone but is still
  drawn as a digit or a Latin letter becomes one (dingbat digits such as U+2776, negative circled
  and squared letters, regional indicator letters);
- inside a number, the letters that stand in for digits become them: O and o for 0, l and I for 1
  ("+44 7700 9OO l23", "4lll 1111 ..."), and OCR's S for 5 and B for 8 after one of its digits
  ("(713) 494-8B75"), when the groups around them hold enough real digits for the whole to be a
  number (see ``letters_as_digits``).

- escapes become their character: in JSON (``\u0040``) and HTML (``&#64;``, ``&#x40;``) any
  printable ASCII character, and any other as the view reads that character (``\u00a0`` and ``&#8209;``: a
  space and a dash, ``&#8203;`` nothing), ``&commat;``, ``&plus;`` and ``&period;``, and in a URL the
  percent-escapes of "@", "+", ".", " " and "-" (``%40``, ``%2B``, ``%20``...); ``\"`` a quote (JSON inside a
  JSON string), a defanged address's ``[.]``, ``[dot]`` and ``[:]`` (``[:][:]`` too) their character, and
  markdown's ``\-``, ``\_`` and ``\.`` their character, ``\@`` after a letter or a digit "@". The escape's first
  character stands for
  its character and the others are dropped.

Each character of the view comes from exactly one character of the original, so a span found in
the view maps back to the whole original span: the replacement covers the invisible characters
inside a value, and the combining marks that follow its last character. ASCII text without control
characters is its own view (no copy, no map).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from functools import lru_cache

from securemem.pii.patterns import lazy_compile

# Characters that are not plain printable ASCII (tab, LF, CR and space to tilde are).
_IRREGULAR_RUN = lazy_compile(r"[^\t\n\r\f\v\x20-\x7e]+")
_KEEP_CONTROLS = frozenset("\t\n\r\f\v")
# Printable ASCII and the whitespace controls: text made only of these is its own view.
_PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\t\n\r\x0b\x0c"
# Letters that render blank although their category says "letter" or "symbol".
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_DASHES = frozenset("\u2212\u2043\ufe63\uff0d\u2e3a\u2e3b\u2053")  # ... and the swung dash "⁓"
# Full stops of other scripts, and the middle dots a paper form or a typist puts between groups
# ("308·84·5030", "030・1234"): read as a dot. (Not bullets: "Tracks: 1•2•3•4" is a list, no address: an attacker's
# round.)
_STOPS = dict.fromkeys("\u3002\uff61\u2024\u00b7\u30fb\u2027\u22c5", ".")
_SLASHES = frozenset("\u2044\u2215")  # fraction and division slashes, which NFKC keeps
# Colons NFKC keeps: the modifier letter colon drawn in an address's place ("2804\ua78914c\ua7894dc8...",
# reviewer BJ), and Ethiopic's colon and preface colon after a label ("\u12e8\u12ed\u1208\u134d \u1243\u120d\u1366
# ...": reviewer BJ). Not the ratio sign: "pass\u2236merit\u2236distinction = 40\u223635\u223625" is a ratio (an
# attacker's round).
_COLONS = frozenset("\ua789\u1365\u1366")
_READ_AS = {**_STOPS, **dict.fromkeys(_COLONS, ":")}  # what stops and colons are read as
# Digits NFKC writes with brackets or a stop ("⑴" U+2474, "⒈" U+2488, "🄁" U+1F101).
_DECORATED_DIGITS = lazy_compile(r"\(([0-9]+)\)|([0-9]+)[.,]")
# Cyrillic and Greek letters that are drawn like Latin ones (Unicode confusables, the common part).
_CONFUSABLES = dict(
    zip(
        "АВЕКМНОРСТХУаеорсуххіјѕԁԛԝѵһӏІЈЅΑΒΕΖΗΙΚΜΝΟΡΤΥΧοινκρӀǀ",
        "ABEKMHOPCTXYaeopcyxxijsdqwvhlIJSABEZHIKMNOPTYXoivkpIl",
        strict=True,
    )
)
# ... and more of them: Cyrillic ka and Komi letters, Armenian letters drawn like Latin ones, Latin
# script g and dotless i, Lisu capitals.
_CONFUSABLES.update(
    {
        "\u043a": "k",  # к
        "\u050c": "G",  # Ԍ
        "\u050d": "g",  # ԍ
        "\u051a": "Q",  # Ԛ
        "\u051c": "W",  # Ԝ
        "\u0585": "o",  # օ
        "\u057d": "u",  # ս
        "\u0578": "n",  # ո
        "\u0570": "h",  # հ
        "\u0581": "g",  # ց
        "\u0261": "g",  # ɡ
        "\u03c7": "x",  # χ
        "\u03b1": "a",  # α
        "\u03b5": "e",  # ε
        "\u03c4": "t",  # τ
        "\u03c5": "u",  # υ
        "\u04bd": "e",  # ҽ
        "\u054f": "S",  # Տ
        "\u054d": "U",  # Ս
        "\u0555": "O",  # Օ
        "\u0131": "i",  # ı
        "\u212e": "e",  # ℮ (estimated symbol)
        "\u0269": "i",  # ɩ
        "\ua4da": "C",  # ꓚ
        "\ua4d0": "B",  # ꓐ
        "\ua4f0": "E",  # ꓰ
        "\ua4d3": "D",  # ꓓ
        "\ua4e1": "L",  # ꓡ
        "\ua4e2": "S",  # ꓢ
        "\ua4d1": "P",  # ꓑ
        "\ua4e6": "V",  # ꓦ
    }
)


@lru_cache(maxsize=8192)
def fold(char: str) -> str:
    """What one character of the original becomes in the view ("" when it is dropped)."""
    category = unicodedata.category(char)
    if category in ("Cf", "Mn", "Me", "Cs", "Co") or char in _BLANK:
        return ""
    if category == "Cc":
        return char if char in _KEEP_CONTROLS else ""
    if category == "Nd":
        return str(unicodedata.decimal(char))
    if category == "Zs":
        return " "
    if category in ("Zl", "Zp"):
        return ""  # U+2028, U+2029: dropped as the other Unicode line break, NEL (U+0085), is
    if category == "Pd" or char in _DASHES:
        return "-"
    if char in _READ_AS:
        return _READ_AS[char]
    if char in _SLASHES:
        return "/"
    if char in _CONFUSABLES:
        return _CONFUSABLES[char]
    folded = unicodedata.normalize("NFKC", char)
    if folded == char:
        return _drawn_as(char)
    if category == "No" and (decorated := _DECORATED_DIGITS.fullmatch(folded)) is not None:
        return decorated[1] or decorated[2]  # "⑴" is "(1)" and "⒈" "1." to NFKC: the digit alone
    if folded.isascii():
        return folded
    # NFKC can leave marks or other-script digits behind ("①" is fine, "ǅ" too): fold those as well.
    return "".join(fold(part) if part != char else part for part in folded)


# The names of symbols drawn as a Latin letter that NFKC keeps: "NEGATIVE SQUARED LATIN CAPITAL LETTER A",
# "REGIONAL INDICATOR SYMBOL LETTER D".
_LETTER_NAME = lazy_compile(r"(?:LATIN (?:CAPITAL|SMALL) LETTER|SYMBOL LETTER) ([A-Z])$")


_DIGIT_NAMES = ("ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")
_DIGIT_NAME = lazy_compile(rf"\bDIGIT ({'|'.join(_DIGIT_NAMES)})$")


def _drawn_as(char: str) -> str:
    """A digit or a Latin letter for a symbol drawn as one (NFKC leaves these alone), else ``char``."""
    if char.isascii():
        return char
    category = unicodedata.category(char)
    if category == "No":
        value = unicodedata.digit(char, None)  # "❶" (U+2776), "➀" (U+2780): digits without a decomposition
        if value is None:  # "🄋" (U+1F10B), a dingbat's zero, has no digit value: its name says it
            named = _DIGIT_NAME.search(unicodedata.name(char, ""))
            return char if named is None else str(_DIGIT_NAMES.index(named[1]))
        return str(value)
    if category == "So":
        found = _LETTER_NAME.search(unicodedata.name(char, ""))
        if found is not None:
            return found[1] if "SMALL" not in unicodedata.name(char) else found[1].lower()
    return char


# ---------------------------------------------------------------- numerals written one by one

# Chinese and Japanese write a phone number or a code digit by digit in their numerals ("一三九 六三九九
# 二〇二九", "〇九〇・一八八八・七八二七", "認証コード：五三三六九七"; Chinese dictation's "幺" for one: reviewers
# AD, AF, AH, AJ). No Unicode decimal digits, so the fold leaves them; a run of six or more, maybe in groups
# one blank, dash or dot apart, is read as the digits it spells (same length: offsets stay). A shorter run
# is a word or a number in words ("二〇二四年", "三十五": "十" is no digit), left alone.
_NUMERALS = "〇零一二三四五六七八九幺"

# Digits may stand among them ("13九6三99二0二9", "一三九６３９９２０２９": an attacker's round); two numerals
# at least, so a number with one beside it ("12345一个") stays as written.
# Japanese reads a dash between groups as "の" ("〇八〇の三六九七の八四三四": reviewer CN), in katakana too ("ノ"): read
# as the dash.
_GROUP_MARKS = " \\-.・"  # what sets a number's groups apart in any reading
_SAID_DASHES = "のノ"  # ... and Japanese's, only between a phone's groups (see _run_as_digits)
_NUMERAL_RUN = lazy_compile(rf"[{_NUMERALS}0-9](?:[{_GROUP_MARKS}{_SAID_DASHES}]?[{_NUMERALS}0-9]){{5,}}")
_NUMERAL_RUN_PLAIN = lazy_compile(rf"[{_NUMERALS}0-9](?:[{_GROUP_MARKS}]?[{_NUMERALS}0-9]){{5,}}")
_NUMERAL_DIGITS = str.maketrans(_NUMERALS + _SAID_DASHES, "00123456789" + "1" + "-" * len(_SAID_DASHES))
_NUMERALS_MIN = 2


def numerals_as_digits(text: str) -> str:
    """``text`` with each run of six or more of Chinese's and Japanese's numerals (and digits) read as
    digits, and the katakana long mark between two digits read as the dash it is typed for
    ("+81 3ー6207ー1599", "03 ー 6207 ー 1599", between numerals too: an IME's "-"; in a word, "パスワード", it
    stays)."""
    if "\u30fc" in text:
        text = _LONG_MARK.sub("-", text)
    return _NUMERAL_RUN.sub(_run_as_digits, text)


# (between numerals too: "〇八〇ー三六九七ー八四三四", an attacker's round on reviewer CN's readers)
_LONG_MARK = lazy_compile(
    rf"(?<=[0-9{_NUMERALS}])\u30fc(?=[0-9{_NUMERALS}])|(?<=[0-9{_NUMERALS}] )\u30fc(?= [0-9{_NUMERALS}])"
)


def _run_as_digits(run: re.Match[str]) -> str:
    found = run.group()
    if any(dash in found for dash in _SAID_DASHES) and not _PHONE_GROUPS.fullmatch(found):
        # "の" is a dash only between a phone's three groups led by its trunk's zero: not in a patent's or a standard's
        # number and year ("特許第六一二三四五六の二号", "JIS X 〇二〇八の一九九七"), nor "the 10000th of 10000" (an
        # attacker's round); each part is read as it was before
        return _NUMERAL_RUN_PLAIN.sub(_run_as_digits, found)
    if sum(found.count(numeral) for numeral in _NUMERALS) < _NUMERALS_MIN:
        return found
    return found.translate(_NUMERAL_DIGITS)


_PHONE_GROUPS = lazy_compile(
    rf"[〇零0][{_NUMERALS}0-9]{{1,4}}([{_SAID_DASHES}])[{_NUMERALS}0-9]{{2,4}}\1[{_NUMERALS}0-9]{{2,4}}"
)


# ---------------------------------------------------------------- letters standing for digits

# A canonical copy of the text for finding numbers with letters in them: digits become "0", the
# letters that stand for digits "L", separators "-", other word characters "x", the rest " ".
_STAND_INS = "OoIlSB"
_AS_DIGITS = str.maketrans("OoIlSB", "001158")
_INNER_ONLY = "SB"  # OCR's "S" for 5 and "B" for 8: after a digit of the number, before a digit ("4070S", "IS95")
_LETTER_TABLE = bytes(
    ord("0")
    if chr(code).isdigit()
    else ord("L")
    if chr(code) in _STAND_INS
    else ord("-")
    if chr(code) in " .-/()+"
    else ord("x")
    if chr(code).isalnum() or chr(code) == "_"
    else ord(" ")
    for code in range(256)
)
# Where a run of digits touches one of those letters, directly or across one or two separators, and
# the letter is not part of a word ("to 182", "95 latency", "10 Oct" are words beside numbers). Led
# by the first digit of a run (the lookbehinds come after it): the engine skips from digit to digit at
# C speed and tries each run once, and ordinary text has few digits.
_TOUCH = lazy_compile(rb"0(?<!00)(?:(?<=L0)(?<!xL0)|(?<=L-0)(?<!xL-0)|(?<=L--0)(?<!xL--0)|0*+-{0,2}+L(?!x))")
# A run of groups of digits and stand-in letters with at most two separators between groups.
_LETTER_RUN = lazy_compile(rb"[0L]++(?:-{1,2}+[0L]++)*+")
_GROUP = lazy_compile(rb"[0L]+")
_0, _L = ord("0"), ord("L")
_RUN_DIGITS = 6  # real digits a run needs before its letters are read as digits
_LETTER_GROUP = 4  # a group of letters alone ("lO" for "10") is at most this long


def letters_as_digits(text: str, encoded: bytes | None = None) -> str:
    """``text`` with O, o, I, l, S and B read as digits where they sit inside a number (same length).

    A run of groups of digits and those letters, separated by at most two of " .-/()+", is a number
    when its groups at either end hold a real digit, it holds at least six real digits, no more
    letters than digits, and no group of letters alone longer than four. Groups glued to a word
    ("v2", "A320neo", "l0l0x") are not part of a run. Prose keeps its words: "lol 2024", "I/O 100",
    "room 1O1" and "OOO until 10 Oct" are left alone. S and B are read so only after a digit of
    the number and never as its last character ("4070S", "IS95 0003...", "IT14 B050..." keep
    theirs). ``encoded`` is ``text`` encoded as ASCII, when the caller has it.
    """
    # Other characters become "?" one for one (a boundary, like punctuation): offsets stay aligned.
    canonical = (text.encode("ascii", "replace") if encoded is None else encoded).translate(_LETTER_TABLE)
    # Byte values, not one-byte strings: `int in bytes` is a memchr, while `bytes in bytes` first
    # tries its operand as an integer and builds (and drops) an exception, at every call.
    if _L not in canonical or _0 not in canonical:  # most text stops here or below
        return text
    pieces: list[str] = []
    done = position = 0
    for touch in _TOUCH.finditer(canonical):
        hit = touch.start()
        if hit < position:
            continue  # inside a run already read
        start = hit
        while start > position and canonical[start - 1] in b"0L-":
            start -= 1
        while canonical[start] == 0x2D:  # "-": the run starts at its first group
            start += 1
        run = _LETTER_RUN.match(canonical, start)
        if run is None or run.end() <= hit:  # three separators or more on the way back: a run of its own
            run = _LETTER_RUN.match(canonical, hit)
        assert run is not None  # a touch starts with a digit
        low, high = _number_within(text, canonical, run.start(), run.end())
        if low < high:
            pieces += (text[done:low], text[low:high].translate(_AS_DIGITS))
            done = high
        position = max(run.end(), hit + 1)
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _nanp_trunk(text: str, groups: list[tuple[int, int]], at: int = 0) -> bool:
    """The groups from ``at`` are one "l", a dash, then groups of three, three and four: "l-489-682-6892" (not an
    "I", a roman numeral's as often: "Step I-800-...", nor "l" and a space: an attacker's round)."""
    if len(groups) - at != 4:  # (counted, not listed: a list of every group's length per group was quadratic)
        return False
    first, last = groups[at]
    return (
        last - first == 1
        and text[first] == "l"
        and [b - a for a, b in groups[at + 1 :]] == [3, 3, 4]
        and text[last] == "-"
    )


def _number_within(text: str, canonical: bytes, start: int, end: int) -> tuple[int, int]:
    """The span of the run [start, end) to read as a number, or an empty span."""
    groups = [match.span() for match in _GROUP.finditer(canonical, start, end)]
    if start > 0 and canonical[start - 1] == ord("x"):
        groups = groups[1:]  # glued to the word before it
    if groups and end < len(canonical) and canonical[end] == ord("x"):
        groups = groups[:-1]  # glued to the word after it
    # A group of letters alone ends the number, except a country code right after "+" ("+l 97l ...").
    # (an index, not a copy of the list per group dropped: "l " * n was quadratic, an attacker's round)
    at = 0
    while at < len(groups) and _0 not in canonical[groups[at][0] : groups[at][1]]:
        first, last = groups[at]
        # (or OCR's "l" for the "1" before a North American number: "Fax: l-489-682-6892", reviewer BO)
        if (first > 0 and text[first - 1] == "+" and last - first <= 3 and len(groups) - at > 1) or _nanp_trunk(
            text, groups, at
        ):
            break
        at += 1
    groups = groups[at:]
    # A last group of letters alone ends the number too, unless it is three or four long after
    # groups holding six digits or more ("(212) 736-lOOO", "5l8l 674O 7557 lOlO").
    while groups and _0 not in canonical[groups[-1][0] : groups[-1][1]]:
        first, last = groups[-1]
        if 3 <= last - first <= _LETTER_GROUP and len(groups) > 1:
            held = canonical[groups[0][0] : groups[-2][1]].count(b"0")
            if held >= _RUN_DIGITS:
                break
        groups = groups[:-1]
    if not groups:
        return 0, 0
    low, high = groups[0][0], groups[-1][1]
    chunk = canonical[low:high]
    real = chunk.count(b"0")
    letters = chunk.count(b"L")
    if not letters or real < _RUN_DIGITS or letters > real:
        return 0, 0
    if any(_0 not in canonical[a:b] and b - a > _LETTER_GROUP for a, b in groups):
        return 0, 0
    if text[high - 1] in _INNER_ONLY:
        return 0, 0
    if not all(
        _after_digit(canonical, low, at) and _inside_group(text, canonical, at) for at in _inner_only(text, low, high)
    ):
        return 0, 0  # "3B 12 34", "12B 14B": a byte, a seat, a slot; OCR's letter sits inside its group
    return low, high


def _inner_only(text: str, low: int, high: int) -> list[int]:
    return [at for at in range(low, high) if text[at] in _INNER_ONLY]


def _inside_group(text: str, canonical: bytes, at: int) -> bool:
    """A digit follows ``at``, or ``at`` ends a group of four as a card's groups are ("231S 6942 ...")."""
    if text[at + 1].isdigit():
        return True
    return canonical[at - 3 : at + 1].count(_0) + canonical[at - 3 : at + 1].count(_L) == 4 and (
        at < 4 or canonical[at - 4] == 0x2D
    )


def _after_digit(canonical: bytes, low: int, at: int) -> bool:
    """A real digit of the number (which starts at ``low``) comes before ``at``, maybe across
    separators ("4S0", "801-S22"; not "IS95", an Icelandic IBAN's country, nor "IT14 B050", an
    Italian IBAN's letter after a group glued to its country)."""
    at -= 1
    while at >= low and canonical[at] == 0x2D:  # "-"
        at -= 1
    return at >= low and canonical[at] == _0


# Escapes of the characters that make an email, a phone or a JSON key-value pair (see above).
# Percent-escapes read (others keep a URL's meaning): "@", "+", ".", a space and a dash, which a phone,
# a card or an address is written with ("tel=%2B44%207700%20900123").
# Inline markup, which a reader sees no break at ("<b>jonas.weber</b>@<i>gmx.de</i>", "<i>4111</i> 1111
# 1111 1111", "F<b>I09 5076 ..."): a bare tag (no attribute) touching anything but a blank is dropped
# from the view, so that the value is read, and its look-alike letters are read, as a reader sees it.
# A tag with attributes stays (what an attribute holds is scanned where it stands, under its own type's
# action): detectors.py reads the text across it again (_markup_hits), as it does across comments and
# markdown's emphasis. Neither <sup> nor <sub> (a footnote's mark after a value is not part of it),
# nor <code> (code's "@" is a decorator's: "<code>app</code>@<code>router.get</code>"), nor block
# elements (table cells and list items side by side are separate values).
_INLINE_NAMES = (
    r"(?i:a|abbr|b|bdi|bdo|big|cite|data|del|dfn|em|font|i|ins|kbd|mark|nobr|q|s|samp|small|span|strike"
    r"|strong|time|tt|u|var|o:p)"  # not other namespaced or custom elements: "<wsse:Password>" names its value
)
_BARE_TAG = rf"</?{_INLINE_NAMES}[ \t]*/?>"
# An attribute's value may hold ">" inside its quotes.
_ATTRIBUTED_TAG = rf"""<{_INLINE_NAMES}\s(?:[^<>"']|"[^"<]{{0,256}}"|'[^'<]{{0,256}}'){{1,256}}/?>"""
# A form's label: read across by detectors.py, never dropped from the view (a label's text glued to
# its value, "<label>Telefon</label><span>+49 30 ...", would hide the value). Not custom elements: a
# placeholder is written as one ("password: <your-password>").
OTHER_TAGS = r"(?:</?(?i:label)(?:\s[^<>]{0,256})?/?>)+"
# Every piece of markup a value's form is made without (a token names what a reader sees).
MARKUP = lazy_compile(
    rf"{_BARE_TAG}|{_ATTRIBUTED_TAG}|{OTHER_TAGS}|<!--[^<>]{{0,256}}?-->"
    # emphasis at a word's edge, not inside a name ("first__last@example.org" is another mailbox)
    r"|(?<![\w*])\*{1,3}(?=\w)|(?<=\w)\*{1,3}(?![\w*])|(?<!\w)__(?=\w)|(?<=\w)__(?!\w)|(?<!\w)~~(?=\w)"
    r"|(?<=\w)~~(?!\w)"
)
ATTRIBUTED_TAGS = lazy_compile(
    rf"(?:{_ATTRIBUTED_TAG}|{_BARE_TAG})*{_ATTRIBUTED_TAG}(?:{_ATTRIBUTED_TAG}|{_BARE_TAG})*"
)
# and "=", "&" and "?" (a URL's query encoded inside another's: "...%3Faccess_token%3Db6zU...%26expires_in%3D3600",
# a base64 value's padding "%3D": reviewer BW)
_ESCAPED = {
    "40": "@",
    "2b": "+",
    "2e": ".",
    "20": " ",
    "2d": "-",
    "3a": ":",
    "2f": "/",
    "3d": "=",
    "26": "&",
    "3f": "?",
}
_ESCAPE = lazy_compile(
    r"%(?:25)?(?P<pct>40|2[bBeEdD0fF6]|3[aAdDfF])"  # and escaped twice, as a redirect's URL inside another ("%2540")
    # What a page or a mail hides inside a word and a reader never sees: an HTML line-break hint
    # ("noor<wbr>@<wbr>bank<wbr>.com"), a soft hyphen or a zero-width space written as an entity;
    # markdown's bold around a group of digits ("4750 **6495** 1749"); a soft line break of
    # quoted-printable ("lotte@ayurm=\ned-hospitals.in", read only in text that names the encoding).
    # Tags between a word and a number read as a space: a label's ("<b>Phone</b>0151 ...", "OTP</b>839201").
    rf"|(?<=[^\W\d_])(?P<spaced_tag>(?:{_BARE_TAG})+)(?=[0-9+])"
    r"|(?P<hidden><wbr ?/?>|&(?:shy|ZeroWidthSpace|zwj|zwnj|#173|#8203|#x[aA][dD]|#x200[bB]);"
    rf"|(?P<glued>(?<=\S)(?:{_BARE_TAG})+|(?:{_BARE_TAG})+(?=\S))"
    # the marks opening each line of a quoted message or a markdown quote ("> Password:" then
    # "> Hunter2!xyz"): what the lines say is read as if unquoted, where the line before is quoted as
    # deep (checked in _escapes: "PIN:" then ">> 2024-05-01" stays apart)
    r"|(?:\A|(?<=\n))(?P<quoted>[ \t]{0,3}(?:>[ \t]?)+)"
    r"|\x1b\[[0-9;]{0,16}[mKJHABCDEFGfsu]"  # a terminal's colour or cursor code pasted from a log
    r"|(?<![^\s(\-])\*\*(?=[0-9])|(?<=[0-9])\*\*(?![^\s.,;:)\-])"  # "**4352**-**9820**-...": reviewer BE
    r"|(?<=[A-Za-z0-9][-_])\*\*(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])\*\*(?=\s|[.,;:)]|$))"
    # An address read out: "183 dot 180 dot 74 dot 5", "78 (dot) 46 (dot) ..." (reviewer AX; a space kept
    # on each side stays a space)
    r"|(?<=[0-9]) (?P<spoken>dot|\(dot\)|\[dot\]) (?=[0-9])"
    # ... in Indonesian, German, Spanish, Portuguese, French and Turkish ("172 titik 28 titik 154 titik 75": reviewer
    # CK; Russian's: reviewer CN), only in four numbers shaped as an address or named so (see _spoken_address)
    r"|(?<=[0-9]) (?P<spoken_other>(?i:titik|punkt|punto|ponto|point|nokta|точка)) (?=[0-9])"
    r"|(?<=[^\s=])(?P<soft>=\r?\n)(?=[^\s])"
    # quoted-printable's "@" between a local part and a domain ("elodiefon138=40laposte.net": reviewer CQ), read only
    # in text that is quoted-printable (named so, or holding its escapes of UTF-8: "r=C3=A9pondre")
    # (its "." too, "=2E", between two letters or digits: "elodie=2Efontaine=40laposte=2Enet", an attacker's round)
    r"|(?<=[A-Za-z0-9._\-])(?P<qp_at>=40)(?=[A-Za-z0-9][A-Za-z0-9\-]*(?:\.|=2E|=\r?\n)[A-Za-z])"
    r"|(?<=[A-Za-z0-9])(?P<qp_dot>=2E)(?=[A-Za-z0-9])"
    # A long line of iCalendar or vCard folded (RFC 5545 3.1: a line break and one blank go; read only in text that
    # opens such a component): "mailto:olivia.brenna\r\n n@northbridgebank.co.uk" (reviewer BX)
    r"|(?<=\S)(?P<fold>\r?\n[ \t])(?=[^\s>])"  # (not a quoted line's mark: " > OTP:\n > 839201")
    # A defanged address, as threat reports write them ("199[dot]53[dot]107[dot]168", "31[.]155.119.24",
    # "2a00[:]1450[:]...", "63(.)230(.)72(.)122"), and markdown's escaped dash and underscore ("sk\-svcacct\-...").
    r"|(?<=[A-Za-z0-9])(?:\[(?P<defanged>\.|dot|:)\]|[({<](?P<defanged_dot>\.|dot)[)}>])(?=[A-Za-z0-9])"
    # IPv6's "::" defanged as "[:][:]" ("2804[:]14c[:]f4ae[:][:]8cf8": reviewer BC)
    r"|(?:(?<=[A-Za-z0-9])(?=\[:\]\[:\][A-Za-z0-9])|(?<=[A-Za-z0-9]\[:\])(?=\[:\][A-Za-z0-9]))(?P<defanged_colon>\[:\])"
    # ... and "@" escaped after a letter or a digit too ("zofia\_szymanska\@onet\.pl": reviewer BC)
    r"|(?:\\(?P<markdown>[-_.+])|(?<=[A-Za-z0-9])\\(?P<markdown_at>@))(?=[A-Za-z0-9])"  # "[a-z]+\@x" is a regex
    # A line break written as HTML ("<b>OTP:</b><br>839201", "4111 1111<br>1111 1111"): a break, as read
    r"|(?P<br><[bB][rR][ \t]*/?[ \t]*>)"
    r"|\\u00(?P<json>[2-6][0-9a-fA-F]|7[0-9a-eA-E])"
    # ... and any other character a JSON serialiser escaped ("+33\\u00a07\\u00a035...", "\\u200b"),
    # read as the view reads that character (a no-break space is a space, a zero-width one nothing)
    r"|\\u(?P<json4>00[a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-cA-CeEfF][0-9a-fA-F]{3}|[dD][0-7][0-9a-fA-F]{2})"
    r"|&#(?:[xX]0{0,4}(?P<hex>[2-6][0-9a-fA-F]|7[0-9a-eA-E])|0{0,4}(?P<dec>3[2-9]|[4-9][0-9]|1[01][0-9]|12[0-6]));"
    r"|&(?P<name>commat|plus|period|nbsp|ndash|mdash|minus|hyphen|dash|lpar|rpar|sol|thinsp|ensp|emsp|shy|zwnj|zwj);"
    r"|&#(?P<nbsp>160|[xX]0{0,2}[aA]0);"
    # ... and any other character (from U+00A1 on) written as an HTML number, read as the view reads that character,
    # as JSON's "\uXXXX" is ("602&#8209;58&#8209;0537", a no-break hyphen's: reviewer CX; "&#8203;" a zero-width
    # space's, dropped; "&#120783;" a mathematical digit's)
    # (Windows-1252's dashes and quotes as browsers read "&#150;" and "&#151;" too: an attacker's round)
    r"|&#(?:[xX]0{0,8}(?P<html_hex>[1-9a-fA-F][0-9a-fA-F]{1,5})|0{0,8}(?P<html_dec>[1-9][0-9]{2,6}));"
    # "max.schneider(a)gmx.de": "(a)" glued between a local part and a domain, as German letters write "@"
    r"|(?<=[A-Za-z0-9])\((?P<glued_at>a)\)(?=[A-Za-z0-9][A-Za-z0-9\-]*\.[A-Za-z])"
    # JSON's escaped solidus, as some serialisers write every "/" of a URL ("https:\/\/hooks...")
    r"|\\(?P<solidus>/)"
    # A quote of JSON inside a JSON string, beside its punctuation ({\"key\":\"value\"}), not one
    # inside a value ("jane\"doe"@example.com is an email's quoted local part).
    # ... escaped again and again, JSON inside a string inside a string (three backslashes or seven before a quote:
    # "{\\\"pwd\\\": \\\"Falcon-lotus94\\\"}": reviewer BW)
    r'|(?<=[{,:\[])[ ]?(?:\\\\){0,3}\\(?P<quote>")|(?:\\\\){0,3}\\(?P<closing>")(?=[ ]?[:,}\]])'
)
_SURROGATES = (0xD800, 0xDFFF)
_WINDOWS_1252 = (0x80, 0x9F)  # the numbers browsers read as Windows-1252's characters (C1 controls in Unicode)
_HTML_FIRST = 0xA0  # a no-break space's number (read above); the characters after it are read as themselves
_NAMED = {
    "commat": "@",
    "plus": "+",
    "period": ".",
    "nbsp": " ",
    "ndash": "-",
    "mdash": "-",
    "minus": "-",
    "hyphen": "-",
    "dash": "-",
    "lpar": "(",
    "rpar": ")",
    "sol": "/",
    "thinsp": " ",
    "ensp": " ",
    "emsp": " ",
    "shy": "",
    "zwnj": "",
    "zwj": "",
}
_ESCAPE_MARKS = (
    "%",
    "\\",
    "&",
    "[",
    "<wbr",
    "**",
    "=\n",
    " dot ",
    "\x1b",
    "(a)",
    "(.)",
    "(dot)",
    "{.}",
    "{dot}",
)
_QUOTED_PRINTABLE = lazy_compile("quoted-printable", re.IGNORECASE)


# (escapes side by side: "=C3=A9", "=FC=DF"; not one alone, "color=FF0000", "JWT_SECRET=B5JAwF...": a value)
def _quoted_printable(original: str) -> bool:
    """Text that is quoted-printable: named so, or holding its escapes of bytes that are no ASCII character, side by
    side, or of "=" itself ("r=C3=A9pondre", "Gr=FC=DFe", "=E2=80=94", 'href=3D"mailto:...')."""
    return _QUOTED_PRINTABLE.search(original) is not None or _QP_ESCAPES.search(original) is not None


_QP_ESCAPES = lazy_compile("=[89A-F][0-9A-F]=[0-9A-F]{2}|=[89a-f][0-9a-f]=[89a-f][0-9a-f]|=3D[\"']")


_QUOTED_LINE = lazy_compile(r"(?:\A|\n)[ \t]{0,3}>")


# Four numbers joined by another language's spoken dot: an address only where they are shaped as one (a first part
# of 11 or more and a part of three digits: "172 titik 28 titik 154 titik 75") or the words before name one ("IP-Adresse
# 10 Punkt 0 Punkt 12 Punkt 7"); not a law's, a clause's or a release's numbering ("Pasal 12 titik 3 titik 1 titik 4",
# "Android 14 punto 0 punto 1 punto 2": an attacker's round on reviewer CK's readers).
_SPOKEN_DOT = lazy_compile(r"[0-9] (?i:titik|punkt|punto|ponto|point|nokta|точка) [0-9]")  # (prose says "point" too)
_SPOKEN_QUAD = lazy_compile(r"[0-9]{1,3}(?: (?i:titik|punkt|punto|ponto|point|nokta|точка) [0-9]{1,3}){3}(?![0-9])")
_ADDRESS_NAMED = lazy_compile(
    r"(?i:\bip\b|ip-?adress|adresse|address|direcci[oó]n|endere[cç]o|alamat|adres|\bадрес(?:а|у|ом|е|ы|ов|ам|ами|ах)?\b)"
)
_NUMBER = lazy_compile(r"[0-9]+")


def _spoken_address(original: str, at: int) -> bool:
    for quad in _SPOKEN_QUAD.finditer(original, max(0, at - _QUAD_BACK), min(len(original), at + _QUAD_BACK)):
        if not quad.start() <= at < quad.end():
            continue
        numbers = [int(part) for part in _NUMBER.findall(quad.group())]
        if any(number > _OCTET for number in numbers):
            return False
        shaped = numbers[0] >= _SHAPED_FIRST and any(number >= _THREE_DIGITS for number in numbers[1:])
        return shaped or _ADDRESS_NAMED.search(original, max(0, quad.start() - _NAMED_BACK), quad.start()) is not None
    return False


_OCTET, _SHAPED_FIRST, _THREE_DIGITS = 255, 11, 100
_QUAD_BACK = 64  # characters around a spoken dot where its four numbers are read
_NAMED_BACK = 24  # ... and before them, for a word that names an address


def _may_escape(original: str) -> bool:
    """One of _ESCAPE_MARKS is in ``original``: each mark of several characters led by a test of a
    character of its own that prose seldom holds (a memchr, where a substring search reads the text)."""
    return (
        "%" in original
        or "\\" in original
        or "&" in original
        or "[" in original
        or ("<" in original and ("<wbr" in original or "</" in original or ">" in original))
        or (">" in original and _QUOTED_LINE.search(original) is not None)
        or ("*" in original and "**" in original)
        or ("=" in original and ("=\n" in original or "=40" in original or "=2E" in original))
        or ("BEGIN:V" in original and ("\n " in original or "\n\t" in original))
        or " dot " in original
        or (
            (
                " titik " in original
                or " punkt " in original
                or " Punkt " in original
                or " PUNKT " in original
                or " punto " in original
                or " PUNTO " in original
                or " ponto " in original
                or " point " in original
                or " nokta " in original
                or " точка " in original
                or " Точка " in original
                or " ТОЧКА " in original
            )
            and _SPOKEN_DOT.search(original) is not None
        )
        or "\x1b" in original
        or ("(" in original and ("(a)" in original or "(.)" in original or "(dot)" in original))
        or ("{" in original and ("{.}" in original or "{dot}" in original))
    )


_GLUED_LOCAL = lazy_compile(r"(?:^|(?<=[\s,;:<\[\"'(]))[A-Za-z0-9][A-Za-z0-9._%+\-]{1,63}\Z")
_GLUED_DOMAIN = lazy_compile(
    r"[A-Za-z0-9][A-Za-z0-9\-]*(?:\.[A-Za-z0-9\-]+)*\.(?P<tld>[A-Za-z]{2,12})(?![A-Za-z0-9_(])"
)


def _glued_at_address(text: str, start: int, end: int) -> bool:
    """Whether "(a)" at ``text[start:end]`` joins a local part (a word of its own) to a domain whose
    last label is a known top-level domain ("max.schneider(a)gmx.de"), as an address written so."""
    from securemem.pii.contact import known_tld  # here: contact imports this module

    domain = _GLUED_DOMAIN.match(text, end)
    return (
        domain is not None
        and known_tld(domain["tld"].lower())
        and _GLUED_LOCAL.search(text, max(0, start - 64), start) is not None
    )


# A key's name right before a "%3D", after a query's or a property's delimiter ("...%3Faccess_token%3D...",
# "%26expires_in%3D3600") or at the text's start.
_QUERY_KEY_BEFORE = lazy_compile(r"(?:[?&;\s\"'(]|%26|%3[fF])[A-Za-z_][A-Za-z0-9_.\-]{0,40}$")
_KEY_AT_START = lazy_compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,40}$")
_BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def _equals_read(original: str, start: int, end: int) -> bool:
    """A "%3D" read as "=": a key's before its value ("...%3Faccess_token%3Db6zU..."), or padding at a value's end
    ("...NUGg%3D&target"); not one inside a token (Twitter's app-only bearer tokens hold "%3D" as written, after
    other escapes: "...%2BULvsea4JtiGRiSDSJSI%3DEUif...": an attacker's round), nor one at the text's start before
    digits ("ids%3D202%2520555%25200147": an id list's, not a phone's label)."""
    after = original[end : end + 1]
    if not after.isalnum():
        return start > 0 and original[start - 1] in _BASE64_CHARS  # padding
    if _QUERY_KEY_BEFORE.search(original, max(0, start - 48), start) is not None:
        return True
    return not after.isdigit() and _KEY_AT_START.fullmatch(original, 0, start) is not None


def _escapes(original: str, marks: dict[int, bool]) -> dict[int, tuple[str, int]]:  # noqa: PLR0912, PLR0915 - one branch per form
    """Where escapes start in ``original``: their character and where they end. ``marks`` gets where
    tags start that the view reads as a space (True) or drops between two letters (False)."""
    found: dict[int, tuple[str, int]] = {}
    # quoted-printable text: named so (its soft line breaks are read only then: "KEY=...=\nNEXT=..." in an env file is
    # two values); for its "@" and ".", see _quoted_printable (asked only where one is met)
    quoted_printable = "=\n" in original and _QUOTED_PRINTABLE.search(original) is not None
    qp_escaped: bool | None = None
    folded = "BEGIN:V" in original
    property_lines: dict[int, bool] = {}  # each folded line's answer, read once (see _folded_property)
    for match in _ESCAPE.finditer(original):
        if match["pct"] is not None:
            char = _ESCAPED[match["pct"].lower()]
            if char == "=" and not _equals_read(original, match.start(), match.end()):
                continue
        elif match["json4"] is not None:
            char = fold(chr(int(match["json4"], 16)))
        elif match["json"] is not None or match["hex"] is not None:
            char = chr(int(match["json"] or match["hex"], 16))  # any printable ASCII character
        elif match["dec"] is not None:
            char = chr(int(match["dec"]))
        elif match["html_hex"] is not None or match["html_dec"] is not None:
            code = int(match["html_hex"], 16) if match["html_hex"] is not None else int(match["html_dec"])
            if _WINDOWS_1252[0] <= code <= _WINDOWS_1252[1]:
                windows = bytes([code]).decode("cp1252", errors="ignore")  # five numbers name nothing there: dropped
                char = fold(windows) if windows else ""
            elif not _HTML_FIRST < code <= sys.maxunicode or _SURROGATES[0] <= code <= _SURROGATES[1]:
                continue  # a control character's number (ASCII's are read above), a surrogate or none at all
            else:
                char = fold(chr(code))
        elif match["name"] is not None:
            char = _NAMED[match["name"]]
        elif match["nbsp"] is not None:
            char = " "
        elif match["solidus"] is not None:
            char = "/"
        elif match["glued_at"] is not None:
            if not _glued_at_address(original, match.start(), match.end()):
                continue  # "while(a)node.next", "function(a)a.exports": a call's argument, not "@"
            char = "@"
        elif match["defanged"] is not None:
            char = ":" if match["defanged"] == ":" else "."
        elif match["defanged_dot"] is not None:
            char = "."
        elif match["defanged_colon"] is not None:
            char = ":"
        elif match["markdown"] is not None or match["markdown_at"] is not None:
            char = match["markdown"] or match["markdown_at"]
        elif match["br"] is not None:
            char = "\n"
        elif match["spaced_tag"] is not None:
            char = " "
            marks[match.start()] = True
        elif match["quoted"] is not None:
            if not _quoted_as_deep(original, match.start(), match["quoted"].count(">")):
                continue
            char = ""
        elif match["hidden"] is not None:
            char = ""
            if match["glued"] is not None and _between_letters(original, match.start(), match.end()):
                marks[match.start()] = False
        elif match["spoken"] is not None:
            found[match.start("spoken") - 1] = (".", match.end("spoken") + 1)
            continue
        elif match["spoken_other"] is not None:
            if _spoken_address(original, match.start("spoken_other")):
                found[match.start("spoken_other") - 1] = (".", match.end("spoken_other") + 1)
            continue
        elif match["soft"] is not None:
            if not quoted_printable:
                continue
            char = ""
        elif match["qp_at"] is not None or match["qp_dot"] is not None:
            if qp_escaped is None:
                qp_escaped = _quoted_printable(original)
            if not qp_escaped:
                continue
            char = "@" if match["qp_at"] is not None else "."
        elif match["fold"] is not None:
            if not folded or not _folded_property(original, match.start(), property_lines):
                continue
            char = ""
        else:
            char = '"'
            if match["quote"] is not None and original[match.start()] == " ":
                found[match.start() + 1] = (char, match.end())  # the space before it stays
                continue
        found[match.start()] = (char, match.end())
    return found


# No-break and narrow no-break spaces (not the figure space, which aligns digits in tables: an attacker's round)
_NO_BREAK = frozenset("\u00a0\u202f")


# A content line of iCalendar or vCard: its property's name, maybe parameters, then ":" (the line a fold continues).
_PROPERTY_LINE = lazy_compile(r"[A-Z][A-Z0-9\-]{1,40}[;:]")
_FOLD_BACK = 4096  # the longest content line read back for its property's name


def _folded_property(original: str, at: int, known: dict[int, bool]) -> bool:
    """The fold at ``at`` continues a property's line (its own line or one it folded before), not prose that only
    mentions BEGIN:VCARD ("Here is a list: ... 0176\\n 12345678": an attacker's round). ``known``: the answer of each
    line read before (a fold's walk back through every fold before it was quadratic: an attacker's round)."""
    start = at
    walked: list[int] = []
    while True:
        line = original.rfind("\n", max(0, start - _FOLD_BACK), start) + 1
        answer = known.get(line)
        if answer is None and (line == 0 or original[line : line + 1] not in (" ", "\t")):
            answer = _PROPERTY_LINE.match(original, line) is not None
        if answer is not None:
            for each in walked:
                known[each] = answer
            known[line] = answer
            return answer
        walked.append(line)
        start = line - 1


def _between_letters(original: str, start: int, end: int) -> bool:
    return start > 0 and end < len(original) and original[start - 1].isalpha() and original[end].isalpha()


def _quoted_as_deep(original: str, start: int, depth: int) -> bool:
    """The line before ``start`` (none: the text's first line) opens with ``depth`` quote marks too."""
    if start == 0:
        return True
    line = original[original.rfind("\n", 0, start - 1) + 1 : start - 1]
    marks = len(line) - len(line.lstrip("> \t"))
    return line[:marks].count(">") == depth


class View:
    """The normalised text of ``original`` and the map from view offsets back to original ones."""

    __slots__ = (
        "_ends",
        "_escapes",
        "_expanded",
        "_shift",
        "_starts",
        "encoded",
        "glued",
        "lettered",
        "no_break",
        "original",
        "spaced",
        "text",
    )

    def __init__(self, original: str) -> None:
        self.original = original
        # View offsets of the spaces that were no-break spaces in the original: a typed separator, as
        # deliberate as a dash or a dot between a number's groups ("219\u00a045\u00a01234": the issue's).
        self.no_break: list[int] = []
        marks: dict[int, bool] = {}
        escapes = _escapes(original, marks) if _may_escape(original) else {}
        # View offsets of the spaces that tags between a word and a number read as ("<b>Phone</b>0151"):
        # detectors.py reads the text again without them, where they cut a token ("ghp_A1b<b>2C3d...");
        # and of the places where tags between two letters were dropped ("<b>Password</b>Hunter2!xyz"):
        # read again with a space there, where a label ends.
        self.spaced: list[int] = []
        self.glued: list[int] = []
        self._escapes = {start: end for start, (_, end) in escapes.items()}
        # ``lettered``: the view before letters standing for digits were read as digits (same
        # offsets): where letters are real (an IBAN's account part may hold "I" or "O"), detectors
        # check it too. ``encoded``: the view's text encoded as ASCII (other characters "?"), when
        # computed on the way (what Scan would encode again).
        self.encoded: bytes | None = None
        if original.isascii() and not escapes:
            encoded = original.encode("ascii")
            if not encoded.translate(None, _PLAIN_BYTES):
                self.lettered = original
                self.text = letters_as_digits(original, encoded)
                if self.text is original:
                    self.encoded = encoded
                self._starts = self._ends = self._shift = self._expanded = []
                return
        # Anchors: original characters whose view form is not exactly one character long.
        starts: list[int] = []  # view offset where the anchor's form starts
        ends: list[int] = []  # view offset where it ends
        origins: list[int] = []  # its offset in the original
        pieces: list[str] = []
        done = 0  # original text copied up to here
        view_length = 0
        for index, form in _changes(original, escapes):
            pieces.append(original[done:index])
            view_length += index - done
            if marks and index in marks:
                (self.spaced if marks[index] else self.glued).append(view_length)
            if form == " " and original[index] in _NO_BREAK:
                self.no_break.append(view_length)
            pieces.append(form)
            if len(form) != 1:
                starts.append(view_length)
                ends.append(view_length + len(form))
                origins.append(index)
            view_length += len(form)
            done = index + 1
        if not pieces:
            text = original
        else:
            pieces.append(original[done:])
            text = "".join(pieces)
        text = numerals_as_digits(text)
        self.lettered = text
        encoded = text.encode("ascii", "replace")  # encoded once, for letters_as_digits and the scan
        self.text = letters_as_digits(text, encoded)
        if self.text is text:
            self.encoded = encoded
        self._starts = starts
        self._ends = ends
        # After anchor i, original offset = view offset + shift[i].
        self._shift = [origin + 1 - end for origin, end in zip(origins, ends, strict=True)]
        self._expanded = origins

    @property
    def identity(self) -> bool:
        """True when every view offset is the same original offset."""
        return not self._starts

    def hidden_breaks(self) -> list[int]:
        """View offsets between two digits where the original held characters the view dropped (a
        zero-width space, a soft hyphen, ``&shy;``): the groups of a number a reader sees apart,
        joined in the view. In order."""
        text = self.text
        size = len(text)
        return sorted(
            {
                start
                for start, end in zip(self._starts, self._ends, strict=True)
                if start == end and 0 < start < size and text[start - 1].isdigit() and text[start].isdigit()
            }
        )

    def offset(self, original_offset: int) -> int:
        """View offset where the original character at ``original_offset`` starts (the inverse of ``start``)."""
        index = bisect_left(self._expanded, original_offset)  # the anchors before it
        return original_offset - self._shift[index - 1] if index else original_offset

    def start(self, view_offset: int) -> int:
        """Original offset of the character at ``view_offset`` (inclusive start of a span)."""
        if not self._starts:
            return view_offset
        index = bisect_right(self._ends, view_offset)
        if index < len(self._starts) and self._starts[index] <= view_offset:
            return self._expanded[index]  # inside the form of one original character
        return view_offset + (self._shift[index - 1] if index else 0)

    def end(self, view_end: int) -> int:
        """Original offset just past the character before ``view_end`` and the marks that follow it."""
        if view_end <= 0:
            return 0
        end = self.start(view_end - 1) + 1
        end = self._escapes.get(end - 1, end)  # the whole escape its character stands for
        original = self.original
        # Combining marks drawn on the last character belong to it; an invisible control after the
        # value (a bidi pop, a zero-width space) does not and is left in place.
        while (
            end < len(original) and not original[end].isascii() and unicodedata.category(original[end]) in ("Mn", "Me")
        ):
            end += 1
        return end

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the view span ``[start, end)``, with the invisible format characters
        right before it (a bidi mark opening "\u200e+972\u200f-56-..." is part of the value written)."""
        first = self.start(start)
        original = self.original
        while first > 0 and _leading_mark(original[first - 1]):
            first -= 1
        last = self.end(end)
        if original.startswith("**", last) and last in self._escapes and "**" in original[first:last]:
            last = self._escapes[last]  # bold opened inside the value and closed right after it: part of it
        return first, last


def _changes(original: str, escapes: dict[int, tuple[str, int]]) -> list[tuple[int, str]]:
    """Each original offset whose view form differs from its character, and that form, in order;
    an escape's first character gets its character, the others ""."""
    changes: list[tuple[int, str]] = []
    tags = (0, False)  # the end of the last run of tag characters met, and whether it is read as ASCII
    for run in _IRREGULAR_RUN.finditer(original):
        for index in range(run.start(), run.end()):
            char = original[index]
            form = fold(char)
            if form == char and unicodedata.category(char) in _PICTURES and _between_digits(original, index):
                # One separator: a space on either side of the symbol is part of it ("070 🔹 116").
                if original[index - 1] == " " and (not changes or changes[-1][0] != index - 1):
                    changes.append((index - 1, ""))
                changes.append((index, " "))
                if original[index + 1] == " ":
                    changes.append((index + 1, ""))
                continue
            if form != char:
                if not form and _TAG_FIRST <= char <= _TAG_LAST:
                    if index >= tags[0]:
                        tags = _tag_run(original, index)
                    if tags[1]:
                        form = chr(ord(char) - _TAG_SHIFT)
                changes.append((index, form))
    if escapes:
        # An escape's characters are the escape's alone: a control character that opens one ("\x1b[1m")
        # is not also dropped on its own (two forms for one character broke the map: hypothesis).
        covered = {index for start, (_, end) in escapes.items() for index in range(start, end)}
        changes = [change for change in changes if change[0] not in covered]
        for start, (char, end) in escapes.items():
            changes.append((start, char))
            changes.extend((index, "") for index in range(start + 1, end))
        changes.sort()
    return changes


# Unicode's tag characters (U+E0020 to U+E007E) are invisible copies of printable ASCII. Put inside a value, a few of
# them are noise to drop, as any invisible character ("499<12>910<12>022...": the held-out set); a run of them that
# stands as a word of its own, long enough to hold a value, is text written in them, read as the ASCII it copies
# ("Anhang:<+43 699 28137707> Danke": reviewer CP; "ASCII smuggling" past a reader that drops invisible characters).
# Not in a flag's sequence (the black flag U+1F3F4, then "gbsct" in tags, then the cancel tag: Scotland's flag).
_TAG_FIRST, _TAG_LAST, _TAG_SHIFT = "\U000e0020", "\U000e007e", 0xE0000
_FLAG = "\U0001f3f4"
_TAG_TEXT = 6  # tag characters in a run, at least, to read it as text


def _tag_run(original: str, index: int) -> tuple[int, bool]:
    """The end of the run of tag characters that starts at ``index``, and whether it is read as the ASCII it copies:
    long enough, with no letter or digit right before or after it, and not after a black flag."""
    end = index
    while end < len(original) and _TAG_FIRST <= original[end] <= _TAG_LAST:
        end += 1
    before = original[index - 1] if index else " "
    after = original[end] if end < len(original) else " "
    return end, end - index >= _TAG_TEXT and before != _FLAG and not before.isalnum() and not after.isalnum()


# Symbols (emoji among them) and their modifiers: between two digits, a separator ("4951🔹4263🔹6789🔹7103",
# "070 🔹 116 🔹 179", "015🙂123🙂1108": reviewer R), read as one space with the spaces beside it.
_PICTURES = frozenset({"So", "Sk"})
_PICTURE_GAP = 3  # spaces, symbols and dropped marks on either side of it, at most


def _between_digits(original: str, index: int) -> bool:
    # Not an arrow or a chart: "2039 ➡️ 2450 ➡️ 8897", "4539 📈 1488" are figures going up (an attacker's round).
    return (
        _digit_beside(original, index, -1)
        and _digit_beside(original, index, 1)
        and not any(word in unicodedata.name(original[index], "") for word in _PROGRESSIONS)
    )


_PROGRESSIONS = ("ARROW", "CHART", "TRIANGLE", "HAND", "FINGER")


def _digit_beside(original: str, index: int, step: int) -> bool:
    at = index + step
    for _ in range(_PICTURE_GAP + 1):
        if not 0 <= at < len(original):
            return False
        char = original[at]
        if char.isdigit():
            return True
        if not (char.isspace() or unicodedata.category(char) in _PICTURES or fold(char) == ""):
            return False
        at += step
    return False


# Paired bidi controls (embeddings, overrides, isolates) open what a pop closes: they stay beside a
# replaced value, so that the text around it keeps its direction.
_PAIRED_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _leading_mark(char: str) -> bool:
    """An invisible format character that may open a value (a bidi mark, a zero-width space)."""
    return not char.isascii() and char not in _PAIRED_BIDI and unicodedata.category(char) == "Cf"


def normalise_text(text: str) -> str:
    """The view of ``text`` alone (what detectors read)."""
    return View(text).text


def unaccented(text: str) -> str:
    """``text`` without its accents, as capitals and chat often write words ("ΚΩΔΙΚΟΣ" for "κωδικός")."""
    return "".join(part for part in unicodedata.normalize("NFD", text) if not unicodedata.combining(part))


def viewed_words(*words: str) -> tuple[str, ...]:
    """``words`` as the lower-cased view writes them (a Cyrillic or Greek letter that looks Latin read as Latin,
    combining marks dropped), each once, in order: what a reader of ``Scan.lower`` compares with."""
    return tuple(dict.fromkeys(normalise_text(word).lower() for word in words))


def as_viewed(labels: Iterable[str]) -> str:
    """``labels`` as a pattern of the view's spellings, in small and capital letters, accented or not:
    the view writes a Cyrillic or Greek letter that looks Latin as Latin ("код" reads "koд", "КОД"
    reads "KOД", lower-cased "koд"; "Т" is Latin but "т" is not) and drops combining marks (Hindi's
    virama, Thai's vowel signs; see above): a label as its own script spells it would never match."""
    patterns = []
    for label in labels:
        parts = []
        for char in label:
            forms = {
                normalise_text(spelling).lower()
                for spelling in (char, char.upper(), unaccented(char), unaccented(char).upper())
            }
            forms.discard("")  # a mark the view drops
            if not forms:
                continue
            if all(len(form) == 1 for form in forms):
                parts.append(re.escape(forms.pop()) if len(forms) == 1 else "[" + "".join(sorted(forms)) + "]")
            else:
                parts.append("(?:" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True))) + ")")
        patterns.append("".join(parts))
    return "|".join(sorted(patterns, key=len, reverse=True))
