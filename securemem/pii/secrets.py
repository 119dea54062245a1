"""Secrets found by shape or by context: the provider catalogue, keyword-anchored values
(``password: ...``, ``token=...``), credentials in URLs, HTTP Basic credentials, and high-entropy
values next to secret-like words.

Each finder yields ``(type, start, end)`` in the offsets of the scanned (normalised) text.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import unicodedata
from collections.abc import Generator, Iterator
from functools import lru_cache
from itertools import pairwise

from securemem.pii.answers import PASSWORD_SYMBOLS
from securemem.pii.catalogue import ANCHORED, KEYED, PREFIXED, KeyedRule, Rule, mixed_case_with_digit, not_words
from securemem.pii.normalize import normalise_text, unaccented, viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import (
    RTL_LETTER,
    WORD_AFTER,
    LineStarts,
    Scan,
    a_date,
    a_month,
    by_first_letter,
    index_words,
    other_script,
    year_or_example,
)

Hit = tuple[str, int, int]

# ---------------------------------------------------------------- the catalogue

# Candidate token starts: the start of a run of 12 or more token characters ([A-Za-z0-9_.+~-]). The
# scan's token copy (Scan.tokens: "x" for a token character) finds such runs with a substring search
# for twelve "x" (C speed; prose has few words that long); a rule's own regex runs only where a run's
# first two characters start one of its prefixes.
_MIN_RUN = 12
_RUN_HINT = b"x" * _MIN_RUN


def _index(rules: tuple[Rule, ...]) -> dict[str, tuple[Rule, ...]]:
    """Rules by the first two characters of their prefixes (every prefix has two or more)."""
    by_first: dict[str, list[Rule]] = {}
    for rule in rules:
        for first in {prefix[:2] for prefix in rule.prefixes}:
            by_first.setdefault(first, []).append(rule)
    # Longer prefixes first: "sk-ant-api03-" is tried before the generic "sk-".
    return {
        first: tuple(sorted(found, key=lambda rule: -max(len(prefix) for prefix in rule.prefixes)))
        for first, found in by_first.items()
    }


_BY_FIRST = _index(PREFIXED)


def starts_a_prefixed_token(text: str, at: int) -> bool:
    """A catalogue rule's literal prefix starts at ``at`` ("ghp_", "sk_live_", "xoxb-", "AKIA" ...)."""
    rules = _BY_FIRST.get(text[at : at + 2])
    return rules is not None and any(text.startswith(prefix, at) for rule in rules for prefix in rule.prefixes)


# Each anchor's least common character: a one-character test (memchr) before the substring searches
# of the anchors it gates.
_COMMONNESS = " etaoinsrhldcumfpgwybvkxjqz.-,ETAOINSRHLDCUMFPGWYBVKXJQZ0123456789/:_=~"


def _gates(rules: tuple[Rule, ...]) -> tuple[tuple[str, tuple[tuple[Rule, str], ...]], ...]:
    """Rules by their anchor's least common character, each with its anchor lower-cased: one of the gates' words,
    which the lower-cased text holds wherever the text holds the anchor, an ASCII one (a dictionary lookup, where a
    substring search read the whole text: ":AA" and "-us" in every note that holds a colon or a dash)."""
    by_gate: dict[str, list[tuple[Rule, str]]] = {}
    for rule in rules:
        if not rule.anchor.isascii():
            raise ValueError(f"an anchor is ASCII: {rule.anchor!r}")
        gate = max(rule.anchor, key=lambda char: _COMMONNESS.find(char) if char in _COMMONNESS else 99)
        key = rule.anchor.lower()
        index_words(key)
        by_gate.setdefault(gate, []).append((rule, key))
    return tuple((gate, tuple(found)) for gate, found in by_gate.items())


_ANCHOR_GATES = _gates(ANCHORED)


# A Twilio account SID with its auth token written beside it, as a client is built or a request
# authenticated ("Client('AC…', '…')  # auth token", "-u AC…:…"): the token is the 32 hex digits
# after the SID, which no key name announces (reviewer D's blind round).
_TWILIO_PAIR = lazy_compile(
    r"(?<![0-9A-Za-z])AC[0-9a-f]{32}[\"']?[ \t]*[,:][ \t]*[\"']?(?P<token>[0-9a-f]{32})(?![0-9A-Za-z])"
)
# ... and an API key's SID with its secret, 32 letters and digits of both cases (`twilio("SKd75b...", "LfUQi35I...")`:
# reviewer CW)
_TWILIO_KEY_PAIR = lazy_compile(
    r"(?<![0-9A-Za-z])SK[0-9a-f]{32}[\"']?[ \t]*[,:][ \t]*[\"']?"
    r"(?P<secret>(?=[A-Za-z]*[0-9])(?=[0-9a-z]*[A-Z])(?=[0-9A-Z]*[a-z])[0-9A-Za-z]{32})(?![0-9A-Za-z])"
)


def find_sid_pairs(scan: Scan) -> Iterator[Hit]:
    for match in _TWILIO_PAIR.finditer(scan.text):
        yield "TWILIO_AUTH_TOKEN", match.start("token"), match.end("token")
    if "SK" in scan.text:
        for match in _TWILIO_KEY_PAIR.finditer(scan.text):
            yield "TWILIO_AUTH_TOKEN", match.start("secret"), match.end("secret")


# An AWS access key id with its secret key written beside it, as a pair is pasted ("AKIA… / …", "AKIA…:…",
# "AKIA…, …"): 40 characters of base64 after the id, which no key name announces (reviewer W). The
# secret has letters of both cases and a digit (a 40-character path or word has not).
_AWS_PAIR = lazy_compile(
    r"(?<![0-9A-Za-z])(?:AKIA|ASIA)[A-Z0-9]{16}[\"'`]?[ \t]*(?:[,:;|/][ \t]*|[ \t])[\"'`]?"  # markdown's `...` too
    r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)


# An AWS access key id written in groups of four, as a PDF or a letter sets it ("AKIA LCRT Z6NA PPYT 4JHA":
# reviewer AX); one blank or dash between groups, the same throughout. Its sixteen characters are base32
# (capitals and 2 to 7), a letter in each group and a digit in one: not a region's row of years or counts
# ("ASIA 2021 2022 2023 2024"), a campaign's code ("ASIA-PACF-2024-SUMR-0001") or capitals' words
# ("ASIA TOUR 2025 LIVE HALL"): an attacker's round.
_AWS_ID_GROUPED = lazy_compile(
    r"(?<![0-9A-Za-z])(?:AKIA|ASIA)(?P<joint>[ \-])(?P<groups>[A-Z2-7]{4}(?:(?P=joint)[A-Z2-7]{4}){3})(?![0-9A-Za-z])"
)


def _aws_groups(match: re.Match[str]) -> bool:
    """A letter in each group, a digit in one."""
    groups = match["groups"]
    return not any(part.isdigit() for part in groups.split(match["joint"])) and any(char.isdigit() for char in groups)


# A secret access key in the line that names it or holds its key id, with words between them
# ("aws_secret_access_key pasted from a Word doc: ... (key id ASIA...)": reviewer BB): 40 characters of
# base64, small and capital letters and a digit (a git SHA, hex, has no capitals).
_AWS_SECRET_NAMED = lazy_compile(
    r"(?i:aws_?secret(?!s)|secret[ _]?access[ _]?key|aws secret(?!s))"
    r"|(?<![0-9A-Za-z])(?:AKIA|ASIA)[A-Z0-9]{16}(?![0-9A-Za-z])"
)
_AWS_SECRET_ALONE = lazy_compile(r"(?<![A-Za-z0-9/+=_\-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_\-])")


