"""Forms from reviewer J's blind round (tests/data/pii_review_j.jsonl, taken as it came): values it
labels that were missed, each with the hard cases around it. Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("পাসওয়ার্ড: WYR1&I-is@yE@Bh9\nপ্রথম লগইনের পর", ["WYR1&I-is@yE@Bh9"]),  # Bengali
        ("ldap_default_authtok = cswe!4n@K*M+l*oT", ["cswe!4n@K*M+l*oT"]),  # SSSD's bind password
        ("Kundin nannte ihr bisheriges Passwort (Autumn2025#)", ["Autumn2025#"]),
        ("enter your password (case-sensitive) below", []),
        ("password (RFC-7617) and password (v2-only)", []),
        ("Read replica (auth via IAM, no password in URL): postgres://reporting@ledger-ro.local:5432/ledger", []),
        ("type Mutation {\n  login(username: String!, password: String!): AuthPayload!\n}", []),
        ("password: Summer2024!", ["Summer2024!"]),
    ],
)
def test_passwords_in_brackets_and_labels_of_bengali_and_sssd(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Applicant SSN: 308·84·5030 (typed with middle dots)", ["308·84·5030"]),
        ("<ns:MemberSSN>011176469</ns:MemberSSN>", ["011176469"]),
        ("<ns:MemberId>011176469</ns:MemberId>", []),
        ("the ATM keeps calling 183 dot 180 dot 74 dot 5 now", ["183 dot 180 dot 74 dot 5"]),
        (
            "use bot token xoxb-806735807625-2564455924105-**Og7tzDhPyZzYbnWtrEqVBCIx** (the bold part rotates)",
            ["xoxb-806735807625-2564455924105-**Og7tzDhPyZzYbnWtrEqVBCIx**"],
        ),
        ("a well-**known** fact", []),
        (
            "AUTHORIZATION: Basic OjMzN2dwc2NycTM0ajVjaXppM3VzaTdvMmxlcHN4eWVlc2xpN3NuMjd1Zm4yNGlidnphcWk=",
            ["OjMzN2dwc2NycTM0ajVjaXppM3VzaTdvMmxlcHN4eWVlc2xpN3NuMjd1Zm4yNGlidnphcWk="],
        ),  # ":<PAT>", no user
        ("Authorization: Basic Onh5eg==", []),  # ":xyz": no user and a short password
        ("moim osobistym tokenem PD u+S8PBi1ALC4bDSghLdE (unieważnić)", ["u+S8PBi1ALC4bDSghLdE"]),
    ],
)
def test_separators_and_markup_a_typist_puts_inside_a_value(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "bitte unter null eins fünf zwei sechs sechs neun sieben null zwei vier null zurückrufen",
            ["null eins fünf zwei sechs sechs neun sieben null zwei vier null"],
        ),
        (
            "« rappelez-moi au zéro six, zéro trois, huit un, neuf trois, cinq six, merci »",
            ["zéro six, zéro trois, huit un, neuf trois, cinq six"],
        ),
        ("rendez-vous au un deux", []),
    ],
)
def test_phones_read_out_after_where_to_call(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Words of other languages for "key" that are parts of other words, or name identifiers.
        ("公開鍵: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8xZq", []),  # a public key
        ("キーボード: 英字配列 (K835-TKL-SG8QW2D1)", []),  # a keyboard's model
        ("密钥版本 4bf92f3577b34da6a3ce929d0e0e4736", []),  # a key's version
        ("Nguyễn Đăng Khoa, MSSV N19DCCN123ABCXYZ", []),  # a name, then a student's number
        ("Anahtar kelimeler: kubernetes, docker, terraform1234567", []),  # "keywords"
        ("秘密鍵: Zq8vN2kT5wR9xL3mP7cY4bH6", ["Zq8vN2kT5wR9xL3mP7cY4bH6"]),
        # Brackets quote names and remarks as often as values.
        ("パスワード「Forgot password?」をクリック", []),
        ("パスワード「設定 > セキュリティ」", []),
        ("密码「SHA-256」", []),
        ("パスワード「https://example.test/reset2」", []),
        # A local part written in another script, ending in digits, is one value.
        ("Пишите: иван.петров85@почта.рф", ["иван.петров85@почта.рф"]),
        ("用户123@例子.广告", ["用户123@例子.广告"]),
    ],
)
def test_what_the_new_forms_must_leave_alone_or_take_whole(text: str, values: list[str]) -> None:
    assert found_values(text) == values


def test_a_run_is_judged_once_however_many_secret_words_stand_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "鍵鍵鍵... a1a1..." made every word judge the same 512-character run again (quadratic time)."""
    from securemem.pii import detect, secrets

    judged: list[str] = []
    real = secrets._is_high_entropy

    def counting(value: str) -> bool:
        judged.append(value)
        return real(value)

    monkeypatch.setattr(secrets, "_is_high_entropy", counting)
    detect("秘密鍵" * 48 + " " + "a1" * 256)
    assert len(judged) == 1


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ('<smtp from="noreply@claims-intake.test">', ["noreply@claims-intake.test"]),
        ('<network userName="ops@corp.internal" />', ["ops@corp.internal"]),
        ("preds = features@model.coef", []),  # a matrix product in an assignment
    ],
)
def test_addresses_at_names_reserved_for_tests_and_private_networks(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("รีเซ็ตแอปให้ด้วย รหัสผ่านชั่วคราว: Cobalt*9216 (ให้ลูกค้า", ["Cobalt*9216"]),  # "temporary password:"
        ("รหัสผ่านเซิร์ฟเวอร์สำรอง 5#5Ksk8%&ll6Hxw ติดต่อผู้ดูแลระบบ", ["5#5Ksk8%&ll6Hxw"]),  # reviewer I's
        ("รหัสผ่านต้องมีอย่างน้อย 8 ตัว", []),  # "the password must have at least 8 characters"
        ("รหัสผ่านถูกเปลี่ยนแล้ว เมื่อวาน", []),  # "the password was changed yesterday"
        ("รหัสผ่านใหม่ abcdefgh", []),  # a word, not shaped like a password
    ],
)
def test_a_thai_label_glued_to_the_words_after_it(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("  -H 'cookie: SESSIONID=C736C9C0AB0D344D6DA454A3F8639353; lang=en-US'", ["C736C9C0AB0D344D6DA454A3F8639353"]),
        (
            '{"name": "Cookie", "value": "mp_sess=o3Wtc92rPdhre1aJv-cUaoB6Hg5a0m1wrfBr7Kh2kSNe9TZz; theme=dark"}',
            ["o3Wtc92rPdhre1aJv-cUaoB6Hg5a0m1wrfBr7Kh2kSNe9TZz"],
        ),
        ("Set-Cookie: remember_token=abc; theme=dark", []),  # too short to be a session
        ("cookie: session_id=550e8400-e29b-41d4-a716-446655440000", []),  # a UUID names, it does not log in
        ("cookie: theme=o3Wtc92rPdhre1aJv-cUaoB6Hg5a0m1wrfBr7Kh2kSNe9TZz", []),  # not named for a session
    ],
)
def test_a_session_in_a_cookie(text: str, values: list[str]) -> None:
    assert found_values(text) == values
