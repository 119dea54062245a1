"""Model-based testing: securemem against a small in-memory reference model of the protocol.

``Reference`` below is written from docs/protocol.md (the reference strings) and the choices
the dispatcher documents (what a line is, CRLF files, the messages securemem adds where the spec
has none, the path guard's rules). Hypothesis drives random sequences of all six commands, valid
and invalid, against both; every step must give the same ``is_error`` and the same text, and
after every step the store must hold exactly what the model holds, with directory totals that
add up.

The second half feeds paths and texts drawn from hostile alphabets and checks only invariants:
nothing escapes /memories, every stored path is canonical, and nothing becomes a traceback.
"""

from __future__ import annotations

import itertools
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from securemem import SecureMemory
from securemem.commands import Result
from securemem.paths import canonical
from tests.helpers import aggregate_errors, read_state

ROOT = "/memories"
MAX_CHARS = 16_000


class Refused(Exception):
    """A command the model fails; the message is what the tool must say."""


# -- the reference model ----------------------------------------------------------------------------


FILE_AS_DIRECTORY = (
    "Error: Invalid path: a path ending in '/' names a directory, and create writes a file. Give the "
    "file's name, such as /memories/notes/todo.md (directories are made as files are created in them)."
)
MOVE_INTO_DIRECTORY = (
    "Error: Invalid path: new_path ends in '/', which names a directory, but old_path is a file. "
    "rename does not move a file into a directory by the directory's name: give the file's whole new "
    "path, such as /memories/archive/todo.md."
)


def guard(path: str) -> str:
    """The canonical spelling of ``path``, or Refused with the path guard's reason (as paths.py words it)."""

    def refuse(reason: str) -> Refused:
        return Refused(
            f"Error: Invalid path: {reason}. Paths must be /memories or start with /memories/, use "
            "plain names separated by single slashes, and contain no '.' or '..' segments."
        )

    if len(path.encode("utf-8", "surrogatepass")) > 1024:
        raise refuse("the path is longer than 1024 bytes")
    if "\\" in path:
        raise refuse("backslashes are not allowed")
    if "%" in path:
        raise refuse("'%' is not allowed (no percent-encoding)")
    for ch in path:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise refuse(f"control or invisible character U+{ord(ch):04X} is not allowed")
    if not path.startswith("/"):
        raise refuse("the path is not absolute (it must start with /memories)")
    parts = [part for part in path.split("/") if part]
    if not parts or parts[0] != "memories":
        raise refuse(
            "the path is outside /memories (look-alikes such as /memoriesX or /memories_backup are other directories)"
        )
    for part in parts[1:]:
        if part in (".", ".."):
            raise refuse(f"'{part}' segments are not allowed")
        if part.startswith("..") or set(part) == {"."}:
            raise refuse("names made only of dots, or starting with '..', are not allowed")
        if len(part.encode("utf-8")) > 255:
            raise refuse("a name is longer than 255 bytes")
        if part != part.strip():
            raise refuse("a name starts or ends with white space")
    return "/" + "/".join(parts)


