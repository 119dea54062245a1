"""detect(): run the detectors asked for, drop what sits inside a replacement, settle overlaps."""

from __future__ import annotations

import sys
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable

import phonenumbers

from securemem.pii.contact import find_emails, find_phones
from securemem.pii.credentials import (
    find_api_keys,
    find_aws_access_keys,
    find_bearer_tokens,
    find_jwts,
    find_private_keys,
)
from securemem.pii.findings import ENTITY_TYPES, REPLACEMENT_FORM, SPECIFICITY, Finding
from securemem.pii.network import find_ip_addresses
from securemem.pii.numeric import find_cards, find_ibans, find_ssns
from securemem.pii.scan import Scan, Span

_DETECTORS: dict[str, Callable[[Scan], Iterable[Span]]] = {
    "EMAIL": find_emails,
    "PHONE": find_phones,
    "CREDIT_CARD": find_cards,
    "IBAN": find_ibans,
    "US_SSN": find_ssns,
    "IP_ADDRESS": find_ip_addresses,
    "AWS_ACCESS_KEY": find_aws_access_keys,
    "API_KEY": find_api_keys,
    "PRIVATE_KEY": find_private_keys,
    "JWT": find_jwts,
    "BEARER_TOKEN": find_bearer_tokens,
}


def detect(text: str, types: Collection[str] | None = None, *, phone_region: str = "US") -> list[Finding]:
    """Non-overlapping findings sorted by start.

    ``types`` limits the scan to those entity types (all of ENTITY_TYPES when None); phone numbers
    written without a country code are read as numbers of ``phone_region``. Where candidates
    overlap, the longer one wins, then the more specific type (a PEM block swallows anything
    inside it; a JWT sent as "Bearer <jwt>" is reported once, as a JWT).
    """
    wanted = entity_types(types)
    check_phone_region(phone_region)
    scan = Scan(text, phone_region)
    candidates = [Finding(name, start, end) for name in wanted for start, end in _DETECTORS[name](scan)]
    if not candidates:
        return []
    return _settle(_outside_replacements(text, candidates))


def entity_types(types: Collection[str] | None) -> tuple[str, ...]:
    """``types`` validated, in ENTITY_TYPES order; all of them for None."""
    if types is None:
        return ENTITY_TYPES
    if isinstance(types, str):
        raise TypeError("types must be a collection of entity type names, not one string")
    unknown = sorted(set(types) - set(ENTITY_TYPES))
    if unknown:
        raise ValueError(f"unknown entity type(s) {', '.join(unknown)}; known: {', '.join(ENTITY_TYPES)}")
    return tuple(name for name in ENTITY_TYPES if name in types)


def check_phone_region(region: str) -> None:
    if region not in phonenumbers.SUPPORTED_REGIONS:
        raise ValueError(f"unknown phone region {region!r}: use an ISO 3166 code such as 'US' or 'GB'")


def _outside_replacements(text: str, candidates: list[Finding]) -> list[Finding]:
    """Drop candidates lying wholly inside a replacement ("[PHONE:2025550143]" holds no phone)."""
    if "[" not in text:
        return candidates
    spans = [match.span() for match in REPLACEMENT_FORM.finditer(text)]
    if not spans:
        return candidates
    return [finding for finding in candidates if not _inside(spans, finding)]


def _inside(spans: list[Span], finding: Finding) -> bool:
    index = bisect_right(spans, (finding.start, sys.maxsize)) - 1
    return index >= 0 and spans[index][1] >= finding.end


def _settle(candidates: list[Finding]) -> list[Finding]:
    """Split candidates into clusters of transitively overlapping ones and settle each alone."""
    candidates.sort(key=lambda finding: (finding.start, finding.end))
    kept: list[Finding] = []
    cluster: list[Finding] = []
    cluster_end = -1
    for finding in candidates:
        if cluster and finding.start >= cluster_end:
            kept.extend(_best_of(cluster))
            cluster = []
        cluster.append(finding)
        cluster_end = max(cluster_end, finding.end) if len(cluster) > 1 else finding.end
    kept.extend(_best_of(cluster))
    return kept


def _best_of(cluster: list[Finding]) -> list[Finding]:
    """Longest first, then most specific; each kept finding excludes those it overlaps."""
    if len(cluster) == 1:
        return cluster
    ranked = sorted(cluster, key=lambda f: (f.start - f.end, -SPECIFICITY[f.type], f.start))
    chosen: list[Finding] = []
    for finding in ranked:
        if all(finding.end <= other.start or other.end <= finding.start for other in chosen):
            chosen.append(finding)
    return sorted(chosen, key=lambda finding: finding.start)
