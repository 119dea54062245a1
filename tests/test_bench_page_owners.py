"""bench/page_owners.py, the diagnostic that says which b-tree each page a command writes belongs to: its counts add
up, and a create's pages are where a create writes (its content row, its version row, its directory entries)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _page_owners() -> ModuleType:
    sys.path.insert(0, str(BENCH))  # its own imports (harness, throughput) are the bench's modules
    try:
        spec = importlib.util.spec_from_file_location("page_owners", BENCH / "page_owners.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_each_page_a_command_writes_has_one_owner_and_a_create_writes_its_rows(tmp_path: Path) -> None:
    owners = _page_owners()
    sample = 8
    results = owners.measure("default", 40, sample, str(tmp_path))
    assert set(results) == set(owners.PHASES)
    for phase, (per_command, counts) in results.items():
        assert sum(counts.values()) == pytest.approx(per_command * sample), phase  # every page counted once
        assert per_command >= 1, phase  # every command of the workload commits
    _, created = results["create"]
    for row in ("content leaf", "versions leaf", "entries leaf"):
        assert created[row] >= sample, row  # each create writes its content, its version and its entry
