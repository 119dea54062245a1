"""An attacker's round on this release's changes to the detector: values the new exclusions let
through, a stored JSON the scrubber broke, ordinary code read as values, and a pattern whose time
doubled with each digit. Each case lists exactly what is found."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from securemem import SecureMemory
from tests.helpers import found_values, ok, stored_text


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A word and a comma before a label is prose, not names being unpacked in code.
        ("Sure, password: Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),
        ("alice,password=Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),
        ("jsmith, pwd: hunter2!", ["hunter2!"]),
        ("        username, password = credentials", []),
        # A command inside another's range is read: docker's -p is a port, mysql's -p a password.
        ("docker run -p 3306:3306 -it mysql:8 mysql -uroot -pS3cr3tPass9", ["S3cr3tPass9"]),
        ("docker run -p 6379:6379 redis redis-cli -a Xk9mP2vLq8", ["Xk9mP2vLq8"]),
        # Passwords shaped like an option, a signature, a private name, a format or a hex number.
        ('password = "-Tr0ub4dor_3x"', ["-Tr0ub4dor_3x"]),
        ('password = "(Tr0ub4dor&3"', ["(Tr0ub4dor&3"]),
        ("password: __Tr0ub4dor3", ["__Tr0ub4dor3"]),
        ('password = "100%done now!"', ["100%done now!"]),
        ('password = "0xDEADBEEF"', ["0xDEADBEEF"]),
        ("signature='(n),(m)->(k)' and creds = \" --username=\" + auth", []),
        # Random capitals and digits are not a name of code.
        ('client_secret = "QZXKV982HavoXLQTP731Lemu"', ["QZXKV982HavoXLQTP731Lemu"]),
        ("arn:aws:iam::123456789012:secret=q8F3kLm2Pz", ["q8F3kLm2Pz"]),
        # A value that is only the end of its key's name is a default credential, not a name of code.
        ('DB_PASSWORD_ADMIN = "admin"', ["admin"]),
        ("WIFI_PASSWORD_GUEST2024=Guest2024", ["Guest2024"]),
        # A one-column export keeps its column; an argument list in code does not make one.
        ("password;\nTr0ub4dor&3x;\n", ["Tr0ub4dor&3x"]),
        ("    call(\n            password,\n            'SimpleAD',\n            size=size,\n    )", []),
    ],
)
def test_exclusions_of_code_let_no_value_through(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("tel=%2B44%207700%20900123", ["%2B44%207700%20900123"]),  # no escape cut in half
        ("card 4111%201111%201111%201111", ["4111%201111%201111%201111"]),
        ("mail me: jane.doe&#0064;example.com", ["jane.doe&#0064;example.com"]),
        ("κωδικός wifi: Xk9#mP2$vL", ["Xk9#mP2$vL"]),
        ("phone = [null, null, null, null, null, null, null, null]", []),
    ],
)
def test_escapes_with_zeros_and_spaces_and_lists_of_code(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "document",
    [
        {"s": '{"client_secret":"Xk9mP2vLq8wZ3rT7yU1iAb4Zq"}'},
        {"s": '{"token":"Xk9mP2vLq8wZ3rT7yU1iAb4Zq"\n}'},
        {"s": '{"api_key": "Xk9mP2vLq8wZ3rT7yU1iAb4Zq"  }'},
    ],
)
def test_json_inside_a_json_string_stays_json_once_scrubbed(tmp_path: Path, document: dict[str, str]) -> None:
    text = json.dumps(document)
    with SecureMemory.open(tmp_path / "s.db", key=os.urandom(32), policy="regulated") as memory:
        ok(memory, command="create", path="/memories/a.json", file_text=text)
        kept = json.loads(stored_text(memory, "/memories/a.json"))  # still JSON
    assert "Xk9mP2vLq8wZ3rT7yU1iAb4Zq" not in kept["s"] and "[GENERIC_SECRET]" in kept["s"]


def test_digits_after_a_secrets_key_are_read_once() -> None:
    """ "token" and 27 digits took 3.8 s, each digit more doubling it: a pattern of words and numbers
    backtracked over the digits. With 56 digits (as in a log's sequence token) that pattern would run
    for years; read by splitting, the answer comes at once."""
    assert found_values('token"' + "4954310740095796045676567882" * 2) == []
