"""Scrubber: apply a per-type action to every finding before text is stored."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import get_args

from securemem.pii import entities
from securemem.pii.contact import deobfuscate_email, phone_e164_digits
from securemem.pii.detectors import Detector, Located, locate, registered_detectors
from securemem.pii.entities import Action
from securemem.pii.normalize import MARKUP, View
from securemem.pii.patterns import lazy_compile
from securemem.pii.regions import DEFAULT_PHONE_REGIONS, check_phone_regions

_ACTIONS: frozenset[str] = frozenset(get_args(Action))
_REPLACING: frozenset[str] = frozenset({"redact", "mask", "hash"})
# Replacing a value can expose a neighbour the overlap rules had set aside ("a@b.comjane@b.com",
# or cards run together with spaces: each reads as the tail of the one before until that one is
# replaced), so scrub re-scans until nothing is replaced; that is what makes a second scrub a no-op.
# A run of N such values takes N passes: the passes may read SCAN_BUDGET characters in all (at
# least MIN_PASSES passes), after which values still appearing are refused, never stored.
MIN_PASSES = 16
SCAN_BUDGET = 8 << 20
# A keyed token: 24 hex digits (96 bits) naming the value, then 8 hex digits that authenticate
# the token itself. 96 bits keep two customers apart: a collision is expected only after about
# 2**48 values. The tag lets the scrubber tell its own tokens (left alone) from a token-shaped
# string someone wrote around a real value (scanned like any text): forging one takes 2**32 tries.
_ID_HEX = 24
_TAG_HEX = 8
_TOKEN = lazy_compile(r"\[(?P<type>[A-Z][A-Z0-9_]{1,63}):(?P<id>[0-9a-f]{24})(?P<tag>[0-9a-f]{8})\]")


@dataclass(frozen=True)
class ScrubOutcome:
    """What scrub() made of a text.

    ``text`` is kept out of the repr: when ``refused`` is non-empty it still holds those values.
    """

    text: str = field(repr=False)
    counts: Mapping[str, int]
    refused: tuple[str, ...]
    # Types of which values were still appearing when the passes ran out (a long run of values
    # written together); they are in ``refused`` too, so that no caller stores them.
    unfinished: tuple[str, ...] = ()


def keyed_token(key: bytes, entity: str, normalised: str) -> str:
    """The token a Scrubber with ``key`` writes for a value of ``entity`` whose normal form is ``normalised``."""
    identity = hmac.new(key, f"{entity}\x00{normalised}".encode(), hashlib.sha256).hexdigest()[:_ID_HEX]
    return f"[{entity}:{identity}{_tag(key, entity, identity)}]"


def _tag(key: bytes, entity: str, identity: str) -> str:
    message = f"securemem-token\x00{entity}\x00{identity}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:_TAG_HEX]


class Scrubber:
    """Finds the entity types the ``actions`` reach and applies each type's action.

    ``actions`` maps entity types or families (PII, SECRET, API_KEY) to an action; the most specific
    entry wins (see entities.py). redact -> "[EMAIL]"; mask -> "[CREDIT_CARD ****1111]" (last 4
    letters or digits of the normalised value); hash -> "[EMAIL:<32 hex>]", a keyed HMAC-SHA256 of
    the normalised value (96 bits) and an 8-hex authentication tag, stable per key; refuse -> left
    in place and named in ``refused`` (the caller refuses the write); allow -> left in place.
    Types no entry reaches are not scanned.

    National phone numbers are read in each of ``phone_regions`` in turn (``phone_region`` is the
    older single-region spelling). ``detectors`` are plug-in detectors for this scrubber; None uses
    the ones registered with ``register_detector`` at the time of each scan.
    """

    __slots__ = ("_actions", "_detectors", "_entries", "_hash_key", "_regions", "_wanted")

    def __init__(
        self,
        actions: Mapping[str, Action],
        *,
        hash_key: bytes,
        phone_regions: str | Sequence[str] = DEFAULT_PHONE_REGIONS,
        detectors: Sequence[Detector] | None = None,
        phone_region: str | None = None,
    ) -> None:
        bad = sorted(name for name, action in actions.items() if action not in _ACTIONS)
        if bad:
            raise ValueError(f"unknown action for {', '.join(bad)}; use one of {', '.join(sorted(_ACTIONS))}")
        self._actions: dict[str, Action] = entities.resolve(actions)
        if not isinstance(hash_key, bytes) or not hash_key:
            raise ValueError("hash_key must be non-empty bytes")
        self._regions = check_phone_regions((phone_region,) if phone_region is not None else phone_regions)
        self._entries: dict[str, Action] = dict(actions)
        self._hash_key = hash_key
        self._wanted = frozenset(self._actions)
        self._detectors = None if detectors is None else tuple(detectors)

    def __repr__(self) -> str:
        # Never the key: tokens are only as private as it is.
        return f"Scrubber(actions={self._entries!r}, phone_regions={self._regions!r})"

    @property
    def phone_regions(self) -> tuple[str, ...]:
        return self._regions

    def action_for(self, entity: str) -> Action | None:
        """The action the policy gives ``entity`` (a concrete type), None when it is not scanned."""
        return self._actions.get(entity)

    def scrub(self, text: str) -> ScrubOutcome:
        counts: Counter[str] = Counter()
        refused: set[str] = set()
        unfinished: set[str] = set()
        passes = max(MIN_PASSES, SCAN_BUDGET // max(len(text), 1))
        for _ in range(passes):
            view_text, findings = self._locate(text)
            refused.update(f.type for f in findings if self._actions[f.type] == "refuse")
            text, replaced = self._replace(text, view_text, findings)
            counts.update(replaced)
            if not replaced:
                break
        else:
            _, left = self._locate(text)
            unfinished.update(f.type for f in left if self._actions[f.type] in _REPLACING)
        return ScrubOutcome(
            text,
            MappingProxyType(dict(sorted(counts.items()))),
            tuple(sorted(refused | unfinished)),
            tuple(sorted(unfinished)),
        )

    def contains(self, text: str) -> tuple[str, ...]:
        """Entity types present whose action is not "allow" (sorted, unique)."""
        _, findings = self._locate(text)
        return tuple(sorted({f.type for f in findings if self._actions[f.type] != "allow"}))

    def is_own_token(self, form: str) -> bool:
        """True when ``form`` is a "[TYPE:...]" token this scrubber's key wrote."""
        match = _TOKEN.fullmatch(form)
        return match is not None and hmac.compare_digest(match["tag"], _tag(self._hash_key, match["type"], match["id"]))

    def _locate(self, text: str) -> tuple[View, list[Located]]:
        detectors = registered_detectors() if self._detectors is None else self._detectors
        view, found = locate(text, self._wanted, self._regions, detectors)
        if found and "[" in text:
            found = self._outside_own_tokens(text, found)
        return view, found

    def _outside_own_tokens(self, text: str, found: list[Located]) -> list[Located]:
        """Drop findings lying wholly inside a token this key wrote (a token-shaped fake is scanned)."""
        own = [m.span() for m in _TOKEN.finditer(text) if self.is_own_token(m.group())]
        if not own:
            return found
        # Tokens do not overlap: the one that starts last at or before a finding is the only one that
        # may hold it (a bisection each: a text of many tokens is not read once per finding).
        starts = [start for start, _ in own]
        kept = []
        for finding in found:
            at = bisect_right(starts, finding.start) - 1
            if at < 0 or finding.end > own[at][1]:
                kept.append(finding)
        return kept

    def _replace(self, text: str, view: View, findings: list[Located]) -> tuple[str, list[str]]:
        """``text`` with each replacing finding swapped for its form, and the types replaced."""
        pieces: list[str] = []
        replaced: list[str] = []
        done = 0
        view_text, spaced = view.text, view.spaced
        for finding in findings:
            action = self._actions[finding.type]
            if action in _REPLACING:
                value = view_text[finding.view_start : finding.view_end]
                if spaced:  # a tag the view read as a space is not part of the value
                    value = _without(value, finding.view_start, spaced)
                original = text[finding.start : finding.end]
                if action == "hash" and _holds_marks(original):
                    value = _composed(MARKUP.sub("", original) if "<" in original else original)
                value = _as_seen(value)
                pieces += (text[done : finding.start], self._render(action, finding.type, value))
                replaced.append(finding.type)
                done = finding.end
        pieces.append(text[done:])
        return ("".join(pieces) if replaced else text), replaced

    def _render(self, action: Action, entity: str, value: str) -> str:
        if action == "mask":
            kept = "".join(char for char in value if char.isascii() and char.isalnum())
            # A piece of a value written in parts (a card sent over several chat messages, its halves, its cells) is
            # masked whole: each piece's own last four would show the value, piece by piece (an attacker's round).
            tail = kept[-4:] if len(kept) >= _WHOLE_LENGTH.get(entity, _WHOLE_DEFAULT) else ""
            return f"[{entity} ****{tail}]"
        if action == "hash":
            return keyed_token(self._hash_key, entity, normalise(entity, value, self._regions))
        return f"[{entity}]"


