"""An attacker's round on the memory tool's surface (stop 48): each finding a test that failed before its fix.

- A card or an SSN split across directory levels with other separators ("/memories/5555-5555/5555-4444.md",
  "/memories/55555555/55554444.md", "/memories/536/22/8726.md") was stored, and listed whole.
- `securemem exec` and `replay` printed a result's escape sequences raw to the operator's terminal.
- A file with LF endings and a CRLF line an insert left could not be edited across that line (the views do not
  show the CR).
- Overlapping occurrences of old_str ("\\n\\n" in "\\n\\n\\n") were taken as one and replaced.
- `securemem exec` took the last of two equal keys ('{"command":"view","command":"delete"}' deleted).
- old_str holding an SSN matched the stored placeholder whatever SSN it held, and said nothing of it.
- A namespace full of the history of deleted memories told the model to delete memories (which adds versions).
(The view of a file no longer than view.max_chars, cut at the limit of its numbered output: see
tests/test_truncate_images.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.policy import Policy, load_policy
from tests.helpers import create, dump, err, init_store, ok, run_cli, stored_text, view


@pytest.fixture
def regulated(tmp_path: Path, key: bytes) -> SecureMemory:
    return SecureMemory.open(tmp_path / "r.db", key=key, policy=load_policy("regulated"))


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/memories/5555-5555/5555-4444.md", "CREDIT_CARD"),
        ("/memories/55555555/55554444.md", "CREDIT_CARD"),
        ("/memories/5555-5555-5555/4444.md", "CREDIT_CARD"),
        ("/memories/536-22/8726.md", "US_SSN"),
        ("/memories/536/22/8726.md", "US_SSN"),
        # dotted names split the same way (a second attacker's round on the README's promises)
        ("/memories/4111.1111/1111.1111.md", "CREDIT_CARD"),
        ("/memories/536.22/8726.md", "US_SSN"),
    ],
)
def test_a_value_split_across_directory_levels_is_refused(regulated: SecureMemory, path: str, kind: str) -> None:
    before = dump(regulated)
    message = err(regulated, command="create", path=path, file_text="x\n")
    assert kind in message and "5555" not in message and "8726" not in message
    assert dump(regulated) == before


@pytest.mark.parametrize(
    "path",
    [
        "/memories/2024/01/15/notes.md",
        "/memories/v1/2/3/x.md",
        "/memories/10/0/0/1/x.md",
        "/memories/v1.2/3/notes.md",
        "/memories/logs/305/12/2023.md",
    ],
)
def test_dates_and_numbered_directories_stay_paths(regulated: SecureMemory, path: str) -> None:
    create(regulated, path)


def test_exec_escapes_what_a_result_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = init_store(tmp_path, capsys, monkeypatch)
    hostile = "title \x1b]0;PWNED\x07 then \x1b[2J clear\rover\ttab"
    create_input = json.dumps({"command": "create", "path": "/memories/t.md", "file_text": hostile + "\n"})
    assert run_cli(capsys, "exec", "--db", str(db), create_input)[0] == 0
    code, out, _ = run_cli(capsys, "exec", "--db", str(db), '{"command":"view","path":"/memories/t.md"}')
    assert code == 0 and "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert "title \\x1b]0;PWNED\\x07 then \\x1b[2J clear\\x0dover\ttab" in out  # a tab and the line breaks stay
    replayed = tmp_path / "lines.jsonl"
    replayed.write_text('{"command":"view","path":"/memories/t.md"}\n', encoding="utf-8")
    code, out, _ = run_cli(capsys, "replay", "--db", str(db), str(replayed))
    assert code == 0 and "\x1b" not in out and out.rstrip("\n").endswith("replayed 1 commands, 0 failed")


def test_exec_refuses_a_key_given_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = init_store(tmp_path, capsys, monkeypatch)
    made = json.dumps({"command": "create", "path": "/memories/keep.md", "file_text": "x\n"})
    assert run_cli(capsys, "exec", "--db", str(db), made)[0] == 0
    twice = '{"command":"view","path":"/memories/keep.md","command":"delete"}'
    code, out, said = run_cli(capsys, "exec", "--db", str(db), twice)
    assert (code, out) == (2, "") and said.strip().endswith("(an object holds the same key twice)")
    assert "delete" not in said and len(said.strip().splitlines()) == 1
    code, out, _ = run_cli(capsys, "exec", "--db", str(db), '{"command":"view","path":"/memories/keep.md"}')
    assert code == 0 and out.rstrip().endswith("1\tx")


def test_exec_escapes_the_bidi_marks_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = init_store(tmp_path, capsys, monkeypatch)
    made = json.dumps({"command": "create", "path": "/memories/b.md", "file_text": "E\u200f F\u061c G\u200e\n"})
    assert run_cli(capsys, "exec", "--db", str(db), made)[0] == 0
    code, out, _ = run_cli(capsys, "exec", "--db", str(db), '{"command":"view","path":"/memories/b.md"}')
    assert code == 0 and "E\\u200f F\\u061c G\\u200e" in out
    assert not any(mark in out for mark in "\u200f\u061c\u200e")


def test_the_cr_of_a_crlf_line_in_an_lf_file_is_not_replaced(mem: SecureMemory) -> None:
    create(mem, "/memories/m.md", "one\nmid\r\ntwo\n")
    message = err(mem, command="str_replace", path="/memories/m.md", old_str="mid\r", new_str="x")
    assert "carriage return" in message and stored_text(mem, "/memories/m.md") == "one\nmid\r\ntwo\n"


def test_a_crlf_line_in_an_lf_file_is_edited_as_the_view_shows_it(mem: SecureMemory) -> None:
    create(mem, "/memories/m.md", "a\nb\n")
    ok(mem, command="insert", path="/memories/m.md", insert_line=1, insert_text="x\r\ny")
    assert view(mem, "/memories/m.md").endswith("     1\ta\n     2\tx\n     3\ty\n     4\tb")
    ok(mem, command="str_replace", path="/memories/m.md", old_str="x\ny", new_str="k\nl")
    assert stored_text(mem, "/memories/m.md") == "a\nk\r\nl\nb\n"  # the edited line keeps its CRLF


@pytest.mark.parametrize(("text", "old", "lines"), [("\n\n\n", "\n\n", "1, 2"), ("ababa\n", "aba", "1, 1")])
def test_overlapping_occurrences_are_several(mem: SecureMemory, text: str, old: str, lines: str) -> None:
    create(mem, "/memories/o.md", text)
    message = err(mem, command="str_replace", path="/memories/o.md", old_str=old, new_str="X")
    assert message.startswith("No replacement was performed. Multiple occurrences of old_str")
    assert message.endswith(f"in lines: {lines}. Please ensure it is unique")
    assert stored_text(mem, "/memories/o.md") == text


def test_old_str_matched_by_a_placeholder_says_so(regulated: SecureMemory) -> None:
    create(regulated, "/memories/a.md", "Alice SSN 536-22-8726\nmail jane@corp.example.org\n")
    answer = ok(
        regulated, command="str_replace", path="/memories/a.md", old_str="Alice SSN 219-45-1234", new_str="Alice"
    )
    assert answer.endswith(
        "Note: old_str's US_SSN matched the stored placeholder, which stands for any such value: the value stored "
        "was not compared with the one sent."
    )
    # A keyed token is the value's own: matching it says the value is the one stored, and no note is added.
    answer = ok(regulated, command="str_replace", path="/memories/a.md", old_str="jane@corp.example.org", new_str="x")
    assert "Note:" not in answer


def test_a_namespace_full_of_history_says_what_frees_it(tmp_path: Path, key: bytes) -> None:
    policy = Policy.model_validate({"name": "q", "quota": {"max_total_bytes": 20_000}})
    with SecureMemory.open(tmp_path / "q.db", key=key, policy=policy) as memory:
        for _ in range(200):
            result = memory.execute({"command": "create", "path": "/memories/n.md", "file_text": "x"})
            if result.is_error:
                break
            ok(memory, command="delete", path="/memories/n.md")
        assert result.is_error, "the history never filled the namespace"
        assert "deleting memories does not free (a deletion is recorded too)" in result.text
        assert "raise the quota" in result.text and "delete memories you no longer need" not in result.text
