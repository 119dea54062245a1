"""Assertions the layer suites share: a command succeeds, fails, or is refused without a trace."""

from __future__ import annotations

from typing import Any

from securemem import SecureMemory
from tests.conftest import dump


def ok(mem: SecureMemory, **tool_input: Any) -> str:
    """The command succeeds; its text."""
    result = mem.execute(tool_input)
    assert not result.is_error, result.content
    return result.text


def err(mem: SecureMemory, **tool_input: Any) -> str:
    """The command fails with a clean message; its text."""
    result = mem.execute(tool_input)
    assert result.is_error, result.content
    assert "Traceback" not in result.text
    return result.text


def refused(mem: SecureMemory, message: str, **tool_input: Any) -> None:
    """The command fails with exactly ``message`` and leaves the namespace as it was."""
    before = dump(mem)
    result = mem.execute(tool_input)
    assert (result.is_error, result.text) == (True, message)
    assert dump(mem) == before