# The fewest letters and digits a whole value of a type holds: a shorter one is a piece, which a mask shows none of.
_WHOLE_LENGTH = {"CREDIT_CARD": 13, "IBAN": 15, "US_SSN": 9, "BANK_ACCOUNT": 7, "PHONE": 7}
_WHOLE_DEFAULT = 0  # other types are found whole: an IP address's "1.2.3.4" keeps its "1234"


def _without(value: str, start: int, spaced: Sequence[int]) -> str:
    """``value`` (at view offset ``start``) without the characters at the view offsets ``spaced``."""
    at = bisect_right(spaced, start - 1)
    if at == len(spaced) or spaced[at] >= start + len(value):
        return value
    pieces, done = [], 0
    while at < len(spaced) and spaced[at] < start + len(value):
        pieces.append(value[done : spaced[at] - start])
        done = spaced[at] - start + 1
        at += 1
    pieces.append(value[done:])
    return "".join(pieces)


def _as_seen(value: str) -> str:
    """A value read across markup, as a reader sees it: its form is made of that."""
    if "<" in value or "*" in value or "_" in value or "~" in value:
        value = MARKUP.sub("", value)
    return value


# A combining mark in a value: the view drops marks one character at a time, so "e" and a combining
# acute read "e", while "é" written as one character reads "é". A token names the value as composed
# (NFC) first, so both spellings of "josé@example.com" get one token, not the token of
# "jose@example.com". (Marks of combining class 0 never compose: NFC leaves them as they are.)
def _holds_marks(value: str) -> bool:
    return not value.isascii() and any(unicodedata.combining(char) for char in value)


