"""What unlocks an account or a wallet when everything else is lost: seed phrases and recovery codes.

Both are plain words and short codes, random-looking to no detector of token shapes, and both are
named by the text that writes them down ("Recovery phrase (12 words): island kitten ...",
"Recovery codes: 69jxf-1zb6f, ae0kp-3k1jl, ..."; reviewer M's blind round). Only after such a
label: twelve ordinary words are a sentence anywhere else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from securemem.pii import bip39, seeds
from securemem.pii.normalize import as_viewed
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, index_words

Hit = tuple[str, int, int]

# A label, then up to 64 characters of its own ("(12 words)", "for the cold wallet", 'into the chat "so we
# can verify ownership"'), then ":" or "=".
_SEED_LABEL = lazy_compile(
    r"(?:seed|recovery|mnemonic|backup|secret recovery|wallet)[ \t_\-]*(?:phrase|words|mnemonic)|mnemonic"
    # "Ledger seed: ..." (reviewer R), "Backup seed for the Ledger device: ..." (reviewer CR)
    r"|(?:ledger|trezor|wallet|metamask|keystone|bitbox|coldcard|backup|recovery)[ \t]+seed"
    r"(?![ \t_\-]*(?:phrase|words|mnemonic))"
    r"|(?:phrase|frase|phrase de récupération|wiederherstellungsphrase)[ \t]+(?:de[ \t]+)?(?:semilla|récupération)"
    # Indonesian's and Malay's, Spanish's and Portuguese's recovery phrase ("frasa pemulihan pengguna ...": reviewer DA)
    r"|frasa pemulihan|frase de recuperaci[óo]n|frase de recupera[çc][ãa]o"
)
# Or the label ends a chat message that asks for it, and the next message gives it: "[scammer] also the
# 2FA backup codes" then "[victim] 5634 1513 and 4053 6341" (reviewer O): up to two bracketed stamps, a
# speaker and a colon, a word of assent ("ok here:").
_LABEL_TAIL = lazy_compile(
    r"[^\n:=]{0,64}[:=][ \t]*[\"'`]?"
    r"|[^\n:=]{0,40}\r?\n[ \t]*(?:\[[^\]\n]{1,40}\][ \t]*){0,2}(?:[^\s:\[\]][^\n:\[\]]{0,38}:[ \t]+)?"
)
# Or said: "my recovery phrase is weekend praise ... great, please ..." (reviewer AY), the words then ending
# their clause (_SAID_END), as prose of short words seldom does.
_SAID_TAIL = lazy_compile(r"[ \t]+(?:is|was|es|est|ist|é|è)[ \t]+[\"'“«]?")
_SAID_END = lazy_compile(r"[ \t]*(?:$|\r?\n|[.,;!?\"'”»)])")


def _said_seed(lower: str, start: int, end: int) -> bool:
    """A seed phrase said in a sentence ends its clause and is made of BIP-39's words only: "the recovery
    phrase is kept safely offline since nobody should ever write ..." is prose. Not the documented ones
    developers' tools print (an attacker's round: "The default Hardhat mnemonic is test test ... junk",
    "abandon ... about", Ganache's, BIP-39's own test vectors): six words or more apart, none of those."""
    words = _NUMBERING.sub(" ", lower[start:end]).split()
    return (
        _SAID_END.match(lower, end) is not None
        and all(word in bip39.WORDS for word in words)
        and len(set(words)) >= _SAID_DISTINCT
        and " ".join(words) not in bip39.PUBLIC_MNEMONICS
    )


def _wallet_seed(lower: str, label: int, start: int, end: int) -> bool:
    """A "seed" label's words (not "seed phrase"'s: "seed" alone names a garden's, a feeder's, a random generator's
    too: "Recovery seed bank list: wheat barley oat rice ...", an attacker's round) are a wallet's: BIP-39's words, with
    a wallet named before them ("Backup seed for the Ledger device: ...": reviewer CR) or BIP-39's checksum holding."""
    words = _NUMBERING.sub(" ", lower[start:end]).split()
    if not all(word in bip39.WORDS for word in words):
        return False
    return _WALLET_NAMED.search(lower, label, start) is not None or bip39.checksum_holds(words)


