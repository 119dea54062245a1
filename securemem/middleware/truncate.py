"""ViewTruncate: cut the view of a file longer than the limit and tell the model how to page through the rest.

As the protocol says, a file (or the range of it asked for) whose text is no longer than
``view.max_chars`` is shown whole, line numbers added; a longer one is cut so that what the view
returns stays within the limit. A listing is cut at the limit too.

On the way down it gives the dispatcher a typed limit (``call.view_limit``): the dispatcher
renders whole lines until the limit, keeping room for a closing line, and reports in
``Result.view`` what it showed. On the way up this layer writes that closing line from those
typed fields (never from the rendered text): how many lines the file has, where the view stopped
and which ``view_range`` continues it. The closing line does not repeat the path: the header
names it already, and a path may be 1,024 bytes, which would push the result past the limit.
"""

from __future__ import annotations

import dataclasses

from securemem.commands import FileView, ImageView, Result
from securemem.middleware.base import Call, Handler, ViewLimit

DEFAULT_MAX_CHARS = 16_000
NOTE_RESERVE = 300  # room kept for the closing line


class ViewTruncate:
    def __init__(self, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.limit = ViewLimit(chars=max(max_chars, NOTE_RESERVE * 2), reserve=NOTE_RESERVE)

    def __call__(self, call: Call, call_next: Handler) -> Result:
        call.view_limit = self.limit
        result = call_next(call)
        view = result.view
        if view is None or isinstance(view, ImageView) or not view.cut:
            return result  # a write, an image, or a view shown whole: nothing to add
        if isinstance(view, FileView):
            note = _line_cut_note(view, self.limit.chars) if view.line_cut else _boundary_note(view, self.limit.chars)
        elif view.last < view.first:
            # Not even one row fits: offering the same range again would go in circles.
            note = (
                f"[Listing truncated at {self.limit.chars} characters: entry {view.first} does not fit (its path "
                "is long); view it or its directory by path, or raise the policy's view.max_chars.]"
            )
        else:
            shown = f"entries {view.first}-{view.last}" if view.last > view.first else f"entry {view.last}"
            note = (
                f"[Listing truncated at {self.limit.chars} characters: it shows {shown}. Use view_range, e.g. "
                f"[{view.last + 1}, -1], to see the next entries, or view a subdirectory.]"
            )
        return dataclasses.replace(result, content=f"{result.text}\n{note}")


def _next_range(view: FileView, start: int) -> str:
    return f"[{start}, {-1 if view.end == view.total else view.end}]"


def _lines(count: int) -> str:
    return "1 line" if count == 1 else f"{count} lines"


def _boundary_note(view: FileView, max_chars: int) -> str:
    """The closing line when the view was cut after a whole line."""
    return (
        f"[Output truncated at {max_chars} characters: the file has {_lines(view.total)} and this view ends at "
        f"line {view.last}. Use view_range, e.g. {_next_range(view, view.last + 1)}, to see the rest.]"
    )


def _line_cut_note(view: FileView, max_chars: int) -> str:
    """The closing line when one line alone is over the limit: where the rest of that line is
    (view_range [n, n, c], line n from its character c) and the range of the lines after it."""
    line = view.last
    after = (
        f"use view_range {_next_range(view, line + 1)} for the lines after it"
        if line < view.end
        else "it is the last line of the file"
        if line == view.total
        else "it is the last line of this range"
    )
    rest = view.line_from + view.line_chars
    if view.line_chars <= 0:  # the header alone (a long path) fills the view: no range can show more
        return (
            f"[Output truncated: the path leaves no room for line {line} in a view of {max_chars} characters; "
            "raise the policy's view.max_chars to read it.]"
        )
    return (
        f"[Output truncated: line {line} does not fit in a view of {max_chars} characters and was cut after "
        f"character {rest - 1:,}. Use view_range [{line}, {line}, {rest}] to see the rest of it. "
        f"The file has {_lines(view.total)}; {after}.]"
    )
