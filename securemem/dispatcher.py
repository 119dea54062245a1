"""The reference behaviour of each memory command against the Call's store transaction.

Messages follow the protocol's reference strings (``docs/protocol.md``). Where the SDK's
filesystem tool is wrong (phantom last line, off-by-one line limit, silent empty view_range,
non-atomic create, LF written into CRLF files, moving a directory into itself) this is right.
Paths arrive canonical: the path guard ran first.

Each command reads what it needs once, then hands its change to ``call.apply``, where the
layers' checks run before the store writes it (``securemem.changes``). A view is rendered within
the Call's typed view limit and says, in ``Result.view``, exactly what it showed.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import assert_never

from securemem.changes import FileWrite, Move, Removal
from securemem.commands import (
    AdminCommand,
    Command,
    CreateCommand,
    DeleteCommand,
    FileView,
    ImageView,
    InsertCommand,
    ListingView,
    RenameCommand,
    Result,
    StrReplaceCommand,
    ViewCommand,
)
from securemem.errors import AlreadyExists, AmbiguousMatch, CommandError, InvalidInput, InvalidRange, NoMatch, NotFound
from securemem.middleware.base import Call, ViewLimit
from securemem.paths import is_within, name_of
from securemem.store.base import Entry, StoreTx
from securemem.text import (
    MAX_LINES,
    NUMBER_WIDTH,
    clip,
    count_lines,
    fit_lines,
    insert_after,
    is_unicode_text,
    line_ending,
    numbered,
    numbered_length,
    occurrence_lines,
    occurrences,
    split_lines,
)

LISTING_DEPTH = 2
IMAGE_TYPES = {
    ".png": ("image/png", b"\x89PNG\r\n\x1a\n"),
    ".jpg": ("image/jpeg", b"\xff\xd8\xff"),
    ".jpeg": ("image/jpeg", b"\xff\xd8\xff"),
}
_IMAGE_MAGIC = tuple(sorted({magic for _, magic in IMAGE_TYPES.values()}))
SNIPPET_CONTEXT = 2
SNIPPET_MAX_LINES = 16
# A snippet line is cut at this length, so that 16 lines stay under the default 16,000-character
# cap of results: one huge line would otherwise push the whole snippet past it.
SNIPPET_LINE_CHARS = 800
MAX_LISTED_MATCHES = 50  # line numbers named when old_str is ambiguous
MIN_ROW_CHARS = 15  # the shortest listing row: "0B\t/memories/x" and a newline


@dataclass(frozen=True)
class DispatchOptions:
    overwrite_on_create: bool = False
    max_image_bytes: int = 5 * 1024 * 1024


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


def _image_type(path: str, data: bytes) -> str | None:
    if not data.startswith(_IMAGE_MAGIC):  # most files are text: one look at their first bytes
        return None
    name = name_of(path)
    dot = name.rfind(".")
    kind = IMAGE_TYPES.get(name[dot:].lower()) if dot > 0 else None
    return kind[0] if kind and data.startswith(kind[1]) else None


_LINE_PART = 3  # view_range [n, n, c]: line n from its character c


def _listing_range(path: str, view_range: list[int] | None) -> tuple[int, int]:
    """The entries a directory view asks for: [start, end], end -1 for the last; all without a range."""
    if view_range is None:
        return 1, -1
    if len(view_range) == 2:
        start, end = view_range
        # No listing holds a million entries (a quota holds a store far below): a bigger number is
        # refused here, before it reaches the store's LIMIT (SQLite's integers end at 2**63).
        if 1 <= start < _MAX_SHOWN and (end == -1 or start <= end):
            return start, min(end, _MAX_SHOWN)
    raise InvalidRange(
        f"Error: Invalid `view_range` parameter: {_shown(view_range)}. On the directory {path} it numbers "
        "the entries of its listing: use [start, end] with 1 <= start <= end, or [start, -1] to list from "
        "start to the end."
    )


def _check_range(path: str, view_range: list[int], total: int) -> tuple[int, int]:
    if total == 0:
        raise InvalidRange(
            f"Error: Invalid `view_range` parameter: {_shown(view_range)}. The file {path} is empty; "
            "view it without view_range."
        )
    if len(view_range) == 2:
        start, end = view_range
        if 1 <= start <= total and (end == -1 or start <= end <= total):
            return start, total if end == -1 else end
    raise InvalidRange(
        f"Error: Invalid `view_range` parameter: {_shown(view_range)}. The file {path} has {total} lines: "
        f"use [start, end] with 1 <= start <= end <= {total}, or [start, -1] to view from start to "
        "the end."
    )


# Line numbers beyond this are shown as out of range rather than echoed: no file holds a million
# lines (MAX_LINES), and a number of seven digits or more may be the very value kept out of the
# store (an SSN, a phone or a card sent as a line number); past Python's int-to-str limit (4,300
# digits) it could not even be printed.
_MAX_SHOWN = 10**6


def _number(n: int) -> str:
    """A line number as the model sent it, or a phrase when it is too large to echo."""
    return str(n) if abs(n) < _MAX_SHOWN else "a line number out of range"


def _shown(numbers: list[int]) -> str:
    if len(numbers) > 4:  # not echoed: a list may be huge (a short one is shown as the protocol's messages do)
        return f"a list of {len(numbers)} numbers"
    return f"[{', '.join(map(_number, numbers))}]"


def _must_fit_lines(path: str, text: str) -> None:
    if count_lines(text) > MAX_LINES:
        raise CommandError(f"Error: The file {path} would exceed the maximum line limit of 999,999 lines.")


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
        if isinstance(command, AdminCommand):  # its endpoint is securemem.admin's, never this one
            raise InvalidInput("Error: Unknown or missing command.")
        assert_never(command)

    # -- view ------------------------------------------------------------------------------

    def view(self, cmd: ViewCommand, call: Call) -> Result:
        found = call.txn.get(cmd.path)
        if found is None:
            raise NotFound(f"The path {cmd.path} does not exist. Please provide a valid path.")
        entry, data = found
        if data is None:
            return self._listing(entry, call.txn, call.view_limit, cmd.view_range)
        image = _image_type(cmd.path, data)
        if image is not None:
            return self._image(cmd, entry, image, data)
        return self._file_view(cmd, entry, _decode(cmd.path, data), call.view_limit)

    def _listing(
        self, directory: Entry, tx: StoreTx, limit: ViewLimit | None, view_range: list[int] | None = None
    ) -> Result:
        """The listing, or with ``view_range`` [start, end] its entries start to end (1 is the first
        entry below the directory's own row; end -1: to the last): how a listing cut to fit the limit
        is paged, as a file is by its lines."""
        first, end = _listing_range(directory.path, view_range)
        header = (
            f"Here're the files and directories up to 2 levels deep in {directory.path}, "
            "excluding hidden items and node_modules:"
        )
        rows = [header, f"{human_size(directory.size)}\t{directory.path}"]
        # A listing never reads more rows than the limit could show: a 100,000-entry directory
        # costs what a 1,000-entry one does (a later page reads the entries before it too).
        most = None if limit is None else limit.chars // MIN_ROW_CHARS + 2
        if end == -1:
            wanted = None if most is None else first - 1 + most
        else:
            wanted = end if most is None else min(end, first - 1 + most)
        entries = tx.tree(directory.path, LISTING_DEPTH, hidden, limit=wanted)
        if first > 1 and len(entries) < first:
            count = len(tx.tree(directory.path, LISTING_DEPTH, hidden))
            if count == 0:
                raise InvalidRange(
                    f"Error: Invalid `view_range` parameter: {_shown(view_range or [])}. The listing of "
                    f"{directory.path} has no entries below it; view it without view_range."
                )
            raise InvalidRange(
                f"Error: Invalid `view_range` parameter: {_shown(view_range or [])}. The listing of "
                f"{directory.path} has {count} entr{'y' if count == 1 else 'ies'}: use [start, end] with "
                f"1 <= start <= end <= {count}, or [start, -1] to list from start to the end."
            )
        shown = entries[first - 1 : wanted]
        for entry in shown:
            rows.append(f"{human_size(entry.size)}\t{entry.path}{'/' if entry.is_dir else ''}")
        text = "\n".join(rows)
        more = wanted is not None and len(entries) > wanted and (end == -1 or wanted < end)
        if limit is None or (len(text) <= limit.chars and not more):
            return Result(text, view=ListingView(directory.path, first=first, last=first + len(shown) - 1))
        budget = limit.chars - limit.reserve
        # No newline within the budget happens only when the header alone (a long path under a
        # small limit) is over it: cut inside the header rather than keep everything.
        cut = text.rfind("\n", 0, budget) if len(text) > budget else len(text)
        kept = text[: budget if cut == -1 else cut]
        last = first + kept.count("\n") - 2  # the header and the directory's own row are no entries
        return Result(kept, view=ListingView(directory.path, cut=True, first=first, last=max(last, first - 1)))

    def _image(self, cmd: ViewCommand, entry: Entry, media_type: str, data: bytes) -> Result:
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
        return Result([block], view=ImageView(cmd.path, entry))

    def _file_view(self, cmd: ViewCommand, entry: Entry, text: str, limit: ViewLimit | None) -> Result:
        lines = split_lines(text)
        if len(lines) > MAX_LINES:
            raise CommandError(f"File {cmd.path} exceeds maximum line limit of 999,999 lines.")
        if cmd.view_range is not None and len(cmd.view_range) == _LINE_PART:
            return self._line_part(cmd, entry, lines, limit)
        if cmd.view_range is None:
            start, end, window = 1, len(lines), lines
        else:
            start, end = _check_range(cmd.path, cmd.view_range, len(lines))
            window = lines[start - 1 : end]
        header = f"Here's the content of {cmd.path} with line numbers:\n"
        # The protocol truncates views of files longer than the limit: a file whose text (its line breaks
        # counted) is no longer, or a range whose lines are no longer, is shown whole, line numbers on top.
        asked = len(text) if cmd.view_range is None else sum(map(len, window)) + len(window) - 1
        if limit is None or asked <= limit.chars:
            view = FileView(cmd.path, entry, start, end, end, len(lines))
            return Result(header + numbered(window, start), view=view)
        budget = limit.chars - limit.reserve - len(header)
        body, count, line_cut = fit_lines(window, start, budget)
        last = start if line_cut else start + count - 1
        chars = max(budget - NUMBER_WIDTH - 1, 0) if line_cut else 0
        view = FileView(cmd.path, entry, start, last, end, len(lines), cut=True, line_cut=line_cut, line_chars=chars)
        return Result(header + body, view=view)

    def _line_part(self, cmd: ViewCommand, entry: Entry, lines: list[str], limit: ViewLimit | None) -> Result:
        """``view_range`` [n, n, c]: line n from its character c on (an extension of the protocol, which
        the closing line of a view cut inside a long line offers: the rest of that line, page by page)."""
        assert cmd.view_range is not None
        number, again, first = cmd.view_range
        if not 1 <= number <= len(lines) or again != number:
            _check_range(cmd.path, cmd.view_range, len(lines))  # raises, naming the file's valid range
        line = lines[number - 1]
        if not 1 <= first <= max(len(line), 1):
            raise InvalidRange(
                f"Error: Invalid `view_range` parameter: {_shown(cmd.view_range)}. Three numbers [n, n, c] show "
                f"line n from its character c: line {number} has {len(line):,} characters, so 1 <= c <= "
                f"{max(len(line), 1):,}."
            )
        part = line[first - 1 :]
        header = f"Here's the content of {cmd.path} with line numbers (line {number} from character {first:,}):\n"
        if limit is None or len(header) + numbered_length([part]) <= limit.chars:
            view = FileView(cmd.path, entry, number, number, number, len(lines), line_from=first)
            body = numbered([part], number)
            if number < len(lines):
                # The last page of a long line: where the file goes on (a model pages by the last
                # pointer it saw; the first page's was the only one that named the lines after it).
                body += (
                    f"\n[End of line {number}. The file has {len(lines):,} lines; use view_range "
                    f"[{number + 1}, -1] for the lines after it.]"
                )
            return Result(header + body, view=view)
        budget = limit.chars - limit.reserve - len(header)
        body, _, _ = fit_lines([part], number, budget)
        chars = max(budget - NUMBER_WIDTH - 1, 0)
        view = FileView(
            cmd.path, entry, number, number, number, len(lines), cut=True, line_cut=True, line_from=first,
            line_chars=chars,
        )  # fmt: skip
        return Result(header + body, view=view)

    # -- writes ----------------------------------------------------------------------------

    def create(self, cmd: CreateCommand, call: Call) -> Result:
        found = call.txn.ancestry(cmd.path)
        if found.entry is not None and found.entry.is_dir:
            raise AlreadyExists(f"Error: The path {cmd.path} is a directory; create needs a file path.")
        if found.entry is not None and not self.options.overwrite_on_create:
            raise AlreadyExists(f"Error: File {cmd.path} already exists")
        if found.blocking_file is not None:
            raise AlreadyExists(f"Error: Cannot use {cmd.path}: {found.blocking_file} is a file, not a directory.")
        _must_fit_lines(cmd.path, cmd.file_text)
        call.apply(FileWrite.of(cmd.path, cmd.file_text, found.entry, found))
        return Result(f"File created successfully at: {cmd.path}")

    def _text_file(self, path: str, tx: StoreTx, missing: str) -> tuple[Entry, str]:
        found = tx.get(path)
        if found is None or found[1] is None:
            raise NotFound(missing)
        return found[0], _decode(path, found[1])

    def str_replace(self, cmd: StrReplaceCommand, call: Call) -> Result:
        missing = f"Error: The path {cmd.path} does not exist. Please provide a valid path."
        entry, text = self._text_file(cmd.path, call.txn, missing)
        if not cmd.old_str:
            raise InvalidInput("Error: `old_str` must not be empty; give the exact text to replace.")
        if not is_unicode_text(cmd.old_str):  # no stored text holds one, and it would come back in the error
            raise InvalidInput(
                "Error: `old_str` contains an unpaired surrogate, which no file can hold; remove it and retry."
            )
        old, new = _in_line_ending(text, cmd.old_str), _in_line_ending(text, cmd.new_str or "")
        if old != cmd.old_str and old not in text and cmd.old_str in text:
            # A file that mixes line endings (CRLF first, LF lines later, as an insert may leave it): its
            # LF lines match old_str as sent, and keep their LF.
            old, new = cmd.old_str, cmd.new_str or ""
        elif old not in text and "\n" in old and "\r" not in old and "\r\n" in text:
            # ... or LF first, CRLF lines later: the views do not show the CR, so old_str comes with LF; the
            # CRLF lines match it with CRLF and keep their CRLF (an attacker's round)
            crlf = old.replace("\n", "\r\n")
            if crlf in text and "\r" not in new:
                old, new = crlf, new.replace("\n", "\r\n")
        if old.endswith("\r") and (line_ending(text) == "\r\n" or old + "\n" in text):
            # Replacing the CR of a CRLF would leave its LF bare: the file would mix line endings.
            raise InvalidInput(
                "Error: `old_str` ends with the carriage return of one of the file's CRLF line endings; "
                "end it before the line ending (the views do not show the CR) and retry."
            )
        where = occurrence_lines(text, old, limit=MAX_LISTED_MATCHES + 1)
        if not where:
            raise NoMatch(
                f"No replacement was performed, old_str `{clip(cmd.old_str)}` did not appear verbatim in {cmd.path}."
            )
        if len(where) > 1:
            raise AmbiguousMatch(
                f"No replacement was performed. Multiple occurrences of old_str "
                f"`{clip(cmd.old_str)}` in lines: {_listed(where, text, old)}. Please ensure it is "
                "unique"
            )
        at = text.find(old)
        edited = text[:at] + new + text[at + len(old) :]
        _must_fit_lines(cmd.path, edited)
        if edited == text:  # old_str replaced by itself: nothing changes, so nothing is written (no version)
            return Result(
                "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
                + _snippet(text, where[0], new.count("\n"), _column(text, at))
            )
        # The snippet shows what was stored: a layer's check may have changed the text (the PII
        # safety net puts a token where the edit completed a value).
        stored = call.apply(FileWrite.of(cmd.path, edited, entry, NO_ANCESTRY)).text
        return Result(
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
            + _snippet(stored, where[0], new.count("\n"), _column(text, at))
        )

    def insert(self, cmd: InsertCommand, call: Call) -> Result:
        entry, text = self._text_file(cmd.path, call.txn, f"Error: The path {cmd.path} does not exist")
        total = count_lines(text)
        if not 0 <= cmd.insert_line <= total:
            raise InvalidRange(
                f"Error: Invalid `insert_line` parameter: {_number(cmd.insert_line)}. It should be within the "
                f"range of lines of the file: [0, {total}]"
            )
        edited = insert_after(text, cmd.insert_line, cmd.insert_text)
        _must_fit_lines(cmd.path, edited)
        call.apply(FileWrite.of(cmd.path, edited, entry, NO_ANCESTRY))
        return Result(f"The file {cmd.path} has been edited.")

    def delete(self, cmd: DeleteCommand, call: Call) -> Result:
        entry = call.txn.stat(cmd.path)
        if entry is None:
            raise NotFound(f"Error: The path {cmd.path} does not exist")
        call.apply(Removal(cmd.path, entry))
        return Result(f"Successfully deleted {cmd.path}")

    def rename(self, cmd: RenameCommand, call: Call) -> Result:
        source = call.txn.stat(cmd.old_path)
        if source is None:
            raise NotFound(f"Error: The path {cmd.old_path} does not exist")
        target = call.txn.ancestry(cmd.new_path)
        if cmd.new_path == cmd.old_path or target.entry is not None:
            raise AlreadyExists(f"Error: The destination {cmd.new_path} already exists")
        if source.is_dir and is_within(cmd.new_path, cmd.old_path):
            raise InvalidInput(f"Error: Cannot move the directory {cmd.old_path} into itself ({cmd.new_path}).")
        if target.blocking_file is not None:
            raise AlreadyExists(f"Error: Cannot use {cmd.new_path}: {target.blocking_file} is a file, not a directory.")
        call.apply(Move(cmd.old_path, cmd.new_path, source, target))
        return Result(f"Successfully renamed {cmd.old_path} to {cmd.new_path}")


NO_ANCESTRY = None  # an edit replaces a file in place: nothing on its way needs making


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
    count, exact = occurrences(text, old)
    count = max(count, len(where))  # a floor counts no fewer than those found overlapping
    return f"{shown}, ... ({count:,} occurrences in all)" if exact else f"{shown}, ... (at least {count:,} occurrences)"


def _snippet(text: str, first_line: int, added_lines: int, column: int = 0) -> str:
    """The edited lines and their context, numbered; each line cut to SNIPPET_LINE_CHARS, the first edited one
    around ``column``, where the edit starts (an attacker's round: an edit at character 200,000 of a one-line
    file was cut away, the snippet "showing the change" showing none of it)."""
    lines = split_lines(text)
    start = max(1, first_line - SNIPPET_CONTEXT)
    end = min(len(lines), first_line + added_lines + SNIPPET_CONTEXT, start + SNIPPET_MAX_LINES - 1)
    return numbered(
        [
            _clip_around(line, column) if number == first_line else clip(line, SNIPPET_LINE_CHARS)
            for number, line in enumerate(lines[start - 1 : end], start)
        ],
        start,
    )


def _column(text: str, at: int) -> int:
    """Where ``at`` lies in its line."""
    return at - (text.rfind("\n", 0, at) + 1)


def _clip_around(line: str, column: int) -> str:
    """At most SNIPPET_LINE_CHARS characters of ``line``, from its start or, when ``column`` lies past half of
    that, from a quarter of it before ``column``; each cut end marked."""
    if len(line) <= SNIPPET_LINE_CHARS or column < SNIPPET_LINE_CHARS // 2:
        return clip(line, SNIPPET_LINE_CHARS)
    first = column - SNIPPET_LINE_CHARS // 4
    return "(cut)..." + clip(line[first:], SNIPPET_LINE_CHARS)
