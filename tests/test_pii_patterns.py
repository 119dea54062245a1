"""The detectors' patterns compiled on first use (securemem/pii/patterns.py): the same patterns, later."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import securemem.pii.detectors  # noqa: F401  (every module of the package, with its patterns)
from securemem.pii import patterns
from securemem.pii.patterns import compile_all, lazy_compile


def test_every_pattern_of_the_package_compiles() -> None:
    """A pattern that does not compile would fail only where a text first reaches it: all are compiled here."""
    assert compile_all() >= 1000


def test_a_lazy_pattern_answers_as_the_compiled_one_before_and_after_its_first_use() -> None:
    source = r"(?P<user>[a-z]+)@(?P<host>[a-z]+)\.org"
    text = "mail ann@example.org, bob@test.org or eve@"
    eager = re.compile(source, re.I)
    for _ in range(2):  # the first round compiles it, the second runs on the bound methods
        lazy = lazy_compile(source, re.I)
        assert lazy.pattern == source
        assert (lazy.groups, dict(lazy.groupindex), lazy.flags) == (eager.groups, dict(eager.groupindex), eager.flags)
        found = lazy.search(text)
        assert found is not None and found.span() == eager.search(text).span()  # type: ignore[union-attr]
        assert lazy.match(text) is None and eager.match(text) is None
        assert lazy.fullmatch("ann@example.org") is not None
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
        assert lazy.findall(text) == eager.findall(text)
        assert lazy.sub("<m>", text) == eager.sub("<m>", text)
        assert lazy.subn("<m>", text) == eager.subn("<m>", text)
        assert lazy.split(text) == eager.split(text)
        # once used, its methods are the compiled pattern's own (no frame of ours between)
        assert type(lazy.search) is type(eager.search)
        assert getattr(lazy.search, "__self__", None) is eager


def test_a_bytes_pattern_is_lazy_too() -> None:
    lazy = lazy_compile(rb"0(?:-0){3}")
    assert lazy.pattern == rb"0(?:-0){3}"
    assert [m.span() for m in lazy.finditer(b"x0-0-0-0x0-0")] == [(1, 8)]


def test_a_pattern_that_does_not_compile_fails_at_its_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patterns, "_ALL", [])
    broken = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        broken.search("text")
    with pytest.raises(re.error):
        compile_all()


def test_importing_the_detectors_compiles_few_of_their_patterns() -> None:
    """The point of it: a process that imports the scanner (a CLI command under a scrubbing policy) compiles what
    its texts reach, not the thousand patterns behind gates that ordinary text never passes."""
    code = (
        "import securemem.pii.detectors as d, securemem.pii.patterns as p\n"
        "d.detect('Status: open. The team reviewed the roadmap and the runbook.')\n"
        "print(len(p._ALL), sum(1 for lazy in p._ALL if lazy._compiled is not None))\n"
    )
    made, compiled = map(
        int, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    )
    assert made >= 1000
    assert compiled < made // 4
