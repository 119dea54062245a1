"""Scrubber: apply a per-type action to every finding before text is stored."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, get_args

from securemem.pii.contact import phone_e164_digits
from securemem.pii.detectors import check_phone_region, detect, entity_types
from securemem.pii.findings import Finding

Action = Literal["redact", "mask", "hash", "refuse", "allow"]
_ACTIONS: frozenset[str] = frozenset(get_args(Action))
_REPLACING: frozenset[str] = frozenset({"redact", "mask", "hash"})
# Replacing a value can expose a neighbour the overlap rules had set aside ("a@b.comjane@b.com"),
# so scrub re-scans until nothing is replaced; that is what makes a second scrub a no-op. Each
# pass turns raw text into replacement forms that are never detected again, so the loop ends; the
# bound only guards against a bug.
_MAX_PASSES = 8
_HASH_HEX = 10


@dataclass(frozen=True)
class ScrubOutcome:
    """What scrub() made of a text.

    ``text`` is kept out of the repr: when ``refused`` is non-empty it still holds those values.
    """

    text: str = field(repr=False)
    counts: Mapping[str, int]
    refused: tuple[str, ...]


class Scrubber:
    """Finds the entity types named in ``actions`` and applies each type's action.

    redact -> "[EMAIL]"; mask -> "[CREDIT_CARD ****1111]" (last 4 letters or digits);
    hash -> "[EMAIL:1a2b3c4d5e]", a keyed HMAC-SHA256 of the normalised value, stable per key;
    refuse -> left in place and named in ``refused`` (the caller refuses the write);
    allow -> left in place. Types missing from ``actions`` are not scanned.
    """

    __slots__ = ("_actions", "_hash_key", "_phone_region", "_types")

    def __init__(self, actions: Mapping[str, Action], *, hash_key: bytes, phone_region: str = "US") -> None:
        self._types = entity_types(actions)
        bad = sorted(name for name, action in actions.items() if action not in _ACTIONS)
        if bad:
            raise ValueError(f"unknown action for {', '.join(bad)}; use one of {', '.join(sorted(_ACTIONS))}")
        if not isinstance(hash_key, bytes) or not hash_key:
            raise ValueError("hash_key must be non-empty bytes")
        check_phone_region(phone_region)
        self._actions: dict[str, Action] = dict(actions)
        self._hash_key = hash_key
        self._phone_region = phone_region

    def __repr__(self) -> str:
        # Never the key: tokens are only as private as it is.
        return f"Scrubber(actions={self._actions!r}, phone_region={self._phone_region!r})"

    def scrub(self, text: str) -> ScrubOutcome:
        counts: Counter[str] = Counter()
        refused: set[str] = set()
        for _ in range(_MAX_PASSES):
            findings = self._detect(text)
            refused.update(f.type for f in findings if self._actions[f.type] == "refuse")
            text, replaced = self._replace(text, findings)
            counts.update(replaced)
            if not replaced:
                break
        return ScrubOutcome(text, MappingProxyType(dict(sorted(counts.items()))), tuple(sorted(refused)))

    def contains(self, text: str) -> tuple[str, ...]:
        """Entity types present whose action is not "allow" (sorted, unique)."""
        return tuple(sorted({f.type for f in self._detect(text) if self._actions[f.type] != "allow"}))

    def _detect(self, text: str) -> list[Finding]:
        return detect(text, self._types, phone_region=self._phone_region)

    def _replace(self, text: str, findings: list[Finding]) -> tuple[str, list[str]]:
        """``text`` with each replacing finding swapped for its form, and the types replaced."""
        pieces: list[str] = []
        replaced: list[str] = []
        done = 0
        for finding in findings:
            action = self._actions[finding.type]
            if action in _REPLACING:
                value = text[finding.start : finding.end]
                pieces += (text[done : finding.start], self._render(action, finding.type, value))
                replaced.append(finding.type)
                done = finding.end
        pieces.append(text[done:])
        return ("".join(pieces) if replaced else text), replaced

    def _render(self, action: Action, entity: str, value: str) -> str:
        if action == "mask":
            tail = "".join(char for char in value if char.isascii() and char.isalnum())[-4:]
            return f"[{entity} ****{tail}]"
        if action == "hash":
            return f"[{entity}:{self._token(entity, value)}]"
        return f"[{entity}]"

    def _token(self, entity: str, value: str) -> str:
        """First hex digits of HMAC-SHA256(key, type NUL normalised value)."""
        message = f"{entity}\x00{normalise(entity, value, self._phone_region)}".encode()
        return hmac.new(self._hash_key, message, hashlib.sha256).hexdigest()[:_HASH_HEX]


def _digits(value: str) -> str:
    return "".join(char for char in value if char.isdigit())


def _ip(value: str) -> str:
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return value


_NORMALISERS: dict[str, Callable[[str], str]] = {
    "EMAIL": str.lower,
    "CREDIT_CARD": _digits,
    "US_SSN": _digits,
    "IBAN": lambda value: value.replace(" ", "").upper(),
    "IP_ADDRESS": _ip,
}


def normalise(entity: str, value: str, phone_region: str = "US") -> str:
    """The form that is hashed, so one customer's value gives one token however it is written."""
    if entity == "PHONE":
        return phone_e164_digits(value, phone_region)
    return _NORMALISERS.get(entity, _identity)(value)


def _identity(value: str) -> str:
    return value
