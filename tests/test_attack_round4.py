"""Attack round 4 on the core (issue 7): a fresh reviewer's findings, each a test that failed before its fix.

- A passphrase holding a byte that was not UTF-8 where it came from ($SECUREMEM_KEY, an argument:
  Python keeps it as a lone surrogate) escaped as a raw UnicodeEncodeError whose args held the
  whole passphrase.
- TR39's slash look-alikes U+27CB, U+27CD, U+29F9, U+2041, U+1735 and U+2AFD were accepted in paths.
- Names made only of characters drawn as dots ("ꓸꓸ", a Lisu tone letter; "ꞏꞏ", "⋅⋅", "∙∙", "ᐧᐧ") were
  accepted, and listed as directories that read as "..".
- The CLI read a tool input, a policy, a replay's lines or a memory's text from a device (/dev/zero)
  until the memory ran out: no one-line error, and replay never printed its summary.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from securemem import KeyFileError, Passphrase, SecureMemory
from securemem.errors import KekError
from securemem.keys.kek import PassphraseKek
from tests.helpers import init_store, run_cli

SECRET = "TOP-SECRET-PASSPHRASE"


def test_a_passphrase_with_a_byte_that_was_not_utf8_opens_its_store_again(tmp_path: Path) -> None:
    key = b"\xff" + SECRET.encode()
    text = key.decode("utf-8", "surrogateescape")  # what Python makes of it in os.environ and sys.argv
    db = tmp_path / "m.db"
    with SecureMemory.open(db, key=text) as memory:
        assert not memory.execute({"command": "create", "path": "/memories/a.md", "file_text": "x\n"}).is_error
    with SecureMemory.open(db, key=Passphrase(text)) as memory:
        content = memory.execute({"command": "view", "path": "/memories/a.md"}).content
        assert isinstance(content, str) and content.endswith("1\tx")


@pytest.mark.parametrize("through", ["Passphrase", "SecureMemory.open"])
def test_a_passphrase_that_is_not_text_is_refused_without_being_quoted(tmp_path: Path, through: str) -> None:
    text = "\ud800" + SECRET  # a lone surrogate that stands for no byte
    db = tmp_path / "m.db"
    with pytest.raises(KeyFileError) as caught:
        if through == "Passphrase":
            Passphrase(text)
        else:
            SecureMemory.open(db, key=text)
    assert SECRET not in repr(caught.value.args) and "surrogate" in str(caught.value)
    assert not db.exists()  # refused before any file was made


def test_a_kek_passphrase_that_is_not_text_is_refused_without_being_quoted() -> None:
    kek = PassphraseKek("passphrase:", lambda: "\ud800" + SECRET)  # as a terminal may hand it over
    with pytest.raises(KekError) as caught:
        kek.wrap(os.urandom(32), "memstore_test")
    assert SECRET not in repr(caught.value.args)


@pytest.fixture
def memory(tmp_path: Path) -> SecureMemory:
    return SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy="regulated")


@pytest.mark.parametrize("char", ["\u27cb", "\u27cd", "\u29f9", "\u2041", "\u1735", "\u2afd", "\u2afb", "\u29f6"])
def test_slash_lookalikes_of_tr39_are_refused(memory: SecureMemory, char: str) -> None:
    path = f"/memories/reference{char}policy.md"
    result = memory.execute({"command": "create", "path": path, "file_text": "x\n"})
    assert result.is_error and f"U+{ord(char):04X}" in result.content and path not in result.content
    assert "reference" not in memory.execute({"command": "view", "path": "/memories"}).content


@pytest.mark.parametrize(
    "name",
    # a joiner between them draws nothing (a second round: "ꓸ\u200dꓸ" was accepted)
    ["ꓸꓸ", "ꓸꓸꓸ", ".ꓸ", "ꓸ.", "ꞏꞏ", "⋅⋅", "∙∙", "ᐧᐧ", "٠٠", "ꓸꓸnotes", "・・", "ꓸ\u200dꓸ", "ꓸ\u200cꓸ", "ᐧ\u200cᐧ"],
)
def test_names_drawn_as_dots_are_refused(memory: SecureMemory, name: str) -> None:
    result = memory.execute({"command": "create", "path": f"/memories/{name}/notes.md", "file_text": "x\n"})
    assert result.is_error and "dots" in result.content and name not in result.content


@pytest.mark.parametrize("name", ["ジョン・スミス", "٠١٢", "v1.2", "a.b.md", "notes·2024", "・メモ"])
def test_names_with_a_dot_lookalike_inside_still_work(memory: SecureMemory, name: str) -> None:
    result = memory.execute({"command": "create", "path": f"/memories/{name}/x.md", "file_text": "x\n"})
    assert not result.is_error, result.content


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    return init_store(tmp_path, capsys, monkeypatch)


def _one_line_refusal(code: int, out: str, err: str) -> str:
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (code, out, err)
    return err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_a_device_as_input_is_refused_in_one_line(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line_refusal(*run_cli(capsys, "exec", "--db", str(db), "@/dev/zero"))
    assert "cannot read the tool input from /dev/zero: larger than" in err
    err = _one_line_refusal(*run_cli(capsys, "policy", "check", "/dev/zero"))
    assert "cannot read policy /dev/zero: larger than" in err
    run_cli(capsys, "stores", "create", "--db", str(db), "--name", "notes")
    argv = ["memories", "write", "--db", str(db), "--store", "notes", "--path", "/z.md", "--content-file", "/dev/zero"]
    err = _one_line_refusal(*run_cli(capsys, *argv))
    assert "cannot read the content from /dev/zero: larger than" in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_replay_of_a_device_says_so_and_ends_with_its_summary(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "replay", "--db", str(db), "/dev/zero")
    lines = out.splitlines()
    assert code == 1 and "Traceback" not in err, (out, err)
    assert "[1] error: the line is longer than" in out and lines[-1] == "replayed 1 commands, 1 failed", lines


def test_replay_reads_a_line_of_the_bounds_length_whole(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line break after a line is no part of it (a second round: a line of exactly the bound was refused)."""
    import securemem.cli as cli

    monkeypatch.setattr(cli, "MAX_INPUT_BYTES", 64)
    line = b'{"command": "view", "path": "/memories"}'
    lines = tmp_path / "in.jsonl"
    lines.write_bytes(line + b" " * (64 - len(line)) + b"\n" + line + b" " * (65 - len(line)) + b"\n")
    code, out, _ = run_cli(capsys, "replay", "--db", str(db), str(lines))
    assert "[1] ok" in out and "[2] error: the line is longer than 64 bytes" in out and code == 1, out


