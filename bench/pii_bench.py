"""Benchmark securemem.pii against Microsoft Presidio's pattern recognizers, on the labelled corpus.

Run by hand from the repository root:

    .venv/bin/python bench/pii_bench.py            # full run
    .venv/bin/python bench/pii_bench.py --smoke    # one quick pass

Prints, in one run:

1. Accuracy per entity type, securemem and Presidio side by side: recall (a labelled entity counts
   as found when a finding of the same type overlaps it) and false positives (findings of a type
   that overlap no labelled entity of that type). The ~180 provider key types are summed in one
   row (API_KEY family) and any provider type below 100% is listed. Recall is also given for the
   evasion section alone.
2. Damage on the must-survive set (tests/data/must_survive.txt): lines any finding would alter;
   then recall on the held-out adversarial set (tests/data/pii_heldout.jsonl: a value counts only
   when findings of its type cover all of it), findings beside the labels, and its hard negatives
   altered.
3. Throughput on PII-dense text (the labelled lines) and on ordinary text (the must-survive set
   and benign prose), and the securemem/Presidio ratio of each.
4. Worst-case inputs: adversarial texts of 100 KB and 1 MB, time per KB of each (linear inputs
   show the same time per KB at both sizes); then every label the detectors know (each gate's word
   and each step's literal) before a run of blanks, at two sizes, and the five whose time grows most.

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

from securemem.pii import detect, members
from securemem.pii.contact import phone_e164
from securemem.pii.entities import PII_TYPES, STRUCTURAL_SECRET_TYPES
from securemem.pii.presidio import DEFAULT_ENTITY_MAP

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
CORPUS = DATA / "pii_corpus.jsonl"
HELD_OUT = DATA / "pii_heldout.jsonl"
MUST_SURVIVE = DATA / "must_survive.txt"
# Presidio's entity names for the types it covers.
PRESIDIO_TYPES = DEFAULT_ENTITY_MAP
PROVIDER = "API_KEY family"
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
    scores: dict[str, Score] = field(default_factory=dict)
    evasion: Score = field(default_factory=Score)

    def score(self, kind: str) -> Score:
        return self.scores.setdefault(kind, Score())


@dataclass
class Row:
    text: str
    labels: list[Span]
    note: str


def load_corpus(path: Path = CORPUS) -> list[Row]:
    """Each text with its labelled spans (the n-th label of a value is its n-th occurrence)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows.append(Row(row["text"], _label_spans(row["text"], row["entities"]), row["note"]))
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
            analyze = recognizer.analyze
            for result in analyze(text, entities=recognizer.supported_entities, nlp_artifacts=None):
                spans.add((PRESIDIO_TYPES[result.entity_type], result.start, result.end))
        return sorted(spans, key=lambda span: span[1])

    return run


def _bucket(kind: str) -> str:
    return PROVIDER if kind in PROVIDER_TYPES else kind


PROVIDER_TYPES = frozenset(members("API_KEY"))


def score(detector: Detector, corpus: Sequence[Row]) -> tuple[Report, Report]:
    """(report by bucket, report by concrete type)."""
    buckets, concrete = Report(), Report()
    for row in corpus:
        findings = detector(row.text)
        evasion = row.note.startswith("evasion")
        for kind, start, end in row.labels:
            hit = any(_overlap((kind, start, end), f) for f in findings)
            for report, name in ((buckets, _bucket(kind)), (concrete, kind)):
                report.score(name).labelled += 1
                report.score(name).found += hit
            if evasion:
                buckets.evasion.labelled += 1
                buckets.evasion.found += hit
        for finding in findings:
            if not any(_overlap(finding, label) for label in row.labels):
                buckets.score(_bucket(finding[0])).false_positives += 1
                concrete.score(finding[0]).false_positives += 1
    return buckets, concrete


def _overlap(a: Span, b: Span) -> bool:
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def covered(label: Span, findings: Sequence[Span]) -> bool:
    """True when findings of the label's type cover every character of it (nothing of it is left)."""
    kind, start, end = label
    for _, low, high in sorted(f for f in findings if f[0] == kind and f[1] < end and start < f[2]):
        if low > start:
            return False
        start = max(start, high)
    return start >= end