_WALLET_NAMED = lazy_compile(
    r"ledger|trezor|wallet|metamask|keystone|bitbox|coldcard|crypto|bitcoin|ethereum|btc|eth\b"
)


_SAID_DISTINCT = 6


# BIP-39's counts of words; its words are lower-case letters, 3 to 8 of them, maybe numbered ("1.yellow 2.puzzle").
_SEED_WORD = r"(?:[0-9]{1,2}[.)][ \t]*)?[a-z]{3,8}"
# A terminal may wrap them over lines (reviewer Q: 24 words over two).
_SEED_WORDS = lazy_compile(rf"{_SEED_WORD}(?:(?:[ \t]+|[ \t]*\r?\n[ \t]*){_SEED_WORD}){{11,23}}\b")
_NUMBERING = lazy_compile(r"[0-9]{1,2}[.)]")
_SEED_COUNTS = frozenset({12, 15, 18, 21, 24})
_LINE_WORDS = lazy_compile(r"[^\n]+")

_CODES_LABEL = lazy_compile(
    r"(?:recovery|backup|2fa|mfa|scratch|one[ \-]time|emergency|rescue|wiederherstellungs|códigos de|codes de)"
    r"[ \t_\-]*(?:codes?|kódy|codici|códigos|récupération)"
    r"|(?:2fa|mfa|totp|otp)[ \t_\-]+backup(?=[ \t]*:)"  # "Binance 2FA backup: PSDV-ZSW3-G7P5" (reviewer R)
    # Japanese's, Chinese's and Korean's backup and recovery codes ("二段階認証バックアップコード：
    # ８ｄ７ｂ８－２９８６３、７ａａｂｄ－５０５ａａ", the view's ASCII: reviewer CW)
    # (right before its colon: "バックアップコード関連チケット：AUTH-4521" lists tickets, an attacker's round)
    r"|(?:バックアップコード|リカバリーコード|リカバリコード|备用码|備用碼|恢复码|恢復碼|백업 ?코드|복구 ?코드)"
    r"(?=[ \t]*[:：])"
)
# One code: letters and digits, in one to four groups joined by dashes, or two groups of digits joined by a
# space ("4821 9932"), a digit in it; codes are
# separated by commas, spaces or list markers. Read until the first thing that is not one.
_CODE = lazy_compile(r"[0-9]{3,5} [0-9]{3,5}(?![A-Za-z0-9])|[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{3,12}){0,3}")
_CODE_GAP = lazy_compile(r"[ \t]*(?:[,;、][ \t]*|\n[ \t]*(?:[-*•][ \t]+|[0-9]{1,2}[.)][ \t]+)?|[ \t]+(?:and[ \t]+)?)")
_MAX_CODES = 32
_SEED_OVERHANG = 3 * 9  # characters read past the words for a phrase's last words (three words of eight letters)


# The words every label ends with: the patterns are searched only just before them (an alternation
# that no literal leads is tried at every character of the text: a tenth of a whole scan's time).
_SEED_WORDS_AT = ("phrase", "words", "mnemonic", "semilla", "récupération", "seed", "pemulihan", "recupera")
_CODE_WORDS_AT = (
    "code", "kódy", "codici", "códigos", "récupération", "backup", "コード", "备用码", "備用碼", "恢复码", "恢復碼",
    "코드",
)  # fmt: skip
_REACH = 48  # how far before its last word a label may start


