"""Forms from reviewer S's blind round (tests/data/pii_review_s.jsonl: written as a hostile acceptance
suite would be, a third of its positive lines evasions; taken as it came). Each case lists exactly
what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Tencent Cloud's SecretId, Yandex ID's OAuth token, Lob's keys (the catalogue's new rules).
        ('"tencent_id":"AKIDLWddKPBAQU4vxcuQkCkWwUtHHFJGihfT"', ["AKIDLWddKPBAQU4vxcuQkCkWwUtHHFJGihfT"]),
        ("AKIDLWddKPBAQUavxcuQkCkWwUtHHFJGihfT", []),  # no digit: a word, not an id
        (
            '"yandex_oauth":"y0_kneYN5sJeZYBnOX1V_uaLvWgO5HWzLrjUpCjKRXCTF-Lgl5PnmMsCbJ"',
            ["y0_kneYN5sJeZYBnOX1V_uaLvWgO5HWzLrjUpCjKRXCTF-Lgl5PnmMsCbJ"],
        ),
        ('"lob":"live_7840b7223d6598f26338da1099084b257d4"', ["live_7840b7223d6598f26338da1099084b257d4"]),
        ("live_pub_7840b7223d6598f26338da10990841a", ["live_pub_7840b7223d6598f26338da10990841a"]),
        ("test_7840b7223d6598f26338da1099084b2", []),  # 32 hexadecimal digits: a test's name and a hash
        # A password, then a remark in brackets of another script; code's call stays a call.
        ("検証環境のパスワード：hF0ZRQBLlibSRTJt（月末に変更予定）", ["hF0ZRQBLlibSRTJt"]),
        ("password = getpass()", []),
        # An address a line break cut in its local part: its second half only (the line before may end in
        # a host, a file's name or a reference as well: "www.acme.com" then "sales@acme.com").
        ("mail of the branch head: a.hadd\nad@qnb.com.qa (wrapped)", ["ad@qnb.com.qa"]),
        ("www.acme.com\nsales@acme.com", ["sales@acme.com"]),
        ("see file config.yaml\nadmin@corp.com", ["admin@corp.com"]),
        # An SSN a line break cut after a dash; a date cut so is not one.
        ("The member's SSN is 057-41-\n7512 as read from the scan.", ["057-41-\n7512"]),
        ("build 2024-11-\n30 done", []),
        ("SSN 057-41-\n7512-99", []),
    ],
)
def test_forms_of_reviewer_s(text: str, values: list[str]) -> None:
    assert found_values(text) == values