def print_held_out(detectors: dict[str, Detector]) -> None:
    """Recall on the held-out adversarial set (a value counts when it is covered whole) and damage on its negatives."""
    rows = load_corpus(HELD_OUT)
    positives = [row for row in rows if row.labels]
    negatives = [row for row in rows if not row.labels]
    labelled = sum(len(row.labels) for row in positives)
    print(f"\nheld-out adversarial set ({HELD_OUT.name}): {len(positives)} lines with {labelled} values, "
          f"{len(negatives)} hard negatives")  # fmt: skip
    for name, detector in detectors.items():
        by_note: dict[str, Score] = {}
        extra = 0
        for row in positives:
            findings = detector(row.text)
            score_ = by_note.setdefault(row.note.removeprefix("held-out evasion: "), Score())
            for label in row.labels:
                score_.labelled += 1
                score_.found += covered(label, findings)
            extra += sum(1 for f in findings if not any(_overlap(f, label) for label in row.labels))
        damaged = [row.text for row in negatives if detector(row.text)]
        found = sum(s.found for s in by_note.values())
        print(f"  {name:<10} recall {found}/{labelled} {100 * found / labelled:5.1f}%, "
              f"{extra} extra findings on positive lines, {len(damaged)}/{len(negatives)} negatives altered"
              + (f", e.g. {damaged[0]!r}" if damaged else ""))  # fmt: skip
        for note, score_ in sorted(by_note.items()):
            if score_.found < score_.labelled:
                print(f"    {note:<28} {score_.found}/{score_.labelled}")


