"""A wallet's seed phrase with no label before it: BIP-39's words, their checksum holding, in a text about wallets.

recovery.py reads a seed phrase after its label ("Recovery phrase (12 words): ..."), in the languages whose labels it
knows. A customer who pastes one into a support chat in Russian, Chinese or Indonesian ("сид-фразу в чат поддержки:
...", "助记词：...", "frasa pemulihan: ...": reviewer CU) gives no label we know; nor does one written to get past a
filter: in capitals joined by dashes ("ADVANCE-CLAY-ONLY-..."), or cut to each word's first four letters, which BIP-39
makes unique ("enfo exte okay dept ...").

What decides is the standard's own check: 12, 15, 18, 21 or 24 of its words in a row (or their first four letters),
nothing but blanks, a line break or a dash between them, and the checksum their last bits carry holding (one random
row of twelve in sixteen passes it, of twenty-four one in 256). Prose seldom runs twelve of its words without a short
one ("a", "of", "to"); and only in a text that names a wallet, a seed, a phrase, a backup or a coin, in any of the
languages below, is such a row looked for at all. Not the list itself quoted in order, nor a phrase the line before
calls a test vector, an example or a demo (an attacker's round: docs, glossaries and tutorials quote them).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from securemem.pii import bip39
from securemem.pii.normalize import viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, index_words

Hit = tuple[str, int, int]

# A text that speaks of a wallet's secret, in the languages of the reviewers' corpora (lower case). Read in the scan's
# view, which writes look-alike letters of other scripts as Latin ones ("сид" is read "cид"): each word is looked for
# as the view writes it.
_CONTEXT_WORDS = (
    "seed", "mnemonic", "phrase", "backup", "recovery", "wallet", "crypto", "bitcoin", "btc", "ethereum", "ledger",
    "trezor", "metamask", "frase", "frasa", "semilla", "semente", "palavras", "cartera", "carteira", "portefeuille",
    "wiederherstellung", "geldbörse", "сид", "мнемон", "фраз", "кошел", "гаманц", "助记", "助記", "钱包", "錢包",
    "種子", "シード", "ウォレット", "복구", "니모닉", "지갑", "khôi phục", "cụm từ", "dompet", "pemulihan", "cüzdan",
    "kurtarma", "πορτοφόλι", "ארנק", "محفظة", "عبارة", "बीज", "वॉलेट", "กระเป๋า",
    # (the attacker's round: a wallet and a recovery in Polish, Romanian, Czech, Dutch, the Nordic languages, Finnish,
    # Hungarian, Swahili, Persian, Italian, Portuguese, Spanish; a restore)
    "portfel", "portofel", "peněženk", "obnovovac", "herstel", "återställ", "gjenopprett", "gendannelse", "palautus",
    "helyreállít", "pochi", "کیف پول", "portafoglio", "recupero", "recuperação", "recuperación", "restore", "restaurar",
    "billetera",  # Latin America's wallet ("Mi billetera: 1. cute ...": an attacker of the README's promises)
)  # fmt: skip
# Found with the gates' words, in the one pass of C every scan makes (a pattern of these alternatives, tried at every
# character, cost ordinary prose a tenth of its scan).
_CONTEXT = index_words(*viewed_words(*_CONTEXT_WORDS))
# A list numbered in the layouts quizzes, homework and bingo cards use (see _classic) is a seed only in a text that
# names a wallet or a seed's phrase outright, a whole word: not "phrase", "backup", "recovery", "restore", "ledger",
# "crypto" or "seed" alone, which homework ("Escribe una frase con cada palabra: | 1 | desk |"), a garden's or a
# tournament's seeds, a café's ledger and a "Cryptography club" speak of, nor "pochi" (Italian "few"): one such list of
# twelve words in sixteen passes the checksum (an attacker's round)
_WALLET_WORDS = (
    "wallet", "seed phrase", "seed words", "recovery phrase", "recovery words", "secret recovery", "mnemonic phrase",
    "mnemonic words", "mnemonic seed", "mnemonic code",
    "bip39", "bip-39", "bitcoin", "ethereum", "trezor", "metamask", "ledger nano", "ledger live", "exodus", "cartera",
    "carteira", "portefeuille", "billetera", "geldbörse", "portfel", "portofel", "peněženk", "portafoglio", "cüzdan",
    "dompet", "сид-фраз", "мнемон", "кошел", "гаманц", "助记", "助記", "钱包", "錢包", "シード", "ウォレット", "니모닉",
    "지갑", "πορτοφόλι", "ארנק", "محفظة", "वॉलेट", "กระเป๋า", "کیف پول",
)  # fmt: skip
_WALLET = index_words(*viewed_words(*_WALLET_WORDS))
_WORD = lazy_compile(r"[a-z]+")
# What may stand between two words of a row: blanks and line breaks, a dash (a phrase in capitals joined by dashes), or
# a comma (a phrase pasted as a list: "liar, hurry, puzzle, ..."; the word list quoted so in docs and glossaries is in
# its own order, refused by _in_order). Not slashes, dots or a table's cells (an attacker's round).
_GAP = lazy_compile(r"[ \t]{1,4}|[ \t]*\r?\n[ \t]*|-|[ \t]*,[ \t]{0,4}")
# Words that say a phrase is the standard's example or a tool's demo (a test vector, a docs snippet, a tutorial's), in
# the line before it
_EXAMPLE_BEFORE = lazy_compile(
    r"test|example|e\.g\.|sample|demo|docs?\b|documentation|tutorial|vector|fixture|dummy|placeholder|well-known|"
    r"wordlist|word list|glossary|excerpt|spec\b"
)
_EXAMPLE_REACH = 96
_HEADING_LINES = 4  # the lines above a numbered list: its heading, a blank line, a table's header and its rule
_EXAMPLE_WORD = lazy_compile(r"(?<![^\W\d_])(?:" + _EXAMPLE_BEFORE.pattern + r")(?![^\W\d_])")
# A phrase written as a list ("liar, hurry, puzzle, ...") only right after its label and a colon: a seed's, a
# mnemonic's, a recovery's or a backup's phrase or words, an aside in brackets between ("Recovery phrase (as the
# customer typed it):"), the label maybe on the line before. Not a word of these in another ("Seed order:", "Seeds:",
# "keywords:", "Mnemonic device for kids:", "recovery menu:"), not "=": lists of garden seeds, menus, phrase books and
# keywords in a text about crypto pass the checksum one time in sixteen (an attacker's round).
_LISTED_AFTER = lazy_compile(
    r"(?<![^\W\d_])(?:(?:seed|recovery|backup|secret|wallet|mnemonic)[ \-](?:phrase|words|sentence)"
    r"|wallet seed(?: words)?|seed|mnemonic)(?:[ \t]*\([^()\n]{0,40}\))?[ \t]*:[ \t]*\n?[ \t]*$"
)
_COUNTS = (24, 21, 18, 15, 12)
_DISTINCT = 9  # different words of twelve at least ("test test ... junk" is a developer's tool's)
_PREFIXES = {word[:4]: word for word in bip39.WORDS if len(word) > 4}


def may_hold_seed(scan: Scan) -> bool:
    lower = scan.lower
    return len(lower) >= _SHORTEST and (
        not _CONTEXT.isdisjoint(scan.words) or _NUMBERED_FIRST.search(lower) is not None
    )


# A phrase numbered word by word from 1 ("1)nuclear 2)bean 3)picture ... 24)margin", "1. liar 2. hurry ...": reviewer
# CV): twelve to twenty-four of the standard's words, each after its number in order, whose checksum holds; in a text
# that names a wallet, a seed or a phrase (_CONTEXT), or of twenty-four words whatever the text speaks of (a list passes
# one time in 256). Not the list's own order, nor words with a capital first ("1) Head 2) Hair ... 12) Stomach", a
# vocabulary test's answers, "1. CAT 2. TIGER ... 24. LIZARD", a word search's, passed: an attacker's round).
# (led by the digit, the look-behind after it: a pattern led by a look-behind is tried at every character)
# (from 1 or 01: "01. barrel 02. ..."; the number maybe opened, "(1)", "[1]", "#1", "Word 1:", and marked by a bracket,
# a stop, a colon, a dash, "=", ".)" or a table's "|", a blank before it or not, or by nothing: "1 - word", "#1 word",
# "1 word 2 word"; or counted, "1/12 word", "Word 1 of 12:", "1st word"; the word maybe quoted: an attacker's round)
_MARK = r"(?:/[0-9]{1,2}|[ \t]of[ \t][0-9]{1,2}|st|nd|rd|th)?(?:[ \t]?(?:[).:\]\-=|]|\.\)))?"
_QUOTE = r"[\"'“‘]?"
_TITLED = lazy_compile(r"[0-9]" + _MARK + r"[ \t]*" + _QUOTE + "[A-Z]")
_NUMBERED_FIRST = lazy_compile(r"1(?<![1-9]1)(?<![0-9][0-9]1)" + _MARK + r"[ \t]*" + _QUOTE + r"[a-z]{3,8}(?![a-z])")
# What may open the first number, read back from it: "(1)", "[1]", "#1", "Word 1:", "| 1 |", "- 1."
_OPENED = lazy_compile(r"(?:word[ \t]*|\|[ \t]*|-[ \t]+|[(\[#])\Z")
_OPENER_REACH = 6
# (each item after the one before's blanks, a comma, a semicolon, a pipe or a slash, line breaks, a list's "-" or a
# table's "|" leading the line)
# (each run of blanks possessive: three runs side by side, each giving back to the next, were cubic: 800 blanks after
# a first item took 11 s, an attacker of the README's promises)
_NUMBERED = lazy_compile(
    r"[ \t]*+[\"'”’]?[ \t]*+[,;|/]?[ \t]*+(?:\r?\n[ \t]*+){0,2}(?:[-*][ \t]++|\|[ \t]*+)?(?:word[ \t]*+)?[(\[#]?"
    r"(?<![0-9])(?P<n>[0-9]{1,2})" + _MARK + r"[ \t]*" + _QUOTE + r"(?P<word>[a-z]{3,8})(?![a-z])"
)
# After the last word: its closing quote, a table's closing "|"
_CLOSED = lazy_compile(r"[\"'”’]?(?:[ \t]*\|)?")


# The layouts reviewer CV's seeds came in ("1)nuclear 2)bean ...", "1. liar\n2. hurry"): twenty-four words need no
# context, fewer a word of _CONTEXT; in the others (a table's rows, "Word 1:", "1/24", "1st", "- 1.", "#1", pipes,
# slashes, quotes) quizzes, bingo cards and rankings write twenty-four words too (an attacker's round): a wallet must
# be named (_WALLET_WORDS)
_CLASSIC = lazy_compile(r"0?1[).:]?[ \t]*[a-z]{3,8}")
# (a table's cells, slashes, quotes, "#1", "Word 1:" or blank lines between items)
_LAID_OUT = lazy_compile(r"[|/\"'#\[\]=“”‘’]|word|\n[ \t]*\r?\n")


def _numbered_seeds(scan: Scan, context: bool) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    for first in _NUMBERED_FIRST.finditer(lower):
        start = first.start() - (lower[first.start() - 1 : first.start()] == "0")  # "01." read from its "0"
        opened = _OPENED.search(lower, max(0, start - _OPENER_REACH), start)
        if opened is not None:
            start = opened.start()  # read from the opener
        at, number, words = start, 1, []
        while number <= _COUNTS[0]:
            item = _NUMBERED.match(lower, at)
            if item is None or int(item["n"]) != number or (word := _bip39_word(item["word"])) is None:
                break
            words.append(word)
            at = item.end()
            closed = _CLOSED.match(lower, at)
            end = at if closed is None else closed.end()
            number += 1
        if (
            len(words) in _COUNTS
            and (
                _wallet_named(scan)
                if not _classic(lower, start, first.end(), end)
                else context or len(words) == _COUNTS[0]
            )
            and len(set(words)) >= _DISTINCT
            and not _in_order(words)
            and not _TITLED.search(text, start, end)
            and " ".join(words) not in bip39.PUBLIC_MNEMONICS
            and bip39.checksum_holds(words)
        ):
            yield "GENERIC_SECRET", start, end


def _classic(lower: str, start: int, first_end: int, end: int) -> bool:
    """The list numbered as reviewer CV's seeds were: "1)", "1." or "1:", blanks, commas or lines between."""
    return _CLASSIC.fullmatch(lower, start, first_end) is not None and _LAID_OUT.search(lower, start, end) is None


