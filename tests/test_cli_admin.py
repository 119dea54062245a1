"""The admin command line (cli_admin, cli_memories, cli_transfer, cli_audit): JSON lines out, exit
0 / 1 (with the error's code) / 2, content only from files or stdin, export files private and never
overwritten, imports that report every line, and an audit that names each tampered version."""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory, cli_transfer
from securemem.cli import build_parser
from securemem.store.factory import open_store
from tests.helpers import REPO, connection_of, run_cli

Lines = list[dict[str, Any]]


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new store file made by ``securemem init`` (its key in DB.key), holding one store, "notes"."""
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    path = tmp_path / "m.db"
    assert run_cli(capsys, "init", "--db", str(path))[0] == 0
    assert cli(capsys, "stores", "create", "--db", str(path), "--name", "notes")[0] == 0
    return path


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch) -> Callable[[bytes], None]:
    def feed(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))

    return feed


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Lines, str]:
    """Run securemem in this process: its exit code, each stdout line parsed as JSON, and stderr."""
    code, out, err = run_cli(capsys, *argv)
    assert out.isascii(), "the admin commands print ASCII JSON only"
    return code, [json.loads(line) for line in out.splitlines()], err


def on(db: Path, *argv: str, store: str | None = "notes") -> list[str]:
    """``argv`` with ``--db DB`` (and ``--store``) after the command words (those before the first option)."""
    words = 0
    while words < len(argv) and not argv[words].startswith("-"):
        words += 1
    extra = ["--db", str(db), *(["--store", store] if store else [])]
    return [*argv[:words], *extra, *argv[words:]]


def ok(capsys: pytest.CaptureFixture[str], db: Path, *argv: str, store: str | None = "notes") -> Lines:
    code, lines, err = cli(capsys, *on(db, *argv, store=store))
    assert code == 0, (lines, err)
    return lines


def refused(capsys: pytest.CaptureFixture[str], db: Path, code: str, *argv: str, store: str | None = "notes") -> None:
    """Exit 1, one JSON error object with the contract's code on stdout, one line on stderr."""
    status, lines, err = cli(capsys, *on(db, *argv, store=store))
    assert status == 1, (lines, err)
    assert len(lines) == 1 and lines[0]["error"]["code"] == code, lines
    assert set(lines[0]["error"]) == {"code", "status", "message"} and isinstance(lines[0]["error"]["status"], int)
    assert err.count("\n") == 1 and err.startswith(f"securemem: {code}: ") and "Traceback" not in err


