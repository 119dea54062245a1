"""Email addresses dictated and transcribed word by word (reviewer BM's call transcripts): letters spelt one at a
time ("s o n e i l l at icloud dot com"), the dot, the underscore and the dash said in the caller's language
("friederike Unterstrich osterholt at t Bindestrich online Punkt de", "omar شرطة سفلية khatib آت outlook دوت sa"),
digits said as words ("katarzynanowak dziewięć siedem małpa wp kropka pl"), a transcript's timestamps between
the words.

The text is read as tokens (its words, the view's lower case); from each word that says "@", the local part is
read backwards and the domain forwards:

- a local part is one or more pieces joined by a said dot, underscore or dash; a piece is one word, or a run of
  single letters (three or more), either followed by digits said as words;
- a domain is labels joined by a said dot (or "."), a label one word or words joined by a said dash, the last a
  top-level domain addresses use.

Only what the plainer readers leave is taken (contact.py's ``find_spoken_emails`` reads a local part of plain
words and dots): a local part spelt letter by letter, joined by a said underscore or dash, with digits said as
words, or an "@" or a dot said in a script other than Latin. Prose that says "at" is no address ("look at
example dot com" is left to the plainer reader and its checks).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from securemem.pii.contact import DIGIT_WORDS, known_tld
from securemem.pii.normalize import normalise_text
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, Span, index_words

# Words that say "@" (phrases of several words too), ".", "_" and "-", in the languages dictated.
_AT_SAID = (
    "at", "arroba", "arobase", "ät", "chiocciola", "apenstaartje", "apestaartje", "klammeraffe", "małpa", "malpa",
    "kukac", "zavináč", "snabel-a", "arond", "собака", "παπάκι", "at the rate", "एट द रेट", "ऐट द रेट", "アットマーク",
    "艾特", "골뱅이", "آت", "ات", "et", "et işareti", "et isareti",
)  # fmt: skip
_DOT_SAID = (
    "dot", "punkt", "punto", "ponto", "point", "punt", "kropka", "nokta", "tečka", "punct", "punktum", "точка",
    "τελεία", "डॉट", "ドット", "点", "점", "닷", "دوت", "نقطة", "ดอท", "chấm", "titik",
)  # fmt: skip
_UNDERSCORE_SAID = (
    "underscore", "unterstrich", "underline", "tiret bas", "guion bajo", "guión bajo", "trattino basso",
    "podkreślnik", "podkreslnik", "alt çizgi", "understreck", "liggend streepje", "شرطة سفلية", "अंडरस्कोर",
    "언더바", "언더스코어", "アンダーバー", "アンダースコア", "下划线", "下劃線",
)  # fmt: skip
_DASH_SAID = (
    "dash", "hyphen", "tiret", "bindestrich", "guion", "guión", "trattino", "myślnik", "myslnik", "kısa çizgi",
    "tire", "streepje", "bindestreck", "شرطة", "डैश", "ハイフン", "하이픈", "横杠", "减号",
)  # fmt: skip
# "dotcom" said as one word ("northwind-bank dotcom")
_GLUED_TLDS = {"dotcom": "com", "dotnet": "net", "dotorg": "org"}
_TIMESTAMP = lazy_compile(r"\[\d{1,2}:\d{2}(?::\d{2})?\]")
# A transcript's timestamp, a run of Latin letters and digits (what an address is written in), or a run of any
# other script's characters (a word that says "@" or "." glued to the address: "是chen", "net입니다").
_TOKEN = lazy_compile(
    r"\[\d{1,2}:\d{2}(?::\d{2})?\]|[a-z0-9\u00c0-\u024f._\-'’]+|[^\sa-z0-9\u00c0-\u024f,;!?()\[\]{}<>\"“”«»._\-'’]+"
)
_LETTER = lazy_compile(r"[a-z]")
_WORD = lazy_compile(r"[a-z0-9][a-z0-9\-]*[a-z0-9]|[a-z0-9]")
_LOCAL_MOST = 24  # tokens a local part may span
_DOMAIN_MOST = 12


def _said(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Each phrase as the view writes it, split into its tokens."""
    return tuple(tuple(normalise_text(word).lower().split()) for word in words)


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[
    tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]
]:
    return _said(_AT_SAID), _said(_DOT_SAID), _said(_UNDERSCORE_SAID), _said(_DASH_SAID)


def _ascii_firsts(phrases: tuple[str, ...]) -> frozenset[str]:
    return index_words(*{word.split()[0] for word in phrases if word.isascii()})


# The gate's words: the dots said (the words that say "@" are short and common inside other words, "at" in
# "that": indexed, they cost every scan more than they save; the finder looks for them itself)
_DOT_WORDS = _ascii_firsts(_DOT_SAID)
_OTHER_DOTS = tuple(normalise_text(word).lower() for word in _DOT_SAID if not word.isascii())