REVIEWS = {
    "a": "pii_review_a.jsonl: 3 rounds, 9 languages",
    "b": "pii_review_b.jsonl: round 1 blind, round 2 written against the source",
    "c": "pii_review_c.jsonl: blind, generated by tests/data/make_pii_review_c.py",
    "d": "pii_review_d.jsonl: blind, written after C's fixes, taken as it came",
    "e": "pii_review_e.jsonl: blind, written last, taken as it came",
    "f": "pii_review_f.jsonl: blind, written after E's fixes, taken as it came",
    "g": "pii_review_g.jsonl: blind, written after F's fixes, taken as it came",
    "h": "pii_review_h.jsonl: blind, written after G's fixes, taken as it came",
    "i": "pii_review_i.jsonl: blind, written after H's fixes, taken as it came",
    "j": "pii_review_j.jsonl: blind, written after I's fixes, taken as it came",
    "k": "pii_review_k.jsonl: blind, written as an acceptance suite would be, taken as it came",
    "l": "pii_review_l.jsonl: blind, platform teams' pastes and 100+ token shapes, taken as it came",
    "m": "pii_review_m.jsonl: blind, regulated agents' notes and evasions, taken as it came",
    "n": "pii_review_n.jsonl: blind, as a hostile acceptance suite, taken as it came",
    "o": "pii_review_o.jsonl: blind, long-form content as agents save it, taken as it came",
    "p": "pii_review_p.jsonl: blind, regulated companies' agents' memories, taken as it came",
    "q": "pii_review_q.jsonl: blind, an engineering organisation's agent memory, taken as it came",
    "r": "pii_review_r.jsonl: blind, a personal assistant's memory of its users' lives, taken as it came",
    "s": "pii_review_s.jsonl: blind, as a hostile acceptance suite, taken as it came",
    "t": "pii_review_t.jsonl: blind, service desks' call transcripts and fraud notes, taken as it came",
    "u": "pii_review_u.jsonl: blind, HR, payroll, onboarding and hospital staff's notes, taken as it came",
    "v": "pii_review_v.jsonl: blind, documents from PDFs, scans and emails with OCR's noise, taken as it came",
    "w": "pii_review_w.jsonl: blind, casual messaging, classifieds and filter-dodging chat, taken as it came",
    "x": "pii_review_x.jsonl: blind, travel and hospitality desks, bookings and OCR'd forms, taken as it came",
    "y": "pii_review_y.jsonl: blind, public sector's and law firms' case notes, taken as it came",
    "z": "pii_review_z.jsonl: blind, telecom, utilities, automotive and pharmacy desks, taken as it came",
    "aa": "pii_review_aa.jsonl: blind, one-time codes and evasions in many languages, taken as it came",
    "ab": "pii_review_ab.jsonl: blind, written after AA's fixes, taken as it came",
    "ac": "pii_review_ac.jsonl: blind, configs, logs, OCR'd forms and 45 provider shapes, taken as it came",
    "ad": "pii_review_ad.jsonl: blind, notes, configs, quoted mail and markup in 17 languages, taken as it came",
    "ae": "pii_review_ae.jsonl: blind, structured content: HTML, CSV, psql, JSON, YAML and logs, taken as it came",
    "af": "pii_review_af.jsonl: blind, banks' and hospitals' message formats (MT103, HL7, X12), taken as it came",
    "ag": "pii_review_ag.jsonl: blind, schools, real estate, mortgages and small businesses' IT, taken as it came",
    "ah": "pii_review_ah.jsonl: blind, Unicode evasions by an adversarial writer in 20 languages, taken as it came",
    "ai": "pii_review_ai.jsonl: blind, secrets as engineers paste them, 184 provider shapes, taken as it came",
    "aj": "pii_review_aj.jsonl: blind, phones as people in 62 countries write them, taken as it came",
    "ak": "pii_review_ak.jsonl: blind, a hostile acceptance suite claim by claim, taken as it came",
    "al": "pii_review_al.jsonl: blind, cards, IBANs, SSNs and IP addresses in every form, taken as it came",
    "am": "pii_review_am.jsonl: blind, ordinary text dense in numbers and values inside it, taken as it came",
    "an": "pii_review_an.jsonl: blind, a second hostile acceptance suite, taken as it came",
    "ao": "pii_review_ao.jsonl: blind, 435 must-survive technical strings, taken as it came",
    "ap": "pii_review_ap.jsonl: blind, a third hostile acceptance suite, taken as it came",
    "aq": "pii_review_aq.jsonl: blind, a support and operations team's memory, taken as it came",
    "ar": "pii_review_ar.jsonl: blind, a coding agent's, a call centre's and a back office's memory, taken as it came",
    "as": "pii_review_as.jsonl: blind, an HR, a travel and expense and an IT helpdesk agent's memory, taken as it came",
    "at": "pii_review_at.jsonl: blind, each class the issue names as its acceptance suite would, taken as it came",
    "au": "pii_review_au.jsonl: blind, an insurer's and a hospital's agents' memories, taken as it came",
    "av": "pii_review_av.jsonl: blind, a bank's and a telecom's agents' memories in 16 languages, taken as it came",
    "aw": "pii_review_aw.jsonl: blind, a marketplace, a logistics company and a benefits office, taken as it came",
    "ax": "pii_review_ax.jsonl: blind, a law firm, a university, a utility and an airline, taken as it came",
    "ay": "pii_review_ay.jsonl: blind, a property manager, a crypto exchange, a pharmacy and a car rental, as it came",
    "az": "pii_review_az.jsonl: blind, a health insurer, a hospital lab, a customs broker, a payroll firm, as it came",
    "ba": "pii_review_ba.jsonl: blind, a retail bank, a telecom, an on-call team and a hotel chain, as it came",
    "bb": "pii_review_bb.jsonl: blind, an insurer's claims, a pharmacy, home care, a notary, dispatch, as it came",
    "bc": "pii_review_bc.jsonl: blind, a lender, a telecom, admissions, an airline, a clinic chain, as it came",
    "bd": "pii_review_bd.jsonl: blind, a hostile acceptance suite of the issue's text, as it came",
    "be": "pii_review_be.jsonl: blind, an evasion-heavy acceptance suite, a coding agent's memory, as it came",
    "bf": "pii_review_bf.jsonl: blind, an insurer, a hospital, HR, KYC, customs, a school district, 38 languages",
    "bg": "pii_review_bg.jsonl: blind, a hostile acceptance suite as a coding and operations agent's memory",
    "bh": "pii_review_bh.jsonl: blind, a telecom, a private bank, trials, crews, incident response, 80 languages",
    "bi": "pii_review_bi.jsonl: blind, an acceptance suite of each promised class in 29 languages",
    "bj": "pii_review_bj.jsonl: blind, a hostile acceptance suite inside an agent's files, 28 languages",
    "bk": "pii_review_bk.jsonl: blind, business systems' exports (CSV, tables, JSON), 26 languages",
    "bl": "pii_review_bl.jsonl: blind, each of the issue's promises checked literally and evaded, 26 languages",
    "bm": "pii_review_bm.jsonl: blind, speech transcripts in 16 languages and developer artefacts",
    "bn": "pii_review_bn.jsonl: blind, payment and insurance message formats, 16 languages",
}


