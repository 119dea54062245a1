"""targets.shown_target: a store target as messages show it, never with a URL's password."""

from __future__ import annotations

from pathlib import Path

import pytest

from securemem.targets import is_server_url, shown_target
from tests.helpers import run_cli


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
    argv: list[str], url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attacker's round: read as a file path, such a URL was quoted back whole by sixteen commands
    ("no securemem store at postgresql:/agent:Secret1@db/mem; create one with: ...").

    In this process (the CLI's own entry point, as ``securemem`` runs it): 21 interpreters started for it took the
    suite 14 s."""
    monkeypatch.setenv("SECUREMEM_KEY", "ab" * 32)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *argv, "--db", url)
    assert code == 2, err
    assert "Secret1" not in out + err
    assert err.count("\n") == 1 and "scheme://" in err, err
    assert list(tmp_path.iterdir()) == [], "a file was made for a URL"
