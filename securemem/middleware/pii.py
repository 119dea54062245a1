"""PIIScrub: personal data and secrets are scrubbed, or the write refused, before anything is stored.

Everything the model sends is scanned on the way down, before the store's lock is taken: a type
the policy refuses stops the command there. ``file_text`` is scrubbed per entity type (redact,
mask, keyed hash or refuse) at once; ``old_str`` too, so that it still matches stored
placeholders and tokens and never echoes a value back in an error. The text of an edit
(``new_str``, ``insert_text``) is stored as the whole file: once the edit is applied, under the
lock, the whole file is scrubbed, so a value the model completes across the edit boundary is
replaced whole, with the token of the full value. The edit's snippet is cut from that final
text, so nothing is scrubbed twice. A path that carries PII is refused for every command, since
paths appear in listings and messages; a rename checks every path it creates. Messages name
entity types and counts, never values.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from itertools import pairwise

from securemem.changes import Change, FileWrite, Move
from securemem.commands import AdminCommand, InsertCommand, RenameCommand, Result, StrReplaceCommand, TextField
from securemem.errors import PIIRefused
from securemem.middleware.base import Call, Handler
from securemem.policy import Policy
from securemem.store.base import StoreTx

_EDIT_TEXT = frozenset({"new_str", "insert_text"})
_SHARED_PLACEHOLDERS = frozenset({"redact", "mask"})  # actions whose placeholder is not the value's own
_DONE = {
    "redact": "redacted to a [TYPE] placeholder",
    "mask": "masked to its last 4 characters",
    "hash": "replaced by a stable token (the same value always gives the same token)",
}


class PIIScrub:
    def __init__(self, policy: Policy, token_key: bytes) -> None:
        from securemem.pii.scrub import Scrubber  # the scanner loads with the first layer that scans

        self.policy = policy
        self.settings = policy.pii
        self.scrubber = Scrubber(self.settings.actions, hash_key=token_key, phone_regions=self.settings.phone_regions)

    def __call__(self, call: Call, call_next: Handler) -> Result:
        command = call.command
        call.audit.paths = None  # not loggable until checked: a path may carry the very data kept out
        if self.settings.refuse_paths:
            paths = command.paths
            for path in paths:
                self._check_path(path)
            if isinstance(command, RenameCommand) or (isinstance(command, AdminCommand) and command.moves):
                call.checks.append(lambda change, tx: self._check_moved(change, tx, call))
            call.audit.paths = paths
        else:  # paths may hold PII under this policy: the audit trail gets them scrubbed
            call.audit.paths = tuple(self.scrubber.scrub(path).text for path in command.paths)
        if not command.writes_content:
            return call_next(call)  # no text of the model's is stored: nothing to scrub, nothing to tell
        counts: Counter[str] = Counter()
        searched: Counter[str] = Counter()  # the types old_str held, matched as the stored text holds them
        call.with_command(command.map_texts(lambda text, field: self._scrub(text, field, counts, searched)))
        if isinstance(command, StrReplaceCommand | InsertCommand):
            call.checks.append(lambda change, tx: self._safety_net(change, counts))
        result = call_next(call)
        if not result.is_error:
            if counts:
                call.notes.append(self._summary(counts))
                call.audit.scrubbed.update(counts)
            shared = sorted(kind for kind in searched if self.scrubber.action_for(kind) in _SHARED_PLACEHOLDERS)
            if shared:
                call.notes.append(
                    # A placeholder stands for every value of its type: "SSN 219-45-1234" matches "SSN [US_SSN]"
                    # whatever SSN was written (an attacker's round), so the match says nothing of the value.
                    f"Note: old_str's {', '.join(shared)} matched the stored placeholder, which stands for any such "
                    "value: the value stored was not compared with the one sent."
                )
        return result

    def _scrub(self, text: str, field: TextField, counts: Counter[str], searched: Counter[str]) -> str:
        outcome = self.scrubber.scrub(text)
        self.refuse_if(outcome.refused, f"`{field}`", outcome.unfinished)
        if field in _EDIT_TEXT:
            return text  # scrubbed with the whole file once the edit is applied (the safety net)
        # A search string is scrubbed to match the tokens, not stored
        (searched if field == "old_str" else counts).update(outcome.counts)
        return outcome.text

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
        # Scan the names as one text ("/" read as a space), so that a value split across directory
        # levels ("+1 415 555/2671.md") is seen whole, and each name as a line of its own, so that a
        # value between two slashes is not taken for part of a longer number.
        # Both readings go through one scan, a blank line apart: a scan's fixed cost is most of what a
        # short text costs. Every path starts with the root's name, so what follows the blank line
        # starts with no value; a label's context may reach across it, which can only find more.
        text = path.replace("/", "\n") + "\n\n" + path.replace("/", " ")
        if _DIGITS_SLASHED.search(path):
            # Numbers split across directory levels read as dashed too, and as one ("/memories/536/22/8726.md"
            # is an SSN, "/memories/5555-5555/5555-4444.md" and "/memories/55555555/55554444.md" a card: an
            # attacker's round).
            # (joined only where the parts are a card's groups, four or eight digits each, sixteen in all:
            # "/memories/sensors/2742/20150727/139998.md" is a sensor's readings, an attacker's round)
            joined = _CARD_SLASHED.sub(_joined_card, path)
            text += "\n\n" + _DIGITS_SLASHED.sub(_dash_unless_dated, path).replace("/", " ")
            if joined != path:
                text += "\n\n" + joined.replace("/", " ")
            if _DOTTED_DIGITS.search(path):
                # ... and dotted where the names dot their digits ("/memories/4111.1111/1111.1111.md",
                # "/memories/536.22/8726.md": an attacker's round)
                text += "\n\n" + _DIGITS_SLASHED.sub(".", path).replace("/", " ")
        if "@" in path:
            text += "".join(f"\n\n{joined}" for joined in _cut_addresses(path))
        return self.scrubber.contains(text)

    def _check_moved(self, change: Change, tx: StoreTx, call: Call) -> Change:
        """A rename of a directory creates a new path for everything below it: none may carry PII."""
        if isinstance(change, Move) and change.entry.is_dir:
            for _, landing in change.moved(tx)[1:]:
                if self._path_findings(landing):
                    from securemem.audit import REFUSED  # not at the top: the audit module imports the layers

                    # The destination holds most of the value ("/memories/dana.reyes@example" with "com/..."
                    # below it): the audit record names it as refused (an attacker's round).
                    paths = call.audit.paths or ()
                    call.audit.paths = tuple(REFUSED if path == change.new else path for path in paths)
                    raise PIIRefused(
                        # No path is quoted: joined, the names are the very value kept out.
                        "Error: This rename would make a path below its destination carry personal data or "
                        f"secrets (policy '{self.policy.name}'). Choose another destination name."
                    )
        return change

    def _safety_net(self, change: Change, counts: Counter[str]) -> Change:
        """The whole text of an edit, scanned again: a value may span the old text and the new."""
        if not isinstance(change, FileWrite):
            return change
        outcome = self.scrubber.scrub(change.text)
        self.refuse_if(outcome.refused, "the edited file", outcome.unfinished)
        if not outcome.counts:
            return change
        counts.update(outcome.counts)
        return change.replaced(outcome.text)

    def refuse_if(self, refused: tuple[str, ...], where: str, unfinished: tuple[str, ...] = ()) -> None:
        if unfinished:
            raise PIIRefused(
                f"Error: Nothing was written: {where} holds more values of {', '.join(unfinished)} run "
                "together than one write can scrub. Put each value on a line of its own, or write them "
                "in smaller pieces, and retry."
            )
        if refused:
            raise PIIRefused(
                f"Error: Nothing was written: {where} contains {', '.join(refused)}, which the memory "
                f"policy '{self.policy.name}' does not allow to be stored. Remove it, or refer to it "
                "without the value, and retry."
            )

    def _summary(self, counts: Counter[str]) -> str:
        parts = []
        for entity, count in sorted(counts.items()):
            action = self.scrubber.action_for(entity) or "redact"  # a type may be acted on by its family
            parts.append(f"{count} {entity} {_DONE.get(action, 'scrubbed')}")
        return (
            f"Note: before storing, the memory policy scrubbed {'; '.join(parts)}. The stored text holds "
            "the placeholders, not the values; this is expected, so do not retry with the original values."
        )


_DIGITS_SLASHED = re.compile(r"(?<=[0-9])/(?=[0-9])")
_DOTTED_DIGITS = re.compile(r"[0-9]\.[0-9]")


def _dash_unless_dated(match: re.Match[str]) -> str:
    """A "/" between digits read as "-", but before a year ("/memories/logs/305/12/2023.md": a date's path)."""
    return "/" if _YEAR_AHEAD.match(match.string, match.end()) else "-"


_YEAR_AHEAD = re.compile(r"(?:19|20)[0-9]{2}(?![0-9])")
_CARD_SLASHED = re.compile(r"(?<![0-9])[0-9]{4,8}(?:/[0-9]{4,8}){1,3}(?![0-9])")


def _joined_card(match: re.Match[str]) -> str:
    parts = match.group().split("/")
    card = sum(map(len, parts)) == 16 and all(len(part) in (4, 8) for part in parts)
    return "".join(parts) if card else match.group()


# Top-level domains an address cut at its dot most often ends in: the name after an "@" name is read
# joined to it by "." when it starts with one ("/memories/jane.doe@example/com.md": an attacker's round),
# not when it is a word ("team@offsite/notes.md" stays a team's folder).
_COMMON_TLDS = frozenset(
    ("com", "org", "net", "edu", "gov", "mil", "int", "io", "co", "me", "info", "biz", "uk", "us", "ca", "au", "de",
     "fr", "in", "jp", "cn", "br", "es", "it", "nl", "ch", "se", "no", "dk", "fi", "pl", "ru", "be", "at", "ie",
     "nz", "sg", "hk", "kr", "mx", "ar", "za", "pt", "gr", "cz", "tr", "il", "ae", "sa", "eu", "ai", "dev", "app")
)  # fmt: skip


def _cut_addresses(path: str) -> list[str]:
    """Each name holding "@" joined by "." to the name after it, where that one starts with a domain's end."""
    names = path.split("/")
    return [
        f"{name}.{after}"
        for name, after in pairwise(names)
        if "@" in name and after.split(".", 1)[0].lower() in _COMMON_TLDS
    ]