def print_reviews(detectors: dict[str, Detector]) -> None:
    """Recall per scope and round on the reviewers' corpora, and their ordinary lines altered."""
    print("\nreviewers' corpora (written without seeing ours; a value counts when it is covered whole)")
    for key, title in REVIEWS.items():
        rows = [
            json.loads(line) for line in (CORPUS.parent / f"pii_review_{key}.jsonl").read_text("utf-8").splitlines()
        ]
        print(f"  {title}")
        for name, detector in detectors.items():
            tally: dict[tuple[int, str], list[int]] = {}
            damaged = 0
            for row in rows:
                findings = detector(row["text"])
                if row["section"] == "negative":
                    damaged += row.get("negative", "core") == "core" and bool(findings)
                    continue
                for label in row["labels"]:
                    cell = tally.setdefault((row["round"], label["scope"]), [0, 0])
                    cell[1] += 1
                    cell[0] += any(start <= label["start"] and end >= label["end"] for _, start, end in findings)
            ordinary = sum(1 for row in rows if row["section"] == "negative" and row.get("negative", "core") == "core")
            cells = ", ".join(
                f"round {round_} {scope} {found}/{total} {100 * found / total:.1f}%"
                for (round_, scope), (found, total) in sorted(tally.items())
            )
            print(f"    {name:<10} {cells}; ordinary lines altered {damaged}/{ordinary}")


def pass_seconds(detector: Detector, texts: Sequence[str]) -> float:
    """CPU time of one pass of ``detector`` over all ``texts``.

    securemem's cache of validated phone numbers is emptied first: every pass pays for
    phonenumbers as a first sight of the text would. CPU time of this process (both tools are
    single-threaded and do no I/O here), so other work on a shared machine does not count against
    whichever tool happened to run beside it.
    """
    phone_e164.cache_clear()
    started = time.process_time()
    for text in texts:
        detector(text)
    return time.process_time() - started


def interleaved(detectors: dict[str, Detector], texts: Sequence[str], runs: int) -> dict[str, list[float]]:
    """``runs`` rounds of one pass per detector, in turn (the order alternates from round to round).

    On a shared machine the speed of the same code moves by half from one minute to the next; passes
    taken side by side, round by round, see the same machine, so each round gives a fair ratio.
    """
    times: dict[str, list[float]] = {name: [] for name in detectors}
    order = list(detectors.items())
    for round_number in range(runs):
        for name, detector in order if round_number % 2 == 0 else order[::-1]:
            times[name].append(pass_seconds(detector, texts))
    return times


def _cell(score: Score | None, supported: bool) -> str:
    if not supported or score is None:
        return f"{'-':>17} {'-':>4}"
    recall = f"{score.found}/{score.labelled} {100 * score.found / max(score.labelled, 1):5.1f}%"
    return f"{recall:>17} {score.false_positives:>4}"


def print_accuracy(ours: tuple[Report, Report], theirs: tuple[Report, Report] | None) -> None:
    mine, mine_concrete = ours
    print(f"{'entity':<22} {'labelled':>8} | {'securemem recall':>17} {'FP':>4} | {'presidio recall':>17} {'FP':>4}")
    print("-" * 82)
    order = [*PII_TYPES, *STRUCTURAL_SECRET_TYPES, PROVIDER]
    order += sorted(name for name in mine.scores if name not in order)
    totals = [Score(), Score()]
    for name in order:
        score_ = mine.scores.get(name)
        if score_ is None:
            continue
        supported = name in PRESIDIO_TYPES.values()
        other = _cell(theirs[0].scores.get(name, Score()), supported) if theirs else f"{'n/a':>17} {'':>4}"
        print(f"{name:<22} {score_.labelled:>8} | {_cell(score_, True)} | {other}")
        totals[0].labelled += score_.labelled
        totals[0].found += score_.found
        totals[0].false_positives += score_.false_positives
        if theirs and supported:
            theirs_score = theirs[0].scores.get(name, Score())
            totals[1].labelled += theirs_score.labelled
            totals[1].found += theirs_score.found
            totals[1].false_positives += theirs_score.false_positives
    print("-" * 82)
    print(f"{'all types':<22} {totals[0].labelled:>8} | {_cell(totals[0], True)} | {'':>22}")
    if theirs:
        pii = Score(
            sum(mine.scores[n].labelled for n in PII_TYPES if n in mine.scores),
            sum(mine.scores[n].found for n in PII_TYPES if n in mine.scores),
            sum(mine.scores[n].false_positives for n in PII_TYPES if n in mine.scores),
        )
        print(f"{'PII types (both)':<22} {pii.labelled:>8} | {_cell(pii, True)} | {_cell(totals[1], True)}")
    evasion = theirs[0].evasion if theirs else None
    print(f"{'evasion section':<22} {mine.evasion.labelled:>8} | {_cell(mine.evasion, True)} | "
          f"{_cell(evasion, True) if evasion else 'n/a'}  (all types; Presidio has no secret types)")  # fmt: skip
    provider = [n for n in mine_concrete.scores if n in PROVIDER_TYPES]
    weak = [n for n in provider if mine_concrete.scores[n].found < mine_concrete.scores[n].labelled]
    print(f"provider key types labelled: {len(provider)}; below 100% recall: {', '.join(weak) or 'none'}")


