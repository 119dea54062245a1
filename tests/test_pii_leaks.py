"""Values that were stored in clear, each beside the ordinary text that resembles it and must stay.

Each positive is the exact list of values found in its text (so a finding that takes too much, or
too little, fails as a miss does); each negative is text in which nothing is found.
"""

from __future__ import annotations

import pytest

from securemem.pii import detect
from tests.helpers import found_values

# ---------------------------------------------------------------- a password that holds brackets


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("password: Tr0ub4dor&3()", ["Tr0ub4dor&3()"]),  # no name of code calls
        ("PASSWORD=Abc(123)", ["Abc(123)"]),  # a capitalised word given digits alone
        ("password: Summer(2024)!", ["Summer(2024)!"]),
        ("pwd = x9(K!z)", ["x9(K!z)"]),  # "!" between letters is no argument of code
        ('pwd = "x9(K!z)"', ["x9(K!z)"]),
        ("contraseña: Abc(123)", ["Abc(123)"]),  # after a label of another language
        ("mot de passe : Summer(2024)", ["Summer(2024)"]),
        ("password = Abc(123);", ["Abc(123)"]),
        ("password: Xk9(a;P2|wQ", ["Xk9(a;P2|wQ"]),  # an opening bracket alone
    ],
)
def test_a_password_written_like_a_call_is_found_whole(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "password = get_password()",
        'password=os.getenv("X")',
        "password: str = field(default=...)",
        "password = hash_pw(raw)",
        "password = gen(12)",
        "password = str(123)",
        "password = secrets.token_hex(16)",
        "password = generate_password(16)",
        "password = Password(16)",  # a capitalised name of code
        "password = Random(42)",
        "password: Number(1234),",  # a constructor
        "password = Decimal(10)",
        "password = Some(42)",
        "password = Array(16).fill(0)",  # called further
        "password := GenerateRandomString(16)",
        "password = Fernet(key).decrypt(token)",
        "password = os.environ['DB_PASSWORD']",
        "password = params[:password]",
        "password = pwds[0]",
        'pw = $("#pw").val()',
        'password = getpass("Enter password #1: ")',  # "#" and brackets inside a string
        'password = input("Password (hidden): ")',
        "password = get_pw(user)  # TODO: rotate",
        'password: Yup.string().min(8, "Too short!"),',
        "let password = rpassword::read_password()?;",  # "::" read as a key's ":"
        'let password = std::env::var("PW").unwrap();',
        "password = connect(",  # its arguments on the next lines
        "password = foo(a, b",
        "Passwort: get_pw(user)",
        "A python value that is valid to pass to .set()",  # a method named in a docstring
    ],
)
def test_code_that_calls_for_a_password_stays(text: str) -> None:
    assert found_values(text) == []


# ---------------------------------------------------------------- a password shaped like an identifier


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("[20:50] Chloe: contraseña = dragon.soleil50", ["dragon.soleil50"]),  # reviewer E
        ("password = dragon.soleil50", ["dragon.soleil50"]),
        ("Passwort: sonne.mond42", ["sonne.mond42"]),
        # After a label of another language as after "password": the same identifier-shaped passwords.
        ("Passwort: HUNTER_2024", ["HUNTER_2024"]),
        ("mot de passe: ROOT_ADMIN_77", ["ROOT_ADMIN_77"]),
        ("contraseña: correct_horse_battery_staple", ["correct_horse_battery_staple"]),
        ("Passwort: Welcome.Home1", ["Welcome.Home1"]),
    ],
)
def test_a_password_shaped_like_an_identifier_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "contraseña = os.environ",
        "contraseña = cfg.db_password",
        "password = config.db2",
        "password = settings.pw1",
        "password = np.float64",
        "password = torch.float16",  # a type's name
        "password = creds.prod2",
        "password = secrets.token16",
        "password = user.password2",
        "password = row.col3",  # short words: a table's names
        "password = m.group1",
        "senha = app.config.smtp2",
        "senha = process.env.SENHA",
        "Passwort: DEFAULT_PASSWORD",
        "Passwort: ADMIN_USER",
        "Kennwort = config.kennwort",
        # Code written in the label's language: its words for password, user, key, new and old.
        "mot de passe: motDePasse",
        "Passwort: neuesPasswort",
        "Passwort: benutzer.passwort1",
        "contraseña = usuario.clave2",
        "parola: cuvant.cheie12",  # "parola" is a word too: only a value shaped like a password
        "contraseña = dragon.soleil50 + suffix",  # more code on its line
    ],
)
def test_identifiers_of_code_after_a_password_label_stay(text: str) -> None:
    assert found_values(text) == []


