"""Fast paths of the detectors must find exactly what the plain search they replace finds.

Where a detector answers from a cheaper search than its pattern's own (a substring scan for the
places a match can start, one pass over the text instead of one per line), these tests run both
on text built to hit the edges and compare the results.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from securemem.pii.contact import _FOREIGN_PHONE_LABEL, _office_labels
from securemem.pii.detectors import (
    _WRAP_BUDGET,
    Hit,
    _joined_hits,
    _wrap_breaks,
    _wrap_join,
    _wrapped_hits,
    wanted_types,
)
from securemem.pii.normalize import View
from securemem.pii.regions import DEFAULT_PHONE_REGIONS
from securemem.pii.scan import Scan


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["office", "Office", "OFFICE", "offi", "ce", " ", "\t", ":", "(", ")", "\n", "x",
                                 "Bengaluru", " (", "): ", "0161 496 0123"]), max_size=24).map("".join))  # fmt: skip
def test_office_labels_are_the_label_patterns_matches_in_ascii_text(text: str) -> None:
    expected = [match.span() for match in _FOREIGN_PHONE_LABEL.finditer(text)]
    assert [match.span() for match in _office_labels(Scan(text, DEFAULT_PHONE_REGIONS))] == expected


def _wrapped_hits_line_by_line(scan: Scan) -> list[Hit]:
    """What _wrapped_hits did before it screened the breaks: _wrap_join at every one, in turn; a number's halves
    that make nothing joined with a blank are joined whole too (reviewer AX's "360-4" then "3-3477"; hypothesis
    found "card 2" then "1111 11111111 11112", a card glued, once this reference lacked it)."""
    text, hits, budget = scan.text, [], _WRAP_BUDGET
    at = text.find("\n")
    while at != -1 and budget:
        joined = _wrap_join(text, at)
        if joined is not None:
            budget -= 1
            found = _joined_hits(scan, wanted_types(None), at, joined)
            if not found and joined[3] == "number":
                found = _joined_hits(scan, wanted_types(None), at, (*joined[:2], "", "glued"))
            hits += found
        at = text.find("\n", at + 1)
    return hits


_WRAP_PIECES = ["\n", "\r\n", " \n", "\t\n ", "\n  ", "@", "x", "7", "4111 1111", "1111 1111", "?", "é",
                "\u0663", "\u00b2", "-", ".", "=", "/", "eyJhbGciOiJIUzI1NiJ9", "AbCdEfGhIjKlMnOp", "ghp_", "card ",
                "+44 20 7946", " 0958", "jane@", "example.com", "token: "]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WRAP_PIECES), max_size=30).map("".join))
def test_breaks_screened_in_one_pass_join_as_every_break_did(text: str) -> None:
    # The view, and the text as given: digits that are not ASCII ("²", "٣") reach _wrap_join there.
    for scanned in (View(text).text, text):
        expected = _wrapped_hits_line_by_line(Scan(scanned, DEFAULT_PHONE_REGIONS))
        assert _wrapped_hits(Scan(scanned, DEFAULT_PHONE_REGIONS), wanted_types(None)) == expected


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_WRAP_PIECES), max_size=30).map("".join))
def test_breaks_screened_in_one_pass_hold_every_break_joined(text: str) -> None:
    breaks = _wrap_breaks(Scan(text, DEFAULT_PHONE_REGIONS))
    assert breaks == sorted(breaks)
    joined = [at for at, char in enumerate(text) if char == "\n" and _wrap_join(text, at) is not None]
    assert set(joined) <= set(breaks)


def test_breaks_screened_in_one_pass_keep_the_budget() -> None:
    text = "\n".join(["4111 1111"] * (_WRAP_BUDGET + 20) + ["card 4111", "1111 1111 1111"])
    scan = Scan(text, DEFAULT_PHONE_REGIONS)
    assert _wrapped_hits(scan, wanted_types(None)) == _wrapped_hits_line_by_line(scan)