_SHORTEST = 12 * 4  # twelve words of three letters and their blanks


def _bip39_word(token: str) -> str | None:
    """The standard's word ``token`` is, whole or as its first four letters."""
    if token in bip39.WORDS:
        return token
    return _PREFIXES.get(token) if len(token) == 4 else None


def _in_order(words: list[str]) -> bool:
    """The words mostly in the list's own order: an excerpt of the list (a random phrase has half its pairs so)."""
    rising = sum(a < b for a, b in itertools.pairwise(words))
    return rising >= len(words) - 2


def find_unlabelled_seeds(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    context = not _CONTEXT.isdisjoint(scan.words)
    for hit in _numbered_seeds(scan, context):
        if not _an_example(lower, hit[1], numbered=True):
            yield hit
    if not context:
        return
    for hit in _rows(lower):
        if not _an_example(lower, hit[1]) and (
            "," not in lower[hit[1] : hit[2]]
            or _LISTED_AFTER.search(lower, _line_before(lower, hit[1]), hit[1]) is not None
        ):
            yield hit


def _wallet_named(scan: Scan) -> bool:
    """A word of _WALLET_WORDS in the text, whole (asked only of a run of twelve to twenty-four numbered words in a
    layout _classic does not cover, not of every text)."""
    return any(_whole(scan.lower, at) for word in _WALLET if word in scan.words for at in scan.places(word))


def _whole(lower: str, at: int) -> bool:
    """The word found at ``at`` is not the end of a longer one ("paraphrase", "cryptography")."""
    return at == 0 or not lower[at - 1].isalpha()


def _an_example(lower: str, start: int, *, numbered: bool = False) -> bool:
    """An example's or a test vector's word before the phrase, on its line (_EXAMPLE_BEFORE); a numbered list's heading
    is the line before it as often ("Example recovery phrase (never use it):\n1. ..."), and there the word is whole
    ("my greatest fear", "the latest update" name none: an attacker's round)."""
    line_start = lower.rfind("\n", max(0, start - _EXAMPLE_REACH), start) + 1
    if not numbered:
        return _EXAMPLE_BEFORE.search(lower, max(line_start, start - _EXAMPLE_REACH), start) is not None
    heading = line_start
    if lower[line_start:start].strip(" \t|#-") == "":  # read from the heading, past a table's header and rule
        for _ in range(_HEADING_LINES):
            heading = _line_before(lower, heading)
    return _EXAMPLE_WORD.search(lower, max(heading, start - 2 * _EXAMPLE_REACH), start) is not None


def _line_before(lower: str, start: int) -> int:
    """Where the line before ``start``'s starts (its own line's start when it is the first)."""
    line_start = lower.rfind("\n", 0, start) + 1
    return lower.rfind("\n", 0, max(0, line_start - 1)) + 1


def seed_spans(lower: str, start: int, end: int) -> Iterator[Hit]:
    """The phrases whose checksum holds in ``lower[start:end]`` (recovery.py joins them with a label's words)."""
    return _rows(lower, start, end)


def _rows(lower: str, start: int = 0, end: int | None = None) -> Iterator[Hit]:
    row: list[tuple[str, int, int]] = []  # the standard's words read in a row: (word, start, end)
    for match in _WORD.finditer(lower, start, len(lower) if end is None else end):
        word = _bip39_word(match.group())
        if word is None or (row and _GAP.fullmatch(lower, row[-1][2], match.start()) is None):
            if len(row) >= _COUNTS[-1]:  # (most rows are a word or two: no call for them)
                yield from _seeds_in(row)
            row = []
        if word is not None:
            row.append((word, match.start(), match.end()))
    yield from _seeds_in(row)


def _seeds_in(row: list[tuple[str, int, int]]) -> Iterator[Hit]:
    """The mnemonics a row of the standard's words holds, as spans: every window of a mnemonic's length whose checksum
    holds, those that overlap joined. A word of the list before the phrase ("Seed phrase rival enough ...", "keep it
    safe rival ...") may start a window that passes too (one in sixteen), shifted by a word: alone it would stand for
    the phrase and leave its last word out (an attacker's round); joined with the phrase's own window, both are
    covered."""
    spans: list[tuple[int, int]] = []
    for at in range(len(row) - _COUNTS[-1] + 1):
        for count in _COUNTS:
            words = [word for word, _, _ in row[at : at + count]]
            if (
                len(words) == count
                and len(set(words)) >= _DISTINCT
                and not _in_order(words)
                and " ".join(words) not in bip39.PUBLIC_MNEMONICS
                and bip39.checksum_holds(words)
            ):
                start, end = row[at][1], row[at + count - 1][2]
                if spans and start <= spans[-1][1]:
                    spans[-1] = (spans[-1][0], max(spans[-1][1], end))
                else:
                    spans.append((start, end))
                break
    for start, end in spans:
        yield "GENERIC_SECRET", start, end
