"""Short codes a customer gives away, named by the words before them: a card's security code (CVV, CVC,
CID, "cryptogramme", "Prüfziffer"), and one-time codes (OTP, TAN, BLIK, an SMS or verification code, a
passcode), in the languages a bank's, an insurer's and a hospital's service desks write (reviewer T's
blind round: call transcripts, chat logs and fraud notes).

Digits alone are anything; after such a word they are the code ("CVV 020", "security code 958", "zwei
TANs (027276, 251499)", "kod BLIK 321713", "OTP bhi 186068"). A card's code has three or four digits, a
one-time code four to eight (maybe in two groups of three, or read out digit by digit). A year after the
word is no code ("TAN list 2024"), nor an amount or a decimal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

_CARD_LABELS = (
    r"cvv2?|cvc2?|cvn|csc|cid|card verification (?:value|code|number)|(?:card )?security code|sicherheitscode|"
    r"kartenprüfnummer|prüfziffer|prüfnummer|cryptogramme(?: visuel)?|code de sécurité|código de seguridad|"
    r"código de segurança|codice di sicurezza|kod (?:cvc|cvv|zabezpieczający)|"
    r"(?:three|3|four|4)[ \-]digits? on the back"
)
_ONE_TIME_LABELS = (
    r"otp|one[ \-]time (?:pass(?:code|word)|code|pin)|(?:push|sms|chip|mobile|photo|e)?tans?|blik(?: code)?|"
    r"(?:verification|validation|confirmation|authentication|authorisation|authorization|sms|text|2fa|mfa|login) code|"
    r"security number|passcode|code (?:de (?:validation|vérification|confirmation)|sms)|"
    r"código (?:sms|de (?:verificación|verificação|confirmación|confirmação|validación))|"
    r"codice (?:otp|sms|di verifica|di conferma)|kod (?:blik|sms|weryfikacyjny|autoryzacyjny|potwierdzający)|"
    r"bestätigungscode|sicherheitsnummer"
)
# Between the word and the code: a few words, no digit and no line break ("pushTAN bekommen, die ich nicht
# angefordert habe: 844703"), no "=" or "(" but right before the code ("tpl=otp status=FAILED err=30007",
# "authorization code flow with PKCE (RFC 7636)"). After the code: no word character, no "-", "/" or
# ":", no decimal; after a card's, no more digits ("cid 4417 3708 090482 96871" is a card's number).
_GAP = r"\b[^\n0-9\[*•(=]{0,48}?[=(]?[ \t]{0,8}"
_END = r"(?![\w\-/:]|[.,][0-9])"
_CARD_CODE = re.compile(
    rf"(?<![\w\-])(?:{_CARD_LABELS}){_GAP}(?P<value>[0-9]{{3,4}}|[0-9](?:[ \-][0-9]){{2,3}}){_END}(?! [0-9])"
)
_ONE_TIME_CODE = re.compile(
    rf"(?<![\w])(?:{_ONE_TIME_LABELS}){_GAP}"
    rf"(?P<value>[0-9]{{4,8}}|[0-9]{{3}}[ \-][0-9]{{3}}|[0-9](?:[ \-][0-9]){{3,7}}){_END}"
)
# More codes after the first: "TANs (027276, 251499)", "OTP 4411 and 9921".
_MORE = re.compile(rf"[ \t]*(?:,|;|/|and|und|et|y|e|i|oraz)[ \t]*(?P<value>[0-9]{{4,8}}){_END}")
_MORE_CODES = 8
_YEAR = re.compile(r"(?:19|20)[0-9]{2}")

# A word of each label (of several, one word that some of them share: "code" for "passcode", "SMS
# code" and "verification code"): a run of digits whose last _REACH characters hold none has no label
# before it.
_MARKS = (
    "cvv", "cvc", "cvn", "csc", "cid", "verification", "security", "sicherheit", "prüf", "crypto", "sécurité",
    "seguridad", "segurança", "sicurezza", "kod", "back", "otp", "one", "tan", "blik", "code", "sms",
    "código", "codice",
)  # fmt: skip
# Three digits, maybe read out one by one: what every code holds (most notes have none; the patterns
# read only the windows that end at such digits and start _REACH characters before them). Found in the
# scan's canonical copy (digits "0", separators "-"): a pattern led by a literal skips at C speed.
_DIGITS = re.compile(rb"0(?:0|-0)-?0")
_DIGITS_ON = re.compile(r"[0-9 \-]*")
# From a match's start to its code: a label (40 characters at most), a blank, 48 characters, "=" or
# "(", 8 blanks.
_REACH = 128


def _windows(scan: Scan) -> list[tuple[int, int]]:
    """Where a code may be: from _REACH characters before each run of digits whose window holds a
    label's word to two characters after the run (what the patterns' look-ahead reads), merged where
    they meet. A match there is a match of a pass over the whole text, and each match of that pass is
    in one: its code is such a run, its label's word in the characters before."""
    runs = list(_DIGITS.finditer(scan.canonical))
    if not runs:
        return []
    lower = scan.lower
    marks: tuple[str, ...] = _MARKS
    if len(runs) * _REACH >= len(lower):
        # Runs close together (a short line of numbers): the words looked for once in the whole text.
        marks = tuple(mark for mark in _MARKS if mark in lower)
        if not marks:
            return []
    windows: list[tuple[int, int]] = []
    for digits in runs:
        begin = max(0, digits.start() - _REACH)
        before = lower[begin : digits.start()]
        if any(mark in before for mark in marks):
            end = _DIGITS_ON.match(lower, digits.end()).end()  # type: ignore[union-attr]  # matches the empty string
            if windows and begin <= windows[-1][1]:
                windows[-1] = (windows[-1][0], min(len(lower), end + 2))
            else:
                windows.append((begin, min(len(lower), end + 2)))
    return windows


def find_codes(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    windows = _windows(scan)
    for match in _in_windows(_CARD_CODE, lower, windows):
        value = match["value"]
        if not (len(value) == 4 and _YEAR.fullmatch(value)):
            yield "GENERIC_SECRET", *match.span("value")
    text = scan.text
    for match in _in_windows(_ONE_TIME_CODE, lower, windows):
        if len(match["value"]) == 4 and _YEAR.fullmatch(match["value"]):
            continue
        if lower.startswith("tan", match.start()) and not text.startswith("TAN", match.start()):
            continue  # "Mr Tan 5551234": a name; the code is written "TAN"
        if _BRIDGE.search(lower, _line_start(lower, match.start()), match.start()):
            continue  # "Bridge passcode 67474796": a meeting's, anyone's who is invited
        yield "GENERIC_SECRET", *match.span("value")
        end = match.end()
        for _ in range(_MORE_CODES):
            more = _MORE.match(lower, end)
            if more is None or _YEAR.fullmatch(more["value"]):
                break
            yield "GENERIC_SECRET", *more.span("value")
            end = more.end()


_BRIDGE = re.compile(r"dial[ \-]?in|bridge|conference|meeting|webex|zoom")


def _line_start(lower: str, at: int) -> int:
    return lower.rfind("\n", 0, at) + 1


def _in_windows(pattern: re.Pattern[str], lower: str, windows: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    for begin, end in windows:
        yield from pattern.finditer(lower, begin, end)
