"""Benchmark securemem.pii against Microsoft Presidio's pattern recognizers, on the labelled corpus.

Run by hand from the repository root:

    .venv/bin/python bench/pii_bench.py            # full run
    .venv/bin/python bench/pii_bench.py --smoke    # one quick pass

Prints, per entity type, recall (a labelled entity counts as found when a finding of the same type
overlaps it) and false positives (findings of a type that overlap no labelled entity of that type),
then the throughput of both on the same texts and the median time to scan 1 KB of ordinary text.
Presidio runs its predefined pattern recognizers directly, with no NLP engine and no model: it has
no recognizer for the secret types, shown as "-". Presidio is optional: without it the script says
how to install it and prints securemem's own figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from securemem.pii import ENTITY_TYPES, detect

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "pii_corpus.jsonl"
# Presidio's entity names for the types it covers.
PRESIDIO_TYPES = {
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "CREDIT_CARD": "CREDIT_CARD",
    "IBAN_CODE": "IBAN",
    "US_SSN": "US_SSN",
    "IP_ADDRESS": "IP_ADDRESS",
}
ORDINARY_1KB = (
    "Meeting notes, 2024-03-15: the team reviewed the Q1 roadmap and agreed to ship release 2.4.1 by the end of "
    "April. Action items: Dana will update the onboarding guide; Lee owns the migration runbook and the rollback "
    "plan. We closed 37 tickets this sprint (up from 29) and the p95 latency dropped to 182 ms after the cache "
    "change. Budget: $12,450.00 spent of $20,000. The customer asked about order #48213 and invoice INV-2024-0042; "
    "both are on track. Next sync is Tuesday at 10:30 in room 4B. Reminder: code freeze starts on the 22nd, so "
    "please merge outstanding pull requests before then. Links to the design doc and the dashboard are in the "
    "channel topic. Thanks everyone for the hard work this quarter; the retro is scheduled for Friday afternoon, "
    "and we will review what went well, what did not, and what we want to try next. Please add your notes to the "
    "shared document beforehand so we can keep the meeting short and focused on decisions rather than status "
    "updates, and remember that the office is closed on Monday for the holiday weekend."
)[:1024]

Span = tuple[str, int, int]
Detector = Callable[[str], list[Span]]


@dataclass
class Score:
    labelled: int = 0
    found: int = 0
    false_positives: int = 0


@dataclass
class Report:
    scores: dict[str, Score] = field(default_factory=lambda: {name: Score() for name in ENTITY_TYPES})


def load_corpus() -> list[tuple[str, list[Span]]]:
    """Each text with its labelled spans (the n-th label of a value is its n-th occurrence)."""
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows.append((row["text"], _label_spans(row["text"], row["entities"])))
    return rows


def _label_spans(text: str, entities: list[dict[str, str]]) -> list[Span]:
    spans: list[Span] = []
    for entity in entities:
        start = text.find(entity["value"])
        while any(start == s and entity["type"] == t for t, s, _ in spans):
            start = text.find(entity["value"], start + 1)
        spans.append((entity["type"], start, start + len(entity["value"])))
    return spans


def securemem_detector(text: str) -> list[Span]:
    return [(f.type, f.start, f.end) for f in detect(text)]


def presidio_detector() -> Detector | None:
    """Presidio's pattern recognizers, or None when presidio-analyzer is not installed."""
    # tldextract (used by the email recognizer) would fetch the public suffix list: use its snapshot.
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    try:
        # Imported by name: an optional dependency (the bench extra) that the type check may not have.
        # The pattern recognizers need no NLP artifacts, so analyze() gets None for them.
        predefined: Any = importlib.import_module("presidio_analyzer.predefined_recognizers")
    except ImportError:
        return None
    recognizers = [getattr(predefined, name)() for name in ("EmailRecognizer", "PhoneRecognizer",
                   "CreditCardRecognizer", "IbanRecognizer", "UsSsnRecognizer", "IpRecognizer")]  # fmt: skip

    def run(text: str) -> list[Span]:
        spans: set[Span] = set()
        for recognizer in recognizers:
            for result in recognizer.analyze(text, entities=recognizer.supported_entities, nlp_artifacts=None):
                spans.add((PRESIDIO_TYPES[result.entity_type], result.start, result.end))
        return sorted(spans, key=lambda span: span[1])

    return run


