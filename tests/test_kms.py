"""AWS KMS KEKs (keys/kms.py) against a local KMS: moto's server on 127.0.0.1 (tests/kms_server.py).

The emulator is started once per test session on a free port; each test makes its own key in it.
The real CLI (in this process, and once as its own process) and ``SecureMemory.open(kek=...)``
talk to it over HTTP, exactly as to AWS. Without the emulator these tests skip with one line;
under CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from securemem import SecureMemory
from securemem.errors import KekError, KeyHeaderError
from securemem.keys.header import keys_path, read_header, serialize
from securemem.keys.kms import ALG, AwsKmsKek
from securemem.keys.uri import parse_kek
from securemem.store.envelope import unlock
from tests import kms_server
from tests.helpers import REPO, create, read_state, run_cli, sha256_of, view

Cap = pytest.CaptureFixture[str]


def unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why}, and CI is set: .ci/run should have installed it")
    pytest.skip(why)


@pytest.fixture(scope="session")
def emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """moto's KMS server for the session: the AWS settings that point at it."""
    where = tmp_path_factory.mktemp("kms")
    try:
        with kms_server.kms_server(where) as url:
            yield kms_server.aws_env(url, where)
    except RuntimeError as exc:
        unavailable(f"the KMS emulator cannot start ({exc})")