def usage(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (out, err)
    return err


def write(capsys: pytest.CaptureFixture[str], db: Path, path: str, text: str, *more: str) -> dict[str, Any]:
    source = db.with_name("content.txt")
    source.write_text(text, encoding="utf-8")
    (memory,) = ok(capsys, db, "memories", "write", "--path", path, "--content-file", str(source), *more)
    return memory


def raw_key(db: Path) -> bytes:
    return bytes.fromhex(Path(f"{db}.key").read_text().strip())


def parses_as_utc(text: str) -> bool:
    return text.endswith("Z") and datetime.fromisoformat(text).utcoffset() == timedelta(0)


# -- stores --------------------------------------------------------------------------------------


def test_stores_create_show_update_delete(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (made,) = ok(capsys, db, "stores", "create", "--name", "Team notes", "--description", "what we learned", store=None)
    assert made["id"].startswith("memstore_") and made["name"] == "Team notes"
    assert made["description"] == "what we learned" and parses_as_utc(made["created_at"])
    refused(capsys, db, "conflict", "stores", "create", "--name", "Team notes", store=None)
    assert ok(capsys, db, "stores", "show", store="Team notes") == [made]
    assert ok(capsys, db, "stores", "show", store=made["id"]) == [made]
    (renamed,) = ok(capsys, db, "stores", "update", "--name", "Ops", store=made["id"])
    assert (renamed["id"], renamed["name"], renamed["description"]) == (made["id"], "Ops", "what we learned")
    refused(capsys, db, "not_found", "stores", "show", store="Team notes")
    assert "--yes" in usage(capsys, *on(db, "stores", "delete", store="Ops"))
    assert ok(capsys, db, "stores", "delete", "--yes", store="Ops") == [
        {"deleted": True, "id": made["id"], "name": "Ops"}
    ]
    refused(capsys, db, "not_found", "stores", "show", store=made["id"])
    assert [s["name"] for s in ok(capsys, db, "stores", "list", store=None)] == ["notes"]


def test_a_listing_prints_next_page_only_when_there_is_one(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for n in range(4):
        ok(capsys, db, "stores", "create", "--name", f"s{n}", store=None)
    first = ok(capsys, db, "stores", "list", "--limit", "2", store=None)
    assert [s["name"] for s in first[:2]] == ["notes", "s0"] and set(first[2]) == {"next_page"}
    second = ok(capsys, db, "stores", "list", "--limit", "2", "--page", first[2]["next_page"], store=None)
    assert [s["name"] for s in second[:2]] == ["s1", "s2"] and set(second[2]) == {"next_page"}
    last = ok(capsys, db, "stores", "list", "--limit", "2", "--page", second[2]["next_page"], store=None)
    assert [s["name"] for s in last] == ["s3"]
    every = ok(capsys, db, "stores", "list", "--all", "--limit", "2", store=None)
    assert [s["name"] for s in every] == ["notes", "s0", "s1", "s2", "s3"]
    refused(capsys, db, "invalid_request", "stores", "list", "--limit", "0", store=None)
    refused(capsys, db, "invalid_request", "stores", "list", "--page", "forged", store=None)


def test_an_id_looking_name_and_an_unknown_store(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, db, "stores", "create", "--name", "memstore_lookalike", store=None)
    assert ok(capsys, db, "stores", "show", store="memstore_lookalike")[0]["name"] == "memstore_lookalike"
    refused(capsys, db, "not_found", "memories", "ls", store="nope")
    refused(capsys, db, "not_found", "memories", "ls", store="memstore_0000000000000000000000ff")


def test_a_reference_shaped_like_an_id_is_only_ever_an_id(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shaped = "memstore_" + "ab" * 12  # a store may take a name shaped like an id...
    made = ok(capsys, db, "stores", "create", "--name", shaped, store=None)[0]
    refused(capsys, db, "not_found", "stores", "show", store=shaped)  # ...which is then read as an id only
    assert ok(capsys, db, "stores", "show", store=made["id"])[0]["name"] == shaped
    (db.parent / "e.jsonl").write_text('{"path": "/a.md", "content": "a"}\n')
    refused(capsys, db, "not_found", "import", str(db.parent / "e.jsonl"), store=shaped)  # nor made by an import
    # An id in capitals is still shaped like one (a fresh attacker's round: a store named after a victim's id
    # in capitals took every command given it): never the store of that name.
    shouted = "memstore_" + made["id"].removeprefix("memstore_").upper()
    squatter = ok(capsys, db, "stores", "create", "--name", shouted, store=None)[0]
    for command in (("stores", "show"), ("memories", "ls"), ("stores", "delete", "--yes")):
        refused(capsys, db, "not_found", *command, store=shouted)
    assert ok(capsys, db, "stores", "show", store=squatter["id"])[0]["name"] == shouted


def test_the_api_key_id_securemem_records_for_itself_is_a_usage_error(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for actor in ("securemem:expiry", "securemem:migration", "securemem:anything"):
        err = usage(capsys, *on(db, "stores", "create", "--name", "x", "--api-key-id", actor, store=None))
        assert "--api-key-id" in err and "securemem:" in err
    assert [s["name"] for s in ok(capsys, db, "stores", "list", store=None)] == ["notes"]
    ok(capsys, db, "stores", "create", "--name", "x", "--api-key-id", "securemem-ops", store=None)


# -- memories ------------------------------------------------------------------------------------


def test_memories_write_cat_update_rm(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = write(capsys, db, "/notes/a.md", "first\n")
    assert made["id"].startswith("mem_") and made["path"] == "/notes/a.md" and made["content"] == "first\n"
    assert made["content_size_bytes"] == 6 and parses_as_utc(made["updated_at"])
    assert ok(capsys, db, "memories", "cat", "/notes/a.md") == [made]
    assert ok(capsys, db, "memories", "cat", made["id"], "--no-content") == [
        {k: v for k, v in made.items() if k != "content"}
    ]
    (listed,) = ok(capsys, db, "memories", "ls", "--path-prefix", "/notes/")
    assert "content" not in listed and listed["content_sha256"] == made["content_sha256"]
    source = db.with_name("content.txt")
    refused(capsys, db, "memory_precondition_failed", "memories", "write", "--path", "/notes/a.md",
            "--content-file", str(source), "--if-not-exists")  # fmt: skip
    stale = "0" * 64
    refused(capsys, db, "memory_precondition_failed", "memories", "update", "/notes/a.md", "--path", "/b.md",
            "--if-sha256", stale)  # fmt: skip
    (moved,) = ok(
        capsys, db, "memories", "update", "/notes/a.md", "--path", "/b.md", "--if-sha256", made["content_sha256"]
    )
    assert (moved["id"], moved["path"], moved["content"]) == (made["id"], "/b.md", "first\n")
    refused(capsys, db, "not_found", "memories", "cat", "/notes/a.md")
    refused(capsys, db, "memory_precondition_failed", "memories", "rm", "/b.md", "--if-sha256", stale)
    assert ok(capsys, db, "memories", "rm", "/b.md", "--if-sha256", made["content_sha256"]) == [
        {"deleted": True, "id": made["id"]}
    ]
    refused(capsys, db, "not_found", "memories", "cat", made["id"])


def test_content_comes_from_a_file_or_stdin_never_the_command_line(
    db: Path, capsys: pytest.CaptureFixture[str], stdin: Callable[[bytes], None]
) -> None:
    stdin("from stdin ✓\n".encode())
    (made,) = ok(capsys, db, "memories", "write", "--path", "/s.md", "--content-file", "-")
    assert made["content"] == "from stdin ✓\n"
    for flag in ("--content", "--content=secret words"):
        err = usage(capsys, *on(db, "memories", "write", "--path", "/x.md", flag, "secret words"))
        assert "never taken from the command line" in err and "secret" not in err
    # No abbreviations: "--content-f" is not taken for --content-file.
    assert "required: --content-file" in usage(
        capsys, *on(db, "memories", "write", "--path", "/x.md", "--content-f", "f")
    )
    latin1 = db.with_name("latin1.txt")
    latin1.write_bytes("café".encode("latin-1"))
    assert "not UTF-8 (byte 4)" in usage(
        capsys, *on(db, "memories", "write", "--path", "/x.md", "--content-file", str(latin1))
    )
    assert "cannot read" in usage(capsys, *on(db, "memories", "write", "--path", "/x.md", "--content-file", "missing"))
    assert "at least one" in usage(capsys, *on(db, "memories", "update", "/s.md"))


def test_the_stores_recorded_policy_applies_to_admin_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db = tmp_path / "r.db"
    assert run_cli(capsys, "init", "--db", str(db), "--policy", "regulated")[0] == 0
    ok(capsys, db, "stores", "create", "--name", "notes", store=None)
    source = tmp_path / "secret.txt"
    source.write_text("aws key AKIAIOSFODNN7EXAMPLE\n")
    refused(capsys, db, "policy_violation", "memories", "write", "--path", "/k.md", "--content-file", str(source))
    code, lines, err = cli(capsys, *on(db, "memories", "write", "--path", "/k.md", "--content-file", str(source)))
    assert code == 1 and "AKIAIOSFODNN7EXAMPLE" not in json.dumps(lines) + err  # the refusal never echoes it
    refused(capsys, db, "invalid_request", "memories", "write", "--path", "/../etc/x", "--content-file", str(source))
    assert write(capsys, db, "/mail.md", "mail dana.reyes@example.com\n")["content"] != "mail dana.reyes@example.com\n"


# -- versions ------------------------------------------------------------------------------------


def test_versions_ls_has_every_filter_of_the_contract(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = write(capsys, db, "/a.md", "1\n", "--api-key-id", "ops-1")
    write(capsys, db, "/a.md", "2\n")
    write(capsys, db, "/b.md", "b\n")
    ok(capsys, db, "memories", "rm", "/b.md", "--api-key-id", "ops-1")
    with SecureMemory.open(db, key=raw_key(db), namespace="notes", session_id="sess_cli_test") as mem:
        assert not mem.execute({"command": "create", "path": "/memories/c.md", "file_text": "c\n"}).is_error
    every = ok(capsys, db, "versions", "ls")
    assert [v["operation"] for v in every] == ["created", "deleted", "created", "modified", "created"]
    assert all("content" not in v for v in every)
    ops = [v["operation"] for v in ok(capsys, db, "versions", "ls", "--operation", "deleted")]
    assert ops == ["deleted"]
    by = ok(capsys, db, "versions", "ls", "--by-api-key-id", "ops-1")
    assert [(v["operation"], v["api_key_id"]) for v in by] == [("deleted", "ops-1"), ("created", "ops-1")]
    assert {v["api_key_id"] for v in every} >= {"securemem-cli", "ops-1"}
    mine = ok(capsys, db, "versions", "ls", "--memory-id", first["id"])
    assert [v["operation"] for v in mine] == ["modified", "created"]
    assert ok(capsys, db, "versions", "ls", "--memory-id", "/a.md") == mine
    (session,) = ok(capsys, db, "versions", "ls", "--session-id", "sess_cli_test")
    assert session["path"] == "/c.md"
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    assert ok(capsys, db, "versions", "ls", "--since", future) == []
    assert ok(capsys, db, "versions", "ls", "--until", "2000-01-01") == []
    assert len(ok(capsys, db, "versions", "ls", "--since", "2000-01-01T00:00:00Z", "--until", future)) == 5
    paged = ok(capsys, db, "versions", "ls", "--limit", "2")
    assert [v["id"] for v in paged[:2]] == [v["id"] for v in every[:2]] and "next_page" in paged[2]
    assert "not an ISO 8601" in usage(capsys, *on(db, "versions", "ls", "--since", "yesterday"))


def test_versions_show_redact_restore(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(capsys, db, "/a.md", "old text\n")
    write(capsys, db, "/a.md", "new text\n")
    newest, oldest = ok(capsys, db, "versions", "ls")
    (shown,) = ok(capsys, db, "versions", "show", oldest["id"])
    assert shown["content"] == "old text\n" and shown["path"] == "/a.md"
    (restored,) = ok(capsys, db, "versions", "restore", oldest["id"])
    assert restored["content"] == "old text\n" and restored["id"] == oldest["memory_id"]
    (redacted,) = ok(capsys, db, "versions", "redact", newest["id"])
    assert redacted["path"] is None and redacted["content_sha256"] is None and parses_as_utc(redacted["redacted_at"])
    assert redacted["api_key_id"] == "securemem-cli" and "content" not in redacted
    assert ok(capsys, db, "versions", "show", newest["id"])[0]["content"] is None
    refused(capsys, db, "conflict", "versions", "restore", newest["id"])
    refused(capsys, db, "not_found", "versions", "show", "memver_00000000000000ff00000000")


# -- export and import ---------------------------------------------------------------------------

FILES = {
    "/notes/deep/er/still.md": "nested\n",
    "/empty.md": "",
    "/unicode/日本語.md": "Grüße, 世界 — ✓\nline two\n",
    "/z.md": 'quotes " and \\ backslashes\ttabs\n',
}


def seed(capsys: pytest.CaptureFixture[str], db: Path, files: dict[str, str] = FILES) -> None:
    for path, text in files.items():
        write(capsys, db, path, text)


def contents(capsys: pytest.CaptureFixture[str], db: Path, store: str) -> dict[str, str]:
    listed = ok(capsys, db, "memories", "ls", "--all", store=store)
    return {m["path"]: ok(capsys, db, "memories", "cat", m["id"], store=store)[0]["content"] for m in listed}


def test_export_then_import_gives_the_same_paths_and_contents(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(capsys, db)
    out = tmp_path / "notes.jsonl"
    assert ok(capsys, db, "export", "--out", str(out), "--with-versions")[0]["exported"] == len(FILES)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    lines = [json.loads(line) for line in out.read_text(encoding="ascii").splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["format"] == "securemem-export" and lines[0]["format_version"] == 1
    assert lines[0]["store"] == {"name": "notes", "description": ""} and parses_as_utc(lines[0]["exported_at"])
    assert [x["path"] for x in lines if x["type"] == "memory"] == sorted(FILES)
    assert lines[-1] == {"type": "end", "memories": len(FILES), "versions": len(FILES)}
    code, report, _ = cli(capsys, *on(db, "import", str(out), store="copy"))
    assert code == 0
    assert report[0]["store_created"]["name"] == "copy" and report[0]["store_created"]["description"] == ""
    assert report[-1] == {
        "imported": len(FILES),
        "skipped": 0,
        "failed": 0,
        "versions_ignored": len(FILES),
        "changed_by_policy": 0,
    }
    assert contents(capsys, db, "copy") == contents(capsys, db, "notes") == FILES


def test_export_never_overwrites_without_force_and_stdout_is_dash(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(capsys, db, {"/a.md": "a\n"})
    out = tmp_path / "x.jsonl"
    out.write_text("precious\n")
    out.chmod(0o644)
    assert "never overwrites" in usage(capsys, *on(db, "export", "--out", str(out)))
    assert out.read_text() == "precious\n"
    ok(capsys, db, "export", "--out", str(out), "--force")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and '"path": "/a.md"' in out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no partial file left
    for own in (db, Path(f"{db}.key"), Path(f"{db}-scrub")):  # -scrub: the scrub's journal, read and removed at open
        assert "store's own file" in usage(capsys, *on(db, "export", "--out", str(own), "--force"))
        assert not own.exists() or own.read_bytes() != out.read_bytes()
    streamed = ok(capsys, db, "export", "--out", "-")
    assert [x["type"] for x in streamed] == ["header", "memory", "end"]


def test_an_export_reads_in_batches_and_loses_or_doubles_nothing(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_transfer, "BATCH", 2)  # five memories: three transactions, the last one short
    files = {f"/m{i}.md": f"{i}\n" for i in range(5)}
    seed(capsys, db, files)
    lines = ok(capsys, db, "export", "--out", "-")
    assert {x["path"]: x["content"] for x in lines if x["type"] == "memory"} == files
    assert [x["path"] for x in lines if x["type"] == "memory"] == sorted(files)
    assert lines[-1] == {"type": "end", "memories": 5, "versions": 0}


def test_an_export_keeps_a_versions_content_only_while_it_is_kept(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(capsys, db, "/a.md", "one\n")
    write(capsys, db, "/a.md", "two\n")
    newest, oldest = ok(capsys, db, "versions", "ls")
    ok(capsys, db, "versions", "redact", oldest["id"])
    lines = ok(capsys, db, "export", "--out", "-", "--with-versions")
    versions = {x["id"]: x for x in lines if x["type"] == "version"}
    assert versions[newest["id"]]["content"] == "two\n"
    assert "content" not in versions[oldest["id"]] and versions[oldest["id"]]["path"] is None


def import_file(tmp_path: Path, *lines: str | dict[str, Any]) -> Path:
    """A new JSONL file holding ``lines`` (a dict is written as JSON)."""
    path = tmp_path / f"in-{len(list(tmp_path.glob('in-*')))}.jsonl"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return path


def test_import_reports_every_line_it_does_not_write(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(capsys, db, "/taken.md", "already here\n")
    source = import_file(
        tmp_path,
        {"path": "/ok.md", "content": "fine\n"},  # 1: no header, no type: a memory
        "{not json",  # 2
        {"type": "memory", "path": "/no-content.md"},  # 3
        {"type": "memory", "path": 7, "content": "x"},  # 4
        {"type": "memory", "path": "/sha.md", "content": "x", "content_sha256": "0" * 64},  # 5
        {"type": "comment"},  # 6
        {"type": "memory", "path": "/../escape.md", "content": "x"},  # 7
        {"type": "version", "id": "memver_x"},  # 8: ignored, counted
        "",  # 9: blank
        "[1, 2]",  # 10
        {"type": "memory", "path": "/taken.md", "content": "other\n"},  # 11
    )
    code, lines, err = cli(capsys, *on(db, "import", str(source)))
    assert code == 1
    failed = {x["line"]: x["error"]["code"] for x in lines if x.get("result") == "failed"}
    assert failed == {
        2: "invalid_request",
        3: "invalid_request",
        4: "invalid_request",
        5: "invalid_request",
        6: "invalid_request",
        7: "invalid_request",
        10: "invalid_request",
        11: "memory_precondition_failed",
    }
    assert lines[-1] == {"imported": 1, "skipped": 0, "failed": 8, "versions_ignored": 1, "changed_by_policy": 0}
    assert "1 version lines ignored" in err
    assert ok(capsys, db, "memories", "cat", "/taken.md")[0]["content"] == "already here\n"
    assert ok(capsys, db, "memories", "cat", "/ok.md")[0]["content"] == "fine\n"


@pytest.mark.parametrize(
    "mode, result, content",
    [("skip", "skipped", "already here\n"), ("fail", "failed", "already here\n"), ("replace", None, "new\n")],
)
def test_import_if_exists(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, result: str | None, content: str
) -> None:
    write(capsys, db, "/taken.md", "already here\n")
    source = import_file(tmp_path, {"path": "/taken.md", "content": "new\n"}, {"path": "/free.md", "content": "f\n"})
    code, lines, _ = cli(capsys, *on(db, "import", str(source), "--if-exists", mode))
    assert code == (1 if mode == "fail" else 0)
    reported = [x for x in lines if "line" in x]
    assert [(x["line"], x["result"]) for x in reported] == ([(1, result)] if result else [])
    assert ok(capsys, db, "memories", "cat", "/taken.md")[0]["content"] == content
    assert ok(capsys, db, "memories", "cat", "/free.md")[0]["content"] == "f\n"


def test_a_cut_or_foreign_export_is_refused(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(capsys, db, {"/a.md": "a\n", "/b.md": "b\n"})
    out = tmp_path / "e.jsonl"
    ok(capsys, db, "export", "--out", str(out))
    whole = out.read_text().splitlines()
    cut = import_file(tmp_path, *whole[:-1])
    code, lines, _ = cli(capsys, *on(db, "import", str(cut), store="cut"))
    assert code == 1 and lines[-2]["line"] is None and "cut short" in lines[-2]["error"]["message"]
    assert lines[-1]["imported"] == 2
    short = import_file(tmp_path, whole[0], whole[1], whole[-1])  # a memory line is missing
    code, lines, _ = cli(capsys, *on(db, "import", str(short), store="short"))
    assert code == 1 and lines[-2]["line"] == 3 and "counts differ" in lines[-2]["error"]["message"]
    newer = import_file(tmp_path, {"type": "header", "format": "securemem-export", "format_version": 99})
    assert "format_version" in usage(capsys, *on(db, "import", str(newer), store="newer"))
    foreign = import_file(tmp_path, {"type": "header", "format": "other"})
    assert "not a securemem export" in usage(capsys, *on(db, "import", str(foreign), store="foreign"))
    refused(capsys, db, "not_found", "import", str(cut), store="memstore_0000000000000000000000ff")


def test_import_from_stdin_through_the_stores_policy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: Callable[[bytes], None]
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db = tmp_path / "r.db"
    assert run_cli(capsys, "init", "--db", str(db), "--policy", "regulated")[0] == 0
    lines = [
        {"path": "/k.md", "content": "AKIAIOSFODNN7EXAMPLE\n"},
        {"path": "/m.md", "content": "dana.reyes@example.com"},
    ]
    stdin("".join(json.dumps(x) + "\n" for x in lines).encode())
    code, report, _ = cli(capsys, *on(db, "import", "-", store="seeded"))
    assert code == 1 and report[1] == {"line": 1, "result": "failed", "error": report[1]["error"]}
    assert report[1]["error"]["code"] == "policy_violation"
    assert report[2] == {"line": 2, "result": "imported", "changed_by_policy": True}  # the e-mail was scrubbed
    assert (report[-1]["imported"], report[-1]["changed_by_policy"]) == (1, 1)
    assert "dana.reyes" not in ok(capsys, db, "memories", "cat", "/m.md", store="seeded")[0]["content"]


# -- audit ---------------------------------------------------------------------------------------


@pytest.fixture
def chained(db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    """A store with five versions; their ids in commit order (the seq of the i-th is i + 1)."""
    for n in range(5):
        write(capsys, db, f"/v{n}.md", f"version {n}\n")
    return db, [v["id"] for v in reversed(ok(capsys, db, "versions", "ls"))]


def tamper(db: Path, *statements: str) -> None:
    """Edit the SQLCipher file directly, as someone holding the key but not using securemem would.

    ``{b}`` in a statement is the key before the store's first version: ``{b}+3`` is its third.
    """
    store = open_store(str(db), raw_key(db), create=False)
    try:
        conn = connection_of(store)
        base = conn.execute("SELECT min(seq) - 1 FROM versions").fetchone()[0]
        for statement in statements:
            conn.execute(statement.format(b=base))
    finally:
        store.close()


TAMPERING = {
    "a content byte": (["UPDATE versions SET data = CAST('version X' || char(10) AS BLOB) WHERE seq = {b}+3"], {3}),
    # An edit that changes what the versions hold also leaves the newest row (5) with a history
    # total that no longer matches them.
    "a path": (["UPDATE versions SET path = '/memories/elsewhere.md' WHERE seq = {b}+3"], {3, 5}),
    "a kept content removed": (["UPDATE versions SET data = NULL WHERE seq = {b}+3"], {3, 5}),
    "the actor": (["UPDATE versions SET actor = 'someone-else' WHERE seq = {b}+3"], {3}),
    "a deleted middle row": (["DELETE FROM versions WHERE seq = {b}+3"], {4, 5}),
    "two rows swapped": (
        [
            "UPDATE versions SET seq = -1 WHERE seq = {b}+2",
            "UPDATE versions SET seq = {b}+2 WHERE seq = {b}+3",
            "UPDATE versions SET seq = {b}+3 WHERE seq = -1",
        ],
        # the two rows, the row after them, whose link no longer follows, and the newest (5): the
        # two memories' rows name the versions by the numbers they had (schema 5's heads)
        {2, 3, 4, 5},
    ),
}


@pytest.mark.parametrize("what", sorted(TAMPERING))
def test_audit_verify_names_each_tampered_version(
    chained: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str], what: str
) -> None:
    db, ids = chained
    assert ok(capsys, db, "audit", "verify", store=None)[0]["problems"] == []
    statements, broken = TAMPERING[what]
    tamper(db, *statements)
    code, lines, err = cli(capsys, "audit", "verify", "--db", str(db))
    assert code == 1 and "broken" in err and err.count("\n") == 1
    (report,) = lines
    assert report["name"] == "notes" and report["chain_ok"] is False
    assert {p["seq"] for p in report["problems"]} == broken
    assert {p["version_id"] for p in report["problems"]} == {ids[seq - 1] for seq in broken}
    assert all(p["problem"] and "version " not in p["problem"] for p in report["problems"])


def test_audit_verify_accepts_a_redaction_and_covers_every_store(
    chained: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = chained
    ok(capsys, db, "versions", "redact", ids[2])
    ok(capsys, db, "stores", "create", "--name", "other", store=None)
    write_other = db.with_name("o.txt")
    write_other.write_text("o\n")
    ok(capsys, db, "memories", "write", "--path", "/o.md", "--content-file", str(write_other), store="other")
    reports = ok(capsys, db, "audit", "verify", store=None)
    assert [(r["name"], r["chain_ok"], r["problems"]) for r in reports] == [("notes", True, []), ("other", True, [])]
    assert reports[0]["versions"] == 6  # five versions and the redaction event
    (only,) = ok(capsys, db, "audit", "verify", store="other")
    assert only["name"] == "other"


def test_audit_head_changes_when_a_version_is_added(
    chained: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = chained
    (before,) = ok(capsys, db, "audit", "head", store=None)
    assert set(before) == {"store_id", "name", "versions", "head", "chain_ok"} and before["versions"] == 5
    assert len(bytes.fromhex(before["head"])) == 32
    assert ok(capsys, db, "audit", "head", store=None) == [before]  # the same store, the same line
    write(capsys, db, "/v0.md", "changed\n")
    (after,) = ok(capsys, db, "audit", "head", store=None)
    assert after["versions"] == 6 and after["head"] != before["head"]
    tamper(db, "DELETE FROM versions WHERE seq = {b}+6")  # a cut tail: the hash chain is whole, the head tells
    (cut,) = ok(capsys, db, "audit", "head", store=None)
    assert cut["head"] == before["head"]
    # and /v0.md's row still names the version cut off as its newest (schema 5's heads are checked)
    assert not cut["chain_ok"]


def test_audit_verify_checks_each_chain_runs_through_its_pinned_head(
    chained: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = chained
    ok(capsys, db, "stores", "create", "--name", "other", store=None)
    pinned = tmp_path / "heads.jsonl"
    code, out, _ = run_cli(capsys, "audit", "head", "--db", str(db))
    pinned.write_text(out)
    write(capsys, db, "/later.md", "later\n")  # a chain that grew since still runs through its pin
    assert all(r["chain_ok"] for r in ok(capsys, db, "audit", "verify", "--pinned", str(pinned), store=None))
    tamper(db, "DELETE FROM versions WHERE seq >= 5")  # the tail cut back past the pinned head
    assert ok(capsys, db, "audit", "verify", store=None)[0]["problems"] == []  # unseen without the pin...
    code, lines, _ = cli(capsys, "audit", "verify", "--db", str(db), "--pinned", str(pinned))
    assert code == 1 and [p["version_id"] for p in lines[0]["problems"]] == [None]  # ...caught with it
    assert "pinned head is not in this chain" in lines[0]["problems"][0]["problem"]
    ok(capsys, db, "stores", "delete", "--yes", store="other")
    code, lines, _ = cli(capsys, "audit", "verify", "--db", str(db), "--pinned", str(pinned))
    assert code == 1 and lines[-1]["name"] == "other" and lines[-1]["missing"] is True
    pinned.write_text('{"store_id": "memstore_x", "head": "beef"}\n')
    assert "line 1 of" in usage(capsys, "audit", "verify", "--db", str(db), "--pinned", str(pinned))


# -- help, keys, and the command run as a program ------------------------------------------------


def admin_parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    top = build_parser()
    commands = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    for name in ("stores", "memories", "versions", "export", "import", "audit"):
        parser = commands.choices[name]
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                yield from ((f"{name} {sub}", p) for sub, p in action.choices.items())


def test_every_admin_command_has_a_description_and_an_example() -> None:
    found = dict(admin_parsers())
    assert len(found) == 22  # 6 groups and 16 actions
    for name, parser in found.items():
        text = parser.format_help()
        assert parser.description and parser.description in " ".join(text.split()), name
        assert f"examples:\n  securemem {name}" in text, name


def test_key_and_database_problems_are_one_line_exit_2(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.key"
    other.write_text(os.urandom(32).hex())
    other.chmod(0o600)
    assert "does not open" in usage(capsys, *on(db, "memories", "ls", "--key-file", str(other)))
    missing = on(db.with_name("missing.db"), "stores", "list", "--key-file", f"{db}.key", store=None)
    assert "no securemem store" in usage(capsys, *missing)
    assert "required" in usage(capsys, "memories", "ls", "--db", str(db))


def test_the_key_options_of_every_command_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)
    db, kek = tmp_path / "e.db", f"file:{tmp_path / 'ops.kek'}"
    assert run_cli(capsys, "init", "--db", str(db), "--kek", kek)[0] == 0
    (made,) = ok(capsys, db, "stores", "create", "--name", "s", "--kek", kek, store=None)
    monkeypatch.setenv("SECUREMEM_KEK", kek)
    assert ok(capsys, db, "stores", "list", store=None) == [made]
    assert ok(capsys, db, "audit", "head", store=None)[0]["store_id"] == made["id"]
    monkeypatch.delenv("SECUREMEM_KEK")
    phrase = tmp_path / "phrase.txt"
    phrase.write_text("a long passphrase for the admin tests\n")
    phrase.chmod(0o600)
    other = tmp_path / "p.db"
    assert run_cli(capsys, "init", "--db", str(other), "--passphrase-file", str(phrase))[0] == 0
    assert ok(capsys, other, "stores", "create", "--name", "p", "--passphrase-file", str(phrase), store=None)
    assert "no key" in usage(capsys, "stores", "list", "--db", str(other))


def test_the_program_reads_stdin_and_prints_ascii_json(db: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # this tree's securemem, not an installed one
    argv = [
        sys.executable,
        "-m",
        "securemem.cli",
        *on(db, "memories", "write", "--path", "/p.md", "--content-file", "-"),
    ]
    text = "\x1b[31mred\u202e and 日本\n"
    done = subprocess.run(argv, input=text.encode(), capture_output=True, timeout=60, env=env)
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.isascii() and b"\x1b" not in done.stdout
    assert json.loads(done.stdout)["content"] == text


def test_a_command_line_byte_that_is_not_utf8_gets_the_contracts_error(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Python reads such a byte of argv as a lone surrogate (surrogateescape); it reached the store
    # and the command ended in "internal error".
    refused(capsys, db, "not_found", "memories", "ls", store="notes\udcff")
    refused(capsys, db, "invalid_request", "memories", "cat", "/a\udcff.md")
    refused(capsys, db, "invalid_request", "versions", "ls", "--session-id", "sess\udcff")


def test_export_force_never_replaces_the_key_file_the_store_was_opened_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out`` refused the store's files and the key files beside it, but a KEK file (or a
    --key-file, a passphrase file, a PIN file) kept elsewhere was replaced by the export under
    --force: the only key, and with it the store, lost. Any key file given is refused too."""
    keys = tmp_path / "keys"
    keys.mkdir()
    kek = keys / "agent.kek"
    assert run_cli(capsys, "init", "--db", str(tmp_path / "x.db"), "--kek", f"file:{kek}")[0] == 0
    assert run_cli(capsys, "init", "--db", str(tmp_path / "y.db"), "--key-file", str(keys / "y.key"))[0] == 0
    phrase = keys / "phrase"
    phrase.write_text("a long passphrase for the third store\n")
    phrase.chmod(0o600)
    assert run_cli(capsys, "init", "--db", str(tmp_path / "z.db"), "--kek", f"passphrase:file:{phrase}")[0] == 0
    cases = [
        (tmp_path / "z.db", ["--kek", f"passphrase:file:{phrase}"], phrase),
        (tmp_path / "x.db", ["--kek", f"file:{kek}"], kek),
        (tmp_path / "y.db", ["--key-file", str(keys / "y.key")], keys / "y.key"),
        (tmp_path / "x.db", ["--kek", f"file:{kek}"], keys / ".." / "keys" / "agent.kek"),
    ]
    for store, opener, _ in cases[:3]:
        assert run_cli(capsys, "stores", "create", "--db", str(store), *opener, "--name", "S")[0] == 0
    for store, opener, out in cases:
        kept = out.read_bytes()
        assert "store's own file (or its key)" in usage(
            capsys, "export", "--db", str(store), *opener, "--store", "S", "--out", str(out), "--force"
        )
        assert out.read_bytes() == kept
        assert run_cli(capsys, "stores", "list", "--db", str(store), *opener)[0] == 0


def test_import_of_an_empty_file_is_refused_and_makes_no_store(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty file (what an export killed before its header leaves) is not "0 imported": it is refused in
    one line, exit 2, and the store it names is not created."""
    empty = tmp_path / "cut.jsonl"
    empty.write_bytes(b"")
    code, out, err = run_cli(capsys, "import", "--db", str(db), "--store", "fresh", str(empty))
    assert code == 2 and out == "" and err.count("\n") == 1 and "is empty" in err, err
    code, out, _ = run_cli(capsys, "stores", "list", "--db", str(db))
    assert code == 0 and '"fresh"' not in out


def test_an_import_whose_every_line_fails_keeps_the_store_it_made(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The store an import makes for a name stays when no line of the file is imported: removing it again
    removed what another writer had put in it meanwhile (an attacker's round on this stop's change)."""
    source = import_file(tmp_path, "{not json", {"type": "memory", "path": "/no-content.md"})
    code, lines, _ = cli(capsys, "import", "--db", str(db), "--store", "fresh", str(source))
    assert code == 1 and lines[-1]["imported"] == 0 and lines[-1]["failed"] == 2
    made = lines[0]["store_created"]["id"]
    assert not any("store_removed" in line for line in lines)
    code, out, _ = run_cli(capsys, "stores", "list", "--db", str(db))
    assert code == 0 and made in out


def test_bytes_that_are_not_utf8_in_a_path_or_a_date_are_never_echoed(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path with a lone surrogate gets the contract's invalid_request naming the path (not another
    field); --since with one is a usage error that names the byte and does not echo it."""
    code, lines, err = cli(capsys, *on(db, "memories", "cat", "/x\udcff"))
    assert code == 1 and lines[0]["error"]["code"] == "invalid_request"
    assert lines[0]["error"]["message"].startswith("the path must be Unicode text") and "\\udcff" not in err
    code, _, err = cli(capsys, *on(db, "versions", "ls", "--since", "s\udcff"))
    assert code == 2 and "not UTF-8" in err and "udcff" not in err and err.count("\n") == 1


def test_where_a_rekey_stages_its_key_is_no_key_file_and_no_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DB.key.new is where a rekey stages the store's new key: as a --key-file the next command without one took
    it for an interrupted rekey's and moved it over DB.key; as an export's --out it made every later rekey fail
    (an attacker's round). Both are refused in one line, before anything changes."""
    db = tmp_path / "k.db"
    staged = f"{db}.key.new"
    code, out, err = run_cli(capsys, "init", "--db", str(db), "--key-file", staged)
    assert code == 2 and out == "" and err.count("\n") == 1 and "stages its new key" in err, err
    assert not db.exists() and not os.path.exists(staged)
    assert run_cli(capsys, "init", "--db", str(db))[0] == 0
    assert run_cli(capsys, "stores", "create", "--db", str(db), "--name", "S")[0] == 0
    assert "store's own file (or its key)" in usage(
        capsys, "export", "--db", str(db), "--store", "S", "--out", staged, "--force"
    )
    assert not os.path.exists(staged)
    assert run_cli(capsys, "rekey", "--db", str(db))[0] == 0
    # The key that rekey set aside may be the only one that opens a backup made before it: no export
    # replaces it, even with --force (an attacker's round), whatever its spelling.
    (old,) = [path for path in tmp_path.iterdir() if path.name.startswith("k.db.key.old-")]
    kept = old.read_bytes()
    link = tmp_path / "through-a-link"
    link.symlink_to(old)
    for spelled in (str(old), str(tmp_path / "." / old.name), str(tmp_path / "x" / ".." / old.name), str(link)):
        assert "a key a rekey set aside" in usage(
            capsys, "export", "--db", str(db), "--store", "S", "--out", spelled, "--force"
        )
    # ... nor another store's, exported from this one (an attacker's round: the check read this --db's name)
    other = tmp_path / "other.db"
    assert run_cli(capsys, "init", "--db", str(other))[0] == 0
    assert run_cli(capsys, "rekey", "--db", str(other))[0] == 0
    (set_aside,) = [path for path in tmp_path.iterdir() if path.name.startswith("other.db.key.old-")]
    other_kept = set_aside.read_bytes()
    assert "a key a rekey set aside" in usage(
        capsys, "export", "--db", str(db), "--store", "S", "--out", str(set_aside), "--force"
    )
    assert old.read_bytes() == kept and set_aside.read_bytes() == other_kept
