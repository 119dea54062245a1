"""An attacker's round on the README's PII promises, through the product under the regulated policy: what it
found stored in clear, or left half-done, and what must stay as it is."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.pii import detect
from securemem.policy import load_policy
from tests.helpers import create, err, ok, view


@pytest.fixture
def regulated(tmp_path: Path) -> Iterator[SecureMemory]:
    with SecureMemory.open(tmp_path / "r.db", key=os.urandom(32), policy=load_policy("regulated")) as memory:
        yield memory


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # An SSN under a key whose last word names it, the type's own name too.
        ("customer_ssn: 536221234", "536221234"),
        ("employee_ssn=536221234", "536221234"),
        ("US_SSN:536221234", "536221234"),
        ("[US_SSN:536221234]", "536221234"),
        ("US_SSN_536221234", "536221234"),
        ('{"customer_ssn": "536221234"}', "536221234"),
        ("name,customer_ssn,hire_date\nAnn,536221234,2020-01-02", "536221234"),
        # A phone in two scripts of digits.
        ("电话 13九6三99二0二9", "13九6三99二0二9"),
        ("手机 一三九６３９９２０２９", "一三九６３９９２０２９"),
        # A dingbat's zero, which has no digit value of its own.
        ("phone +➃➃➆➆🄋🄋➈🄋🄋➀➁➂", "+➃➃➆➆🄋🄋➈🄋🄋➀➁➂"),
    ],
)
def test_stored_scrubbed(regulated: SecureMemory, text: str, value: str) -> None:
    create(regulated, "/memories/a.md", text + "\n")
    shown = view(regulated, "/memories/a.md")
    assert value not in shown
    assert detect(shown.split("\n", 1)[1]) == []  # nothing of the value is left to find


def test_a_phone_in_two_scripts_completed_by_an_edit(regulated: SecureMemory) -> None:
    create(regulated, "/memories/a.md", "手机 一三九\n")
    ok(regulated, command="str_replace", path="/memories/a.md", old_str="九\n", new_str="九６３９９２０２９\n")
    assert "２０２９" not in view(regulated, "/memories/a.md")


def test_an_override_opened_before_a_value_goes_with_it(regulated: SecureMemory) -> None:
    create(regulated, "/memories/a.md", "x \u202ejane.doe@exa\u202cmple.com y\n")
    shown = view(regulated, "/memories/a.md")
    assert "\u202e" not in shown and "\u202c" not in shown and "[EMAIL:" in shown


@pytest.mark.parametrize("path", ["/memories/jane.doe@example/com.md", "/memories/jane.doe@/example.com.md"])
def test_an_address_cut_by_a_slash_is_refused_in_a_path(regulated: SecureMemory, path: str) -> None:
    assert "EMAIL" in err(regulated, command="create", path=path, file_text="x\n")


@pytest.mark.parametrize(
    "path", ["/memories/team@offsite/notes.md", "/memories/team@offsite/2024.md", "/memories/icons/icon@2x/png.md"]
)
def test_a_folder_with_an_at_sign_is_no_address(regulated: SecureMemory, path: str) -> None:
    create(regulated, path)


@pytest.mark.parametrize(
    "text",
    [
        "order_id: 536221234",
        "2024年12月3日 共12345一个",
        "二〇二四年一二月三日",
        "订单号 202412345678",
    ],
)
def test_left_alone(text: str) -> None:
    assert detect(text) == []