@pytest.fixture
def aws(emulator: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, value in emulator.items():
        monkeypatch.setenv(name, value)
    return emulator


@pytest.fixture
def uri(aws: dict[str, str]) -> str:
    """A fresh KMS key's URI."""
    arn, _ = kms_server.new_key(aws)
    return f"aws-kms:{arn}"


def fails(capsys: Cap, *argv: str) -> str:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_a_store_wrapped_by_kms_opens_through_it(uri: str, tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with SecureMemory.open(db, kek=uri) as memory:
        create(memory, "/memories/a.md", "held by KMS\n")
    with SecureMemory.open(db, kek=uri, create=False) as memory:
        assert "held by KMS" in view(memory, "/memories/a.md")
    [entry] = read_header(db).entries
    arn = uri.removeprefix("aws-kms:")
    assert entry.provider == uri and entry.key_id == arn and entry.wrapped.alg == ALG  # the key id is the ARN
    dek = unlock(db, parse_kek(uri)).dek
    assert dek not in keys_path(db).read_bytes() and dek.hex().encode() not in keys_path(db).read_bytes()


def test_the_wrapped_key_is_bound_to_its_store(uri: str) -> None:
    kek = parse_kek(uri)
    dek = os.urandom(32)
    wrapped = kek.wrap(dek, "store-one")
    assert kek.unwrap(wrapped, "store-one") == dek
    with pytest.raises(KeyHeaderError, match="sealed for another store or entry"):
        kek.unwrap(wrapped, "store-two")  # KMS refuses: another encryption context


def test_an_entry_moved_into_another_stores_header_opens_nothing(uri: str, tmp_path: Path, capsys: Cap) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    SecureMemory.open(one, kek=uri).close()
    SecureMemory.open(two, kek=uri).close()
    header = read_header(two)
    moved = header.__class__(header.store_id, header.db_salt, read_header(one).entries, header.mac)
    keys_path(two).write_bytes(serialize(moved))  # its checksum is right: only KMS can tell
    before = sha256_of(two)
    err = fails(capsys, "keys", "list", "--db", str(two), "--kek", uri)
    assert "is damaged (KMS refused the wrapped key: it was sealed for another store or entry)" in err
    assert sha256_of(two) == before


def test_the_cli_runs_every_key_operation_against_kms(aws: dict[str, str], tmp_path: Path, capsys: Cap) -> None:
    first, second = (f"aws-kms:{kms_server.new_key(aws)[0]}" for _ in range(2))
    db, recovery = tmp_path / "c.db", f"file:{tmp_path / 'recovery.kek'}"
    assert run_cli(capsys, "init", "--db", str(db), "--kek", first)[0] == 0
    with SecureMemory.open(db, kek=first, create=False) as memory:
        create(memory, "/memories/a.md", "kept\n")
        state = read_state(memory.store)
    assert run_cli(capsys, "keys", "add", "--db", str(db), "--kek", first, "--new-kek", recovery)[0] == 0
    before = sha256_of(db)
    code, out, err = run_cli(capsys, "keys", "rotate-kek", "--db", str(db), "--kek", first, "--to", second)
    assert code == 0, err
    assert sha256_of(db) == before  # re-wrap only
    code, out, _ = run_cli(capsys, "keys", "list", "--db", str(db), "--kek", second)
    listed = [json.loads(line) for line in out.splitlines()]
    assert {row["provider"] for row in listed} == {recovery, second}
    wrong = fails(capsys, "keys", "list", "--db", str(db), "--kek", first)
    assert f"the KEK {first} is not one of the KEKs of {db} (wrong KEK)" in wrong
    out_file, restored = tmp_path / "c.smb", tmp_path / "restored.db"
    assert (
        run_cli(capsys, "backup", "--db", str(db), "--kek", second, "--out", str(out_file), "--backup-kek", first)[0]
        == 0
    )
    assert run_cli(capsys, "verify", "--backup", str(out_file), "--kek", first)[0] == 0
    assert run_cli(capsys, "restore", "--backup", str(out_file), "--kek", first, "--db", str(restored))[0] == 0
    with SecureMemory.open(restored, kek=first, create=False) as memory:
        assert read_state(memory.store) == state
    with SecureMemory.open(db, kek=recovery, create=False) as memory:  # the offline recovery key still opens
        assert read_state(memory.store) == state
    arn = second.removeprefix("aws-kms:")  # the key id to remove it by
    assert run_cli(capsys, "keys", "remove", "--db", str(db), "--kek", recovery, "--key-id", arn)[0] == 0
    assert [entry.provider for entry in read_header(db).entries] == [recovery]


def test_rotate_dek_rewraps_with_kms(uri: str, tmp_path: Path, capsys: Cap) -> None:
    db = tmp_path / "d.db"
    with SecureMemory.open(db, kek=uri) as memory:
        create(memory, "/memories/a.md", "re-keyed\n")
    old = unlock(db, parse_kek(uri)).dek
    assert run_cli(capsys, "keys", "rotate-dek", "--db", str(db), "--kek", uri, "--quiet")[0] == 0
    assert unlock(db, parse_kek(uri)).dek != old
    with SecureMemory.open(db, kek=uri, create=False) as memory:
        assert "re-keyed" in view(memory, "/memories/a.md")


def test_the_cli_as_its_own_process_reads_the_aws_settings(uri: str, tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    argv = [sys.executable, "-m", "securemem.cli", "init", "--db", str(db), "--kek", uri]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, env=dict(os.environ), timeout=120)
    assert done.returncode == 0, done.stderr
    assert read_header(db).entries[0].key_id == uri.removeprefix("aws-kms:")


# -- failures: one line, exit 2, no key material, nothing on disk -----------------------------------------------


def test_a_key_kms_does_not_have(aws: dict[str, str], tmp_path: Path, capsys: Cap) -> None:
    arn = f"arn:aws:kms:{kms_server.REGION}:123456789012:key/00000000-0000-4000-8000-000000000000"
    err = fails(capsys, "init", "--db", str(tmp_path / "n.db"), "--kek", f"aws-kms:{arn}")
    assert err.endswith(f"KEK aws-kms:{arn}: KMS has no such key (check the ARN, the account and the endpoint)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_disabled_key(aws: dict[str, str], tmp_path: Path, capsys: Cap) -> None:
    arn, key_id = kms_server.new_key(aws)
    db = tmp_path / "x.db"
    SecureMemory.open(db, kek=f"aws-kms:{arn}").close()
    kms_server.client("kms", aws).disable_key(KeyId=key_id)
    files = {p.name: sha256_of(p) for p in tmp_path.iterdir()}
    err = fails(capsys, "keys", "list", "--db", str(db), "--kek", f"aws-kms:{arn}")
    assert err.endswith(f"KEK aws-kms:{arn}: the KMS key is disabled; enable it to open the store\n")
    assert {p.name: sha256_of(p) for p in tmp_path.iterdir()} == files


def test_an_unreachable_kms(uri: str, tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch) -> None:
    closed = f"http://127.0.0.1:{kms_server.free_port()}"  # nothing listens there
    monkeypatch.setenv("AWS_ENDPOINT_URL_KMS", closed)
    err = fails(capsys, "init", "--db", str(tmp_path / "u.db"), "--kek", uri)
    assert f"{uri}: cannot reach KMS at {closed} (EndpointConnectionError); is it reachable?" in err
    assert list(tmp_path.iterdir()) == []


def test_an_alias_or_a_malformed_arn_is_refused(aws: dict[str, str], tmp_path: Path, capsys: Cap) -> None:
    for bad in ("aws-kms:", "aws-kms:alias/securemem", f"aws-kms:arn:aws:kms:{kms_server.REGION}:123456789012:alias/x"):
        err = fails(capsys, "init", "--db", str(tmp_path / "a.db"), "--kek", bad)
        assert "an aws-kms: KEK names its key by key ARN" in err
    assert list(tmp_path.iterdir()) == []


def test_without_boto3_the_error_names_the_extra(uri: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "boto3", None)  # what an install without the extra looks like
    with pytest.raises(KekError) as caught:
        SecureMemory.open(tmp_path / "b.db", kek=uri)
    assert str(caught.value) == f"KEK {uri}: boto3 is not installed (pip install 'securemem[aws]')"
    assert list(tmp_path.iterdir()) == []


# -- access denied: a second emulator that checks IAM policies --------------------------------------------------


@pytest.fixture
def iam_enforced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, dict[str, str]]]:
    """An emulator checking IAM after its first four requests: a key, and a user allowed only to describe it."""
    try:
        with kms_server.kms_server(tmp_path, {"INITIAL_NO_AUTH_ACTION_COUNT": "4"}) as url:
            admin = kms_server.aws_env(url, tmp_path)
            arn, _ = kms_server.new_key(admin)  # 1
            iam = kms_server.client("iam", admin)
            iam.create_user(UserName="agent")  # 2
            policy = {
                "Version": "2012-10-17",
                "Statement": [{"Effect": "Allow", "Action": "kms:DescribeKey", "Resource": "*"}],
            }
            iam.put_user_policy(UserName="agent", PolicyName="describe-only", PolicyDocument=json.dumps(policy))  # 3
            made = iam.create_access_key(UserName="agent")["AccessKey"]  # 4
            env = kms_server.aws_env(url, tmp_path, made["AccessKeyId"], made["SecretAccessKey"])
            for name, value in env.items():
                monkeypatch.setenv(name, value)
            yield f"aws-kms:{arn}", env
    except RuntimeError as exc:
        unavailable(f"the KMS emulator cannot start ({exc})")


def test_access_denied(iam_enforced: tuple[str, dict[str, str]], tmp_path: Path, capsys: Cap) -> None:
    uri, env = iam_enforced
    db = tmp_path / "store" / "d.db"
    db.parent.mkdir()
    err = fails(capsys, "init", "--db", str(db), "--kek", uri)
    assert err.endswith(f"KEK {uri}: KMS denied access to the key (the role needs kms:Encrypt and kms:Decrypt on it)\n")
    assert env["AWS_SECRET_ACCESS_KEY"] not in err
    assert list(db.parent.iterdir()) == []


def test_the_provider_never_shows_key_material(uri: str) -> None:
    kek = parse_kek(uri)
    assert isinstance(kek, AwsKmsKek) and repr(kek) == f"AwsKmsKek({uri!r})"
