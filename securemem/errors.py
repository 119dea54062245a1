"""The exception tree of securemem.

::

    SecureMemError                 base of everything securemem raises on purpose
      PolicyError                  a policy file or object is invalid
      KeyFileError                 a key file is missing, malformed or readable by others
        KekError                   a KEK provider failed (missing, unreachable HSM, helper exit)
      RefusedError                 a key operation refused (it would leave the store unopenable)
      StorageError                 the backend failed; translated at the store boundary
        WrongKeyError              the key does not open this store (or its first page is damaged)
          WrongKekError            the KEK is not one of those that wrap the store's data key
        KeyHeaderError             the key header (DB.keys) is missing, damaged or another store's
        NotAStoreError             the file is not a securemem store (plain SQLite, empty, foreign)
        DamagedStoreError          the store opened but a page or the schema is corrupt
        StoreBusyError             another writer held the lock longer than the retry bound
        RekeyedError               another process re-keyed the store: reopen it with the new key
        StoreFullError             the disk or the page limit is exhausted
      CommandError                 its text is safe to show the model: becomes is_error=true
        InvalidInput               the tool input does not match any command
        InvalidPath                a path was refused by the path guard
        NotFound, AlreadyExists, NoMatch, AmbiguousMatch, InvalidRange,
        QuotaExceeded, ReadOnly, PIIRefused
      ApiError                     an admin call failed; ``code`` and ``status`` as in the stores contract
        NotFound                   (also a CommandError) an unknown store, memory or version id
        PreconditionFailed         a ``not_exists`` or ``content_sha256`` precondition does not hold
        Conflict                   a name or path is taken, or a version cannot be restored
        PolicyViolation            the store's policy refuses the write (PII, secret, quota)
        InvalidRequest             a bad argument: limit, path, precondition, id format

Only ``CommandError`` text ever reaches the model. Messages never carry key material and,
for refused PII, never the value.
"""

from __future__ import annotations


class SecureMemError(Exception):
    """Base class of every error securemem raises on purpose."""


class PolicyError(SecureMemError):
    """A policy file or object is invalid."""


class KeyFileError(SecureMemError):
    """A key file is missing, malformed, or readable by other users."""


class KekError(KeyFileError):
    """A key-encryption key could not be had: missing, malformed, unreachable, or its helper failed."""


class RefusedError(SecureMemError):
    """A key operation was refused: it would leave the store without a way to open it."""


class StorageError(SecureMemError):
    """The storage backend failed."""


class WrongKeyError(StorageError):
    """The key does not open this store."""


class WrongKekError(WrongKeyError):
    """The KEK given is not one of the KEKs that wrap this store's data key."""


class KeyHeaderError(StorageError):
    """The key header beside an envelope store is missing, damaged, or belongs to another store."""


class NotAStoreError(StorageError):
    """The file is not a securemem store."""


class DamagedStoreError(StorageError):
    """The store opened, but its content is corrupt."""


class StoreBusyError(StorageError):
    """Another writer kept the store locked for longer than the retry bound."""


class RekeyedError(StorageError):
    """The store was re-keyed by another handle; this one must be reopened with the new key."""


class PolicyChangedError(StorageError):
    """An operator set another policy for the store after this handle opened it: reopen it."""


class OutcomeUnknownError(StorageError):
    """The connection broke while a change committed: it may or may not have been kept."""


class StoreFullError(StorageError):
    """The disk, or the store's page limit, is full."""


class CommandError(SecureMemError):
    """A command failed; the message is meant for the model and safe to show it."""


class ApiError(SecureMemError):
    """An admin call failed. ``code`` and ``status`` are the stores contract's; the message is safe."""

    code = "api_error"
    status = 500


class PreconditionFailed(ApiError):
    """A ``not_exists`` or ``content_sha256`` precondition does not hold (a lost race, or a stale read)."""

    code = "memory_precondition_failed"
    status = 409


class Conflict(ApiError):
    """A store name or a path is taken, or a version cannot be restored."""

    code = "conflict"
    status = 409


class PolicyViolation(ApiError):
    """The store's policy refuses the write; the message is the one the model would get."""

    code = "policy_violation"
    status = 422


class InvalidRequest(ApiError):
    """A bad argument: a limit out of range, a path the path guard refuses, an unknown precondition."""

    code = "invalid_request"
    status = 400


class InvalidInput(CommandError):
    """The tool input is not a valid memory command."""


class InvalidPath(CommandError):
    """The path guard refused a path."""


class NotFound(CommandError, ApiError):
    """The path does not exist (a command), or no store, memory or version has that id (an admin call)."""

    code = "not_found"
    status = 404


class AlreadyExists(CommandError):
    """The destination exists already."""


class NoMatch(CommandError):
    """str_replace: old_str does not occur."""


class AmbiguousMatch(CommandError):
    """str_replace: old_str occurs more than once."""


class InvalidRange(CommandError):
    """A view_range or insert_line is outside the file."""


class QuotaExceeded(CommandError):
    """The write would cross a size limit."""


class ReadOnly(CommandError):
    """A policy rule makes the path read-only."""


class PIIRefused(CommandError):
    """The write carries PII that the policy refuses."""