def score(detector: Detector, corpus: Sequence[tuple[str, list[Span]]]) -> Report:
    report = Report()
    for text, labels in corpus:
        findings = detector(text)
        for kind, start, end in labels:
            report.scores[kind].labelled += 1
            report.scores[kind].found += any(_overlap((kind, start, end), f) for f in findings)
        for finding in findings:
            report.scores[finding[0]].false_positives += not any(_overlap(finding, label) for label in labels)
    return report


def _overlap(a: Span, b: Span) -> bool:
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def median_seconds(detector: Detector, texts: Sequence[str], runs: int) -> float:
    """Median wall time of one pass of ``detector`` over all ``texts``."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for text in texts:
            detector(text)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def median_call_seconds(detector: Detector, text: str, runs: int, calls: int) -> float:
    """Median over ``runs`` of the mean time of one call, measured over ``calls`` calls."""
    return median_seconds(detector, [text] * calls, runs) / calls


def _cell(score: Score, supported: bool) -> str:
    if not supported:
        return f"{'-':>16} {'-':>4}"
    recall = f"{score.found}/{score.labelled} {100 * score.found / max(score.labelled, 1):5.1f}%"
    return f"{recall:>16} {score.false_positives:>4}"


def print_accuracy(ours: Report, theirs: Report | None) -> None:
    print(f"{'entity':<15} {'labelled':>8} | {'securemem recall':>16} {'FP':>4} | {'presidio recall':>16} {'FP':>4}")
    print("-" * 74)
    for name in ENTITY_TYPES:
        mine = ours.scores[name]
        other = _cell(theirs.scores[name], name in PRESIDIO_TYPES.values()) if theirs else f"{'n/a':>16} {'':>4}"
        print(f"{name:<15} {mine.labelled:>8} | {_cell(mine, True)} | {other}")


def print_speed(corpus_texts: Sequence[str], detectors: dict[str, Detector], runs: int, calls: int) -> None:
    size = sum(len(text.encode()) for text in corpus_texts)
    print(f"\nthroughput over the corpus ({len(corpus_texts)} texts, {size / 1024:.1f} KiB), median of {runs} runs:")
    pass_times = {name: median_seconds(fn, corpus_texts, runs) for name, fn in detectors.items()}
    for name, seconds in pass_times.items():
        print(f"  {name:<10} {seconds * 1e3:9.2f} ms/pass {len(corpus_texts) / seconds:11,.0f} texts/s "
              f"{size / seconds / 2**20:8.2f} MiB/s")  # fmt: skip
    if "presidio" in pass_times:
        print(f"  ratio securemem/presidio throughput: {pass_times['presidio'] / pass_times['securemem']:.1f}x")
    print(f"\nmedian time to scan 1 KB of ordinary text ({len(ORDINARY_1KB)} chars), median of {runs} runs:")
    for name, fn in detectors.items():
        print(f"  {name:<10} {median_call_seconds(fn, ORDINARY_1KB, runs, calls) * 1e6:9.1f} us")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure (the median is shown)")
    parser.add_argument("--smoke", action="store_true", help="one quick pass, for CI-style smoke checks")
    options = parser.parse_args(argv)
    runs, calls = (1, 20) if options.smoke else (options.runs, 500)
    corpus = load_corpus()
    presidio = presidio_detector()
    if presidio is None:
        print("presidio_analyzer is not importable: `pip install presidio-analyzer` to compare (no model needed).")
    print(f"corpus: {CORPUS.name}, {len(corpus)} lines, {sum(len(labels) for _, labels in corpus)} labelled entities\n")
    print_accuracy(score(securemem_detector, corpus), score(presidio, corpus) if presidio else None)
    detectors: dict[str, Detector] = {"securemem": securemem_detector}
    if presidio is not None:
        detectors["presidio"] = presidio
    print_speed([text for text, _ in corpus], detectors, runs, calls)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