def lines_of(text: str) -> list[str]:
    """A line ends at LF; a final LF does not start another line; a CR before the LF stays."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def numbered(lines: list[str], first: int) -> str:
    return "\n".join(f"{n:>6}\t{line.removesuffix(chr(13))}" for n, line in enumerate(lines, first))


def human(size: int) -> str:
    if size < 1024:
        return f"{size}B"
    value, unit = size / 1024, "K"
    if round(value, 1) >= 1024:
        value, unit = value / 1024, "M"
    return f"{value:.1f}{unit}"


def clip(text: str) -> str:
    return text if len(text) <= 200 else text[:200] + "...(cut)"


def crlf(text: str) -> bool:
    """A file is CRLF when its first line ends in CRLF."""
    first = text.find("\n")
    return first > 0 and text[first - 1] == "\r"


def parents(path: str) -> list[str]:
    """Directories above ``path``, below the root, outermost first."""
    parts = path.split("/")
    return ["/".join(parts[:n]) for n in range(3, len(parts))]


def within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory + "/")


VERBS = {
    "create": "created",
    "str_replace": "edited",
    "insert": "edited",
    "delete": "deleted",
    "rename": "renamed or moved",
}


class Reference:
    """The memory directory as the protocol describes it: files (path -> text) and directories."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.dirs: set[str] = set()  # the root is always there and is not in this set

    def execute(self, tool: dict[str, Any]) -> tuple[bool, str]:
        try:
            return False, self._run(tool)
        except Refused as refused:
            return True, str(refused)

    def _run(self, tool: dict[str, Any]) -> str:
        name = tool["command"]
        keys = ("old_path", "new_path") if name == "rename" else ("path",)
        paths = [guard(tool[key]) for key in keys]
        if name == "rename" and paths == [paths[0], ROOT] and paths[0] != ROOT:
            raise Refused(f"Error: The destination {ROOT} already exists")
        if name != "view" and ROOT in paths:
            raise Refused(
                f"Error: The /memories directory itself cannot be {VERBS[name]}; use a path below "
                "it, such as /memories/notes.md."
            )
        if name == "create" and tool["path"].endswith("/"):
            raise Refused(FILE_AS_DIRECTORY)
        handler: Callable[..., str] = getattr(self, name)
        return handler(*paths, tool)

    def is_dir(self, path: str) -> bool:
        return path == ROOT or path in self.dirs

    def exists(self, path: str) -> bool:
        return path in self.files or self.is_dir(path)

    def blocker(self, path: str) -> str | None:
        return next((above for above in parents(path) if above in self.files), None)

    def size(self, directory: str) -> int:
        return sum(len(t.encode()) for p, t in self.files.items() if p.startswith(directory + "/"))

    # -- the six commands --

    def view(self, path: str, tool: dict[str, Any]) -> str:
        view_range = tool.get("view_range")
        if not self.exists(path):
            raise Refused(f"The path {path} does not exist. Please provide a valid path.")
        if self.is_dir(path):
            return self.listing(path, view_range)
        lines = lines_of(self.files[path])
        start, end = 1, len(lines)
        if view_range is not None:
            if not lines:
                raise Refused(
                    f"Error: Invalid `view_range` parameter: {view_range}. The file {path} is empty; "
                    "view it without view_range."
                )
            if len(view_range) == 3 and 1 <= view_range[0] == view_range[1] <= len(lines):
                # The extension: line n from its character c (what a view cut inside a long line offers).
                number, _, first = view_range
                line = lines[number - 1]
                if not 1 <= first <= max(len(line), 1):
                    raise Refused(
                        f"Error: Invalid `view_range` parameter: {view_range}. Three numbers [n, n, c] show line n "
                        f"from its character c: line {number} has {len(line):,} characters, so 1 <= c <= "
                        f"{max(len(line), 1):,}."
                    )
                return (
                    f"Here's the content of {path} with line numbers (line {number} from character {first:,}):\n"
                    + numbered([line[first - 1 :]], number)
                )
            ok = (
                len(view_range) == 2
                and 1 <= view_range[0] <= len(lines)
                and (view_range[1] == -1 or view_range[0] <= view_range[1] <= len(lines))
            )
            if not ok:
                raise Refused(
                    f"Error: Invalid `view_range` parameter: {view_range}. The file {path} has "
                    f"{len(lines)} lines: use [start, end] with 1 <= start <= end <= {len(lines)}, or "
                    "[start, -1] to view from start to the end."
                )
            start, end = view_range[0], len(lines) if view_range[1] == -1 else view_range[1]
        return f"Here's the content of {path} with line numbers:\n{numbered(lines[start - 1 : end], start)}"

    def listing(self, directory: str, view_range: list[int] | None = None) -> str:
        """The listing; with view_range, its entries start to end (1 is the first below the directory)."""
        rows = [f"{human(self.size(directory))}\t{directory}"]

        def walk(parent: str, depth: int) -> None:
            children = {p for p in [*self.files, *self.dirs] if p.rsplit("/", 1)[0] == parent}
            for child in sorted(children):
                name = child.rsplit("/", 1)[1]
                if name.startswith(".") or name == "node_modules":
                    continue
                if child in self.files:
                    rows.append(f"{human(len(self.files[child].encode()))}\t{child}")
                else:
                    rows.append(f"{human(self.size(child))}\t{child}/")
                    if depth > 1:
                        walk(child, depth - 1)

        walk(directory, 2)
        if view_range is not None:
            if not (
                len(view_range) == 2 and view_range[0] >= 1 and (view_range[1] == -1 or view_range[0] <= view_range[1])
            ):
                raise Refused(
                    f"Error: Invalid `view_range` parameter: {view_range}. On the directory {directory} it numbers "
                    "the entries of its listing: use [start, end] with 1 <= start <= end, or [start, -1] to list "
                    "from start to the end."
                )
            start, end = view_range
            count = len(rows) - 1
            if start > 1 and start > count and count == 0:
                raise Refused(
                    f"Error: Invalid `view_range` parameter: {view_range}. The listing of {directory} has no "
                    "entries below it; view it without view_range."
                )
            if start > 1 and start > count:
                raise Refused(
                    f"Error: Invalid `view_range` parameter: {view_range}. The listing of {directory} has {count} "
                    f"entr{'y' if count == 1 else 'ies'}: use [start, end] with 1 <= start <= end <= {count}, or "
                    "[start, -1] to list from start to the end."
                )
            rows = rows[:1] + rows[start : None if end == -1 else end + 1]
        return (
            "Here're the files and directories up to 2 levels deep in "
            f"{directory}, excluding hidden items and node_modules:\n" + "\n".join(rows)
        )

    def create(self, path: str, tool: dict[str, Any]) -> str:
        if self.is_dir(path):
            raise Refused(f"Error: The path {path} is a directory; create needs a file path.")
        if path in self.files:
            raise Refused(f"Error: File {path} already exists")
        self._check_blocker(path)
        self.files[path] = tool["file_text"]
        self.dirs.update(parents(path))
        return f"File created successfully at: {path}"

    def _check_blocker(self, path: str) -> None:
        blocker = self.blocker(path)
        if blocker is not None:
            raise Refused(f"Error: Cannot use {path}: {blocker} is a file, not a directory.")

    def str_replace(self, path: str, tool: dict[str, Any]) -> str:
        if path not in self.files:
            raise Refused(f"Error: The path {path} does not exist. Please provide a valid path.")
        text, old_str, new_str = self.files[path], tool["old_str"], tool.get("new_str") or ""
        if not old_str:
            raise Refused("Error: `old_str` must not be empty; give the exact text to replace.")
        if crlf(text):  # views hide CRs: the model's LF fragments are taken in the file's line ending
            translated = [s.replace("\r\n", "\n").replace("\n", "\r\n") for s in (old_str, new_str)]
            # ... unless only the fragment as sent is in the file (one of mixed line endings)
            if translated[0] in text or old_str not in text:
                old_str, new_str = translated
        elif old_str not in text and "\r" not in old_str + new_str and old_str.replace("\n", "\r\n") in text:
            # an LF file with a CRLF line an insert left: the LF fragment matches it with CRLF
            old_str, new_str = old_str.replace("\n", "\r\n"), new_str.replace("\n", "\r\n")
        if old_str.endswith("\r") and (crlf(text) or old_str + "\n" in text):  # it would leave the LF of a CRLF bare
            raise Refused(
                "Error: `old_str` ends with the carriage return of one of the file's CRLF line endings; "
                "end it before the line ending (the views do not show the CR) and retry."
            )
        at = [m.start() for m in re.finditer(f"(?={re.escape(old_str)})", text)]  # overlapping ones too
        where = [text.count("\n", 0, position) + 1 for position in at]
        if not where:
            raise Refused(
                f"No replacement was performed, old_str `{clip(tool['old_str'])}` did not appear verbatim in {path}."
            )
        if len(where) > 1:  # at most 50 line numbers, then the count
            listed = ", ".join(map(str, where[:50])) + (
                f", ... ({len(where):,} occurrences in all)" if len(where) > 50 else ""
            )
            raise Refused(
                f"No replacement was performed. Multiple occurrences of old_str `{clip(tool['old_str'])}` "
                f"in lines: {listed}. Please ensure it is unique"
            )
        edited = text[: at[0]] + new_str + text[at[0] + len(old_str) :]
        self.files[path] = edited
        lines = lines_of(edited)
        start = max(1, where[0] - 2)
        end = min(len(lines), where[0] + new_str.count("\n") + 2, start + 15)
        snippet = [line if len(line) <= 800 else line[:800] + "...(cut)" for line in lines[start - 1 : end]]
        return (
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
            + numbered(snippet, start)
        )

    def insert(self, path: str, tool: dict[str, Any]) -> str:
        if path not in self.files:
            raise Refused(f"Error: The path {path} does not exist")
        text, line, insert = self.files[path], tool["insert_line"], tool["insert_text"]
        total = len(lines_of(text))
        if not 0 <= line <= total:
            raise Refused(
                f"Error: Invalid `insert_line` parameter: {line}. It should be within the range of "
                f"lines of the file: [0, {total}]"
            )
        eol = "\r\n" if crlf(text) else "\n"
        # The file as whole lines with their endings. insert_text is stored as sent, carriage
        # returns included; in a CRLF file each bare LF becomes CRLF. A final newline in
        # insert_text ends its last line; the file keeps (or lacks) its own final newline.
        chunks = [part + "\n" for part in text.split("\n")[:-1]] + (
            [text.rsplit("\n", 1)[-1]] if not text.endswith("\n") and text else []
        )
        pieces = insert.split("\n")
        if eol == "\r\n":
            pieces = [p if i == len(pieces) - 1 or p.endswith("\r") else p + "\r" for i, p in enumerate(pieces)]
        block = "\n".join(pieces)
        before, after = chunks[:line], chunks[line:]
        if before and not before[-1].endswith("\n"):
            before[-1] += eol
        if after or text.endswith("\n") or not text:
            block += "" if insert.endswith("\n") else eol
        elif insert.endswith("\n"):
            block = block.removesuffix("\n").removesuffix("\r")
        self.files[path] = "".join(before) + block + "".join(after)
        return f"The file {path} has been edited."

    def delete(self, path: str, tool: dict[str, Any]) -> str:
        if not self.exists(path):
            raise Refused(f"Error: The path {path} does not exist")
        self.files = {p: t for p, t in self.files.items() if not within(p, path)}
        self.dirs = {d for d in self.dirs if not within(d, path)}
        return f"Successfully deleted {path}"

    def rename(self, old: str, new: str, tool: dict[str, Any]) -> str:
        if not self.exists(old):
            raise Refused(f"Error: The path {old} does not exist")
        if new == old or self.exists(new):
            raise Refused(f"Error: The destination {new} already exists")
        if self.is_dir(old) and within(new, old):
            raise Refused(f"Error: Cannot move the directory {old} into itself ({new}).")
        self._check_blocker(new)
        if tool["new_path"].endswith("/") and old in self.files:
            raise Refused(MOVE_INTO_DIRECTORY)

        def moved(path: str) -> str:
            return new + path[len(old) :] if within(path, old) else path

        self.files = {moved(p): t for p, t in self.files.items()}
        self.dirs = {moved(d) for d in self.dirs} | set(parents(new))
        return f"Successfully renamed {old} to {new}"


