"""ViewTruncate: cap what a view returns and tell the model how to page through the rest.

The cut falls on a line boundary where it can, and the closing line says how many lines the file
has and which range to ask for next, so the model never gets a silent cut. The whole result,
closing line included, stays within the limit. The closing line does not repeat the path: the
header above it names the path already, and a path may be 1,024 bytes, which would push the
result past the limit that this layer exists to keep.
"""

from __future__ import annotations

from securemem.commands import Result
from securemem.middleware.base import Call, Handler

DEFAULT_MAX_CHARS = 16_000
NOTE_RESERVE = 300  # room kept for the closing line


class ViewTruncate:
    def __init__(self, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.max_chars = max(max_chars, NOTE_RESERVE * 2)

    def __call__(self, call: Call, call_next: Handler) -> Result:
        result = call_next(call)
        if result.is_error or not isinstance(result.content, str) or len(result.content) <= self.max_chars:
            return result
        kind = result.meta.get("kind")
        if kind == "file":
            return self._cut_file(result)
        if kind == "listing":
            return self._cut_listing(result)
        return result  # only views are capped; an edit's snippet is bounded by the dispatcher

    def _cut_file(self, result: Result) -> Result:
        text, budget = str(result.content), self.max_chars - NOTE_RESERVE
        body_start = text.find("\n") + 1
        cut = text.rfind("\n", body_start, budget + 1)
        kept = text[:budget] if cut == -1 else text[:cut]
        number = kept[body_start:].rsplit("\n", 1)[-1].split("\t", 1)[0].strip()
        last = int(number) if number.isdigit() else 0
        total = result.meta["total_lines"]
        note = (_line_cut_note if cut == -1 else _boundary_note)(last, total, self.max_chars)
        return Result(f"{kept}\n{note}", meta={**result.meta, "truncated": True})

    def _cut_listing(self, result: Result) -> Result:
        text, budget = str(result.content), self.max_chars - NOTE_RESERVE
        # No newline within the budget only happens when the header alone (a long path under a
        # small limit) is over it: cut inside the header rather than at -1, which keeps everything.
        cut = text.rfind("\n", 0, budget)
        cut = budget if cut == -1 else cut
        note = f"[Listing truncated at {self.max_chars} characters: view a subdirectory to see the rest.]"
        return Result(f"{text[:cut]}\n{note}", meta={**result.meta, "truncated": True})


def _boundary_note(last: int, total: int, max_chars: int) -> str:
    """The closing line when the view was cut after a whole line."""
    return (
        f"[Output truncated at {max_chars} characters: the file has {total} lines and this view "
        f"ends at line {last}. Use view_range, e.g. [{last + 1}, -1], to see the rest.]"
    )


def _line_cut_note(line: int, total: int, max_chars: int) -> str:
    """The closing line when one line alone is over the limit (no view_range can show all of it)."""
    after = (
        f"use view_range [{line + 1}, -1] for the lines after it" if line < total else "it is the last line of the file"
    )
    return (
        f"[Output truncated: line {line} is longer than {max_chars} characters and was cut. "
        f"The file has {total} lines; {after}.]"
    )
