"""The regions whose national phone numbers a scan reads: checked without loading the scanner (a policy names
them, and a command that loads a policy but never scans, such as most of the CLI's, should not pay for
the detectors' patterns)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import phonenumbers

# The default for a deployment's market; a policy's pii.phone_regions replaces it.
DEFAULT_PHONE_REGIONS: tuple[str, ...] = ("US", "GB", "DE", "FR", "IN")


def check_phone_regions(regions: Sequence[str]) -> tuple[str, ...]:
    """``regions`` as a tuple, each an ISO 3166 code phonenumbers has metadata for; ValueError if not."""
    if isinstance(regions, str):
        regions = (regions,)
    return _checked_regions(tuple(regions))


@lru_cache(maxsize=64)
def _checked_regions(chosen: tuple[str, ...]) -> tuple[str, ...]:
    if not chosen:
        raise ValueError("phone regions must name at least one region, such as ['US']")
    for code in chosen:
        if (
            not isinstance(code, str)
            or code not in phonenumbers.SUPPORTED_REGIONS
            or phonenumbers.PhoneMetadata.metadata_for_region(code) is None
        ):
            raise ValueError(f"unknown phone region {code!r}: use an ISO 3166 code such as 'US' or 'GB'")
    return chosen
