"""targets.shown_target: a store target as messages show it, never with a URL's password."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from securemem.targets import is_server_url, shown_target


@pytest.mark.parametrize(
    ("target", "shown"),
    [
        ("agent.db", "agent.db"),
        ("/var/lib/sm/agent.db", "/var/lib/sm/agent.db"),
        ("postgresql://agent@db:5432/mem", "postgresql://agent@db:5432/mem"),
        ("postgresql://agent:Secret1@db:5432/mem", "postgresql://agent:***@db:5432/mem"),
        ("postgres://agent:Secret1@db/mem", "postgres://agent:***@db/mem"),
        ("postgresql://agent:Sec@ret/1@db/mem", "postgresql://agent:***@db/mem"),  # '@' and '/' unescaped
        ("postgresql://agent:Secret1@[::1/mem", "postgresql://agent:***@[::1/mem"),  # malformed: still hidden
        ("postgresql://db/mem?user=agent&password=Secret1", "postgresql://db/mem?user=agent&password=***"),
        ("host=db password='Sec ret' user=agent", "host=db password=*** user=agent"),
        # any query value but where and how to connect (an attacker's round: options carried a secret)
        (
            "postgresql://db/mem?sslmode=require&options=-c%20app.Secret%3D1&sslpassword=Sec&port=5433",
            "postgresql://db/mem?sslmode=require&options=***&sslpassword=***&port=5433",
        ),
        ("postgresql://agent:Sec@db/mem?Secret", "postgresql://agent:***@db/mem?***"),
        # a "?" inside the password is the password's, not a query's start (the review of this change)
        ("postgresql://agent:Se?cret@db/mem?sslmode=require", "postgresql://agent:***@db/mem?sslmode=require"),
        # a URL typed with a slash too few, or a scheme in capitals, is still a URL to hide (an attacker's round)
        ("postgresql:/agent:Secret1@db/mem", "postgresql:/agent:***@db/mem"),
        ("postgresql:agent:Secret1@db/mem", "postgresql:agent:***@db/mem"),
        ("PostgreSQL://agent:Secret1@db/mem", "PostgreSQL://agent:***@db/mem"),
        ("mysql:/agent:Secret1@db/mem", "mysql:/agent:***@db/mem"),
        # ... or with its colon missing, or a "/" in the password (a second attacker's round)
        ("postgresql//agent:Secret1@db/mem", "postgresql//agent:***@db/mem"),
        ("postgresq:/agent:Sec/ret1@db/mem", "postgresq:/agent:***@db/mem"),
    ],
)
def test_a_password_is_never_shown(target: str, shown: str) -> None:
    assert shown_target(target) == shown
    assert "Sec" not in shown_target(target)


def test_only_postgresql_urls_are_servers() -> None:
    assert is_server_url("postgresql://db/mem") and is_server_url("postgres://db/mem")
    assert is_server_url("PostgreSQL://db/mem") and is_server_url("POSTGRES://db/mem")
    assert not is_server_url("agent.db") and not is_server_url("sqlcipher:///var/lib/agent.db")


@pytest.mark.parametrize(
    "argv",
    [
        ["verify"], ["init"], ["stores", "list"], ["sweep"], ["keys", "list"], ["backup", "--out", "b.bak"],
        ["export", "--store", "s", "--out", "x.jsonl"],
    ],
)  # fmt: skip
@pytest.mark.parametrize(
    "url", ["postgresql:/agent:Secret1@db/mem", "mysql:/agent:Secret1@db/mem", "postgresql//agent:Secret1@db/mem"]
)
def test_a_url_typed_with_a_slash_too_few_is_refused_without_its_password(
    argv: list[str], url: str, tmp_path: Path
) -> None:
    """An attacker's round: read as a file path, such a URL was quoted back whole by sixteen commands
    ("no securemem store at postgresql:/agent:Secret1@db/mem; create one with: ...")."""
    env = {**os.environ, "SECUREMEM_KEY": "ab" * 32}
    run = subprocess.run(
        [sys.executable, "-m", "securemem.cli", *argv, "--db", url],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert "Secret1" not in run.stdout + run.stderr
    assert run.stderr.count("\n") == 1 and "scheme://" in run.stderr, run.stderr
    assert list(tmp_path.iterdir()) == [], "a file was made for a URL"
