"""The reference behaviour of each memory command against a StoreTx.

Messages follow ``spec/memory-tool.md`` (the strings the model was trained on). Where the SDK's
filesystem tool is wrong (phantom last line, off-by-one line limit, silent empty view_range,
non-atomic create, LF written into CRLF files, moving a directory into itself) this is right.
Paths arrive canonical: the path guard ran first.
"""

from __future__ import annotations

import base64
import dataclasses
from dataclasses import dataclass
from typing import assert_never

from securemem.commands import (
    Command,
    CreateCommand,
    DeleteCommand,
    InsertCommand,
    RenameCommand,
    Result,
    StrReplaceCommand,
    ViewCommand,
)
from securemem.errors import (
    AlreadyExists,
    AmbiguousMatch,
    CommandError,
    InvalidInput,
    InvalidRange,
    NoMatch,
    NotFound,
)
from securemem.middleware.base import Call
from securemem.paths import is_within, name_of
from securemem.store.base import Entry, StoreTx
from securemem.text import (
    MAX_LINES,
    clip,
    count_lines,
    insert_after,
    line_ending,
    numbered,
    occurrence_lines,
    split_lines,
)

LISTING_DEPTH = 2
IMAGE_TYPES = {
    ".png": ("image/png", b"\x89PNG\r\n\x1a\n"),
    ".jpg": ("image/jpeg", b"\xff\xd8\xff"),
    ".jpeg": ("image/jpeg", b"\xff\xd8\xff"),
}
SNIPPET_CONTEXT = 2
SNIPPET_MAX_LINES = 16
# A snippet line is cut at this length, so that 16 lines stay under the default 16,000-character
# cap of results: one huge line would otherwise push the whole snippet past it.
SNIPPET_LINE_CHARS = 800
MAX_LISTED_MATCHES = 50  # line numbers named when old_str is ambiguous


@dataclass(frozen=True)
class DispatchOptions:
    overwrite_on_create: bool = False
    max_image_bytes: int = 5 * 1024 * 1024
    max_chars: int = 16_000  # the view cap: a listing never reads more rows than could be shown

    @property
    def listing_rows(self) -> int:
        # Every row is at least 15 characters ("0B\t/memories/x" and a newline), so this many rows
        # always overflow the cap: the view layer then cuts the listing and says so.
        return self.max_chars // 15 + 2


def human_size(size: int) -> str:
    """Sizes as ``du -h`` shows them: 512B, 4.0K, 5.5K, 1.2M."""
    if size < 1024:
        return f"{size}B"
    value = float(size)
    for unit in ("K", "M", "G", "T"):
        value /= 1024
        # Compare what will be printed: 1048575 bytes is 1023.999K, which would print as "1024.0K".
        if round(value, 1) < 1024 or unit == "T":
            break
    return f"{value:.1f}{unit}"


def hidden(name: str) -> bool:
    return name.startswith(".") or name == "node_modules"


