"""The public API is what the README documents: ``securemem.__all__`` and the README's table agree."""

from __future__ import annotations

import re
from pathlib import Path

import securemem

README = Path(__file__).parents[1] / "README.md"


def documented_names() -> set[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("### The Python API", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Za-z_]+)`", row.split("|")[1])}


def test_all_is_sorted_and_importable() -> None:
    assert list(securemem.__all__) == sorted(securemem.__all__)
    for name in securemem.__all__:
        assert getattr(securemem, name) is not None


def test_the_readme_documents_exactly_the_public_api() -> None:
    assert documented_names() == set(securemem.__all__)