def print_damage(survive: Sequence[str], detectors: dict[str, Detector]) -> None:
    print(f"\ndamage on the must-survive set ({len(survive)} ordinary technical strings):")
    for name, detector in detectors.items():
        damaged = [line for line in survive if detector(line)]
        print(f"  {name:<10} {len(damaged):>4} lines altered ({100 * len(damaged) / len(survive):.1f}%)"
              + (f", e.g. {damaged[0]!r}" if damaged else ""))  # fmt: skip


def print_speed(sets: dict[str, Sequence[str]], detectors: dict[str, Detector], runs: int) -> None:
    for label, texts in sets.items():
        size = sum(len(text.encode()) for text in texts)
        print(f"\nthroughput on {label}: {len(texts)} texts, {size / 1024:.1f} KiB, median of {runs} runs"
              + (", the tools' passes in turn" if len(detectors) > 1 else ""))  # fmt: skip
        times = interleaved(detectors, texts, runs)
        for name, values in times.items():
            value = statistics.median(values)
            print(f"  {name:<10} {value * 1e3:9.2f} ms/pass {size / value / 2**20:8.2f} MiB/s "
                  f"{value / size * 1024 * 1e6:8.1f} us/KiB")  # fmt: skip
        if "presidio" in times:
            ratios = sorted(p / s for p, s in zip(times["presidio"], times["securemem"], strict=True))
            print(f"  ratio securemem/presidio throughput: {statistics.median(ratios):.1f}x "
                  f"(median of the rounds' ratios; rounds {ratios[0]:.1f}x to {ratios[-1]:.1f}x)")  # fmt: skip


