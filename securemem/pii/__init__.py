"""PII and secret detection and scrubbing for text on its way into the store.

``detect`` reports where entities are (offsets only, never values); ``Scrubber`` applies a
per-type action (redact, mask, keyed hash, refuse, allow) and is idempotent: its replacements
are never detected again.
"""

from securemem.pii.detectors import detect
from securemem.pii.findings import ENTITY_TYPES, Finding
from securemem.pii.scrub import Action, Scrubber, ScrubOutcome

__all__ = ["ENTITY_TYPES", "Action", "Finding", "ScrubOutcome", "Scrubber", "detect"]
