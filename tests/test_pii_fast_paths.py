"""Fast paths of the detectors must find exactly what the plain search they replace finds.

Where a detector answers from a cheaper search than its pattern's own (a substring scan for the
places a match can start, one pass over the text instead of one per line), these tests run both
on text built to hit the edges and compare the results.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from securemem.pii.contact import _FOREIGN_PHONE_LABEL, _office_labels
from securemem.pii.detectors import DEFAULT_PHONE_REGIONS
from securemem.pii.scan import Scan


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["office", "Office", "OFFICE", "offi", "ce", " ", "\t", ":", "(", ")", "\n", "x",
                                 "Bengaluru", " (", "): ", "0161 496 0123"]), max_size=24).map("".join))  # fmt: skip
def test_office_labels_are_the_label_patterns_matches_in_ascii_text(text: str) -> None:
    expected = [match.span() for match in _FOREIGN_PHONE_LABEL.finditer(text)]
    assert [match.span() for match in _office_labels(Scan(text, DEFAULT_PHONE_REGIONS))] == expected
