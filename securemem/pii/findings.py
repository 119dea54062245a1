"""The entity types the engine knows and the offsets-only record of where one was found."""

from __future__ import annotations

import re
from dataclasses import dataclass

ENTITY_TYPES: tuple[str, ...] = (
    "EMAIL",
    "PHONE",
    "CREDIT_CARD",
    "IBAN",
    "US_SSN",
    "IP_ADDRESS",
    "AWS_ACCESS_KEY",
    "API_KEY",
    "PRIVATE_KEY",
    "JWT",
    "BEARER_TOKEN",
)

# When two candidates cover the same span, the more specific type names it: a JWT or a provider
# key sent as a bearer token is still a JWT or a key; an IP address is not a phone number.
SPECIFICITY: dict[str, int] = {
    name: rank
    for rank, name in enumerate(
        (
            "PHONE",
            "IP_ADDRESS",
            "EMAIL",
            "US_SSN",
            "CREDIT_CARD",
            "IBAN",
            "BEARER_TOKEN",
            "API_KEY",
            "AWS_ACCESS_KEY",
            "JWT",
            "PRIVATE_KEY",
        )
    )
}


@dataclass(frozen=True, slots=True)
class Finding:
    """Where an entity of ``type`` sits in the scanned text: ``text[start:end]``.

    Offsets only, by design: a Finding can be logged, raised or repr'd without leaking the value.
    """

    type: str
    start: int
    end: int


# What Scrubber writes in place of a value: "[EMAIL]", "[PHONE ****4567]", "[EMAIL:1a2b3c4d5e]".
# detect() never reports anything inside one, so scrubbing an already scrubbed text is a no-op.
REPLACEMENT_FORM = re.compile(r"\[(?:" + "|".join(ENTITY_TYPES) + r")(?::[0-9a-f]{10}| \*{4}[A-Za-z0-9]{0,4})?\]")