# -- the state machine -----------------------------------------------------------------------------

NAMES = ["a", "b", "f.md", ".hidden", "node_modules", "é", "a b", "notes.txt"]
VALID_PATHS = st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(lambda parts: "/memories/" + "/".join(parts))
# Trailing and doubled slashes are fine, but for a file that create or rename would make.
SPELLINGS = st.sampled_from(["{}", "{}", "{}", "{}/", "{}//", "/{}"])
REFUSED_PATHS = st.sampled_from(
    [
        "/memories/../a",
        "/memories/a/../../etc",
        "/memories/./a",
        "/memoriesX/a",
        "memories/a",
        "/memories/a\\b",
        "/memories/%2e%2e/a",
        "/memories/a%2Fb",
        "/memories/a\x00b",
        "/memories/ a",
        "/memories/a ",
        "/",
        "",
        "/etc/passwd",
        "/memories/\u202egnp.exe",
        "/memories/a\u200bb",
    ]
)
SPELLED = st.tuples(SPELLINGS, VALID_PATHS).map(lambda pair: pair[0].format(pair[1]))
ROOTS = st.sampled_from([ROOT, "/memories/", "//memories"])
# Mostly valid paths, some spellings of the root, some refused paths.
PATHS = st.integers(0, 9).flatmap(lambda n: SPELLED if n < 7 else ROOTS if n == 7 else REFUSED_PATHS)
FRAGMENTS = ["a", "b", "ab", "\n", "\r\n", " ", "é", "x\n", "a\n", "😀"]
TEXTS = st.one_of(st.just(""), st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=14).map("".join))
NAMESPACES = itertools.count()
STEPS = [
    "create",
    "create",
    "create",
    "str_replace",
    "str_replace",
    "str_replace",
    "insert",
    "insert",
    "view",
    "view",
    "delete",
    "rename",
    "rename",
    "rename_directory_oddly",
]


