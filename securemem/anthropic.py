"""SecureMemoryTool: the drop-in for the SDK's tool runner. The only module that imports anthropic.

The SDK builds its command models with ``construct_type_unchecked`` (no validation: missing
fields arrive as None, wrong types pass through) and sends ``repr(exc)`` for any exception other
than ToolError. So ``call`` hands the raw input to ``SecureMemory.execute``, which validates it,
and every failure is raised as ``ToolError(message)``: the model sees ``is_error`` with our text,
never a Python repr.
"""

from __future__ import annotations

from typing import Any, cast

import anyio.to_thread
from anthropic.lib.tools import ToolError
from anthropic.lib.tools._beta_functions import BetaFunctionToolResultType
from anthropic.tools.memory import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool
from anthropic.types.beta import (
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)
from typing_extensions import override

from securemem.commands import Result
from securemem.memory import SecureMemory

__all__ = ["AsyncSecureMemoryTool", "SecureMemoryTool"]

_AnyCommand = (
    BetaMemoryTool20250818ViewCommand
    | BetaMemoryTool20250818CreateCommand
    | BetaMemoryTool20250818StrReplaceCommand
    | BetaMemoryTool20250818InsertCommand
    | BetaMemoryTool20250818DeleteCommand
    | BetaMemoryTool20250818RenameCommand
)


def _raw(command: _AnyCommand) -> dict[str, Any]:
    """The tool input a (possibly unvalidated) SDK command model was built from."""
    return cast(dict[str, Any], command.to_dict(mode="json", exclude_unset=True))


def _deliver(result: Result) -> BetaFunctionToolResultType:
    if result.is_error:
        raise ToolError(result.text)
    return cast(BetaFunctionToolResultType, result.content)


class SecureMemoryTool(BetaAbstractMemoryTool):
    """``client.beta.messages.tool_runner(tools=[SecureMemoryTool(memory)], ...)``."""

    def __init__(self, memory: SecureMemory, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.memory = memory

    @override
    def call(self, input: object) -> BetaFunctionToolResultType:
        return _deliver(self.memory.execute(cast(Any, input)))

    def _run(self, command: _AnyCommand) -> BetaFunctionToolResultType:
        return _deliver(self.memory.execute(_raw(command)))

    @override
    def view(self, command: BetaMemoryTool20250818ViewCommand) -> BetaFunctionToolResultType:
        return self._run(command)

    @override
    def create(self, command: BetaMemoryTool20250818CreateCommand) -> BetaFunctionToolResultType:
        return self._run(command)

    @override
    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> BetaFunctionToolResultType:
        return self._run(command)

    @override
    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> BetaFunctionToolResultType:
        return self._run(command)

    @override
    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> BetaFunctionToolResultType:
        return self._run(command)

    @override
    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> BetaFunctionToolResultType:
        return self._run(command)

    @override
    def clear_all_memory(self) -> BetaFunctionToolResultType:
        """Every memory this session may delete, deleted as the model's deletes are (see ``SecureMemory.clear_all``)."""
        return _deliver(self.memory.clear_all())


class AsyncSecureMemoryTool(BetaAsyncAbstractMemoryTool):
    """The same for ``AsyncAnthropic``: commands run in a worker thread, off the event loop."""

    def __init__(self, memory: SecureMemory, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.memory = memory

    async def _execute(self, raw: Any) -> BetaFunctionToolResultType:
        return _deliver(await anyio.to_thread.run_sync(self.memory.execute, raw))

    @override
    async def call(self, input: object) -> BetaFunctionToolResultType:
        return await self._execute(input)

    @override
    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> BetaFunctionToolResultType:
        return await self._execute(_raw(command))

    @override
    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> BetaFunctionToolResultType:
        return await self._execute(_raw(command))

    @override
    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> BetaFunctionToolResultType:
        return await self._execute(_raw(command))

    @override
    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> BetaFunctionToolResultType:
        return await self._execute(_raw(command))

    @override
    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> BetaFunctionToolResultType:
        return await self._execute(_raw(command))

    @override
    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> BetaFunctionToolResultType:
        return await self._execute(_raw(command))

    @override
    async def clear_all_memory(self) -> BetaFunctionToolResultType:
        return _deliver(await anyio.to_thread.run_sync(self.memory.clear_all))