def worst_cases(size: int) -> dict[str, str]:
    """Adversarial inputs of about ``size`` characters, each aimed at one detector's weak spot."""

    def fill(unit: str) -> str:
        return unit * (size // len(unit))

    return {
        "at-pairs": fill("a@"),
        "local-part-run": "a" * size + "@",
        "domain-labels": "x@" + fill("a."),
        "digits": "1" * size,
        "spaced-digits": fill("1 "),
        "french-pairs": fill("zéro six, quarante-deux, "),
        "grouped-digits": fill("4111 "),
        "phone-shaped": fill("+44 20 7946 095 "),
        "dotted": fill("1."),
        "dashes": fill("12-"),
        "colons": fill("a:"),
        "jwt-heads": fill("eyJ"),
        "jwt-dots": "eyJhbGciOiJIUzI1NiJ9." + fill("a."),
        "pem-begins": fill("-----BEGIN PRIVATE KEY-----"),
        "bearers": fill("Bearer "),
        "iban-heads": fill("DE89 "),
        "token-runs": fill("ghp_" + "a" * 30 + " "),
        "prefix-soup": fill("sk-xoxb-AKIAglpat-"),
        "keywords": fill("password: token= secret: "),
        "key-values": fill("api_key=aaaaaaaaaaaaaaaaaaaa "),
        "url-schemes": fill("a://b:c@"),
        "anchors": fill(":AA:APA91bQ~_mmk-us"),
        "obfuscated-at": fill("a [at] "),
        "brackets": fill("[EMAIL:"),
        "zero-width": fill("4\u200b"),
        "fullwidth": fill("\uff14\uff11 "),
        "arabic-digits": fill("\u0664\u0661\u0661\u0661 "),
        "combining": fill("4\u0332"),
        "cjk-prose": fill("\u4e2d\u6587\u6587\u672c\uff0c"),
        "letters-in-digits": fill("1l0O "),
        "letter-touches": fill("0o 1l x"),
        "spaced-out": fill("a "),
        "spaced-digits-at": fill("4 1 @ . "),
        "spoken-at": fill("jane at example dot "),
        "cut-secret": "token: " + fill("Ab1+ "),
        "cut-provider": fill("key: AKIA AAAA "),
        "base64-blob": fill("QUJDRGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo0NTY3ODkwKy8"),
        "invisible-mix": fill("4\u200b\u2060\u00ad\u202e"),
        "near-miss-keys": fill("password: required; token: ${TOKEN}; "),
        "cli-passwords": fill("mysql -p'"),
        "password-tags": fill("<password><b>"),
        "asked-blanks": "password" + " " * size + "x",
        "asked-mixed-blanks": "password" + fill(" \t") + "?x",
        "asked-tabs": "pin" + "\t" * size + "?x",
        "joint-tabs": "password:" + "\t" * size + "?x",
        "login-blanks": "login" + " " * size + "x",
        "porting-blanks": "PAC" + " " * size + "x",
        "porting-codes": fill("PAC ABC123456 "),
        "overridden-emails": fill("\u202emoc.elpmaxe@enaj\u202c "),
        "ssn-fields": fill("area=512 group=34 serial=5678 "),
        "card-cells": fill("| 4111 | 1111 | 1111 | 1111 "),
        "card-halves": fill("first half 41111111, second half 11111111. "),
        "blocked-prefixes": fill("dop_v1_ 482913 "),
        "letters-head": fill("l ") + "1",
        "vcard-folds": "BEGIN:VCARD\nNOTE:x\n" + fill("a\n "),
        "sberbank": "Сбербанк. " + fill("Номер счёта: 2024004512. "),
        "hl7-inline": fill(": PID|"),
        "phone-extension": "call +44 20 7946 0958" + " " * size + "x",
        "labelled-blanks": " " * size + "key: " + "A" * 20 + "!x",
        "hint-word": fill("pwd"),
        "cjk-hints": fill("密码"),
        "label-words": fill("password " + "a " * 8 + "("),
        "sql-rows": "INSERT INTO t (id, ssn) VALUES " + fill("(1, '123456789'),"),
        "aligned-rows": "name   phone\n" + fill("a      1 2 3 4 5 6 7\n"),
        "otp-line": fill("otp 123456 "),
        "pin-line": fill("pin 1234 "),
        "card-codes": fill("cvv 123 code 4567 otp 123456 "),
        "emoji-digits": fill("1\U0001f539 2\U0001f539 "),
        "otp-spaced": fill("OTP 4 8 2 9 1 3 7 "),
        "pin-spaced": fill("PIN 1 2 3 4 5 6 7 8 9 "),
        "ocr-letters": fill("12S4 56B8 "),
        "otp-clauses": fill("OTP per " + "x" * 70 + " è 48291 "),
        "key-boxes": fill("key safe is 1 2 3 4 "),
        "wifi-pairs": fill("wifi x / y-z-w-q "),
        "asked-codes": fill("alarm code?\n[x] y: 1 2 3 4\n"),
        "whatsapp-links": fill("wa.me/4477009001 "),
        "dotted-digits": fill("1 2 3. "),
        "digit-stops": fill("1. "),
        # the readers of structured content (reviewers AE and AF, and their attackers' rounds)
        "code-keys": fill("otp code=482100 status=queued "),
        "form-inputs": fill('<input type="password" name="pw" value="Hunter2!xyz">\n'),
        "html-rows": fill("<tr><th>SSN</th><td>761</td><td>34</td><td>2273</td></tr>\n"),
        "html-blank-cells": fill("<tr><td>SSN</td><td>" + " " * 1900 + "</tr>"),
        "input-long-names": fill("<input " + "a" * 2030 + ">\n"),
        "key-value-rows": "key,value\r\n" + fill("smtp_password,Hunter2!xyz\r\n"),
        "hl7-segments": fill("PID|1||1^^^X||DOE^J||19800101|F|||||^PRN^PH^^1^312^8472291||||||412673390\r"),
        "wrapped-jwts": fill("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzNDIzMzMzIiwiaWF\n"),
        # one long line, each match once read back to the text's start (reviewers' lines joined into one)
        "cli-users": fill("docker run -u a:b "),
        "pgpass-line": fill("h:5432:d:u:p "),
        "labelled-values": fill("a: abcdefghijklmnopq "),
        "release-siblings": fill("v 4.10.2.17 then 4.10.1.9 "),
        "log-line": fill("INFO listening on 0.0.0.0:8080 (pid 35099) redis at 127.0.0.1:6379 db=0 "),
        "spelt-keywords": fill("p a s s w o r d : Hunter2xyz!   " + "z" * 51 + " "),
        "quoted-rows": '"a","subscriber_ssn","b"\n' + fill('"1","156055140","x, y"\n'),
        "names-mobiles": fill("řidič Tomáš Svoboda 606 649 164 přiveze "),
        "lock-gaps": fill("kod (a, b) (c, d) (e, f) 1234, "),
        "password-things": fill("password Wi-Fi router modem Xy!1 "),
        "device-keys": fill("snmp-server community hUR5SuEzi#YR RO "),
        "cjk-glued": fill("，密码Yao#Fang"),
        "card-pins": fill("tankpas 7044 0186 8552 6407 met pincode 5831, "),
        "box-before": fill("nøgleboks hos Poul, Vestergade 17, kode "),
        # stop 47's readers: a line about an AWS secret full of 40-character values, digits one at a time, a
        # key's DER prefix before long base64 wrapped in 63-character lines
        "aws-named-line": fill(
            "aws_secret ExportsOutputFnGetAttUserPoolArn3F2E9A7D k8ZZh4Ul41Evtj5n9CgkIWnvvvfiC5qvbDUxdpZY "
        ),
        "one-at-a-time": fill("SSN card 4-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1 "),
        "der-wrapped": "MHcCAQEEI" + fill("A" * 63 + "\n"),
        # a text of one character per line (each line break a junction, read again in windows), literals side by side
        "one-per-line": fill("7\n"),
        "literals-side-by-side": fill('f("aio_x" "NJ1i0g5X6Y" '),
        # reviewers CC to CE's readers: chat lines each a card's piece, a card and its code on each line, a key of parts
        # before one long dotted token, base64 runs of "user:pass" where credentials are named
        "chat-card-pieces": "my card number\n" + fill("[10:00] guest: 4242 4242\n"),
        "card-and-code": fill("my card 4242424242424242 code 123.\n"),
        "parts-dotted": "part: " + fill("ab.cd.ef.gh.ij.kl.mn.op.qr.st.uv.wx.yz."),
        "basic-auth-runs": "basic auth\n" + fill("id dXNlcjE6UGFzczAwMDAwMXgh\n"),
        # reviewers CF's and CG's readers: blanks after a Brazilian agency and account's words, after a Korean bank's
        # name and after a quoted literal (an attacker's round: cubic and quadratic as first written), Base58 runs of a
        # Solana signature's length, keypair-shaped arrays, security questions answered
        "agency-blanks": "agência 1234 conta" + " " * size,
        "bank-name-blanks": "신한은행" + " " * size,
        "literal-blanks": "x = 'ab'" + " " * size + "x",
        "base58-runs": "export "
        + fill("3MfaQVxeAGMoRW46LRf2fWwBwCfRnFbayUpqBKrteA576m7b5dxutCrPPtQJkTW9d9M9MzRnrJBogFrHCSfkNXfj "),
        "keypair-arrays": fill("secret keypair [" + ",".join(["201"] * 64) + "]\n"),
        "question-lines": fill("security question 'first pet' = Rocky; mother's maiden name = Smith;\n"),
        "accounts-one-line": fill("CBU 2854957820745379290929 agência 1282-0 conta 98015-9 신한은행 110-648-661424 "),
        "marks-and-runs": fill("code 1234 otp 567 "),
        # national numbers' keys, rows of two cells and a person's record around them (stop 69: a row's label read
        # the whole text lower-cased again, quadratic until it was given the scan's)
        "national-rows": fill("BSN\t1\n<tr><td>BSN</td><td>1| BSN | 1 \n"),
        "national-keys": fill('"bsn": "1", patient_bsn=1 deviceBSN=1 naam nhsNumber: 1 '),
    }


def print_worst_cases(smoke: bool) -> None:
    sizes = (20_000, 100_000) if smoke else (100_000, 1_000_000)
    print(f"\nworst-case inputs, time per KB at {sizes[0] // 1000} KB and {sizes[1] // 1000} KB (linear: about equal):")
    small, large = worst_cases(sizes[0]), worst_cases(sizes[1])
    worst = 0.0
    for name in small:
        per_kb = []
        for text in (small[name], large[name]):
            started = time.process_time()
            detect(text)
            per_kb.append((time.process_time() - started) / (len(text.encode()) / 1024) * 1e6)
        worst = max(worst, per_kb[1])
        print(f"  {name:<16} {per_kb[0]:9.1f} us/KB {per_kb[1]:9.1f} us/KB  x{per_kb[1] / max(per_kb[0], 1e-9):4.2f}")
    print(
        f"  slowest at {sizes[1] // 1000} KB: {worst:.1f} us/KB ({worst * sizes[1] / 1024 / 1e6:.2f} s for the input)"
    )


def label_runs() -> list[str]:
    """Every gate's word and every step's literal, as written, capitalised and in capitals: what a label may be.
    The openings of a number spelt out (a blank, a digit word, a separator: 28,000 of the gates' words) are
    taken as their digit words after a blank, the blanks after them the separator."""
    from securemem.pii.contact import _DIGIT_WORDS, _SPELT_OPENINGS
    from securemem.pii.detectors import _BUILTINS
    from securemem.pii.scan import GATE_WORDS

    labels = {word for word in GATE_WORDS.words() if word not in _SPELT_OPENINGS}
    labels |= {f" {word}" for word in _DIGIT_WORDS} | {literal for builtin in _BUILTINS for literal in builtin.literals}
    return sorted(labels | {label.upper() for label in labels} | {label.capitalize() for label in labels})


def print_label_runs(smoke: bool) -> None:
    """Each label before a long run of one blank (the quadratic forms of the past: two runs of blanks side by
    side in a pattern, each giving back to the other), at two sizes; the labels whose time grows most."""
    sizes = (1_000, 4_000) if smoke else (2_000, 8_000)
    labels = label_runs()[:: 20 if smoke else 1]
    detect("warm: " + " ".join(labels))  # automatons built on first use are not a label's time

    def growth(label: str, blank: str, tries: int) -> tuple[float, float, str, str]:
        spent: list[float] = []
        for size in sizes:
            text = label + blank * size + "?x"
            best = float("inf")
            for _ in range(tries):
                started = time.process_time()
                detect(text)
                best = min(best, time.process_time() - started)
            spent.append(best)
        return spent[1] / max(spent[0], 1e-5), spent[1], label, blank

    grown = sorted((growth(label, blank, 1) for blank in (" ", "\t", "\u00a0") for label in labels), reverse=True)
    # The twenty that grew most measured again, the best of three at each size: a pattern compiled on first use,
    # or the machine's other work, had made one grow a hundredfold in one pass.
    grown = sorted((growth(label, blank, 3) for _, _, label, blank in grown[:20]), reverse=True)
    print(
        f"\nlabels before a run of blanks ({len(labels)} labels x 3 blanks), time at {sizes[1]:,} characters against"
        f" {sizes[0]:,} (linear: about x{sizes[1] // sizes[0]}); the five that grow most:"
    )
    for ratio, longest, label, blank in grown[:5]:
        print(f"  {label!r:<28} then {blank!r:<8} x{ratio:5.1f}  {longest * 1e3:7.1f} ms")


def _documents(lines: Sequence[str], size: int) -> list[str]:
    """``lines`` joined into texts of about ``size`` characters: what a whole-file rescan reads."""
    documents: list[str] = []
    current: list[str] = []
    for line in lines:
        current.append(line)
        if sum(len(part) + 1 for part in current) >= size:
            documents.append("\n".join(current))
            current = []
    return documents


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure (the median is shown)")
    parser.add_argument("--smoke", action="store_true", help="one quick pass, for CI-style smoke checks")
    options = parser.parse_args(argv)
    runs = 1 if options.smoke else options.runs
    corpus = load_corpus()
    survive = MUST_SURVIVE.read_text(encoding="utf-8").splitlines()
    presidio = presidio_detector()
    if presidio is None:
        print("presidio_analyzer is not importable: `pip install presidio-analyzer` to compare (no model needed).")
    labelled = sum(len(row.labels) for row in corpus)
    print(f"corpus: {CORPUS.name}, {len(corpus)} lines, {labelled} labelled entities\n")
    print_accuracy(score(securemem_detector, corpus), score(presidio, corpus) if presidio else None)
    detectors: dict[str, Detector] = {"securemem": securemem_detector}
    if presidio is not None:
        detectors["presidio"] = presidio
    print_damage(survive, detectors)
    print_held_out(detectors)
    print_reviews(detectors)
    dense = [row.text for row in corpus if row.labels]
    benign = [row.text for row in corpus if not row.labels]
    prose = [ORDINARY_1KB[i : i + 256] for i in range(0, len(ORDINARY_1KB), 256)] * 25 + [ORDINARY_1KB] * 25
    documents = _documents(dense, 1024)
    if options.smoke:
        dense, benign, prose, documents = dense[:200], benign[:200], prose[:20], documents[:10]
    print_speed({"PII-dense lines (one labelled line per call)": dense,
                 "PII-dense files (labelled lines joined into ~1 KB, one file per call)": documents,
                 "ordinary prose (notes, 256 B and 1 KB)": prose,
                 "benign near-misses and must-survive lines": benign}, detectors, runs)  # fmt: skip
    print_worst_cases(options.smoke)
    print_label_runs(options.smoke)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
