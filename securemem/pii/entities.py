"""Entity types, the families that group them, and how a policy's actions resolve to each type.

Every finding has a *concrete type*: EMAIL, PHONE, GITHUB_PAT, PASSWORD, ... A policy may name a
concrete type or a *family* in ``[pii.actions]``:

- ``PII``: EMAIL, PHONE, CREDIT_CARD, IBAN, US_SSN, IP_ADDRESS, BANK_ACCOUNT, NATIONAL_ID.
- ``SECRET``: every secret type: PRIVATE_KEY, JWT, BEARER_TOKEN, BASIC_AUTH, URL_CREDENTIALS,
  PASSWORD, GENERIC_SECRET, HIGH_ENTROPY_SECRET and all of API_KEY.
- ``API_KEY``: the provider catalogue (100+ types such as GITHUB_PAT, SLACK_BOT_TOKEN,
  STRIPE_SECRET_KEY, AWS_ACCESS_KEY, AWS_SECRET_KEY, ANTHROPIC_API_KEY).

The most specific entry wins: a concrete type's own entry, else its nearest family (API_KEY before
SECRET). So ``SECRET = "refuse"`` with ``GITHUB_PAT = "redact"`` refuses every secret but redacts
GitHub tokens, and a policy written before the catalogue (``API_KEY = "refuse"``) still covers every
provider key. A type that resolves to no action is not scanned.

A deployment adds its own types with ``register_entity_type`` (for a plug-in detector); they join
the families given and can be named in policies like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, TypeVar

from securemem.pii.catalogue import CATALOGUE_TYPES
from securemem.pii.patterns import lazy_compile

Action = Literal["redact", "mask", "hash", "refuse", "allow"]
A = TypeVar("A")

PII_TYPES: tuple[str, ...] = (
    "EMAIL",
    "PHONE",
    "CREDIT_CARD",
    "IBAN",
    "US_SSN",
    "IP_ADDRESS",
    "BANK_ACCOUNT",
    "NATIONAL_ID",
)
# Secrets found by a detector of their own rather than a catalogue rule.
STRUCTURAL_SECRET_TYPES: tuple[str, ...] = (
    "PRIVATE_KEY",
    "JWT",
    "BEARER_TOKEN",
    "BASIC_AUTH",
    "URL_CREDENTIALS",
    "PASSWORD",
    "GENERIC_SECRET",
    "HIGH_ENTROPY_SECRET",
)
_PROVIDER_TYPES = tuple(name for name in CATALOGUE_TYPES if name not in STRUCTURAL_SECRET_TYPES)

_FAMILIES: dict[str, tuple[str, ...]] = {}  # concrete type -> its families, nearest first
for _name in PII_TYPES:
    _FAMILIES[_name] = ("PII",)
for _name in STRUCTURAL_SECRET_TYPES:
    _FAMILIES[_name] = ("SECRET",)
for _name in _PROVIDER_TYPES:
    _FAMILIES[_name] = ("API_KEY", "SECRET")

FAMILY_NAMES: tuple[str, ...] = ("PII", "SECRET", "API_KEY")
_BUILTIN = frozenset(_FAMILIES)

# When two candidates cover the same span, the more specific type names it: a JWT or a provider key
# sent as a bearer token or after "password:" is still a JWT or a key; an IP address is not a phone
# number; a value after "password:" is a password even when it looks like a phone number.
_RANK: dict[str, int] = {
    "HIGH_ENTROPY_SECRET": 0,
    "PHONE": 10,
    "IP_ADDRESS": 11,
    "EMAIL": 12,
    "US_SSN": 13,
    "CREDIT_CARD": 14,
    "IBAN": 15,
    "NATIONAL_ID": 16,  # after the label of its country's number, its check digit holding
    "BANK_ACCOUNT": 9,  # after an account's label; a number there that is a phone's or a card's is named so
    "GENERIC_SECRET": 20,
    "PASSWORD": 21,
    "URL_CREDENTIALS": 22,
    "BEARER_TOKEN": 23,
    "BASIC_AUTH": 24,
    "SK_API_KEY": 25,
    "AWS_ACCESS_KEY": 41,
    "JWT": 50,
    "PRIVATE_KEY": 60,
}
_VERSION = [0]  # bumped by register_entity_type: caches keyed on it see new types
_PROVIDER_RANK = 40
_CUSTOM_RANK = 30
_NAME = lazy_compile(r"^[A-Z][A-Z0-9_]{1,63}$")


def version() -> int:
    """Changes whenever a type is registered."""
    return _VERSION[0]


def entity_types() -> tuple[str, ...]:
    """Every concrete type, built-in and registered, in a stable order."""
    return tuple(_FAMILIES)


def families_of(name: str) -> tuple[str, ...]:
    return _FAMILIES.get(name, ())


def members(family: str) -> tuple[str, ...]:
    return tuple(name for name, families in _FAMILIES.items() if family in families)


def rank(name: str) -> int:
    """Higher is more specific (wins a tie between candidates of the same span)."""
    found = _RANK.get(name)
    if found is None:
        found = _RANK[name] = _PROVIDER_RANK if "API_KEY" in _FAMILIES.get(name, ()) else _CUSTOM_RANK
    return found


def policy_names() -> tuple[str, ...]:
    """What ``[pii.actions]`` accepts: every concrete type and every family."""
    return (*FAMILY_NAMES, *entity_types())


def register_entity_type(name: str, families: Iterable[str] = ("PII",), *, specificity: int = _CUSTOM_RANK) -> None:
    """Add a type a plug-in detector reports, so policies can act on it (idempotent for one name)."""
    if not _NAME.match(name) or name in FAMILY_NAMES:
        raise ValueError(f"entity type names are upper-case letters, digits and _, not a family: {name!r}")
    chosen = tuple(families)
    unknown = sorted(set(chosen) - set(FAMILY_NAMES))
    if unknown:
        raise ValueError(f"unknown family {unknown[0]!r}; known: {', '.join(FAMILY_NAMES)}")
    if name in _FAMILIES and _FAMILIES[name] != chosen:
        raise ValueError(f"entity type {name} is already registered with other families")
    if name not in _FAMILIES:
        _VERSION[0] += 1
    _FAMILIES[name] = chosen
    _RANK.setdefault(name, specificity)


def unregister_entity_type(name: str) -> None:
    """Remove a type added by register_entity_type (built-in types stay)."""
    if name in _BUILTIN:
        raise ValueError(f"{name} is a built-in entity type")
    if _FAMILIES.pop(name, None) is not None:
        _RANK.pop(name, None)
        _VERSION[0] += 1


def check_names(names: Iterable[str]) -> None:
    """Raise ValueError naming the first unknown type or family."""
    known = set(policy_names())
    unknown = sorted(set(names) - known)
    if unknown:
        raise ValueError(
            f"unknown entity type {unknown[0]!r}; use a family ({', '.join(FAMILY_NAMES)}) or a type "
            f"such as {', '.join(PII_TYPES + STRUCTURAL_SECRET_TYPES[:3])} (securemem.pii.entity_types() lists all)"
        )


def resolve(actions: Mapping[str, A]) -> dict[str, A]:
    """The action of every concrete type the entries reach: its own entry, else its nearest family's."""
    check_names(actions)
    resolved: dict[str, A] = {}
    for name, families in _FAMILIES.items():
        for key in (name, *families):
            if key in actions:
                resolved[name] = actions[key]
                break
    return resolved