class MemoryMachine(RuleBasedStateMachine):
    """Every command goes to securemem and to the Reference; they must answer alike."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="securemem-model-")
        self.memory = SecureMemory.open(Path(self.dir) / "m.db", key=bytes(32), namespace=f"m{next(NAMESPACES)}")
        self.model = Reference()
        self.fresh = 0  # numbers new names, so that creates mostly name new files

    def teardown(self) -> None:
        self.memory.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def check(self, tool: dict[str, Any]) -> None:
        result = self.memory.execute(tool)
        expected = self.model.execute(tool)
        assert isinstance(result.content, str)
        assert len(expected[1]) <= MAX_CHARS, "the model does not cut views: keep the generated data smaller"
        assert (result.is_error, result.content) == expected, tool
        event(f"{tool['command']}: {'error' if result.is_error else 'ok'}")  # see --hypothesis-show-statistics

    def path(self, data: st.DataObject, kind: str = "any") -> str:
        """A path from the fixed pool, or one that exists now ("any", "file") or a fresh one ("new").

        Random pool paths mostly miss, so most draws name an existing entry (in any spelling) or,
        for create, a new name in an existing directory.
        """
        existing = sorted(self.model.files) if kind == "file" else sorted([*self.model.files, *self.model.dirs])
        if kind == "new":
            self.fresh += 1
            parent = st.sampled_from(sorted(self.model.dirs | {ROOT}))
            known = st.tuples(parent, st.sampled_from(NAMES)).map(lambda pair: f"{pair[0]}/{pair[1]}{self.fresh}")
        elif existing:
            known = st.sampled_from(existing)
        else:
            return data.draw(PATHS, label="path")
        spelled = st.tuples(SPELLINGS, known).map(lambda pair: pair[0].format(pair[1]))
        return data.draw(st.one_of(spelled, spelled, spelled, PATHS), label="path")

    def file_text(self, path: str) -> str:
        try:
            return self.model.files.get(guard(path), "")
        except Refused:
            return ""

    @initialize(texts=st.lists(TEXTS, min_size=1, max_size=3))
    def seed_files(self, texts: list[str]) -> None:
        for n, text in enumerate(texts):
            self.check({"command": "create", "path": f"/memories/{NAMES[n]}/seed.md", "file_text": text})

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        """One command of a kind drawn with fixed weights (separate rules are drawn very unevenly)."""
        getattr(self, data.draw(st.sampled_from(STEPS), label="command"))(data)

    def view(self, data: st.DataObject) -> None:
        tool: dict[str, Any] = {"command": "view", "path": self.path(data)}
        view_range = data.draw(st.none() | st.lists(st.integers(-2, 9), max_size=3), label="view_range")
        if view_range is not None:
            tool["view_range"] = view_range
        self.check(tool)

    def create(self, data: st.DataObject) -> None:
        self.check({"command": "create", "path": self.path(data, "new"), "file_text": data.draw(TEXTS)})

    def str_replace(self, data: st.DataObject) -> None:
        # A slice of the file itself finds single and multiple matches; a random fragment, mostly none.
        path = self.path(data, "file")
        text = self.file_text(path)
        how = data.draw(st.sampled_from(["slice", "line", "whole", "fragment"]), label="old_str from")
        if text and how == "slice":
            start = data.draw(st.integers(0, len(text) - 1))
            old = text[start : start + data.draw(st.integers(1, 12))]
        elif text and how == "line":  # with its LF, which the model writes even in a CRLF file
            old = data.draw(st.sampled_from(lines_of(text))).removesuffix("\r") + data.draw(st.sampled_from(["", "\n"]))
        elif how == "whole":  # the whole text matches exactly once (if not empty)
            old = text
        else:
            old = data.draw(TEXTS, label="old_str")
        tool: dict[str, Any] = {"command": "str_replace", "path": path, "old_str": old}
        new = data.draw(st.none() | TEXTS, label="new_str")
        if new is not None:
            tool["new_str"] = new
        self.check(tool)

    def insert(self, data: st.DataObject) -> None:
        path = self.path(data, "file")
        total = len(lines_of(self.file_text(path)))
        line = data.draw(st.one_of(st.integers(0, total), st.integers(-2, total + 2)), label="insert_line")
        self.check({"command": "insert", "path": path, "insert_line": line, "insert_text": data.draw(TEXTS)})

    def delete(self, data: st.DataObject) -> None:
        self.check({"command": "delete", "path": self.path(data)})

    def rename(self, data: st.DataObject) -> None:
        self.check({"command": "rename", "old_path": self.path(data), "new_path": self.path(data)})

    def rename_directory_oddly(self, data: st.DataObject) -> None:
        """Directory moves that random paths rarely produce: into itself, onto itself, onto a sibling."""
        old = data.draw(st.sampled_from(sorted(self.model.dirs) or ["/memories/a"]))
        new = data.draw(st.sampled_from([old, f"{old}/sub", f"{old}/a/b", "/memories/a", f"{old}x", f"{old}/"]))
        self.check({"command": "rename", "old_path": old, "new_path": new})

    @invariant()
    def store_holds_what_the_model_holds(self) -> None:
        state = read_state(self.memory.store, self.memory.namespace)
        assert state.files == self.model.files
        assert set(state.dirs) == self.model.dirs | {ROOT}
        assert aggregate_errors(state) == []


MemoryMachine.TestCase.settings = settings(max_examples=100, stateful_step_count=30, deadline=None)
test_securemem_agrees_with_the_reference_model = pytest.mark.slow(MemoryMachine.TestCase)


# -- hostile alphabets: invariants only -----------------------------------------------------------------

HOSTILE = [
    "/",
    ".",
    "..",
    "...",
    "\\",
    "%2e",
    "%2E%2e",
    "%2f",
    "%00",
    "\x00",
    "\n",
    "\r",
    "\t",
    " ",
    "~",
    "a",
    "memories",
    "/memories",
    "/memories/",
    "é",
    "e\u0301",
    "\u2215",
    "\u2044",
    "\uff0e",
    "\uff0f",
    "\u2024",
    "\u202e",
    "\u200f",
    "\u200e",
    "\u200b",
    "\ufeff",
    "\u3000",
    "\u00a0",
    "😀",
    "👨‍👩‍👧",
    "\U0001f3f3\ufe0f",
    "\ud800",
    "\udfff",
    "\U0010ffff",
    "x" * 255,
    "é" * 128,
    "y" * 300,
    "CON",
    "nul.txt",
    "node_modules",
    ".git",
]
# Path segments: plain names (so that some hostile paths are valid and get stored) and tricks.
SEGMENTS = [
    "a",
    "b",
    "notes.md",
    "é",
    "😀",
    "👨‍👩‍👧",
    "CON",
    "node_modules",
    ".git",
    "...",
    "~",
    "x" * 255,
    "é" * 127,
    "..",
    ".",
    "",
    "..\\",
    "%2e%2e",
    "%2E",
    "\\",
    "\x00",
    "\u202e",
    "\u200f",
    "\u200b",
    "\uff0e\uff0e",
    "\u2215",
    "e\u0301",
    "y" * 300,
    " a",
    "a ",
    "memories",
    "\ud800",
]
ATTACKS = [
    "/memories/../../etc/passwd",
    "/memories/..%2f..%2fetc/passwd",
    "..\\..\\memories\\x",
    "/memories/%2e%2e/x",
    "/memories/\u2025/x",
    "file:///memories/x",
    "/memories/./.././x",
    "//memories/../x",
    "/memories\x00/../x",
    "/memories/..",
    "/memories/.",
    "/memories/a/../../..",
    "/memories/\uff0e\uff0e/x",
    "/memories/a\u2215..\u2215b",
    "/memoriesevil/x",
    "/MEMORIES/x",
    "memories",
    "/" + "m/" * 600,
]
HOSTILE_TEXT = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=4)), max_size=10).map("".join)
HOSTILE_PATH = st.one_of(
    st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5).map(lambda parts: "/memories/" + "/".join(parts)),
    st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5).map("/".join),
    HOSTILE_TEXT.map(lambda tail: "/memories/" + tail),
    st.sampled_from(ATTACKS),
    st.sampled_from(["/memories/a", "/memories/b/notes.md", "/memories/😀.md"]),
)
HOSTILE_COMMANDS = st.one_of(
    st.fixed_dictionaries({"command": st.just("create"), "path": HOSTILE_PATH, "file_text": HOSTILE_TEXT}),
    st.fixed_dictionaries({"command": st.just("rename"), "old_path": HOSTILE_PATH, "new_path": HOSTILE_PATH}),
    st.fixed_dictionaries({"command": st.just("view"), "path": HOSTILE_PATH}),
    st.fixed_dictionaries(
        {"command": st.just("str_replace"), "path": HOSTILE_PATH, "old_str": HOSTILE_TEXT, "new_str": HOSTILE_TEXT}
    ),
    st.fixed_dictionaries(
        {
            "command": st.just("insert"),
            "path": HOSTILE_PATH,
            "insert_line": st.integers(-1, 3),
            "insert_text": HOSTILE_TEXT,
        }
    ),
    st.fixed_dictionaries({"command": st.just("delete"), "path": HOSTILE_PATH}),
)
ACCEPTED = [
    re.compile(r"^File created successfully at: (.*)$", re.S),
    re.compile(r"^Successfully deleted (.*)$", re.S),
    re.compile(r"^The file (.*) has been edited\.$", re.S),
]
RENAMED = re.compile(r"^Successfully renamed (.*) to (.*)$", re.S)


def assert_canonical_inside(path: str) -> None:
    """Under the root, no '.', '..' or empty segment, and the path guard's own fixed point."""
    assert path.startswith(ROOT + "/"), path
    segments = path.split("/")[2:]
    assert all(s not in ("", ".", "..") for s in segments), path
    assert "\\" not in path and "\x00" not in path and not re.search(r"%[0-9a-fA-F]{2}", path), path
    assert canonical(path) == path


