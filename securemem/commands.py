"""The six memory commands as pydantic models, the parser for raw tool input, and Result.

Tool input is untrusted model output. Each command is a strict model (unknown fields refused,
no type coercion beyond what JSON allows), joined in a discriminated union on ``command`` so
that a bad input gets one message naming the field, never a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from securemem.errors import InvalidInput

COMMAND_NAMES = ("view", "create", "str_replace", "insert", "delete", "rename")


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    @property
    def paths(self) -> tuple[str, ...]:
        """Every path the command names (the path guard checks each one)."""
        return (getattr(self, "path"),)  # noqa: B009 - each subclass defines path or overrides

    @property
    def mutates(self) -> bool:
        return True


class ViewCommand(_Command):
    command: Literal["view"]
    path: StrictStr
    # A list, not a tuple: JSON has no tuples, and a wrong length gets a message naming the
    # valid range from the dispatcher, which knows the file.
    view_range: list[StrictInt] | None = None

    @property
    def mutates(self) -> bool:
        return False


class CreateCommand(_Command):
    command: Literal["create"]
    path: StrictStr
    file_text: StrictStr


class StrReplaceCommand(_Command):
    command: Literal["str_replace"]
    path: StrictStr
    old_str: StrictStr
    new_str: StrictStr | None = None


class InsertCommand(_Command):
    command: Literal["insert"]
    path: StrictStr
    insert_line: StrictInt
    insert_text: StrictStr


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


Command = ViewCommand | CreateCommand | StrReplaceCommand | InsertCommand | DeleteCommand | RenameCommand

_ADAPTER: TypeAdapter[Command] = TypeAdapter(Annotated[Command, Field(discriminator="command")])


@dataclass(frozen=True)
class Result:
    """What one command returns: text (or content blocks for an image) and whether it failed."""

    content: str | list[dict[str, Any]]
    is_error: bool = False
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The content as text (image blocks are summarised)."""
        if isinstance(self.content, str):
            return self.content
        return "[image]"


def _describe(error: Mapping[str, Any]) -> str:
    location = ".".join(str(part) for part in error["loc"][1:]) or "input"
    kind = error["type"]
    if kind == "missing":
        return f"missing required field `{location}`"
    if kind == "extra_forbidden":
        return f"unexpected field `{location}`"
    expected = error["msg"].replace("Input should be", "should be")
    return f"field `{location}` {expected}"


def parse_command(raw: object) -> Command:
    """Validate raw tool input into a Command, or raise InvalidInput with one clear sentence."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("Error: The tool input must be a JSON object with a `command` field.")
    name = raw.get("command")
    if name not in COMMAND_NAMES:
        shown = name if isinstance(name, str) and len(name) <= 40 else "(missing or not a string)"
        raise InvalidInput(f"Error: Unknown command `{shown}`. Valid commands: {', '.join(COMMAND_NAMES)}.")
    try:
        return _ADAPTER.validate_python(dict(raw))
    except ValidationError as exc:
        problems = "; ".join(_describe(e) for e in exc.errors(include_url=False, include_input=False))
        raise InvalidInput(f"Error: Invalid `{name}` command: {problems}.") from None