_RECOVERY_WORDS = index_words(
    "code", "backup", "phrase", "words", "mnemonic", "semilla", "seed", "totp", "otp secret", "otp key", "2fa", "mfa",
    "authenticator", "bitlocker", "recovery key", "pemulihan", "frase de recupera"
)  # fmt: skip
# A BitLocker recovery key: 48 digits in eight groups of six joined by dashes, a shape nothing else has, where the
# text names BitLocker or a recovery key ("the BitLocker recovery key for laptop LT-0912 is 418253-602193-...":
# reviewer CY). Microsoft's own keys have each group a multiple of eleven; written down by hand they need not be.
_BITLOCKER_WORDS = ("bitlocker", "recovery key")
_BITLOCKER_DIGITS = 48
# ... named before it in its sentence, on its line, within _BITLOCKER_BACK characters (a draw's, a barcode's or a
# trace's 48 digits in a text that names a recovery key elsewhere are none: an attacker's round)
_BITLOCKER_NAMED = lazy_compile("|".join(_BITLOCKER_WORDS))
_BITLOCKER_BACK = 96


def _bitlocker_keys(text: str, lower: str) -> Iterator[Hit]:
    for match in _BITLOCKER_KEY.finditer(text):
        start = match.start()
        # (in its sentence: "The recovery key is stored in Intune. Tracking: <48 digits>" names none)
        stop = lower.rfind(". ", 0, start)
        low = max(lower.rfind("\n", 0, start) + 1, stop + 2 if stop != -1 else 0, start - _BITLOCKER_BACK)
        if _BITLOCKER_NAMED.search(lower, low, start) is None:
            continue
        groups = match.group().split("-")
        # an example's: one group eight times, or groups counting up by one ("123456-123456-...", "000001-000002-...")
        if len(set(groups)) == 1 or all(int(b) - int(a) == 1 for a, b in pairwise(groups)):
            continue
        yield "GENERIC_SECRET", *match.span()


_BITLOCKER_KEY = lazy_compile(r"(?<![0-9\-])[0-9]{6}(?:-[0-9]{6}){7}(?![0-9]|-[0-9])")
_OTP_WORDS = ("totp", "otp", "2fa", "mfa", "authenticator")

# An authenticator's shared secret (RFC 6238's TOTP seed, base32, often shown in groups of four): "TOTP seed:
# TX4I2SVM...", "TOTP secret as shown in the app: VM43 Y62I GITA ..." (reviewer AV). After its label only,
# sixteen characters of base32 or more with a digit: what an authenticator app takes.
# "Key" after TOTP's, OTP's or an authenticator's name only: a 2FA or an MFA key is a hardware key too ("2FA
# key fob serial: ..."). The words between the label and its colon say how it is shown ("as shown in the
# app"), not what else it is ("serial", "asset tag", "vault name": an attacker's round).
# (or the secret's word first, in more languages: "Секрет TOTP для рабочего VPN (...): m3ti dsyq ...", reviewer CW)
_OTP_LABEL = lazy_compile(
    r"(?<![a-z])(?:(?:t?otp|authenticator)[ \t_\-]*(?:seed|secret|key)|(?:2fa|mfa)[ \t_\-]*(?:seed|secret)"
    rf"|(?:secret|secreto|segredo|geheimnis|sekret|{as_viewed(('секрет',))})[ \t]+(?:t?otp|2fa|mfa))(?![a-z])"
)
# ... or a blank alone, the secret right after its label ("TOTP seed Q6TGCERNJAFNPMNRVA6STQOSK3PYFWKJ.":
# reviewer AZ).
_OTP_TAIL = lazy_compile(
    rf"(?:[ \t]+(?:as|in|from|for|shown|para|für|pour|per|dla|{as_viewed(('для',))}|\()[^\n:=]{{0,48}})?"
    r"[ \t]*[:=][ \t]*"
    r"|[ \t]+"
)
# Base32 in one case (an app shows it in capitals, some in small letters): mixed case is a name
# ("GoogleAuthenticator2", "ProdMfaVault2345"); in groups of four, one at least mixing letters and digits
# ("test user mail 2345" is words).
_OTP_SECRET = lazy_compile(
    r"(?:[A-Z2-7]{4}(?:[ ]?[A-Z2-7]{4}){3,15}|[a-z2-7]{4}(?:[ ]?[a-z2-7]{4}){3,15})=*(?![A-Za-z0-9])"
)
_OTP_DISTINCT = 8
_MIXED_GROUP = lazy_compile(r"(?=[A-Za-z]*[2-7])(?=[2-7]*[A-Za-z])[A-Za-z2-7]{4,}")


