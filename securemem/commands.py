"""The six memory commands as pydantic models, the parser for raw tool input, and Result.

Tool input is untrusted model output. Each command is a strict model (unknown fields refused,
no type coercion beyond what JSON allows), joined in a discriminated union on ``command`` so
that a bad input gets one message naming the field, never a traceback. Messages never echo a
value the model sent: not an unknown command name, not an unknown field name (either could carry
personal data that a later layer would have kept out of messages and logs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from securemem.errors import InvalidInput
from securemem.store.base import Entry

COMMAND_NAMES = ("view", "create", "str_replace", "insert", "delete", "rename")

# The text fields a command may carry. ``old_str`` is searched for in what is stored; the
# others are stored.
TextField = Literal["file_text", "old_str", "new_str", "insert_text"]
TextMap = Callable[[str, TextField], str]


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    # Whether the command changes the store: asked by several layers of every command, so a class
    # constant rather than a property.
    mutates: ClassVar[bool] = True

    @property
    def paths(self) -> tuple[str, ...]:
        """Every path the command names (the path guard checks each one)."""
        return (getattr(self, "path"),)  # noqa: B009 - each subclass defines path or overrides

    @property
    def writes_content(self) -> bool:
        """True for the commands that store text the model sent (create, str_replace, insert)."""
        return False

    def with_paths(self, paths: tuple[str, ...]) -> Command:
        return self.model_copy(update={"path": paths[0]})  # type: ignore[return-value]

    def map_texts(self, fn: TextMap) -> Command:
        """The same command with ``fn(text, field)`` applied to each text field it carries."""
        return self  # type: ignore[return-value]

    def texts(self) -> list[tuple[str, TextField]]:
        """Each text field the command carries, with its name."""
        found: list[tuple[str, TextField]] = []

        def collect(text: str, field: TextField) -> str:
            found.append((text, field))
            return text

        self.map_texts(collect)
        return found


class ViewCommand(_Command):
    command: Literal["view"]
    path: StrictStr
    # A list, not a tuple: JSON has no tuples, and a wrong length gets a message naming the
    # valid range from the dispatcher, which knows the file.
    view_range: list[StrictInt] | None = None
    mutates: ClassVar[bool] = False


class CreateCommand(_Command):
    command: Literal["create"]
    path: StrictStr
    file_text: StrictStr

    @property
    def writes_content(self) -> bool:
        return True

    def map_texts(self, fn: TextMap) -> Command:
        text = fn(self.file_text, "file_text")
        return self if text == self.file_text else self.model_copy(update={"file_text": text})


class StrReplaceCommand(_Command):
    command: Literal["str_replace"]
    path: StrictStr
    old_str: StrictStr
    new_str: StrictStr | None = None

    @property
    def writes_content(self) -> bool:
        return True

    def map_texts(self, fn: TextMap) -> Command:
        old = fn(self.old_str, "old_str")
        new = None if self.new_str is None else fn(self.new_str, "new_str")
        if (old, new) == (self.old_str, self.new_str):
            return self
        return self.model_copy(update={"old_str": old, "new_str": new})


class InsertCommand(_Command):
    command: Literal["insert"]
    path: StrictStr
    insert_line: StrictInt
    insert_text: StrictStr

    @property
    def writes_content(self) -> bool:
        return True

    def map_texts(self, fn: TextMap) -> Command:
        text = fn(self.insert_text, "insert_text")
        return self if text == self.insert_text else self.model_copy(update={"insert_text": text})


class DeleteCommand(_Command):
    command: Literal["delete"]
    path: StrictStr


class RenameCommand(_Command):
    command: Literal["rename"]
    old_path: StrictStr
    new_path: StrictStr

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.old_path, self.new_path)

    def with_paths(self, paths: tuple[str, ...]) -> Command:
        return self.model_copy(update={"old_path": paths[0], "new_path": paths[1]})


class AdminCommand(_Command):
    """What an admin call brings for the layers to guard: the new path and the new text, if any.

    Never parsed from tool input (it is not in the union the parser knows). The call itself
    (which memory, which precondition) travels in ``Call.request`` to the admin endpoint.
    """

    command: Literal["write", "update", "remove", "restore"]
    path: StrictStr | None = None  # the path the call writes or renames to (canonical /memories form)
    file_text: StrictStr | None = None

    @property
    def paths(self) -> tuple[str, ...]:
        return () if self.path is None else (self.path,)

    @property
    def moves(self) -> bool:
        """An update or restore may rename a memory: every moved path is checked like a rename's."""
        return self.command in ("update", "restore") and self.path is not None

    @property
    def writes_content(self) -> bool:
        return self.file_text is not None

    def with_paths(self, paths: tuple[str, ...]) -> Command:
        return self.model_copy(update={"path": paths[0] if paths else None})

    def map_texts(self, fn: TextMap) -> Command:
        if self.file_text is None:
            return self
        text = fn(self.file_text, "file_text")
        return self if text == self.file_text else self.model_copy(update={"file_text": text})


