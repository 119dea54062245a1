"""The actors securemem records for its own work (securemem/actors.py) cannot be taken by a caller."""

from __future__ import annotations

from pathlib import Path

import pytest

from securemem import Admin, InvalidRequest, SecureMemory
from securemem.actors import RESERVED_PREFIX
from securemem.store.history import EXPIRY_ACTOR, MIGRATION_ACTOR

KEY = b"k" * 32


def test_securemems_own_actors_start_with_the_reserved_prefix() -> None:
    assert EXPIRY_ACTOR.startswith(RESERVED_PREFIX) and MIGRATION_ACTOR.startswith(RESERVED_PREFIX)


@pytest.mark.parametrize("actor", [EXPIRY_ACTOR, MIGRATION_ACTOR, "securemem:later"])
def test_an_admin_handle_cannot_take_them_and_opens_no_file(tmp_path: Path, actor: str) -> None:
    db = tmp_path / "a.db"
    with pytest.raises(InvalidRequest, match="api_key_id may not start with 'securemem:'"):
        Admin.open(db, key=KEY, api_key_id=actor)
    assert list(tmp_path.iterdir()) == []  # refused before the file was made
    with SecureMemory.open(db, key=KEY) as memory, pytest.raises(InvalidRequest):
        Admin(memory, api_key_id=actor)


def test_a_session_cannot_take_them(tmp_path: Path) -> None:
    with pytest.raises(InvalidRequest, match="session_id may not start with"):
        SecureMemory.open(tmp_path / "s.db", key=KEY, session_id=EXPIRY_ACTOR)
    with pytest.raises(InvalidRequest, match="api_key_id may not start with"):
        SecureMemory.open(tmp_path / "s.db", key=KEY, api_key_id=MIGRATION_ACTOR)
    assert list(tmp_path.iterdir()) == []


def test_other_ids_are_still_taken_as_given(tmp_path: Path) -> None:
    with SecureMemory.open(tmp_path / "s.db", key=KEY, session_id="sess_x", api_key_id="app-securemem:1") as memory:
        assert not memory.execute({"command": "create", "path": "/memories/a.md", "file_text": "a\n"}).is_error
    for other in ("securemem", "securemem-ci", "securemem_bot", "securemem.v2", "securemem2",  # other names
                  "山田太郎の作業エージェント:1", "Ψηφιακός-βοηθός:1", "sécurité:1"):  # fmt: skip
        with Admin.open(tmp_path / "s.db", key=KEY, api_key_id=other):
            pass
    with Admin.open(tmp_path / "s.db", key=KEY, api_key_id="Securemem-ops") as admin:
        (store,) = admin.memory_stores.list().data
        (version,) = admin.memory_versions.list(store.id).data
    assert (version.session_id, version.api_key_id) == ("sess_x", "app-securemem:1")


@pytest.mark.parametrize(
    "actor",
    [
        "SECUREMEM:x",
        " securemem:x",
        "securemem\uff1ax",
        "\u200bsecuremem:x",
        "s\u0435curemem:x",  # a Cyrillic "е"
        "securemem\ua789x",  # another colon
        "secure\ufe0fmem:x",  # a variation selector
        "secure mem: x",
        # Colon look-alikes no list of colons had (attacker A): Mongolian, two dot punctuation,
        # Ethiopic, Runic, Lisu, Devanagari and Gujarati visarga.
        "securemem\u1804expiry",
        "securemem\u205aexpiry",
        "securemem\u1365expiry",
        "securemem\u16ecexpiry",
        "securemem\ua4fdexpiry",
        "securemem\u0903expiry",
        "securemem\u0a83expiry",
        "securemem/expiry",
        "securemem;expiry",
        # Latin letters outside ASCII that read as the name's (an attacker's round): small capitals, a schwa,
        # accented and breved letters
        "\ua731ecuremem:expiry",
        "s\u1d07curemem:migration",
        "secur\u0259mem:x",
        "se\u00e7uremem:x",
        "s\u0115curemem:x",
    ],
)
def test_look_alikes_of_the_prefix_are_taken_for_it(tmp_path: Path, actor: str) -> None:
    with pytest.raises(InvalidRequest, match="may not start with"):
        SecureMemory.open(tmp_path / "s.db", key=KEY, session_id=actor)
    with pytest.raises(InvalidRequest, match="may not start with"):
        Admin.open(tmp_path / "s.db", key=KEY, api_key_id=actor)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "actor", ["", "   ", "ops\nforged line", "ops\x00", "ops\udcff", "ops\u2028x", "\u202eops", "\u200b", "\ufeff"]
)
def test_an_actor_is_printable_text_on_one_line(tmp_path: Path, actor: str) -> None:
    # A lone surrogate failed every later write of the handle; an empty or multi-line actor is no name.
    with pytest.raises(InvalidRequest, match="must be printable text on one line"):
        SecureMemory.open(tmp_path / "s.db", key=KEY, session_id=actor)
    with pytest.raises(InvalidRequest, match="must be printable text on one line"):
        Admin.open(tmp_path / "s.db", key=KEY, api_key_id=actor)
