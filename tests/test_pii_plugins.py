"""Plug-in detectors: the interface, the registry, failure handling, and the Presidio adapters."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.util import find_spec

import pytest

from securemem.pii import (
    Detector,
    DetectorError,
    Scrubber,
    detect,
    entity_types,
    register_detector,
    register_entity_type,
    unregister_detector,
    unregister_entity_type,
)
from securemem.pii.presidio import PresidioAnalyzer, PresidioRecognizers, pattern_recognizers

KEY = b"k" * 32


@pytest.fixture(autouse=True)
def employee_ids() -> Iterator[None]:
    """Types registered by a test are removed after it: the registry is process-wide."""
    before = set(entity_types())
    register_entity_type("EMPLOYEE_ID", ("PII",))
    yield
    for name in set(entity_types()) - before:
        unregister_entity_type(name)


class EmployeeIds:
    """An in-house format: E- and six digits."""

    name = "employee-ids"
    types = ("EMPLOYEE_ID",)
    pattern = re.compile(r"\bE-[0-9]{6}\b")

    def find(self, text: str) -> Iterator[tuple[str, int, int]]:
        for match in self.pattern.finditer(text):
            yield "EMPLOYEE_ID", match.start(), match.end()


class Broken:
    name = "broken"
    types = ("EMPLOYEE_ID",)

    def find(self, text: str) -> list[tuple[str, int, int]]:
        raise RuntimeError(f"could not parse {text}")


class OutOfRange:
    name = "out-of-range"
    types = ("EMPLOYEE_ID",)

    def find(self, text: str) -> list[tuple[str, int, int]]:
        return [("EMPLOYEE_ID", 0, len(text) + 5)]


def test_a_plugin_type_can_be_named_by_policies_and_families() -> None:
    assert "EMPLOYEE_ID" in entity_types()
    with pytest.raises(ValueError, match="built-in"):
        unregister_entity_type("EMAIL")
    assert isinstance(EmployeeIds(), Detector)
    scrubber = Scrubber({"PII": "redact"}, hash_key=KEY, detectors=[EmployeeIds()])
    assert scrubber.scrub("badge E-123456 for jane@example.com").text == "badge [EMPLOYEE_ID] for [EMAIL]"
    only = Scrubber({"EMPLOYEE_ID": "hash"}, hash_key=KEY, detectors=[EmployeeIds()])
    assert only.scrub("E-123456").text == only.scrub("E\u2011\uff11\uff12\uff13\uff14\uff15\uff16").text


def test_plugins_see_the_normalised_text_and_spans_map_back() -> None:
    text = "badge E\u2013\u0661\u0662\u0663\u0664\u0665\u0666 ok"  # en dash and Arabic-Indic digits
    findings = detect(text, detectors=[EmployeeIds()])
    assert [(f.type, text[f.start : f.end]) for f in findings] == [("EMPLOYEE_ID", text[6:14])]


def test_registered_plugins_apply_to_every_scrubber() -> None:
    plugin = EmployeeIds()
    register_detector(plugin)
    try:
        assert Scrubber({"EMPLOYEE_ID": "refuse"}, hash_key=KEY).scrub("E-654321").refused == ("EMPLOYEE_ID",)
    finally:
        unregister_detector(plugin)
    assert Scrubber({"EMPLOYEE_ID": "refuse"}, hash_key=KEY).scrub("E-654321").refused == ()


def test_a_failing_plugin_fails_the_scan_without_quoting_the_text() -> None:
    with pytest.raises(DetectorError) as caught:
        detect("secret-ish E-123456 text", detectors=[Broken()])
    assert "E-123456" not in str(caught.value) and "broken" in str(caught.value)
    with pytest.raises(DetectorError, match="outside the text"):
        detect("E-123456", detectors=[OutOfRange()])


def test_plugins_with_unknown_types_are_refused() -> None:
    class Unknown(EmployeeIds):
        types = ("NOT_REGISTERED_TYPE",)

    with pytest.raises(ValueError, match="NOT_REGISTERED_TYPE"):
        register_detector(Unknown())
    with pytest.raises(ValueError, match="upper-case"):
        register_entity_type("lower")
    with pytest.raises(ValueError, match="family"):
        register_entity_type("X_TYPE", ("NOT_A_FAMILY",))


# ---------------------------------------------------------------- Presidio adapters


@dataclass
class FakeResult:
    entity_type: str
    start: int
    end: int
    score: float


class FakeAnalyzer:
    """Stands in for an AnalyzerEngine with a name model: reports "Dana Reyes" as a PERSON."""

    def analyze(self, text: str, language: str, entities: list[str]) -> list[FakeResult]:
        assert language == "en" and entities == ["PERSON"]
        at = text.find("Dana Reyes")
        return [FakeResult("PERSON", at, at + 10, 0.85)] if at >= 0 else []


def test_an_analyzer_engine_adapter_adds_names() -> None:
    detector = PresidioAnalyzer(FakeAnalyzer(), ["PERSON"])
    assert detector.types == ("PERSON",) and "PERSON" in entity_types()
    scrubber = Scrubber({"PII": "redact"}, hash_key=KEY, detectors=[detector])
    assert scrubber.scrub("Dana Reyes, dana@example.com").text == "[PERSON], [EMAIL]"


@pytest.mark.skipif(find_spec("presidio_analyzer") is None, reason="presidio-analyzer is an optional extra")
def test_presidio_pattern_recognizers_as_a_plugin() -> None:
    detector = PresidioRecognizers(pattern_recognizers(["UsPassportRecognizer", "EmailRecognizer"]), min_score=0.0)
    assert "US_PASSPORT" in detector.types and "EMAIL" in detector.types
    scrubber = Scrubber({"US_PASSPORT": "redact", "EMAIL": "redact"}, hash_key=KEY, detectors=[detector])
    assert scrubber.scrub("passport 912803456 for x@example.com").text == "passport [US_PASSPORT] for [EMAIL]"
