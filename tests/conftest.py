"""Fixtures shared by every test module. Keep them generic: module-specific fixtures live in the
module, and plain helpers in helpers.py."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from securemem import SecureMemory
from securemem.keys.pkcs11 import MODULE_ENV, PIN_ENV
from securemem.store.base import Store
from tests.helpers import BACKENDS, Clock, EntryView, dump, require
from tests.hsm import LABEL, PIN, SO_PIN, TOKEN, softhsm_module
from tests.pg import PG, drop_databases


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run first, each group in its usual order. With several workers
    (pytest-xdist, ``--dist worksteal`` in pyproject.toml), a long test that starts last keeps one
    worker busy while the others have nothing left to take; started first, the long tests overlap
    and the short ones fill the gaps. The order is the same in every worker, as xdist requires."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# The PostgreSQL databases of this session's pytest-xdist workers (tests/pg.py), as each worker
# reported it when it finished: the controller drops them all at once at the end (drop_databases).
WORKER_DATABASES: list[str] = []
DATABASE_KEY = "securemem_pg_database"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The PostgreSQL database the session made (tests/pg.py), dropped with every schema in it.

    An xdist worker leaves its database to the controller, which drops every worker's together
    once all are done (see drop_databases)."""
    del exitstatus
    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # an xdist worker: the controller drops it
        if PG.database is not None:
            output[DATABASE_KEY] = PG.database
        return
    PG.drop()
    if WORKER_DATABASES:
        drop_databases(PG.server, WORKER_DATABASES)
        WORKER_DATABASES.clear()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """(pytest-xdist, in the controller) A worker is done: note the database it leaves to drop."""
    del error
    name = getattr(node, "workeroutput", {}).get(DATABASE_KEY)
    if name:
        WORKER_DATABASES.append(name)


@pytest.fixture(autouse=True)
def no_env_kek(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KEK or key in the developer's environment would change which key every CLI test uses."""
    monkeypatch.delenv("SECUREMEM_KEK", raising=False)
    monkeypatch.delenv("SECUREMEM_KEY", raising=False)


@pytest.fixture
def key() -> bytes:
    """A fresh raw 32-byte SQLCipher key (raw keys open in well under a millisecond)."""
    return os.urandom(32)


@pytest.fixture
def url() -> str:
    """A fresh, migrated schema of the session's PostgreSQL database (tests/pg.py): a store's URL."""
    from tests.pg import PG

    return PG.fresh_url()


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


@pytest.fixture(scope="session")
def token(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A SoftHSM2 token with one AES-256 key labelled "kek"; the module path."""
    module = softhsm_module()
    require(module is not None and shutil.which("softhsm2-util") is not None, "softhsm2 (Debian package softhsm2)")
    assert module is not None
    root = tmp_path_factory.mktemp("softhsm")
    (root / "tokens").mkdir()
    conf = root / "softhsm2.conf"
    conf.write_text(f"directories.tokendir = {root / 'tokens'}\nobjectstore.backend = file\nlog.level = ERROR\n")
    env = {**os.environ, "SOFTHSM2_CONF": str(conf)}
    init = ["softhsm2-util", "--init-token", "--free", "--label", TOKEN, "--so-pin", SO_PIN, "--pin", PIN]
    subprocess.run(init, env=env, check=True, capture_output=True)
    os.environ["SOFTHSM2_CONF"] = str(conf)  # read when the module is first loaded, below
    import pkcs11
    from pkcs11 import Attribute, KeyType

    lib = pkcs11.lib(module)
    with lib.get_token(token_label=TOKEN).open(user_pin=PIN, rw=True) as session:
        template = {Attribute.SENSITIVE: True, Attribute.EXTRACTABLE: False}
        session.generate_key(KeyType.AES, 256, label=LABEL, store=True, template=template)
        session.generate_key(KeyType.AES, 256, label="other", store=True, template=template)
    yield module
    os.environ.pop("SOFTHSM2_CONF", None)


@pytest.fixture
def hsm(token: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(MODULE_ENV, token)
    monkeypatch.setenv(PIN_ENV, PIN)
    return token