# ---------------------------------------------------------------- values glued one to the next


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("+14155552671-+442079460958", ["+14155552671", "+442079460958"]),
        ("+14155552671.+442079460958", ["+14155552671", "+442079460958"]),
        ("+14155552671_+442079460958", ["+14155552671", "+442079460958"]),
        ("+14155552671/+442079460958", ["+14155552671", "+442079460958"]),
        ("call +1 415 555 2671-+44 20 7946 0958", ["+1 415 555 2671", "+44 20 7946 0958"]),
        (
            "+14155552671-+442079460958-+4915112345678_+33612345678",
            ["+14155552671", "+442079460958", "+4915112345678", "+33612345678"],
        ),
    ],
)
def test_phones_glued_to_each_other_are_each_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    ["v1.2-+3", "build 2024-+1", "x = 10_+5", "a 12345678-+15", "id_12345678_+x", "offset 1234567.+89"],
)
def test_numbers_glued_to_a_plus_that_opens_no_phone_stay(text: str) -> None:
    assert found_values(text) == []


# ---------------------------------------------------------------- a phone at a line's end, a date after it


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("+1 415 555\n2024-01-02 meeting", []),  # no phone whole on its line, and the date stays
        ("+1 415 555\n2024/01/02", []),
        ("+1 415 555\n2024.01.02 release", []),
        ("+1 415 555\n12:30 call", []),
        ("+1 415 555\n2671-2024", []),  # a range's head
        ("+1 415 555 2671\n2024-01-02 meeting", ["+1 415 555 2671"]),
        ("call +44 20 7946 0958\n2024-05-01: follow-up", ["+44 20 7946 0958"]),
        ("+1 415 555\n2024-01-02 meeting\n+1 702 873\n0897", ["+1 702 873\n0897"]),  # a wrapped phone still joins
        ("+1 702 873\n0897.", ["+1 702 873\n0897"]),
    ],
)
def test_a_phone_at_a_lines_end_is_not_joined_with_a_date_on_the_next(text: str, values: list[str]) -> None:
    assert found_values(text) == values


# ---------------------------------------------------------------- a number that answers a question for a phone


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (  # reviewer E's blind round
            "Conseiller : Pouvez-vous confirmer votre numéro ?\nClient : Oui, c'est le 0610363310. Merci.",
            ["0610363310"],
        ),
        ("Agent: Can I have your phone number please?\nCustomer: sure, 4155552671", ["4155552671"]),
        ("Agent: what's the best number to call, your mobile?\nCaller: it is 4155552671", ["4155552671"]),
    ],
)
def test_a_number_answering_a_question_for_a_phone_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "Agent: Can I have your order number please?\nCustomer: sure, 4155552671",
        "Agent: and your account number?\nCustomer: 4155552671",
        "How many rows did the export write?\nIt wrote 4155552671",
        "Can I have your phone number please?\nWe shipped your order 4155552671 today",  # another number
        "Can I have your phone number please?\nThe build that failed in the main pipeline yesterday was 4155552671",
    ],
)
def test_a_number_after_another_question_stays(text: str) -> None:
    assert found_values(text) == []


# ---------------------------------------------------------------- an Azure SAS token, whole

_SIG = "sig=PvSgyJ6V0uwE7PLEPet1x0TebdayJh2SXZOg0c4A5g9%3D"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (  # reviewer E's blind round labels the query whole
            f"share it: https://stexports01.blob.core.windows.net/q2/report.csv?sv=2022-11-02&ss=b&srt=sco&sp=rl"
            f"&se=2025-01-01T00:00:00Z&{_SIG}",
            [f"sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2025-01-01T00:00:00Z&{_SIG}"],
        ),
        (  # SAS fields after the signature too, and other parameters left
            f"https://a.blob.core.windows.net/c/b.txt?sp=r&st=2024-01-01T00:00:00Z&spr=https&sv=2022-11-02&sr=b"
            f"&{_SIG}&rscd=attachment&page=2",
            [f"sp=r&st=2024-01-01T00:00:00Z&spr=https&sv=2022-11-02&sr=b&{_SIG}&rscd=attachment"],
        ),
        (
            f"BlobEndpoint=https://x.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&{_SIG}",
            [f"sv=2022-11-02&ss=b&{_SIG}"],
        ),
        (f"https://x.example.com/file?foo=bar&{_SIG}&page=2", [_SIG[4:]]),  # no SAS field: the signature
        (f"https://x.example.com/file?{_SIG}", [_SIG[4:]]),
    ],
)
def test_an_azure_sas_token_is_found_whole(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "Use ?sv=2022-11-02&se=2025-01-01&sp=r&spr=https for a read-only link (the portal adds the sig)",
        "GET /files?sv=1&sp=2&sig=short",
    ],
)
def test_sas_fields_without_a_signature_stay(text: str) -> None:
    assert found_values(text) == []


# ---------------------------------------------------------------- a long token on the line after its key

