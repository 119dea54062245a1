"""The path guard's rules: parse, canonicalise or refuse a memory path. Pure functions, no I/O.

A path is accepted only when it is unambiguous, so nothing is ever decoded or resolved:
the string the model sent either names exactly one entry under ``/memories`` or it is refused.
The only rewriting allowed is dropping duplicate and trailing slashes, which cannot change the
entry a path names. Everything else that could make two spellings name one entry (``..``,
percent-encoding, backslashes, Unicode compatibility forms) is refused, because a filter or an
audit reader that sees one spelling must not be fooled by another.
"""

from __future__ import annotations

import functools
import unicodedata

from securemem.errors import InvalidPath
from securemem.lookalikes import disguising_mark, hyphen_lookalike, latin_twin, phonetic_letter
from securemem.scripts import invisible_char, is_mixed_script, letter_lookalike, separator_lookalike

ROOT = "/memories"
MAX_PATH_BYTES = 1024
MAX_SEGMENT_BYTES = 255

# Cc control, Cf format (bidi overrides, zero-width joiners), Cs surrogates, Co private use,
# Cn unassigned, Zl/Zp line and paragraph separators: none belongs in a file name and most are
# used to make one name look like another.
_JOINERS = frozenset("\u200c\u200d")  # allowed inside words that need them (scripts.invisible_char)
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Look-alikes that NFKC leaves alone: slashes and dots a reader could take for path syntax,
# spaces other than U+0020, and the invisible Hangul fillers.
# (TR39's confusables of "/" and "\\" among them: U+27CB, U+27CD, U+29F9, U+2041, U+1735 and U+29F6; U+2AFD
# and U+2AFB, "//" and "///".)
_LOOKALIKES = frozenset(
    "\u2215\u2044\u29f8\u29f5\u2216\u2571\u2572\u3033\u2024\u2027\u115f\u1160\u3164\uffa0\u1680\u2800"
    "\u27cb\u27cd\u29f9\u2041\u1735\u2afd\u2afb\u29f6"
    # MUSICAL SYMBOL NULL NOTEHEAD, drawn blank ("reference\U0001d159" beside "reference": an attacker's round)
    "\U0001d159"
)
# Drawn as a full stop (TR39's confusables of "." and their kin): a name made only of these, or starting
# with two of them, reads as "..", whatever script or category they belong to ("ꓸꓸ", a Lisu tone letter;
# "ꞏꞏ", "⋅⋅", "∙∙", "ᐧᐧ"). Arabic-Indic zeros are digits: only a name made of nothing else is refused.
# (Other scripts' full stops are punctuation: the rule after this one refuses a name made of them; the
# one-dot leader, the hyphenation point and the halfwidth katakana dot never reach a name's check.)
_NO_JOINERS = dict.fromkeys(map(ord, _JOINERS))
_DOT_LOOKALIKES = frozenset(
    "\u00b7\u0660\u06f0\u1427\u2022\u2219\u22c5\u2e31\u2e33\u30fb\ua4f8\ua60e\ua78f\U00010a50\U0001d16d"
)


def _refuse(reason: str) -> InvalidPath:
    # The refused path is never quoted back: it may carry the very data (an email in a file
    # name) that the PII layer, which runs after this guard, would have kept out of messages.
    return InvalidPath(
        f"Error: Invalid path: {reason}. Paths must be /memories or start with /memories/, "
        "use plain names separated by single slashes, and contain no '.' or '..' segments."
    )


def _check_characters(path: str) -> None:
    if "\\" in path:
        raise _refuse("backslashes are not allowed")
    if "%" in path:
        # Any '%', not only a valid %2e: a decoder further down (a proxy, a log viewer, a sync
        # tool) may read a half-valid sequence differently from us.
        raise _refuse("'%' is not allowed (no percent-encoding)")
    if path.isascii() and path.isprintable():
        return  # printable ASCII: no control, invisible, compatibility or look-alike character
    for ch in path:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES and not (ch in _JOINERS and invisible_char(path) is None):
            raise _refuse(f"control or invisible character U+{ord(ch):04X} is not allowed")
    if not unicodedata.is_normalized("NFC", path):
        raise _refuse("the path is not in Unicode NFC form")
    if unicodedata.normalize("NFKC", path) != path:
        raise _refuse(
            "the path contains compatibility characters (such as fullwidth or look-alike "
            "punctuation); use plain ASCII punctuation"
        )
    for ch in path:
        if ch in _LOOKALIKES or (ch != " " and unicodedata.category(ch) == "Zs"):
            raise _refuse(f"look-alike or invisible character U+{ord(ch):04X} is not allowed")
    for index, ch in enumerate(path):
        if (
            "\U0001f3fb" <= ch <= "\U0001f3ff"
            and path[index - 1] != "/"
            and unicodedata.category(path[index - 1]) != "So"
        ):
            # A skin tone's modifier tints the emoji before it; after a letter it is drawn apart or not at all
            # ("ref\U0001f3fberence" beside "reference": an attacker's round).
            raise _refuse(f"U+{ord(ch):04X} (a skin tone's modifier) may only follow an emoji")
    hidden = invisible_char(path)  # variation selectors, the grapheme joiner: marks that draw nothing
    if hidden is not None:
        raise _refuse(f"invisible character U+{ord(hidden):04X} is not allowed")


