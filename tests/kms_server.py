"""A local AWS KMS for the aws-kms: provider's tests and benchmark: moto's server on 127.0.0.1.

moto (a dev dependency) implements KMS's API (keys, Encrypt and Decrypt with encryption contexts,
DescribeKey, DisableKey) in a small Flask server. It is started as its own process on a free
port of 127.0.0.1, so the code under test talks HTTP to it exactly as to AWS, and nothing leaves
the machine. The credentials are moto's dummies; the AWS configuration files of whoever runs
the tests are hidden, and the EC2 metadata lookup is off (it would leave the machine).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

REGION = "eu-west-1"
START_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def aws_env(url: str, where: Path, access_key: str = "testing", secret: str = "testing") -> dict[str, str]:
    """The AWS settings that point boto3 at the emulator, and only at it."""
    return {
        "AWS_ENDPOINT_URL_KMS": url,
        "AWS_ENDPOINT_URL": url,
        "AWS_REGION": REGION,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_ACCESS_KEY_ID": access_key,
        "AWS_SECRET_ACCESS_KEY": secret,
        "AWS_CONFIG_FILE": str(where / "no-aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(where / "no-aws-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }


def why_not_available() -> str | None:
    """None when the emulator can run here, else what is missing (one line)."""
    for module in ("boto3", "moto", "flask", "flask_cors"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[dev]')"
    return None


@contextlib.contextmanager
def kms_server(where: Path, extra_env: Mapping[str, str] | None = None) -> Iterator[str]:
    """moto's server on a free port of 127.0.0.1 for the ``with`` block: its URL. RuntimeError if it cannot start."""
    missing = why_not_available()
    if missing:
        raise RuntimeError(missing)
    port = free_port()
    log = (where / f"moto-{port}.log").open("wb")
    argv = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    server = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(extra_env or {})})
    try:
        _wait_until_up(server, port)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        log.close()


def _wait_until_up(server: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"moto's server exited with status {server.returncode} at start")
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"moto's server did not listen on 127.0.0.1:{port} within {START_SECONDS:g} s")


def client(service: str, env: Mapping[str, str]) -> Any:
    """A boto3 client for the emulator (for test set-up: making, disabling keys)."""
    import boto3

    return boto3.session.Session(
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"], aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"]
    ).client(service, region_name=REGION, endpoint_url=env["AWS_ENDPOINT_URL"])


def new_key(env: Mapping[str, str]) -> tuple[str, str]:
    """A fresh symmetric key in the emulator: (its ARN, its key id)."""
    meta = client("kms", env).create_key(Description="securemem test KEK")["KeyMetadata"]
    return str(meta["Arn"]), str(meta["KeyId"])