_SENTRY = (
    "sntrys_eyJpYXQiOHE8uCaQkBOnvTFPh5LEdyeObXnl4QnVB9GKQMo22DRZ0zjqxeLqbFZfenkZSkQGHefgUQb4cfWS8v7vPUAxXpaVRh5gu"
    "iK7sJmqUsc9JCVGpftQ5zKoh2i9F"
)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (  # reviewer E's blind round: a token of Sentry's prefix, not in its format (no "_" and secret part)
            f"dotfiles audit: found `sntrys…` style secret in ~/.config/cli/credentials:\n  {_SENTRY}",
            [_SENTRY],
        ),
        (f"api_token:\n  {_SENTRY[7:]}\nregion: eu", [_SENTRY[7:]]),
    ],
)
def test_a_long_token_on_the_line_after_its_key_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "credentials:\n  see the team vault for the current ones, rotated every ninety days by the platform group",
        "token:\n  " + "a" * 200,
        "secret:\n  " + "-" * 160,
    ],
)
def test_a_long_line_after_a_key_that_is_no_token_stays(text: str) -> None:
    assert found_values(text) == []


# ---------------------------------------------------------------- cards glued to each other, or among groups

_VISA, _MC = "4111111111111111", "5555555555554444"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (f"{_VISA}-{_MC}", [_VISA, _MC]),
        (f"{_VISA}.{_MC}", [_VISA, _MC]),  # no decimal
        (f"{_VISA}_{_MC}", [_VISA, _MC]),
        ("4111-1111-1111-1111-5555-5555-5555-4444", ["4111-1111-1111-1111", "5555-5555-5555-4444"]),
        ("4111.1111.1111.1111.5555.5555.5555.4444", ["4111.1111.1111.1111", "5555.5555.5555.4444"]),
        ("4111_1111_1111_1111_5555_5555_5555_4444", ["4111_1111_1111_1111", "5555_5555_5555_4444"]),
        ("4111 1111 1111 1111 5555 5555 5555 4444", ["4111 1111 1111 1111", "5555 5555 5555 4444"]),
        ("1234 5678 4111 1111 1111 1111 9999 0000", ["4111 1111 1111 1111"]),  # among other groups
        ("ref 9999 4111 1111 1111 1111 0000 then", ["4111 1111 1111 1111"]),
        ("0000-0000-5555-5555-5555-4444-1234-5678", ["5555-5555-5555-4444"]),
    ],
)
def test_cards_glued_to_each_other_or_among_groups_are_each_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


def test_a_run_of_150_cards_joined_by_dashes_is_found_card_by_card() -> None:
    cards = [_VISA, _MC, "378282246310005", "6011111111111117", "3530111333300000"] * 30
    text = "dump: " + "-".join(cards) + " end"
    assert found_values(text) == cards
    assert [f.type for f in detect(text)] == ["CREDIT_CARD"] * 150


def test_cards_run_together_by_spaces_are_found_in_one_pass() -> None:
    text = " ".join(["4111 1111 1111 1111"] * 20)
    assert found_values(text) == ["4111 1111 1111 1111"] * 20


@pytest.mark.parametrize(
    "text",
    [
        "1234 4144 3960 4589 4590",  # five groups: one code of 20 digits (a prepaid meter's token)
        "serial 1234 5678 4111 1111 1111 1111 9999 0000",  # named as one code
        "license key 4111-1111-1111-1111-5555-5555-5555-4444",
        # Named as numbers of another kind: the name speaks for each number of the run.
        "order ids: 4111111111111111-5555555555554444-4012888888881881",
        "transaction 4111-1111-1111-1111-5555-5555-5555-4444",
        "12345678-1234-1234-1234-123456789012",  # a UUID's shape
        "1718236123456789012-1718236123456789999",  # nanosecond timestamps (no card starts with 1)
        "trace 1234567890123456789-9876543210987654321",
        "Years: 2019 2020 2021 2022 2023 2024 2025",
        "ports 4000 4001 4002 4003 4004 4005",  # one list's sorted numbers
        "EXPOSE 5432 5433 5434 5435 5436 5437",
        "1024 2048 4096 8192 16384 32768",
        "0000 0000 0000 0000 0000 0000 0000 0000",
        "00000040: 0000 0000 4000 0000 0000 0000 0000 0000  ........@.......",  # a hex dump
        "build 10.0.19041.1 and 2024.01.02.1234",
        "pi 3.14159265358979 and e 2.718281828459045",
        "4111111111111111-12",  # a card and a short number: not a run of cards
    ],
)
def test_long_runs_of_digits_that_hold_no_card_stay(text: str) -> None:
    assert found_values(text) == []


def test_the_account_part_of_an_iban_is_no_run_of_cards() -> None:
    text = "PL61 4111 1111 1111 1111 1981 2874"  # its check digits wrong: no IBAN either
    assert found_values(text) == []
