"""Fixtures shared by every test module. Keep them generic: module-specific fixtures live in the
module, and plain helpers in helpers.py."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.store.base import Store
from tests.helpers import BACKENDS, Clock, EntryView, dump
from tests.pg import PG


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The PostgreSQL database the session made (tests/pg.py), dropped with every schema in it."""
    del session, exitstatus
    PG.drop()


@pytest.fixture(autouse=True)
def no_env_kek(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KEK in the developer's environment would change which key every CLI test uses."""
    monkeypatch.delenv("SECUREMEM_KEK", raising=False)


@pytest.fixture
def key() -> bytes:
    """A fresh raw 32-byte SQLCipher key (raw keys open in well under a millisecond)."""
    return os.urandom(32)


@pytest.fixture
def mem(tmp_path: Path, key: bytes) -> Iterator[SecureMemory]:
    """A fresh, empty store in tmp_path with the default policy."""
    with SecureMemory.open(tmp_path / "m.db", key=key) as memory:
        yield memory


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each Store backend in turn (see ``BACKENDS``), fresh and empty. A module that means one
    particular store defines its own ``store`` fixture, which takes precedence."""
    backend = BACKENDS[request.param](tmp_path)
    yield backend
    backend.close()


@pytest.fixture
def clock() -> Clock:
    """A clock at T0 that moves only when the test moves it."""
    return Clock()


@pytest.fixture
def snapshot() -> Callable[[SecureMemory], dict[str, EntryView]]:
    """``snapshot(memory)``: a comparable dump of a namespace (see ``dump``)."""
    return dump
