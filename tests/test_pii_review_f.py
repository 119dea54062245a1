"""Forms from reviewer F's blind round (tests/data/pii_review_f.jsonl, taken as it came): values it
labels that were missed, and ordinary lines that were altered, each with the hard cases around it.
Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A git log's date: "09" is the time's seconds, "2024 -0500" the year and the zone.
        ("commit 81b34eb\nDate:   Tue May 24 07:10:09 2024 -0500\n", []),
        ("AuthorDate: Mon Jan 8 10:11:12 2024 +0100", []),
        ("at 10:09 07911 123456", ["07911 123456"]),  # a time, then a phone
        ("10:00:05 415 555 2671", ["415 555 2671"]),
        ("Mon-Fri 9:00-17:00 0161 496 0123", ["0161 496 0123"]),
        ("10:00:05 +44 20 7946 0958", ["+44 20 7946 0958"]),
        ("tel:01614960123", ["01614960123"]),
    ],
)
def test_a_number_opening_with_a_times_seconds_is_no_phone(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An env template: each setting left empty, the next line is the next setting, not a value.
        ("# copy to .env and fill in\nDB_PASSWORD=\nSTRIPE_SECRET_KEY=\n", []),
        ("db_password=\ndb_host=\n", []),
        ("DB_PASSWORD=\nS3cr3t_Pa55\n", ["S3cr3t_Pa55"]),  # a value on the next line is still read
        ("client_secret:\n  dGVzdA1aB2xYz9=\n", ["dGVzdA1aB2xYz9="]),
        # 1Password is where a secret is kept: what follows its name is an item there.
        ('# OPENAI_API_KEY=<from 1Password: "OpenAI prod">', []),
        ('1password = "OpenAI prod"', []),
        ('password: "OpenAI prod"', ["OpenAI prod"]),
        ("1Password master password: Xk9#mQ2zL", ["Xk9#mQ2zL"]),
    ],
)
def test_an_env_template_left_empty_stays(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Loopback with a prefix is every machine's, in a list of networks allowed (a private host
        # with one is still an address, as is loopback named as someone's).
        ("allowed_cidrs:\n  - 10.0.0.0/8\n  - 192.168.0.0/16\n  - 127.0.0.1/32\n", []),
        ("inet 127.0.0.1/8 scope host lo", []),
        ("allow 10.1.2.3/32", ["10.1.2.3"]),
        ("Customer's home router is 127.0.0.1; whitelist it.", ["127.0.0.1"]),
    ],
)
def test_loopback_with_a_prefix_is_no_ones_address(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("सर्वर लॉगिन जानकारी:\nयूज़र: admin\nपासवर्ड: Chandni1990?\n", ["Chandni1990?"]),  # Hindi's label
        ("पासवर्ड भूल गए? यहां क्लिक करें", []),
        ("पासवर्ड: रीसेट", []),
        # Five words between the label and its colon
        ("voici le mot de passe du Wi-Fi de la maison : uenKhozR2hsWCX!?%", ["uenKhozR2hsWCX!?%"]),
        ("the password of the admin user on the db: see vault", []),
        ("password reset link for the new user account: https://example.com/reset?x=1", []),
        # A password may end in ".": a full stop after it is covered, which costs nothing
        ("Kunde hat sein Kennwort geschickt (Kennwort: Hafen303.)", ["Hafen303."]),
        ("The password is Summer2024.", ["Summer2024."]),
        ("DB_PASSWORD=Xk9mQ2zL.", ["Xk9mQ2zL."]),
        ("The password is correct.", []),
        ('password: "Xk9mQ2zL".', ["Xk9mQ2zL"]),
        ("password: hunter22, then log in", ["hunter22"]),
        ("api_token=ghp_abcdefghijklmnopqrstuvwxyz0123456789.", ["ghp_abcdefghijklmnopqrstuvwxyz0123456789"]),
    ],
)
def test_password_labels_of_reviewer_f(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "# hostname:port:database:username:password\n"
            "db-prod.acme.internal:5432:orders:orders_rw:16jPxsmaxKYpSik^Y-\n*:5432:*:readonly:Cobalt2010*\n",
            ["16jPxsmaxKYpSik^Y-", "Cobalt2010*"],
        ),
        ("localhost:5432:mydb:postgres:s3cr\\:et9", ["s3cr\\:et9"]),  # an escaped colon
        ("see ~/.pgpass\ndb:5432:app:app:hunter2024", ["hunter2024"]),
        # Lines of colons that are no password file's
        ("main.c:12:5:warning:unused", []),
        ("session:12345:user:settings:theme_v2", []),  # a key of Redis
        ("db:5432:app:app:Xk9mQ2zL!", []),  # no host's name, no file named
        ("root:x:0:0:root:/root:/bin/bash", []),
        ("00:1a:2b:3c:4d:5e", []),
        ("12:30:45:99:abcdef", []),
        ("localhost:5432:mydb:postgres:postgres", []),  # a word, where nothing names the file
    ],
)
def test_a_pgpass_lines_password_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An SSN's groups set apart by two spaces, where the text names one
        ("social security no. 389  21  1575", ["389  21  1575"]),
        ("ssn 805  02  0701", ["805  02  0701"]),
        ("ref 389  21  1575", []),
        ("rows 389  21  1575", []),
        # An IBAN with a space after its country code, in lower case
        ("bitte auf de 58 94170 790088 2823430 überweisen, danke!", ["de 58 94170 790088 2823430"]),
        ("IBAN: DE 89 3704 0044 0532 0130 00", ["DE 89 3704 0044 0532 0130 00"]),
        ("prix de 58 94170 790088 2823431 euros", []),  # its check digits fail
        ("no 12 3456 7890 123", []),  # too short to be read so
        # A card's groups set apart by " / "
        ("Payment ref (customer typed it this way): 6011 / 7493 / 8644 / 8878", ["6011 / 7493 / 8644 / 8878"]),
        ("ratio 1024 / 2048 / 4096 / 8192", []),
        ("dates 2024 / 2025 / 2026 / 2027", []),
    ],
)
def test_numbers_set_apart_as_reviewer_f_wrote_them(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Pieces of a value that code joins: each covered, with the junction between them
        (
            'STRIPE_KEY = (\n    "sk_live_UQb4cfWS8v7vPUA"\n    "xXpaVRh5g"\n)\n',
            ['sk_live_UQb4cfWS8v7vPUA"\n    "xXpaVRh5g'],
        ),
        ('const awsKeyID = "AKIAGVPKAX" +\n\t"O5H556HLBP"', ['AKIAGVPKAX" +\n\t"O5H556HLBP']),
        ('String password = "Coba"\n        + "lt30.";', ['Coba"\n        + "lt30.']),
        ('export DB_PASSWORD="Cobal\\\nt366*"', ["Cobal\\\nt366*"]),
        ("the key is **AKIA3VBR**I56AI3XLTOTX (ask me for the secret half)", ["**AKIA3VBR**I56AI3XLTOTX"]),
        ('const KEY: &str = concat!(\n    "AKIAGVPKAX",\n    "O5H556HLBP"\n);', ['AKIAGVPKAX",\n    "O5H556HLBP']),
        # Ordinary code and markup with the same junctions
        ('msg = ("Enter your password: "\n       "at least 8 characters")', []),
        ('err = "Invalid token: " + "expired"', []),
        ('String sql = "SELECT id, name FROM users " +\n    "WHERE id = ? AND active = 1";', []),
        ('label = "sha256:" + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"', []),
        ('id = "550e8400-e29b-41d4-" + "a716-446655440000"', []),
        ("docker run -d \\\n  --name web \\\n  -p 8080:80 \\\n  nginx:1.25", []),
        ("**Note**: run the tests **before** merging; x = 2**10 + 3**4", []),
        ('keys = ["AKIAGVPKAX",\n        "O5H556HLBP"]', []),  # items of a list are separate values
        ('let s = concat!("a", "b"); let k = ["AKIAGVPKAX", "O5H556HLBP"];', []),
    ],
)
def test_a_value_in_pieces_that_code_joins_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values