def _decode(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CommandError(f"Error: {path} is a binary file and cannot be shown or edited as text.") from None


def _utf8(path: str, text: str) -> bytes:
    """``text`` as stored. JSON can carry a lone surrogate (``"\\ud800"``), which UTF-8 cannot encode."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"Error: The text for {path} contains an unpaired surrogate "
            f"(U+{ord(text[exc.start]):04X}), which cannot be stored; remove it and retry."
        ) from None


def _image_type(path: str, data: bytes) -> str | None:
    dot = name_of(path).rfind(".")
    kind = IMAGE_TYPES.get(name_of(path)[dot:].lower()) if dot > 0 else None
    return kind[0] if kind and data.startswith(kind[1]) else None


def _check_range(path: str, view_range: list[int], total: int) -> tuple[int, int]:
    if total == 0:
        raise InvalidRange(
            f"Error: Invalid `view_range` parameter: {view_range}. The file {path} is empty; "
            "view it without view_range."
        )
    if len(view_range) == 2:
        start, end = view_range
        if 1 <= start <= total and (end == -1 or start <= end <= total):
            return start, total if end == -1 else end
    raise InvalidRange(
        f"Error: Invalid `view_range` parameter: {view_range}. The file {path} has {total} "
        f"lines: use [start, end] with 1 <= start <= end <= {total}, or [start, -1] to view "
        "from start to the end."
    )


class Dispatcher:
    """Runs one validated command inside the transaction of its Call."""

    def __init__(self, options: DispatchOptions | None = None) -> None:
        self.options = options or DispatchOptions()

    def __call__(self, call: Call) -> Result:
        command: Command = call.command
        if isinstance(command, ViewCommand):
            return self.view(command, call)
        if isinstance(command, CreateCommand):
            return self.create(command, call)
        if isinstance(command, StrReplaceCommand):
            return self.str_replace(command, call)
        if isinstance(command, InsertCommand):
            return self.insert(command, call)
        if isinstance(command, DeleteCommand):
            return self.delete(command, call)
        if isinstance(command, RenameCommand):
            return self.rename(command, call)
        assert_never(command)

    # -- view ------------------------------------------------------------------------------

    def view(self, cmd: ViewCommand, call: Call) -> Result:
        entry = call.tx.stat(cmd.path)
        if entry is None:
            raise NotFound(f"The path {cmd.path} does not exist. Please provide a valid path.")
        if entry.is_dir:
            if cmd.view_range is not None:
                raise InvalidRange(f"Error: view_range applies to files only; {cmd.path} is a directory.")
            return self._listing(entry, call.tx)
        data = call.tx.read(cmd.path)
        image = _image_type(cmd.path, data)
        result = self._image(cmd, image, data) if image is not None else self._file_view(cmd, _decode(cmd.path, data))
        # The expiry the view saw: the TTL layer decides from it whether the read refreshes it.
        return dataclasses.replace(result, meta={**result.meta, "expires": entry.expires})

    def _listing(self, directory: Entry, tx: StoreTx) -> Result:
        rows = [f"{human_size(directory.size)}\t{directory.path}"]
        for entry in tx.tree(directory.path, LISTING_DEPTH, hidden, limit=self.options.listing_rows):
            rows.append(f"{human_size(entry.size)}\t{entry.path}{'/' if entry.is_dir else ''}")
        header = (
            f"Here're the files and directories up to 2 levels deep in {directory.path}, "
            "excluding hidden items and node_modules:"
        )
        return Result("\n".join([header, *rows]), meta={"kind": "listing", "path": directory.path})

    def _image(self, cmd: ViewCommand, media_type: str, data: bytes) -> Result:
        if cmd.view_range is not None:
            raise InvalidRange(f"Error: view_range applies to text files only; {cmd.path} is an image.")
        if len(data) > self.options.max_image_bytes:
            raise CommandError(
                f"Error: The image {cmd.path} is {len(data)} bytes, over the "
                f"{self.options.max_image_bytes}-byte limit for image views."
            )
        block = {
            "type": "image",
            "source": {"type": "base64", "media_type": media_type, "data": base64.b64encode(data).decode("ascii")},
        }
        return Result([block], meta={"kind": "image", "path": cmd.path})

    def _file_view(self, cmd: ViewCommand, text: str) -> Result:
        lines = split_lines(text)
        if len(lines) > MAX_LINES:
            raise CommandError(f"File {cmd.path} exceeds maximum line limit of 999,999 lines.")
        start, end = (1, len(lines)) if cmd.view_range is None else _check_range(cmd.path, cmd.view_range, len(lines))
        body = numbered(lines[start - 1 : end], start)
        content = f"Here's the content of {cmd.path} with line numbers:\n{body}"
        return Result(content, meta={"kind": "file", "path": cmd.path, "total_lines": len(lines)})

    # -- writes ----------------------------------------------------------------------------

    def _must_fit_lines(self, path: str, text: str) -> int:
        lines = count_lines(text)
        if lines > MAX_LINES:
            raise CommandError(f"Error: The file {path} would exceed the maximum line limit of 999,999 lines.")
        return lines

    def _check_parents(self, path: str, tx: StoreTx) -> None:
        blocker = tx.blocking_file(path)
        if blocker is not None:
            raise AlreadyExists(f"Error: Cannot use {path}: {blocker} is a file, not a directory.")

    def create(self, cmd: CreateCommand, call: Call) -> Result:
        existing = call.tx.stat(cmd.path)
        if existing is not None and existing.is_dir:
            raise AlreadyExists(f"Error: The path {cmd.path} is a directory; create needs a file path.")
        if existing is not None and not self.options.overwrite_on_create:
            raise AlreadyExists(f"Error: File {cmd.path} already exists")
        self._check_parents(cmd.path, call.tx)
        lines = self._must_fit_lines(cmd.path, cmd.file_text)
        call.tx.write_file(cmd.path, _utf8(cmd.path, cmd.file_text), lines, call.expires)
        return Result(f"File created successfully at: {cmd.path}")

    def _read_text_file(self, path: str, tx: StoreTx, missing: str) -> str:
        entry = tx.stat(path)
        if entry is None or entry.is_dir:
            raise NotFound(missing)
        return _decode(path, tx.read(path))

    def str_replace(self, cmd: StrReplaceCommand, call: Call) -> Result:
        text = self._read_text_file(
            cmd.path, call.tx, f"Error: The path {cmd.path} does not exist. Please provide a valid path."
        )
        if not cmd.old_str:
            raise InvalidInput("Error: `old_str` must not be empty; give the exact text to replace.")
        old, new = _in_line_ending(text, cmd.old_str), _in_line_ending(text, cmd.new_str or "")
        where = occurrence_lines(text, old, limit=MAX_LISTED_MATCHES + 1)
        if not where:
            raise NoMatch(
                f"No replacement was performed, old_str `{clip(cmd.old_str)}` did not appear verbatim in {cmd.path}."
            )
        if len(where) > 1:
            raise AmbiguousMatch(
                f"No replacement was performed. Multiple occurrences of old_str "
                f"`{clip(cmd.old_str)}` in lines: {_listed(where, text, old)}. "
                "Please ensure it is unique"
            )
        at = text.find(old)
        edited = text[:at] + new + text[at + len(old) :]
        call.tx.write_file(cmd.path, _utf8(cmd.path, edited), self._must_fit_lines(cmd.path, edited), call.expires)
        return Result(
            "The memory file has been edited. Here is the snippet showing the change "
            f"(with line numbers):\n{_snippet(edited, where[0], new.count(chr(10)))}"
        )

    def insert(self, cmd: InsertCommand, call: Call) -> Result:
        text = self._read_text_file(cmd.path, call.tx, f"Error: The path {cmd.path} does not exist")
        total = count_lines(text)
        if not 0 <= cmd.insert_line <= total:
            raise InvalidRange(
                f"Error: Invalid `insert_line` parameter: {cmd.insert_line}. It should be "
                f"within the range of lines of the file: [0, {total}]"
            )
        edited = insert_after(text, cmd.insert_line, cmd.insert_text)
        call.tx.write_file(cmd.path, _utf8(cmd.path, edited), self._must_fit_lines(cmd.path, edited), call.expires)
        return Result(f"The file {cmd.path} has been edited.")

    def delete(self, cmd: DeleteCommand, call: Call) -> Result:
        if call.tx.stat(cmd.path) is None:
            raise NotFound(f"Error: The path {cmd.path} does not exist")
        call.tx.delete(cmd.path)
        return Result(f"Successfully deleted {cmd.path}")

    def rename(self, cmd: RenameCommand, call: Call) -> Result:
        source = call.tx.stat(cmd.old_path)
        if source is None:
            raise NotFound(f"Error: The path {cmd.old_path} does not exist")
        if cmd.new_path == cmd.old_path or call.tx.stat(cmd.new_path) is not None:
            raise AlreadyExists(f"Error: The destination {cmd.new_path} already exists")
        if source.is_dir and is_within(cmd.new_path, cmd.old_path):
            raise InvalidInput(f"Error: Cannot move the directory {cmd.old_path} into itself ({cmd.new_path}).")
        self._check_parents(cmd.new_path, call.tx)
        call.tx.move(cmd.old_path, cmd.new_path)
        return Result(f"Successfully renamed {cmd.old_path} to {cmd.new_path}")


def _in_line_ending(text: str, fragment: str) -> str:
    """``fragment`` in the file's own line ending.

    Views hide the CR of CRLF lines, so the model writes multi-line old_str and new_str with LF;
    in a CRLF file they would never match, and new_str would mix LF lines into the file.
    """
    if line_ending(text) != "\r\n":
        return fragment
    return fragment.replace("\r\n", "\n").replace("\n", "\r\n")


def _listed(where: list[int], text: str, old: str) -> str:
    """The line numbers of an ambiguous old_str: all of them, or the first MAX_LISTED_MATCHES and a count."""
    if len(where) <= MAX_LISTED_MATCHES:
        return ", ".join(map(str, where))
    shown = ", ".join(map(str, where[:MAX_LISTED_MATCHES]))
    return f"{shown}, ... ({text.count(old):,} occurrences in all)"


def _snippet(text: str, first_line: int, added_lines: int) -> str:
    lines = split_lines(text)
    start = max(1, first_line - SNIPPET_CONTEXT)
    end = min(len(lines), first_line + added_lines + SNIPPET_CONTEXT, start + SNIPPET_MAX_LINES - 1)
    return numbered([clip(line, SNIPPET_LINE_CHARS) for line in lines[start - 1 : end]], start)
