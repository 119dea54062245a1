"""The offsets-only record of where an entity was found."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Finding:
    """Where an entity of ``type`` sits in the scanned text: ``text[start:end]``.

    Offsets only, by design: a Finding can be logged, raised or repr'd without leaking the value.
    """

    type: str
    start: int
    end: int
