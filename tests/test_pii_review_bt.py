"""Reviewer BT's blind round (an adversarial model keeping values in its notes past a scrubber, 110 of 300 lines
evasions, 24 languages): each form found missed or altered, as a general case, with the near forms that must stay as
they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a value whose groups are each a code span, side by side ("` `", "`.`", "`-`"), the first span's opening and
        # the last one's closing backtick with it (reviewer CR)
        ("Kontonummer (IBAN): `SE97` `5009` `1563` `2773` `2897` `9112`", "`SE97` `5009` `1563` `2773` `2897` `9112`"),
        ("card `4111` `1111` `1111` `1111`", "`4111` `1111` `1111` `1111`"),
        (
            "token: `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9`.`eyJzdWIiOiI3MjA3MzciLCJyb2xlIjoiZWRpdG9yIn0`."
            "`nlgW696FZucyMWkVpCDk41Vd71R5_XLkdpmrc3umm5E`",
            "`eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9`.`eyJzdWIiOiI3MjA3MzciLCJyb2xlIjoiZWRpdG9yIn0`."
            "`nlgW696FZucyMWkVpCDk41Vd71R5_XLkdpmrc3umm5E`",
        ),
        # a number dialled out with "00" on someone's line
        ("call me back at +1 503 298 3259 or on my Dutch line 0031 6 9113 3007.", "0031 6 9113 3007"),
        # Spanish's word for a secret near a random run
        ("El secreto del webhook es o7FdpUenkMu4QuBeMbb03JBY0Mv8", "o7FdpUenkMu4QuBeMbb03JBY0Mv8"),
        # a German account beside its bank's code (BLZ), in fullwidth digits
        ("Kontonummer: ４８３５７５５８０７, BLZ 370 400 44", "４８３５７５５８０７"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # bytes in hex, two characters each, some of them letters
        "Hex dump: 4d 5a 90 00 03 00 00 00 04 00 00 00 ff ff 00 00",
        # a template's words around "[at]" and "[dot]"
        "Use the [at] and [dot] placeholders described in the template docs, section 4.2.",
        # code spans side by side that hold no value
        "Run `make` `test` then `git` `push`",
        "use `v1.2`.`3` and `a`-`b`",
        # a line that is not someone's
        "the line 0031 6 9113 3007 is busy",
        # the attacker's round: lines that are no phone's, exit codes and numbers in code spans, ISO's "BLZ"
        "my bottom line is 2400000 after tax",
        "my credit line: 15000000 won",
        "my line 4823 1200 in the logs",
        "Exit codes `0` `1` `2` `126` `127` `130`",
        "Benchmark values `6877`.`2373`.`8868`.`1939`.`9363`",
        "ISO codes: BLZ Belize, BRA Brazil. Account no. 47110815 is the distributor.",
    ],
)
def test_these_stay_as_they_are(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "the.boss [at] firm [dot] com",
        # a name or a host that is also a function word, beside one that is not (the attacker's round)
        "or [at] acme [dot] io",
        "helpdesk [at] its [dot] uiowa [dot] edu",
        "a @ b.com",
    ],
)
def test_a_mailbox_with_a_function_word_in_it_is_still_one(text: str) -> None:
    assert found_values(text) == [text]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # phones beside French's "de" and times, which are no hex dump (the attacker's round)
        ("Tél. : 01 42 68 53 00 de 09 00 à 12 00", "01 42 68 53 00"),
        ("joignable ce 06 12 34 56 78 de 08 h à 20 h", "06 12 34 56 78"),
    ],
)
def test_a_phone_beside_words_that_look_hex_is_found(text: str, value: str) -> None:
    assert value in found_values(text)