def find_aws_pairs(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for match in _AWS_PAIR.finditer(text):
        if mixed_case_with_digit(match["secret"]):
            yield "AWS_SECRET_KEY", match.start("secret"), match.end("secret")
    for match in _AWS_ID_GROUPED.finditer(text):
        if _aws_groups(match):
            yield "AWS_ACCESS_KEY", *match.span()


# Django's SECRET_KEY as get_random_secret_key() draws it: fifty characters of small letters, digits and
# "!@#$%^&*(-_=+)", whose brackets, "=" and "&" end a value anywhere else ("SECRET_KEY=0y(59^rxg*z_)=w64spc&=...",
# "secret: *qew+=*z^gy9xsn+z!tlp2+...", "シークレット：!_hlrrbq(x^v+0s5rk81k...": reviewer BD): after a word for a
# secret in its line, with symbols, digits and letters enough to be drawn at random.
_DJANGO_ALPHABET = r"a-z0-9!@#$%^&*(\-_=+)"
# (An "=" before it is an assignment's: "SECRET_KEY=0y(59^...".)
_DJANGO_KEY = lazy_compile(rf"(?<![A-Za-z0-9!@#$%^&*(\-_+)])[{_DJANGO_ALPHABET}]{{50}}(?![A-Za-z0-9!@#$%^&*(\-_=+)])")
_SECRET_WORD_BEFORE = lazy_compile(
    rf"(?i:secret|django|シークレット|秘密|{normalise_text('секрет').lower()}|geheim|segredo|segreto)"
)
_DRAWN_SYMBOLS = frozenset("!@#$%^&*(=+)")
_DJANGO_CHAR = lazy_compile(r"[A-Za-z0-9!@#$%^&*(\-_=+)]")
_QUERY_PAIR = lazy_compile(r"[a-z]+=[a-z0-9()+\-]*&")
DJANGO_LITERALS = ("secret", "django", "シークレット", "秘密", normalise_text("секрет").lower(), "geheim", "segredo",
                   "segreto")  # fmt: skip


def find_django_keys(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    done = 0
    for named in _SECRET_WORD_BEFORE.finditer(text):  # only the stretch after each word is read (most text has none)
        low = max(done, named.end())
        match = _DJANGO_KEY.search(text, low, min(len(text), named.end() + 48 + 50 + 1))
        if match is None or _DJANGO_CHAR.match(text, match.end()) or "\n" in text[named.end() : match.start()]:
            continue  # a run longer than fifty the window's end cut; a key on another line than the word
        done = match.end()
        value = match.group()
        symbols = sum(1 for char in value if not char.isalnum())
        digits = sum(1 for char in value if char.isdigit())
        if len(_QUERY_PAIR.findall(value)) >= 2:
            continue  # a query's or a setting's "name=value&" ("rotate=90d&notify=7d&...": an attacker's round)
        letters = len(value) - symbols - digits
        if symbols < 6 or digits < 5 or letters < 15 or len(set(value) & _DRAWN_SYMBOLS) < 2 or len(set(value)) < 26:
            # an identifier's "_" and "-" alone ("secret_rotation_2024_12_05_v2_..."); a formula's single letters
            # and a query's few characters ("(x+1)*(y-2)=z^3+...", "cpf=000&rg=111&nome=joao+...": an attacker's
            # round): fifty characters drawn from fifty hold some thirty different ones
            continue
        yield "GENERIC_SECRET", *match.span()


# "aws_sk", a secret key's short name, assigned the key itself ("aws_sk = z1Spr...": reviewer BW); not a table's or a
# region's "aws_sk" with a value further on the line (an attacker's round)
_AWS_SK = lazy_compile(r"(?i:aws[_\-]?sk)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=_\-])")


def find_aws_named_secrets(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    if "sk" in scan.lower:
        for short in _AWS_SK.finditer(text):
            if mixed_case_with_digit(short["value"]) and not_words(short["value"]):
                yield "AWS_SECRET_KEY", *short.span("value")
    lines: set[int] = set()
    for named in _AWS_SECRET_NAMED.finditer(text):
        start = text.rfind("\n", 0, named.start()) + 1
        if start in lines:
            continue
        lines.add(start)
        end = text.find("\n", named.end())
        for match in _AWS_SECRET_ALONE.finditer(text, start, len(text) if end < 0 else end):
            # not words run together, as a stack's outputs and roles are named ("ReadOnlyAuditRoleForSecurityHub
            # Findings2": the attacker's round on reviewer BC's readers)
            if mixed_case_with_digit(match[0]) and "/" not in match[0][:1] and not_words(match[0]):
                yield "AWS_SECRET_KEY", *match.span()


# A key's prefix followed by one character only, as examples and templates write one
# ("sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"): no key.
_FILLER = lazy_compile(
    r"[A-Za-z]{2,12}[_\-]?(?:[A-Za-z]{2,8}[_\-])?(?:x{12,}|X{12,}|\*{8,}|0{16,})"
)  # "AKIAXXXX..." too


def find_catalogue(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    by_first = _BY_FIRST
    # The start of each run of 12 token characters or more, found in the token copy at C speed
    # (inline, not a generator of runs: this detector reads every text).
    canonical = scan.tokens
    at = canonical.find(_RUN_HINT)
    while at != -1:
        start = at
        while start > 0 and canonical[start - 1] == 0x78:  # "x": the run began before the hint
            start -= 1
        if start and text[start - 1] == "%" and text[start + 2 : start + 4] in by_first:
            start += 2  # "...%3Dghp_...", "%22ghp_...": the token after a percent-encoded character
        for rule in by_first.get(text[start : start + 2], ()):
            match = rule.pattern.match(text, start)
            if match is not None and (rule.check is None or rule.check(match.group())):
                if not _FILLER.fullmatch(match.group()):
                    yield rule.type, start, match.end()
                break
        end = canonical.find(b" ", at + _MIN_RUN)
        if end == -1:
            break
        at = canonical.find(_RUN_HINT, end)
    words = scan.words
    for gate, rules in _ANCHOR_GATES:
        if gate in text:
            for rule, key in rules:
                if key in words and rule.anchor in text:
                    yield from _anchored(rule, text)


# A provider token whose dashes were spaced apart so that no scanner matches it ("xoxb - 139784289232 -
# 7445097702778 - gHvf...": reviewer CK): at each dash with a blank beside it, the token the word before it
# starts, its pieces joined again, must match a provider's rule whole.
# (read at each " - " whose word before is a prefix's head before its first dash, "xoxb", "sk", "glpat": found by
# str.find, as a pattern tried at every dash, markdown's bullets too, or at every head's letter cost a note's scan a
# tenth more and more)
_DASHED_HEADS = frozenset(prefix.split("-")[0] for rule in PREFIXED for prefix in rule.prefixes if "-" in prefix[2:])
_HEAD_BEFORE = lazy_compile(r"[A-Za-z0-9_.]{1,16}$")
_DASHED_PIECES = lazy_compile(r"[A-Za-z0-9_]{1,128}(?:[ \t]*-[ \t]*[A-Za-z0-9_]{1,128}){1,8}")


def find_dash_spaced_tokens(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    done = 0
    at = text.find(" - ")
    while at != -1:
        head = _HEAD_BEFORE.search(text, max(0, at - 16), at)
        at = text.find(" - ", at + 3)
        if head is None or head.start() < done or head.group() not in _DASHED_HEADS:
            continue
        if head.start() and (text[head.start() - 1].isalnum() or text[head.start() - 1] in "_-"):
            continue
        run = _DASHED_PIECES.match(text, head.start())
        if run is None:
            continue
        done = run.end()
        parts = list(_DASHED_PIECE.finditer(text, run.start(), run.end()))
        hit = _joined_token(
            [(part["piece"], part.start("piece"), part.end("piece")) for part in parts],
            [("-", part["joint"] != "-") for part in parts[1:]],
        )
        if hit is not None:
            yield hit


_DASHED_PIECE = lazy_compile(r"(?P<joint>[ \t]*-[ \t]*)?(?P<piece>[A-Za-z0-9_]+)")


def _whole_token(joined: str) -> str | None:
    """The type of the provider's rule that matches ``joined`` whole, prefixed or anchored; None for none."""
    for rule in _BY_FIRST.get(joined[:2], ()):
        match = rule.pattern.fullmatch(joined)
        if match is not None and (rule.check is None or rule.check(joined)):
            return rule.type
    for rule in ANCHORED:
        if rule.anchor in joined and rule.keep is None and rule.group == 0 and rule.pattern.fullmatch(joined):
            return rule.type
    return None


def whole_token_type(joined: str) -> str | None:
    """The type of the provider's rule that reads ``joined`` whole ("" and words read none)."""
    return _whole_token(joined) if len(joined) >= _SHORTEST_TOKEN else None


_SHORTEST_TOKEN = 8


def _joined_token(
    pieces: list[tuple[str, int, int]], joints: list[tuple[str, bool]], refused: frozenset[str] = frozenset()
) -> Hit | None:
    """The longest run of ``pieces`` (text, start, end; from the first) that, joined again by ``joints``
    (what each joint keeps, and whether a blank was taken out of it), is a provider's token whole with a
    blank taken out inside it, drawn at random (not words run together), of no type in ``refused``; its span."""
    for count in range(len(pieces), 1, -1):
        if not any(blank for _, blank in joints[: count - 1]):
            continue
        kept = [joint for joint, _ in joints[: count - 1]]
        joined = pieces[0][0] + "".join(joint + piece[0] for joint, piece in zip(kept, pieces[1:count], strict=True))
        # The rules first (a pattern each, in C), the random draw's checks only for what a rule reads whole: in that
        # order a run of prefixes each followed by thirty-two blocks cost 75 ms per KB (an attacker's round).
        kind = _whole_token(joined)
        if kind is None or kind in refused:
            continue
        if _FILLER.fullmatch(joined) or not _is_high_entropy(joined) or not not_words(joined):
            continue
        return kind, pieces[0][1], pieces[count - 1][2]
    return None


# A provider token with blanks around its own dots or colons, so that no rule matches it ("5333569827 :
# AA73MVaRt5...", "OTEwMzYx... . h4r-k_ . nTQV...": reviewer CM; tabs or two blanks, a head as short as SendGrid's
# "SG": an attacker's round): from the word before each spaced joint, the pieces joined again without the blanks
# must match a provider's rule whole.
JOINTS = (" : ", " . ", "\t:", "\t.", ":\t", ".\t")  # what a text holds where it holds a spaced joint
# (from a run's first blank only, and possessive: tried at each blank of a long run of them, each try read to the run's
# end, it was quadratic: 20 KB of tabs after "password:" took 2.4 s)
_SPACED_JOINT = lazy_compile(r"(?<![ \t])[ \t]++[.:][ \t]+")
_JOINT_RUN = lazy_compile(r"[A-Za-z0-9_\-]{2,128}(?:[ \t]*[.:][ \t]*[A-Za-z0-9_\-]{2,128}){1,3}")
_JOINT_PIECE = lazy_compile(r"(?P<joint>[ \t]*(?P<mark>[.:])[ \t]*)?(?P<piece>[A-Za-z0-9_\-]+)")
_WORDY = 8  # a piece this long or longer is read for words run together
# (through the token's own unspaced dots: "OTEw...Iw.h4r-k_ . nTQV...", "sk.eyJ... . x": an attacker's round)
_TOKEN_BEFORE = lazy_compile(r"(?<![A-Za-z0-9_\-.:])[A-Za-z0-9_\-]{2,128}(?:[.:][A-Za-z0-9_\-]{2,128}){0,2}$")


def find_spaced_joint_tokens(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    done = 0
    for joint in _SPACED_JOINT.finditer(text):
        if joint.start() < done:
            continue
        head = _TOKEN_BEFORE.search(text, max(done, joint.start() - 128), joint.start())
        run = _JOINT_RUN.match(text, head.start()) if head is not None else None
        if run is None:
            continue
        parts = list(_JOINT_PIECE.finditer(text, run.start(), run.end()))
        if any(len(part["piece"]) >= _WORDY and not not_words(part["piece"]) for part in parts):
            continue  # code names joined by spaced dots ("MigrationRunner2024AlphaX . v2beta . ..."): an attacker
        hit = _joined_token(
            [(part["piece"], part.start("piece"), part.end("piece")) for part in parts],
            [(part["mark"], part["joint"] != part["mark"]) for part in parts[1:]],
        )
        if hit is not None:
            done = hit[2]
            yield hit


# A provider token set out in blocks by blanks, as a careful or a hostile writer sets one ("sk-WRm01 trhs8hYT
# O8hV3jjT 3BlbkFJq ...": reviewer CM): from a provider's prefix (one with a dash or an underscore, found with
# the gates' words) whose token a blank cuts short, the blocks joined again must match the provider's rule whole.
_BLOCK_PREFIXES = frozenset(
    prefix.lower()
    for rule in PREFIXED
    for prefix in rule.prefixes
    if len(prefix) >= 3 and ("_" in prefix or "-" in prefix)
)
index_words(*_BLOCK_PREFIXES)
# Rules whose prefix is a word or a code's ("sk-" alone, Mollie's "test_" and "live_", Notion's "secret_", Octopus's
# "API-"): blocks after them are SKUs, sizes, test names and ticket tags as often ("sk-1042 XL2 BLK M3 QTY12 WH3",
# "test_Login OK200 GET2 POST3 DELETE4 PUT5": an attacker's round).
_UNBLOCKED = frozenset({"SK_API_KEY", "MOLLIE_API_KEY", "NOTION_LEGACY_TOKEN", "OCTOPUS_DEPLOY_API_KEY"})
_BLOCKS = lazy_compile(r"[A-Za-z0-9_\-]{1,64}(?:[ \t]{1,2}[A-Za-z0-9_\-]{1,64}){1,31}")
_BLOCK = lazy_compile(r"[A-Za-z0-9_\-]+")


def _random_block(block: str) -> bool:
    return any(char.isdigit() or char.isupper() for char in block[1:])


def may_hold_blocked_token(scan: Scan) -> bool:
    return not _BLOCK_PREFIXES.isdisjoint(scan.words)


def find_blocked_tokens(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    done = 0
    for word in _BLOCK_PREFIXES.intersection(scan.words):
        for at in scan.words[word]:
            if at < done or (at and (text[at - 1].isalnum() or text[at - 1] in "_-")):
                continue
            if not starts_a_prefixed_token(text, at):
                continue
            run = _BLOCKS.match(text, at)
            if run is None:
                continue
            blocks = list(_BLOCK.finditer(text, run.start(), run.end()))
            if _whole_token(blocks[0].group()) is not None:
                continue  # a whole token before a blank: the catalogue's own
            # Blocks of a random string, each with a digit or a capital after its first character, to the
            # first that has none ("... crS is the key": prose goes on after it)
            last = next((i for i, block in enumerate(blocks[1:], 1) if not _random_block(block.group())), len(blocks))
            blocks = blocks[:last]
            hit = _joined_token(
                [(block.group(), *block.span()) for block in blocks], [("", True)] * (len(blocks) - 1), _UNBLOCKED
            )
            if hit is not None:
                done = hit[2]
                yield hit


def _anchored(rule: Rule, text: str) -> Iterator[Hit]:
    at = text.find(rule.anchor)
    done = 0
    while at != -1:
        low = max(done, at - rule.lead - 1, 0)
        match = rule.pattern.search(text, low, min(len(text), at + len(rule.anchor) + rule.tail))
        if match is not None and match.start() <= at:
            start, end = match.span(rule.group)
            if rule.type == "AZURE_SAS_SIGNATURE":
                start, end = _sas_token(text, match.start(), start, end)
            if rule.keep is None or rule.keep(text, start, end):
                yield rule.type, start, end
            done = max(match.end(), end)
            at = text.find(rule.anchor, max(done, at + 1))
        else:
            at = text.find(rule.anchor, at + 1)


# An Azure SAS token is the whole query that holds its signature ("sv=2022-11-02&ss=b&srt=sco&sp=rl&
# se=2025-01-01T00:00:00Z&sig=..."): Azure names it so, and a reviewer labelled it so. The signature
# is widened over the SAS fields joined to it by "&" on either side (Azure's documented parameter
# names); a signature among other parameters, or alone, stays the signature.
_SAS_FIELDS = (
    "sv|ss|srt|sp|se|st|sip|spr|sr|si|sdd|ses|skoid|sktid|skt|ske|sks|skv|saoid|suoid|scid|"
    "rscc|rscd|rsce|rscl|rsct|tn|spk|srk|epk|erk"
)
_SAS_VALUE = r"[^&\s\"'<>#?]{0,128}"
_SAS_FIELD_BEFORE = lazy_compile(rf"(?<![\w\-.%])(?:{_SAS_FIELDS})={_SAS_VALUE}\Z")
_SAS_FIELD_AFTER = lazy_compile(rf"&(?:{_SAS_FIELDS})={_SAS_VALUE}(?![^&\s\"'<>#?])")
_SAS_FIELDS_MAX = 24  # fields read on either side


def _sas_token(text: str, sig: int, start: int, end: int) -> tuple[int, int]:
    """The span of the SAS token whose "sig=" is at ``sig`` and its value at ``start:end``."""
    first = sig
    for _ in range(_SAS_FIELDS_MAX):
        if first == 0 or text[first - 1] != "&":
            break
        floor = max(0, first - 1 - 160)  # a field's name, "=" and value
        field = _SAS_FIELD_BEFORE.search(text, text.rfind("&", floor, first - 1) + 1 or floor, first - 1)
        if field is None:
            break
        first = field.start()
    last = end
    for _ in range(_SAS_FIELDS_MAX):
        field = _SAS_FIELD_AFTER.match(text, last)
        if field is None:
            break
        last = field.end()
    return (first, last) if first < sig or last > end else (start, end)


# ---------------------------------------------------------------- keyword-anchored secrets

# Where a secret-like word occurs (in the lower-cased text, found with str.find: no regex pass).
_HINTS = (
    "pass", "pw", "secret", "token", "key", "cred", "auth", "sig", "pin", "pat", "bearer", "appid", "salt", "pepper",
    "seed",
)  # fmt: skip
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")
_KEY_MAX = 64
# What a name means when it is the whole key or its last part.
_PASSWORD_KEY = lazy_compile(
    r"(?:password|passwd|passphrase|passcode|pwd|authtok|(?:^|[_.\-])(?:pass|pw|pin)|"
    r"(?:^|[_.\-])(?:pg|root|admin|db|my|user|sys|sa|app|api|ftp|smtp|mail|redis|mysql|ldap|vnc|wifi|wlan)(?:pass|pw))$"
)
_SECRET_KEY = lazy_compile(
    r"(?:secret|token|credentials?|creds?|signature|apikey|api[_.\-]key|"
    r"(?:access|secret|private|auth|client|signing|encryption|master|license|licence|app|consumer|service|"
    r"account|storage|subscription|admin|webhook|deploy|ssh|gpg|pgp|hmac|jwt|session|x[_.\-]api|sas|shared)"
    r"[_.\-]?key|(?:^|[_.\-])sig|(?:^|[_.\-])auth|(?:^|[_.\-])bearer|"
    # the secret named first, then whose it is ("secret_client", "SECRET_APP": reviewer AD)
    r"(?:^|[_.\-])secret[_.\-]?(?:client|app|api|service|account|access|auth|consumer|webhook|signing|jwt|session))$"
)
# A hash's salt and pepper, an encryption's seed, a key's material ("ENCRYPTION_SEED=FqldJa9c...", 'pepper:
# "oP4imggt..."', '"signing_material":"UBo2p1fN..."': reviewer BJ): secrets only when their values are long and
# random, as a bare key's (not a game's or a generator's seed, "pepper: Carolina-Reaper2", a SaltStack minion's
# "salt: minion-Prod01": an attacker's round).
_RANDOM_KEY = lazy_compile(
    r"(?:(?:^|[_.\-])(?:salt|pepper)|(?:encryption|crypto|key|secret|master)[_.\-]?seed"
    r"|(?:signing|key|secret|encryption)[_.\-]?material)$"
)
_DOLLAR_ASSIGN = lazy_compile(r"[ \t]*=[^=]")
_SHORT_PASS_KEY = lazy_compile(r"(?:^|[_.\-])(?:pass|pw)$")
_NUMBER = lazy_compile(r"[0-9][0-9.,\-–]*")
_POLICY_VALUE = lazy_compile(r"[0-9][0-9\-–]*(?:-?[A-Za-z]+)?")


def _policy_text(text: str, secret: str, end: int) -> bool:
    """A rule or a state after a password label, not a password: a number or a word followed by
    more words ("8-64 characters", "90-day expiry", "mindestens 12 Zeichen", "mínimo 12")."""
    if not _followed_by_any_word(text, end):
        return False
    return bool(_POLICY_VALUE.fullmatch(secret)) or (secret.isalpha() and secret.islower())


def _followed_by_any_word(text: str, end: int) -> bool:
    return end + 1 < len(text) and text[end] in " \t" and not text[end + 1].isspace()


_SECRET_QUALIFIER = lazy_compile(
    r"(?<![a-z0-9_])(?:api|secret|private|access|auth|signing|encryption|master|license|licence|client|service)"
    r"[ _\-]$"
)
_KEY_SUFFIXES = lazy_compile(
    r"(?:[_.\-](?:v?[0-9]+|prod|production|dev|development|stage|staging|test|testing|qa|uat|old|new|ro|rw|eu|us|"
    r"base|live|primary|secondary|backup|main|default|local|current|next|prev|previous|b64|base64|hex|enc|value)"
    r"|(?<=[a-z])[0-9]+)+$"
)
_ANY_KEY = lazy_compile(r"(?:^|[_.\-])key$")
# A file format's "signature" written as its magic bytes, a few pairs of hex digits ("PNG signature: 89 50
# 4E 47 0D 0A 1A 0A": reviewer AO), is no secret; a file's signature of another shape may be one (an
# attacker's round: "File signature: 71ecb536...").
_FILE_SIGNATURE = lazy_compile(r"(?<![a-z])(?:png|gif|jpe?g|pdf|zip|gzip|elf|tiff?|bmp|webp|wav|mp3|mp4|magic)[ \t]+$")
_MAGIC_BYTES = lazy_compile(r"[ \t]*(?:[:=]|is)[ \t]*[0-9A-Fa-f]{2}(?:[ \t]?[0-9A-Fa-f]{2}){3,15}(?![ \t]?[0-9A-Za-z])")
# Name parts that say the value is not the secret itself.
_NOT_SECRET_KEY = lazy_compile(
    r"(?:^|[_.\-])(?:id|name|url|uri|path|file|type|length|len|size|count|min|max|hash|policy|prompt|field|"
    r"label|hint|header|expiry|expires|ttl|format|env|var|endpoint|mode|enabled|required|reset|regex|"
    r"pattern|rule|strength|public|publishable|pub|sort|partition|foreign|cache|lookup|idempotency|websocket|socket|dedupe|"
    r"dedup|correlation|request|trace|etag|primary|unique|index|composite|natural|surrogate|row|object|s3|bucket|"
    r"cursor|page|pagination|hotkey|shortcut|keyboard|algorithm|algo|cipher|kdf|scheme|method|provider|strategy|"
    r"manager|mgr|handler|store|storage|source|backend|engine|mode|next|continuation|resume|refresh[_.\-]?url)(?:[_.\-]|$)"
)
# A name that ends in what hashes the secret names the hasher ("PASSWORD_HASHER", "password_hashing").
_HASHER_LAST = lazy_compile(r"(?:^|[_.\-])(?:hasher|hashers|hashing)$", re.IGNORECASE)
# The assignment after a key: optional closing quote, then ":", "=", ":=", "=>", or the prose " is ".
# Make's "?=" too ("VERCEL_TOKEN ?= 9jrmg9Ceb...", reviewer M); not "+=", which code uses to join strings.
_ASSIGN = lazy_compile(
    r"""["'`\]]?[ \t]{0,8}(?P<op>:=|\?=|=>|->|\u2192|=(?!=)|:|[ \t]+(?:is|was|=|:)[ \t]+)[ \t]{0,8}"""
)
_ASSIGN_CLI = lazy_compile(r"[ \t]+")  # "--password hunter2"
# A password stored hashed under its scheme's name (LDAP's userPassword "{SSHA}...", slapd's rootpw,
# "{PBKDF2-SHA256}..."): still the password's, open to a dictionary attack; not a template's "{...}".
_HASH_SCHEME = r"(?i:\{(?:s?sha(?:256|384|512)?|s?md5|crypt|pbkdf2[\w-]{0,16}|argon2\w{0,4}|bcrypt)\})"
_HASHED = lazy_compile(_HASH_SCHEME + r"[A-Za-z0-9+/=.$_-]{8}")
# A bare value may hold an apostrophe between letters ("Don'tPanic42").
_VALUE = lazy_compile(
    r"""(?P<q>["'`])(?P<quoted>[^"'`\n]{1,256})(?P=q)"""
    rf"""|(?P<bare>{_HASH_SCHEME}[A-Za-z0-9+/=.$_-]{{8,256}}"""
    r"""|[^\s"'`,;<>(){}\[\]|](?:[^\s"'`,;<>(){}\[\]|]|(?<=[A-Za-z])'(?=[A-Za-z0-9])){0,255})"""
)
_TRAILING = ".,:;?)。、"
# In a URL query the next parameter ends the value: "?api_key=...&format=json".
_NEXT_PARAMETER = lazy_compile(r"&[A-Za-z_][A-Za-z0-9_.\-]*=")
_STOP_VALUES = frozenset(
    (
        "none",
        "null",
        "nil",
        "true",
        "false",
        "yes",
        "no",
        "required",
        "optional",
        # an API schema's access modes ('"password": "write-only"': reviewer CL)
        "write-only",
        "writeonly",
        "read-only",
        "readonly",
        "string",
        "str",
        "bytes",
        "bytearray",
        "float",
        "dict",
        "list",
        "tuple",
        "object",
        "any",
        "int",
        "integer",
        "bool",
        "boolean",
        "empty",
        "hidden",
        "redacted",
        "removed",
        "masked",
        "secret",
        "password",
        "passwd",
        "token",
        "key",
        "value",
        "undefined",
        "unset",
        "n/a",
        "na",
        "tbd",
        "todo",
        "example",
        "sample",
        "placeholder",
        "default",
        "changeit",
        "changeme",
        "change_me",
        "change-me",
        # a template's value to replace ('password: "REPLACE_ME"': reviewer CY)
        "replace_me",
        "replaceme",
        "replace-me",
        "fixme",
        "your_password",
        "your_token",
        "xxx",
        "yyy",
        "dummy",
        "test",
        "not",
        "set",
        "see",
        "below",
        "above",
        "omitted",
        "sensitive",
        "private",
        "public",
        "env",
        "environment",
        "variable",
        # States a form or a log gives a password ("Password: expired").
        "unchanged",
        "changed",
        "expired",
        "rotated",
        "disabled",
        "enabled",
        "reset",
        "updated",
        "locked",
        "unlocked",
        "valid",
        "invalid",
        "incorrect",
        "correct",
        "wrong",
        "weak",
        "strong",
        "missing",
        "pending",
        "saved",
        "sent",
        "stored",
        "generated",
        # Password managers named as where it is kept ("Password: 1Password").
        "1password",
        "bitwarden",
        "keepass",
        "lastpass",
        "vault",
    )
)
# Kubernetes' and Make's "$(DB_PASSWORD)" too (reviewer M).
_PLACEHOLDER_SHAPE = lazy_compile(
    r"^(?:[*xX•.\-_#?]+|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([A-Za-z_][A-Za-z0-9_]*\)|%[A-Za-z_]+%|\{\{.*\}\})$"
)
_FOUR_SMALL = lazy_compile(r"[a-z]{4}")
_TURNS = lazy_compile(r"[a-z](?=[A-Z])|[A-Za-z](?=[0-9])|[0-9](?=[A-Za-z])")


def _placeholder(value: str) -> bool:
    """_PLACEHOLDER_SHAPE, but a "$" before characters drawn at random is a password's first character, not a
    variable's sign ("insurance portal password $LpptAe0eAochMT": reviewer BC): small and capital letters and a
    digit, no "_", no four small letters in a row (a name's words: "$dbPassword1", "$SecretValue2"), and four
    turns or more between small and capital letters and digits ("$pgPass2024" turns twice), twelve characters
    or more ("$k8sPgPw2", "$MySqlPw8Rt3": abbreviations run together, the attacker's round on BC's readers)."""
    if _PLACEHOLDER_SHAPE.match(value) is None:
        return False
    body = value[1:]
    if not value.startswith("$") or not body.isalnum() or len(body) < 12:
        return True
    return not (mixed_case_with_digit(body) and _FOUR_SMALL.search(body) is None and len(_TURNS.findall(body)) >= 4)


_IDENTIFIER_CHAIN = lazy_compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
_CONSTANT = lazy_compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_SNAKE = lazy_compile(r"^[a-z]+(?:_[a-z]+)+$")
_LOWER_WORD = lazy_compile(r"^[a-z]+(?:'[a-z]+)?$")  # "isn't" too
# One capitalised word, or hyphenated lower-case words ("Incorrect", "Pflichtfeld", "reset-link",
# "e-mails"): what a form or a log says after a label, not a password ("password: letmein" is one).
_STATUS_WORD = lazy_compile(r"[A-ZÀ-Þ][a-zß-ÿ]+(?:-[a-zß-ÿ]+)*|[a-zß-ÿ]+(?:-[a-zß-ÿ]+)+")
_DATE_WORD = lazy_compile(r"[0-9]{1,2}[-./ ][A-Za-z]{3,9}[-./ ][0-9]{2,4}")


# What may follow a key for it to be assigned a value (checked before anything else is).
_ASSIGN_START = lazy_compile(r"""["'`\]]?[ \t]{0,8}(?:[:=\-\u2192]|\?=|(?:is|was)\b)""")
_KEY_REST = lazy_compile(r"[a-z0-9_.\-]{0,64}")
# A key's number among several, between its name and its value ("unseal key 1 of 5: FKMZqEH9...=", "recovery key #2
# = ...": reviewer CR): the name is the key's, the value comes after the number.
# ("Unseal key share #2: tAni7...": reviewer CW)
_KEY_ORDINAL = lazy_compile(r"(?:[ \t]share)?[ \t]#?[0-9]{1,2}(?:[ \t]?(?:of|/)[ \t]?[0-9]{1,2})?(?=[ \t]{0,8}[:=])")


def _past_ordinal(lower: str, key_end: int) -> int:
    """Where the key's value is assigned: past a number among several keys, or past an aside in brackets."""
    ordinal = _KEY_ORDINAL.match(lower, key_end)
    if ordinal is None or _ORDINAL_KEY.search(lower, max(0, key_end - 24), key_end) is None:
        aside = _KEY_ASIDE.match(lower, key_end)
        if (
            aside is None
            or _NOT_SECRET_ASIDE.search(aside.group())
            or not _SECRET_BEFORE_ASIDE.search(lower, max(0, key_end - 16), key_end)
        ):
            return key_end
        return aside.end()
    return ordinal.end()


# An aside in brackets between a key's name and its value, no bracket or line break in it ("Steamworks publisher Web
# API key (partner.steam-api): 9268E0CA...": reviewer CS). The value is read as any key's is.
_KEY_ASIDE = lazy_compile(r"[ \t]\([^()\n]{1,96}\)(?=[ \t]{0,8}[:=])")
# Only after a secret's name (a password's aside is read by the password's readers): an object's, a cache's, a
# row's or a flag's key before an aside names no secret ("Lookup key (etag): d41d8cd9...", "Feature flag key
# (LaunchDarkly): enableNew...": an attacker's round). Not where the aside says the value is a digest's or is
# public ("key (sha256): 9f86d0...", "site key (public, ...)").
_SECRET_BEFORE_ASIDE = lazy_compile(r"(?:api[ _\-]?key|(?:secret|private|signing|access)[ _\-]key|secret|token|\bpat)$")
# (nor an aside that says what else the value is: an identifier, a format, a lifetime, a tenant's name: "API key (ID
# only, secret lives in Vault)", "Signing key (kid)", "Refresh token (lifetime, ISO 8601): P30DT12H": an attacker's
# round)
_NOT_SECRET_ASIDE = lazy_compile(
    r"md5|sha|hash|checksum|digest|fingerprint|crc|blake|public|example|sample|redacted|(?<![a-z])ids?(?![a-z])|kid|"
    r"format|lifetime|ttl|expir|length|type|tenant|name|prefix|scope|version|issuer|audience|algorithm|owner|vault|"
    r"reference|(?<![a-z])ref(?![a-z])|object|uuid|iso|only|header|old|revoked|masked"
)


# Keys numbered among several that are secrets' (Vault's unseal keys, Shamir's shares, recovery keys): not a cache's, an
# object's or a translation's ("Cache key 2 of 4: 2fd4e1c6...", "Translation key #5 = ...": an attacker's round)
_ORDINAL_KEY = lazy_compile(
    r"(?:unseal|recovery|secret|private|master|signing|root|shamir)[ \t_\-]+(?:key|share|token)$"
)


# The next property of a connection string ("Server=h;User Id=a;Password=K4szt4n@439;Encrypt=true;"): where the
# value before it ends (reviewer BW's JDBC URL).
_NEXT_PROPERTY = lazy_compile(r";[ \t]*[A-Za-z][A-Za-z ]{0,30}=")
_QUERY_KEY_BEFORE = lazy_compile(r"[?&][A-Za-z_][A-Za-z0-9_.\-]{0,40}=$")
_NEXT_PAIR = lazy_compile(r"&[A-Za-z_][A-Za-z0-9_.\-]{0,40}=")
_NOT_A_QUERY_SECRET = lazy_compile(r"[a-z]+(?:[_\-][a-z0-9]+)*|[A-Z][a-z]+|/[^\s&]*|[A-Za-z]:\\[^\s&]*")
# ... only where the value is itself a property after another ("Server=h;User Id=a;Password=..."): a password of its
# own that holds ";x=" ("password: HJh1;Ab=MUiH2": an attacker's round) is read whole
_PROPERTY_BEFORE = lazy_compile(r"[A-Za-z][A-Za-z ]{0,30}=[^;\n]{0,80};[ \t]*[A-Za-z][A-Za-z ]{0,30}=[ \t]*$")


def find_keyword_secrets(scan: Scan) -> Iterator[Hit]:
    """``name <op> value`` where the name says secret: PASSWORD, GENERIC_SECRET or a keyed provider type."""
    text = scan.text
    reach = 0  # the end of the last value carried past _VALUE's length: none is read twice (linear)
    for kind, start, read in _keyword_secrets(scan):
        if _PASSWD_ENTRY.match(text, start):
            continue
        end = read
        if end - start >= _VALUE_LENGTH and end >= reach:
            # A bare value as long as _VALUE reads goes on to its end: an AWS session token, a SAML
            # assertion or a long JWT is a secret whole (reviewer AC: aws_session_token's 302 characters).
            more = _VALUE_REST.match(text, end)
            end = reach = end if more is None else more.end()
        if (
            text[start - 1 : start] not in ("'", '"')
            and (prop := _NEXT_PROPERTY.search(text, start, end)) is not None
            and _PROPERTY_BEFORE.search(text, max(0, start - 160), start) is not None
        ):
            end = prop.start()  # "Password=K4szt4n@439;Encrypt=true": a connection string's next property
        if _QUERY_KEY_BEFORE.search(text, max(0, start - 48), start) and (pair := _NEXT_PAIR.search(text, start, end)):
            # a query's parameter ends at the next one ("?password=Xk9m2Lq7&lang=en"); what is left of it is read
            # again for a word, a path or a name ("?password=forgot&lang=en": an attacker's round on reviewer BW's
            # readers, where "%26" became "&")
            end = pair.start()
            if _NOT_A_QUERY_SECRET.fullmatch(text, start, end):
                continue
        # "(Kennwort: Hafen303.)": a password may end in ".", and covering a full stop costs nothing
        dot = kind == "PASSWORD" and _SENTENCE_DOT.match(text, end) is not None and text[end - 1] not in _TRAILING
        if _PSQL_VARIABLE.fullmatch(text, max(0, start - 3), min(len(text), end + 1)):
            continue  # "ALTER ROLE ... WITH PASSWORD :'new_pw'": psql's variable, set elsewhere (reviewer BA)
        if not _jwt_header_only(text[start:end]):
            yield kind, start, end + dot
    if "key" in scan.lower:
        for match in _KEY_UUID.finditer(scan.lower):
            yield "GENERIC_SECRET", *match.span("value")


# A UUID right after "API key" with no operator, its secret given right after it: an exchange's key shaped as one
# ("API Key 3c6b887c-fae2-...，Secret Key A2BC71F79C5E...": reviewer BB). Alone it is the key's id, which consoles
# and audit logs show ("API key 3c6b... revoked by jsmith", "Rotated API key a1b2...": an attacker's round); with
# a word between it is an identifier of something else; with ":" or "=" _keyword_secrets reads it.
_KEY_UUID = lazy_compile(
    r"(?<![\w\-])(?:api[ _\-]?key|apikey|access[ _\-]key)[ \t]+"
    r"(?P<value>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w\-])"
    r"(?=[^\n]{0,16}?(?<![^\W\d_])(?:secret|api[ _\-]?secret)(?:[ _\-]?key)?[ \t]*[:=：]?[ \t]*"
    r"(?=[a-z+/=_\-]*[0-9])[a-z0-9+/=_\-]{12,})"  # the secret's value has a digit ("secret regenerated" is no value)
)
_PSQL_VARIABLE = lazy_compile(r"[ \t]:'[A-Za-z_][A-Za-z0-9_]*'")


# A JWT's header alone, or the start of one ("auth=eyJhbGciOiJSUzI1NiIs…", a log that keeps 24 characters:
# reviewer AQ): base64 of '{"alg":...' or '{"typ":...', which names an algorithm and holds no secret.
_JWT_HEADER_STARTS = (b'{"alg"', b'{"typ"', b'{"kid"')


def _jwt_header_only(value: str) -> bool:
    if not value.startswith("eyJ") or "." in value or len(value) > _JWT_HEADER_MOST:
        return False
    cut = value[: len(value) // 4 * 4]
    try:
        decoded = base64.urlsafe_b64decode(cut)
    except (ValueError, binascii.Error):
        return False
    if not decoded.startswith(_JWT_HEADER_STARTS) or not all(32 <= byte < 127 for byte in decoded):
        return False
    # only a header's fields: a JWK ('{"kid":...,"kty":"oct","k":"<key>"}') holds its key (an attacker's round)
    return set(re.findall(rb'"([A-Za-z0-9_]+)":', decoded)) <= _JWT_HEADER_FIELDS


_JWT_HEADER_MOST = 160
_JWT_HEADER_FIELDS = {b"alg", b"typ", b"kid", b"cty", b"x5t", b"x5u", b"jku", b"crit", b"enc", b"zip", b"b64"}


# A login written as "user / password" after what it is for ("log in to the backup console with
# supervisor / Haslo#2016&", "my login is ciaran.obyrne@eircom.net / Fjord?1988!!": reviewer AQ): the
# password a password's shape (letters with a digit and a symbol), no path or URL.
_LOGIN_PAIR = lazy_compile(
    r"(?<![\w-])(?i:log ?in|logon|sign ?in|credentials?|creds|zugangsdaten|identifiants|credenciales|"
    # ... in more of the languages a login's details are given in ("identifiants du portail ... : recrut.lyon /
    # Verif@Lyon#19": reviewer BB)
    r"identifiant|anmeldedaten|dati di accesso|dados de acesso|datos de acceso|přihlašovací údaje|tunnukset|"
    r"inloggegevens|dane logowania|dane do logowania|logindaten|login-daten|giriş bilgileri|toegangsgegevens|"
    r"inloggningsuppgifter|kirjautumistiedot)(?![\w-])"
    r"[^\n/]{0,60}?(?<![\w.@+-])(?P<user>[\w.@+-]{2,64})[ \t]+/[ \t]+(?P<password>[^\s/\"'`]{6,64})"
)


_LOGIN_SLASH = " / "
index_words(_LOGIN_SLASH)  # among the gates' words: found in the one pass for all


def may_hold_login_pair(scan: Scan) -> bool:
    lower = scan.lower
    return _LOGIN_SLASH in scan.words and (
        "log" in lower
        or "cred" in lower
        or "sign" in lower
        or "zugang" in lower
        or "ident" in lower
        or "anmelde" in lower
        or "cesso" in lower
        or "ceso" in lower
        or "údaje" in lower
        or "tunnukset" in lower
        or "giriş" in lower
        or "toegang" in lower
        or "kirjautu" in lower
    )


def find_login_pairs(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for match in _LOGIN_PAIR.finditer(text):
        password = match["password"].rstrip(".,;:)\"'")
        if _login_password(password) and not _COLOUR.fullmatch(password):
            yield "PASSWORD", match.start("password"), match.start("password") + len(password)


# A leaked credentials list's line ("combo list"): an e-mail address, a colon and its password, alone on the line
# ("m.jansen@bakkerij-noord.nl:Tundra6438&": reviewer CZ). Not a git remote's or a URL's path ("git@github.com:org/
# repo.git"), a port ("user@host:587"), nor a word (a role: "alice@example.com:Admin").
_COMBO_LINE = lazy_compile(
    r"(?m)^[ \t>*\-]*[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}:(?P<password>[^\s:/]{6,64})[ \t]*\r?$"
)


def may_hold_combo_line(scan: Scan) -> bool:
    return "@" in scan.text and ":" in scan.text


def find_combo_passwords(scan: Scan) -> Iterator[Hit]:
    # A list: two such lines at least (one alone is a copy target, "deploy@web01.example.com:releases-v2.3", as often:
    # an attacker's round), no file's, home's or assignment's shape
    lines = list(_COMBO_LINE.finditer(scan.text))
    if len(lines) < _COMBO_LINES:
        return
    for match in lines:
        password = match["password"]
        if (
            not password.isdigit()
            and not _COMBO_NOT.search(password)
            and _password_shaped(password)
            and not _placeholder(password)
        ):
            yield "PASSWORD", *match.span("password")


_COMBO_LINES = 2
_COMBO_NOT = lazy_compile(r"^~|[=,]|\.(?:zip|gz|tar|sql|json|csv|txt|log|bak|tgz|jar|war)$")


def _login_password(password: str) -> bool:
    """A password's shape: a digit and a symbol among letters (not only a joiner such as "-": "v3-beta",
    "Okta-2024" name releases and products), no URL; no ticket's number, price or share ("Dados de acesso: ... /
    INC#0045123-2", "Login reward: 500 gems / US$4.99", "... / 50%OFF2": an attacker's round)."""
    return (
        not _TICKET_OR_ASSET.fullmatch(password)
        and not _SHARE.match(password)
        and any(char in _LOGIN_SYMBOLS for char in password)
        and any(char.isdigit() for char in password)
        and _password_shaped(password)
        and "://" not in password
    )


# A password's symbols but "+" and "@", no password's sign here: "Alt+F12 / Option+F12", "24dp@2x / 48dp@4x"
# (an attacker's round)
_LOGIN_SYMBOLS = PASSWORD_SYMBOLS - {"+", "@"}
_SHARE = lazy_compile(r"[0-9][0-9.,]*%|p[0-9]{2}#")  # "50%OFF2", a percentile's "p99#3400ms"
_COLOUR = lazy_compile(r"#[0-9A-Fa-f]{3,8}")


_VALUE_LENGTH = 256  # the longest value _VALUE reads
# A token's characters only (base64, base64url, percent-escapes): "&next=...", an escaped "\\n" or "::PORT"
# after the token end it (an attacker's round).
_VALUE_REST = lazy_compile(r"[A-Za-z0-9+/=_\-.~%]{1,16384}")


# A full stop after a value, at the end of its line or before a space or a closing bracket or quote.
_SENTENCE_DOT = lazy_compile(r"\.(?=[\s)\]}\"'»”]|\Z)")


# A line of /etc/passwd after its file's name: the password's field holds "x" (the hash is in /etc/shadow), "*"
# or "!", then the user's and the group's ids ("/etc/passwd line root:x:0:0:root:/root:/bin/bash": reviewer BD).
_PASSWD_ENTRY = lazy_compile(r"(?:[a-z_][a-z0-9_.\-]*:)?[x*!]:[0-9]+:[0-9]+:")


def _keyword_secrets(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    text = scan.text
    seen: set[int] = set()  # key ends already tried ("secret_token" holds two hints)
    spans = scan.hints = _hint_spans(scan)
    for at, hint_end in spans:
        rest = _KEY_REST.match(lower, hint_end)
        key_end = rest.end() if rest is not None else hint_end
        while key_end > hint_end and lower[key_end - 1] in ".-":
            key_end -= 1  # "password." ends a sentence
        name_end, key_end = key_end, _past_ordinal(lower, key_end)
        if key_end not in seen and (_ASSIGN_START.match(lower, key_end) or "--" in lower[max(0, at - _KEY_MAX) : at]):
            seen.add(key_end)
            key_start = _key_start(lower, at)
            if lower.startswith("://", key_start - 3):
                continue  # a URL's user ("smtp://apikey:SG...@host"): the URL reader's (reviewer BE)
            found = _assignment(scan, text, lower, key_start, key_end, name_end=name_end) or _credential_pair(
                text, lower, at, key_end
            )
            if found is not None:
                yield found
    if _may_name_password(scan, spans):
        starts = _label_starts(scan, spans) if scan.lower.isascii() else []
        yield from _password_phrases(scan, starts)
        yield from _long_clause_passwords(scan, starts)
    if _may_hold_attribute(lower):
        yield from _key_value_attributes(text, lower)
    if spans and ("'" in text or '"' in text):
        yield from _code_secrets(text)
        if "-" in text:
            yield from _argv_passwords(text)
    if _may_hold_cli_password(lower):
        yield from _cli_passwords(text)
    if _may_hold_ios_password(lower):
        yield from _ios_passwords(text)
    yield from _env_forms(scan, text, lower)
    if spans and "," in lower:
        yield from _csv_pairs(text, lower)


# Kafka clients' credentials (reviewer CK): Schema Registry's "basic.auth.user.info=KEY:SECRET", a user and its
# password in one value; and a SASL PLAIN login's user when it is a Confluent Cloud API key (16 capitals and
# digits: ``username="P4ITARQJ08Y8NH9Q"``), whose secret is the password beside it (read with the passwords).
# (in a properties file, JSON, an environment variable, a Java call or a command's option: an attacker's round)
_USER_INFO = lazy_compile(
    r"(?i)(?<![a-z0-9])basic[._]auth[._]user[._]info[\"']?[ \t]*[=:,][ \t]*[\"']?"
    r"(?P<value>[^\s:\"']{3,128}:[^\s\"']{8,256})"
)
_JAAS_USER = lazy_compile(
    r"(?i)(?:loginmodule\s+required\b[^;]{0,64}?\busername\s*=\s*\\?[\"']|\bsasl\.username[ \t]*[=:][ \t]*[\"']?)"
    r"(?P<value>[A-Z0-9]{16})(?![A-Za-z0-9])"
)


def _kafka_credentials(text: str) -> Iterator[Hit]:
    # (the secret random, not a template's or a placeholder's: "{{sr_key}}:{{sr_secret}}", "USERNAME:PASSWORD",
    # "xxxx:xxxx"; a SASL user only in a text that names Confluent, not "ORDERSERVICE2024": an attacker's round)
    for match in _USER_INFO.finditer(text):
        secret = match["value"].partition(":")[2]
        if _RANDOM_TOKEN.fullmatch(secret) and _is_high_entropy(secret) and not _FILLER.fullmatch(secret):
            yield "PASSWORD", *match.span("value")
    if "confluent" not in text.lower():
        return
    for match in _JAAS_USER.finditer(text):
        value = match["value"]
        if _DIGIT.search(value) and sum(char.isalpha() for char in value) >= 4 and len(set(value)) >= _KEY_KINDS:
            yield "GENERIC_SECRET", *match.span("value")


_KEY_KINDS = 10  # different characters of sixteen at least: "XXXXXXXXXXXXXXX1" is a placeholder


# A key and its value as a CSV line of two cells, as a settings export writes them ("sms-gateway,2024-01-27" then
# "api_key_secret,uRD00fX9DeM6lHrS01kAoFJBYccahVd4": reviewer BK).
_CSV_PAIR = lazy_compile(r"^[ \t]*(?P<key>[a-z][a-z0-9_.\-]{1,63}),(?P<value>[^\s,\"']{8,256})[ \t]*\r?$", re.MULTILINE)


def _csv_pairs(text: str, lower: str) -> Iterator[Hit]:
    """Only a compound name that says secret ("api_key_secret", "client_secret", "auth_token"), and a random value:
    a policy's "password,Kerberos5", a log's "token,2025-06-30T00:00:00.123456", a cache's "lookup_key,<md5>" are
    no secrets (an attacker's round on reviewer BK's readers)."""
    for match in _CSV_PAIR.finditer(lower):
        key = match["key"]
        if not any(mark in key for mark in "_.-") or key_kind(key) != "SECRET":
            continue
        start, end = match.span("value")
        value = text[start:end]
        if looks_like_column_secret("GENERIC_SECRET", value) and _is_high_entropy(value):
            yield "GENERIC_SECRET", start, end


# A password option and its value as two items of an argument list (a compose file's or a Kubernetes
# container's command, a subprocess call): ["redis-server", "--requirepass", "Matjesbroetchen77"]
# (reviewer AV). Redis's options always take the password; "-p" takes a port as often ("-p", "8080:80")
# and psql's "--password" none (it asks; a database's name follows): after them a value with a letter
# and a digit only, and not after psql.
_ARGV_PASSWORD = lazy_compile(
    r"(?P<q>[\"'])(?P<option>--?(?:requirepass|masterauth|password|passwd|pass|pwd|[a-z]+-password)|-p)(?P=q)"
    r"[ \t]*,[ \t]*(?P<q2>[\"'])(?P<value>[^\"'\s\\$<%{}]{4,128})(?P=q2)",
    re.IGNORECASE,
)


def _argv_passwords(text: str) -> Iterator[Hit]:
    for match in _ARGV_PASSWORD.finditer(text):
        value = match["value"]
        if match["option"].lower() not in ("--requirepass", "--masterauth") and (
            not (_DIGIT.search(value) and any(char.isalpha() for char in value))
            or "psql" in text[max(0, match.start() - _ARGV_TOOL_BACK) : match.start()].lower()
        ):
            continue
        yield "PASSWORD", *match.span("value")


_ARGV_TOOL_BACK = 64  # characters read before an option for the tool it is given to


# A password's label written in leetspeak, then ":" or "=" and the value ("p4ssw0rd: Sunshine!2023": reviewer AW;
# "p4ss: basalt-ember-glacier-4": reviewer CE): a digit or "@" or "$" in the label (the plain word is read with the
# other labels). Only a value with a digit or a password's symbol, no "=" ("p@ssw0rd: score=0 guesses=1.2e2" is a
# strength meter's line), and not where a password's label came just before (there the leet word is the value).
_LEET_LABEL = lazy_compile(
    # (not a URL's user's password: "mysql://root:p@ss:w0rd@127.0.0.1")
    # (a secret's and a token's labels too: "s3cr3t=wcn26n7u...", "t0k3n: ...": reviewer CI)
    r"(?<![\w@$:/])(?=[A-Za-z0-9@$]*[0-9@$])"
    # (German's "P@55w0rt", "K3nnw0rt"; a secret's key, "s3cr3t_k3y": reviewer CJ)
    r"(?:p[a@4][s5$]{2}(?:w[o0]r[dt]|phr[a@4][s5$]e)?|k[e3]nnw[o0]rt"
    r"|(?P<secret>(?:[s5$][e3]cr[e3]t|t[o0]k[e3]n)(?:[_\-]?k[e3]y)?))(?![\w@$])"
    r"[ \t]*(?::|=|->|=>)[ \t]*(?P<value>[^\s\"'`=]{4,64})(?![^\s])",
    re.IGNORECASE,
)
_LEET_BEFORE = lazy_compile(r"(?:pass(?:word|wd)?|pwd?|mdp|senha|passwort)\W{0,3}$")
LEET_LITERALS = (
    "w0rd", "4ssw", "@ssw", "55w", "$$w", "55phr", "phr4s", "phr@s", "p4ss", "pa55", "p@ss", "pa$$",
    "cr3t", "3cre", "5ecr", "$ecr", "t0k", "k3n", "w0rt", "k3nn",
)  # fmt: skip


def find_leet_labelled_passwords(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    for match in _LEET_LABEL.finditer(text):
        label = text[match.start() : match.start() + 4]
        if len(text) > match.start() + 4 and text[match.start() + 4] in ":= \t" and not label.islower():
            continue  # "p4ss:" alone only in small letters: "PA55: 12.4mi", "Model PA55:" name a road, a model
        start, end = match.span("value")
        while end > start and text[end - 1] in ".,;)":
            end -= 1
        value = text[start:end]
        if match["secret"] is not None:
            # a secret's or a token's value: long and random (not "t0k3n: none", "s3cr3t=hidden"; not a player's name
            # of capitalised words, "Leaderboard t0k3n: XxSniperKing99xX_Pro": the attacker's round)
            if end - start >= _LEET_SECRET and mixed_case_with_digit(value) and len(_NAME_WORD.findall(value)) < 2:
                yield "GENERIC_SECRET", start, end
            continue
        if (
            len(value) >= 4
            and (_DIGIT.search(value) or any(char in PASSWORD_SYMBOLS for char in value))
            and not value.isdigit()
            and _password_shaped(value)
            and _LEET_BEFORE.search(lower, max(0, match.start() - 20), match.start()) is None
        ):
            yield "PASSWORD", start, end


# A label in alternating case, as a model writes it to slip past a filter ("pAsSwOrD := Ifeco6887$bZxF",
# "aUtHoRiZaTiOn: bEaReR 0JWa...": reviewer DA): the label's word neither small, capital nor capitalised, then its
# operator and a value with a digit or a password's symbol (a bearer's token: 16 characters or more).
_ODD_CASE_WORDS = (
    "password",
    "passwort",
    "passwd",
    "kennwort",
    "secret",
    "token",
    "authorization",
    "apikey",
    "api_key",
)
_ODD_CASE_GATE = index_words(*_ODD_CASE_WORDS)
_ODD_CASE_VALUE = lazy_compile(
    r"[ \t]*(?::=|:|=|->|=>)[ \t]*(?:(?i:bearer)[ \t]+(?P<bearer>[A-Za-z0-9\-._~+/]{16,}=*)"
    r"|(?P<value>[^\s\"'`]{6,128}))(?![^\s,;])"
)


def may_hold_odd_case_label(scan: Scan) -> bool:
    return not _ODD_CASE_GATE.isdisjoint(scan.words) and not scan.text.islower()


def find_odd_case_labels(scan: Scan) -> Iterator[Hit]:
    text, words = scan.text, scan.words
    for word in _ODD_CASE_WORDS:
        for at in words.get(word, ()):
            written = text[at : at + len(word)]
            if (
                written.islower()
                or written.isupper()
                or _CAMEL_WORDS.fullmatch(written)  # "PassWord: String[20];" declares a field
                or _odd_case_turns(written) < _ODD_TURNS
            ):
                continue
            if at and (text[at - 1].isalnum() or text[at - 1] == "_"):
                continue
            value = _ODD_CASE_VALUE.match(text, at + len(word))
            if value is None:
                continue
            found = value["bearer"] or value["value"]
            if not _DIGIT.search(found) or _CODE_MARKS.search(found) or _alternating(found):
                continue  # a meme's words ("iNgReDiEnT-iS-lOvE"), code ("NextToken(src);")
            if value["bearer"] is not None:
                yield "BEARER_TOKEN", *value.span("bearer")
            elif _password_shaped(value["value"]) and not _placeholder(value["value"]):
                yield ("PASSWORD" if word.startswith(("pass", "kenn")) else "GENERIC_SECRET"), *value.span("value")


_ODD_TURNS = 4  # changes between small and capital letters in the word: "pAsSwOrD" has 7, "PassWord" 3
_CAMEL_WORDS = lazy_compile(r"(?:[A-Z][a-z]{2,})+|[a-z]{2,}(?:[A-Z][a-z]{2,})+")
_CODE_MARKS = lazy_compile(r"[()\[\];]")


def _alternating(value: str) -> bool:
    """The value is written in alternating case too, as a joke's words are ("gOoD_bOi_42", "ChRiStMaS-2024!"): three in
    four pairs of letters side by side change case (about one in two of a random token's do)."""
    pairs = [(a, b) for a, b in pairwise(value) if a.isalpha() and b.isalpha()]
    return len(pairs) >= _ODD_TURNS and sum(a.isupper() != b.isupper() for a, b in pairs) * 4 >= len(pairs) * 3


def _odd_case_turns(word: str) -> int:
    cases = [char.isupper() for char in word if char.isalpha()]
    return sum(1 for before, after in pairwise(cases) if before != after)


_LEET_SECRET = 16  # characters of a secret's or a token's value after its leet label
_NAME_WORD = lazy_compile(r"[A-Z][a-z]{3,}")  # a capitalised word of a player's or a product's name


# A router's configuration (Cisco IOS and those that copy it): "enable secret 0 <password>",
# "username netops privilege 15 secret 0 <password>", " password 7 0822455D0A16" under "line vty".
# Type 0 is the password in clear, type 7 an encoding any tool reverses; types 5, 8 and 9 are hashes.
_IOS_PASSWORD = lazy_compile(
    r"(?m)^[ \t]*(?:(?:enable|username[ \t]+\S{1,64}(?:[ \t]+\S{1,32}){0,6}?)[ \t]+)?(?:secret|password)"
    r"[ \t]+[07][ \t]+(?P<value>\S{4,128})[ \t]*\r?$"
)


def _may_hold_ios_password(lower: str) -> bool:
    # Each number's digit first (a memchr): text with no "0" and no "7" stops there.
    return (("0" in lower and " 0 " in lower) or ("7" in lower and " 7 " in lower)) and (
        "secret " in lower or "password " in lower
    )


def _ios_passwords(text: str) -> Iterator[Hit]:
    for match in _IOS_PASSWORD.finditer(text):
        if _password_shaped(match["value"]):
            yield ("PASSWORD", *match.span("value"))


# ---- secrets named by a setting's name where the value follows in other syntaxes

# A default after an environment variable: "process.env.API_TOKEN || '...'", "os.environ.get(...) or",
# "${API_TOKEN:-...}", "API_TOKEN ?? '...'".
_DEFAULT_OPERATOR = lazy_compile(r"(?P<key>[A-Za-z_][A-Za-z0-9_]{0,63})\}?[ \t]*(?:\|\||\?\?|:-)")
_DEFAULT_VALUE = lazy_compile(r"\}?[ \t]*(?:\|\||\?\?|:-)[ \t]*")
# fish's "set -gx API_TOKEN value" and csh's "setenv API_TOKEN value": one value, the last on its line;
# a tool's configuration set the same way ("aws configure set aws_secret_access_key ...", "yarn config
# set npmAuthToken ...": reviewer N).
_SET_COMMAND = lazy_compile(
    r"(?<![\w.\-])(?:set(?:[ \t]+-[A-Za-z]{1,4})+|setenv|(?:configure|config)[ \t]+set)"
    r"[ \t]+(?P<key>[A-Za-z_][A-Za-z0-9_]{0,63})"
    r"""(?=[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s;#"']+)[ \t]*(?:[;#\r\n]|$))"""
)
# A setting's name and its value as two fields: Kubernetes' "- name: API_TOKEN" then "value: ...",
# JSON's {"name": "API_TOKEN", "value": "..."}, a call's key="api_token", value="...".
_NAME_FIELD = lazy_compile(
    r"""(?<![\w\-])(?:name|key)["']?[ \t]*[:=][ \t]*["']?(?P<key>[A-Za-z_][A-Za-z0-9_.\-]{0,63})"""
)
_VALUE_FIELD = lazy_compile(
    r"""["']?[ \t]*,?[ \t]*(?:\r?\n[ \t]{0,32}(?:-[ \t]+)?)?["']?value["']?[ \t]*(?P<op>[:=])[ \t]*"""
)
# A setting and its value in columns, one per line: `printenv | column -t`, PowerShell's `Get-ChildItem
# env:`, a CLI's "NAME    VALUE" table ("SQLCMDPASSWORD      Tundra_stone9045", "ibmcloud_api_key
# yMyOIh-...": reviewer Q). The name starts its line, the value is the line's one other word.
_ALIGNED_SETTING = lazy_compile(
    r"^[ \t]*(?P<key>[A-Za-z_][A-Za-z0-9_.\-]{1,63})(?=[ \t]{3,}[^\s=:]\S{5,255}[ \t]*\r?$)", re.M
)
_ALIGNED_VALUE = lazy_compile(r"[ \t]{3,}")
_WORDS_ONLY = lazy_compile(r"[A-Za-z]+(?:[-_.][A-Za-z]+)*")
# A bytes literal after a secret's key: "app.secret_key = b'\\x29\\x86...'" (os.urandom's output printed).
_BYTES_VALUE = lazy_compile(r"""[bB](?P<q>["'])(?P<v>(?:\\x[0-9a-fA-F]{2}|\\[^x\n]|[^"'\\\n]){12,256})(?P=q)""")
_BYTES_KEY = lazy_compile(r"""(?P<key>[A-Za-z0-9_.\-]{1,64})(?:["']?\])?["']?[ \t]*(?:=|:)[ \t]*$""")
_MIN_BYTE_ESCAPES = 6
# Random bytes printed: 32 hex digits or more, or 20 characters of base64 with a digit and letters of both cases.
_PRINTED_KEY = lazy_compile(
    r"[0-9a-fA-F]{32,256}|(?=[^0-9]*[0-9])(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])[A-Za-z0-9+/_\-]{20,256}={0,2}"
)


# The words _env_forms looks for, among the gates' words (found in the one pass for all): a test of the scan's words
# answers as a substring search of the lower-cased text did, without reading the text again (this runs on every text
# with a secret's word, "pass" among them).
_KAFKA_WORDS = index_words("user.info", "user_info", "loginmodule", "sasl.username")
_SET_WORDS = index_words("set -", "setenv", "g set ", "e set ")
index_words("value", "key")


def _env_forms(scan: Scan, text: str, lower: str) -> Iterator[Hit]:
    """Secrets whose key is a setting's name and whose value follows it in these syntaxes."""
    words = scan.words
    if not _KAFKA_WORDS.isdisjoint(words):
        yield from _kafka_credentials(text)
    # Each substring led by a test of its rarest character (a memchr, where a substring search of a
    # long text reads it all): the same answers, and most text stops at the one-character tests.
    if ("|" in text and "||" in text) or ("?" in text and "??" in text) or (":" in text and ":-" in text):
        for match in _DEFAULT_OPERATOR.finditer(text):
            yield from _named(scan, text, match.span("key"), _DEFAULT_VALUE)
    if not _SET_WORDS.isdisjoint(words):  # (each holds "set")
        for match in _SET_COMMAND.finditer(text):
            yield from _named(scan, text, match.span("key"), _ASSIGN_CLI)
    if "value" in words and ("key" in words or "name" in lower):
        for match in _NAME_FIELD.finditer(lower):
            yield from _named(scan, text, match.span("key"), _VALUE_FIELD)
    if "   " in text and scan.hints:
        for match in _ALIGNED_SETTING.finditer(text):
            for found in _named(scan, text, match.span("key"), _ALIGNED_VALUE):
                if _WORDS_ONLY.fullmatch(text, found[1], found[2]) is None:  # not "Not-Set-Yet"
                    yield found
    if ("'" in lower and "b'" in lower) or ('"' in lower and 'b"' in lower):
        yield from _bytes_secrets(text, lower)


def _may_hold_env_form(lower: str) -> bool:
    return (  # each substring led by its rarest character, as in _env_forms
        ("|" in lower and "||" in lower)
        or ("?" in lower and "??" in lower)
        or (":" in lower and ":-" in lower)
        or ("set" in lower and ("set -" in lower or "setenv" in lower or "g set " in lower or "e set " in lower))
        or ("value" in lower and ("name" in lower or "key" in lower))
        or ("'" in lower and "b'" in lower)
        or ('"' in lower and 'b"' in lower)
    )


def _named(scan: Scan, text: str, span: tuple[int, int], operator: re.Pattern[str]) -> Iterator[Hit]:
    """What ``operator`` assigns to the setting named at ``span``, when the name says secret."""
    lower = scan.lower
    key_start, key_end = span
    key = _key_name(text, lower, key_start, key_end)
    if key_kind(key) is None and not keyed_rules(key):
        return
    found = _assignment(scan, text, lower, key_start, key_end, operator=operator)
    if found is not None:
        yield found


def _bytes_secrets(text: str, lower: str) -> Iterator[Hit]:
    for match in _BYTES_VALUE.finditer(text):
        printed = match["v"].count("\\x") < _MIN_BYTE_ESCAPES
        if printed and not _printed_key(match["v"]):
            continue  # b'hello world': text, not random bytes (a key printed in hex or base64 is: reviewer BO)
        key = _BYTES_KEY.search(lower, max(0, match.start() - 80), match.start())
        if key is None or key_kind(_KEY_SPLIT.sub("_", key["key"]).lower()) not in ("SECRET", "KEY", "PASSWORD"):
            continue
        if printed and _SECRET_KEY_NAME.search(key["key"]) is None:
            continue  # "i18n_key = b'LoginPage...'", "routing_key = b'orders/...'": a key that opens no lock
        yield "GENERIC_SECRET", *match.span("v")


# A key printed in hex or base64 is a secret under a name that says what it opens or signs.
_SECRET_KEY_NAME = lazy_compile(
    r"secret|signing|sign_|hmac|private|api|encrypt|master|auth|access|token|session|jwt|fernet|aes|passw|pwd|pepper"
    r"|salt|cipher|crypt"
)
_PLACEHOLDER = lazy_compile(r"(?i:your|here|replace|example|change|dummy|sample|xxxx|test)")
_EMPTY_DIGESTS = frozenset(
    {"d41d8cd98f00b204e9800998ecf8427e", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}
)  # fmt: skip


def _printed_key(value: str) -> bool:
    """Random bytes printed: hex of 32 digits or more, or base64 of 20 characters with a digit and letters of both
    cases, not words run together, a placeholder, one character over and over or an empty input's digest."""
    if _PRINTED_KEY.fullmatch(value) is None or _PLACEHOLDER.search(value) or len(set(value.lower())) < 8:
        return False
    return value.lower() not in _EMPTY_DIGESTS and not_words(value)


# .NET and Java configuration: <add key="SmtpPassword" value="..." />, <property name="password" value="..."/>.
_KEY_VALUE_ATTRIBUTE = lazy_compile(
    r"""\b(?:key|name)[ \t]*=[ \t]*(?P<q1>["'])(?P<key>[^"'\n]{1,64})(?P=q1)[ \t]+"""
    r"""value[ \t]*=[ \t]*(?P<q2>["'])(?P<value>[^"'\n]{1,256})(?P=q2)"""
)


# "creds: admin / Hb4%nK8&sD", "credentials = deploy / S3cr3t!x": a user and a password after a key that
# names credentials; the password must look like one (letters with a digit or a symbol).
_CREDENTIAL_PAIR = lazy_compile(r"[ \t]*[:=][ \t]*[\w.@\-]{1,64}[ \t]+/[ \t]+(?P<secret>[^\s\"'`,;]{6,128})")


def _credential_pair(text: str, lower: str, at: int, key_end: int) -> Hit | None:
    if not lower.startswith("cred", at):
        return None
    pair = _CREDENTIAL_PAIR.match(text, key_end)
    if pair is None:
        return None
    start, end = pair.span("secret")
    while end > start and text[end - 1] in _TRAILING:
        end -= 1
    return ("PASSWORD", start, end) if _password_shaped(text[start:end]) else None


# An Apple property list's entry: <key>AlgoliaAdminKey</key><string>5f5672...</string> (an app's Info.plist, its
# configuration: reviewer BQ); the key read with its camelCase parts apart.
_PLIST_ENTRY = lazy_compile(
    r"<key>(?P<key>[A-Za-z][A-Za-z0-9_.\-]{0,63})</key>\s{0,80}<string>(?P<value>[^<\n]{1,256})</string>"
)


def _key_value_attributes(text: str, lower: str) -> Iterator[Hit]:
    entries = [(match["key"], match.span("value")) for match in _KEY_VALUE_ATTRIBUTE.finditer(lower)]
    if "<key>" in text:
        entries += [
            (_KEY_SPLIT.sub("_", match["key"]).lower(), match.span("value")) for match in _PLIST_ENTRY.finditer(text)
        ]
    for key, (start, end) in entries:
        kind = key_kind(_KEY_SPLIT.sub("_", key))
        secret = text[start:end]
        if kind == "PASSWORD" and len(secret) >= 4 and _plausible_value(secret, True) and not secret.isalpha():
            yield "PASSWORD", start, end  # not a word: "<key>UserPassword</key><string>Prompt</string>" (attacker)
        elif (
            " " not in secret
            and not _FINGERPRINT.fullmatch(secret)
            and (
                (kind == "SECRET" and _plausible_value(secret, True) and _looks_random(secret))
                or (kind == "KEY" and _printed_key(secret))
            )
        ):
            yield "GENERIC_SECRET", start, end


# Secrets set in code: config['password'] = '...', os.environ["DB_PASSWORD"] = "...", define('DB_PASSWORD',
# '...'), props.setProperty("password", "..."), ds.setPassword("..."), auth=("bob", "..."), SQL's
# PASSWORD '...' and IDENTIFIED BY '...', PowerShell's ConvertTo-SecureString "...".
# Each form is led by a literal (the engine skips to it at C speed) and runs only when the text holds
# that literal; keys are read in the lower-cased text, values in the text (same offsets).
_VALUE_IN = r"""(?P<q>["'])(?P<v>[^"'\n]{1,256})(?P=q)"""
_CODE_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("[", re.compile(rf"""\[[ \t]*["'](?P<k>[^"'\n]{{1,64}})["'][ \t]*\][ \t]*=[ \t]*{_VALUE_IN}""")),
    ("(", re.compile(rf"""\([ \t]*["'](?P<k>[^"'\n]{{1,64}})["'][ \t]*,[ \t]*{_VALUE_IN}""")),
    (
        "set",
        re.compile(rf"""set_?(?P<k>password|passwd|secret|token|api_?key|credentials?)[ \t]*\([ \t]*{_VALUE_IN}"""),
    ),
    ("auth", re.compile(rf"""auth[ \t]*=[ \t]*\([ \t]*["'][^"'\n]{{1,64}}["'][ \t]*,[ \t]*{_VALUE_IN}""")),
    ("password", re.compile(rf"""password[ \t]+{_VALUE_IN}""")),
    ("identified", re.compile(rf"""identified[ \t]+by[ \t]+{_VALUE_IN}""")),
    ("convertto", re.compile(rf"""convertto-securestring[ \t]+(?:-string[ \t]+)?{_VALUE_IN}""")),
)


# Calls that set or read a setting: define(), setProperty(), put(), os.getenv(), config.get() ...
_SETTER = lazy_compile(
    r"(?:^|[^\w.])(?:[\w]+\.)*(?:define|set\w*|put\w*|add\w*|get\w*|\w*env|update|setdefault|fetch)[ \t]*$"
)  # Ruby's ENV.fetch("DB_PASSWORD", "...") gives a default as Python's os.environ.get does


def _code_secrets(text: str) -> Iterator[Hit]:
    lower = text.lower()
    for literal, pattern in _CODE_FORMS:
        if literal not in lower:
            continue
        for match in pattern.finditer(lower):
            key = match.groupdict().get("k")
            if literal == "(" and not _SETTER.search(lower, max(0, match.start() - 40), match.start()):
                continue  # print("password", "must be 12 characters"): a message, not a setting
            if literal in ("[", "("):
                kind = key_kind(_KEY_SPLIT.sub("_", text[match.start("k") : match.end("k")]).lower())
            else:
                kind = "PASSWORD" if key is None or "pass" in key else "SECRET"
            start, end = match.span("v")
            secret = text[start:end]
            if not _plausible_value(secret, True) or _PHRASE.fullmatch(secret):
                continue  # print("password", "is required"): words, not a value
            if kind == "PASSWORD" and len(secret) >= 4:
                yield "PASSWORD", start, end
            elif (
                kind in ("SECRET", "KEY")
                and _looks_random(secret)
                and not (_UUID.fullmatch(secret) or _identifier_like(secret))
            ):
                yield "GENERIC_SECRET", start, end


_PHRASE = lazy_compile(r"[^\W\d_]+(?: [^\W\d_]+)+[.!?]?")
_KEY_SPLIT = lazy_compile(r"(?<=[a-z0-9])(?=[A-Z])|[ .\-]")

# Command lines that take a password as an option: "mysql -u root -pS3cr3t", "docker login -u bot -p
# ...", "sshpass -p '...' ssh host", "redis-cli -a ...". Only after one of these tools: "-p" is a port
# or a flag elsewhere.
# HTTPie's "http" and "https" take credentials after "-a" or "--auth" ("http -a alice:S3cret GET ...", "http -A bearer
# -a <token> PATCH ...": reviewer CH), the command's name followed by a blank (not a URL's scheme).
# (HTTPie's names with their blank in the gate: "http" alone is in every URL)
_CLI_TOOLS = (
    "mysql", "mariadb", "docker", "podman", "helm", "sshpass", "redis-cli", "mongo", "ldap",
    "http ", "https ", "http\t", "https\t",
)  # fmt: skip
_CLI_VALUE_REACH = 272  # an option ("--password=" and quotes) and a value of 256 characters
_CLI_TOOL = lazy_compile(
    r"\b(?P<tool>mysql\w*|mariadb\w*|docker|podman|helm|sshpass|redis-cli|mongo\w*|ldap[a-z]{3,8}"
    r"|(?<![\w./:\-])https?(?=[ \t]))\b"
)
_HTTPIE = frozenset({"http", "https"})
# ... a user and a password with a digit or a sign in it, or a token: sixteen characters or more, letters and digits
# among them; not a variable's or a template's ("$API_USER:$API_PASS", "{{user}}:{{pass}}", "<user>:<password>")
# nor words ("username:password", "your_user:your_password": the attacker's round on reviewer CH's readers)
_HTTPIE_CREDENTIAL = lazy_compile(
    r"(?![^\s]*[${}<>%])(?:[^:\s]+:(?=\S*[0-9!#&*+=?@^~])\S{4,}|(?=\S*[0-9])(?=\S*[A-Za-z])\S{16,})"
)
_COMMAND_REST = lazy_compile(r"[^\n|;&]{0,256}")
# Every option of the command is read, not only the first: "redis-cli -h host -p 6379 -a 'S3cr3t!'"
# ("-p" is a port there, the password comes after it).
_CLI_OPTION = lazy_compile(
    r"""(?<![\w-])(?:(?P<glued>-p)(?=[^\s-])|(?P<spaced>-p|-a|-w|--password|--pass|--auth)[ =])"""
    r"""(?P<q>["']?)(?P<value>[^\s'"]{4,256})(?P=q)"""
)


def _cli_passwords(text: str) -> Iterator[Hit]:
    for tool_match in _CLI_TOOL.finditer(text):
        # Each tool named starts its own command ("docker run ... mysql:8 mysql -uroot -pS3cr3t": the
        # mysql inside docker's is read too).
        command = _COMMAND_REST.match(text, tool_match.end())
        assert command is not None  # it matches the empty string
        tool = tool_match["tool"].lower()
        mysql_like = tool.startswith(("mysql", "mariadb"))
        if tool in ("docker", "podman", "helm") and " login" not in command.group():
            continue  # "docker run -p 8080:80": a port; a password only after "login"
        # An option starts within the command; its value (256 characters at most) may reach past it.
        stop = text.find("\n", command.end(), command.end() + _CLI_VALUE_REACH)
        stop = min(len(text), command.end() + _CLI_VALUE_REACH) if stop == -1 else stop
        for match in _CLI_OPTION.finditer(text, tool_match.end(), stop):
            if match.start() > command.end():
                break  # past the command ("| grep", "; next"): only its value may hold "&" or "|"
            option = match["glued"] or match["spaced"]
            if tool in _HTTPIE and option not in ("-a", "--auth"):
                continue  # HTTPie's "-p" prints, its "-w" waits
            if option == "-p" and match["spaced"] and mysql_like:
                continue  # "mysql -p dbname": -p alone prompts, the word after it is the database
            if option == "-a" and tool != "redis-cli" and tool not in _HTTPIE:
                continue
            if (option == "-w") != tool.startswith("ldap"):
                continue  # OpenLDAP's tools take the bind password after "-w" ("-p" is their port)
            if match["glued"] and not (mysql_like or tool == "sshpass"):
                continue  # glued to "-p" ("-pS3cr3t", "-p'S3cr3t'"): a password only for these
            start, end = match.span("value")
            secret = text[start:end]
            if tool in _HTTPIE and _HTTPIE_CREDENTIAL.fullmatch(secret) is None:
                continue  # "the http -a flag": a word, not a user's password nor a token
            if _plausible_value(secret, bool(match["q"])) and not _PORTS.fullmatch(secret):
                yield "PASSWORD", start, end
                break


_PORTS = lazy_compile(r"[0-9.:/\-]+")  # "8080:80", "127.0.0.1:6379"


# Commands that take credentials as positional arguments (reviewer AI): Backblaze's "b2 account authorize
# <key id> <application key>" (and the older "b2 authorize-account"), MinIO's "mc alias set <alias> <url>
# <access key> <secret key>" (and "mc config host add"), Windows' "net use <drive> <share> <password>
# /user:<name>". Options (a "-" or, for net use, a "/" first) are not counted.
_POSITIONAL_COMMAND = lazy_compile(
    r"(?<![\w.\-/])(?:(?P<b2>b2(?:\.exe)?[ \t]+(?:account[ \t]+authorize|authorize[-_]account))"
    r"|(?P<mc>mc(?:\.exe)?[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add))|(?P<net>net(?:\.exe)?[ \t]+use))"
    r"(?=[ \t])",
    re.I,
)
# A word may hold "&" (a password's "x8-8Rh3*FD#V&OPH9%": reviewer I), not start with it; a backtick ends it
# (a command in markdown's inline code: "Run `b2 account authorize ... K001...` first").
_ARGUMENT = lazy_compile(
    r"""[ \t]+(?:"(?P<d>[^"\n]{1,256})"|'(?P<s>[^'\n]{1,256})'|(?P<w>[^\s"'`;|&][^\s"'`;|]{0,255}))"""
)
_COMMAND_WORDS = index_words("authorize", "alias set", "host add", "net use")


def may_hold_command_credential(scan: Scan) -> bool:
    """One of the commands' words is in the text (found with the other gates' words, Scan.words)."""
    return not _COMMAND_WORDS.isdisjoint(scan.words)


_POSITIONALS = 6  # arguments read after a command's words
_B2_KEY_ID = lazy_compile(r"[0-9a-f]{12}|[0-9a-f]{25}")  # an account's id, or an application key's
_B2_KEY = lazy_compile(r"[A-Za-z0-9+/]{20,64}")
_ACCESS_KEY = lazy_compile(r"[A-Za-z0-9+/=_\-]{16,128}")


def find_command_credentials(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for command in _POSITIONAL_COMMAND.finditer(text):
        values: list[tuple[str, int, int, bool]] = []  # (value, start, end, quoted)
        at = command.end()
        while len(values) < _POSITIONALS and (argument := _ARGUMENT.match(text, at)) is not None:
            at = argument.end()
            group = "d" if argument["d"] is not None else "s" if argument["s"] is not None else "w"
            value = argument[group]
            if value.startswith("-") or (command["net"] and value.startswith("/")):
                continue  # an option: "--profile", "/user:ACME\\svc", "/persistent:no"
            if group == "w" and value.startswith(("$", "(", "`", "%")):
                values = []  # a shell's expression ("$(cat /run/secrets/...)", "(Get-Secret ...)"): no value
                break  # here, and the words after it are its own (an attacker's round)
            values.append((value, *argument.span(group), group != "w"))
        if command["b2"]:
            yield from _b2_keys(values)
        elif command["mc"]:
            yield from _mc_keys(values[2:])
        else:
            yield from _net_use_password(values)


def _b2_keys(values: list[tuple[str, int, int, bool]]) -> Iterator[Hit]:
    """The key id and the key, the first two words in a row shaped so: an option's value may come before
    them ("b2 account authorize --profile work <key id> <key>": an attacker's round)."""
    for (key_id, id_start, id_end, _), (key, key_start, key_end, _) in pairwise(values):
        if _B2_KEY_ID.fullmatch(key_id) and _B2_KEY.fullmatch(key):
            yield "BACKBLAZE_KEY_ID", id_start, id_end
            yield "BACKBLAZE_APPLICATION_KEY", key_start, key_end
            return


def _mc_keys(values: list[tuple[str, int, int, bool]]) -> Iterator[Hit]:
    if len(values) < 2:
        return
    (access, start, end, _), (secret, secret_start, secret_end, quoted) = values[:2]
    if _ACCESS_KEY.fullmatch(access) and _has_digit_and_capital(access):
        yield "GENERIC_SECRET", start, end  # a generated access key ("Q3AM3UQ867SPQQA43P2F"), not a name
    if _said_secret(secret, quoted):
        yield "PASSWORD", secret_start, secret_end


def _net_use_password(values: list[tuple[str, int, int, bool]]) -> Iterator[Hit]:
    shares = [index for index, (value, *_) in enumerate(values) if value.startswith("\\\\")]
    if not shares or shares[0] + 1 >= len(values):
        return
    value, start, end, quoted = values[shares[0] + 1]
    if value != "*" and _said_secret(value, quoted):
        yield "PASSWORD", start, end


def _said_secret(value: str, quoted: bool) -> bool:
    """A positional password: no placeholder or reference ("YOUR-SECRET-KEY", "$SECRET_KEY"), and shaped as
    one ("minioadmin", MinIO's default, is not) or quoted."""
    if not _plausible_value(value, quoted) or _WORDS_ONLY.fullmatch(value):
        return False
    return _password_shaped(value) or (quoted and len(value) >= 8)


def _has_digit_and_capital(value: str) -> bool:
    return any(char.isdigit() for char in value) and any(char.isupper() for char in value)


# ---------------------------------------------------------------- passwords named in words

# A password named the way people write it rather than as a key: in another language ("Passwort:",
# "mot de passe :", "contraseña:", "パスワード："), a few words before the assignment ("password di
# accesso:", "Das Kennwort für den Router ist ..."), as a markup element ("<password>...</password>"),
# or followed by the value alone ("machine host login jdoe password Xk9k3lTS#566", "as app with
# password ..."), where the value must look like a password: letters with a digit or a symbol.
# Reviewer BH's words (blind, 80 languages): Georgian, Armenian, Welsh, Kannada, Malayalam, Gujarati, Punjabi,
# Sinhala, Uzbek, Azerbaijani, Kazakh, Mongolian, Latvian, Lithuanian, Estonian, Icelandic, Bulgarian,
# Serbian and Macedonian, Albanian, Somali, Zulu, Maori, Irish, Yoruba, Malagasy, Pashto, Sorani and Kurmanji,
# Egyptian Arabic's loanword, Lao, Khmer, Burmese, Catalan, Basque, Galician; each with its possessive or
# definite form where a note writes one ("routerning paroli:", "mobil bankçılıq şifrəsi:", "fjalëkalimi i ...").
_MORE_PW_WORDS = (
    "პაროლი", "գաղտնաբառ", "գաղտնաբառը", "cyfrinair", "ಪಾಸ್‌ವರ್ಡ್", "ಪಾಸ್ವರ್ಡ್", "പാസ്‌വേഡ്",
    "പാസ്വേഡ്", "પાસવર્ડ", "ਪਾਸਵਰਡ", "මුරපදය", "paroli", "parol", "şifrə", "şifrəsi", "құпиясөз", "құпия сөз",
    "нууц үг", "slaptažodis", "parool", "salasõna", "lykilorð", "парола", "паролата", "лозинка",
    "лозинката", "fjalëkalimi", "fjalëkalim", "furaha sirta", "iphasiwedi", "kupuhipa", "pasfhocal", "ọ̀rọ̀ aṣínà",
    "ọrọ aṣina", "tenimiafina", "پټنوم", "وشەی نهێنی", "şîfre", "şîfreya", "الباسورد", "باسورد", "ລະຫັດຜ່ານ",
    "ពាក្យសម្ងាត់", "စကားဝှက်", "contrasenya", "pasahitza", "contrasinal",
    # Russian's "code word" a mobile operator's or a bank's customer gives on the phone ("Кодовое слово: Ромашка1987":
    # reviewer CU)
    "кодовое слово", "кодовое слово абонента", "кодовым словом", "контрольное слово", "секретное слово",
    "кодове слово",
)  # fmt: skip
_PW_WORDS = (
    *_MORE_PW_WORDS,
    "password", "pass", "pw", "passwort", "passwd", "passphrase", "passcode", "pwd", "kennwort", "wachtwoord",
    "contraseña", "contrasena", "senha", "mot de passe", "mdp", "hasło", "haslo", "lösenord", "losenord",
    "lösenordet", "losenordet",  # Swedish's definite form ("lösenordet är ...": reviewer AX)
    "adgangskode", "salasana", "parola d'ordine", "parola", "jelszó", "jelszo", "heslo", "şifre", "sifre", "пароль",
    # Hungarian's possessive and object forms ("a jelszavam: ...": reviewer AS)
    "jelszavam", "jelszava", "jelszavad", "jelszót", "jelszot",
    # Finnish's possessive forms ("Salasanani on ...": reviewer BO)
    "salasanani", "salasanasi", "salasanamme", "salasananne",
    "passord", "lozinka", "geslo", "parolă", "nenosiri", "pass phrase", "palavra-passe", "palavra passe",
    "mot-de-passe",
    # snake case, as a YAML or JSON key writes it ("mot_de_passe: \"x{PPHU+U...\"": reviewer CZ)
    "mot_de_passe", "palavra_passe",
    # an abbreviation and a hyphenated spelling ("the p/w is Hunter2024!", "pass-phrase: ...": a probe of labels)
    "p/w", "pass-phrase",
    "pass-word",  # a hyphen inside, a non-breaking one as the view folds it ("pass‑word\xa0:\xa0...": reviewer BG)
    # Definite and possessive forms: Norwegian's and Danish's "the password", Turkish's "its / my / your
    # password" ("BankID-passordet høyt: ...", "giriş parolası: ...": reviewer BF); Tagalog's, Telugu's (as the
    # view writes it: its marks dropped) and Amharic's words
    "passordet", "adgangskoden", "kodeordet", "kodeord", "parolası", "parolasi", "parolasını", "parolasini",
    "parolam", "parolanız", "paroları", "parolamız", "parolamiz", "parolan", "parolanızı", "parolanizi",
    "kontrasenya", "kontraseña", "nywila",
    # ... and of "şifre" ("giriş şifreniz: ...", your login's password: reviewer BQ)
    "şifreniz", "sifreniz", "şifrenizi", "sifrenizi", "şifrem", "sifrem", "పసవరడ", "పస వరడ", "የይለፍ ቃል", "የይለፍ ቃሉ",
    # Amharic's as an object ("የይለፍ ቃሉን በቻት ላከ፦ ..."), Hausa's "word of secret" and its possessive forms ("kalmar
    # sirrinsa ta app a waya: ..."): reviewer CL
    "የይለፍ ቃሉን", "kalmar sirri", "kalmar sirrinsa", "kalmar sirrinta", "kalmar sirrina", "kalmar sirrinka",
    "κωδικός πρόσβασης", "κωδικό πρόσβασης", "κωδικός", "συνθηματικό",
    "mật khẩu", "mat khau", "รหัสผ่าน",
    # German compounds (reviewer U: "Erstpasswort Sommer-70?"), a Wi-Fi network's key, a VPN's: see
    # _STRICT_LABELS
    "erstpasswort", "startpasswort", "initialpasswort", "standardpasswort", "zugangspasswort", "erstkennwort",
    "initialkennwort", "startkennwort", "wlan-passwort",
    *(_STRICT_LABELS := (
        "einmalpasswort", "wlan-schlüssel", "netzwerkschlüssel", "wlan-key", "wpa2 key", "wpa key", "wpa3 key",
        "wpa2-key", "wpa-psk", "wifi key", "wi-fi key", "pre-shared key", "preshared key", "clé wpa2", "clé wpa",
        "clé wifi", "clé wi-fi", "clé de sécurité réseau",
    )),
    "kundenkennwort", "kundenpasswort", "hotline-kennwort", "telefonkennwort", "telefonpasswort",
    # Reviewer R's personal notes: Turkish "my password", Korean's short "비번", Arabic without its
    # article, Spanish "the Wi-Fi's key".
    "şifrem", "şifresi", "şifresini",
    "비번", "كلمة سر", "كلمة مرور", "clave del wifi", "clave wifi", "clave de acceso",
    "סיסמה", "סיסמא", "הסיסמה", "كلمة المرور", "كلمة السر", "رمز عبور", "kata sandi", "kata laluan",
    "پسورد", "گذرواژه", "کلمه عبور",  # Persian's loanword and its own words (reviewer AH)
    # Persian's login's and Wi-Fi's "password" (the view drops the joiner in "وای‌فای": reviewer AY)
    "رمز ورود", "رمز وایفای", "رمز وای فای",
    "パスワード", "暗証番号", "密码", "密碼", "口令", "비밀번호", "पासवर्ड", "পাসওয়ার্ড",
    "கடவுச்சொல்", "پاس ورڈ", "پاسورڈ",  # Tamil's and Urdu's (reviewer BC)
    # Configuration directives followed by the password alone.
    *(_DIRECTIVES := (
        "requirepass", "auth_pass", "rootpw", "wpa_passphrase", "masterauth", "bindpw", "psk", "wpa_psk",
    )),
)  # fmt: skip


# Each word as the normalised view spells it too (Cyrillic letters that look Latin are Latin there:
# "пароль" reads "пapoль").
_PW_LABELS = "|".join(
    sorted(
        {
            re.escape(form)
            for word in _PW_WORDS
            for spelling in (word, unaccented(word))
            for form in (spelling, normalise_text(spelling).lower(), normalise_text(spelling.upper()).lower())
        },
        key=len,
        reverse=True,
    )
)
# Substrings the words hold, tested before any pattern runs; each costs a read of the text, so ASCII
# text is searched for the words of the markets most deployments serve ("pass" also finds Passwort,
# mot de passe, passord; "wort" Kennwort; "woord" wachtwoord; "contras" contraseña), and only text
# that is not ASCII for the words of other scripts and accents. The rarer words in ASCII ("salasana",
# "heslo", "parola") are read when the text holds one of these too.
# Labels that are everyday words too: Italian "parola" (word), Czech and Slovak "heslo" (motto, slogan); and
# Romanian's "parolă" and Swahili's "nenosiri" (reviewer AP), whose notes put dates after them too
# ("schimbare parolă: 12.03.2024", an attacker's round): each only before a value shaped like a password.
_AMBIGUOUS_LABELS = frozenset(
    # ... and Hungarian's possessive and object forms, which forms and chats put before a status too
    # ("jelszava: lejárt", "Jelszót: Elfelejtette?": an attacker's round)
    {
        "parola",
        "heslo",
        "parolă",
        "nenosiri",
        "jelszavam",
        "jelszava",
        "jelszavad",
        "jelszót",
        "jelszot",
        # ... and Turkish's forms of "parola", before where it is kept ("parolası Vault'tan ... okunuyor")
        "parolası",
        "parolasi",
        "parolasını",
        "parolasini",
        "parolam",
        "parolamız",
        "parolamiz",
        "parolan",
        "parolanızı",
        "parolanizi",
        "nywila",
        # ... and Uzbek's and Estonian's words, before a password's shape only (not "parole": a prisoner's release)
        "parol",
        "paroli",
        "parool",
        "parolanız",
        "paroları",
    }
)
_PASSWORD_HINTS = (  # "pass" and "pw" first (see _may_name_password)
    "pass", "pw", "wort", "woord", "senha", "mdp", "contras", "haslo", "heslo", "parola", "salasana", "adgangskode",
    "senord", "jelszo", "jelsza", "sifre", "lozinka", "geslo", "masterauth", "bindpw", "psk", "kata sandi",
    "kata laluan", "clave", "wpa", "shared key", "wifi key", "wi-fi key", "wlan", "nenosiri", "kodeord", "kontras",
    "nywila", "cyfrinair", "parol", "parool", "pasahitza", "pasfhocal", "kupuhipa", "iphasiwedi", "tenimiafina",
    "furaha sirta", "kalmar sirri", "p/w",
)  # fmt: skip
_PASSWORD_HINTS_OTHER = (
    "contrase", "hasło", "senord", "jelsz", "şifre", "parolă", "пap", "пар", "비번", "schlüssel",
    "パスワード", "暗証", "密码", "密碼", "口令", "비밀번호",
    "पासव",  # "पासवर्ड" without its virama, as the view writes it
    # Greek "κωδικός", "συνθηματικό" as the view writes them, in lower and upper case (κ, ι, ν, α, τ
    # and the capitals Υ, Η, Μ look Latin)
    "ωδik", "uvθ", "ynθ",
    "mật khẩu", "รหสผาน",  # Vietnamese; Thai "รหัสผ่าน" as the view writes it (its marks dropped)
    "סיסמ", "كلمة", "رمز عبور", "رمز و", "پسور", "گذرواژ", "کلمه عبور",  # Hebrew, Arabic, Persian
    "পাসও",  # Bengali "পাসওয়ার্ড"
    "கடவுச", "پاس ور", "پاسور",  # Tamil "கடவுச்சொல்" as the view writes it (its marks dropped), Urdu "پاس ورڈ"
    "పసవరడ", "పస వర", "የይለፍ",  # Telugu "పాస్‌వర్డ్" as the view writes it, Amharic "የይለፍ ቃል" (reviewer BF)
    *sorted(
        {
            normalise_text(spelling).lower()[:4]
            for word in _MORE_PW_WORDS
            if not word.isascii()
            for spelling in (word, word.upper())  # the view reads some capitals as Latin ("НУУЦ" as "HYYЦ")
        }
    ),
)  # fmt: skip
# Verbs between a label and its value, longest first ("is now", "changed to", "heißt", "devient", "→").
_VERBS = (
    # French "it's" ("le mdp c'est Marseille13@": reviewer AW)
    # "is still" and its kin in other languages ("lösenord ... är fortfarande Norrsken-Kaffe-14": reviewer AX)
    "is still|was still|remains|är fortfarande|är nu|ändrades till|ist noch immer|lautet noch immer|ist noch|"
    "ist immer noch|est toujours|sigue siendo|es todavía|ainda é|"
    "è ancora|is nog steeds|is nog|"
    "is now|was changed to|changed to|set to|reset to|is|was|to|now|ist|lautet|heißt|heisst|auf|war|c'est|c’est|est|"
    "devient|"
    # "eίvai": Greek "είναι" as the view writes it; Hebrew, Arabic, Indonesian "is"
    "était|es|era|é|è|är|er|jest|je|on|eίvai|הוא|היא|هي|adalah|equals|→|->|"
    # Swahili's "is", only after the label's "of" (_phrase_password: "password ya app ni Kenya@2016", reviewer CL;
    # not Spanish's and French's "nor", "la contraseña ni OAuth2-tokens": an attacker's round)
    "ni|"
    # "senha do app redefinida para ...", "contraseña cambiada a ...", "Passwort zurückgesetzt auf ..."
    "redefinida para|alterada para|definida para|trocada para|mudada para|cambiada a|cambiada por|"
    "restablecida a|réinitialisé à|réinitialisée à|changé en|changée en|modifié en|geändert in|zurückgesetzt auf|"
    # Italian "reset to", "changed to"; Romanian "is", and "my ... is" (not "e" alone: "and" in Portuguese and
    # Italian): reviewer AS's "password reimpostata a ...", "Parola mea e ..."
    "reimpostata a|resettata a|cambiata in|cambiata a|modificata in|este|mea e|"
    # Romanian "reset to", "changed to", "set to" ("Parola ... resetată la Primavara_2024!": reviewer AY)
    "resetată la|resetata la|schimbată în|schimbata in|setată la|setata la|"
    # Indonesian's "changed to", Thai's "to" (reviewer BH: "kata sandi WiFi diganti jadi ...", "รหัสผ่าน Wi-Fi เป็น
    # ..."); not "jadi", "menjadi" or Nordic "var" alone ("kata sandi jadi v2.5.1", "Adgangskode var
    # Office365-synkroniseret": an attacker's round)
    "diganti jadi|diganti menjadi|เป็น|เปน|ទៅជា"  # Thai's as the view writes it too (its mark dropped)
    # (not Thai's "is", "คือ": its compounds glue the label to what it names, "ฟิลด์รหัสผ่าน คือ pwd_hash2",
    # the password field: an attacker's round on reviewer BJ's readers)
)
# Particles that join a label to its value without spaces ("パスワードは...", "密码是...", "비밀번호는 ...").
_PARTICLES = "は|是|为|為|는|은"
# A value glued to a label in a script written without spaces: "，密码Yao#Fang2024；" (reviewer BB). Only
# a Latin letter or a digit may follow ("密码学" is cryptography, "パスワード変更" a change).
_CJK_GLUED = r"(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?=[A-Za-z0-9])"
# Thai writes no space between words: the words after a label ("รหัสผ่านชั่วคราว:", temporary
# password) are glued to it, and only a value shaped like a password is taken after them.
_THAI = "[\u0e00-\u0e7f]"
# What Thai glues to a password's label before the words of its clause: whose password it is ("ระบบ" system, "สำรอง"
# backup, "ชั่วคราว" temporary...), as the view writes them; not "ต้อง" (must), "สำหรับ" (for) or "ของ" (of), whose
# clause goes on to say where the password is or what it must be (an attacker's round on reviewer CN's readers).
_THAI_QUALIFIERS = "|".join(
    re.escape(normalise_text(word))
    for word in ("ผู้ดูแลระบบ", "ระบบ", "สำรอง", "ชั่วคราว", "ใหม่", "เดิม", "ผู้ดูแล", "แอดมิน", "เครื่อง", "บัญชี", "อีเมล")
)
# What a Romance language writes after the word for a password ("password iniziale fX7pq2Rz", "contraseña
# provisional de acceso ...: Turia_2023#", "mot de passe provisoire": reviewer Y): part of the label.
_PW_QUALIFIERS = (
    "iniziale|provvisoria|temporanea|nuova|provisional|provisoria|provisória|temporal|temporaria|temporária|"
    "nueva|nova|inicial|provisoire|temporaire|initial|initiale|nouveau|"
    "sementara"  # Indonesian and Malay: temporary ("kata sandi sementara Zomer2026!": reviewer AS)
)
# A label, maybe inside a name ("DB_PASSWORT", "MDP_BDD"), not in a token ("[PASSWORD ...]"); a particle
# may follow ("パスワードは"); maybe in brackets after what it is of ("- Router (senha): ...").
_PASSWORD_LABEL = (
    # (glued to the words before it in the scripts written without spaces: Thai's, Lao's, Khmer's and Burmese's too,
    # "ขอเปลี่ยนรหัสผ่าน Wi-Fi เป็น ...", "បានប្តូរពាក្យសម្ងាត់ Wi-Fi ទៅជា ...": reviewer BH)
    rf"(?:(?<![\w\[$])|(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0eff\u1780-\u17ff\u1000-\u109f])"
    rf"|(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
    # Arabic's "and" is written glued to the next word ("وكلمة المرور: ...": reviewer AU)
    rf"|(?<=(?<!\w)\u0648)(?=\u0643\u0644\u0645\u0629))(?P<label>(?:[a-z0-9]+_)*(?:{_PW_LABELS})(?:_[a-z0-9]+)*)"
    rf"(?:(?=(?:{_PARTICLES}))|(?![^\W_])|(?={_THAI})|{_CJK_GLUED})"
    rf"(?:[ \t]+(?P<qual>{_PW_QUALIFIERS})(?![^\W_]))?"
    # a JSON or YAML key's closing quote ('"senha_app": "Verde#2291casa"': reviewer Z)
    r"(?:\)|(?P<kq>[\"'])(?=[ \t]*[:=]))?"
)
# "=" after the label, or after the clause's words with a space before it ("passwd for root on bastion =
# ..."); glued to the clause's last word it is that word's padding, not an operator ('"كلمة المرور هي
# Sakura711="' is read at "هي": reviewer AD; so is one before a stop, "नवीन पासवर्ड Sahyadri6755=.": reviewer
# BF; not after an environment variable's name, "read from env var SECRET_2=.": an attacker's round), unless a
# value follows it (`password VALUE='...'`).
_EQUALS = (
    r"(?(words)(?:(?<=[ \t])=(?!=)|=(?!=|[ \t]*(?:\r?\n|$)|[\"'”»](?:[\s.,;:!?)\]}]|$)"
    r"|(?<=[0-9]=)(?<![A-Z_][A-Z0-9_]=)[.,!]+(?:[\s)\]}]|$)))"
    r"|=(?!=))"
)
_PASSWORD_PHRASE = lazy_compile(
    _PASSWORD_LABEL
    + (
        # <password>value</password>, <password type="plain">value</password>, WS-Security's
        # <wsse:Password Type="http://docs.oasis-open.org/...#PasswordText">value</wsse:Password>
        rf"(?:(?P<tag>(?:[ \t]+[a-z_][\w:.\-]*[ \t]*=[ \t]*\"[^\"<>\n]{{0,256}}\")*[ \t]*>)"
        # Words of the label's clause: a ";" ends it ("the pass phrase is "..."; Authorization: ..." is
        # read at "is", not at the next label's colon), and so does a closing quote or a stop after a
        # word ('"minha senha é Rosa0604$". Token do webhook: ...' is read at "é": reviewer AD).
        # (Thai's words glued to the label first: "รหัสผ่านระบบ SCADA สำรอง: ...", reviewer CN)
        rf"|(?:(?P<words>(?:{_THAI_QUALIFIERS}){{0,2}}(?:[ \t]+(?:(?!\()[^\s:=;\"”»]{{0,63}}?[^\s:=;\"”».!?]|[.!?]))"
        # an aside in brackets may end it ("Contraseña del área de clientes (por si necesitáis entrar): ...")
        # or an aside between commas ("the pw, for the record, is Lantern-Quay-88": reviewer AX)
        # or an aside in guillemets or quotes, a phrase of words ("mot de passe de l'espace « Mon Compte » :",
        # 'contraseña actual "para que lo revisemos": ...': reviewer BF)
        r"{1,6})|)(?:[ \t]*\([^()\n]{1,60}\)|(?P<aside>,[ \t]+[^,:=;()\n]{1,40},)"
        # or one that says it is given one character at a time, before the colon ("my password, letter by letter:
        # T-r-0-u-b-4-...": reviewer BJ; its value must hold a digit and a letter, _phrase_password)
        r"|(?P<how>,[ \t]+(?:letter|character|char)[ \t]+by[ \t]+(?:letter|character|char))(?=[ \t]*:)"
        r"|(?P<quoted>[ \t]*«[^«»\n]{1,60}»|[ \t]*\"[^\"\n]{0,30}[ \t][^\"\n]{0,30}\"|[ \t]*“[^“”\n]{1,60}”))?[ \t]*"
        rf"(?P<op>:|=>|{_EQUALS}|\u2192|[ \t](?:{_VERBS})(?=[ \t]|[ \t]*\r?\n)|(?:{_PARTICLES})"
        # Japanese's "は" written in Latin letters after the Japanese word ("wifi no パスワード wa cYuhSC73h!0g desu":
        # reviewer CA), not after another language's ("password wa M-Pesa usimpe": Swahili's "of", an attacker's round)
        r"|(?<=\u30c9[ \t])wa(?=[ \t])"
        r"|(?=[\u300c\u300e\uff62])"
        rf"|{_THAI}{{1,40}}[ \t]*:)"
        rf"|(?P<bare>{_THAI}{{0,40}}[ \t]+)(?=[^\s])|(?P<glued>{_CJK_GLUED}))"
    )
)
# The label and the word right after it, where the phrase read the words after it as the label's clause
# and found no value after them: "temp pw Rk7#pLw29q – told clmt to change", "his NetBank password
# Koala2024! before hanging up. Referred to bank" (reviewer Y; the clause's "to" taken for the verb).
# The groups of the clause are there and never take part.
_PASSWORD_BARE = lazy_compile(
    _PASSWORD_LABEL + rf"(?P<tag>(?!))?(?P<words>(?!))?(?P<op>(?!))?(?P<bare>{_THAI}{{0,40}}[ \t]+)(?=[^\s])"
)
# The label, maybe an aside in brackets, then an arrow as the operator: where the phrase read the arrow as
# a word of the label's clause and the value's own "=" as the operator ("PASSWORT (nicht weitergeben) ->
# dT?$gV@_=vj%@e": reviewer AT), and found nothing; an arrow before a word and a colon is still read as a
# word of the clause ("Password → production: Xy7$Qz9!k": an attacker's round).
_PASSWORD_ARROW = lazy_compile(
    _PASSWORD_LABEL
    + r"(?P<tag>(?!))?(?P<words>(?!))?(?:[ \t]*\([^()\n]{1,60}\))?[ \t]*(?P<op>->|=>|\u2192)(?P<bare>(?!))?"
)
# The label, maybe a few words without digits, then a dash between blanks as the operator, an em dash's place
# ("пароль от почты — Qwerty_Zima25.": reviewer BJ; the view reads every dash as "-"): tried where the phrase
# found nothing, so a value before the dash is read first ("временный пароль Kx7#pq — сменить").
_PASSWORD_DASH = lazy_compile(
    _PASSWORD_LABEL
    + r"(?P<tag>(?!))?(?P<words>(?:[ \t]+[^\W\d_][^\s\d:=;\-]{0,31}){0,3})(?P<op>[ \t]+-)(?P<bare>(?!))?(?=[ \t])"
)
_ARROW_WORD = lazy_compile(r"(?<![^ \t])(?:->|=>|\u2192)(?![^ \t])")
_WORDLIKE = lazy_compile(r"[^\W\d_]+")
_QUANTITY = lazy_compile(r"[0-9]+[A-Za-z]{1,10}")  # "90days", "12chars": an amount, not a password


# The hints but "pass" and "pw", read from the scan's words (found with the other gates' words in one
# pass): text that says "pass" ("needs another pass") mostly holds none of them.
_OTHER_PASSWORD_HINTS = index_words(*_PASSWORD_HINTS[2:])


def _may_name_password(scan: Scan, spans: list[tuple[int, int]]) -> bool:
    """A password label may be in the text; ``spans``: the keyword hints found in it ("pass" and
    "pw" among them), which spares searching for those two again."""
    lower = scan.lower
    for at, _ in spans:
        if lower.startswith(_PASSWORD_HINTS[:2], at):
            return True
    if not _OTHER_PASSWORD_HINTS.isdisjoint(scan.words):
        return True
    if lower.isascii():
        return False
    return any(hint in lower for hint in _PASSWORD_HINTS_OTHER)


_LEADS = ("mot de ", "mot-de-", "palavra-", "palavra ")


def _phrase_matches(scan: Scan, starts: list[int]) -> Generator[re.Match[str], bool, None]:
    """The phrases: in ASCII text read only at ``starts`` (_label_starts: where a hint starts a word), not by a
    pass of the pattern, whose alternatives start with most letters; in other text by a search. The caller sends
    whether a phrase gave a value: one that gave none does not hide a label inside it ("ihr Passwort im Chat gepostet
    („Passwort: Ciliegia2017.“) → AD-Konto" was read at the first label, its verb the arrow, and the second
    never tried: reviewer BV)."""
    lower = scan.lower
    if not lower.isascii():
        at = 0
        while (match := _PASSWORD_PHRASE.search(lower, at)) is not None:
            if (yield match):
                at = match.end()
                continue
            at = match.start() + 1
            if (shorter := _shorter_phrase(lower, match)) is not None and (yield shorter):
                at = shorter.end()
        return
    done = 0
    for start in starts:
        if start >= done and not _pass_as_a_word(lower, start):
            match = _PASSWORD_PHRASE.match(lower, start)
            if match is None:
                continue
            if (yield match):
                done = match.end()
            elif (shorter := _shorter_phrase(lower, match)) is not None and (yield shorter):
                done = shorter.end()


def _shorter_phrase(lower: str, match: re.Match[str]) -> re.Match[str] | None:
    """The phrase at ``match``'s start that ends at the verb right after its label, where the words ran from that verb
    past a value and a clause joined to it to another label's verb ("reset admin password to Bsl%M9#zc%K?% and Wi-Fi
    key to harbor-...": reviewer CR; the words had read "to", the password and "and Wi-Fi key" up to the next "to")."""
    if not match["words"] or match["op"] is None:
        return None
    shorter = _PASSWORD_PHRASE.match(lower, match.start(), match.start("op"))
    if (
        shorter is None
        or shorter["words"]
        or shorter["op"] is None
        or not match["words"].startswith(shorter["op"])  # the verb right after the label: the words began with it
        or _JOINED_CLAUSE.search(match["words"], len(shorter["op"])) is None  # then "and" another label's
    ):
        return None
    op = shorter["op"].strip()
    if op in _PLAIN_PREPOSITIONS:
        # a verb that sets the value before the label ("reset admin password to ..."), not one that maps, renames or
        # wires it to a name ("Map password to hashed_secret_v2 and token to ...": an attacker's round)
        before = _WORD_BEFORE.findall(lower, max(0, match.start() - _SETTER_BACK), match.start())[-3:]
        if not set(before).intersection(SET_BY.get(op, ())):
            return None
    return shorter


_WORD_BEFORE = lazy_compile(r"[^\W\d_]+")
_SETTER_BACK = 40  # characters read back for a verb that sets the value


_JOINED_CLAUSE = lazy_compile(r"[ \t]+(?:and|&|und|et|y|e)[ \t]+|[,;][ \t]")


def _label_starts(scan: Scan, spans: list[tuple[int, int]]) -> list[int]:
    """Where a password's label may start in ASCII text: at its hints' words (see _phrase_matches)."""
    lower = scan.lower
    found = [at for at, _ in spans if lower.startswith(_PASSWORD_HINTS[:2], at)]
    if not _OTHER_PASSWORD_HINTS.isdisjoint(scan.words):
        found += [at for hint in _PASSWORD_HINTS[2:] for at in scan.places(hint)]
    starts: set[int] = set()
    # In order, each walk back stops at the hint before it: a word made of hints ("pwd" repeated, an attacker's round)
    # was walked back from each of them, quadratic.
    before, word_start = -1, 0
    for at in sorted(found):
        start = at
        while start > max(before, 0) and (lower[start - 1].isalpha() or lower[start - 1] == "_"):
            start -= 1  # "kennwort" from "wort", "auth_pass" from "pass"
        if start == before:
            start = word_start  # the hint before is in the same word: its word's start
        before, word_start = at, start
        starts.add(start)
        for lead in _LEADS:  # "mot de passe", "palavra-passe": the label starts at its first word
            if lower.startswith(lead, start - len(lead)):
                starts.add(start - len(lead))
        if lower.startswith("pre-", start - 4):
            starts.add(start - 4)  # "pre-shared key"
    return sorted(starts)


# "pass" alone is mostly a verb or a noun ("needs another pass on", "pass the values to"). As a label
# it takes ":", "=" or a tag's ">" after it, or a value after it (maybe after a verb: "pass is ...")
# that only a password's shape lets through (_not_a_phrase_password): where none of the next four
# words could be one (six characters with one that is not a letter), the phrase pattern is not tried
# (ordinary notes that say "pass" spent a quarter of their scan there).
_PASS_OPERATOR = lazy_compile(r"\)?[ \t]*[:=>]")
_PASS_LABELS = tuple(word for word in _PW_WORDS if word.startswith("pass "))  # "pass phrase"
_PASS_WORDS = 4
_PASS_REACH = 96  # characters read after "pass" for those words


def _pass_as_a_word(lower: str, start: int) -> bool:
    after = start + 4
    if not lower.startswith("pass", start) or (after < len(lower) and (lower[after].isalnum() or lower[after] == "_")):
        return False
    if lower.startswith(_PASS_LABELS, start) or _PASS_OPERATOR.match(lower, after):
        return False
    words = lower[after : after + _PASS_REACH].split("\n", 1)[0].split(None, _PASS_WORDS)[:_PASS_WORDS]
    return not any(len(word) >= 6 and not word.isalpha() for word in words)


_FLAG_VALUE = lazy_compile(r"(?<![\w-])--?[A-Za-z][\w-]{0,30}=$")
_PATH_NEXT = lazy_compile(r"[\w.\-]+/[\w.\-/]+(?=[\s)]|$)")


def _password_phrases(scan: Scan, starts: list[int]) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    matches = _phrase_matches(scan, starts)
    match = next(matches, None)
    while match is not None:
        found = _phrase_value(text, lower, match)
        if found is not None:
            yield found
        try:
            match = matches.send(found is not None)
        except StopIteration:
            match = None


def _phrase_value(text: str, lower: str, match: re.Match[str]) -> Hit | None:
    if (
        match["bare"] is not None
        and _FLAG_VALUE.search(text, max(0, match.start() - 40), match.start())
        and _PATH_NEXT.match(text, match.end())
    ):
        return None  # "vault kv get -field=password kv/support/ledger-ro": a flag's value names a path's field
    if match["words"] and match["label"] in _DIRECTIVES:
        # A directive's value comes right after it, whatever it holds: "--requirepass cSSf(Uu_%=DBy(N9"
        # is one password, not the words "cSSf(Uu_%" and a value after "=" (reviewer AQ).
        found = _bare_password(text, lower, match.start())
        if found is not None:
            return found
    found = _tagged_password(text, match) if match["tag"] is not None else _phrase_password(text, match)
    if found is None and match["words"]:
        found = _bare_password(text, lower, match.start())
    if found is None and match["words"] and _ARROW_WORD.search(match["words"]):
        found = _arrow_password(text, lower, match.start())
    if found is None and match["tag"] is None and " - " in lower[match.start() : match.start() + 128]:
        found = _dash_password(text, lower, match.start())
    if found is None and match["tag"] is None:
        found = _password_of_a_service(
            text, lower, match.end("qual" if match["qual"] is not None else "label"), match["label"]
        )
    if found is None and match["words"]:
        found = _listed_password(text, match.start("words"))
    return found


# The clause's first word, then a comma: a value listed with other fields ("usuario pjnezxzs, contraseña akJibNpGlU#,
# pregunta de seguridad «...»: Cáceres", the colon the question's: reviewer CG), of a password's shape with a symbol
# or a digit and both cases (not "Passwort fürs Kassensystem, rückwärts gelesen (...): 3409_losiraM").
_LISTED = lazy_compile(r"[ \t]+(?P<value>[^\s,]{6,64}),[ \t]")
_BOTH_CASES = lazy_compile(r"(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])")


def _listed_password(text: str, at: int) -> Hit | None:
    listed = _LISTED.match(text, at)
    if listed is None:
        return None
    value = listed["value"]
    if not (_password_shaped(value) and _BOTH_CASES.match(value) and any(not char.isalpha() for char in value)):
        return None
    return ("PASSWORD", *listed.span("value"))


# What the password is for, then the password with no verb or colon: "senha do portal Jabuticaba#91"
# (reviewer AA), "password for the VPN Tr0ub4dor&3", "Passwort für das Portal Kx9#mLq2", "mot de passe du
# portail ...", "contraseña del portal ...". A preposition, one to three words without digits, then a
# value that ends its clause (the line, or a stop or a comma after it) and has a password's shape with a
# digit and a password's own symbol, which a name, a reference or a version seldom has. After a word
# that names whose account it is ("the password for user JSmith#01", "for host db#2") the value is that
# one's name. A question's last word is what is asked about, not the password ("the password for the
# printer HP4015?"), and the symbol must be one a password has and a model's, a flight's or a change's
# name has not (a "-", a "+", an "!" end "MFC-L2710DW", "DS920+", "FRITZ!Box7590", "CHG0045123!"; a
# "=" makes a key and its value: "for the LDAP bind uid=svc01"): a fresh attacker's round.
# "от", "для" (Russian "of", "for") as the view writes them (Cyrillic letters that look Latin are Latin there).
# Greek "για" (for), Ukrainian's and Russian's "до" (to) the same way (reviewer BB).
_CYRILLIC_FOR = tuple(normalise_text(word).lower() for word in ("от", "для", "до", "για"))
# A "!" counts inside the value, between letters or digits ("Herzl!Data24", "Recept!Msk2024": reviewer BB;
# "FRITZ!Box7590" is a router's name, "Yahoo!BB12M" an ISP's, "Go!Go!7188" a club's).
_SERVICE_PASSWORD_SYMBOL = lazy_compile(r"[#$%&*@^~][^?]|(?<!(?i:fritz))(?<!(?i:yahoo))(?<!(?i:go))(?<=[^\W_])![^\W_]")
# A preposition that lost its vowel before the next word ("dell'home banking", "d'accès"): Italian, French.
_ELIDED = lazy_compile(r"(?:dell|dall|nell|sull|all|quell|l|d|j|n|s|c|qu)['’](?=[^\W\d_])", re.IGNORECASE)
# The prepositions that say what a secret is for, in the languages read (one list for the readers below).
_WHAT_FOR = (
    r"for|of|to|on|do|da|dos|das|de|del|della|dello|dei|di|du|des|pour|para|per|en|no|na|für|fuer|zum|zur|vom|"
    # Nordic "til", "till", "på"; Czech and Slovak "k", "ke", "pro"; Romanian "pentru"; Vietnamese "cho" (reviewer BB)
    r"til|till|på|k|ke|pro|pentru|cho|"
    rf"von|der|voor|van|dla|untuk|{'|'.join(map(re.escape, _CYRILLIC_FOR))}"
)
_FOR_THE = lazy_compile(
    rf"[ \t]+(?:(?:{_WHAT_FOR})(?=[ \t])"
    r"|(?:dell|dall|nell|sull|d)['’])"
    r"(?P<words>(?:(?:[ \t]+|(?<=['’]))[^\W\d_](?:[^\W\d_]|['’\-](?=[^\W\d_])){0,31}){1,4})[ \t]+"
    r"(?P<value>[^\s\"'`,;<>(){}\[\]|]{6,64})(?=[.,;:]*[ \t]*(?:\r?\n|$)|[.,;:]+[ \t]|[ \t]+[\-–—(])"
)
# Languages that say what a password is of with no preposition (a construct state, a compound): Arabic
# "كلمة مرور غرفة البيانات Dubai#Deal2024؛", Hebrew "סיסמה לחדר הנתונים Herzl!Data24", Vietnamese "mật khẩu
# cổng kê đơn Thuoc@HCM2024" (reviewer BB): one to five words, each with a letter outside ASCII, then a value
# in ASCII, ended as _FOR_THE's is or by the script's own comma, semicolon or raised dot.
_OF_THE = lazy_compile(
    r"(?P<words>(?:[ \t]+(?=[^\s]{0,31}[^\x00-\x7f])[^\W\d_][^\s\d]{0,31}){1,5})[ \t]+"
    r"(?P<value>[!#-&*+\-.0-:=?-Z\\^-z~]{6,64})(?=[.,;:]*[ \t]*(?:\r?\n|$)|[.,;:]+[ \t]|[ \t]+[\-–—(]|[،؛·])"
)
_BANG_ONLY = lazy_compile(r"[#$%&*@^~][^?]")  # a symbol but "!" (the older half of _SERVICE_PASSWORD_SYMBOL)
# A ticket's, a request's or a record's number ("INC#0045123", "SD#104521", "BK#771203"), maybe with the clause's
# stop; a retina asset's name ("icon@2x"): what a sentence about a password refers to, not a password.
_TICKET_OR_ASSET = lazy_compile(
    # a ticket's, a request's, a case's number: a prefix in capitals or a ticket's word ("Sommer#2024" stays a password)
    r"(?:(?:[A-Z]{1,8}[0-9]?|(?i:ticket|tiket|tichet|req|request|case|sak|sag|ärende|arende|požadavek|pozadavek|"
    r"cerere|phiếu|dossier|issue|incident|change|task|bug|story|order|invoice|job|sr|ref|no|nr|id))#[0-9]{3,}"
    r"(?:[\-/][A-Za-z0-9]{1,12}){0,2}"
    r"|[A-Za-z0-9_\-]+@[1-4](?:\.[0-9])?x"  # a retina asset
    r"|[a-z][a-z0-9_.\-]*@[0-9][0-9.]*"  # a package at its version ("postgresql@16")
    # a spreadsheet's cell ("Sheet1!A1", "Budget!B2:B40")
    r"|[A-Za-z0-9_]+![A-Z]{1,3}[0-9]{1,7}(?::[A-Z]{1,3}[0-9]{1,7})?"
    r"|[A-Z]{0,3}\$[0-9][0-9.,]*)"  # a price ("R$1500", "MX$5000")
    r"[.,;:]?"
)
_WHOSE = frozenset(
    {"user", "username", "account", "login", "member", "customer", "client", "employee", "patient", "host",
     "server", "machine", "device", "node", "tenant", "id", "mailbox", "ticket", "issue", "case", "incident",
     "usuário", "usuario", "utilisateur", "benutzer", "nutzer", "konto", "compte", "cuenta", "conta", "utente"}
)  # fmt: skip
_LANGUAGE_NAME = lazy_compile(r"[A-Za-z]{1,3}(?:\+\+|#)[0-9]{0,4}$")  # "C++2023", "C#10": a language, its standard
_ADDRESS_IN = lazy_compile(r"@[^@]*\.")


# A capitalised word, digits and a symbol after them, as people make passwords of names: "Martina2011!",
# "Pierogi2023!" after what they are for (reviewer AV); not a release's, a model's or a campaign's name
# ("Windows10", "Office2019", "Summer2024": an attacker's round on AA; "Redmi12c", "Fedora39beta",
# "Summit2024ny": one on AV's, which took "Zenit2008spb" out with them). Not after "pass" (a season's,
# a ski resort's, a press pass) nor Italian "parola" (a word: "la parola del giorno Ciao2024!").
# A dash may join the name and the number ("password della data room Rogito-7741!": reviewer BB).
_NAME_AND_YEAR = lazy_compile(r"[A-Z][a-z]{2,15}-?[0-9]{2,4}[!*$&@%#]+")  # "%", "#" too ("Marigold2000%": reviewer BR)
_NOT_ONLY_PASSWORDS = frozenset({"pass", "parola"})
# What a campaign's, an event's or a sale's name is "the password for" (an attacker's round: "password for
# the sale Outlet2024%", "senha do evento Carnaval2025!", "hasło do konkursu Lato2024!").
_EVENTS = frozenset(
    {"event", "events", "evento", "eventos", "sale", "discount", "promo", "promotion", "season", "contest", "concorso",
     "konkurs", "konkursu", "sorteio", "sorteo", "messe", "salon", "acara", "hashtag", "campaign", "campaña",
     "campanha", "festival", "shop", "tienda", "loja", "app", "game", "match", "quiz", "raffle", "month", "week",
     "day", "gala", "olympics", "prize", "win", "lottery", "draw",
     # a campaign's or a discount's, in more languages ("Heslo pro letní kampaň Leto#20245": an attacker's round)
     "kampaň", "kampaně", "kampani", "kampanii", "kampanie", "kampagne", "campagne", "campagna", "kampanya",
     "kampanj", "kampanjen", "kampanje", "kampagnen", "sleva", "slevy", "rabatt", "rabat", "promocja", "promoção",
     "promoción", "promozione", "sconto", "descuento", "desconto", "remise", "soldes", "indirim", "акция", "акции",
     "скидка", "знижка", *viewed_words("έκπτωσης", "έκπτωση", "προσφοράς"),
     # a ball's, an anniversary's, a celebration's slogan (Czech "heslo": "Heslo pro letošní ples ...")
     "ples", "výročí", "výročie", "oslava", "oslavu", "večírek", "akce", "akci", "slogan", "motto"}
)  # fmt: skip


def _password_of_a_service(text: str, lower: str, at: int, label: str) -> Hit | None:
    """The value of _FOR_THE after the label that ends at ``at``, if it is shaped as such a password;
    after a label in another script, also with no preposition before what it is for (_OF_THE)."""
    found = _FOR_THE.match(lower, at)
    if found is None and not label.isascii() and not label.startswith(_GREEK_CODE):
        found = _OF_THE.match(lower, at)  # Greek's "κωδικός" alone is any code ("Κωδικός προϊόντος HP#45213")
    if found is None or found["words"].split()[-1] in _WHOSE or not _EVENTS.isdisjoint(found["words"].lower().split()):
        return None  # whose account it is; a campaign's or a discount's "password" ("Heslo pro letní kampaň ...")
    if _TICKET_OR_ASSET.fullmatch(text, *found.span("value")):
        return None  # "Password for the new finance team TKT#40213.", "... logo icon@2x": an attacker's round
    start, end = found.span("value")
    while end > start and text[end - 1] in ".,:;":
        end -= 1
    value = text[start:end]
    if value.endswith("?"):
        return None  # a question's last word is what is asked about ("the password for the printer Canon2019?")
    if _NAME_AND_YEAR.fullmatch(value) and label not in _NOT_ONLY_PASSWORDS:
        return "PASSWORD", start, end
    if (
        "=" in value
        or _SERVICE_PASSWORD_SYMBOL.search(value) is None
        # a "!" its only symbol, among small letters only: a service's name and a number ("auth-service!4521")
        or (_BANG_ONLY.search(value) is None and not any(char.isupper() for char in value))
        or value[:1] in "$%#@"  # a variable's name ("$DB_PASSWORD_2", "%PASS1%"), a channel, a handle ("#ops-2024")
        or _LANGUAGE_NAME.match(value) is not None
        or not any(char in PASSWORD_SYMBOLS for char in value)
        or _DIGIT.search(value) is None
        or not _password_shaped(value)
        or _URL_VALUE.match(value) is not None
        or "/" in value
        or _ADDRESS_IN.search(value) is not None
    ):
        return None
    return "PASSWORD", start, end


# A copula within the three words after a value: the value was a sentence's subject, not a password given.
_SUBJECT_OF = lazy_compile(r"(?:[ \t]+[^\s]{1,40}){0,2}?[ \t]+(?:is|was|are|were|ist|war|est|es|è|é|era)(?![^\W\d_])")


_FIELD_ASSIGNMENT = lazy_compile(r"[A-Za-z_][\w.\-]*=")
_FIELD_AND_WORD = lazy_compile(r"(?<![^\W_])[0-9A-Za-z_.\-]{1,32}=[^\W\d_]{2,}(?![^\W_])")


def _arrow_password(text: str, lower: str, start: int) -> Hit | None:
    """The value after an arrow right after the label (_PASSWORD_ARROW); not a setting's name and value
    ("Passwort -> Länge=12", "Mot de passe → rounds=10000": an attacker's round)."""
    arrow = _PASSWORD_ARROW.match(lower, start)
    found = _phrase_password(text, arrow) if arrow is not None else None
    if found is None or _FIELD_ASSIGNMENT.match(text, found[1], found[2]):
        return None
    return found


def _dash_password(text: str, lower: str, start: int) -> Hit | None:
    """The value after a dash that follows the label and its words (_PASSWORD_DASH): not after a word of
    what is done to passwords ("Password reset - Ticket-2024 closed": an attacker's round), and ending its
    clause (the line, or a stop or a comma after it)."""
    dash = _PASSWORD_DASH.match(lower, start)
    if dash is None or _ASIDE_SETTING.search(dash["words"]) is not None:
        return None
    found = _phrase_password(text, dash)
    if found is None or not (text[found[2] - 1] in ".,;!" or _ENDS_CLAUSE.match(text, found[2])):
        return None
    value = text[found[1] : found[2]].rstrip(".,;!")
    # A password's whole shape: small and capital letters, a digit and a symbol other than a version's or a
    # name's dot and dash (not "T1110.003", "CWE-798", "JIRA-4412", "Base64", "Hashcat6.2", "GDPR-Art33" after
    # "Password spraying —", "Hardcoded password —", "Password change —": an attacker's round).
    if not (
        _DIGIT.search(value)
        and value.lower() != value != value.upper()
        and any(not char.isalnum() and char not in ".-" for char in value)
    ):
        return None
    return found


_ASCII_LETTER = lazy_compile(r"[A-Za-z]")
_ENDS_CLAUSE = lazy_compile(r"[.,;:!?)]*(?:[ \t]*(?:\r?\n|$)|[.,;:!?)][ \t]|[ \t]+[(\-\u2013\u2014])")


def _bare_password(text: str, lower: str, start: int) -> Hit | None:
    """The word right after a label read as its value (_PASSWORD_BARE): only a password's shape with a
    digit, not a field of a log line ("action=password_change result=success") nor a heading's name."""
    bare = _PASSWORD_BARE.match(lower, start)
    found = _phrase_password(text, bare) if bare is not None else None
    if found is None or _DIGIT.search(text, found[1], found[2]) is None:
        return None
    if "=" in text[found[1] : found[2]] and (
        _FIELD_ASSIGNMENT.match(text, found[1], found[2]) or _FIELD_AND_WORD.search(text, found[1], found[2])
    ):
        # "result=success", "2FA=enabled", "1=required, 0=optional": a field and its word, a log line's or a
        # legend's ("^4jSW~KIN7bXDYn=*tH%H" is a password: reviewer AM; the others an attacker's round)
        return None
    if text.startswith(":", found[2]):
        return None  # a heading that names a scheme ("Password Argon2id:", "passphrase v2-format:")
    if _SUBJECT_OF.match(lower, found[2]):
        return None  # a sentence's subject: "WiFi password WPA2-PSK is required", "password KeePassXC2 database is"
    return found


def _password_in_brackets(text: str, at: int) -> Hit | None:
    """A password in brackets right after its label: Japanese and Chinese quotation brackets
    ("パスワード「zFA9z2lSEYlS!*」で"), or round ones ("nannte ihr bisheriges Passwort (Autumn2025#)")."""
    if text[at] in _CORNER_BRACKETS:
        bracket = _CORNER_BRACKET.match(text, at)
        if bracket is None:
            return None
        start, end = bracket.span("value" if bracket["value"] is not None else "v2")
        return ("PASSWORD", start, end) if _bracketed_shape(text[start:end]) else None
    inside = _IN_BRACKETS.match(text, at)
    if inside is None or not _bracketed_shape(inside["value"]):
        return None
    return ("PASSWORD", *inside.span("value"))


def _bracketed_shape(value: str) -> bool:
    """In brackets only one word with capitals, small letters and a digit is a password: brackets
    also quote names and remarks ("(optional)", "(RFC-7617)", "「Forgot password?」", "「SHA-256」",
    "「OAuth 2.0」", "「設定 > セキュリティ」", a URL or a path)."""
    return (
        _password_shaped(value)
        and _DIGIT.search(value) is not None
        and value.lower() != value != value.upper()
        and not any(char.isspace() for char in value)
        and _URL_VALUE.match(value) is None
        and "/" not in value
    )


_IN_BRACKETS = lazy_compile(r"\((?P<value>[^\s()]{6,64})\)")
# Japanese and Chinese quotation brackets around a value.
_CORNER_BRACKETS = "\u300c\u300e\uff62"  # 「 『 ｢
_BRACKETS = _CORNER_BRACKETS + "("
_CORNER_BRACKET = lazy_compile(
    "[\u300c\uff62](?P<value>[^\u300d\uff63\n]{1,256})[\u300d\uff63]|\u300e(?P<v2>[^\u300f\n]{1,256})\u300f"
)
_TAGGED_MAX = 320  # a password of 256 characters at most, and a child element's opening tag
_CHILD_TAG = lazy_compile(r"[ \t]*<[A-Za-z_][\w:.\-]{0,32}>")


def _tagged_password(text: str, match: re.Match[str]) -> Hit | None:
    """<password>value</password>; a label alone in brackets is a placeholder ("://<username>:<password>@")."""
    close = text.find("</", match.end(), match.end() + _TAGGED_MAX)  # a bounded look: linear on "<password>" * n
    if close == -1:
        return None
    start, end = match.end(), close
    child = _CHILD_TAG.match(text, start, end)
    if child is not None:  # <Password><Value>...</Value></Password>
        start = child.end()
    secret = text[start:end]
    if 4 <= len(secret) <= 256 and "\n" not in secret and _plausible_value(secret, True):
        return "PASSWORD", start, end
    return None


_ALONE_ON_ITS_LINE = lazy_compile(r"(?:>[ \t]?)*[^\s]{4,64}[ \t]*(?:\r?\n|$)")
_NEXT_LINE_SYMBOL = lazy_compile(r"[!#$%&*@^~+=?|\\]")  # a password's symbol, which names and versions lack
_NAME_PARTS = lazy_compile(r"[-_.]")  # a name's or a version's joints ("NIST-800-63B", "Rotated_on_2024-03-12")


def _value_start(text: str, match: re.Match[str]) -> int | None:
    """Where the phrase's value starts: after the blanks; or, where a verb ends the line, on the next line
    if the value is alone there ("Das Passwort für das Kundenportal lautet" then "!qKcOF8-pzC#*1":
    reviewer AD, in a quoted message; not a commit message wrapped at 72 columns, "the user's password
    is" then "PBKDF2 derived, 600k iterations.": a fresh attacker's round). None: no value there."""
    at = skip_blanks(text, match.end())
    if text.startswith(("\n", "\r\n"), at) and match["op"] is not None and match["op"][:1] in " \t":
        at = skip_blanks(text, at + (1 if text[at] == "\n" else 2))
        alone = _ALONE_ON_ITS_LINE.match(text, at)
        value = alone.group().strip(" \t\r\n>") if alone is not None else ""
        if not value or not (
            _NEXT_LINE_SYMBOL.search(value) or (_password_shaped(value) and not _NAME_PARTS.search(value))
        ):
            return None  # a name on the next line ("Argon2id-v19", "SSO-only", "siehe_Wiki_Seite_42")
    return at


def _phrase_password(text: str, match: re.Match[str]) -> Hit | None:
    if "_" in match["label"] and (_NOT_SECRET_KEY.search(match["label"]) or _HASHER_LAST.search(match["label"])):
        return None  # "password_hash: ...", "db_password_file = ...": the name says it is not the secret
    at = _value_start(text, match)
    if at is None:
        return None
    if at < len(text) and text[at] in _BRACKETS:
        return _password_in_brackets(text, at)
    value = _VALUE.match(text, at)
    if value is None:
        return None
    quoted = value["quoted"] is not None
    start, end = value.span("quoted" if quoted else "bare")
    if quoted and end > start and text[end - 1] == "\\":
        end -= 1  # JSON inside a JSON string ({\"pw\":\"...\"}): the closing quote's escape is not the value's
    if not quoted:
        while end > start and text[end - 1] in _TRAILING and text[end - 1] != "?":
            end -= 1
        # "contraseña: Abc(123)"; and the .netrc's "password LAM*OJ^e)X%SDU+I)=", a closing bracket only
        # where the token ends its line (reviewer AQ; "password Koala2024!,ticket: 4471" is a password and a
        # field: an attacker's round)
        if end < len(text) and text[end] in "()[]{};,|" and not (text[end] in "([" and _aside(text, end)):
            if text[end] in "([" and _code_call(text, start, end):
                return None  # a call or a subscript: code that reads the secret ("password = getpass()")
            end = _password_token_end(text, start, end, whole_line=text[end] not in "([")
        if not (match["label"].isascii() and (match["op"] is None or match["op"].isascii())):
            end = _end_in_script(text, start, end)
    secret = text[start:end]
    if match["kq"] is not None and not quoted:
        return None  # a quoted key's value is quoted too: '"HAS_PSK": has_psk' is a name in code
    if match["bare"] is not None and (
        (match["qual"] is not None and WORD_AFTER.match(text, end)) or _ELIDED.match(secret)
    ):
        # "password iniziale Q3-2024 in fase di revisione": a name the sentence goes on about; "la password
        # dell'home banking ...": an article or a preposition that lost its vowel opens the clause (reviewer AV)
        return None
    refused = (
        not _ASCII_LETTER_OR_DIGIT.search(secret)  # words of another script ("ਪਾਸਵਰਡ: ਘੱਟੋ-ਘੱਟ 8", at least 8)
        # given letter by letter: a password's letters and digits ("A-B-C" is the alphabet: an attacker's round)
        or (match.groupdict().get("how") is not None and not (_DIGIT.search(secret) and _ASCII_LETTER.search(secret)))
        or (match.groupdict().get("quoted") is not None and _not_after_a_quoted_aside(text, match, secret, end))
        or (match.groupdict().get("glued") is not None and _glued_not_a_value(text, secret, end))
        or _not_a_phrase_password(text, match, secret, quoted, end)
        or _described_field(text, match, secret, quoted)
        # Swahili's "ni" after "ya" and Amharic's label as an object ("the password, send it ...") only before a value
        # with a password's symbol ("Urefu wa password ya akaunti ni Herufi-12", its length; "የይለፍ ቃሉን በቻት አትላኩ፦
        # Policy-2024 ...", do not send it, a policy forbids it: an attacker's round on reviewer CL's readers)
        or (
            (match["op"] is not None and match["op"].strip() == "ni")
            and not (_has_password_symbol(secret) and _SWAHILI_OF.search(match["words"] or ""))
        )
        or (match["label"] in _OBJECT_LABELS and not _has_password_symbol(secret))
    )
    return None if refused else ("PASSWORD", start, end)


_OBJECT_LABELS = frozenset({normalise_text("የይለፍ ቃሉን").lower()})


_SWAHILI_OF = lazy_compile(r"(?<![^\W\d_])ya(?![^\W\d_])")


# A label's clause of seven to ten words ("the password for the seller account that she gave in chat: ...",
# Tagalog's "ang password ng seller account na binigay niya sa chat: ...": reviewer CK; the phrase reads six at
# most) names its value only before a colon, and a value of a password's shape (_password_shaped) holding a password's
# own symbol, the clause's last word no field's ("... this week: Minimum12Chars required" is a rule).
_LONG_PHRASE = lazy_compile(
    _PASSWORD_LABEL + r"(?:[ \t]+[^\s:=;\"”»]{1,40}){7,10}?[ \t]*:[ \t]*(?P<value>[^\s\"'`]{8,64})(?P<after>[ \t]*\S*)"
)


def _long_clause_passwords(scan: Scan, starts: list[int]) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    if ":" not in text:
        return
    if lower.isascii():
        # (only where a colon follows the label on its line: most labels of a note have none)
        colons = [at for at in starts if lower.find(":", at, _line_end(lower, at)) != -1]
        matches = [m for at in colons if (m := _LONG_PHRASE.match(lower, at)) is not None]
    else:
        matches = list(_LONG_PHRASE.finditer(lower))
    for match in matches:
        start, end = match.span("value")
        while end > start and text[end - 1] in _TRAILING:
            end -= 1
        secret = text[start:end]
        if (
            _password_shaped(secret)
            and _has_password_symbol(secret)
            and not _placeholder(secret)
            and "://" not in secret  # "password reset link for the new user account: https://..." (reviewer F)
            and (end < match.end("value") or not match["after"])
        ):
            yield "PASSWORD", start, end


# A password's own symbols: what products', standards' and tickets' names do not hold ("1Password.", "Bitwarden-EU",
# "NIST-SP-800-63B", "INC-20931", "Keychain/Keystore", "ISO-27001:2022": an attacker's round on reviewer CK's readers)
_OWN_SYMBOLS = frozenset("!@#$%^&*~+=?<>|{}[]()';,\\`")


def _has_password_symbol(secret: str) -> bool:
    return any(char in _OWN_SYMBOLS for char in secret)


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end == -1 else end


def _not_after_a_quoted_aside(text: str, match: re.Match[str], secret: str, end: int) -> bool:
    """After an aside in guillemets or quotes, the value ends its clause and is no standard's, rule's or scheme's
    name ('Password "best practices": NIST-800-63B says ...', "mot de passe « temporaire » : OTP-6 envoyé",
    'password "for service accounts": RFC-8018 (PBKDF2) applies'), the aside names no setting of passwords
    ('Password "min length": Twelve12.', 'Password "grace period": 7days.'), and the value is no date or span of
    time (two attackers' rounds)."""
    return (
        ACRONYM_NAMED.match(secret) is not None
        or _ASIDE_VALUE_END.match(text, end) is None
        or _ASIDE_SETTING.search(match["quoted"]) is not None
        or _DATE_OR_SPAN.fullmatch(secret.rstrip(".,;")) is not None
    )


_ASIDE_SETTING = lazy_compile(
    r"length|period|field|rule|cadence|algo|changed|policy|vector|complex|expir|lockout|rotation|reset|hash|format|"
    r"min|max|last|age|histor|strength|longueur|durée|longitud|länge|regel",
    re.IGNORECASE,
)
_DATE_OR_SPAN = lazy_compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]+(?:days?|d|h|min|x[\-0-9a-z]*)|q[1-4]-q[1-4]", re.IGNORECASE
)


# A standard's, a rule's or a network's name ("NIST-800", "RFC-8018", "Wi-Fi6", "OTP-6", "GDPR-Art32", "Guest-5G")
ACRONYM_NAMED = lazy_compile(r"[A-Z][A-Za-z]{1,5}[0-9]?[\-‐][A-Za-z0-9]")
_ASIDE_VALUE_END = lazy_compile(r"[ \t]*(?:$|\r?\n|[.,;!?]+(?:\s|$)|\((?![A-Za-z0-9]+\)[ \t]*[a-z])|[—–\-][ \t])")


def _glued_not_a_value(text: str, secret: str, end: int) -> bool:
    """Glued to its label, a value is a password's own symbol among letters or digits ("密码Yao#Fang2024", which
    a sentence may go on after: "密码Abc#1234请勿外传"), or digits alone that end their clause or take a copula
    ("密码360338。"): not a cipher's, a protocol's or a standard's name ("密码SHA256加密存储", "Wi-Fi密码WPA2-PSK",
    "密码TLS1.2", "暗証番号ISO9564-1": two attackers' rounds)."""
    if _GLUED_SYMBOL.search(secret):
        return _ALGORITHM_NAME.fullmatch(secret) is not None
    if not secret.isdigit():
        return True
    return end < len(text) and _CJK_LETTER.match(text, end) is not None and not text.startswith(_POLITE_ENDS, end)


_GLUED_SYMBOL = lazy_compile(r"[#@!$%&*^~]")


_CJK_LETTER = lazy_compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_POLITE_ENDS = ("です", "でした", "だ", "입니다", "이에요", "예요", "이고", "였")  # a sentence's copula ends it
_ALGORITHM_NAME = lazy_compile(
    r"(?i:sha[0-9]{0,3}|sha-?[0-9]{3}|md5|aes[0-9]{0,3}|rsa[0-9]{0,4}|bcrypt[0-9]{0,2}|scrypt|pbkdf2|argon2(?:id|i|d)?|"
    r"hmac[0-9]{0,3}|base64|base32|des|3des|sm[234]|ecdsa|ed25519|crc32|blake2[bs]?)"
)


def _described_field(text: str, match: re.Match[str], secret: str, quoted: bool) -> bool:
    """A form's field described: an aside in brackets between the label and its operator, then a word of
    letters alone ("Password (optional): blank", "Passwort (Pflichtfeld) = erforderlich": an attacker's
    round, once the aside was read as one)."""
    if quoted or match["op"] is None or not secret.isalpha():
        return False
    return "(" in text[match.end("label") : match.start("op")]


def _end_in_script(text: str, start: int, end: int) -> int:
    """Where a value after a label in another script ends: "パスワードはP@ssw0rd#1です": where the
    sentence goes on ("ù" is part of one); a password of that script stays whole ("Пароль=Солнце_2019!").
    A full stop before the sentence goes on is the sentence's ("暗証番号 3916。次回...")."""
    cut = next((at for at in range(start, end) if other_script(text[at])), end)
    rest = text[cut:end]
    if cut < end and (
        cut - start >= 4 or not any(char.isdigit() or _ascii_symbol(char) for char in rest) or _glued(rest)
    ):
        end = cut
        while end > start and text[end - 1] in _TRAILING and text[end - 1] != "?":
            end -= 1
    return end


def _aside(text: str, at: int) -> bool:
    """A bracket at ``at`` opens a remark in another script, not a call's arguments:
    "パスワード：hF0ZRQBLlibSRTJt（月末に変更予定）" (reviewer S), the fullwidth bracket read as "("."""
    return text[at] == "(" and at + 1 < len(text) and other_script(text[at + 1])


# A key in groups, each of letters and digits mixed ("WLAN-Schlüssel 7hQm-Xk2p-Rv9s", "Clé Wi-Fi (WPA2) :
# qv7R-2mLx-9TfA-Wk3e": reviewer Z): three groups or more, a digit and a small and a capital letter among them.
_KEY_GROUPS = lazy_compile(r"(?=[^\s]*[0-9])(?=[^\s]*[a-z])(?=[^\s]*[A-Z])[A-Za-z0-9]{3,8}(?:-[A-Za-z0-9]{3,8}){2,}")
# An English contraction ("Password shouldn't be hardcoded", "the password's hash"): prose, not a password.
_CONTRACTION = lazy_compile(r"[a-z]+['\u2019](?:s|t|re|ll|ve|d|m)", re.IGNORECASE)


# Labels that name a PIN as often as a password: Japanese "暗証番号" is a PIN; a card's or a door's
# Korean "비밀번호" or Chinese "密码" is digits ("玄関オートロックの暗証番号 3916": reviewer Z). Four or
# six digits alone are the value there (a card's PIN, a door's), where after "password" they are a
# count or a rule.
_PIN_LABELS = frozenset({"暗証番号", "비밀번호", "密码", "密碼"})
_PIN_DIGITS = lazy_compile(r"[0-9]{4}|[0-9]{6}")
# What follows a number that is a count, an amount or a part of a longer one: a unit, glued or after
# a blank ("暗証番号は4桁", "密码 6688 个字符", "비밀번호 5000원", "密码 8080 端口"), a word in Latin
# letters ("4096 bit", "600000 iterations"), more digits ("1588 1234").
_PIN_UNITS = frozenset("年月日時分秒桁回次位个個件名号円元轮輪端字条條行년월일시분초자번개회원")
_AFTER_PIN = lazy_compile(r"[ \t]*(?P<next>.)")


def _pin_after_label(text: str, secret: str, end: int) -> bool:
    """Digits after a label of _PIN_LABELS that are a PIN: not a year, an example, or a count."""
    if _PIN_DIGITS.fullmatch(secret) is None or year_or_example(secret):
        return False
    after = _AFTER_PIN.match(text, end)
    if after is None:
        return True
    following = after["next"]
    return following not in _PIN_UNITS and not following.isdigit() and not ("a" <= following.lower() <= "z")


# A policy's setting written after the label: a name in capitals or in snake case that names a rule (a
# length, an age, a count), then a number or a switch ("Password policy: PASSWORD_MIN_LENGTH=14, ...":
# reviewer AP). A name and a value of any other kind may be the password ("contraseña: CLAVE_BD=secreto",
# "The password is: root_pw=12345678": an attacker's round).
# The rule's word is a whole part of the name: "ADMIN_PW", "ACCOUNT_PW", "STORAGE_PASS" name no rule (a
# second attacker's round).
_SETTING_ASSIGNED = lazy_compile(
    r"(?i:(?=(?:[a-z0-9]+_)*(?:min|max|length|len|age|days|history|expiry|expire|expiration|attempts|lockout|"
    r"complexity|reuse|rotation|count|chars|digits|upper|lower|uppercase|lowercase|special|required?)(?:_|=))"
    r"(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+))=(?:[0-9]{1,4}|(?i:true|false|yes|no|on|off))"
)


_AMBIGUOUS_ASIDE = frozenset({"pass", *_AMBIGUOUS_LABELS})


def _aside_or_described(text: str, match: re.Match[str], secret: str, end: int) -> bool:
    """An aside after "pass" names a ticket or a road ("The bus pass, for students, is Zone-2A only"), and a
    word after the value an aside led to goes on about it ("The boarding pass, as printed, is Gate-B12
    valid"); a value that says how a password is kept ("is still SSO-managed", "är BankID-skyddat", "was
    MD5-hashed"): an attacker's round."""
    if match.groupdict().get("aside") and (match["label"] in _AMBIGUOUS_ASIDE or WORD_AFTER.match(text, end)):
        return True
    return DESCRIBED.fullmatch(secret) is not None


# A label's clause that goes to somewhere else than a value: the label heads a compound noun ("password
# manager is 1Password8", "Password storage was migrated to Pbkdf2Sha256"), or a plain preposition after a verb
# that moves or sends ("Password rotation is postponed to Sprint47", "reset link emailed to AKowalski2"): an
# attacker's round on reviewer AZ's readers. A verb that sets the value ("changed to", "reset to") still leads
# to it, and so does a password's own symbol.
COMPOUND_HEADS = frozenset(
    {"manager", "managers", "vault", "policy", "policies", "hasher", "hashing", "hash", "field", "column",
     "storage", "expiry", "rotation", "audit", "prompt", "prompts", "autofill", "login", "authentication",
     "protected", "strength", "complexity", "history", "generator", "recovery", "hint", "length", "requirements",
     "rules", "prompting", "sync", "feature", "form", "screen", "page", "flow", "module", "service"}
)  # fmt: skip
_PLAIN_PREPOSITIONS = frozenset({"to", "auf", "in", "on", "into", "naar", "op", "till", "til", "à", "a", "para", "na"})
# Verbs that set a password, before the preposition that gives its new value, by preposition (Spanish
# "restablecida para JGarcia2024" is "reset for" a user, Portuguese "reposta para" "reset to").
SET_BY: dict[str, tuple[str, ...]] = {
    "to": ("changed", "set", "reset", "updated", "rotated"),
    "na": ("resetováno", "nastaveno", "změněno", "změnil", "změnila", "nastavil", "nastavila", "ustawione",
           "zmienione", "zresetowane", "ustawiono", "zmieniono", "ustawiłem", "zmieniłem", "zmieniłam", "ustawiłam"),
    "para": ("redefinida", "reposta", "alterada", "definida", "trocada", "mudada", "resetada", "redefinido",
             "alterado", "definido"),
    "a": ("cambiada", "restablecida", "reseteada", "cambiado", "restablecido", "puesta", "actualizada", "impostata",
          "reimpostata", "cambiata", "resettata", "modificata", "impostato", "cambiato"),
    "in": ("cambiata", "modificata", "geändert"),
    "à": ("réinitialisé", "réinitialisée", "changé", "changée", "modifié", "modifiée", "mis", "mise", "défini",
          "définie"),
    "en": ("changé", "changée", "modifié", "modifiée"),
    "auf": ("geändert", "zurückgesetzt", "gesetzt"),
    "naar": ("gewijzigd", "veranderd", "gereset", "aangepast"),
    "op": ("ingesteld", "gezet"),
    "till": ("ändrat", "ändrades", "satt", "återställt", "bytt", "byttes"),
    "til": ("endret", "satt", "ændret", "nulstillet", "tilbakestilt", "byttet", "skiftet"),
    **{prep: viewed_words("изменён", "изменен", "сброшен", "змінено", "скинуто") for prep in viewed_words("на")},
}  # fmt: skip


def _moved_elsewhere(match: re.Match[str], secret: str) -> bool:
    words = (match["words"] or "").split()
    if not words or any(char in PASSWORD_SYMBOLS for char in secret):
        return False
    if words[0].lower() in COMPOUND_HEADS:
        return True
    op = (match["op"] or "").strip().lower()
    last = words[-1].lower()
    return op in _PLAIN_PREPOSITIONS and last not in SET_BY.get(op, ()) and last not in ("is", "was", "now")


# A word and a number joined, what a help desk hands out as a one-time password ("Neues Einmalpasswort: Lindenhof-7319,
# E-Mail ...": reviewer CU), ending its clause; a setting's value is written otherwise ("6-stellig", "PSK-SHA256"), and
# a router's or a template's name goes on ("WLAN-Schlüssel: Fritzbox-7590 Aufkleber ...", "Einmalpasswort:
# Vorlage-2024 im Wiki": an attacker's round).
_WORD_AND_NUMBER = lazy_compile(r"[^\W\d_]{4,}[\-_. ]?[0-9]{2,6}|[0-9]{2,6}[\-_.][^\W\d_]{4,}")
_ENDS_ITS_CLAUSE = lazy_compile(r"[ \t]*(?:$|\r?\n|[,;)]|\.(?:\s|$))")


def _not_a_phrase_password(text: str, match: re.Match[str], secret: str, quoted: bool, end: int) -> bool:
    """What a label is followed by that is not a password: words, a state, a rule, a number."""
    if match["label"] in _PIN_LABELS and not match["words"] and _pin_after_label(text, secret, end):
        return False
    if (
        (match["label"] == "pass" and (match["words"] or (match["op"] or "").strip() == "to"))
        or (match["label"] == "p/w" and not any(char.isalpha() for char in secret))
        or _aside_or_described(text, match, secret, end)
    ):
        # "pass" is a verb: "arguments to pass to :py:func:`main`", "pass the values given to __init__"; "p/w: 0.35 kg
        # per watt" a power-to-weight ratio (the attacker of the README's promises); an aside's or a described value
        # (_aside_or_described)
        return True
    if not quoted and (
        _CONTRACTION.fullmatch(secret) or _SETTING_ASSIGNED.fullmatch(secret) or _moved_elsewhere(match, secret)
    ):
        return True
    if (
        match["label"] in _STRICT_LABELS
        and not any(char in PASSWORD_SYMBOLS for char in secret)
        and not _KEY_GROUPS.fullmatch(secret)
        and not (_WORD_AND_NUMBER.fullmatch(secret) and _ENDS_ITS_CLAUSE.match(text, end))
    ):
        # Settings share these labels: "WPA2 key: PSK-SHA256", "pre-shared key: IKEv2-PSK", "Einmalpasswort:
        # 6-stellig". The value needs a password's own symbol ("Sommer-70?", "vjwdb+T2HwDq&zuM").
        return True
    if (match["op"] or "").strip() in _SAID and _said_password(secret, match["words"] or ""):
        return False  # "the password I'm using is corinthians.sommer67": said, not assigned in code
    if _named_after_key(secret, match["label"]) or (
        not quoted and match["op"] == "=" and _CODE_NAME.fullmatch(secret) and _unpacked(text, match.start())
    ):
        return True  # "passphrase=passphrase", "username, password = auth": names of code
    if (
        match["label"].startswith(_GREEK_CODE)
        and " " not in match["label"]  # "κωδικός πρόσβασης" names a password whatever follows
        and match["words"]
        and match["words"].split()[0] not in _GREEK_CODE_FOR
    ):
        return (
            True  # Greek "κωδικός" is any code: "κωδικός προϊόντος: AB-1234" is a product's, not "κωδικός για το VPN"
        )
    if len(secret) < 4 or not _plausible_value(secret, quoted) or secret.lower() in _STOP_VALUES:
        # "contraseña = dragon.soleil50", "Passwort: HUNTER_2024": shaped like an identifier, a
        # password as it is after "password:"
        return not (
            len(secret) >= 4
            and not quoted
            and match["op"] in (":", "=")
            and not match["words"]
            and match["label"] != "pass"
            and not _AMBIGUOUS_LABELS.intersection(match["label"].split("_"))
            and _identifier_password(text, secret, end)
        )
    if _form_words(text, match["label"], secret, quoted, end):
        return True
    if _AMBIGUOUS_LABELS.intersection(match["label"].split("_")):  # only a value shaped like a password
        return not _password_shaped(secret)
    if match["bare"] is not None or match["words"] or match["op"] not in (":", "="):
        # No key-value syntax: only a value shaped like a password (not "password reset link"); quoted,
        # only as markdown's code ("temp login pw `walnut-meadow-marble-57`"), not a quoted phrase.
        if quoted and not (end < len(text) and text[end] == "`" and match["label"] != "pass"):
            # ("pass `organization_id`": the verb, and a name of code)
            return not _quoted_after_clause(match, secret)
        return (
            not _password_shaped(secret)
            and not (quoted and _PASSPHRASE_WORDS.fullmatch(secret))
            and not _digits_for_what(text, match, secret, quoted, end)
        )
    # "first pass: tokenize": "pass" is a noun too, and a lone word after it is what the pass does
    lone_word = not quoted and bool(_LOWER_WORD.match(secret))
    return lone_word and (match["label"] == "pass" or _followed_by_words(text, end) or _attribute(text, match.start()))


def _digits_for_what(text: str, match: re.Match[str], secret: str, quoted: bool, end: int) -> bool:
    """Digits alone after a label's colon and a clause that says what they open ("password for the server:
    839214", "Passwort für den Server: 839214", "mot de passe du serveur : 839214": reviewer CY's Persian
    one), ending their clause: six to twelve, no date, the clause with no digit and naming, last, a thing a
    password opens (_LOCKED_THINGS; not a ticket: "password for ticket: 4829133" names the ticket)."""
    words = (match["words"] or "").split()
    return (
        not quoted
        and (match["op"] or "").strip() in (":", "：")
        and 6 <= len(secret) <= 12
        and secret.isdigit()
        and secret.isascii()
        and not a_date(secret)
        and not a_month(secret)
        and len(set(secret)) > 2
        and bool(words)
        # (or one word after a label of a script that puts what it is of after it: "رمز عبور سرور", the server's)
        and (
            _FOR_WHAT.match(match["words"] or "") is not None
            or (len(words) == 1 and RTL_LETTER.match(match["label"]) is not None)
        )
        and not any(char.isdigit() or char in "#№" for char in match["words"] or "")
        and words[-1].lower().strip(".,") in _LOCKED_THINGS
        and _ENDS_ITS_CLAUSE.match(text, end) is not None
    )


# What a password of digits alone opens, named last in the clause before its colon: machines, networks, safes, the
# accounts of a system (not a number's owner: "Password for the hotline: 0800...", "Passwort für die Kundennummer:
# 4829...", "Password for the invoice: 9000...": an attacker's round).
_LOCKED_THINGS = frozenset(
    {"server", "servers", "serveur", "servidor", "servidores", "rechner", "computer", "pc", "laptop",
     "notebook", "ordinateur", "ordenador", "computador", "wifi", "wi-fi", "wlan", "router", "routeur", "modem",
     "vpn", "database", "datenbank", "db", "safe", "tresor", "coffre", "coffre-fort", "caja", "cofre", "kluis",
     "alarm", "alarme", "alarma", "alarmanlage", "nas", "firewall", "switch", "vm", "host", "workstation", "tablet",
     "ipad", "iphone", "handy", "telefoon", "sejf", "سرور", "الخادم", "خادم", "שרת", "השרת", "مودم", "روتر", "وای‌فای",
     "الراوتر", "המודם", "הראוטר", "wachtwoordkluis", "serwer", "serwera", "komputer", "komputera", "sunucu",
     "sunucunun"}
)  # fmt: skip


def _quoted_after_clause(match: re.Match[str], secret: str) -> bool:
    """A quoted value after a label's clause is a password: a pass phrase's words, or, assigned after a
    clause that says what it is for, a word with letters, a digit and a password's symbol ('pw for the
    clearinghouse test acct = "RILEN6TT!0"': reviewer AU)."""
    if "phrase" in match["label"] and _PASSPHRASE_WORDS.fullmatch(secret):
        return True
    words = (match["words"] or "").split()
    return (
        match["label"] != "pass"
        and match["op"] in (":", "=")
        and _FOR_WHAT.match(match["words"] or "") is not None
        and words[-1].lower() not in _WHOSE | _NAMES_A_THING
        and _QUOTED_PASSWORD.fullmatch(secret) is not None
    )


# Words that end a clause naming a thing whose name, not password, a quoted value is ("password for the vault
# path = ...", "... the keystore alias: ...", "... the rule: ..."): an attacker's round.
_NAMES_A_THING = frozenset(
    {"admin", "rule", "field", "file", "header", "key", "name", "path", "alias", "dn", "string", "var", "algorithm",
     "hash", "policy", "template", "format", "type", "setting", "option", "parameter", "variable", "secret", "query",
     "shortcut", "version", "hashtag", "macro", "class", "config", "example", "ejemplo", "exemplo", "esempio",
     "beispiel", "placeholder", "platzhalter", "sample", "demo", "test", "tests", "column", "label", "prompt", "docs",
     "documentation", "przykładu", "przykład", "tutorial", "screenshot"}
)  # fmt: skip


# A quoted password after a clause that says what it is for ("for the VPN", "do portal"): no blank and
# no dot (a file's or a release's name), a letter, a digit and a symbol a password has.
_FOR_WHAT = lazy_compile(rf"[ \t]+(?:{_WHAT_FOR})[ \t]")
# No blank, dot, slash, "=", "@", "," or ";" (a path, a DN, a connection string, an address), and a symbol
# other than a joiner ("svc-backup-01", "release-key-2024" name accounts and keys: an attacker's round).
_QUOTED_PASSWORD = lazy_compile(r"(?![#%$])(?=[^\s]*[^\W\d_])(?=[^\s]*[0-9])(?=[^\s]*[!#$%&*?^~])[^\s./=@,;+]{6,64}")


def _named_after_key(secret: str, key: str) -> bool:
    """The value is the key's own name ("passphrase=passphrase", 'USER_PASSWORD_AUTH = "USER_PASSWORD_AUTH"'):
    a variable passed on, or a constant naming itself."""
    return secret.lower() == key


# A name of code (a variable, an attribute): lower-case words, no digit ("credentials", "auth.basic").
_CODE_NAME = lazy_compile(r"[a-z_]+(?:\.[a-z_]+)*")
# A list's pieces joined with nothing between, as the value: Python's "''.join([...])", Terraform's 'join("", [...])'
# ("ADMIN_PW = ''.join(['uq&M', 's9gA', '8A0w'])": reviewer CL; its pieces joined by detectors._literal_hits)
_JOIN_OPENS = lazy_compile(
    r"(?:''|\"\")[ \t]*\.join\([ \t]*\[[ \t]*(?=[\"'])|join\([ \t]*(?:\"\"|'')[ \t]*,[ \t]*\[[ \t]*(?=[\"'])"
)
_SIGNS = lazy_compile(r"signature|signing|hmac")  # (not "webhook": "webhook_event_key" is an event's id)
# A value that stops at "(" or "[" is code that reads a secret when it is a name ("os.environ[", "vault.read(");
# else a long token running to its line's end is read whole through its brackets (see _assignment).
_CODE_REFERENCE = lazy_compile(r"[A-Za-z_$][\w$]*(?:(?:\.|->|::)[A-Za-z_$][\w$]*)*")
_WHOLE_TOKEN = lazy_compile(r"[^\s\"'`]{1,512}(?=[ \t]*(?:\r?\n|$))")
_TOKEN_THROUGH = 40  # characters at least of such a token


def _unpacked(text: str, key_start: int) -> bool:
    """The key is one of names being unpacked ("username, password = auth"): code, its value a variable."""
    newline = text.rfind("\n", max(0, key_start - _UNPACK_REACH), key_start)
    if newline == -1 and key_start > _UNPACK_REACH:
        return False  # a bounded look back: a huge line is read in linear time
    return _UNPACKED_BEFORE.fullmatch(text, newline + 1, key_start) is not None


_UNPACK_REACH = 256


_UNPACKED_BEFORE = lazy_compile(r"[ \t]*(?:[A-Za-z_][\w.]*[ \t]*,[ \t]*)+")


def _in_arn(lower: str, key_start: int) -> bool:
    """The key is a resource type inside an ARN ("arn:aws:secretsmanager:*:*:secret:rds!*"): the
    name after it is no secret."""
    if not key_start or lower[key_start - 1] != ":":
        return False
    begin = lower.rfind("arn:", max(0, key_start - 160), key_start)
    return begin != -1 and _ARN_BODY.fullmatch(lower, begin, key_start) is not None


_ARN_BODY = lazy_compile(r"arn:[a-z0-9\-*]*:[a-z0-9\-]*:[a-z0-9\-*]*:[0-9*]*:(?:[^\s\"':]*:)*")


# Scripts written without spaces between words: what follows a label there is the sentence going on
# ("密码：至少8位", at least 8 digits), never a password of that script.
_GLUED_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI", "LAO", "KHMER", "MYANMAR", "IDEOGRAPHIC")


def _glued(text: str) -> bool:
    return any(not char.isascii() and unicodedata.name(char, "").startswith(_GLUED_SCRIPTS) for char in text)


def _ascii_symbol(char: str) -> bool:
    return char.isascii() and not char.isalnum() and not char.isspace()


def _attribute(text: str, key_start: int) -> bool:
    """The key is an attribute of the object at hand ("self.password = credentials"): a bare word
    assigned to it is a variable of code; a password written into code is quoted. Other dotted keys
    are a properties file's ("spring.datasource.password=hunter2x")."""
    return text.endswith(_SELF, 0, key_start) or text.startswith(_SELF, key_start)


_SELF = ("self.", "this.", "cls.")


def _form_words(text: str, label: str, secret: str, quoted: bool, end: int) -> bool:
    """What follows a password label that is a form's words, a rule or a number, not a password:
    "Password: Incorrect", "Kennwort: Abgelaufen", "Passwort: 12-Mar-2024", "Password: 8-64
    characters", "high_pass = 3000", "Pass: 1187 Fail: 3", "int pw = 1500" (words and rules only
    where not quoted)."""
    if not quoted and (_STATUS_WORD.fullmatch(secret) or _DATE_WORD.fullmatch(secret)):
        return True
    if not quoted and _policy_text(text, secret, end):
        return True
    return _SHORT_PASS_KEY.search(label) is not None and _NUMBER.fullmatch(secret) is not None


_TOKEN_END = lazy_compile(r"[^\s\"'`<>]{0,256}")  # bounded: text without blanks (CJK) must not be read to its end


def _password_token_end(text: str, start: int, end: int, *, whole_line: bool = False) -> int:
    """Where a bare password really ends: it may hold brackets, ";", "," and "|" ("Xk9(a;P2|wQ",
    "p[4]Jz{Q}7mN", "Tr0ub4dor&3()"), which end an ordinary value; a call or a subscript
    ("getpass()", see _code_call) keeps ``end``."""
    if end >= len(text) or text[end] not in "()[]{};,|":
        return end
    if text[end] in "([" and _code_call(text, start, end):
        return end
    token = _TOKEN_END.match(text, start)
    assert token is not None  # the pattern matches the empty string
    stop = token.end()
    while stop > end and text[stop - 1] in _TRAILING:
        if text[stop - 1] == ")" and text.count("(", start, stop) >= text.count(")", start, stop):
            break  # the bracket closes one the password opened ("Abc(123)")
        stop -= 1
    if stop <= end + 1 or not _password_shaped(text[start:stop]):
        return end
    if whole_line and not (stop == len(text) or text[stop] in "\r\n"):
        return end  # "whole_line": only a token that ends its line
    return stop


# A call or a subscript after a password's key is code that reads the password ("password =
# get_password()", "password=os.getenv('X')", "pw = creds['db']"), where what is called is a name in
# code and what it is given reads as code's arguments. A password holds brackets too: "Tr0ub4dor&3()"
# (no name of code calls), "x9(K!z)" (no argument of code has "!" between letters), "Abc(123)" and
# "Summer(2024)!" (one capitalised word given digits alone, and called no further: no constructor's
# name, but a word and a number, as people make passwords).
# A name of code: maybe a method's (".set()") or the rest of a path whose "::" was read as a key's ":".
_CALLEE = lazy_compile(r"(?:\.|::?)?(?:[A-Za-z_$][\w$]*(?:\.|::|->|\?\.))*[A-Za-z_$][\w$]*!?")
_CAPITALISED = lazy_compile(r"[A-Z][a-z]+")
_CONSTRUCTORS_TEXT = """
    number decimal some ok err array int integer long float double bigint fraction date duration buffer bytes box
    vec option optional just char byte short complex rational symbol boolean bool object range repeat"""
_CONSTRUCTORS = frozenset(_CONSTRUCTORS_TEXT.split())
_STRING_LITERAL = lazy_compile(r"""(["'`])(?:\\.|(?!\1)[^\\\n])*\1""")
_NOT_ARGUMENTS = lazy_compile(r"[#\\\"'`]|\w[!@~]\w")
_CALL_LINE = 256  # how far a call's arguments are read


def _code_call(text: str, start: int, end: int) -> bool:
    """``text[start:end]``, followed by "(" or "[", is a name of code called or indexed."""
    callee = text[start:end]
    if _CALLEE.fullmatch(callee) is None:
        return False
    line_end = text.find("\n", end, end + _CALL_LINE)
    rest = _STRING_LITERAL.sub("s", text[end : line_end if line_end != -1 else end + _CALL_LINE])
    depth = 0
    for at, char in enumerate(rest):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                arguments = rest[1:at]
                chained = rest.startswith((".", "(", "[", "?."), at + 1)  # "Array(16).fill(0)"
                break
    else:
        # Unclosed on its line: arguments continued on the next ("connect(" then "host, ..."), or
        # a password that holds an opening bracket ("Xk9(a;P2|wQ").
        return rest.rstrip()[-1] in ",([{\\"
    if _NOT_ARGUMENTS.search(arguments):
        return False
    word = callee.lower()
    return chained or not (
        _CAPITALISED.fullmatch(callee) and arguments.isdigit() and word not in _CODE_PARTS and word not in _CONSTRUCTORS
    )


def skip_blanks(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t":
        at += 1
    return at


_TYPOGRAPHIC_QUOTES = "\u201e\u201c\u201d\u201a\u2018\u2019\u00ab\u00bb\u2039\u203a"  # „ “ ” ‚ ‘ ’ « » ‹ ›


_SLASHED_WORDS = lazy_compile(r"[a-z]+(?:/[a-z]+)+")
_GREEK_CODE = normalise_text("κωδικ").lower()
_GREEK_CODE_FOR = frozenset(
    normalise_text(word).lower()
    for word in ("για", "πρόσβασης", "του", "της", "σου", "μου", "wifi", "wi-fi", "vpn", "email", "admin")
)
_PASSPHRASE_WORDS = lazy_compile(r"[A-Za-z]{3,}(?:-[A-Za-z]{3,}){2,}(?:-[0-9]{1,4})?")  # "walnut-meadow-marble-57"


_SUFFIXED_WORD = lazy_compile(r"[^\W_]+['’][^\W\d_]{1,6}")
# What a sentence says a password is, not a password: a scheme with what it does ("WPA2-based", "SHA256-hashed",
# Norwegian's "WPA2-basert", Danish's "AES256-krypteret", "MitID2-kompatibelt"), a suite's name ("Office365",
# "Microsoft365": "parolası: Outlook365 hesabınızla aynı", the same as the account's) (an attacker's round)
# A value that says what a password is, not the password (an attacker's round each): words joined by hyphens
# whose last is a participle or a kind in lower case, how a password is kept or made ("SSO-managed",
# "Base64-encoded", "BankID-skyddat", "SHA-256-hashat", "AES-256-verschlüsselt", "TLS1.2-only", "WPA2-Enterprise",
# "v2-format", Norwegian's "WPA2-basert", Danish's "AES256-krypteret", "MitID2-kompatibelt"); a suite's name
# ("Office365": "parolası: Outlook365 hesabınızla aynı", the same as the account's); a system's, a standard's or
# a cipher's name with its number, maybe a case ending after a dash ("Паролата: Windows11", "Wi-Fi şifrəsi:
# WPA2-PSK", "parool: Windows11-s", "Windows10-ում"). A stop or a comma may end the sentence after a name; a "!"
# is a password's own there ("password Office365!", "WPA2-Home!", "ACME-Summer-2024" are passwords).
DESCRIBED = lazy_compile(
    r"(?-i:[^\W_][\w.]*(?:-[\w.]+)*-(?:[a-zäöüå]{3,}(?:ed|at)|only|based|backed|format|themed|aligned|[Ee]nterprise"
    r"|[Pp]ersonal|[Dd]igit|verschlüsselt|verschluesselt|kontots|basert|baseret|baserad|basiert|hashet|krypteret"
    r"|krypterad|kryptert|kodiert|kompatibel|kompatibelt|kompatibla|sonu|kontoens|kontos))[.!]?"
    r"|(?:(?:office|microsoft|outlook|m|o)365(?:['’][^\W\d_]{1,6})?"
    r"|(?:windows|win|android|ios|ipados|macos|osx|ubuntu|debian|fedora|wpa|wpa2|wpa3|wep|sha|aes|rsa|iso|nist|fido"
    r"|fido2|pci|tls|ssl|version|release|build)[0-9][\w.\-]*(?:-[^\W\d_]{1,10})?"
    r"|v[0-9]+(?:\.[0-9]+)+[\w\-]*"
    r"|(?:wpa|wpa2|wpa3|sha|aes|iso|nist|pci|tls)-[\w\-]+"
    r"|(?-i:[A-Z]{2,5})-(?:19|20)[0-9]{2}"
    r"|[\w.]+-[^\x00-\x7f\W\d_]+)"
    r"[.,;]?",
    re.IGNORECASE,
)


_ASCII_LETTER_OR_DIGIT = lazy_compile(r"[A-Za-z0-9]")


def _password_shaped(secret: str) -> bool:
    """Six characters or more, letters and a digit or a symbol, and not a word with a number (nor a
    word and its punctuation: "Passwort vergessen?", nor a word in typographic quotes: "„Svoboda“")."""
    written = secret.strip(_TYPOGRAPHIC_QUOTES)  # as written: a "!" after a suite's name is the password's
    secret = secret.rstrip("?!.,;:").strip(_TYPOGRAPHIC_QUOTES)
    if len(secret) < 6 or _WORDLIKE.fullmatch(secret) or secret.isdigit() or _QUANTITY.fullmatch(secret):
        return False
    if (
        _SLASHED_WORDS.fullmatch(secret)
        or _SUFFIXED_WORD.fullmatch(secret)
        or DESCRIBED.fullmatch(written)
        or not _ASCII_LETTER_OR_DIGIT.search(secret)  # words of other scripts ("ਘੱਟੋ-ਘੱਟ", at least)
    ):
        # "a password and/or the user name", "read/write"; a name and its case's ending ("parolası Vault'tan
        # okunuyor": read from Vault, Turkish), its possessive ("Vault's")
        return False
    letters = any(char.isalpha() for char in secret)
    others = any(not char.isalpha() for char in secret)
    if _WORDS_AND_NUMBER.fullmatch(secret) and _ALGORITHM_TAIL.search(secret.lower()) is None:
        return True  # "corinthians.sommer67": two words and a number, as people make passwords (reviewer T)
    return letters and others and (not _IDENTIFIER_CHAIN.match(secret) or _drawn_chain(secret))


def _drawn_chain(secret: str) -> bool:
    """Dotted like a name in code, but drawn at random: a digit in every part, inside a part too (not only at
    its end: "Argon2.V13", "Base64.Sha256" are names), small and capital letters ("the db password to
    `Zj3OO7fa.E77Oe`": reviewer AN; "config.db_password", "self.Http2Client" are code)."""
    parts = secret.split(".")
    return (
        len(parts) > 1
        and all(any(char.isdigit() for char in part) for part in parts)
        and _DIGIT_INSIDE.search(secret) is not None
        and secret.lower() != secret != secret.upper()
    )


_DIGIT_INSIDE = lazy_compile(r"[0-9][A-Za-z]")


_SEPA_CREDITOR = lazy_compile(r"[A-Z]{2}[0-9]{2}ZZZ[0-9A-Z]{8,28}")  # country, check digits, "ZZZ" (no business code)
_WORDS_AND_NUMBER = lazy_compile(r"[A-Za-z][a-z]{2,}\.[a-z]{3,}[0-9]{2,4}")
_SAID = frozenset({"is", "was", "is now", "es", "est", "ist", "é", "era", "war"})
# What a password's words may name instead of it ("the password hash is hashlib.sha256", "Password
# policy is owasp.asvs40"), and an algorithm's name after the dot.
_NOT_THE_PASSWORD = frozenset(
    {"hash", "hasher", "hashing", "policy", "algorithm", "scheme", "format", "encoder", "module", "library", "field",
     "column", "rule", "rules", "validator", "storage"}
)  # fmt: skip
_ALGORITHM_TAIL = lazy_compile(
    r"\.(?:sha|md|asvs|bcrypt|scrypt|argon|pbkdf|blake|crc|hmac|aes|rsa|utf|iso|rfc)[a-z]*[0-9]+$"
)


def _said_password(secret: str, words: str) -> bool:
    return (
        (_WORDS_AND_NUMBER.fullmatch(secret) is not None or _random_dotted(secret))
        and _NOT_THE_PASSWORD.isdisjoint(words.lower().split())
        and _ALGORITHM_TAIL.search(secret.lower()) is None
    )


_DIGITS_INSIDE = lazy_compile(r"[A-Za-z][0-9]+[A-Za-z]")


def _random_dotted(secret: str) -> bool:
    """Two or three parts a dot joins, one drawn at random (digits between letters of both cases): "pw is
    gki.TC314f4ji" (reviewer AH) is said to be the password, not an attribute of code ("config.DbPassword1")."""
    parts = secret.split(".")
    return 2 <= len(parts) <= 3 and any(
        _random_group(part) and _DIGITS_INSIDE.search(part) is not None and not _pascal_words(part) for part in parts
    )


# Where a key that holds a hint is followed by what starts an assignment, or a password label may
# be: one pass that most text fails, so the finder below runs only where it can find something ("--"
# anywhere lets it look for command-line options). Wider than the finder (any length of key after any
# hint), never narrower. "pass" and "pw" are password hints as well as key hints: alone they are
# enough. Grouped by first letter (see by_first_letter): a third of the cost of one pattern for the
# keys and one substring search per password hint.
_ASSIGNED_TAIL = f"[a-z0-9_.\\-]{{0,{_KEY_MAX}}}(?:{_KEY_ORDINAL.pattern}|{_KEY_ASIDE.pattern})?{_ASSIGN_START.pattern}"
_ASSIGNED_KEY_OR_PASSWORD = lazy_compile(
    by_first_letter([*_PASSWORD_HINTS, *(f"{hint}{_ASSIGNED_TAIL}" for hint in _HINTS if hint not in _PASSWORD_HINTS)])
)


_ALL_HINTS = index_words(*_PASSWORD_HINTS, *_HINTS)


def may_hold_keyword_secret(scan: Scan) -> bool:
    lower = scan.lower
    if len(lower) > _SHORT:
        return True  # long text: the finder's substring searches cost no more than this pattern would
    return (
        "--" in lower
        # Each of the pattern's alternatives starts with a hint: none of them in the scan's words, no match.
        or (not _ALL_HINTS.isdisjoint(scan.words) and _ASSIGNED_KEY_OR_PASSWORD.search(lower) is not None)
        or (not lower.isascii() and any(hint in lower for hint in _PASSWORD_HINTS_OTHER))
        or _may_hold_attribute(lower)
        or _may_hold_cli_password(lower)
        or _may_hold_ios_password(lower)
        or _may_hold_env_form(lower)
        or (("[" in lower or "(" in lower) and ("'" in lower or '"' in lower))  # secrets set in code
        or ("key" in lower and _KEY_UUID.search(lower) is not None)
        or ("," in lower and _CSV_PAIR.search(lower) is not None)
    )


def _may_hold_attribute(lower: str) -> bool:
    return ("=" in lower and ("key=" in lower or "name=" in lower) and "value" in lower) or (
        "<key>" in lower and "<string>" in lower
    )


def _may_hold_cli_password(lower: str) -> bool:
    """An option that may take a password (" -p", " -a", " -w", "--pass...") after one of the tools."""
    # " -p", " -a" and " -w" hold " -", "--pass" holds "--": text with neither (most) stops at two searches.
    if " -" not in lower and "--" not in lower:
        return False
    if " -p" not in lower and " -a" not in lower and "--pass" not in lower and " -w" not in lower:
        return False
    return any(tool in lower for tool in _CLI_TOOLS)


# Short text is read once by one pattern of every hint; long text by one substring search per hint
# (C speed each, where a pattern of alternatives steps through the text character by character).
_HINT_PATTERN = lazy_compile(by_first_letter(_HINTS))
_SHORT = 256
index_words(*_HINTS)  # long text reads the hints' places from the scan's words


def _hint_spans(scan: Scan) -> list[tuple[int, int]]:
    """Where the hints occur: every occurrence that starts after the previous one of its hint ends."""
    lower = scan.lower
    if len(lower) <= _SHORT:
        return [match.span() for match in _HINT_PATTERN.finditer(lower)]
    # Long text: each hint's places from the scan's words (what a substring search per hint finds), asked for the
    # hints the words hold only (a hint they lack has no places).
    words = scan.words
    return [(at, at + len(hint)) for hint in _HINTS if hint in words for at in scan.places(hint)]


_HIGH_ENTROPY_WORDS = ("pass", "secret", "token", "key", "cred")


def may_hold_high_entropy(scan: Scan) -> bool:
    """A secret word find_high_entropy starts from: read from the keyword finder's list of hints when
    it ran (every hint word is one of its hints), else searched for; or, in text with a run of 16
    characters a secret could be, a secret word of another language (``_other_secret_words``)."""
    # Every value the finder yields is a run of 16 characters or more that _RANDOM_RUN or _GLUED_RUN
    # takes (ASCII letters, digits, "+/=_-.~"): text with no such run holds none, whatever its words
    # (most prose: one pass of C, where the words were searched for first).
    if _SIXTEEN not in scan.encoded.translate(_RUN_TABLE):
        return False
    lower = scan.lower
    if scan.hints is not None:
        for at, _ in scan.hints:  # a loop costs less than a generator on every write
            if lower.startswith(_HIGH_ENTROPY_WORDS, at):
                return True
    elif not _HIGH_ENTROPY_GATE.isdisjoint(scan.words):
        return True
    return bool(_other_secret_words(lower, scan.words))


# "token", "key", "secret" in other languages, as the view writes them (Cyrillic "токен" reads
# "тokeн"): a random run near one is found as near "token" ("הטוקן של ה-API הוא KV1g..."). Each is
# read as the start of a word with any ending ("ключа", "トークンは"); the value must still pass
# _is_high_entropy, so a word that is also an everyday one ("clave", "キー") costs nothing in prose.
_OTHER_SECRET_WORDS_ASCII = (
    "jeton", "clave", "chave", "chiave", "klucz", "sekret", "sleutel", "nyckel", "nokkel", "avain", "kulcs",
    "cheie", "kunci", "gizli anahtar", "api anahtar", "segredo", "segreto", "secreto", "geheim", "hemmelig", "hemlig",
    "salaisuus",
    "titok", "tokenem", "tokenu", "tokena", "tokeny",
)  # fmt: skip
_OTHER_SECRET_WORDS = tuple(
    dict.fromkeys(
        normalise_text(word).lower()
        for word in (
            "clé", "schlüssel", "nøkkel", "nøgle", "klíč", "kľúč", "ključ", "mã khóa", "khóa bí mật", "khóa api",
            # a wallet's private key in Vietnamese and Chinese ("khóa riêng tư ví: 78f3e8...": reviewer CU)
            "khóa riêng tư", "khóa riêng", "khoa rieng tu", "私钥", "私鑰", "개인키", "개인 키", "özel anahtar",
            "токен", "ключ", "секрет", "тoken", "κλειδί", "μυστικό",
            # Not "鍵", "キー", "秘密" or "키" alone: "公開鍵" is a public key, "キーボード" a
            # keyboard, "키" a height too.
            "トークン", "apiキー", "api キー", "シークレット", "秘密鍵", "暗号鍵", "令牌", "密钥", "秘钥",
            "密鑰", "金鑰",
            "토큰", "api 키", "api키", "시크릿", "비밀 키", "비밀키",
            "טוקן", "מפתח", "סוד", "توكن", "توکن", "مفتاح", "کلید", "رمز مميز",
            "टोकन", "कुंजी", "सीक्रेट", "โทเค็น", "คีย์", "รหัสลับ",
        )
    )
)  # fmt: skip
index_words(*_OTHER_SECRET_WORDS_ASCII, *_OTHER_SECRET_WORDS)  # found with the gates' words, in one pass
# Words of other languages that name what follows as an identifier (version, number, hash, fingerprint).
_OTHER_ID_WORDS = lazy_compile(
    "版本|编号|編號|番号|哈希|指纹|指紋|ハッシュ|バージョン|버전|해시|번호|версия|хеш|номер|έκδοση"
    # what a key is made by, as an aside before the colon ("密钥(算法):HMAC-SHA256-...": an attacker's round)
    "|算法|アルゴリズム|알고리즘|алгоритм|格式|形式|长度|長さ"
    # a reference's code, the public key matching a private one ("khóa riêng tư ... mã tham chiếu: a9f3...",
    # "私鑰對應的公鑰: 02b4...": an attacker's round)
    "|tham chiếu|公鑰|公钥|公開鍵"
)
_RUN_TABLE = bytes(
    ord("x") if chr(code).isascii() and (chr(code).isalnum() or chr(code) in "+/=_-.~") else ord(" ")
    for code in range(256)
)
_SIXTEEN = b"x" * 16


def _other_secret_words(lower: str, words: dict[str, list[int]]) -> list[str]:
    """The secret words of other languages the text holds (those of other scripts only in text that
    is not ASCII), read from the scan's ``words``."""
    found = [word for word in _OTHER_SECRET_WORDS_ASCII if word in words]
    if not lower.isascii():
        found += [word for word in _OTHER_SECRET_WORDS if word in words]
    return found


_HIGH_ENTROPY_GATE = index_words("key", "pass", "token", "secret", "cred")


def _key_start(lower: str, at: int) -> int:
    start = at
    floor = max(0, at - _KEY_MAX)
    while start > floor and lower[start - 1] in _KEY_CHARS:
        start -= 1
    return start


_ANY_KEYED = lazy_compile("|".join(f"(?:{rule.key.pattern})" for rule in KEYED))


@lru_cache(maxsize=4096)
def keyed_rules(key: str) -> tuple[KeyedRule, ...]:
    """The keyed provider rules whose key pattern the lower-cased key name matches (keys recur:
    "api_key", "token", "password"; the alternation of every rule's pattern is the costly part)."""
    return tuple(rule for rule in KEYED if rule.key.search(key)) if _ANY_KEYED.search(key) else ()


# The password manager whose name ends in "password" ("1Password", read "1_password" as camelCase).
_PASSWORD_MANAGER = frozenset({"1password", "1_password"})


@lru_cache(maxsize=4096)
def key_kind(key: str) -> str | None:
    """ "PASSWORD", "SECRET", "KEY" (the bare word) or None for a lower-cased key name."""
    name = key.strip("-_.")
    if name == "private_key_id":
        return "KEY"  # a Google service account's key file names its private key by this id (a long random value)
    if not name or name in _PASSWORD_MANAGER or (_NOT_SECRET_KEY.search(name) and not _compound_secret(name)):
        return None  # "<from 1Password: "OpenAI prod">" names where the secret is kept, and an item there
    if _HASHER_LAST.search(name):
        return None  # "PASSWORD_HASHER=argon2id" names how passwords are kept (reviewer BO); not "HASHER_SECRET"
    # A deployment's suffixes name which secret, not what it is: "DB_PASSWORD_PROD", "API_KEY_V2",
    # "SECRET_KEY_BASE", "PASSWORD2".
    name = _KEY_SUFFIXES.sub("", name) or name
    if name == "key" or _ANY_KEY.search(name):
        if _PASSWORD_KEY.search(name) or _SECRET_KEY.search(name):
            pass
        else:
            # A bare "key" or "<anything>_key" ("STRIPE_KEY", "AES_KEY", a cache key, a sort key): a
            # secret only when its value is long and random (see _assignment).
            return "KEY"
    if _PASSWORD_KEY.search(name):
        return "PASSWORD"
    if _PAT_KEY.search(name):
        return "KEY"  # a personal access token's: a secret only as one long random token (not a pattern's, "ip_pat")
    if _SECRET_KEY.search(name):
        return "SECRET"
    if _RANDOM_KEY.search(name):
        return "KEY"
    return None


# A personal access token's key ("AZDO_PAT=ducot5i...": reviewer CD; not a pattern's, 'ip_pat = "^(\\d...': an
# attacker's round)
_PAT_KEY = lazy_compile(r"(?:^|[_.\-])pat$")


def _compound_secret(name: str) -> bool:
    """Every word of ``name`` that says "not the secret" is part of the secret compound ending it, or is
    whose secret it is: "azure_storage_key" names the account key, "provider_token" the provider's token
    ("storage_backend", "storage_key_id", "token_provider" name no secret)."""
    compound = _SECRET_KEY.search(name)
    whose: frozenset[str] = frozenset({"provider"})
    if compound is None:
        # a password whose store, backend or cache it is ("RELEASE_STORE_PASSWORD=...", Android's keystore's:
        # reviewer BQ; "cache_password", "primary_password"); not a password's rule, field or hint ("min_password")
        compound, whose = _PASSWORD_KEY.search(name), _PASSWORDS_OWNERS
        if compound is None:
            return False
    return all(
        word.start() >= compound.start() - 1 or word.group().strip("_.-") in whose
        for word in _NOT_SECRET_KEY.finditer(name)
    )  # "provider_token": the provider's token (reviewer AQ); "token_provider" names the provider


_PASSWORDS_OWNERS = frozenset(
    {"provider", "store", "storage", "backend", "engine", "cache", "socket", "websocket", "primary", "source"}
)


# A browser's storage before the key it holds ("localStorage.refresh_token = ...": reviewer CH): where the value is
# kept, not what it is (a "storage" part names a store's setting elsewhere: "storage_path", "STORAGE_KEY_PREFIX").
_BROWSER_STORAGE = lazy_compile(r"(?:window\.)?(?:localstorage|sessionstorage)\.(?=.)", re.IGNORECASE)


def _key_name(text: str, lower: str, start: int, end: int) -> str:
    """The key lower-cased, its camelCase parts apart ("nextPageToken" is "next_page_token": its parts name it)."""
    written = text[start:end]
    if (storage := _BROWSER_STORAGE.match(written)) is not None:
        start += storage.end()
        written = written[storage.end() :]
    if written.islower() or written.isupper():
        return lower[start:end]
    return _KEY_SPLIT.sub("_", written).lower()


_YAML_ANCHOR = lazy_compile(r"&[A-Za-z0-9_\-]{1,40}[ \t]+(?=\S)")


def _assignment(  # noqa: PLR0912, PLR0915
    scan: Scan,
    text: str,
    lower: str,
    key_start: int,
    key_end: int,
    *,
    operator: re.Pattern[str] = _ASSIGN,
    name_end: int | None = None,
) -> Hit | None:
    """The secret assigned to the key at ``key_start:key_end``; ``operator`` reads what joins them
    (``_ASSIGN`` for "key: value"; see _env_forms for the others). ``name_end``: where the key's name ends, when a
    number among several keys stands between it and ``key_end``."""
    key = _key_name(text, lower, key_start, key_end if name_end is None else name_end)
    if key_start and text[key_start - 1] == "$" and not _DOLLAR_ASSIGN.match(text, key_end):
        return None  # "$PWD:/app": a variable's value read, not assigned ("$password = '...'" is assigned)
    kind = key_kind(key)
    if kind == "KEY" and _SECRET_QUALIFIER.search(lower, max(0, key_start - 12), key_start):
        kind = "SECRET"  # "heroku api key: ...", "the signing key = ...": the words before name a secret
    if (
        key == "signature"
        and _FILE_SIGNATURE.search(lower, max(0, key_start - 12), key_start)
        and _MAGIC_BYTES.match(text, key_end)
    ):
        return None  # "PNG signature: 89 50 4E 47 0D 0A 1A 0A": a format's magic bytes (reviewer AO)
    keyed = list(keyed_rules(key))
    if kind is None and not keyed:
        # Any "key: value" may hold a provider token cut into groups ("AWS key: AKIA IOSF ODNN ...").
        return _split_after(text, key_end)
    assign = operator.match(text, key_end)
    prose = False
    if assign is not None and "op" in assign.groupdict():
        prose = assign["op"].strip() in ("is", "was")
    elif key.startswith("--"):
        assign = _ASSIGN_CLI.match(text, key_end)
    if assign is None:
        return None
    after = _after_block(text, assign.end())  # "password: |" then the value, indented
    if after == assign.end() and (anchor := _YAML_ANCHOR.match(text, after)) is not None:
        after = anchor.end()  # a YAML anchor before the value ('password: &pw "MT-G.@~Vp^7=$"': reviewer BX)
    joined = _JOIN_OPENS.match(text, after) if after == assign.end() else None
    if joined is not None:
        after = joined.end()  # a list joined with nothing between, read with its pieces joined (see detectors)
    # "first pass: tokenize parse emit" (the noun), "pin: GPIO17" (a board's): no passphrase or identifier there.
    keyed_op = (
        kind == "PASSWORD"
        and not prose
        and key != "pass"
        and not key.endswith("pin")
        and "op" in assign.groupdict()
        and assign["op"].strip() in (":", "=")
    )
    if keyed_op and after == assign.end():
        written = _bracketed_password(text, after) or _passphrase(text, after)
        if written is not None:
            return "PASSWORD", *written  # "password: K9<mQ>2z!", "password: correct horse battery staple"
    value = (
        _VALUE.match(text, after)
        if after == assign.end() or joined is not None or text[after - 1 : after] in "\n\t ("
        else None
    )
    if value is None:
        return _on_next_lines(text, after, kind, keyed)
    quoted = value["quoted"] is not None
    group = "quoted" if quoted else "bare"
    start, end = value.span(group)
    if quoted and end > start and text[end - 1] == "\\":
        end -= 1  # JSON inside a JSON string ({\"token\":\"...\"}): the closing quote's escape is not the value's
    if not quoted:
        parameter = _NEXT_PARAMETER.search(text, start, end)
        if parameter is not None:
            end = parameter.start()
        while end > start and text[end - 1] in _TRAILING and not (kind == "PASSWORD" and text[end - 1] == "?"):
            end -= 1  # a password may end in "?" ("Summer2024?"); covering a question mark costs nothing
        if kind == "PASSWORD":
            end = _password_token_end(text, start, end)
        if end < len(text) and text[end] in "([":
            token = _WHOLE_TOKEN.match(text, start)
            if (
                _CODE_REFERENCE.fullmatch(text[start:end])
                or token is None
                or token.end() - start < _TOKEN_THROUGH
                or not _is_high_entropy(text[start:end])  # "++--++--1234567890abcdefghij++--**==((&&))"
            ):
                return None  # a call or a subscript: code that reads the secret, not the secret
            # A long token that goes on through a bracket to the line's end is one value (Adyen's API keys'
            # last part holds any printable character: "AQE...==-...=-[XaI.UeQk..jP1wU": reviewer CK).
            end = token.end()
    secret = text[start:end]
    if joined is not None and any(mark in secret for mark in ("${", "{{", "var.")):
        return None  # Terraform's escaped "${var.db_password}" joined from pieces: a reference (an attacker's round)
    unpacked = not quoted and _CODE_NAME.fullmatch(secret) and "=" in text[key_end:start] and _unpacked(text, key_start)
    if _named_after_key(secret, key) or unpacked or (_in_arn(lower, key_start) and text[key_end : key_end + 1] in ":/"):
        return None
    if kind == "PASSWORD" and not quoted and "phrase" in key and _IDENTIFIER_CHAIN.match(secret):
        return "PASSWORD", start, end  # "passphrase: correct.horse.battery.staple"
    if not quoted:
        split = _split_provider(text, start, end, keyed)
        if split is not None:
            return split
        whole_end, whole = _continued(text, end) if not _LOWER_WORD.match(secret) else (end, "")
        if whole_end > end:
            kind_of_whole = _provider(secret + whole, keyed)
            if kind_of_whole is not None:
                return kind_of_whole, start, whole_end
            if (
                kind not in (None, "KEY")
                and _plausible_value(secret, quoted)
                and (kind == "PASSWORD" or _looks_random(secret + whole))
            ):
                return ("PASSWORD" if kind == "PASSWORD" else "GENERIC_SECRET"), start, whole_end
    for rule in keyed:
        if rule.value.fullmatch(secret):
            return rule.type, start, end
    if keyed_op and not quoted and _identifier_password(text, secret, end):
        return "PASSWORD", start, end  # "password: iLoveSecrets", "ADMIN_PASS=ROOT_ADMIN_77"
    if kind is None or not _plausible_value(secret, quoted):
        return None
    if kind != "PASSWORD" and _HEX_DIGEST.fullmatch(secret) and _digest_named(lower, key_start, key):
        return None  # "sha256 of the token: 2cf24dba...": a digest of a secret is not the secret
    if kind == "PASSWORD":
        if (
            not quoted
            and _LOWER_WORD.match(secret)
            and (prose or key == "pass" or _followed_by_words(text, end) or _attribute(text, key_start))
        ):
            return None  # "Reset your password: click the link", "the password is correct"
        if key.endswith("pin") and not secret.isdigit():
            return None  # a PIN is digits ("pin: GPIO17" is a board's pin)
        if _form_words(text, key, secret, quoted, end):
            return None
        return ("PASSWORD", start, end) if len(secret) >= 4 else None
    if kind == "KEY":
        # "key" names many things (a cache key, a map key, "key: value"): a secret only when the
        # value is one long random token ({"key": "02da32d4cbc6..."}).
        random_token = _RANDOM_TOKEN.fullmatch(secret) is not None and _is_high_entropy(secret)
        if _UUID.fullmatch(secret):
            # an id, but where the key says it signs ("CKO_WEBHOOK_SIGNATURE_KEY=20b6cc44-...": reviewer CL)
            return ("GENERIC_SECRET", start, end) if _SIGNS.search(key) else None
        return ("GENERIC_SECRET", start, end) if random_token else None
    if _looks_random(secret) and not _identifier_like(secret):
        return "GENERIC_SECRET", start, end
    if kind == "SECRET" and _random_of_one_class(secret):
        return "GENERIC_SECRET", start, end
    return None


# ---- passwords shaped like what is not one: brackets, words, identifiers

# A whole token after a password's key that holds brackets ("K9<mQ>2z!", "{Zq8}Lm3!"), which end an
# ordinary value; markup, templates and placeholders ("<your-password>", "{{ pw }}", "${PW}") do not count.
_BRACKETED = lazy_compile(r"[^\s\"'`]{6,64}")
_TEMPLATE_OPEN = ("${", "{{", "{%", "<%", "</", "<!", "<?", "#{", "%{")


def _bracketed_password(text: str, at: int) -> tuple[int, int] | None:
    token = _BRACKETED.match(text, at)
    if token is None:
        return None
    start, end = token.span()
    while end > start and text[end - 1] in ".,;:)":
        end -= 1
    secret = text[start:end]
    if not any(char in "<>{}" for char in secret) or any(mark in secret for mark in _TEMPLATE_OPEN):
        return None
    if _placeholder(secret) or (secret[0] + secret[-1]) in ("<>", "{}", "[]", "()"):
        return None  # "<password>", "{password}": a placeholder or a reference, not a value
    if _DIGIT.search(secret) is None or not _password_shaped(secret):
        return None
    if _TEMPLATE_NAME.search(secret):
        return None  # "<PASSWORD>1", "x{pass_word}": a template's name
    return start, end


_TEMPLATE_NAME = lazy_compile(r"<(?:[a-z_\-]{2,}|[A-Z_\-]{2,})>|\{(?:[a-z_\-]{2,}|[A-Z_\-]{2,})\}")


# A passphrase of words after a password's key, to the end of its line ("password: correct horse
# battery staple", "wifi password: purple monkey dishwasher 7"): three to eight lower-case words (or
# numbers), none of them a word a sentence, a rule or a state needs ("password: ask the admin",
# "password: at least twelve characters", "password: same as above").
_PASSPHRASE = lazy_compile(r"[a-z]{3,24}(?:[ ](?:[a-z]{2,24}|[0-9]{1,6})){2,7}[ \t]*(?=\r?\n|$)")
_PROSE_WORDS_TEXT = """
    a an the and or but nor not no to of in on at by for from with without into onto as is are was were be been
    being am must should shall will would can could may might has have had do does did it its this that these those
    your you yours our we they them their his her him she he me my i see ask asked please same than then if when where
    which who whom what why how via per each every all any some both either least most more less few many much min
    max minimum maximum only also just still yet even very too so such there here above below after before again
    set sent stored kept saved required needed changed expired reset updated rotated managed handled given shared
    invalid incorrect wrong weak strong missing pending locked unlocked disabled enabled unchanged generated
    use used using check change enter type click contact call email mail text sms ask send get got
    characters character chars char digits digit letters letter symbols symbol numbers number length long short
    uppercase lowercase special words word spaces space days day weeks week months month years year hours minutes
    password passwords passwd passphrase secret token key user username string str plaintext hashed hash value
    none null empty unknown default same
    der die das und oder nicht ist mit von zu ein eine le la les et ou est de du des un une el los las y es con para
    il lo gli di che per em com het een en van niet op"""
_PROSE_WORDS = frozenset(_PROSE_WORDS_TEXT.split())


def _passphrase(text: str, at: int) -> tuple[int, int] | None:
    phrase = _PASSPHRASE.match(text, at)
    if phrase is None:
        return None
    words = phrase.group().split()
    if any(word in _PROSE_WORDS for word in words):
        return None
    return at, at + len(" ".join(words))


# A password written as an identifier, alone to the end of its line after its key ("password:
# iLoveSecrets", "pwd: myPassword", "password: HUNTER_2024", "ADMIN_PASS=ROOT_ADMIN_77",
# "password: correct_horse_battery_staple", "password: Welcome.Home1"): in code such a value is a
# variable, whose name holds the words code names things with ("newPassword", "user.password",
# "DEFAULT_PASSWORD", "hashed_pw"), or is followed by more code (a ",", a ";", a call).
_ID_PARTS = lazy_compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_CODE_PARTS_TEXT = """
    password passwords passwd pass pwd pw secret token key keys cred creds credential credentials auth hash
    hashed salt salted encrypted decrypted encoded decoded plain plaintext raw input inputs field fields form value
    val var vars env environ environment config conf cfg settings setting options opts opt args arg argv params
    param request req res resp response user users username current new old prev confirm confirmed confirmation
    default defaults temp tmp stored saved entered typed initial generated random get set read load fetch from file
    this self data obj object props prop state ctx context str string txt text in out payload body json dict map
    cache session login account mgr manager provider service client model dto entity vault store ssm kms os sys
    process document window element el ui view box db database conn connection sql query cursor result results
    local remote global globals const constant final static private public admin_password none null empty
    encoder decoder util utils helper helpers lib api http url uri path name label placeholder hint message msg
    error err dir directory folder cwd homedir workdir
    passwort kennwort wachtwoord contrasena contraseña senha mdp passe haslo hasło losenord lösenord salasana
    parola heslo sifre şifre lozinka geslo passord adgangskode jelszo jelszó clave chave cle clé schluessel
    schlüssel chiave sleutel usuario utilisateur benutzer nutzer utente gebruiker nueva nuevo nova novo neue neues
    neuer nouveau nouvelle nuovo nuova alte alter altes ancien ancienne"""
# (The last lines: the password labels of other languages, and their code's words for user, key, new
# and old: "mot de passe: motDePasse", "contraseña = usuario.clave2", "senha: novaSenha".)
_CODE_PARTS = frozenset(_CODE_PARTS_TEXT.split())
_OWNER_PARTS = frozenset({"my", "i", "our"})  # "myPassword", "iLoveSecrets": a person names a password so


def _identifier_password(text: str, secret: str, end: int) -> bool:
    rest = skip_blanks(text, end)
    if rest < len(text) and text[rest] not in "\r\n":
        return False  # more on the line: ",", ";", a call, a comment (a sentence's stop too: "password: torch.Float16.
        # Weights ...", "hasło: Spring.Boot3. Konfiguracja": an attacker's round on reading one there)
    parts = [part.lower() for part in _ID_PARTS.findall(secret)]
    if len(parts) < 2 or not _password_like_identifier(secret, parts):
        return False
    if parts[0] in _OWNER_PARTS:
        return len(secret) >= 6
    return not any(part in _CODE_PARTS for part in parts)


def _password_like_identifier(secret: str, parts: list[str]) -> bool:
    digits = _DIGIT.search(secret) is not None
    if _CONSTANT.match(secret):
        return digits  # "HUNTER_2024", "ROOT_ADMIN_77"; "ADMIN_USER" may be a constant's name
    if _SNAKE.match(secret):
        return len(parts) >= 3  # "correct_horse_battery_staple"
    if _IDENTIFIER_CHAIN.match(secret):
        # "Welcome.Home1", "dragon.soleil50" (words of four letters or more, a number ending the last),
        # not "os.environ", "np.float64", "row.col3"
        return digits and (secret != secret.lower() or _NUMBERED_WORDS.fullmatch(secret) is not None)
    return _NAMED_VARIABLE.fullmatch(secret) is not None or (secret[:1].islower() and secret != secret.lower())


_NUMBERED_WORDS = lazy_compile(r"(?:[a-z]{4,}\.)+(?!(?:u?int|b?float|complex|double)[0-9])[a-z]{4,}[0-9]{1,4}")


def looks_like_column_secret(kind: str, value: str) -> bool:
    """A value under a column named "Password" or "Secret access key" (see columns.py) that is one."""
    if not _plausible_value(value, True) or any(char.isspace() for char in value):
        return False
    if kind == "PASSWORD":
        return len(value) >= 4
    return (
        len(value) >= 16
        and (_looks_random(value) or _random_of_one_class(value))
        and not (_UUID.fullmatch(value) or _identifier_like(value))
    )


def _random_of_one_class(secret: str) -> bool:
    """A secret drawn from one kind of character, after a key that names a secret: digits
    ("secret: 84629175019283746") or letters of one case ("client_secret=auqowggralkx..."), long
    and varied enough not to be a count, a word or a placeholder run ("xxxxxxxx...")."""
    if secret.isdigit():
        return len(secret) >= 12 and entropy(secret) >= 2.8
    if secret.isalpha() and secret.isascii() and (secret.islower() or secret.isupper()):
        return len(secret) >= 20 and entropy(secret[:_ENTROPY_SAMPLE]) >= 3.7
    return False


_RANDOM_TOKEN = lazy_compile(r"[A-Za-z0-9+/=_\-]{20,}")
# What names a thing rather than hides a secret: a slug of words and numbers ("payments-api-prod-2024",
# "feature/JIRA-4411-rotate-secrets", "same-origin", "New York"), a cloud resource's id, a pod's
# name, a product's name in words ("WindowsServer2022Datacenter").
_WORD_NUMBER = lazy_compile(r"[a-z]{2,}[0-9]{1,4}[a-z]?")  # "prod01", "oauth2" ("Hunter2024" is not)
_SLUG_SPLIT = lazy_compile(r"[-/_.=: ]+")
_RESOURCE_ID = lazy_compile(
    r"(?:vol|i|sg|subnet|vpc|ami|snap|eni|igw|rtb|acl|nat|eipalloc|lt|pcx|tgw|vpce|fs|fsap)-[0-9a-f]{8,17}"
)
_POD_NAME = lazy_compile(r"[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{8,10}-[a-z0-9]{5}")
# Capitalised words of three letters or more and numbers, two words at least ("WindowsServer2022Datacenter").
# Read by splitting, not by one pattern: "(?:Word|[0-9]+)*" backtracks exponentially over a run of
# digits (found by an attacker: "token: " and 27 digits took 3.8 s, each digit more doubled it).
_PASCAL_PART = lazy_compile(r"[A-Z][a-z]{2,}|[0-9]+")


def _pascal_words(value: str) -> bool:
    parts = _PASCAL_PART.findall(value)
    return sum(map(len, parts)) == len(value) and sum(1 for part in parts if not part[0].isdigit()) >= 2


def _identifier_like(value: str) -> bool:
    if _drawn_at_random(value):
        return False  # a random token cut where it drew "-" and "_", whose short parts look like a name's
    if _RESOURCE_ID.fullmatch(value) or _POD_NAME.fullmatch(value) or _pascal_words(value):
        return True
    if value.isalnum() and value.isascii() and _capitalised_words(value):
        return True
    parts = [part for part in _SLUG_SPLIT.split(value) if part]
    if len(parts) < 2:
        return False
    plain = sum(
        1
        for part in parts
        if part.isalpha() or part.isdigit() or len(part) <= 4 or _WORD_NUMBER.fullmatch(part) or not part.strip("*•#")
    )
    return plain * 4 >= len(parts) * 3  # three parts in four are words, numbers, short or a mask ("sk_live_****")


def _drawn_at_random(value: str) -> bool:
    """A value of base64's alphabet with a long part drawn at random, or mostly groups drawn at random: a
    token cut where it drew "-" and "_" ("xJx_Cx-1wNun3UCrqwIpZA1rZ-BI": reviewer AF; "aB3x-Kq9Z-mP2w-Rt7Y"),
    which _identifier_like's share of short parts would otherwise take for a name."""
    if _BASE64URL.fullmatch(value) is None:
        return False
    parts = [part for part in _SLUG_SPLIT.split(value) if part]
    if "/" in value and any(part.isalpha() and part.islower() and len(part) >= 4 for part in parts):
        return False  # a path ("database/creds/readonly/9BthBYGNFoTkJ5XNGkcXfqi2": a Vault lease's)
    groups = sum(1 for part in parts if _random_group(part))  # "aB3x-Kq9Z-mP2w-Rt7Y": groups drawn at random
    return any(_random_part(part) for part in parts) or (groups >= 2 and groups * 2 >= len(parts))


def _random_group(part: str) -> bool:
    """Four characters or more with a digit and letters of both cases ("aB3x", "Q7xZ"): a group of a key
    written in groups, not a word ("iOS", "mTLS", "gRPC" hold no digit; "2024" no letter)."""
    return (
        len(part) >= 4
        and any(char.isdigit() for char in part)
        and any(char.isupper() for char in part)
        and any(char.islower() for char in part)
    )


_BASE64URL = lazy_compile(r"[A-Za-z0-9_\-+/]{16,}={0,2}")  # one token of base64's alphabets: no "@", ".", ":", no URL


def _random_part(part: str) -> bool:
    """A long part drawn at random: twelve characters or more, with small and capital letters and digits
    ("1wNun3UCrqwIpZA1rZ"), or letters of both cases alone that read as no words ("zQjlgGMNVMDcuPBwyIUK", an OAuth
    client's secret: reviewer CT); not capitalised words and numbers ("WindowsServer2022Datacenter")."""
    if len(part) < 12 or _capitalised_words(part) or _pascal_words(part):
        return False
    return _random_group(part) or _random_letters(part)


def _random_letters(part: str) -> bool:
    """Letters of both cases whose runs (capitals, then small letters) are half of them or more without a vowel:
    "zQjlgGMNVMDcuPBwyIUK" reads "z", "Qjlg", "GMNVMDcu", "PBwy", "IUK"; a name's words hold one
    ("XMLHttpRequestHandler": "XMLHttp", "Request", "Handler"; "getUserAccountByIdAndName")."""
    if not (part.isalpha() and part.isascii()) or part.islower() or part.isupper():
        return False
    runs = _CASE_RUN.findall(part)
    # Capitals side by side, as letters drawn at random put them (half of a capital's neighbours are capitals): names
    # of code shorten their words, each with one capital ("pgCrdsPrdSync", "hwndDlgBtnCtrl": an attacker's round), and
    # put acronyms in one long run ("HTMLDOMParser").
    pairs = len(_CAPITALS_SIDE_BY_SIDE.findall(part))
    if pairs < _CAPITAL_PAIRS:
        return False
    if sum(1 for run in runs if _VOWEL_OF_BOTH.search(run) is None) * 2 >= len(runs) >= 3:
        return True
    # ... or capitals side by side four times or more in short runs, vowels or not ("kfhfgtKAQWYmEZ")
    return pairs >= _CAPITAL_PAIRS + 1 and len(part) >= 14 and max(map(len, _CAPITAL_RUN.findall(part))) <= 5


_CASE_RUN = lazy_compile(r"[A-Z]+[a-z]*|[a-z]+")
_CAPITALS_SIDE_BY_SIDE = lazy_compile(r"(?=[A-Z]{2})")
_CAPITAL_RUN = lazy_compile(r"[A-Z]+")
_CAPITAL_PAIRS = 3
_VOWEL_OF_BOTH = lazy_compile(r"[aeiouAEIOU]")


# Letters only, in capitalised words and acronyms: a name of code or of a thing ("Whitespace",
# "AWSAccessKeyId", "HttpServer"), not drawn at random ("HgTrWqPlKmNb" has parts without a vowel).
_CAMEL_PART = lazy_compile(r"^[a-z]+(?=[A-Z])|[A-Z]{2,5}[0-9]{0,3}(?=[A-Z][a-z]|$)|[A-Z][a-z]+")
_VOWEL = lazy_compile(r"[aeiouy]")


def _capitalised_words(value: str) -> bool:
    parts = _CAMEL_PART.findall(value)
    if not parts or len(parts) > 5 or "".join(parts) != value:
        return False
    if sum(char.isdigit() for char in value) > 3 or sum(1 for part in parts if part[-1].isdigit()) > 1:
        return False  # "QZXKV982HavoXLQTP731Lemu" is drawn at random; "PKCS7PrivateKeyTypes" is a name
    words = [part for part in parts if not part.isupper() and not part[-1].isdigit()]
    return any(len(word) >= 4 for word in words) and all(_VOWEL.search(word.lower()) for word in words)


_UUID = lazy_compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HEX_DIGEST = lazy_compile(r"[0-9a-fA-F]{32}|[0-9a-fA-F]{40}|[0-9a-fA-F]{64}|[0-9a-fA-F]{128}")
_HASH_WORDS = lazy_compile(r"\b(?:sha-?(?:1|224|256|384|512)|md5|hash(?:ed)?|digest|checksum|fingerprint)\b")


_SIGNING_KEY = lazy_compile(r"signing|sign[_\-]?(?:key|secret)")


def _digest_named(lower: str, key_start: int, key: str) -> bool:
    """A hash's word right before the key: the value is a digest ("sha256 of the token:", "# sha256
    digests" then "token: ..."). Not where the key is a signing key and the hash is HMAC's, whose key the
    value is ("Webhook signed with HMAC-SHA256; signing secret: a5c8...": reviewer AV; "HMAC-SHA256 of the
    api token:" is a digest: an attacker's round)."""
    window = lower[max(0, key_start - 24) : key_start]
    # a signing key's or secret's name, not a signature's (a signature is a digest: an attacker's round)
    signing = _SIGNING_KEY.search(key) is not None or window.rstrip(" \t_-").endswith("signing")
    return _HASH_WORDS.search(window) is not None and not (signing and "hmac" in window)


# A value cut by spaces or line breaks after its keyword ("token: ghp_1a2B3c 4D5e6F...", a key
# wrapped every 8 characters): the pieces that follow and look like more of it are read with it. A
# piece after a space ends at white space or punctuation; a piece after a line break is its whole
# line ("user: bob" on the next line is a new entry, not more of the value).
_SPACE_PIECE = lazy_compile(r"[ \t]{1,3}(?P<piece>[A-Za-z0-9+/_\-.!#%&*~$^@]{2,128}=*)(?=[\s,;)]|$)")
_LINE_PIECE = lazy_compile(r"[ \t]*\r?\n[ \t]*(?P<piece>[A-Za-z0-9+/_\-.!#%&*~$^@]{4,128}=*)[ \t]*(?=\r?\n|$)")
# The value's first line after its key may be a whole token, longer than a wrapped line's piece (a
# Sentry org token, a JWT: 130 characters and more).
_FIRST_LINE_PIECE = lazy_compile(_LINE_PIECE.pattern.replace("{4,128}", "{4,1024}"))
_MIXED_CASE = lazy_compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Z][a-z]*[0-9]")
_PIECE_SYMBOLS = frozenset("+/_!#%&*~$^")
_MAX_PIECES = 24


def _continued(text: str, end: int) -> tuple[int, str]:
    """Where the value ending at ``end`` really ends, counting the pieces that continue it, and those pieces joined."""
    pieces: list[str] = []
    while len(pieces) < _MAX_PIECES:
        match = _SPACE_PIECE.match(text, end) or _LINE_PIECE.match(text, end)
        if match is None:
            break
        piece = match["piece"].rstrip(".")
        if not _is_piece(piece):
            break
        pieces.append(piece)
        end = match.start("piece") + len(piece)
    return end, "".join(pieces)


def _split_after(text: str, key_end: int) -> Hit | None:
    """A provider token cut into groups after a key that names no secret, or None."""
    assign = _ASSIGN.match(text, key_end)
    value = _VALUE.match(text, assign.end()) if assign is not None else None
    if value is None or value["bare"] is None:
        return None
    return _split_provider(text, *value.span("bare"), [])


def _split_provider(text: str, start: int, end: int, keyed: list[KeyedRule]) -> Hit | None:
    """A provider token that starts at ``start`` and goes on in the groups after ``end``, or None.

    Read only where the value starts like a provider token (its first two characters start a rule's
    prefix) or the key names a keyed rule; the groups may be any token characters ("AKIA IOSF ODNN
    7EXA MPLE"), and the longest run of them that is a whole token wins.
    """
    if not keyed and text[start : start + 2] not in _BY_FIRST:
        return None
    if _FILLER.fullmatch(text, start, end):
        return None  # "GITHUB_TOKEN=ghp_xxxx... in your shell profile": a template's filler, then prose
    pieces = [text[start:end]]
    ends = [end]
    while len(pieces) < _MAX_PIECES:
        match = _SPACE_PIECE.match(text, ends[-1]) or _LINE_PIECE.match(text, ends[-1])
        if match is None:
            break
        piece = match["piece"].rstrip(".")
        pieces.append(piece)
        ends.append(match.start("piece") + len(piece))
    for count in range(len(pieces), 1, -1):
        kind = _provider("".join(pieces[:count]), keyed)
        if kind is not None:
            return kind, start, ends[count - 1]
    return None


_YAML_BLOCK = lazy_compile(r"[|>][1-9]?[+\-]?")  # a YAML block scalar's indicator: "|", ">-", "|2+"


def _after_block(text: str, at: int) -> int:
    """Past a YAML block scalar's indicator that ends its line (its value is on the next lines), or
    Python's bracket around a string literal ('AWS_SECRET = (' then '"..."' on the next line: reviewer
    S), else ``at``."""
    bracket = _BRACKETED_LITERAL.match(text, at)
    if bracket is not None:
        return bracket.end()
    block = _YAML_BLOCK.match(text, at)
    if block is None:
        return at
    end = block.end()
    return end if text[end : end + 1] in ("", "\n", "\r") or text[end : end + 2] in (" \n", "\t\n") else at


# "(" then a quote, maybe on the next line: the literal is the value.
_BRACKETED_LITERAL = lazy_compile(r"\([ \t]*(?:\r?\n[ \t]*)?(?=[\"'])")


# A setting's name and "=" alone on its line: the next entry of an env file left empty.
_EMPTY_SETTING = lazy_compile(r"(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)=")


def _on_next_lines(text: str, end: int, kind: str | None, keyed: list[KeyedRule]) -> Hit | None:
    """A value that starts on the line after its key ("client_secret:" then the key wrapped over lines)."""
    first = _FIRST_LINE_PIECE.match(text, end)
    if first is None or not _is_piece(first["piece"]) or _EMPTY_SETTING.fullmatch(first["piece"]):
        return None  # "DB_PASSWORD=" then "STRIPE_SECRET_KEY=": a template's next setting, empty too
    start = first.start("piece")
    whole_end, rest = _continued(text, first.end("piece"))
    value = first["piece"] + rest
    provider = _provider(value, keyed)
    if provider is not None:
        return provider, start, whole_end
    if kind == "PASSWORD" or (kind not in (None, "KEY") and _looks_random(value)):
        return ("PASSWORD" if kind == "PASSWORD" else "GENERIC_SECRET"), start, whole_end
    return None


def _is_piece(piece: str) -> bool:
    """Random-looking: a digit, case mixed inside it, or a symbol words do not hold (not "Please", not "re-run")."""
    if len(piece) < 2 or piece.lower() in _STOP_VALUES:
        return False
    return (
        any(char.isdigit() for char in piece)
        or _MIXED_CASE.search(piece) is not None
        or not _PIECE_SYMBOLS.isdisjoint(piece)
    )


def _provider(value: str, keyed: list[KeyedRule]) -> str | None:
    """The provider type whose shape is all of ``value``, if any."""
    for rule in keyed:
        if rule.value.fullmatch(value):
            return rule.type
    for kind, start, end in find_catalogue(Scan(value, ())):
        if start == 0 and end == len(value):
            return kind
    return None


# A path of names ("/app", "~/.ssh/id_rsa", "./token.txt"; "/Xk9mP2#q" is not one).
_FILE_PATH = lazy_compile(r"(?:~|\.{1,2})?/(?:[\w.\-]+/)*[\w.\-]*|[A-Za-z]:\\[^\s]*")
_CMDLET = lazy_compile(r"[A-Z][A-Za-z]+-[A-Z][A-Za-z]+")  # PowerShell's Verb-Noun
_STORE_REFERENCE = lazy_compile(
    r"(?:ref\+[a-z]+|env|vault|secretsmanager|secrets?manager|ssm|arn|aws|awskms|gcpkms|azurekms|gcp|gsm|azure|akv|"
    r"keyvault|file|k8s|kubernetes|secret|secrets|op|doppler|sops|ref|var|param|parameter|sm|infisical)(?::|://)",
    re.IGNORECASE,
)
# "confirmPassword", "AccessToken", "SecretStr", "JwtAuthenticationFilter", "ApiKeyHeader": a name in code.
_NAMED_VARIABLE = lazy_compile(
    r"[A-Za-z]*(?:[a-z](?:Password|Passwd|Pwd|Pass|Secret|Token|Key|Credentials?|Auth|Jwt)|"
    r"(?:Password|Secret|Token|Key|Credentials?|Auth|Jwt|Api)[A-Z])[A-Za-z]*"
)
_REFERENCE = lazy_compile(r"%[A-Za-z_]+%|%(?:\([A-Za-z_]+\))?[sdr]|@[A-Za-z_][A-Za-z_.]*(?:\(.*\))?")
# A YAML tag where the value will come from elsewhere ("password: !vault |", "!Ref DbPassword").
# Tags are words ("!Ref", "!GetAtt", "!vault", "!!binary"): a "!" before letters and digits mixed
# ("!bLfmWh8aKN3Nqf32f") opens a password.
_YAML_TAG = lazy_compile(r"!!?[A-Za-z][A-Za-z_]{0,23}(?:::[A-Za-z]{1,24})?")


# What follows a password's name in code and on command lines without being its value: the next
# option of a command ("--password --database=app", "--name db-password --version 7f3a"), the rest of
# a URL ("proxy_pass http://backend"), a shell expansion's default or message ("${PW:-$(cat ...)}",
# "${PW:?missing}"), a PowerShell variable ("$env:APP_PASSWORD"), a type ("password: &str",
# "*const c_char"), a lambda.
# A function's signature: "(n),(m)->(k)", "(typename, fields=None, /, **kwargs)"
_SIGNATURE = lazy_compile(r"\([\w, =/*.]*\)(?:\s*,\s*\([\w, =/*.]*\))*(?:\s*->\s*\([\w, =/*.]*\))?")
_FORMAT = lazy_compile(r"%[sdr](?![A-Za-z])|%\([a-z_]+\)[sdr]|\{[a-z_0-9]*\}")
_PRIVATE_NAME = lazy_compile(r"_+[A-Za-z][A-Za-z_]*")  # "_signature", "_PasswordType", not "__Tr0ub4dor3"
_OPTION_PREFIX = lazy_compile(r"\s*--[a-z][a-z0-9\-]*=?\s*|\s*-[a-z]\s*")  # " --username=", " -u "
_NOT_A_VALUE = lazy_compile(
    # "&str", "&'static", "&Vec<u8>", "&self.key": a reference of Rust ("&CpbMWz8nQsyRm7xC" is a password)
    # a query's parameter ("?format=json"), not a password that starts with "?" ("?Y4#3BMDo&gi**ST": reviewer CC)
    r"--[A-Za-z]|//|\?[A-Za-z_][\w.\-]*(?:[=&(]|$)|-\$\(|\$env:|"
    r"&(?:mut\b|'?[A-Za-z_]+[0-9]{0,2}(?![A-Za-z0-9]))|\*(?:const|mut)\b|lambda\b|property\("
)


# A payload's digest named by its algorithm: a webhook's signature header ("X-Hub-Signature-256:
# sha256=11e2...": reviewer AI), which proves one message and opens nothing.
_NAMED_DIGEST = lazy_compile(r"(?:sha(?:1|224|256|384|512)|md5)=[0-9a-fA-F]{32,128}")


def _plausible_value(secret: str, quoted: bool) -> bool:
    if (
        secret.lower().strip() in _STOP_VALUES
        # a form's example ('"Password " + "Example" + "123!"': an attacker's round)
        or secret.lower().startswith(("example", "placeholder"))
        or _placeholder(secret)
        or _YAML_TAG.fullmatch(secret)
        or _NAMED_DIGEST.fullmatch(secret)
    ):
        return False
    if _FILE_PATH.fullmatch(secret) or _STORE_REFERENCE.match(secret):
        return False  # "/path/to/key.json", "env:DB_PASSWORD", "secretsmanager:prod/db:password"
    if not quoted and (_NAMED_VARIABLE.fullmatch(secret) or _CMDLET.fullmatch(secret)):
        return False  # "confirmPassword", "apiKey": a variable of code; "ConvertTo-SecureString": a cmdlet
    if secret.startswith(("${", "$(", "{", "<", "[", ":", "os.", "env.", "process.env")) and not _HASHED.match(secret):
        return False
    if _code_shaped(secret, quoted):
        return False
    # "%", "@" and "#" open a password too ("%Tg7!kq2Lm", "@dmin123!", "#Winter2024"), or a format,
    # a reference, a comment: "%s", "%(pw)s", "@Microsoft.KeyVault(...)", "# set below".
    if secret[:1] in "%@#" and (_REFERENCE.fullmatch(secret) or not _DIGIT.search(secret)):
        return False
    if not quoted and (_IDENTIFIER_CHAIN.match(secret) or _CONSTANT.match(secret) or _SNAKE.match(secret)):
        return False
    if not quoted and _HEX_LITERAL.fullmatch(secret):
        return False  # "_DD_SIGNATURE = 0x08074b50": a number of code (a key of 0x and 64 digits is not one)
    if _ALGORITHMS.fullmatch(secret):
        return False  # "The HMAC key is PBKDF2-HMAC-SHA512 of the key", "token: TLS-ECDHE-RSA-AES128-GCM-SHA256"
    if not quoted and _CALLED_FOR.match(secret):
        return False  # "user, passwd = self.get_user_passwd(host, realm)", "passwd = unquote(passwd or '')"
    # A Mapbox public token is made to be shipped in web pages ("sk.eyJ..." is the secret one); a SEPA
    # creditor's identifier is printed on every statement ("CRED: DE83ZZZ03751450486").
    if secret.startswith("pk.eyJ") or _SEPA_CREDITOR.fullmatch(secret):
        return False
    if _URL_VALUE.match(secret) or _SCHEMA_TYPE.fullmatch(secret):
        # "(no password in URL): postgres://reporting@host/db" (credentials in a URL are found as such),
        # "login(username: String!, password: String!)": a field's type in a GraphQL schema
        return False
    return not secret.startswith("[")


_URL_VALUE = lazy_compile(r"[A-Za-z][A-Za-z0-9+.\-]{1,30}://")
_SCHEMA_TYPE = lazy_compile(r"\[?(?:String|Int|Float|Boolean|ID|DateTime|JSON|Upload)!?\]?!?[,)]?")


def _code_shaped(secret: str, quoted: bool) -> bool:
    """A piece of code where a value would be: an option, a format, a signature, a private name."""
    if not quoted and (_NOT_A_VALUE.match(secret) or _PRIVATE_NAME.fullmatch(secret)):
        # "--database=app" (the next option), "//backend" (a URL's rest), "&str" (a type),
        # "self._signature = _signature" (a private name)
        return True
    if _SIGNATURE.fullmatch(secret) or (_FORMAT.search(secret) and (" " in secret or len(_FORMAT.findall(secret)) > 1)):
        return True  # "sig = '%s : %s rank-0 array'", "signature='(n),(m)->(k)'"
    return _OPTION_PREFIX.fullmatch(secret) is not None  # 'creds = " --username=" + auth': the value comes after


_HEX_LITERAL = lazy_compile(r"0[xX][0-9a-fA-F]{1,16}[uUlL]{0,3}")


# A function called for the value: a dotted name, or a lower-case name with a name for argument
# ("Summer(2024)!" stays a password).
_CALLED_FOR = lazy_compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(|[a-z_][a-z_]{2,}\([A-Za-z_]")


# Cryptographic algorithms and modes, joined by dashes or underscores: the name of how a secret is
# made, never the secret ("AES-256-GCM", "PBKDF2-HMAC-SHA512", "ECDHE-RSA-AES128-GCM-SHA256").
_ALGORITHM = (
    r"(?:AES(?:[0-9]{3})?|HMAC|SHA|SHA[0-9]{1,3}|SHA3|MD5|PBKDF2|SCRYPT|BCRYPT|ARGON2(?:I|D|ID)?|RSA|DSA|ECDSA|ECDHE?|DHE?|"
    r"ED25519|ED448|X25519|X448|CHACHA20|POLY1305|GCM|CBC|CTR|CCM|OFB|CFB|ECB|XTS|SIV|TLS|SSL|PSS|OAEP|PKCS[0-9]{0,2}|"
    r"HKDF|KDF|P[0-9]{3}|SECP[0-9]{3}[RK][0-9]|[0-9]{2,4})"
)
_ALGORITHMS = lazy_compile(rf"(?=[0-9\-_/]*[A-Za-z])(?i:{_ALGORITHM}(?:[-_/]{_ALGORITHM})+)")


def _followed_by_words(text: str, end: int) -> bool:
    return bool(re.match(r"[ \t]+[A-Za-z]", text[end : end + 3]))


_DIGIT = lazy_compile(r"[0-9]")
_ENTROPY_SAMPLE = 64  # entropy of the first characters: enough to tell random from words


def _looks_random(secret: str) -> bool:
    """Long enough, and more than one kind of character: not a word, a number or a flag."""
    if len(secret) < 8 or _ALGORITHMS.fullmatch(secret):
        return False
    classes = (
        (secret != secret.upper())  # has a lower-case letter
        + (secret != secret.lower())  # has an upper-case letter
        + (_DIGIT.search(secret) is not None)
        + (not secret.isalnum())
    )
    return classes >= 2 and entropy(secret[:_ENTROPY_SAMPLE]) >= 2.5


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    size = len(value)
    if not size:
        return 0.0
    # str.count per distinct character beats collections.Counter on the short values seen here, and
    # count * log2(count) comes from a table: the whole sum runs in C.
    if size > _TABLE_SIZE:
        return math.log2(size) - sum(count * math.log2(count) for count in map(value.count, set(value))) / size
    return _LOG2[size] - sum(map(_COUNT_LOG2.__getitem__, map(value.count, set(value)))) / size


_TABLE_SIZE = 1024
_LOG2 = [0.0] + [math.log2(count) for count in range(1, _TABLE_SIZE + 1)]
_COUNT_LOG2 = [0.0] + [count * math.log2(count) for count in range(1, _TABLE_SIZE + 1)]


# ---------------------------------------------------------------- high-entropy values near a keyword

# "my github token is 8f2a...", "here is the api key 3Yx...": no assignment syntax, but a random
# value within a few words after a secret-like word.
# Led by the words (not by a lookbehind) so that the engine skips to their first letters; the
# character before a word is checked by _prose_keywords. Grouped by first letter (see by_first_letter).
_PROSE_KEY_WORDS = (
    "password", "passwd", "passphrase", "secret", "token", r"api[ _\-]?key", r"access[ _\-]key", r"secret[ _\-]?key",
    r"private[ _\-]key", "credentials?", r"auth[ _\-]?token", r"license[ _\-]key",
    # Alibaba's and Tencent's names, one word each ("AccessKeySecret 6QDD...", "SecretKey WICp...": reviewer AP)
    r"access[ _\-]?key[ _\-]?secret", r"key[ _\-]?secret",
)  # fmt: skip
_PROSE_KEY = lazy_compile(rf"(?:{by_first_letter(_PROSE_KEY_WORDS)})\b")
# "HMAC key ...", "signing secret ...": found from "key" and "secret" (str.find) and the word before
# them, not by more alternatives in the pattern above, which would read every text longer.
# (an app's and a consumer's secret, an integration's key: "<appsecret>ba3de6...", "consumer key v7HUGg...": reviewer
# CW; not a message broker's "routing_key = b\"orders/EuropeWest1/Created\"", an attacker's round)
_QUALIFIER = lazy_compile(
    r"(?<![a-z0-9_])(?:hmac|signing|encryption|master|webhook|shared|client|app|consumer|integration"
    # a vault's unseal key, a backup's decryption or wrapping key ("Vault unseal key ... : tNIa...=": reviewer CY)
    r"|unseal|decryption|wrapping|recovery)[ _\-]?$"
)
# A run may start up to _NEAR characters after the word ("The token for the internal metrics endpoint
# is fewsF...": reviewer AC); it needs _RUN_MIN of its characters there to be found.
_NEAR, _RUN_MIN = 48, 16
# What says a value is the secret, right before it: a verb (English, German, French, Spanish, Portuguese,
# Italian) or an operator. Needed past the first 32 characters after the word (an attacker's round:
# "password changed via admin console for user 507f...", "... in Notion page 8f3e...").
_GIVEN = lazy_compile(r"(?:(?<![^\W\d_])(?:is|was|lautet|ist|war|est|es|é|è|era)|[:=]|->|\u2192)[ \t]*$")
_RANDOM_RUN = lazy_compile(r"(?<![A-Za-z0-9+/=_\-.~\[:])[A-Za-z0-9+/=_\-.~]{16,512}(?![A-Za-z0-9+/=_\-.~])")
# After a word of another script, a value may follow a colon with no space ("токен:KV1g...", a
# "host:port" never has a letter of another script before its colon).
# An aside in brackets may end the label ("商户密钥（支付回调验签用）：jHhy...": reviewer BV).
_GLUED_RUN = lazy_compile(
    r"(?:(?<=[^\x00-\x7f][:=])|(?<=[^\x00-\x7f]\)[:=]))[A-Za-z0-9+/=_\-.~]{16,512}(?![A-Za-z0-9+/=_\-.~])"
)


def find_high_entropy(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower  # detect() runs this only when the text holds "pass", "secret", "token", "key" or "cred"
    text = scan.text
    done = 0
    # A secret word of another language counts where a run of 16 characters a secret could be is
    # (one pass of C over the text first: most text has none, and then no word is searched for).
    others = _other_secret_words(lower, scan.words) if _SIXTEEN in scan.encoded.translate(_RUN_TABLE) else []
    rejected: set[int] = set()
    for keyword_start, keyword_end in _prose_keywords(lower, others):
        low = max(keyword_end, done)
        limit = min(len(text), keyword_end + _NEAR + _RUN_MIN)  # a run that starts within _NEAR
        runs, head = _first_run(text, lower, low, limit, lower[keyword_start:keyword_end].isascii())
        while head is not None and _HYPHENED_WORD.fullmatch(text, head.start(), head.end()):
            # a compound's words before the label's colon ("Token für die TI-Schnittstelle: hoC12...": reviewer BX),
            # not a tag's or a field's name before an id ("<payment-method-token>4521fb35...": an attacker's round)
            after = _LABEL_COLON.match(text, head.end())
            head = None if after is None else runs.search(text, after.end(), limit)
        if head is None or not _may_follow(text, keyword_end, head.start()) or head.start() in rejected:
            continue  # a run already judged is not judged again for the next word (linear on "鍵鍵鍵... a1a1...")
        if (
            not lower[keyword_start:keyword_end].isascii() and _OTHER_ID_WORDS.search(text, keyword_end, head.start())
        ) or _said_loosely(lower, keyword_start, keyword_end, head.start()):
            continue  # "密钥版本 4bf9...": a key's version, not the key
        run = runs.match(text, head.start())  # the whole run, past the end of the window
        if run is None:
            continue
        value = run.group().rstrip("./")
        if _HEX_DIGEST.fullmatch(value) and _HASH_WORDS.search(lower, max(0, keyword_start - 24), keyword_start):
            continue  # "the sha256 of the token is 2cf2...": a digest, not the secret
        if (
            run.start()
            and _HEX_REF.fullmatch(value)
            and (text[run.start() - 1] == "(" or _fixed_in(lower, keyword_start, run.start()))
        ):
            continue  # "Fix token refresh race (9fceb02d...)", "... race in 3bb3a194...": a commit named in a log
        if _keyed_identifier(value) or _STRIPE_OBJECT.fullmatch(value) or _PASCAL_WORDS.fullmatch(value):
            continue
        if _names_an_identifier(lower, keyword_end, run.start()):
            continue  # "fix token expiry (commit 9fceb02d...)", "revoked secret version 4bf9...": an identifier
        if (
            run.end() < len(text)
            and text[run.end()] == "("
            and _CALLED_NAME.fullmatch(value)
            and (lower[keyword_start:keyword_end].isascii() or _CAMEL_NAME.fullmatch(value) is not None)
        ):
            # "private_key = base64.standard_b64decode(private_key)": a function of code, called; not after a
            # label of a script written without blanks, whose brackets are glued to the words around them
            # ("APIトークン：Fo2H...（本番環境用）": reviewer BV), unless the name is words run together
            # ("令牌：generateSecureToken2024(userId)": an attacker's round)
            continue
        if _is_high_entropy(value):
            start, end = _punctuated(text, max(low, keyword_end), run.start(), run.start() + len(value))
            end = _below_label_tail(text, keyword_end, start, end)
            yield "HIGH_ENTROPY_SECRET", start, end
            done = max(run.end(), end)
        else:
            rejected.add(run.start())


# The words read since stop 68 ("khóa API", "unseal key", "recovery key", ...) name keys that logs and consoles
# name beside their identifiers ("Recovery key backed up for device a1b2...", "ID khóa API: 9f8e...", "Mã định danh
# khóa API: ak_7f3a...": an attacker's round): the value must be given to them, right after a colon, "=", "is" or
# "là" (a provider's name between for "khóa API Datadog 0204..."), with no identifier's word before it.
_LOOSE_QUALIFIERS = ("unseal", "decryption", "wrapping", "recovery")
_VIETNAMESE_KEY = normalise_text("khóa api").lower()
_GIVEN_TIGHT = lazy_compile(r"[ \t]*(?:[A-Za-z][A-Za-z0-9.\-]{0,20}[ \t]*)?(?:[:=]|l\u00e0)?[ \t]*\Z")
_GIVEN_END = lazy_compile(r"(?:[:=]|->|\u2192|(?<![^\W\d_])is)[ \t]*\Z")
_NAMED_BESIDE = lazy_compile(
    r"(?<![^\W\d_])(?:device|tenant|item|blob|serial|asset|thumbprint|badge|envelope|policy|nonce|keyring|cmk"
    r"|cert|certificate|id|ids|public|pair|fingerprint|version|arn|job|ticket|user|project|order|request|session)"
    r"(?![^\W\d_])|id[a-z]*[=:]|\bid\b|m\u00e3 \u0111\u1ecbnh danh|phi\u00ean b\u1ea3n|m\u00e3 tham chi\u1ebfu"
    r"|m\u00e3 y\u00eau c\u1ea7u|c\u00f4ng khai|ng\u01b0\u1eddi d\u00f9ng|d\u1ef1 \u00e1n|\u0111\u01a1n h\u00e0ng"
    r"|h\u1ee3p \u0111\u1ed3ng|trang"
)


_FIELD_FIRST = lazy_compile(r"[a-z_]{2,24}[=:]")


def _said_loosely(lower: str, keyword_start: int, keyword_end: int, value_start: int) -> bool:
    """A word read since stop 68 whose value is not given to it as _LOOSE_QUALIFIERS' note says."""
    if lower.startswith(_VIETNAMESE_KEY, keyword_start):
        return (
            _GIVEN_TIGHT.match(lower[keyword_end:value_start]) is None
            or _NAMED_BESIDE.search(lower, max(0, keyword_start - 24), keyword_start) is not None
        )
    if lower.startswith(_LOOSE_QUALIFIERS, keyword_start):
        gap = lower[keyword_end:value_start]
        # (nor a field of its own right after the colon: "recovery key escrow: deviceId=7c9e...")
        named = _NAMED_BESIDE.search(gap) is not None or _FIELD_FIRST.match(lower, value_start) is not None
        return _GIVEN_END.search(gap) is None or named
    return False


# A Stripe object's identifier: a card's token, a payment method, a charge ("store the token (tok_Amfk23jnpwWEKJ),
# never the PAN": reviewer CC): what an integration stores instead of the card, which opens nothing without the
# account's secret key ("sk_live_..." and "rk_live_...", which the catalogue finds, are the secrets).
_STRIPE_OBJECT = lazy_compile(
    r"(?:tok|btok|pm|card|src|cus|ch|pi|seti|evt|price|prod|sub|in|txn|re|py|po|tr|ba|cs_(?:live|test))_"
    r"[A-Za-z0-9]{14,32}"
)
_CALLED_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# A function's name in camelCase or PascalCase: words, each a capital and small letters or digits
# ("refreshOAuthToken2", "rotateMasterKeyV2Async", "loadApiKeyFromEnvV2"), each word's small letters two or more
# (not a random run's humps)
_CAMEL_NAME = lazy_compile(
    r"(?:[a-z]{2,}[0-9]*(?:[A-Z][A-Z0-9]*[a-z]{2,}[0-9]*)+|(?:[A-Z][A-Z0-9]*[a-z]{2,}[0-9]*){2,})(?:[A-Z][0-9]*)?"
)


def _punctuated(text: str, low: int, start: int, end: int) -> tuple[int, int]:
    """The run ``text[start:end]`` with the pieces a password's symbols join to it ("rr94qs%Zv!pKLO...%2":
    reviewer BL): where "!", "%", "#", "$" or "^" touches the run, the whole stretch of such symbols and the
    run's characters around it (not before ``low``, the keyword's end). Not a query's "&", "?" nor "*", which
    join words ("gift+ideas+for+dad&page=2": an attacker's round)."""
    if start > low and text[start - 1] in _JOINING_SYMBOLS:
        found = _PUNCTUATED_BEFORE.search(text, low, start)
        if found is not None:
            start = found.start()
    if end < len(text) and text[end] in _JOINING_SYMBOLS:
        found = _PUNCTUATED_AFTER.match(text, end)
        if found is not None:
            end = found.end()
    return start, end


_JOINING_SYMBOLS = frozenset("!%#$^")
_PUNCTUATED_BEFORE = lazy_compile(r"(?<![^\s:=\"'(\[{<])[A-Za-z0-9+/=_\-.~!%#$^]+\Z")
_PUNCTUATED_AFTER = lazy_compile(r"[A-Za-z0-9+/=_\-.~!%#$^]*[A-Za-z0-9+/=_\-~!%#$^]")


_HYPHENED_WORD = lazy_compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
# (an aside in brackets may stand before it: "Webhook-Geheimnis für die Signatur-Callbacks (nur Prod): ...":
# reviewer CN)
# (not one that names an id's or a digest's kind: "(Ticket)", "(SHA-256)", "(Beispiel)", "(Base64 des Namens)": an
# attacker's round)
_ID_ASIDE = (
    r"(?![^()\[\]\n]*(?i:ticket|sha|md5|hash|digest|prüfsumme|checksum|beispiel|example|exemple|ejemplo|base64"
    r"|\bid\b|nummer|number|format|muster|sample))"
)
_LABEL_COLON = lazy_compile(
    rf"(?:[ \t]*(?:\({_ID_ASIDE}[^()\n]{{1,24}}\)|\[{_ID_ASIDE}[^\[\]\n]{{1,24}}\]))?[ \t]*[:：][ \t]*"
)


def _first_run(
    text: str, lower: str, low: int, limit: int, ascii_word: bool
) -> tuple[re.Pattern[str], re.Match[str] | None]:
    """The pattern of the first run a secret's word may name, and its start (see find_high_entropy)."""
    head = _RANDOM_RUN.search(text, low, limit)
    if head is None and not ascii_word:
        head = _GLUED_RUN.search(text, low, limit)  # "токен:KV1g...", "APIキー：KV1g..."
        if head is not None:
            return _GLUED_RUN, head
    return _RANDOM_RUN, head if head is not None else _rotated_value(text, lower, low)


# A secret's rotation told in a sentence, the value further on than _NEAR: "Webhook HMAC signing secret for the claims
# intake API was rotated on 2024-06-21; the new one is fZnd..." (reviewer BV). "The new one" (or value, key, secret,
# token) with "is" or a colon right before the run, on the word's line, within _ROTATED_REACH characters.
_NEW_ONE = lazy_compile(r"(?<![^\W\d_])new (?:one|value|key|secret|token)(?: is|:)[ \t]*")
_ROTATED_REACH = 160


def _rotated_value(text: str, lower: str, low: int) -> re.Match[str] | None:
    high = lower.find("\n", low, low + _ROTATED_REACH)
    new_one = _NEW_ONE.search(lower, low, low + _ROTATED_REACH if high == -1 else high)
    run = None if new_one is None else _RANDOM_RUN.match(text, new_one.end())
    # drawn at random, small and capital letters and digits: not a ticket's, an order's or a tracking number
    # ("... the new one is INC0012345678ABCDEF": an attacker's round)
    return run if run is not None and mixed_case_with_digit(run.group()) else None


def _may_follow(text: str, keyword_end: int, value_start: int) -> bool:
    """A run may be the word's value: on its line, and, past the first 32 characters after the word,
    only a value the text says it is ("... endpoint is fewsF..."; not "... for user 507f...")."""
    if "\n" in text[keyword_end:value_start]:
        # "shared secret for the fax webhook:" then the value alone at the next line's start (reviewer AU)
        return _LABEL_LINE_END.fullmatch(text, keyword_end, value_start) is not None
    return value_start - keyword_end <= _NEAR - _RUN_MIN or _GIVEN.search(text, keyword_end, value_start) is not None


def _below_label_tail(text: str, keyword_end: int, start: int, end: int) -> int:
    """A value alone on its line below its label, cut by a wrap: its rest alone on the next lines, drawn at
    random as it is (small and capital letters and digits) and nothing else on those lines
    ("shared secret for the fax webhook, wrapped:" then "yh7n7D8OoY5u997B37nH" then "AgXRoi…": reviewer AU).
    ``start`` and ``end``: the value's; a value on its label's line ends where it does."""
    if "\n" not in text[keyword_end:start]:
        return end
    for _ in range(_TAIL_LINES):  # a key's body under its label goes on line after line
        tail = _WRAPPED_TAIL.match(text, end)
        # drawn at random, not words run together ("SeeAlsoDoc2Page": an attacker's round)
        if tail is None or not all(kind.search(tail["rest"]) for kind in _MIXED) or _words_run_together(tail["rest"]):
            break
        end = tail.end("rest")
    return end


_TAIL_LINES = 64


# "=" only as base64's padding at the end: "X-Request-Id=Ab12..." is a field of its own (an attacker's round).
_WRAPPED_TAIL = lazy_compile(r"[ \t]*\r?\n[ \t]{0,16}(?P<rest>[A-Za-z0-9+/_\-]{8,256}={0,2})[ \t]*(?=\r?\n|\Z)")
_MIXED = (re.compile(r"[a-z]"), re.compile(r"[A-Z]"), re.compile(r"[0-9]"))
_CAMEL = lazy_compile(r"[A-Z][a-z]{2,}")


def _words_run_together(run: str) -> bool:
    """Capitalised words make most of it ("SeeAlsoDoc2Page"), as they make little of a random run."""
    return sum(len(word) for word in _CAMEL.findall(run)) * 10 >= len(run) * 6


# The rest of a label's line that ends in a colon, then the next line's indent: its value is below it. The
# rest says what the secret is for ("shared secret for the fax webhook, wrapped:") or nothing ("secret:");
# not what kind of thing the line is about ("Token usage by build:", "API key name:", "Password hint:",
# "Token type:": an attacker's round).
_LABEL_LINE_END = lazy_compile(
    rf"(?:[ \t]+(?:{_WHAT_FOR}|from)[ \t][^\n:]{{0,40}})?"
    r"[ \t]*:[ \t]*\r?\n[ \t]{0,16}"
)


def _fixed_in(lower: str, keyword_start: int, value_start: int) -> bool:
    """A hash after "in" or "since", on a line that says what a change did before the secret's word."""
    if _IN_A_COMMIT.search(lower, max(0, value_start - 8), value_start) is None:
        return False
    line = lower.rfind("\n", 0, keyword_start) + 1
    return _CHANGE_WORDS.search(lower, line, keyword_start) is not None


# Words that name what follows as an identifier, between a secret word and a value.
_ID_WORDS = lazy_compile(
    r"\b(?:commit|hash|sha(?:1|224|256|384|512)?|md5|digest|checksum|fingerprint|trace|span|request|req|event|"
    r"version|revision|rev|uid|uuid|guid|id|build|change|changeset|session|run|job|etag|object|correlation|revert|"
    # "version" in other languages ("secret db-password, versie b7172a31...": a Key Vault secret's version,
    # reviewer AM)
    r"versie|versión|versao|versão|versione|wersja|verze|versjon|sürüm|"
    # a transfer's tracking key ("Clave de rastreo MBAN0100260310...": Mexico's SPEI, reviewer CL)
    r"tracking|rastreo|rastreamento|seguimiento|"
    r"reverts|backport|cherry-pick|merge|rebase|bisect|fixup|squash)\b"
)


# A name of capitalised words, maybe a version after them: code's ("RefreshTokenRotationPolicyV2",
# "GetAccessTokenForTenantV3": an attacker's round on reviewer CL's readers), no random run
_PASCAL_WORDS = lazy_compile(r"(?:[A-Z][a-z]{2,})+(?:V?[0-9]{1,3})?")


def _names_an_identifier(lower: str, start: int, end: int) -> bool:
    """The words between a secret word and a value name the value an identifier ("token expiry
    (commit 9fce...", "secret version 4bf9...", "the password-policy change in 3f78..."). Where the
    words end in a label's ":" or an arrow, only the last one can: the others say what the secret
    is for ("webhook secret for the session service -> ...", "API key for the event pipeline: ...")."""
    between = lower[start:end].rstrip()
    if between.endswith((":", "->", "\u2192", "=")):
        words = _WORD.findall(between)
        # Before the last preposition the words name the value ("secret manager version for prod:");
        # after it, what it serves ("API key for the event pipeline:"), except the very last word.
        # The last word names the value itself only when it says what an identifier is ("... for
        # prod, version:", "session id:"); "the build job:", "the event run:" name what it serves.
        cut = max((index for index, word in enumerate(words) if word in _PREPOSITIONS), default=len(words))
        last = words[-1:] if cut == len(words) or _SERVED_WORDS.fullmatch(words[-1]) is None else []
        return any(_ID_WORDS.fullmatch(word) is not None for word in words[:cut] + last)
    return _ID_WORDS.search(between.replace("_", " ")) is not None  # "token_id" names an identifier too


_WORD = lazy_compile(r"[a-z0-9\-]+")
# Identifier words that also name what a secret serves ("the token for the build job:").
_SERVED_WORDS = lazy_compile(r"build|job|run|session|request|req|event|object|change|merge|trace|span")
_KEYED_RUN = lazy_compile(r"(?P<key>[A-Za-z_]{1,32})[=:]")
_KEY_PATH = lazy_compile(r"(?P<key>[A-Za-z_]{1,32}(?:/[A-Za-z_]{1,32}){1,3})[=:]")


def _keyed_identifier(value: str) -> bool:
    """A run that is a key and its value, the key naming an identifier ("request_id=01HQ..."), or a digest under a key's
    path that names one (a Helm chart's "checksum/secret=8f21...": reviewer BY)."""
    keyed = _KEYED_RUN.match(value)
    if keyed is not None and _ID_WORDS.search(keyed["key"].replace("_", " ")):
        return True
    path = _KEY_PATH.match(value)
    return (
        path is not None
        and _HASH_WORDS.search(path["key"]) is not None
        and _HEX_DIGEST.fullmatch(value, path.end()) is not None
    )


_PREPOSITIONS = frozenset({"for", "of", "to", "on", "in", "from", "at", "with", "by"})


def _prose_keywords(lower: str, others: list[str]) -> list[tuple[int, int]]:
    """The spans of _PROSE_KEY's matches that start a word (as a pattern led by ``(?<![a-z0-9_])``
    would find them), and of a qualified "key" or "secret" ("hmac key"), in order."""
    spans: list[tuple[int, int]] = []
    match = _PROSE_KEY.search(lower)
    while match is not None:
        start = match.start()
        if (
            start
            and lower[start - 1] in _WORD_CHARS
            and not _german_token(lower, start)
            and not (lower[start - 1] == "_" and _snake_key(lower, start, match.end()))
        ):
            match = _PROSE_KEY.search(lower, start + 1)  # glued to a word: a later start may still be one
        else:
            spans.append(match.span())
            match = _PROSE_KEY.search(lower, match.end())
    for word in others:
        at = lower.find(word)
        while at != -1:
            if not at or lower[at - 1] not in _WORD_CHARS or not word.isascii() or _german_secret(lower, at, word):
                spans.append((at, at + len(word)))  # "APIトークン", "Webhook-Signaturgeheimnis"
            at = lower.find(word, at + len(word))
    for word in ("key", "secret"):
        at = lower.find(word)
        while at != -1:
            end = at + len(word)
            qualifier = _QUALIFIER.search(lower, max(0, at - 12), at)
            if qualifier is not None and (end == len(lower) or lower[end] not in _WORD_CHARS):
                spans.append((qualifier.start(), end))
            at = lower.find(word, end)
    return sorted(set(spans)) if len(spans) > 1 else spans


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


# A secret word qualified in snake case, as APIs' responses name it in a note ("access_token Ad5JcH1Z...": an
# M-Pesa Daraja token, reviewer CL)
def _snake_key(lower: str, start: int, end: int) -> bool:
    """The secret's word after a snake-case key's qualifier ("client_secret", "consumer_secret"), or ending a key of
    any words but a page's, a cursor's or a trace's ("oauth_token_secret", "github_webhook_secret"; not
    "next_page_token", "sync_token", nor "aws_secret_access_key", whose value is named by its last word: a probe of key
    names and the attacker's round)."""
    if _SNAKE_QUALIFIER.search(lower, max(0, start - 9), start):
        return True
    if (end < len(lower) and lower[end] in _WORD_CHARS) or lower[start:end] not in ("secret", "token"):
        return False
    key = _SNAKE_KEY_BEFORE.search(lower, max(0, start - 40), start)
    return key is not None and _NOT_A_SECRETS_KEY.search(key.group()) is None


_SNAKE_KEY_BEFORE = lazy_compile(r"(?<![a-z0-9_.\-])[a-z][a-z0-9]*(?:_[a-z0-9]+)*_$")
_NOT_A_SECRETS_KEY = lazy_compile(
    r"page|next|prev|continuation|cursor|sync|request|trace|correlation|idempotency|csrf|xsrf|nonce|state|cache|"
    r"(?<![a-z])id_|public|publishable|site|test|dummy|example|sample|fake"
)
# (and the names OAuth 1's, sessions', webhooks' and bots' secrets go by: "consumer_secret", "session_secret",
# "private_token", "webhook_secret" in an XML element, a tab-separated line or "set ... to": a probe of key names)
_SNAKE_QUALIFIER = lazy_compile(
    r"(?<![a-z0-9_])(?:access|refresh|auth|api|bearer|client|app|consumer|session|private|webhook|signing|shared|"
    r"service|bot|personal|deploy|oauth|master|encryption|hmac|jwt)_$"
)
# German's compounds that name a token ("Zugangstoken", "Sicherheitstoken": reviewer BX); not code's "nextToken",
# "pageToken" or "accessToken" beside a public key, which other readers judge
_GERMAN_TOKEN_HEAD = lazy_compile(r"(?:zugangs|zugriffs|sicherheits|authentifizierungs|anmelde|sitzungs)$")
_COMPOUND_REACH = 20  # the longest head above


_GEHEIMNIS = lazy_compile(r"geheimnis(?:ses|se|s)?(?![^\W_])")
# (a technical head only: "Bankgeheimnis", "Betriebsgeheimnis", "Fernmeldegeheimnis" are laws' words, and a case's
# or a document's number follows them: an attacker's round)
_SECRET_HEADS = (
    "signatur", "signier", "webhook", "client", "app", "anwendungs", "api", "hmac", "token", "zugangs", "jwt",
    "sitzungs", "session", "oauth", "verschlüsselungs",
)  # fmt: skip


# (not "asiakas": "asiakassalaisuus" is the law's customer confidentiality)
_FINNISH_SECRET_HEADS = ("allekirjoitus", "sovellus", "api", "webhook", "jwt", "token", "hmac")


def _german_secret(lower: str, at: int, word: str) -> bool:
    """``at`` is the "geheimnis" that ends a German compound, a secret of what its head names
    ("Signaturgeheimnis", "Clientgeheimnis": reviewer CY); not "geheim" inside a word ("ungeheim")."""
    if word == "salaisuus":  # Finnish's compounds alike ("HS256-allekirjoitussalaisuus": reviewer DA)
        return lower.endswith(_FINNISH_SECRET_HEADS, 0, at)
    return word == "geheim" and lower.endswith(_SECRET_HEADS, 0, at) and _GEHEIMNIS.match(lower, at) is not None


def _german_token(lower: str, start: int) -> bool:
    """``start`` is the "token" that ends such a compound."""
    end = start + len("token")
    return (
        lower.startswith("token", start)
        and (end == len(lower) or lower[end] not in _WORD_CHARS)
        and _GERMAN_TOKEN_HEAD.search(lower, max(0, start - _COMPOUND_REACH), start) is not None
    )


_HEX_REF = lazy_compile(r"[0-9a-f]{7,40}")
# "fixed ... in 3bb3a194...", "regression since 9fceb02": a commit's hash, where the line says what a
# change did; "rotated the API key after a2f8... leaked", "the key is in 3b1f..." are keys (an attacker's round).
_IN_A_COMMIT = lazy_compile(r"(?<![a-z])(?:in|since)[ \t]+$")
_CHANGE_WORDS = lazy_compile(
    r"(?<![a-z])(?:fix|fixed|fixes|bug|race|regression|introduced|landed|merged|reverted)(?![a-z])"
)
_ETHEREUM = lazy_compile(r"0x[0-9a-fA-F]{40}")  # an account's public address
_HOST_PATH = lazy_compile(r"[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}(?:[:/]|$)")
_NAME_WITH_SUFFIX = lazy_compile(r"\.(?:[A-Za-z][A-Za-z0-9\-]{0,23}|[0-9]{1,6})$")


def _is_high_entropy(value: str) -> bool:
    if _UUID.fullmatch(value) or _ETHEREUM.fullmatch(value) or _identifier_like(value) or _ALGORITHMS.fullmatch(value):
        return False  # an identifier (the issue's must-survive list), an algorithm's name
    letters = value.upper() != value.lower()
    digits = _DIGIT.search(value) is not None
    if not (letters and digits) or len(value) < 16 or _CONSTANT.match(value) or _SNAKE.match(value):
        return False
    if "." in value and (_NAME_WITH_SUFFIX.search(value) or _HOST_PATH.match(value)):
        return False  # a host name (with a path), a file name or a version, not a secret
    return entropy(value[:_ENTROPY_SAMPLE]) >= 3.0


# An OAuth 2.0 authorization code in the redirect that carries it ("/auth/redirect?code=fwO0_Q-2J_...&state=...":
# reviewer BW): whoever holds it may exchange it for the user's tokens until it expires. Only beside the flow's
# "state" (or OpenID Connect's "session_state"), and drawn at random; not a promotion's or a country's code.
_OAUTH_CODE = lazy_compile(r"[?&#]code=(?P<value>[A-Za-z0-9_\-.~%/+]{20,512})(?=&|#|$|[\s\"'<>])")
_OAUTH_STATE = lazy_compile(r"[?&#](?:session_)?state=")
# ... and a path that says it is the flow's redirect (not an embed's "run?code=...&state=collapsed")
_OAUTH_PATH = lazy_compile(r"(?i:callback|redirect|oauth|/auth|signin|sign-in|login|/cb\b|sso|authorize|return)")
_OAUTH_REACH = 1024
# RFC 6749's and OpenID Connect's example code, and the words and runs documentation writes one with (an attacker's
# round: "cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz", "code=Example1234567890abcdEF", "AbCdEfGhIjKl...")
_EXAMPLE_CODE = lazy_compile(r"SplxlOBeZQQYbYS6WxSbIA|(?i:example|sample|placeholder|abcdef|123456|your)")


def find_oauth_codes(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for match in _OAUTH_CODE.finditer(text):
        # its own URL: back to the blank before it, on to the blank after (not another URL's "state" on the line, a
        # script's "?code=BuildHash... ref=/orders?id=7&state=shipped": an attacker's round)
        low = max(text.rfind(" ", max(0, match.start() - _OAUTH_REACH), match.start()), match.start() - _OAUTH_REACH)
        high = match.end() + _OAUTH_REACH  # (bounded: a megabyte line of "?code=" without a blank was quadratic)
        ends = [at for at in (text.find(" ", match.end(), high), text.find("\n", match.end(), high)) if at != -1]
        url = text[max(0, low) : min([*ends, match.end() + _OAUTH_REACH])]
        value = match["value"]
        if (
            _OAUTH_STATE.search(url)
            and (_OAUTH_PATH.search(url) or "session_state=" in url)
            and _EXAMPLE_CODE.search(value) is None
            and mixed_case_with_digit(value)
            and _is_high_entropy(value)
        ):
            yield "GENERIC_SECRET", *match.span("value")


# SQL that sets a login's password without the word "password": MySQL's "IDENTIFIED BY '...'" and SQL Server's
# "sp_addlogin 'login', 'password'" (reviewer BX); a quote inside the literal is doubled.
_SQL_IDENTIFIED = lazy_compile(
    # (in a statement that creates or alters a login: not prose's "Records are identified by 'uuid'", an attacker's
    # round)
    r"(?i:(?:create|alter)[ \t]+(?:user|role|login)[^;\n]{0,200}?identified[ \t]+(?:with[ \t]+\w+[ \t]+)?by"
    r"|sp_addlogin[ \t]+(?:@loginame[ \t]*=[ \t]*)?N?'(?:[^'\n]|''){1,128}'[ \t]*,[ \t]*(?:@passwd[ \t]*=[ \t]*)?)"
    r"[ \t]*N?'(?P<value>(?:[^'\n]|''){1,128})'"
)
# A Terraform variable named for a secret, its default the secret ('variable "db_password" { ... default =
# "velvet-glacier-saffron-67" ... }': reviewer BX).
_TF_SECRET_VARIABLE = lazy_compile(
    r"variable[ \t]+\"(?P<name>[A-Za-z0-9_\-]{0,40}(?i:password|passwd|secret|token|api_key|apikey)(?:_value)?)\""
    r"[ \t]*\{[^{}]{0,400}?\bdefault[ \t]*=[ \t]*\"(?P<value>[^\"\n]{1,256})\""
)  # (named for the secret itself, not its lifetime: "token_ttl")


def _set_password_shaped(value: str) -> bool:
    """What a set password looks like, not a documentation's placeholder or a setting ("password", "changeme", "%s",
    "true", "us-east-1", "GITHUB_TOKEN", "secret/data/myapp": an attacker's round): eight characters or more with a
    symbol, or letters of both cases and a digit, or words joined by dashes ending in digits."""
    if len(value) < _SHAPED_LEAST or _placeholder(value) or "/" in value or _CONSTANT.match(value):
        return False
    if _BRACKETED_WORD.fullmatch(value):
        return False  # a template's field: "{password}", "<your-password>", "[db_pass]", "%PASSWORD%"
    return bool(
        mixed_case_with_digit(value)
        or (any(char in _PASSWORD_SYMBOLS for char in value) and any(char.isalnum() for char in value))
        or _DASHED_PASSPHRASE.fullmatch(value)
    )


_SHAPED_LEAST = 8
_BRACKETED_WORD = lazy_compile(r"[{\[<(%$]+[A-Za-z_\- .]+[}\]>)%]*")
_PASSWORD_SYMBOLS = frozenset("!@#$%^&*+=?~()[]{}<>|;:,'")
_DASHED_PASSPHRASE = lazy_compile(r"[a-z]{3,12}(?:-[a-z]{3,12}){1,6}-?[0-9]{1,6}")


def find_sql_passwords(scan: Scan) -> Iterator[Hit]:
    for match in _SQL_IDENTIFIED.finditer(scan.text):
        if _set_password_shaped(match["value"].replace("''", "'")):
            yield "PASSWORD", *match.span("value")


def find_variable_defaults(scan: Scan) -> Iterator[Hit]:
    for match in _TF_SECRET_VARIABLE.finditer(scan.text):
        value = match["value"]
        if _set_password_shaped(value) and not value.startswith(("${", "var.", "data.")):
            kind = "PASSWORD" if "pass" in match["name"].lower() else "GENERIC_SECRET"
            yield kind, *match.span("value")


# For the readers of other modules (labels.py: a list of keys under a heading that names them).
is_high_entropy = _is_high_entropy
drawn_at_random = _drawn_at_random
UUID = _UUID


# ---------------------------------------------------------------- credentials in URLs and headers

# The password may hold "#" and "?" as typed ("postgres://app:Xk9h5P9s#308@db"); "host:8080?q=a@b" is a
# port and a query (see _url_credentials). The user may be an address ("smtp://alerts@corp.example:...@smtp").
_URL_CREDENTIALS = lazy_compile(
    r"(?<=://)(?P<user>[^\s/@:?#\[\]\"'<>]{0,128}(?:@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8})?)"
    r":(?P<password>(?:(?!://)[^\s\"'<>]){1,256})@(?=[A-Za-z0-9\[])"
)
_SCHEME = lazy_compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,30}$")
_CLI_USER = lazy_compile(r"(?<![\w-])(?:-u|--user)(?:[ =]|(?=[A-Za-z]))[\"']?(?P<cred>[^\s:'\"]{1,64}:[^\s'\"]{1,128})")
_UID = lazy_compile(r"[0-9]+|root|nobody|users?|staff|wheel|docker")
# Commands whose -u takes a user and a group, not credentials (in the option's own command: a text
# that mentions docker elsewhere, or "docker login && curl -u admin:...", still sends credentials).
_UID_COMMANDS = lazy_compile(r"\b(?:docker|podman|nerdctl|kubectl|chown|runuser|setpriv|gosu|su-exec)\b")


# ---- a PostgreSQL password file's lines

# "hostname:port:database:username:password" (~/.pgpass), a line of its own with no white space: the
# password is the fifth field, to the end of the line ("\\:" escapes a colon in it). The host is a
# name with a dot, an address, "localhost" or "*", or the text names the file ("# hostname:port:..."
# above the lines); the port is a number or "*"; the database and the user are names or "*" (not
# "main.c:12:5:warning:unused"), and no field is empty (an IPv6 address: "fe80::1:2:3"). /etc/passwd's
# lines have more fields; a key of Redis ("session:12345:user:settings:theme") has no host's name.
_PGPASS_PORT = lazy_compile(r":(?:[0-9]{1,5}|\*):")
_PGPASS_LINE = lazy_compile(
    r"[ \t]*(?P<host>[A-Za-z0-9._\-]*[A-Za-z][A-Za-z0-9._\-]*|[0-9.]+|\*):(?:[0-9]{1,5}|\*)"
    r":(?:[\w.\-]*[A-Za-z_][\w.\-]*|\*):(?:[\w.@\-]*[A-Za-z_][\w.@\-]*|\*):"
    r"(?P<password>(?:\\.|[^\s:\\]){4,256})[ \t]*(?=\r?\n|\Z)"
)
_PGPASS_NAMED = lazy_compile(r"pgpass|hostname:port:database:username:password", re.IGNORECASE)


def may_hold_pgpass(scan: Scan) -> bool:
    return _PGPASS_PORT.search(scan.text) is not None


def find_pgpass(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    line_end = -1
    named: bool | None = None
    line_of = LineStarts(text)
    for port in _PGPASS_PORT.finditer(text):
        if port.start() < line_end:
            continue  # a line read already
        line_start = line_of(port.start())
        line = _PGPASS_LINE.match(text, line_start)
        line_end = port.end()
        if line is None:
            continue
        line_end = line.end()
        host = line["host"]
        if not ("." in host or host in ("*", "localhost")):
            if named is None:
                named = _PGPASS_NAMED.search(text) is not None
            if not named:
                continue
        if _password_shaped(line["password"]) or named:
            yield "PASSWORD", *line.span("password")


# A JDBC URL's properties after its host, not a user's password before an "@": "jdbc:sqlserver://host:1433;
# databaseName=Claims;user=claims_rw;password=K4szt4n@439;..." holds its password in a property (read by the keyword
# readers), and its "@" is the password's own (reviewer BW).
_JDBC_PROPERTY = lazy_compile(r"[0-9]{1,5};[A-Za-z]+=")  # the host's port, then a property ("1433;databaseName=")


# Go's MySQL driver's data source name: "user:password@tcp(host:3306)/db" (or unix, udp), no scheme before it
# (reviewer CJ: 'var dsn = "notify:ssYw~wPTi7Ulu9eaz@tcp(mysql-notify:3306)/notify"').
_GO_DSN = lazy_compile(
    r"""(?<![\w.\-/:@])(?P<user>[A-Za-z0-9_.\-]{1,64}):(?P<password>[^\s"'`@/:]{1,128})@(?:tcp|udp|unix)(?:6|4)?\("""
)


def find_url_credentials(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    if "@tcp(" in text or "@unix(" in text or "@udp(" in text:
        for dsn in _GO_DSN.finditer(text):
            if _url_credentials(dsn["password"]):
                yield "URL_CREDENTIALS", dsn.start("user"), dsn.end("password")
    at = text.find("://")
    while at != -1:
        if _SCHEME.search(text, max(0, at - 31), at):
            match = _URL_CREDENTIALS.match(text, at + 3)
            if match is not None and _QUERY.search(match["password"]):
                # The last "@" was in a query ("u:p@h/db?x=a@b.com"): the credentials end at the first.
                match = _URL_CREDENTIALS_FIRST.match(text, at + 3)
            if (
                match is not None
                and (_url_credentials(match["password"]) or _digits_first_password(text, match))
                and not _remote_path(match)
                and _JDBC_PROPERTY.match(match["password"]) is None
            ):
                yield "URL_CREDENTIALS", match.start("user"), match.end("password")
        at = text.find("://", at + 3)
    if "-u" in text or "--user" in text:
        commands = _Commands(text)
        for match in _CLI_USER.finditer(text):
            user, _, password = match["cred"].partition(":")
            if (
                _UID.fullmatch(password)
                or password == user
                or password.startswith("$")
                or _placeholder(password)
                or commands.names_uid_command(match.start())
            ):
                continue  # "docker run -u 1000:1000", "-u www-data:www-data", "-u $USER:$TOKEN", "<client_secret>"
            yield "URL_CREDENTIALS", match.start("cred"), match.end("cred")


class _Commands:
    """The shell commands of a text, read from left to right at increasing offsets, each stretch once
    (reading back to each option's line start was quadratic: a megabyte line of "docker run -u a:b "
    took a minute)."""

    __slots__ = ("_lines", "_read", "_start", "_text", "_uid")

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines = LineStarts(text)
        self._read = 0
        self._start = 0  # where the command holding the last offset asked starts
        self._uid = -1  # where the last _UID_COMMANDS word before it starts

    def names_uid_command(self, at: int) -> bool:
        """The command holding ``at`` (from its line's start, or after "&&", "||", ";" or "|") names one
        of _UID_COMMANDS before ``at``, where an option starts (no word's character before it)."""
        text, read = self._text, self._read
        if at < read:  # not asked in order: read from the start on its own
            return _Commands(text).names_uid_command(at)
        # Every line start and separator's end at or before ``at`` moves the start on; the last one wins.
        ends = [self._start, self._lines(at)]
        for mark in ("&&", "||", ";", "|"):
            found = text.rfind(mark, max(0, read - 1), at)
            if found != -1:
                ends.append(found + len(mark))
        self._start = max(ends)
        # Words cut at the last offset are read again whole (the longest is seven characters).
        for word in _UID_COMMANDS.finditer(text, max(self._start, read - 8), at):
            self._uid = word.start()
        self._read = at
        return self._uid >= self._start


_LEADING_DIGITS = lazy_compile(r"[0-9]+")
# After the "@": a host and its port ("@cache.internal:6379/0").
_HOST_PORT = lazy_compile(r"[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){0,8}:[0-9]{1,5}(?![0-9])")


def _digits_first_password(text: str, match: re.Match[str]) -> bool:
    """A password that opens with digits and a "/", "?" or "#" ("redis://default:9/kLm2?Qx@cache:6379"),
    which _url_credentials takes for a port and a path: credentials where a user that is no host name
    comes before it and a host with its own port after the "@"."""
    user = match["user"]
    if not user or "." in user or user.lower() == "localhost" or not _HOST_PORT.match(text, match.end()):
        return False
    password = match["password"]
    digits = _LEADING_DIGITS.match(password)
    if digits is None or password.isdigit() or _placeholder(password):
        return False
    return len(digits.group()) == 1 or int(digits.group()) > 65535  # no port: a port of one digit is not used


def _remote_path(match: re.Match[str]) -> bool:
    """ "git+ssh://git@github.com:org/repo.git@v1": a host and a path after a user, then a revision."""
    return "@" in match["user"] and "/" in match["password"]


_URL_CREDENTIALS_FIRST = lazy_compile(_URL_CREDENTIALS.pattern.replace("{1,256})@", "{1,256}?)@"))
_QUERY = lazy_compile(r"[?&][^=\s]*=")


def _url_credentials(password: str) -> bool:
    """A password, not a port before a query or a fragment, nor a placeholder ("${DB_PASSWORD}")."""
    cut = min((at for at in (password.find("?"), password.find("#"), password.find("/")) if at != -1), default=-1)
    if cut != -1 and password[:cut].isdigit():
        return False  # "host:8080/path/user@x", "host:8080?q=a@b": a port, then a path, query or fragment
    if password.lower() in _STOP_VALUES or password.lower() in ("pass", "pwd", "pw", "changeme"):
        return False  # "postgres://user:password@localhost/mydb": the documentation's example
    return not (_placeholder(password) or password in ("%s", "{}", "{password}"))


# The space may be lost after "Authorization:" ("Authorization:Basicc3Zj..."): the value must then decode.
_BASIC = lazy_compile(
    r"basic[ \t]+(?P<cred>[A-Za-z0-9+/]{6,1024}={0,2})(?![A-Za-z0-9+/=])"
    r"|(?<=authorization:)basic(?P<glued>[A-Za-z0-9+/]{6,1024}={0,2})(?![A-Za-z0-9+/=])"
)


# Passwords in connection strings that no other form reads: Oracle's thin URL ("jdbc:oracle:thin:
# billing/Walrus.Maple5462@//host:1521/svc"), an ODBC value in braces ("pwd={gXkAjo;dDBDMHxu}", a
# semicolon inside), and a secret set from the command line ("gh secret set NAME --body '...'").
_ORACLE_THIN = lazy_compile(r"jdbc:oracle:thin:[A-Za-z0-9_$#.]{1,64}/(?P<value>[^@\s'\"]{1,128})@")
_ODBC_BRACED = lazy_compile(r"(?i)(?<![A-Za-z0-9_])(?:pwd|password)[ \t]*=[ \t]*\{(?P<value>[^}\n]{1,128})\}")
_GH_SECRET_SET = lazy_compile(
    r"\bgh[ \t]+secret[ \t]+set[ \t]+[A-Za-z0-9_]{1,64}[^\n]{0,200}?[ \t](?:--body|-b)(?:=|[ \t]+)"
    r"(?P<q>[\"']?)(?P<value>[^\"'\s]{8,512})(?P=q)"
)
# A Terraform plan's change of a secret: 'auth_token = "old" -> "new"' (the old value is read as the
# key's, the new one after the arrow is this finder's).
_PLAN_CHANGE = lazy_compile(
    r"(?P<key>[A-Za-z0-9_]{0,40}(?:password|passwd|secret|token|api_key|auth)[A-Za-z0-9_]{0,40})[ \t]*=[ \t]*"
    r"\"[^\"\n]{0,256}\"[ \t]*->[ \t]*\"(?P<value>[^\"\n]{4,256})\""
)
# A PEM private key written in base64 (kubeconfig's client-key-data, a Kubernetes secret's tls.key):
# "LS0tLS1CRUdJTi" is "-----BEGIN" encoded.
# A field of a format string or a template: "f'password={password!r}'", "password={user.pw}",
# "password={0}", "{pw:>10}" (an ODBC password goes in braces because it holds ";" or "}").
_TEMPLATE_FIELD = lazy_compile(r"[ \t]*(?:[A-Za-z_][A-Za-z0-9_.\[\]'\"]*|[0-9]*)(?:![rsa])?(?::[^{}]*)?[ \t]*")
_BASE64_PEM = lazy_compile(r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}")


def _gh_secrets(text: str) -> Iterator[Hit]:
    for match in _GH_SECRET_SET.finditer(text):
        if _plausible_value(match["value"], True):
            yield "GENERIC_SECRET", *match.span("value")


def _plan_changes(text: str) -> Iterator[Hit]:
    for match in _PLAN_CHANGE.finditer(text):
        key, value = match["key"].lower(), match["value"]
        if _NOT_SECRET_KEY.search(key) or _NUMBER.fullmatch(value) or _placeholder(value):
            continue  # "token_ttl = "3600" -> "7200"", "(sensitive value)"
        if _plausible_value(value, True) and (_password_shaped(value) or _looks_random(value)):
            yield ("PASSWORD" if _PASSWORD_KEY.search(key) else "GENERIC_SECRET"), *match.span("value")


def find_connection_passwords(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    if "jdbc:oracle:thin:" in text:
        for match in _ORACLE_THIN.finditer(text):
            yield "PASSWORD", *match.span("value")
    if "={" in text or "= {" in text:
        for match in _ODBC_BRACED.finditer(text):
            if not _placeholder(match["value"]) and not _TEMPLATE_FIELD.fullmatch(match["value"]):
                yield "PASSWORD", *match.span("value")
    if "gh" in text and "secret" in text:
        yield from _gh_secrets(text)
    if "->" in text:
        yield from _plan_changes(text)
    if "LS0tLS1CRUdJTi" in text:
        for match in _BASE64_PEM.finditer(text):
            head = match.group()[:64]
            try:
                decoded = base64.b64decode(head[: len(head) - len(head) % 4])
            except (binascii.Error, ValueError):
                continue
            if b"PRIVATE KEY" in decoded:
                yield "PRIVATE_KEY", *match.span()


# A session in a cookie: "Cookie: SESSIONID=C736C9C0AB0D...", "mp_sess=o3Wtc92r...; theme=dark",
# "Set-Cookie: remember_token=...". Whoever holds it is logged in as the user: a secret like a
# password. Only in text that says "cookie", under a name that says what it is, and a random value.
_COOKIE_PAIR = lazy_compile(
    r"(?<![A-Za-z0-9_.\-])(?P<name>[A-Za-z0-9_.\-]{0,40}(?i:sess|sid|token|auth|jwt|remember|login|csrf|xsrf)"
    r"[A-Za-z0-9_.\-]{0,40})=(?P<value>[A-Za-z0-9+/=_\-.~%:]{16,512})(?![A-Za-z0-9+/=_\-.~%:])"
)  # ":": Express's signed cookies ("connect.sid=s%3A...") as the view decodes them


def find_cookie_secrets(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    if "cookie" not in scan.lower and not ("-b " in scan.lower and "curl" in scan.lower):  # curl -b sends cookies
        return
    for match in _COOKIE_PAIR.finditer(text):
        value = match["value"].rstrip("=")
        if _is_high_entropy(value) or _is_high_entropy(match["value"]):
            yield "GENERIC_SECRET", *match.span("value")


def find_basic_auth(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    if "basic" not in lower:
        return
    text = scan.text
    for match in _BASIC.finditer(lower):
        start, end = match.span("cred" if match["cred"] is not None else "glued")
        if _decodes_to_credentials(text[start:end]):
            yield "BASIC_AUTH", start, end


# A value as a debugger or PHP dumps it (reviewer BM): var_dump's '["password"]=>' then 'string(13) "..."' on the
# next line, print_r's '[password] => ...', gdb's 'password = 0x5597eb396bf4 "Maple1689&"' (a char pointer and the
# string it points to).
# A REPL's answer too: the prompt's expression ends in a secret's name, the next line is the string it gives
# (">>> os.environ['AWS_SECRET_ACCESS_KEY']" then "'ZMlEKpy/...'": reviewer BP; IPython's "In [3]:" and "Out[3]:",
# irb's "=>").
_DUMPED = lazy_compile(
    r"""\[["']?(?P<key>[A-Za-z][A-Za-z0-9_\-]{0,63})["']?\][ \t]*=>[ \t]*\r?\n?[ \t]*string\([0-9]+\)[ \t]*"""
    r"""(?P<q>")(?P<value>[^"\n]{1,256})"|(?<![A-Za-z0-9_])(?P<ckey>[A-Za-z_][A-Za-z0-9_]{0,63})[ \t]*=[ \t]*"""
    r'0x[0-9a-f]{4,16}[ \t]+"(?P<cvalue>[^"\n]{1,256})"'
    # (the view drops ">>> " at a line's start, as it drops a mail's quoting: then the name is in brackets or quotes;
    # Julia's, Elixir's, Haskell's and R's prompts and answers too: an attacker's round)
    r"""|^(?:(?:>>>|In[ ]\[[0-9]{1,5}\]:|irb\([^)\n]{0,32}\)[:0-9]{0,12}>|pry\([^)\n]{0,32}\)>|julia>"""
    r"""|iex\([0-9]{1,5}\)>|ghci>)[ \t]+[^\n]{0,200}?"""
    r"""(?<![A-Za-z0-9_])(?P<rkey>[A-Za-z_][A-Za-z0-9_]{0,63})["']?"""
    # ... or a line that holds a dotted name alone ("settings.SECRET_KEY", "process.env.API_TOKEN")
    r"""|(?:>>>|>)?[ \t]*[A-Za-z_][A-Za-z0-9_]{0,32}(?:\.[A-Za-z_][A-Za-z0-9_]{0,32}){0,3}"""
    r"""\.(?P<akey>[A-Za-z_][A-Za-z0-9_]{0,63})"""
    r"""|(?:>>>|>|julia>|iex\([0-9]{1,5}\)>|ghci>)?[ \t]*[A-Za-z_][A-Za-z0-9_.:]{0,64}[\[( ]["']"""
    r"""(?P<bkey>[A-Za-z_][A-Za-z0-9_]{0,63})["'](?:,[^\n)]{0,40})?)\]?\)?[ \t]*\r?\n"""
    r"""(?:[ \t]*\.\.\.:[^\n]{0,80}\r?\n)*"""  # IPython's continuation lines
    r"""(?:Out\[[0-9]{1,5}\]:[ \t]*|=>[ \t]*|\[1\][ \t]+|Just[ \t]+)?"""
    r"""(?P<rq>['"])(?P<rvalue>[^'"\n]{1,256})(?P=rq)[ \t]*\r?$""",
    re.MULTILINE,
)


def find_dumped_secrets(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for match in _DUMPED.finditer(text):
        part = "value" if match["key"] is not None else "cvalue" if match["ckey"] is not None else "rvalue"
        key = match["key"] or match["ckey"] or match["rkey"] or match["bkey"] or match["akey"]
        kind = key_kind(key.lower())
        value = match[part]
        if kind is None or not _plausible_value(value, True):
            continue
        if part == "rvalue" and not _repl_secret(value, kind):
            continue
        yield ("PASSWORD" if kind == "PASSWORD" else "GENERIC_SECRET"), *match.span(part)


_REPL_SHORTEST = 8
_REPL_SECRET_SHORTEST = 16
_FINGERPRINT = lazy_compile(r"[0-9A-F]{16}|[0-9A-F]{40}")  # an OpenPGP key's id or fingerprint, as printed


def _repl_secret(value: str, kind: str) -> bool:
    """A REPL's answer is the value whole, under a password's or a secret's name (a bare key's is anything: an S3
    object's key, a release key's public fingerprint, a row's key: an attacker's round): a secret's has a digit and
    is no words ("not set", a translation's "Passwort", a form's "PasswordInput", a hasher's
    "Argon2PasswordHasher" are none: an attacker's round); a password's may be words with a digit and a symbol
    ("Hunter2!xyz")."""
    if kind == "KEY" or len(value) < _REPL_SHORTEST or not value.isprintable() or " " in value:
        return False
    if not any(char.isdigit() for char in value) or _FINGERPRINT.fullmatch(value):
        return False  # a key's fingerprint or id, public ("GPG_KEY" in a Python image: an attacker's round)
    if kind == "PASSWORD":
        return not_words(value) or any(char in PASSWORD_SYMBOLS for char in value)
    # a secret's is random and long, not a lexer's "NUMBER42", a release's "v2.4.1-rc3" or a row's "T_2024_06"
    return _printed_key(value) or (
        len(value) >= _REPL_SECRET_SHORTEST and mixed_case_with_digit(value) and not_words(value)
    )


# SASL's PLAIN in an SMTP, IMAP or POP3 exchange ("AUTH PLAIN AHNpb2Jo...=="; an strace or a debug log: reviewer
# BM): authorization id, user and password apart by NULs, in base64 after the command or alone on the next line.
_SASL_PLAIN = lazy_compile(
    r"(?<![A-Za-z])auth(?:enticate)?[ \t]+plain(?:[ \t]+|\\r\\n|\r?\n)(?P<cred>[A-Za-z0-9+/]{8,}={0,2})"
)


def find_sasl_plain(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for match in _SASL_PLAIN.finditer(scan.lower):
        start, end = match.span("cred")
        if _decodes_to_plain(text[start:end]):
            yield "BASIC_AUTH", start, end


def _decodes_to_plain(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    parts = decoded.split("\x00")
    return len(parts) == _SASL_PARTS and bool(parts[1]) and bool(parts[2]) and "".join(parts).isprintable()


_SASL_PARTS = 3


def _decodes_to_credentials(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    user, colon, password = decoded.partition(":")
    # No user before a long password: a personal access token sent as Basic (Azure DevOps' ":<PAT>").
    return bool(colon and (user or len(password) >= _TOKEN_AS_PASSWORD) and password and decoded.isprintable())


_TOKEN_AS_PASSWORD = 20


# Passwords in mail protocols' transcripts, as a client's debug output or a server's log prints them (reviewer BU):
# IMAP's "a001 LOGIN user password" (either quoted), and SMTP's AUTH LOGIN, whose server asks "334 UGFzc3dvcmQ6" (base64
# of "Password:") and whose client answers with the password in base64 on the next line ("C: bGVudGUt...=").
_IMAP_LOGIN = lazy_compile(
    # a command's tag ("a001", "A1") and the command as clients print it, in capitals: not "Password login — OAuth2.",
    # "2 login attempts failed", "OAuth2 login flow broken" (the suite, an attacker's round)
    r"(?m)^(?:C:[ \t]*|>+[ \t]*)?[A-Za-z]{0,4}[0-9]{1,6}[ \t]+LOGIN[ \t]+"
    r"(?:\"[^\"\n]{1,128}\"|(?=[^\s\"]*[A-Za-z])[^\s\"]{2,128})[ \t]+"
    r"(?:\"(?P<quoted>[^\"\n]{1,128})\"|(?P<atom>[^\s\"]{1,128}))[ \t]*\r?$"
)
_SMTP_PASSWORD = lazy_compile(
    r"(?m)334[ \t]+UGFzc3dvcmQ6[ \t]*\r?\n(?:C:[ \t]*|>+[ \t]*)?(?P<password>[A-Za-z0-9+/]{4,256}={0,2})[ \t]*\r?$"
)


def find_transcript_passwords(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for login in _IMAP_LOGIN.finditer(text):
        group = "quoted" if login["quoted"] is not None else "atom"
        # a password's shape (not "REDACTED", "[hidden]", "yourpassword", "********": an attacker's round)
        if _LOGGED_PASSWORD.search(login[group]) is not None and not _placeholder(login[group]):
            yield "PASSWORD", *login.span(group)
    if "UGFzc3dvcmQ6" in text:
        for answer in _SMTP_PASSWORD.finditer(text):
            if _base64_text(answer["password"]):
                yield "PASSWORD", *answer.span("password")


# A digit or a symbol among its characters, not only a word's joiners ("app-password"), not opening as a literal's,
# a placeholder's or a format's ("{5}", "(hidden)", "%s", "<password>": an attacker's round).
_LOGGED_PASSWORD = lazy_compile(r"^(?![{(%<\[])(?!.*\*{3})(?=.*[0-9!@#$^&*+=?~|;,])")


def _base64_text(value: str) -> bool:
    """Base64 of printable text, eight characters or more: a client's answer, not "QUIT" or "xxxxxxxx"."""
    if len(value) < 8 or len(value) % 4:
        return False
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    return decoded.isprintable() and bool(decoded.strip())


# A property of Spring Boot's /actuator/env (or any JSON that keeps a setting's value in a "value" field under its
# name) whose name says secret: "spring.datasource.password": {"value": "mIsz1d..."}, "app.jwt.signing-key":
# {"value": ...} (reviewer BU). Not a masked value ("******", as the actuator prints one by default).
_PROPERTY_VALUE = lazy_compile(
    # the name's last part the secret's own ("spring.datasource.password", "app.jwt.signing-key"), not a setting of
    # it ("app.password-encoder", "token-endpoint-auth-method", "model.tokenizer", "...token-uri", the environment's
    # "PWD": an attacker's round)
    r"\"(?P<name>(?:[\w\-\[\]]{1,64}\.){0,12}(?:[\w\-]{1,32}[\-_])?(?:password|passwd|secret|secret[\-_]?key"
    r"|signing[\-_]?key|api[\-_]?key|private[\-_]?key|access[\-_]?key|client[\-_]?secret|token|auth[\-_]?token"
    r"|access[\-_]?token|refresh[\-_]?token))\"[ \t]*:[ \t]*\{[ \t\r\n]*"
    r"(?:\"origin\"[ \t]*:[ \t]*\"[^\"\n]{0,256}\"[ \t]*,[ \t\r\n]*)?"
    r"\"value\"[ \t]*:[ \t]*\"(?P<value>[^\"\n]{1,512})\"",
    re.IGNORECASE,
)


_PLAIN_PROPERTY = 16  # letters alone, shorter than this: a word, not a secret


def find_property_secrets(scan: Scan) -> Iterator[Hit]:
    for prop in _PROPERTY_VALUE.finditer(scan.text):
        value = prop["value"]
        if (
            set(value) <= {"*"}
            or _placeholder(value)
            or value.startswith("${")
            or "://" in value
            or value.isdigit()
            or value.lower() in ("true", "false", "null", "none")
            or value.startswith(("/", "~", "Bearer ", "Basic ", "classpath:", "file:"))
            or (_LOGGED_PASSWORD.search(value) is None and len(value) < _PLAIN_PROPERTY)
        ):
            continue  # a path, a header the other readers read, a word ("Required", "bcrypt")
        kind = "PASSWORD" if "pass" in prop["name"].lower() else "GENERIC_SECRET"
        yield kind, *prop.span("value")
