"""Adapters that run Microsoft Presidio as securemem plug-in detectors (optional extra).

Install with ``pip install 'securemem[presidio]'`` (presidio-analyzer; pattern recognizers need no
model). Two adapters:

- ``PresidioRecognizers``: a list of Presidio recognizers, typically the predefined *pattern*
  recognizers (passports, national ids, driver licences ...) that securemem has no detector for.
  ``pattern_recognizers(["UsPassportRecognizer", "NhsRecognizer"])`` builds them by class name.
- ``PresidioAnalyzer``: a whole ``AnalyzerEngine``, for example one with a spaCy or transformers
  NLP engine that recognises person names. Loading such a model is the deployment's business; the
  adapter only calls ``analyzer.analyze(text=..., language=..., entities=...)``.

Presidio's entity names map to securemem types through ``entity_map`` (EMAIL_ADDRESS -> EMAIL and
so on by default); a name with no mapping keeps its own name and is registered as a type of the
PII family, so a policy can act on it (``US_PASSPORT = "redact"``) or on PII as a whole::

    from securemem.pii import register_detector
    from securemem.pii.presidio import PresidioRecognizers, pattern_recognizers

    register_detector(PresidioRecognizers(pattern_recognizers(["UsPassportRecognizer"])))

Findings below ``min_score`` are dropped. The detectors see securemem's normalised text (digits of
any script as ASCII, invisible characters removed), so Presidio's patterns gain the same evasion
resistance as the built-in ones.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from securemem.pii import entities

DEFAULT_ENTITY_MAP: Mapping[str, str] = {
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "CREDIT_CARD": "CREDIT_CARD",
    "IBAN_CODE": "IBAN",
    "US_SSN": "US_SSN",
    "IP_ADDRESS": "IP_ADDRESS",
}


def pattern_recognizers(names: Iterable[str]) -> list[Any]:
    """Presidio's predefined recognizers, by class name (e.g. "UsPassportRecognizer")."""
    module = importlib.import_module("presidio_analyzer.predefined_recognizers")
    return [getattr(module, name)() for name in names]


class _Mapped:
    """What both adapters share: entity names, types, the score floor."""

    def __init__(self, supported: Iterable[str], entity_map: Mapping[str, str] | None, min_score: float) -> None:
        self.entity_map = dict(DEFAULT_ENTITY_MAP if entity_map is None else entity_map)
        self.min_score = min_score
        names = sorted({self.entity_map.get(entity, entity) for entity in supported})
        for name in names:
            if name not in entities.entity_types():
                entities.register_entity_type(name, ("PII",))
        self._types = tuple(names)

    @property
    def types(self) -> tuple[str, ...]:
        return self._types

    def _hits(self, results: Iterable[Any]) -> Iterator[tuple[str, int, int]]:
        for result in results:
            if result.score >= self.min_score:
                yield self.entity_map.get(result.entity_type, result.entity_type), result.start, result.end


class PresidioRecognizers(_Mapped):
    """Presidio recognizers (pattern recognizers need no NLP engine) as one securemem detector."""

    def __init__(
        self,
        recognizers: Sequence[Any],
        *,
        entity_map: Mapping[str, str] | None = None,
        min_score: float = 0.4,
        name: str = "presidio-recognizers",
    ) -> None:
        self.recognizers = list(recognizers)
        self._name = name
        super().__init__((e for r in self.recognizers for e in r.supported_entities), entity_map, min_score)

    @property
    def name(self) -> str:
        return self._name

    def find(self, text: str) -> Iterator[tuple[str, int, int]]:
        for recognizer in self.recognizers:
            yield from self._hits(recognizer.analyze(text, entities=recognizer.supported_entities, nlp_artifacts=None))


class PresidioAnalyzer(_Mapped):
    """A Presidio AnalyzerEngine (with whatever NLP engine the deployment loaded) as a detector."""

    def __init__(
        self,
        analyzer: Any,
        entities_wanted: Sequence[str],
        *,
        language: str = "en",
        entity_map: Mapping[str, str] | None = None,
        min_score: float = 0.5,
        name: str = "presidio-analyzer",
    ) -> None:
        self.analyzer = analyzer
        self.entities_wanted = list(entities_wanted)
        self.language = language
        self._name = name
        super().__init__(self.entities_wanted, entity_map, min_score)

    @property
    def name(self) -> str:
        return self._name

    def find(self, text: str) -> Iterator[tuple[str, int, int]]:
        return self._hits(self.analyzer.analyze(text=text, language=self.language, entities=self.entities_wanted))
