"""The offsets-only record of where an entity was found."""

from __future__ import annotations

from typing import NamedTuple


class Finding(NamedTuple):
    """Where an entity of ``type`` sits in the scanned text: ``text[start:end]``.

    Offsets only, by design: a Finding can be logged, raised or repr'd without leaking the value.
    Immutable; a named tuple (``kind, start, end = finding`` works), made for every value a write
    holds, so it costs no more than a tuple.
    """

    type: str
    start: int
    end: int
