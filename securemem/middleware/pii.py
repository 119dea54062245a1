"""PIIScrub: personal data and secrets are scrubbed, or the write refused, before anything is stored.

What the model sends (``file_text``, ``new_str``, ``insert_text``) is scrubbed per entity type
(redact, mask, keyed hash or refuse); ``old_str`` is scrubbed the same way so that it still
matches stored placeholders and tokens and never echoes a value back in an error. A path that
carries PII is refused for every command, since paths appear in listings and messages. As a
safety net the final bytes of an edit are scanned again, which catches a value the model
assembled across an edit boundary. Messages name entity types and counts, never values.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Mapping

from securemem.commands import Command, Result
from securemem.errors import PIIRefused
from securemem.middleware.base import Call, Handler
from securemem.middleware.txproxy import TxProxy
from securemem.pii import Scrubber
from securemem.policy import Policy
from securemem.store.base import StoreTx
from securemem.text import count_lines

_FIELDS: Mapping[str, tuple[str, ...]] = {
    "create": ("file_text",),
    "str_replace": ("old_str", "new_str"),
    "insert": ("insert_text",),
}
_EDIT_TEXT = frozenset({"new_str", "insert_text"})
_DONE = {
    "redact": "redacted to a [TYPE] placeholder",
    "mask": "masked to its last 4 characters",
    "hash": "replaced by a stable token (the same value always gives the same token)",
}


class PIIScrub:
    def __init__(self, policy: Policy, token_key: bytes) -> None:
        self.policy = policy
        self.settings = policy.pii
        self.scrubber = Scrubber(self.settings.actions, hash_key=token_key, phone_regions=self.settings.phone_regions)

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        if self.settings.refuse_paths:
            for path in command.paths:
                self._check_path(path)
        counts: Counter[str] = Counter()
        scrubbed = self._scrub_fields(command, counts)
        call = call.with_command(scrubbed) if scrubbed is not command else call
        net = ScrubTx(call.tx, self, counts) if command.command in ("str_replace", "insert") else None
        result = call_next(call if net is None else dataclasses.replace(call, tx=net))
        if net is not None and net.caught and isinstance(result.content, str):
            # The edit's snippet was cut from the text before the safety net scrubbed it: it would
            # show the model, and any log of results, the value that was kept out of the store.
            result = dataclasses.replace(result, content=self.scrubber.scrub(result.content).text)
        if counts and not result.is_error:
            call.notes.append(self._summary(counts))
            call.facts["scrubbed"] = dict(counts)
        return result

    def _check_path(self, path: str) -> None:
        found = self._path_findings(path)
        if found:
            raise PIIRefused(
                f"Error: The path contains {', '.join(found)}; paths must not carry personal data or "
                f"secrets (policy '{self.policy.name}'). Use a neutral name, such as "
                "/memories/customers/customer-42.md, and keep details inside the file."
            )

    @functools.lru_cache(maxsize=8192)  # noqa: B019 - one layer per SecureMemory, living as long as it
    def _path_findings(self, path: str) -> tuple[str, ...]:
        # The detectors read "/" as a separator inside a number (2024/05/01), so a phone number
        # between two slashes is not seen in the path as written: scan each name as a line too.
        return tuple(sorted({*self.scrubber.contains(path), *self.scrubber.contains(path.replace("/", "\n"))}))

    def _scrub_fields(self, command: Command, counts: Counter[str]) -> Command:
        updates: dict[str, str] = {}
        for field in _FIELDS.get(command.command, ()):
            value = getattr(command, field)
            if value is None:
                continue
            outcome = self.scrubber.scrub(value)
            self.refuse_if(outcome.refused, f"`{field}`")
            if field in _EDIT_TEXT:
                # Stored as sent and scrubbed with the whole file after the edit (ScrubTx): a value that
                # spans old and new text is then replaced whole, with the full value's token.
                continue
            if outcome.text != value:
                updates[field] = outcome.text
            if field != "old_str":
                counts.update(outcome.counts)
        return command.model_copy(update=updates) if updates else command

    def refuse_if(self, refused: tuple[str, ...], where: str) -> None:
        if refused:
            raise PIIRefused(
                f"Error: Nothing was written: {where} contains {', '.join(refused)}, which the memory "
                f"policy '{self.policy.name}' does not allow to be stored. Remove it, or refer to it "
                "without the value, and retry."
            )

    def _summary(self, counts: Counter[str]) -> str:
        parts = []
        for entity, count in sorted(counts.items()):
            action = self.scrubber.action_for(entity) or "redact"
            parts.append(f"{count} {entity} {_DONE.get(action, 'scrubbed')}")
        return (
            f"Note: before storing, the memory policy scrubbed {'; '.join(parts)}. The stored text holds "
            "the placeholders, not the values; this is expected, so do not retry with the original values."
        )


class ScrubTx(TxProxy):
    """The safety net: scan the final text of an edit, not only the fields that changed it."""

    def __init__(self, inner: StoreTx, layer: PIIScrub, counts: Counter[str]) -> None:
        super().__init__(inner)
        self.layer = layer
        self.counts = counts
        self.caught = False  # the final text held a value that the fields alone did not show

    def write_file(self, path: str, data: bytes, lines: int, expires: float | None) -> None:
        outcome = self.layer.scrubber.scrub(data.decode("utf-8"))
        self.layer.refuse_if(outcome.refused, "the edited file")
        if outcome.counts:
            self.caught = True
            self.counts.update(outcome.counts)
            data = outcome.text.encode("utf-8")
            lines = count_lines(outcome.text)
        super().write_file(path, data, lines, expires)