def may_hold_dictated_email(scan: Scan) -> bool:
    """A dot said as a word (or "dotcom"): every address dictated has one."""
    if not _DOT_WORDS.isdisjoint(scan.words):
        return True
    lower = scan.lower
    return not lower.isascii() and any(word in lower for word in _OTHER_DOTS)


def find_dictated_emails(scan: Scan) -> Iterator[Span]:
    lower = scan.lower
    tokens = [_trimmed(match) for match in _TOKEN.finditer(lower)]
    ats, dots, underscores, dashes = _vocabulary()
    firsts = {phrase[0] for phrase in ats}
    done = 0
    for index in range(len(tokens)):
        if tokens[index][2] not in firsts or tokens[index][0] < done:
            continue
        at_size = _phrase_at(tokens, index, ats)
        if not at_size:
            continue
        at_word = " ".join(token[2] for token in tokens[index : index + at_size])
        local = _local_before(tokens, index, dots, underscores, dashes)
        domain = _domain_after(tokens, index + at_size, dots, dashes)
        if local is None or domain is None:
            continue
        first, spelt = local
        last, said_dots, glued = domain
        if not _said_as_one(lower, tokens, first, last):
            continue  # a clause's punctuation between the words ("iki et sote, nokta. ve pilav": an attacker's round)
        local_end = index
        while local_end > first and _TIMESTAMP.fullmatch(tokens[local_end - 1][2]):
            local_end -= 1
        # a transcript's timestamps between the local part's words (not before "at": "we lost the thread [00:03:10]
        # at one point in the call", an attacker's round)
        spelt = spelt or any(_TIMESTAMP.fullmatch(tokens[k][2]) for k in range(first, local_end))
        if at_word == "et" and not any(tokens[k][2] == "nokta" for k in range(index, last + 1)):
            continue  # Turkish "et" (@) only with "nokta" (.): French "et" is "and"
        # "@" and "." said in a script other than Latin ("آت", "डॉट", "艾特"): two such words at least ("today check
        # in at 8点 at the gate" says a time with one)
        foreign = (at_word not in _PLAIN_ATS) + sum(
            _other_script(tokens[k][2]) and bool(_phrase_at(tokens, k, dots)) for k in range(first, last + 1)
        ) >= _FOREIGN_WORDS
        labels = [tokens[k][2] for k in range(index + at_size, last + 1) if _WORD.fullmatch(tokens[k][2])]
        if not (spelt or foreign or glued) or not said_dots or _prose_domain(labels, spelt):
            # plain words and dots: the plainer reader's, with its checks for prose ("Barnen ät lunch punkt nu"); a
            # domain prose says ("my e t a at this point is noon", "getting dash started at README dot md")
            continue
        yield tokens[first][0], tokens[last][1]
        done = tokens[last][1]


_FOREIGN_WORDS = 2
_PLAIN_ATS = frozenset({"at", "et", "ät"})  # words prose says: the others ("arroba", "آت", "at the rate") say "@"
# Top-level domains that are words too, and a file's extensions: after "point" or "dot" in prose ("at this
# point in time", "the bug at auth dot py"), a sentence's words more than an address's end.
_WORD_TLDS = frozenset(
    "in is it to at me no so be do go us am an as my by on or of if up md py sh js ts rb pl".split()  # noqa: SIM905
)
_FILE_EXTENSIONS = frozenset({"md", "py", "sh", "js", "ts", "rb", "rs", "go", "cs", "kt", "php"})
_PROSE_LABELS = frozenset("this that one the a my your our his her their some any each every no which what".split())  # noqa: SIM905


def _prose_domain(labels: list[str], spelt: bool) -> bool:
    """A domain read where prose goes on: its first label a word prose puts there ("at this point is"), or a
    word's top-level domain after a local part not spelt out ("hit snag at step dash two dot in")."""
    if not labels:
        return True
    if labels[0] in _PROSE_LABELS:
        return True
    if labels[-1] in _FILE_EXTENSIONS or (labels[-1] in _WORD_TLDS and not spelt):
        return True  # "getting dash started at README dot md", "user underscore login at auth dot py"
    # a domain of numbers only but a mail provider's ("163 点 com"), which a time says too ("at 10 点 in")
    return all(label.isdigit() for label in labels[:-1]) and labels[0] not in _NUMBERED_PROVIDERS


_NUMBERED_PROVIDERS = frozenset({"163", "126", "139", "189", "qq"})


def _said_as_one(lower: str, tokens: list[tuple[int, int, str]], first: int, last: int) -> bool:
    """Only blanks between the address's words (a comma or a full stop ends a clause)."""
    return all(not lower[tokens[k][1] : tokens[k + 1][0]].strip() for k in range(first, last))


def _other_script(word: str) -> bool:
    """A word written in a script other than Latin ("ät" and "małpa" are Latin)."""
    return any(ord(char) > _LATIN_END for char in word)


_LATIN_END = 0x024F


