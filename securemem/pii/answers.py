"""Passwords written apart from their label: in the next chat message, in brackets after words, after a
qualifier in brackets, or before the colon that opens what they unlock.

The keyword finder reads a label and what its syntax assigns ("password: ...", "password is ...").
People and chat exports also write (reviewers N and O, blind rounds):
- "[09:16] Sam: what's the bastion password" then "[09:16] Tyler: 0I&Gul$uD2  (rotate after)": the
  question names the secret, the answer is the next message's first word;
- "the password you gave on the phone (glacier.meadow77#) didn't work": the value in brackets (or
  in backticks, as chat writes code) a few words after its label;
- "become password (sudo) n0uI3mhB?XMc.": a qualifier in brackets between label and value;
- "Encrypted signing key, passphrase LedgerKey#2231:" then a PEM block: the value, then the colon
  that introduces what it opens.
Words carry none of these marks, so each value must look like a password that no word is: letters
and a digit (or mixed case and a symbol), no spaces, 6 to 64 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.checksums import card_number_valid
from securemem.pii.normalize import normalise_text
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import YEAR, Scan, index_words

Hit = tuple[str, int, int]

# Labels of other scripts as the view writes them (Cyrillic letters that look Latin are Latin there,
# in small and capital letters): "пароль (sudo) ...", "パスワード (sudo) ...", "비밀번호" then the answer.
_SCRIPT_LABELS = tuple(
    {
        normalise_text(spelling).lower()
        for word in ("пароль", "パスワード", "비밀번호", "密码", "密碼", "암호")
        for spelling in (word, word.upper())
    }
)
_LABELS = ("password", "passwort", "passphrase", "pass phrase", "passcode", "passwd", "pwd", "pw", "kennwort",
           "wachtwoord", "mot de passe", "contraseña", "senha", "hasło", *_SCRIPT_LABELS)  # fmt: skip
_LABEL = "|".join(re.escape(label) for label in sorted(_LABELS, key=len, reverse=True))
# Each pattern is tried only where a label starts a word (found by substring searches: no pattern
# steps through ordinary text).
# A question (or a request) that ends its line with the label: "what's the bastion password?",
# "send me the wifi pw pls". Not a format's field list ("hostname:port:database:username:password",
# .pgpass's header: see _NOT_BEFORE), not a heading or a commit's subject ("## Change password": the
# line must end in "?" or hold a word that asks, _ASKING). Possessive blanks: a run of them is read
# once, however the match fails (an attacker's "password" and 2,000 spaces took 43 s).
# A question may go on for a few words after its label ("пароль от wifi?", "비밀번호 뭐예요?", "パスワードは？").
_ASKED = lazy_compile(
    rf"(?:{_LABEL})(?:[ \t]*+(?:(?:\?+|pls|please)[ \t]*+)?|(?:[ \t]*+[^\s?]{{1,12}}){{1,3}}?[ \t]*+\?+[ \t]*+)"
    r"\r?(?:\n|\Z)"
)
_ASKING = lazy_compile(
    r"\?|(?<![\w'])(?:what|what's|whats|which|where|send|share|give|need|pls|please|can|could|qual|cuál|cual|quel|"
    r"welches|wie|hast|tienes|tem|gimme)(?!\w)"
)
_QUESTION_BACK = 96  # characters of the question's line read for a word that asks
# The next line's message (a blank line may come first): a quote mark, up to two bracketed stamps
# ("[2024-12-24 09:16]", "[victim]"), a speaker and a colon, then the first word.
_MESSAGE_HEAD = (
    r"(?:[ \t]*\r?\n)?[ \t]*(?:>[ \t]*)*(?:\[[^\]\n]{1,40}\][ \t]*){0,2}(?:[^\s:\[\]][^\n:\[\]]{0,38}:[ \t]+)?"
)
_ANSWER = lazy_compile(
    _MESSAGE_HEAD + r"(?P<value>[^\s\"'`:,;|]{6,64})(?=[ \t]*(?:\r?$|[ \t]\(|[ \t]{2}|[ \t]-))",
    re.MULTILINE,
)
# "the password you gave on the phone (glacier.meadow77#)": up to eight words, then the value alone in brackets.
# Or in backticks, as chat writes code ("can someone reset the QA db password? it's still `kPU1CYN#...`").
_BRACKETED = lazy_compile(
    rf"(?:{_LABEL})[?!.,]?(?:[ \t]+[^\s()`]{{1,24}}){{1,8}}[ \t]+"
    r"(?:\((?P<value>[^\s()]{8,64})\)|`(?P<code>[^\s`]{8,64})`)"
)
# "become password (sudo) n0uI3mhB?XMc", "password (prod): ...".
_QUALIFIED = lazy_compile(rf"(?:{_LABEL})[ \t]*\([^()\n]{{1,24}}\)[ \t]*(?:[:=]|is)?[ \t]*(?P<value>[^\s\"'`]{{6,64}})")
# "passphrase LedgerKey#2231:" ending its line: the block it opens follows.
_BEFORE_COLON = lazy_compile(rf"(?:{_LABEL})[ \t]+(?P<value>[^\s:\"'`]{{6,64}})[ \t]?:[ \t]*\r?(?:\n|\Z)")
# The label and its value quoted apart, as two messages are: 'then in two msgs: "the pw is" … "Hoa_483"'
# (reviewer R). The label ends in a verb or a colon and closes its quote; an ellipsis, a dash or "then"
# may come before the value's quote (not a comma: '["password", "user_id"]' is a list of names; a label
# alone in quotes is a name too: 'the column "password" — "pwd_hash"'). The label says what the value is:
# letters with a digit or a symbol are enough.
_QUOTED_APART = lazy_compile(
    rf"(?:{_LABEL})(?:[ \t]+(?:is|was|es|é|ist|est)|[ \t]*[:=])[ \t]*[\"”'’][ \t]*(?:…|\.{{2,3}}|[-–—]|then)?"
    r"[ \t]*[\"“'‘](?P<value>[^\"”'’\s]{4,64})[\"”'’]"
)
_CJK = lazy_compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_NOT_BEFORE = frozenset(":/.-_,;|\t")  # a label inside a word, a path, a field list, a table's header, code
_TRAILING = ".,;:!?)"
PASSWORD_SYMBOLS = frozenset("!#$%&*@^~?+=")  # a password's own symbols (accounts.py reads them too)


# The labels without "pass" or "pw".
_OTHER_LABELS = ("kennwort", "wachtwoord", "contraseña", "senha", "hasło", *_SCRIPT_LABELS)


# A lock's code or a PIN asked for, answered by the next message's digits ("and her alarm code?" then
# "[03/02/24, 09:23] Ollie: 3 6 9 1 then tick", "and the profile pin?" then "Hannah: 2207": reviewer W).
# (blanks possessive, each run read once: two runs of them side by side, each giving back to the other, were quadratic
# on a long run: 20 KB of tabs after "pin" took 2 s)
_ASKED_END = r"[ \t]*+(?:(?:pls|please)[ \t]*+)?\?++[ \t]*+\r?(?:\n|\Z)"
_CODE_ASKED = lazy_compile(r"(?:code|pin)" + _ASKED_END)
_CODE_ASKED_LABEL = lazy_compile(
    r"(?<![\w-])(?:(?:door|alarm|gate|garage|safe|lockbox|key ?safe|key ?box|padlock|entry|building|locker|"
    r"profile|atm|card|phone|bike lock|keypad|buzzer|front door|back door)[ \t]+(?:code|pin)|pin|passcode)" + _ASKED_END
)
_CODE_ANSWER = lazy_compile(
    r"(?:[ \t]*\r?\n)?[ \t]*(?:>[ \t]*)*(?:\[[^\]\n]{1,40}\][ \t]*){0,2}(?:[^\s:\[\]0-9][^\n:\[\]]{0,38}:[ \t]+)?"
    r"(?P<value>[0-9]{4,8}|[0-9](?: [0-9]){3,7})(?![0-9A-Za-z]|[.,/:\- ][0-9])"
)


_CODE_QUESTION = lazy_compile(
    r"(?<![^\W\d_])(?:year|when|since|how many|how long|jahr|wann|seit|wie viele|année|quand|combien|año|cuándo|"
    r"cuánt|anno|quando|quant|ano|rok|kiedy|ile|yıl|kaç)(?![^\W\d_])"
)
_CODE_ANSWER_END = lazy_compile(r"[ \t]*(?:\r?$|[.,;!)]|then\b|and\b|pls\b|please\b|x\b)", re.M)


def find_answered_codes(scan: Scan) -> Iterator[Hit]:
    """The code asked for by a line that ends "... alarm code?" or "pin?", on the next line."""
    lower = scan.lower
    for asked in _CODE_ASKED.finditer(lower):
        line = max(lower.rfind("\n", max(0, asked.start() - 96), asked.start()) + 1, asked.start() - 96)
        label = _CODE_ASKED_LABEL.search(lower, max(line, asked.start() - 24), asked.end())
        if label is None or label.end() != asked.end():
            continue
        answer = _CODE_ANSWER.match(lower, asked.end())
        if answer is None or _CODE_QUESTION.search(lower, line, asked.end()) or YEAR.fullmatch(answer["value"]):
            continue  # "¿En qué año se inventó el PIN?" then "1967": a quiz's answer
        if _CODE_ANSWER_END.match(lower, answer.end()) is not None:
            yield "PASSWORD", *answer.span("value")


def may_hold_answered_code(scan: Scan) -> bool:
    lower = scan.lower
    return "?" in lower and ("code" in lower or "pin" in lower)


# A card's number asked for on one line and given as the next message: "bot: Please enter the card number
# you want to dispute." then "user: 4604128209801597" (reviewer AF: a chat bot's transcript). The question
# names the card's number and asks (a "?" or a request's verb); the answer's message is the number alone,
# and it passes Luhn's check. Bare digits elsewhere are an order's, an account's or a ticket's.
_CARD_ASKED = lazy_compile(
    r"(?<![\w-])(?:card[ \t]*(?:number|no\.|#|num)|kartennummer|numéro de (?:la )?carte|número de (?:la )?tarjeta)"
)
# Another number asked for on the same line: the answer may be that one ("your card number or your order
# number", "that card number ... your order number instead": a fresh attacker's round).
_OTHER_NUMBER = lazy_compile(
    r"(?<![\w-])(?:order|reference|booking|tracking|ticket|invoice|account|confirmation|member|policy|case|phone)"
    r"[ \t]*(?:number|no\.|#|num|id)"
)
_CARD_ASKING = lazy_compile(r"\?|(?<![\w'])(?:enter|type|provide|give|send|share|what|what's|whats|need|please)(?!\w)")
_CARD_ANSWER = lazy_compile(r"[^\n]*\r?\n" + _MESSAGE_HEAD + r"(?P<value>[0-9](?:[ \-]?[0-9]){12,18})[ \t]*(?=\r?\n|$)")


_CARD_NAMES = index_words("card", "karte", "carte", "tarjeta")


def may_hold_answered_card(scan: Scan) -> bool:
    return "\n" in scan.text and not _CARD_NAMES.isdisjoint(scan.words)


def find_answered_cards(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    done = 0  # each line is read once, however often it names a card's number (a line of them was quadratic)
    for asked in _CARD_ASKED.finditer(lower):
        if asked.start() < done:
            continue
        line_start = lower.rfind("\n", done, asked.start()) + 1 or done
        line_end = lower.find("\n", asked.end())
        done = len(lower) if line_end == -1 else line_end
        if line_end == -1 or _OTHER_NUMBER.search(lower, line_start, line_end) is not None:
            continue
        if _CARD_ASKING.search(lower, line_start, line_end) is None:
            continue
        answer = _CARD_ANSWER.match(lower, asked.end())
        if answer is not None and card_number_valid(re.sub("[^0-9]", "", answer["value"])):
            yield "CREDIT_CARD", *answer.span("value")
            done = answer.end()


# Labels that hold neither "pass" nor "pw", read from the scan's words (one pass for every gate's).
_LABEL_WORDS = index_words("wort", "woord", "senha")


def may_hold_answered_password(scan: Scan) -> bool:
    lower = scan.lower
    if scan.hints is not None:  # the keyword finder's, when it ran: "pass" and "pw" among them
        if any(lower.startswith(("pass", "pw"), at) for at, _ in scan.hints):
            return True
    elif "pass" in lower or "pw" in lower:
        return True
    return not _LABEL_WORDS.isdisjoint(scan.words) or not lower.isascii()


def _label_starts(scan: Scan) -> list[int]:
    """Where a label may start a word: at "pass" and "pw" (the keyword finder's hints, when it ran),
    before "mot de passe", and at the labels that hold neither."""
    lower = scan.lower
    if scan.hints is not None:
        found = [at for at, _ in scan.hints if lower.startswith(("pass", "pw"), at)]
    else:
        found = [at for hint in ("pass", "pw") for at in _occurrences(lower, hint)]
    found += [at - 7 for at in found if lower.startswith("mot de ", at - 7)]
    if not _LABEL_WORDS.isdisjoint(scan.words) or not lower.isascii():
        found += [at for label in _OTHER_LABELS for at in _occurrences(lower, label)]
    return sorted({at for at in found if at == 0 or (at > 0 and not _inside_word(lower, at))})


def _inside_word(lower: str, at: int) -> bool:
    """The label at ``at`` goes on a word before it (Japanese, Chinese and Korean write no spaces)."""
    before = lower[at - 1]
    if before in _NOT_BEFORE:
        return True
    return before.isalnum() and not _CJK.match(lower, at)


def _occurrences(lower: str, word: str) -> Iterator[int]:
    at = lower.find(word)
    while at != -1:
        yield at
        at = lower.find(word, at + len(word))


def find_answered_passwords(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    for at in _label_starts(scan):
        if not lower.startswith(_LABELS, at):
            continue  # "pass" alone ("needs another pass on"): each pattern below starts with a label
        asked = _ASKED.match(lower, at)
        if asked is not None:
            if asked.group().endswith("\n") and _asks(lower, at, asked.end()):
                answer = _ANSWER.match(lower, asked.end())
                if answer is not None:
                    yield from _value(text, *answer.span("value"))
            continue
        quoted = _QUOTED_APART.match(lower, at)
        if quoted is not None:
            start, end = quoted.span("value")
            if _quoted_value(text[start:end]):
                yield "PASSWORD", start, end
            continue
        bracketed = _BRACKETED.match(lower, at)
        found = bracketed or _QUALIFIED.match(lower, at) or _BEFORE_COLON.match(lower, at)
        if found is not None:
            group = "code" if found is bracketed and found["code"] is not None else "value"
            yield from _value(text, *found.span(group))


def _asks(lower: str, label: int, end: int) -> bool:
    """The label's line asks for it: a question mark, or a word that asks before the label."""
    line = max(lower.rfind("\n", max(0, label - _QUESTION_BACK), label) + 1, label - _QUESTION_BACK)
    return "?" in lower[label:end] or _ASKING.search(lower, line, label) is not None


def _value(text: str, start: int, end: int) -> Iterator[Hit]:
    while end > start and text[end - 1] in _TRAILING and not _balanced_bracket(text, start, end):
        end -= 1
    if _password_like(text[start:end]):
        yield "PASSWORD", start, end


def _balanced_bracket(text: str, start: int, end: int) -> bool:
    return text[end - 1] == ")" and text.count("(", start, end) >= text.count(")", start, end)


# What words, names and references look like with a symbol in them: "issue#12345", "PROJ-1234".
_REFERENCE = lazy_compile(r"(?:[a-z]+|[A-Z]+)[#\-_][0-9]+|v?[0-9]+(?:\.[0-9]+)+(?:[\-+][A-Za-z0-9.]+)?")


def _quoted_value(value: str) -> bool:
    """A value its label names: a letter, and a digit or a symbol; no address, path or placeholder."""
    if "://" in value or value.startswith(("/", "<", "$", "{", "%")) or value.lower() in ("password", "changeme"):
        return False
    if any(word in value.lower() for word in ("pass", "pwd", "wort", "senha", "hash")):
        return False  # 'i18n: "password:" … "Passwort1"': the label's own word, translated
    return any(char.isalpha() for char in value) and any(not char.isalpha() for char in value)


def _password_like(value: str) -> bool:
    """6 to 64 characters with letters and one of a password's own symbols ("!", "#", "$", "%", "&",
    "*", "@", "^", "~", "?", "+", "="): a value these looser forms give is a password only when it
    could be nothing else. Not a reference ("issue#12345"), a version, a call ("check()"), an address,
    a path or a URL."""
    if not 6 <= len(value) <= 64 or "://" in value or value.startswith(("/", "<", "$", "{", "%")):
        return False
    if not any(char.isalpha() for char in value) or _REFERENCE.fullmatch(value) or value.endswith("()"):
        return False
    if "@" in value and "." in value.rsplit("@", 1)[1]:
        return False  # an email address
    return any(char in PASSWORD_SYMBOLS for char in value)