def _check_segment(segment: str) -> None:
    if segment in (".", ".."):
        raise _refuse(f"'{segment}' segments are not allowed")
    if segment.startswith("..") or not segment.strip("."):
        raise _refuse("names made only of dots, or starting with '..', are not allowed")
    drawn = segment.translate(_NO_JOINERS)  # a joiner between two dots draws nothing ("ꓸ\u200dꓸ" reads "..")
    if not segment.isascii() and (
        all(ch == "." or ch in _DOT_LOOKALIKES for ch in drawn)
        or all(ch == "." or (ch in _DOT_LOOKALIKES and not ch.isdigit()) for ch in drawn[:2])
    ):
        raise _refuse("names made only of dots or characters drawn as dots, or starting with two, are not allowed")
    if not segment.isascii() and all(unicodedata.category(ch).startswith("P") for ch in segment):
        # The full stops of other scripts ("܁܁", "۔۔", "։") read as dots: the rule above, in any script.
        raise _refuse("names made only of punctuation of another script (such as its full stops) are not allowed")
    if len(segment.encode("utf-8")) > MAX_SEGMENT_BYTES:
        raise _refuse(f"a name is longer than {MAX_SEGMENT_BYTES} bytes")
    if segment != segment.strip():
        raise _refuse("a name starts or ends with white space")
    if unicodedata.category(segment[0]).startswith("M") or "\U0001f3fb" <= segment[0] <= "\U0001f3ff":
        # The skin-tone modifiers attach to the character before them, as marks do.
        raise _refuse("a name starts with a combining mark")
    if segment.isascii():
        return  # the look-alikes below are all CJK or other scripts' characters (tests/test_paths.py checks it)
    lookalike = separator_lookalike(segment)
    if lookalike is not None:
        raise _refuse(f"U+{ord(lookalike):04X} reads as a slash or a dot outside CJK text")
    lookalike = letter_lookalike(segment)
    if lookalike is not None:
        raise _refuse(f"U+{ord(lookalike):04X} reads as a Latin letter or a dash beside Latin letters")
    _check_lookalikes(segment)


def _check_lookalikes(segment: str) -> None:
    # No look-alike of a protected tree can sit beside it: a name that reads as another is refused
    # whether it mixes scripts or stays inside one (see lookalikes.py for what each rule covers).
    letter = phonetic_letter(segment)
    if letter is not None:
        raise _refuse(
            f"U+{ord(letter):04X} is a phonetic letter drawn like a plain one (a small capital, a click "
            "letter drawn as a bar); use the plain letter"
        )
    mark = disguising_mark(segment)
    if mark is not None:
        raise _refuse(
            f"combining mark U+{ord(mark):04X} disguises the letter it sits on; "
            "use the accented letter itself, not a plain letter followed by a separate mark, or the plain letter"
        )
    dash = hyphen_lookalike(segment)
    if dash is not None:
        raise _refuse(f"U+{ord(dash):04X} reads as a hyphen, a tilde or an equals sign; use the ASCII '-', '~' or '='")
    if is_mixed_script(segment):
        # Unicode TR39 mixed-script detection: 'rеference' with a Cyrillic 'е' is refused. Japanese,
        # Korean and Chinese names, which combine scripts by design, are single-script under TR39's
        # augmented sets.
        raise _refuse("a name mixes letters of different scripts (such as Latin with Cyrillic look-alikes)")
    if latin_twin(segment) is not None:
        # TR39's whole-script confusable: 'ѕсоре' in Cyrillic reads as 'scope'. The reading is not
        # quoted either: it is the refused name, spelled in Latin.
        raise _refuse(
            "every letter of the name has a Latin twin, so it reads as a Latin name; write that name in Latin letters"
        )


def canonical(path: object, *, slack: int = 0) -> str:
    """Return the canonical spelling of ``path`` or raise InvalidPath saying why it is refused.

    ``slack``: bytes a session's mount directory adds before the path its store holds (the store's
    path is held to MAX_PATH_BYTES by the caller, see ``too_long``), so that a store's file is
    reachable the same opened alone or mounted."""
    if not isinstance(path, str):
        raise _refuse("the path must be a string")
    return _canonical(path, slack)


def too_long(path: str) -> InvalidPath | None:
    """The refusal of a path (as its store holds it) longer than MAX_PATH_BYTES, else None."""
    if len(path.encode("utf-8", errors="surrogatepass")) > MAX_PATH_BYTES:
        return _refuse(f"the path is longer than {MAX_PATH_BYTES} bytes")
    return None


# Pure and hot (every command, every layer): an agent touches the same few paths again and
# again. Only accepted paths are cached; a refusal raises and is computed afresh each time.
@functools.lru_cache(maxsize=8192)
def _canonical(path: str, slack: int = 0) -> str:
    if len(path.encode("utf-8", errors="surrogatepass")) > MAX_PATH_BYTES + slack:
        raise _refuse(f"the path is longer than {MAX_PATH_BYTES} bytes")
    _check_characters(path)
    if not path.startswith("/"):
        raise _refuse("the path is not absolute (it must start with /memories)")
    segments = [s for s in path.split("/") if s]
    if not segments or segments[0] != "memories":
        raise _refuse(
            "the path is outside /memories (look-alikes such as /memoriesX or /memories_backup are other directories)"
        )
    for segment in segments[1:]:
        _check_segment(segment)
    return "/".join(["", *segments])


def parent_of(path: str) -> str:
    """The parent of a canonical non-root path."""
    return path.rsplit("/", 1)[0]


def name_of(path: str) -> str:
    """The last segment of a canonical path."""
    return path.rsplit("/", 1)[1]


def ancestors(path: str) -> list[str]:
    """Every ancestor of a canonical path, root first, the path itself excluded."""
    parts = path.split("/")[1:]
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


def is_within(path: str, directory: str) -> bool:
    """True when ``path`` is ``directory`` or lies below it (canonical paths only)."""
    return path == directory or path.startswith(directory + "/")