def _trimmed(match: re.Match[str]) -> tuple[int, int, str]:
    """A token without the full stop that ends its sentence ("... web Punkt de.")."""
    token = match.group()
    if len(token) > 1 and token.endswith("."):
        token = token.rstrip(".") or token
    return match.start(), match.start() + len(token), token


def _phrase_at(tokens: list[tuple[int, int, str]], index: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """How many tokens from ``index`` say one of ``phrases`` (the longest), or 0."""
    best = 0
    for phrase in phrases:
        size = len(phrase)
        if size > best and index + size <= len(tokens) and all(tokens[index + k][2] == phrase[k] for k in range(size)):
            best = size
    return best


def _phrase_before(tokens: list[tuple[int, int, str]], end: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """How many tokens ending before ``end`` say one of ``phrases`` (the longest), or 0."""
    best = 0
    for phrase in phrases:
        size = len(phrase)
        if size > best and end - size >= 0 and all(tokens[end - size + k][2] == phrase[k] for k in range(size)):
            best = size
    return best


def _said_digit(token: str) -> bool:
    """A digit said as a word ("dziewięć", "आठ"), not typed."""
    return token in DIGIT_WORDS


def _local_before(
    tokens: list[tuple[int, int, str]],
    at: int,
    dots: tuple[tuple[str, ...], ...],
    underscores: tuple[tuple[str, ...], ...],
    dashes: tuple[tuple[str, ...], ...],
) -> tuple[int, bool] | None:
    """The first token of the local part before the "@" word at ``at``, and whether it was dictated (spelt,
    joined by a said underscore or dash, or digits said as words); None where there is none."""
    end = at  # tokens before ``end`` are still to read
    floor = max(0, at - _LOCAL_MOST)
    first = -1
    dictated = False
    while end > floor:
        while end > floor and _TIMESTAMP.fullmatch(tokens[end - 1][2]):
            end -= 1
        piece = _piece_before(tokens, end, floor)
        if piece is None:
            break
        first, spelt = piece
        dictated = dictated or spelt
        # joined to a piece before it by a said dot, underscore or dash
        joint = first
        while joint > floor and _TIMESTAMP.fullmatch(tokens[joint - 1][2]):
            joint -= 1
        size = _phrase_before(tokens, joint, underscores) or _phrase_before(tokens, joint, dashes)
        if size:
            dictated = True
        else:
            size = _phrase_before(tokens, joint, dots)
        if not size or joint - size <= floor:
            break
        end = joint - size
    return None if first == -1 else (first, dictated)


def _piece_before(tokens: list[tuple[int, int, str]], end: int, floor: int) -> tuple[int, bool] | None:
    """The first token of the piece of a local part ending before ``end`` (one word, or three single letters or
    more, either followed by digits said as words), and whether it was spelt or said in digits; or None."""
    digits = 0
    while end - digits > floor and _said_digit(tokens[end - digits - 1][2]):
        digits += 1
    piece_end = end - digits
    letters = 0
    while piece_end - letters > floor and _LETTER.fullmatch(tokens[piece_end - letters - 1][2]):
        letters += 1
    if letters >= _SPELT_LETTERS:
        return piece_end - letters, True
    if piece_end > floor and _WORD.fullmatch(tokens[piece_end - 1][2]):
        return piece_end - 1, digits > 0
    if digits:
        return piece_end, True  # digits alone ("... punto uno uno at ...")
    return None


_SPELT_LETTERS = 3


def _domain_after(
    tokens: list[tuple[int, int, str]],
    start: int,
    dots: tuple[tuple[str, ...], ...],
    dashes: tuple[tuple[str, ...], ...],
) -> tuple[int, bool, bool] | None:
    """The last token of the domain after the "@" word, whether a dot was said, and whether the domain was
    dictated ("dotcom" said as one word, a dash said inside a label); None where there is none."""
    index = start
    ceiling = min(len(tokens), start + _DOMAIN_MOST)
    labels: list[str] = []
    last = -1
    said = glued = False
    while index < ceiling:
        token = tokens[index][2]
        if token in _GLUED_TLDS and labels:
            labels.append(_GLUED_TLDS[token])
            last = index
            said = glued = True
            break
        if "." in token and all(_WORD.fullmatch(part) for part in token.split(".")):
            labels.extend(token.split("."))  # "gmail.com" written as it is, within what was said
        elif _WORD.fullmatch(token):
            labels.append(token)
        else:
            break
        last = index
        index += 1
        while index < ceiling:  # a label's words joined by a said dash ("brightlake dash health")
            size = _phrase_at(tokens, index, dashes)
            if not size or index + size >= ceiling or not _WORD.fullmatch(tokens[index + size][2]):
                break
            last = index = index + size
            index += 1
            glued = True  # a dash said inside a label: dictated
        if index < ceiling and tokens[index][2] in _GLUED_TLDS:
            continue  # "northwind-bank dotcom"
        size = _phrase_at(tokens, index, dots)
        if not size:
            break
        said = True
        index += size
    if len(labels) < 2 or not known_tld(labels[-1]):
        return None
    return last, said, glued