def _composed(original: str) -> str:
    """The view of ``original`` composed first (NFC): what a token of a value holding marks names."""
    return View(unicodedata.normalize("NFC", original)).text


def _digits(value: str) -> str:
    return "".join(char for char in value if char.isdigit())


def _ip(value: str) -> str:
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return value


# A quoted local part that needs no quotes names the same mailbox as the bare one
# ("jane.doe"@example.com is jane.doe@example.com): one token for both.
_NEEDLESS_QUOTES = lazy_compile(r'"([\w!#$%&\'*+/=?^`{|}~-]+(?:\.[\w!#$%&\'*+/=?^`{|}~-]+)*)"(?=@)')


def _email(value: str) -> str:
    return _NEEDLESS_QUOTES.sub(r"\1", deobfuscate_email(value).lower(), count=1)


_GROUP_MARKS = lazy_compile(r"[\s.\-/‐‑–—−_]")
_NORMALISERS: dict[str, Callable[[str], str]] = {
    "EMAIL": _email,
    "CREDIT_CARD": _digits,
    "US_SSN": _digits,
    "IBAN": lambda value: value.replace(" ", "").upper(),
    "IP_ADDRESS": _ip,
    # a national number and a bank account written with or without their groups' blanks, dots, dashes or slashes
    # ("BSN 682 090 359", "6820.90.359"; "CPF 853.398.961-02", "85339896102"): one token (an attacker's round)
    "NATIONAL_ID": lambda value: _GROUP_MARKS.sub("", value).upper(),
    "BANK_ACCOUNT": lambda value: _GROUP_MARKS.sub("", value).upper(),
}


def normalise(entity: str, value: str, phone_regions: Sequence[str] = DEFAULT_PHONE_REGIONS) -> str:
    """The form that is hashed, so one customer's value gives one token however it is written.

    ``value`` is the normalised view of the finding (see normalize.py): fullwidth digits and a card split
    by zero-width spaces hash like the plain digits.
    """
    if entity == "PHONE":
        return phone_e164_digits(value, phone_regions)
    return _NORMALISERS.get(entity, _identity)(value)


def _identity(value: str) -> str:
    return value