def accepted_paths(tool: dict[str, Any], result: Result) -> list[str]:
    """The canonical paths a successful mutation reports back."""
    if result.is_error or tool["command"] == "view":
        return []
    text = result.text
    renamed = RENAMED.match(text)
    if renamed:
        return [renamed.group(1), renamed.group(2)]
    found = [m.group(1) for m in (p.match(text) for p in ACCEPTED) if m]
    return found or ([] if tool["command"] == "str_replace" else [text])  # an unknown success text fails below


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(tools=st.lists(HOSTILE_COMMANDS, min_size=3, max_size=15))
def test_hostile_paths_and_texts_never_escape_and_never_raise(mem: SecureMemory, tools: list[dict[str, Any]]) -> None:
    memory = mem.in_namespace(f"h{next(NAMESPACES)}")
    for tool in tools:
        result = memory.execute(tool)  # must not raise, whatever the input
        assert isinstance(result, Result) and isinstance(result.content, str)
        assert "Traceback" not in result.content and "internal error" not in result.content, (tool, result.content)
        for path in accepted_paths(tool, result):
            assert_canonical_inside(path)
    state = read_state(memory.store, memory.namespace)
    for path in [*state.files, *(d for d in state.dirs if d != ROOT)]:
        assert_canonical_inside(path)
    assert aggregate_errors(state) == []
    listing = memory.execute({"command": "view", "path": ROOT})
    assert not listing.is_error
    for row in listing.text.split("\n")[1:]:
        if not row.startswith("["):  # the closing note of a cut listing
            assert row.split("\t", 1)[1].startswith(ROOT), row


