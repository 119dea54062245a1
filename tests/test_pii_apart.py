"""Values written apart from what names them (the misses reviewers M, N and O left in their blind
rounds): a password in the next chat message, in brackets a few words after its label, after a
qualifier in brackets or before the colon that opens a key block; a tool's "config set KEY VALUE";
numbered seed words and backup codes sent in the next message; a phone under a column header in
another language, on a line its label names, or in text whose script names its country. Each case
lists exactly what is found: the ordinary lines beside them, nothing."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # The next message answers the question that names the password.
        (
            "[2024-12-24 09:16] Sam: what's the bastion password\n"
            "[2024-12-24 09:16] Tyler Okafor: 0I&Gul$uD2  (rotate after, pls)",
            ["0I&Gul$uD2"],
        ),
        ("Sam: wifi pw?\nAna: Guest#2024net", ["Guest#2024net"]),
        ("what's the bastion password\n\n0I&Gul$uD2", ["0I&Gul$uD2"]),  # after a blank line
        # A question that goes on after its label, and labels of other scripts.
        ("what is the password for the vpn?\nbob: Kx9#mQ2pZw", ["Kx9#mQ2pZw"]),
        ("пароль от wifi?\nИван: K9x!mQ2pZ", ["K9x!mQ2pZ"]),
        ("サーバーのパスワードは？\n田中: Kx9#mQ2pZw", ["Kx9#mQ2pZw"]),
        ("비밀번호 뭐예요?\n민수: 0I&Gul$uD2", ["0I&Gul$uD2"]),
        ("пароль (sudo) n0uI3mhB?XMc", ["n0uI3mhB?XMc"]),
        ("password reset done?\nyes: it works!x", []),
        # Not asked (a commit's subject, a heading, a ticket), or no password's symbol in the answer.
        ("a1b2c3d - Fix reset password\ne4f5a6b - Update readme", []),
        ("## Change password\nPROJ-1234  fix login form", []),
        ("[10:00] Ann: did you reset the password?\n[10:01] Bob: build42 - deploying now", []),
        ("Q: how do I change my password?\nA: Settings2 -> Security", []),
        ("Reset Password\r\nv1.2.3-rc1 (2024-05-01)", []),
        ("what's the wifi password?\nBob: no idea, ask IT", []),
        ("what's the wifi password?\nBob: checking", []),
        ("Reset your password:\nhttps://example.com/reset", []),
        ("# ~/.pgpass  hostname:port:database:username:password\nmq.internal:5432:billing:billing_rw:x\n", []),
        # In brackets a few words after its label: a password's own symbol, or both cases and a digit.
        ("> and the password you gave on the phone (glacier.meadow77#) didn't work.", ["glacier.meadow77#"]),
        ("Password rotation is tracked in (JIRA-4521) now", []),
        ("The password reset fails on the login page (issue#12345)", []),
        ("password hashing now uses a new backend (Argon2id)", []),
        ("Password reset uses `resetPasswordV2` now", []),
        ("The password field is validated by `validatePassword2()`", []),
        ("Change password (mobile) Android14 crashes", []),
        ("Password Argon2id:\n- memory 64MB", []),
        ("passphrase v2-format:\n", []),
        ("the password reset flow (see RFC-7617) is documented", []),
        # A qualifier in brackets between label and value; the value before the colon that opens a block.
        ("become password (sudo) n0uI3mhB?XMc.", ["n0uI3mhB?XMc"]),
        ("password (optional) must be set by the admin", []),
        (
            "Encrypted signing key, passphrase LedgerKey#2231:\n-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
            "MIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----",
            [
                "LedgerKey#2231",
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\n"
                "-----END ENCRYPTED PRIVATE KEY-----",
            ],
        ),
        ("Change the password policy:\nsee the wiki", []),
        # A tool's configuration set by name and value.
        (
            "$ aws configure set aws_secret_access_key i6qvsVRS0TIFM/tjsjv9zpw2U3bxs5KLypIbJpcy",
            ["i6qvsVRS0TIFM/tjsjv9zpw2U3bxs5KLypIbJpcy"],
        ),
        ("$ aws configure set region eu-west-1", []),
        ("git config set user.name robot-ci", []),
        # Seed words numbered without a space; backup codes in the next message, joined by "and".
        (
            "[scammer] send your recovery phrase\n[victim] ok here: 1.yellow 2.puzzle 3.blossom 4.hazard 5.rabbit "
            "6.velvet 7.trophy 8.potato 9.echo 10.ember 11.lava 12.mercy",
            [
                "1.yellow 2.puzzle 3.blossom 4.hazard 5.rabbit 6.velvet 7.trophy 8.potato 9.echo 10.ember 11.lava "
                "12.mercy"
            ],
        ),
        ("[scammer] thanks, also the 2FA backup codes\n[victim] 5634 1513 and 4053 6341\n", ["5634 1513", "4053 6341"]),
        ("we discussed recovery codes\nthen we went to lunch and ate 3 sandwiches", []),
        ("the recovery phrase\nis something to write down on paper and keep safe", []),
    ],
)
def test_secrets_apart_from_their_label(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # A column headed "phone" in Spanish; the number valid in Spain (not a configured region).
        (
            "Nombre\tApellidos\tTeléfono\tCorreo\nMarta\tGil Serrano\t699 41 27 08\tmarta@example.es\n",
            ["699 41 27 08", "marta@example.es"],
        ),
        ("Nombre\tPedido\tImporte\nMarta\t699 41 27 08\t12,00\n", []),  # an order number's column
        # The line's label names a phone: a second number after it is one too.
        ("Телефон для связи: +7 (916) 482-73-19, доп. 8 495 631-20-44", ["+7 (916) 482-73-19", "8 495 631-20-44"]),
        # Korean text: a Korean mobile written with its trunk prefix and separators.
        ("- 고객 문의 담당자 이수진 010-7741-2093", ["010-7741-2093"]),
        ("- 고객 문의 담당자 이수진 01077412093", []),  # bare digits need a word that says phone
        ("- Lee: 010-7741-2093 moved", []),  # in English text: no configured region holds it, nothing says phone
        # A fresh attacker's: a line's phone label alone makes no number a phone; a version, a tax id, an
        # article or an order number in those scripts is no phone.
        ("Mobile app release: build 3456-7890, PR 1234-5678", []),
        ("Phone hours: 09:00-17:00 Mon-Fri, ext 2024-1234", []),
        ("Версия 8.495.631.20.44", []),
        ("ИНН 8-495-631-20-44", []),
        ("Артикул 8-916-482-73-19", []),
        ("주문번호 010-1234-5678 배송 완료", []),
        ("订单号 010-12345678 已发货", []),
        # A line led by a country's code; a range is a phone where the text says phone.
        ("* TR — Elif Demir, 0501 758 55 93", ["0501 758 55 93"]),
        ("- BR: Camila, (11) 99022-3803", ["(11) 99022-3803"]),
        ("ID: 0501 758 55 93", []),
        ("Phone: 5551-5559", ["5551-5559"]),
        # Values split across a row's cells, named by its first cell; aligned columns.
        (
            "| IBAN | DE11 3704 0044 | 7414 5525 01 |\n| contact | +31 6 | 38160050 |",
            ["DE11 3704 0044 | 7414 5525 01", "+31 6 | 38160050"],
        ),
        ("| iban | DE89 3704 0044 0532 0130 00 | x |", ["DE89 3704 0044 0532 0130 00"]),
        (
            "      nombre           telefono\n578   Javier Moreno    670 46 16 70\n",
            ["670 46 16 70"],
        ),
        ('  password            = var.db_password\n  cidr_blocks         = ["10.40.0.0/16"]', []),
        # Dates in a phone's column; versions before an ellipsis.
        ("INSERT INTO stores (id, phone) VALUES (1, '2024-01-15');", []),
        ("v1.2...1.2.3.4", []),
        ("Downloading 1...2...3...4.5.6.7 done", []),
    ],
)
def test_phones_named_by_their_surroundings(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "- The onboarding guide needs another pass on the data model before the next sync.",
        "pass the values to __init__ and pass on errors",
        "pass: Xy12345!",
        "pass = hunter2Z!",
        'the pass is "violet-anchor-mango-71"',
        "pass was changed to Xy12345! yesterday",
        "one more pass\nXy12345!",
        "pass Xy12345!",
        "Router (pass): eP@1?YDCdG",
        "<pass>Xy12345!</pass>",
    ],
)
def test_pass_skipped_only_where_the_phrase_finds_nothing(text: str) -> None:
    """The phrase pattern is skipped at a "pass" only where, run there, it would find no password."""
    from securemem.pii.secrets import _PASSWORD_PHRASE, _pass_as_a_word, _phrase_password, _tagged_password

    lower = text.lower()
    at = lower.find("pass")
    while at != -1:
        if _pass_as_a_word(lower, at):
            match = _PASSWORD_PHRASE.match(lower, at)
            found = None
            if match is not None:
                found = _tagged_password(text, match) if match["tag"] is not None else _phrase_password(text, match)
            assert found is None
        at = lower.find("pass", at + 4)