def may_hold_recovery_secret(scan: Scan) -> bool:
    if not _RECOVERY_WORDS.isdisjoint(scan.words):  # the scan's words: one pass for every gate's
        return True
    lower = scan.lower
    return not lower.isascii() and any(word in lower for word in _CODE_WORDS_OTHER)


_CODE_WORDS_OTHER = ("kódy", "códigos", "récupération", "コード", "码", "碼", "코드")


def _around(scan: Scan, words: tuple[str, ...], pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` that end at one of ``words`` (or just after it), in order."""
    lower = scan.lower
    found: dict[int, re.Match[str]] = {}
    for word in words:
        for at in scan.places(word) if word in _RECOVERY_WORDS else _places(lower, word):
            label = pattern.search(lower, max(0, at - _REACH), at + len(word) + 16)
            if label is not None:
                found.setdefault(label.start(), label)
    done = 0
    for start in sorted(found):
        if start >= done:
            done = found[start].end()
            yield found[start]


def _places(lower: str, word: str) -> Iterator[int]:
    """Where ``word`` starts, each place after the previous one's end (Scan.places for a word it lacks)."""
    at = lower.find(word)
    while at != -1:
        yield at
        at = lower.find(word, at + len(word))


# GitHub's recovery codes: pairs of five hexadecimal digits ("e7220-bb497"), listed in a grid of
# 16. Four or more in a row, only blanks between them, in a text that speaks of codes, are that list
# wherever its label is.
# The pattern starts at the dash (a literal: the engine skips to each one at C speed); a code starts
# five characters before.
_HEX_CODE = lazy_compile(r"-(?<=(?<![\w-])[0-9a-f]{5}-)[0-9a-f]{5}(?![\w-])")
_GRID_CODES = 4


def _hex_code_grid(text: str) -> Iterator[Hit]:
    run: list[tuple[int, int]] = []
    for code in _HEX_CODE.finditer(text):
        start, end = code.start() - 5, code.end()
        if run and text[run[-1][1] : start].strip():
            if len(run) >= _GRID_CODES:
                yield from (("GENERIC_SECRET", *found) for found in run)
            run = []
        run.append((start, end))
    if len(run) >= _GRID_CODES:
        yield from (("GENERIC_SECRET", *found) for found in run)


# Labels read since stop 68, whose words must be BIP-39's ("frase semilla" before Spanish's own list is older)
_NEW_SEED_LABELS = ("frasa pemulihan", "frase de recupera")


def _mostly_bip39(words: str) -> bool:
    """Three in four of the words are BIP-39's (English's list, which wallets use whatever the text's language)."""
    found = _NUMBERING.sub(" ", words).split()
    return bool(found) and sum(word.strip("\"'“”.,") in bip39.WORDS for word in found) * 4 >= len(found) * 3


def _seed_end(lower: str, words: re.Match[str]) -> int | None:
    """Where the phrase ends: after the most lines that hold one of BIP-39's counts of words, each
    line after the first read whole (the words the pattern took of a next line of prose, "The next
    line", are not the phrase's)."""
    best = None
    count = 0
    for line in _LINE_WORDS.finditer(lower, words.start(), words.end()):
        count += len(_NUMBERING.sub(" ", line.group()).split())
        whole = line.end() == len(lower) or lower[line.end()] in "\r\n"
        if count in _SEED_COUNTS and (whole or line.start() == words.start()):
            best = line.end()
    return best


def find_recovery_secrets(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    if "code" in scan.words and "-" in lower:  # the grid where the text speaks of codes ("Each code can be used once")
        yield from _hex_code_grid(lower)
    for label in _around(scan, _SEED_WORDS_AT, _SEED_LABEL):
        tail = _LABEL_TAIL.match(lower, label.end())
        said = tail is None and (tail := _SAID_TAIL.match(lower, label.end())) is not None
        if tail is None:
            continue
        start = tail.end() + 1 if lower.startswith("\n", tail.end()) else tail.end()  # the words may start a line
        words = _SEED_WORDS.match(lower, start)
        end = _seed_end(lower, words) if words is not None else None
        if end is None or (said and not _said_seed(lower, start, end)):
            continue
        if label.group().endswith("seed") and not _wallet_seed(lower, label.start(), start, end):
            continue
        if label.group().startswith(_NEW_SEED_LABELS) and not _mostly_bip39(lower[start:end]):
            continue  # "Frasa pemulihan: tulis dua belas kata ...": help's words, no phrase (an attacker's round)
        # The words read after a label are its count's first; a word or three between the label and the phrase
        # ("Recovery phrase: please <24 words>") left the phrase's last ones out (the attacker of the README's
        # promises): a window whose checksum holds, overlapping these words, is joined with them.
        for _, seed_start, seed_end in seeds.seed_spans(lower, start, min(len(lower), end + _SEED_OVERHANG)):
            if seed_start < end:
                start, end = min(start, seed_start), max(end, seed_end)
        yield "GENERIC_SECRET", start, end
    if any(word in scan.words for word in _OTP_WORDS) or "otp" in lower:
        yield from _otp_secrets(scan.text, lower)
    if any(word in scan.words for word in _BITLOCKER_WORDS) and scan.most_digits >= _BITLOCKER_DIGITS:
        yield from _bitlocker_keys(scan.text, lower)
    for label in _around(scan, _CODE_WORDS_AT, _CODES_LABEL):
        tail = _LABEL_TAIL.match(lower, label.end())
        if tail is None:
            continue
        first = _CODE_GAP.match(scan.text, tail.end())  # the list may start on the next line
        told = _TAIL_WORDS.findall(lower, label.end(), tail.end())
        plain = _PLAIN_TAIL.issuperset(told)
        whose = not plain and told[0] in _WHOSE_CODES
        yield from _codes(scan.text, first.end() if first is not None else tail.end(), plain=plain, whose=whose)


# The words a label of codes may have before its colon and still name them ("MFA backup codes left: ..."); any
# other word names what follows ("Backup codes helpdesk hours: 0900-1700, ...", "... cost centre: 4100-2200":
# an attacker's round).
_TAIL_WORDS = lazy_compile(r"[^\W\d_]+")
_PLAIN_TAIL = frozenset(
    {"left", "remaining", "unused", "new", "below", "here", "are", "is", "the", "list", "still", "my"}
)
# A clause that says whose the codes are ("MFA recovery codes for the break-glass root account: ...": reviewer CY).
_WHOSE_CODES = frozenset({"for", "of", "für", "pour", "para", "per", "voor", "do", "da", "dla"})


def _otp_secrets(text: str, lower: str) -> Iterator[Hit]:
    for label in _OTP_LABEL.finditer(lower):
        tail = _OTP_TAIL.match(lower, label.end())
        if tail is None:
            continue
        value = _OTP_SECRET.match(text, tail.end())
        if (
            value is not None
            and any(_MIXED_GROUP.fullmatch(group) for group in value.group().rstrip("=").split())
            and len(set(value.group())) >= _OTP_DISTINCT  # not "AAAAAAAAAAAAAAA2"
        ):
            yield "GENERIC_SECRET", value.start(), value.end()


def _codes(text: str, at: int, *, plain: bool = True, whose: bool = False) -> Iterator[Hit]:
    """The codes of a list starting at ``at``: each code alone, as a reader would cross it out. ``plain``: the
    label named the codes and nothing else before its colon; ``whose``: it named them and whose they are."""
    found: list[Hit] = []
    stopped = False  # the list's sentence ended at a full stop after its last code
    while len(found) < _MAX_CODES:
        code = _CODE.match(text, at)
        if code is None or (code.end() < len(text) and (text[code.end()].isalnum() or text[code.end()] in "_@/")):
            break
        if text.startswith(".", code.end()):
            if code.end() + 1 < len(text) and not text[code.end() + 1].isspace():
                break  # a file's or a host's name goes on
            stopped = (
                True  # a full stop and a blank end the list's sentence ("...: 9921-3557, 7601-4327.": reviewer BB)
            )
        value = code.group()
        digits = sum(char.isdigit() for char in value)
        # A digit in it, and 8 digits when it has nothing else: "123456, 654321 are examples" of the
        # six-digit codes an authenticator shows (gone in seconds), not a list of backup codes.
        if not digits or len(value) < 6 or (digits == len(value.replace(" ", "").replace("-", "")) and digits < 8):
            break
        found.append(("GENERIC_SECRET", code.start(), code.end()))
        gap = _CODE_GAP.match(text, code.end())
        if gap is None or gap.end() == code.end():
            break
        at = gap.end()
    # One code alone after the label may be a reference ("backup code: 2024Q3"); two or more are the list.
    # A code alone is one when a reference would not be written so: eight digits or more, or letters
    # and digits in two groups of four or more ("recovery code: 4HF8-92KD"). A list that ends its sentence
    # holds codes only so shaped, or two groups of four digits: names and numbers glued are a spec's, a
    # ticket's, a model's ("Backup codes spec: RFC4226 and RFC6238.": an attacker's round).
    if stopped and not (
        len(found) >= 2
        and (
            (plain and all(_stopped_code(text[start:end]) for _, start, end in found))
            # whose: letters and digits drawn in each group ("7hq2-9kdw"), not hours, numbers or an issue's
            # key ("0900-1700", "10482913", "SEC4-1182": an attacker's round)
            or (whose and all(_MIXED_GROUPS.fullmatch(text, start, end) for _, start, end in found))
        )
    ):
        # and two codes at least (one alone before a stop is a change's or a ticket's number): else the last is
        # read as the list's tail was before (a sentence's word and number), and the others stand as they are
        found = found[:-1]
    if len(found) >= 2 or (found and _lone_code(text[found[0][1] : found[0][2]])):
        yield from found


_MIXED_GROUPS = lazy_compile(
    r"(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{4,6}(?:-(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{4,6})+"
)
_FOUR_FOUR = lazy_compile(r"[0-9]{4}(?:[ \-][0-9]{4}){1,3}")


def _stopped_code(value: str) -> bool:
    return _lone_code(value) or _FOUR_FOUR.fullmatch(value) is not None


# Of two groups, each holds a digit ("WEEK-2024" is a name), the code a letter; three or four groups of
# four ("PSDV-ZSW3-G7P5"), a digit and a letter somewhere.
_LONE_CODE = lazy_compile(
    r"[0-9]{8,12}|(?=[A-Za-z0-9-]*[A-Za-z])(?=[A-Za-z]*[0-9])[A-Za-z0-9]{4,6}-(?=[A-Za-z]*[0-9])[A-Za-z0-9]{4,6}"
    r"|(?=[A-Za-z0-9-]*[A-Za-z])(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9]{4}(?:-[A-Za-z0-9]{4}){2,3}"
)
_DATE_DIGITS = lazy_compile(r"(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])")  # "20240315"


def _lone_code(value: str) -> bool:
    return _LONE_CODE.fullmatch(value) is not None and _DATE_DIGITS.fullmatch(value) is None
