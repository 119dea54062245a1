"""The detectors' regular expressions, each compiled on its first use instead of at import.

The PII package holds over a thousand patterns; compiling them all took about 0.4 s of every process that
imports it (a CLI command under a policy that scrubs, each worker of a service), while a scan of ordinary
text uses a few dozen: the rest wait behind gates that most text never passes. ``lazy_compile`` returns an
object that stands for the compiled pattern: the first call of any of its methods (or a read of ``groups``,
``groupindex`` or ``flags``) compiles it with ``re.compile`` and binds that pattern's own methods on the
object, so every later call goes straight to them (no Python frame in between: the same cost as the
compiled pattern's). ``pattern`` is kept as given, for patterns built from others' sources at import.

What it matches is ``re.compile``'s, by construction; a pattern that does not compile fails on first use
instead of at import, so ``compile_all`` compiles every one (tests/test_pii_patterns.py runs it).
"""

from __future__ import annotations

import re
from typing import Any, cast, overload

# The methods a compiled pattern offers; bound on the object once compiled.
_BOUND = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")
_FIELDS = ("groups", "groupindex", "flags")


class _Lazy:
    """A pattern compiled on first use (see the module's docstring). Instances hold a ``__dict__``: the
    compiled pattern's bound methods are set there, where they shadow ``__getattr__`` for good."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[Any] | None = None
        _ALL.append(self)

    def compiled(self) -> re.Pattern[Any]:
        compiled = self._compiled
        if compiled is None:
            compiled = re.compile(self.pattern, self._flags)
            # (two threads that get here together each bind the same pattern's methods: either is right)
            for name in _BOUND + _FIELDS:
                setattr(self, name, getattr(compiled, name))
            self._compiled = compiled
        return compiled

    def __getattr__(self, name: str) -> Any:
        # Reached only for names not set yet: the methods and fields before the first use.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r})"


_ALL: list[_Lazy] = []


@overload
def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]: ...
@overload
def lazy_compile(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]: ...
def lazy_compile(pattern: str | bytes, flags: int = 0) -> re.Pattern[str] | re.Pattern[bytes]:
    """``re.compile(pattern, flags)``, made on first use."""
    return cast("re.Pattern[str] | re.Pattern[bytes]", _Lazy(pattern, flags))


def compile_all() -> int:
    """Compile every pattern made so far (a pattern that does not compile raises ``re.error`` here);
    returns how many there are."""
    for lazy in _ALL:
        lazy.compiled()
    return len(_ALL)