Command = ViewCommand | CreateCommand | StrReplaceCommand | InsertCommand | DeleteCommand | RenameCommand | AdminCommand
ToolCommand = ViewCommand | CreateCommand | StrReplaceCommand | InsertCommand | DeleteCommand | RenameCommand

_ADAPTER: TypeAdapter[ToolCommand] = TypeAdapter(Annotated[ToolCommand, Field(discriminator="command")])
# The adapter's own schema validator, called without the adapter's wrapper (which passes every one
# of its options on each call: half the cost of parsing a view).
_VALIDATE = _ADAPTER.validator.validate_python


@dataclass(frozen=True, slots=True)
class FileView:
    """What a file view showed, for the layers above the dispatcher (typed, never parsed back)."""

    path: str
    entry: Entry
    first: int  # number of the first line shown
    last: int  # number of the last line shown (in full, unless ``line_cut``)
    end: int  # the last line the view was asked for (the file's last line without view_range)
    total: int  # lines in the file
    cut: bool = False  # the view stopped before ``last`` of the range asked for, to fit the limit
    line_cut: bool = False  # one line alone was longer than the limit and was cut inside
    line_from: int = 1  # the character the first line shown starts at (view_range [n, n, from])
    line_chars: int = 0  # with ``line_cut``: how many characters of that line the view shows


@dataclass(frozen=True, slots=True)
class ImageView:
    path: str
    entry: Entry


@dataclass(frozen=True, slots=True)
class ListingView:
    path: str
    cut: bool = False  # rows were left out to fit the limit
    first: int = 1  # number of the first entry shown (entries count from 1 below the directory's own row)
    last: int = 0  # number of the last entry shown (0: none)


View = FileView | ImageView | ListingView


@dataclass(frozen=True, slots=True)
class Result:
    """What one command returns: text (or content blocks for an image) and whether it failed."""

    content: str | list[dict[str, Any]]
    is_error: bool = False
    error: str | None = None  # the error's class name, for the audit record
    view: View | None = None

    @property
    def text(self) -> str:
        """The content as text (image blocks are summarised)."""
        if isinstance(self.content, str):
            return self.content
        return "[image]"


_FIELDS = {
    "view": "path, view_range",
    "create": "path, file_text",
    "str_replace": "path, old_str, new_str",
    "insert": "path, insert_line, insert_text",
    "delete": "path",
    "rename": "old_path, new_path",
}


def _describe(error: Mapping[str, Any], name: str) -> str:
    loc = error["loc"][1:]
    if error["type"] == "extra_forbidden" or not loc or loc[0] not in _FIELDS[name].split(", "):
        # A field name we do not know is the model's text: never echoed.
        return f"an unexpected field (the fields of `{name}` are: {_FIELDS[name]})"
    kind = error["type"]
    location = ".".join(str(part) for part in loc)
    if kind == "missing":
        return f"missing required field `{location}`"
    expected = error["msg"].replace("Input should be", "should be")
    return f"field `{location}` {expected}"


def parse_command(raw: object) -> ToolCommand:
    """Validate raw tool input into a Command, or raise InvalidInput with one clear sentence."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("Error: The tool input must be a JSON object with a `command` field.")
    name = raw.get("command")
    if not isinstance(name, str) or name not in COMMAND_NAMES:
        raise InvalidInput(
            f"Error: Unknown or missing command. The `command` field must be one of: {', '.join(COMMAND_NAMES)}."
        )
    try:
        # Validation reads the input, never changes it: a dict is validated as it is, another Mapping as one.
        return _VALIDATE(raw if type(raw) is dict else dict(raw))  # type: ignore[no-any-return]
    except ValidationError as exc:
        seen: list[str] = []
        for error in exc.errors(include_url=False, include_input=False, include_context=False):
            text = _describe(error, name)
            if text not in seen:
                seen.append(text)
        raise InvalidInput(f"Error: Invalid `{name}` command: {'; '.join(seen)}.") from None
