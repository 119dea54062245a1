"""PII and secret detection and scrubbing for text on its way into the store.

``detect`` reports where entities are (offsets only, never values); ``Scrubber`` applies a
per-type action (redact, mask, keyed hash, refuse, allow) and is idempotent: its replacements
are never detected again.

How it works, in one pass per write:

1. Normalise (normalize.py): detectors read a view of the text with invisible characters removed,
   any-script digits made ASCII, Unicode dashes and spaces folded, look-alike letters made Latin and
   NFKC applied; spans map back to the original, whose whole span is replaced.
2. Detect: validated PII (email, phones of the configured regions and any "+" number, Luhn cards,
   mod-97 IBANs, SSN rules, IP addresses), structured secrets (PEM keys, JWTs, bearer and Basic
   credentials, credentials in URLs), a catalogue of 100+ provider token shapes (catalogue.py),
   keyword-anchored secrets (``password: ...``, ``token=...``) and high-entropy values next to
   secret words, plus any plug-in detectors (detectors.py).
3. Settle overlaps (the longer span wins, then the more specific type) and apply the policy's
   action per type; a policy names types or families (PII, SECRET, API_KEY), the most specific entry
   winning (entities.py).

Entity types: every finding has a concrete type (EMAIL, GITHUB_PAT, PASSWORD, ...);
``entity_types()`` lists them, ``ENTITY_TYPES`` is that list when the package was imported.
"""

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from securemem.pii.entities import (
    FAMILY_NAMES,
    Action,
    entity_types,
    families_of,
    members,
    policy_names,
    register_entity_type,
    unregister_entity_type,
)
from securemem.pii.findings import Finding
from securemem.pii.regions import DEFAULT_PHONE_REGIONS

if TYPE_CHECKING:
    from securemem.pii.detectors import (
        Detector,
        DetectorError,
        detect,
        register_detector,
        registered_detectors,
        unregister_detector,
    )
    from securemem.pii.normalize import normalise_text
    from securemem.pii.scrub import Scrubber, ScrubOutcome, keyed_token, normalise

ENTITY_TYPES: tuple[str, ...] = entity_types()

# The scanner's modules compile several hundred patterns when imported (about a third of a second): they load
# on first use of one of these names, so that a command that never scans (most of the CLI's) does not wait.
_LAZY = {
    "Detector": "detectors",
    "DetectorError": "detectors",
    "detect": "detectors",
    "register_detector": "detectors",
    "registered_detectors": "detectors",
    "unregister_detector": "detectors",
    "normalise_text": "normalize",
    "Scrubber": "scrub",
    "ScrubOutcome": "scrub",
    "keyed_token": "scrub",
    "normalise": "scrub",
}


if not TYPE_CHECKING:  # for mypy the names above are imported: a misspelt one is an error, not Any

    def __getattr__(name: str) -> Any:
        module = _LAZY.get(name)
        if module is not None:
            value = getattr(importlib.import_module(f"securemem.pii.{module}"), name)
        elif importlib.util.find_spec(f"securemem.pii.{name}") is not None:
            value = importlib.import_module(f"securemem.pii.{name}")  # a submodule, as the eager imports made them
        else:
            raise AttributeError(f"module 'securemem.pii' has no attribute {name!r}")
        globals()[name] = value  # later lookups find it directly
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "DEFAULT_PHONE_REGIONS",
    "ENTITY_TYPES",
    "FAMILY_NAMES",
    "Action",
    "Detector",
    "DetectorError",
    "Finding",
    "ScrubOutcome",
    "Scrubber",
    "detect",
    "entity_types",
    "families_of",
    "keyed_token",
    "members",
    "normalise",
    "normalise_text",
    "policy_names",
    "register_detector",
    "register_entity_type",
    "registered_detectors",
    "unregister_detector",
    "unregister_entity_type",
]