def test_replay_skips_a_line_too_long_and_answers_the_lines_after_it(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line over the bound stopped the replay there: the lines after it were never run (an attacker's round)."""
    import securemem.cli as cli

    monkeypatch.setattr(cli, "MAX_INPUT_BYTES", 64)
    monkeypatch.setattr(cli, "_SKIP_CHUNK", 16)  # the long line is read past in several chunks
    view = b'{"command": "view", "path": "/memories"}'
    create = b'{"command":"create","path":"/memories/a.md","file_text":"x"}'
    lines = tmp_path / "in.jsonl"
    lines.write_bytes(view + b"\n" + b'"' + b"a" * 500 + b'"\n' + view + b"\n" + create)
    code, out, _ = run_cli(capsys, "replay", "--db", str(db), str(lines))
    assert "[2] error: the line is longer than 64 bytes; skipped" in out, out
    assert "[3] ok" in out and "[4] ok" in out and out.splitlines()[-1] == "replayed 4 commands, 1 failed", out
    assert code == 1
    monkeypatch.setattr(cli, "MAX_SKIPPED_BYTES", 256)  # no line break within reach: the rest is not read
    lines.write_bytes(view + b"\n" + b"a" * 1000 + b"\n" + view + b"\n")
    code, out, _ = run_cli(capsys, "replay", "--db", str(db), str(lines))
    assert "[2] error: the line is longer than 256 bytes; the rest is not read" in out, out
    assert out.splitlines()[-1] == "replayed 2 commands, 1 failed" and code == 1, out
