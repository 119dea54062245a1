"""``securemem keys list | add | remove | rotate-kek | adopt`` on a PostgreSQL URL (cli_keys.py, pgkeys.py).

A deployment's master key is wrapped by each of its KEKs (``sm_meta``); these commands change that
list, never a row of a store, with keys.md's exit codes (0 ok, 1 refused, 2 usage/key/database)
and one line on stderr. The URL is never printed. Every test uses the real server of tests/pg.py
(it skips with one line where none answers).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from securemem import Admin, SecureMemory
from securemem.errors import WrongKekError, WrongKeyError
from securemem.keys import kek as kek_module
from tests.helpers import audit_records, ok, run_cli
from tests.hsm import URI as HSM_URI
from tests.pg import PG, sql, totals_match

Cap = pytest.CaptureFixture[str]
MARK = "kept across every key change"


def _kek(tmp_path: Path, name: str) -> str:
    path = tmp_path / name
    path.write_text(os.urandom(32).hex())
    path.chmod(0o600)
    return f"file:{path}"


def _deployment(**opener: Any) -> str:
    url = PG.fresh_url()
    with SecureMemory.open(url, **opener) as memory:
        ok(memory, command="create", path="/memories/a.md", file_text=MARK + "\n")
    return url


def _reads(url: str, **opener: Any) -> str:
    with SecureMemory.open(url, **opener) as memory:
        return ok(memory, command="view", path="/memories/a.md")


def _rows(url: str) -> list[Any]:
    with sql(url) as conn:
        return [
            conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("sm_entries", "sm_versions", "sm_stores")
        ]


def _ids(capsys: Cap, url: str, *opener: str) -> list[str]:
    code, out, err = run_cli(capsys, "keys", "list", "--db", url, *opener)
    assert code == 0, err
    return [json.loads(line)["key_id"] for line in out.splitlines()]


def fails(capsys: Cap, code: int, *argv: str) -> str:
    got, out, err = run_cli(capsys, *argv)
    assert (got, out) == (code, ""), (got, out, err)
    assert err.count("\n") == 1 and err.startswith("securemem: ") and "Traceback" not in err, err
    return err


def test_add_remove_and_rotate_change_which_keks_open_and_never_a_stored_row(capsys: Cap, tmp_path: Path) -> None:
    first, second, third = (_kek(tmp_path, n) for n in ("first", "second", "third"))
    url = _deployment(kek=first)
    rows = _rows(url)
    (one,) = _ids(capsys, url, "--kek", first)
    code, out, _ = run_cli(capsys, "keys", "add", "--db", url, "--kek", first, "--new-kek", second)
    assert code == 0 and out.startswith("the PostgreSQL deployment: KEK file:") and "added as key id" in out
    assert MARK in _reads(url, kek=first) and MARK in _reads(url, kek=second)
    listed = [
        json.loads(line) for line in run_cli(capsys, "keys", "list", "--db", url, "--kek", second)[1].splitlines()
    ]
    assert [e["provider"] for e in listed] == [first, second] and all(e["added_at"] for e in listed)
    two = listed[1]["key_id"]
    assert run_cli(capsys, "keys", "remove", "--db", url, "--kek", second, "--key-id", one)[0] == 0
    with pytest.raises(WrongKekError):
        SecureMemory.open(url, kek=first)
    code, out, _ = run_cli(capsys, "keys", "rotate-kek", "--db", url, "--kek", second, "--to", third)
    assert code == 0 and "no longer opens it" in out
    with pytest.raises(WrongKekError):
        SecureMemory.open(url, kek=second)
    assert MARK in _reads(url, kek=third) and _ids(capsys, url, "--kek", third) != [two]
    assert _rows(url) == rows  # the master key was only re-wrapped: no store, file or version changed


def test_refusals_exit_1_and_change_nothing(capsys: Cap, tmp_path: Path) -> None:
    first = _kek(tmp_path, "first")
    url = _deployment(kek=first)
    (one,) = _ids(capsys, url, "--kek", first)
    assert "last KEK" in fails(capsys, 1, "keys", "remove", "--db", url, "--kek", first, "--key-id", one)
    assert "already wraps" in fails(capsys, 1, "keys", "add", "--db", url, "--kek", first, "--new-kek", first)
    assert "no KEK with key id" in fails(capsys, 1, "keys", "remove", "--db", url, "--kek", first, "--key-id", "kx")
    wrong = _kek(tmp_path, "wrong")
    assert "does not open" in fails(capsys, 2, "keys", "add", "--db", url, "--kek", wrong, "--new-kek", wrong)
    assert _ids(capsys, url, "--kek", first) == [one] and MARK in _reads(url, kek=first)


def test_a_new_file_kek_is_made_and_removed_again_when_the_change_fails(capsys: Cap, tmp_path: Path) -> None:
    first = _kek(tmp_path, "first")
    url = _deployment(kek=first)
    made = tmp_path / "made.kek"
    code, out, _ = run_cli(capsys, "keys", "add", "--db", url, "--kek", first, "--new-kek", f"file:{made}")
    assert code == 0 and "a new KEK file, mode 0600" in out and made.stat().st_mode & 0o777 == 0o600
    assert MARK in _reads(url, kek=f"file:{made}")
    lost = tmp_path / "lost.kek"
    fails(capsys, 2, "keys", "add", "--db", url, "--kek", _kek(tmp_path, "wrong"), "--new-kek", f"file:{lost}")
    assert not lost.exists()


def test_a_deployment_made_with_a_key_adopts_a_kek_then_drops_the_key(
    capsys: Cap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = os.urandom(32)
    url = _deployment(key=key)
    kek = _kek(tmp_path, "kek")
    monkeypatch.setenv("SECUREMEM_KEY", key.hex())
    code, out, _ = run_cli(capsys, "keys", "adopt", "--db", url, "--new-kek", kek)
    assert code == 0 and "the key still opens it until: securemem keys remove --key-id" in out
    legacy = out.rsplit("--key-id ", 1)[1].strip()
    assert MARK in _reads(url, key=key) and MARK in _reads(url, kek=kek)
    monkeypatch.delenv("SECUREMEM_KEY")
    assert run_cli(capsys, "keys", "remove", "--db", url, "--kek", kek, "--key-id", legacy)[0] == 0
    with pytest.raises(WrongKeyError):
        SecureMemory.open(url, key=key)
    assert MARK in _reads(url, kek=kek)


def test_a_list_without_a_kek_says_it_is_unauthenticated_and_the_url_is_never_printed(
    capsys: Cap, tmp_path: Path
) -> None:
    first = _kek(tmp_path, "first")
    url = _deployment(kek=first)
    password = "Pw-" + os.urandom(6).hex()
    with_password = url.replace("://postgres@", f"://postgres:{password}@")  # trust auth: the login works
    code, out, err = run_cli(capsys, "keys", "list", "--db", with_password)
    assert code == 0 and len(out.splitlines()) == 1 and "listed unauthenticated" in err
    second = _kek(tmp_path, "second")
    for argv in (
        ["keys", "add", "--db", with_password, "--kek", first, "--new-kek", second],
        ["keys", "list", "--db", with_password, "--kek", second],
        ["keys", "remove", "--db", with_password, "--kek", second, "--key-id", "kx"],
    ):
        _, out, err = run_cli(capsys, *argv)
        assert password not in out + err and "postgres:" not in out + err


def test_a_deployment_whose_stores_keep_their_keys_on_the_token_refuses_kek_changes(
    hsm: str, capsys: Cap, tmp_path: Path
) -> None:
    url = _deployment(kek=HSM_URI)
    err = fails(capsys, 1, "keys", "add", "--db", url, "--kek", HSM_URI, "--new-kek", _kek(tmp_path, "k"))
    assert "PKCS#11 token" in err
    assert MARK in _reads(url, kek=HSM_URI)


def test_each_change_is_audited_without_key_material(
    capsys: Cap, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = _kek(tmp_path, "first"), _kek(tmp_path, "second")
    url = _deployment(kek=first)
    caplog.set_level(logging.INFO, logger="securemem.audit")
    assert run_cli(capsys, "keys", "rotate-kek", "--db", url, "--kek", first, "--to", second)[0] == 0
    (record,) = [r for r in audit_records(caplog) if r.get("event") == "kek_rotated"]
    assert record["added"] and record["removed"] == record["opened_with"] and record["by"]
    material = {Path(k.removeprefix("file:")).read_text().strip() for k in (first, second)}
    assert not any(m in json.dumps(record) for m in material)


def test_key_file_options_are_for_postgresql_deployments_only(capsys: Cap, tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    assert run_cli(capsys, "init", "--db", str(db), "--kek", f"file:{db}.kek")[0] == 0
    key_file = tmp_path / "k.key"
    key_file.write_text(os.urandom(32).hex())
    err = fails(
        capsys, 2, "keys", "add", "--db", str(db), "--key-file", str(key_file), "--new-kek", _kek(tmp_path, "n")
    )
    assert "open a PostgreSQL deployment" in err


def _ciphertexts(url: str) -> set[bytes]:
    with sql(url) as conn:
        found: set[bytes] = set()
        for query in ("SELECT tok, path_ct, data_ct FROM sm_entries", "SELECT meta_ct, data_ct FROM sm_versions",
                      "SELECT name_ct, desc_ct, dek, tail_ct FROM sm_stores"):  # fmt: skip
            found.update(bytes(value) for row in conn.execute(query) for value in row if value is not None)
        return found


def test_rotate_dek_seals_every_store_again_under_a_new_key(capsys: Cap, tmp_path: Path) -> None:
    """Every token and ciphertext of every store changes; everything reads the same, the history
    included (versions, who wrote them, a redaction), and a handle opened before goes on working."""
    kek = _kek(tmp_path, "kek")
    url = _deployment(kek=kek)
    with Admin.open(url, kek=kek, api_key_id="ops-7") as admin:
        store = admin.memory_stores.create(name="second", description="kept across the rotation")
        memory = admin.memories.write(store.id, path="/b.md", content="bravo one\n")
        admin.memories.update(store.id, memory.id, content="bravo two\n")
        first = admin.memory_versions.list(store.id, memory_id=memory.id).data[-1]
        admin.memory_versions.redact(store.id, first.id)
    before = _ciphertexts(url)
    with SecureMemory.open(url, kek=kek) as early:  # open across the rotation
        code, out, _ = run_cli(capsys, "keys", "rotate-dek", "--db", url, "--kek", kek)
        assert code == 0 and out.startswith("the PostgreSQL deployment: 2 store(s) re-encrypted"), out
        assert MARK in ok(early, command="view", path="/memories/a.md")
        ok(early, command="str_replace", path="/memories/a.md", old_str="kept", new_str="still kept")
    assert not before & _ciphertexts(url)  # nothing sealed under an old key is left
    assert "still kept" in _reads(url, kek=kek)
    with Admin.open(url, kek=kek) as admin:
        assert admin.memory_stores.retrieve(store.id).description == "kept across the rotation"
        versions = admin.memory_versions.list(store.id, memory_id=memory.id, api_key_id="ops-7").data
        assert [v.api_key_id for v in versions] == ["ops-7", "ops-7"]
        assert admin.memory_versions.retrieve(store.id, versions[0].id).content == "bravo two\n"
        assert admin.memory_versions.retrieve(store.id, first.id).content is None
    code, out, _ = run_cli(capsys, "audit", "verify", "--db", url, "--kek", kek)
    assert code == 0 and out.count('"chain_ok": true') == 2
    totals_match(url)


def test_rotate_dek_rewraps_with_each_stores_own_key_object_on_the_token(hsm: str, capsys: Cap) -> None:
    url = _deployment(kek=HSM_URI)
    before = _ciphertexts(url)
    code, out, _ = run_cli(capsys, "keys", "rotate-dek", "--db", url, "--kek", HSM_URI)
    assert code == 0 and "1 store(s)" in out
    assert not before & _ciphertexts(url) and MARK in _reads(url, kek=HSM_URI)


def test_rotate_dek_opens_a_deployment_made_with_a_key_by_its_key_file(capsys: Cap, tmp_path: Path) -> None:
    key = os.urandom(32)
    url = _deployment(key=key)
    key_file = tmp_path / "deployment.key"
    key_file.write_text(key.hex())
    key_file.chmod(0o600)
    before = _ciphertexts(url)
    code, out, err = run_cli(capsys, "keys", "rotate-dek", "--db", url, "--key-file", str(key_file))
    assert code == 0 and "1 store(s)" in out, err
    assert not before & _ciphertexts(url) and MARK in _reads(url, key=key)


def test_the_same_passphrase_is_refused_as_a_second_kek(
    capsys: Cap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an attacker: each passphrase entry has a salt and a key id of its own, so the same
    passphrase was added again, and rotating away from it left its twin opening the deployment."""
    monkeypatch.setattr(kek_module, "SCRYPT_N", 2**12)  # recorded per entry: cheaper than production
    words = tmp_path / "words"
    words.write_text("correct horse battery staple\n")
    words.chmod(0o600)
    uri = f"passphrase:file:{words}"
    url = _deployment(kek=uri)
    (one,) = _ids(capsys, url, "--kek", uri)
    assert "already wraps the master key" in fails(
        capsys, 1, "keys", "add", "--db", url, "--kek", uri, "--new-kek", uri
    )
    assert _ids(capsys, url, "--kek", uri) == [one] and MARK in _reads(url, kek=uri)
