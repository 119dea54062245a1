"""The secret catalogue: every rule's vectors, the catalogue's integrity, types and families."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from securemem.pii import (
    DEFAULT_PHONE_REGIONS,
    FAMILY_NAMES,
    Scrubber,
    detect,
    entity_types,
    families_of,
    members,
    policy_names,
)
from securemem.pii.catalogue import ANCHORED, KEYED, PREFIXED, RULES
from securemem.pii.entities import PII_TYPES, STRUCTURAL_SECRET_TYPES, resolve
from securemem.policy import PIISettings, Policy
from tests.helpers import found

VECTORS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "data" / "secret_rules.json").read_text())
KEY = b"k" * 32


# ---------------------------------------------------------------- every rule, both ways


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v['type']}-{i}" for i, v in enumerate(VECTORS)])
def test_positive_vector_is_found_whole_with_its_type(vector: dict[str, Any]) -> None:
    assert (vector["type"], vector["secret"]) in found(vector["text"])


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v['type']}-{i}" for i, v in enumerate(VECTORS)])
def test_negative_vector_is_not_taken_for_that_type(vector: dict[str, Any]) -> None:
    assert vector["type"] not in {kind for kind, _ in found(vector["negative_text"])}


def test_a_refusing_policy_refuses_each_positive_and_redaction_removes_it() -> None:
    refusing = Scrubber({"SECRET": "refuse"}, hash_key=KEY)
    redacting = Scrubber({"SECRET": "redact"}, hash_key=KEY)
    failures = [
        vector["type"]
        for vector in VECTORS
        if vector["type"] not in refusing.scrub(vector["text"]).refused
        or vector["secret"] in redacting.scrub(vector["text"]).text
    ]
    assert failures == []


def test_every_rule_has_a_vector_that_its_own_pattern_matches() -> None:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for vector in VECTORS:
        by_type.setdefault(vector["type"], []).append(vector)
    for rule in RULES:
        assert any(rule.pattern.search(v["text"]) for v in by_type.get(rule.type, ())), rule.type
    for keyed in KEYED:
        assert any(keyed.value.fullmatch(v["secret"]) for v in by_type.get(keyed.type, ())), keyed.type


def test_the_catalogue_is_large_and_every_rule_names_its_source() -> None:
    assert len(PREFIXED) + len(ANCHORED) + len(KEYED) >= 100
    assert len(members("API_KEY")) >= 100
    for source, kind in [(rule.source, rule.type) for rule in RULES] + [(rule.source, rule.type) for rule in KEYED]:
        assert len(source) >= 10, kind
        assert re.fullmatch(r"[A-Z][A-Z0-9_]+", kind)
    for rule in PREFIXED:
        # Rules are indexed by the first two characters of their prefixes.
        assert rule.prefixes and all(len(prefix) >= 2 and not prefix.isspace() for prefix in rule.prefixes)
    for rule in ANCHORED:
        assert rule.anchor and rule.lead >= 0 and rule.tail > 0


def test_catalogue_patterns_are_linear_on_hostile_runs() -> None:
    """Every rule against long runs of its own alphabet and near misses: no catastrophic backtracking."""
    hostile = ["A" * 200_000, "a1" * 100_000, "-" * 200_000, "_" * 200_000, "ghp_" * 50_000, "xoxb-1-" * 30_000,
               "sk-" * 60_000, "0" * 200_000, "AAAA" + ":APA91b" * 30_000, "1//0" * 50_000, ":AA" * 60_000]  # fmt: skip
    for text in hostile:
        assert isinstance(detect(text, types=["API_KEY"]), list)


# ---------------------------------------------------------------- types and families


def test_families_group_every_type() -> None:
    assert set(FAMILY_NAMES) == {"PII", "SECRET", "API_KEY"}
    assert set(PII_TYPES) <= set(members("PII"))  # plug-ins may register more
    assert set(STRUCTURAL_SECRET_TYPES) <= set(members("SECRET"))
    assert set(members("API_KEY")) <= set(members("SECRET"))
    assert "AWS_ACCESS_KEY" in members("API_KEY") and "GITHUB_PAT" in members("API_KEY")
    assert families_of("GITHUB_PAT") == ("API_KEY", "SECRET")
    assert set(policy_names()) == set(FAMILY_NAMES) | set(entity_types())
    assert not set(FAMILY_NAMES) & set(entity_types())


def test_the_most_specific_entry_wins() -> None:
    resolved = resolve({"SECRET": "refuse", "API_KEY": "redact", "GITHUB_PAT": "hash", "EMAIL": "mask"})
    assert resolved["GITHUB_PAT"] == "hash"
    assert resolved["STRIPE_SECRET_KEY"] == "redact"
    assert resolved["PASSWORD"] == "refuse"
    assert resolved["EMAIL"] == "mask"
    assert "PHONE" not in resolved  # no entry reaches it: not scanned


def test_a_family_entry_scrubs_by_the_concrete_type() -> None:
    token = "ghp_" + "Ab1Cd2Ef3G" * 3 + "h4Ij5K"
    scrubber = Scrubber({"SECRET": "redact", "GITHUB_PAT": "allow"}, hash_key=KEY)
    text = f"password: Winter2024! and {token}"
    outcome = scrubber.scrub(text)
    assert outcome.text == f"password: [PASSWORD] and {token}"
    assert scrubber.action_for("GITHUB_PAT") == "allow" and scrubber.action_for("PASSWORD") == "redact"


def test_policies_accept_types_and_families_and_refuse_unknown_names() -> None:
    policy = Policy.model_validate({"pii": {"actions": {"SECRET": "refuse", "GITHUB_PAT": "redact", "PII": "hash"}}})
    assert policy.pii.actions["SECRET"] == "refuse"
    with pytest.raises(ValueError, match="NOT_A_TYPE"):
        Policy.model_validate({"pii": {"actions": {"NOT_A_TYPE": "redact"}}})


def test_old_single_region_policies_still_load() -> None:
    assert Policy.model_validate({"pii": {"phone_region": "GB"}}).pii.phone_regions == ("GB",)
    assert Policy.model_validate({"pii": {"phone_regions": ["IN", "US"]}}).pii.phone_regions[0] == "IN"
    with pytest.raises(ValueError, match="not both"):
        Policy.model_validate({"pii": {"phone_region": "GB", "phone_regions": ["US"]}})
    with pytest.raises(ValueError, match="phone region"):
        Policy.model_validate({"pii": {"phone_regions": ["ZZ"]}})


def test_settings_made_in_python_keep_their_regions_inside_a_policy_and_through_json() -> None:
    """Found by an attacker: a region derived for the older spelling read as set when a Policy
    validated the settings again, and shrank the five default regions to the first."""
    settings = PIISettings(enabled=True)
    policy = Policy(name="p", pii=settings)
    assert policy.pii.phone_regions == settings.phone_regions == DEFAULT_PHONE_REGIONS
    again = Policy.model_validate_json(policy.model_dump_json(exclude_unset=True))
    assert again.model_dump() == policy.model_dump()