@pytest.mark.parametrize("field", ["file_text", "new_str", "insert_text", "old_str"])
@pytest.mark.parametrize("surrogate", ["\ud800", "\udfff"])
def test_an_unpaired_surrogate_in_any_text_gets_a_clear_error(mem: SecureMemory, field: str, surrogate: str) -> None:
    """JSON can carry a lone surrogate ("\\ud800"), which UTF-8 cannot encode: a clear refusal, nothing stored."""
    assert not mem.execute({"command": "create", "path": "/memories/f.md", "file_text": "one\n"}).is_error
    text = f"a{surrogate}b"
    tools: dict[str, dict[str, Any]] = {
        "file_text": {"command": "create", "path": "/memories/g.md", "file_text": text},
        "new_str": {"command": "str_replace", "path": "/memories/f.md", "old_str": "one", "new_str": text},
        "insert_text": {"command": "insert", "path": "/memories/f.md", "insert_line": 0, "insert_text": text},
        "old_str": {"command": "str_replace", "path": "/memories/f.md", "old_str": text, "new_str": "x"},
    }
    tool = tools[field]
    result = mem.execute(tool)
    assert result.is_error and "internal error" not in result.text and "Traceback" not in result.text
    if field != "old_str":  # an old_str that cannot be stored simply does not match
        assert result.text == (
            f"Error: The text for {tool['path']} contains an unpaired surrogate "
            f"(U+{ord(surrogate):04X}), which cannot be stored; remove it and retry."
        )
    assert read_state(mem.store).files == {"/memories/f.md": "one\n"}
