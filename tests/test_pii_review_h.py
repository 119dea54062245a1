"""Forms from reviewer H's blind round (tests/data/pii_review_h.jsonl, taken as it came): values it
labels that were missed, each with the hard cases around it. Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("pawel kropka ocat małpa onet kropka pl", ["pawel kropka ocat małpa onet kropka pl"]),
        ("natasha82 собака mail точка ru", ["natasha82 собака mail точка ru"]),
        ("zsofi68 kukac freemail pont hu", ["zsofi68 kukac freemail pont hu"]),
        ("li 点 wei+rx 艾特 huaxin-baoxian 点 cn", ["li 点 wei+rx 艾特 huaxin-baoxian 点 cn"]),
        (
            "davide punto kfelf chiocciola assicura-nord punto it",
            ["davide punto kfelf chiocciola assicura-nord punto it"],
        ),
        ("A kutya pont olyan, mint a gazdája.", []),  # "pont" (just) and no domain: prose
    ],
)
def test_at_and_dot_spelt_in_more_languages(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("key: ghp&#95;G8E6EfF9C7i0fea9wn3LaMXo2bfLP4oZ6ctb", ["ghp&#95;G8E6EfF9C7i0fea9wn3LaMXo2bfLP4oZ6ctb"]),
        ("ssn 245\\u002d95\\u002d5371", ["245\\u002d95\\u002d5371"]),
        ("a &#127; b &#x7f; c &#126;", []),  # not a printable character, or one alone
    ],
)
def test_any_printable_character_escaped_in_html_or_json(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Dostęp do panelu: login apteka_krk, hasło: Marmot%9990mùaxuan", ["Marmot%9990mùaxuan"]),
        ("Tài khoản quản trị: admin_bt, mật khẩu: Leaj1980%rVfnj", ["Leaj1980%rVfnj"]),
        ("บัญชีระบบเคลม: claim_ops รหัสผ่าน: qNmSI3*x4%wVTKeVD4", ["qNmSI3*x4%wVTKeVD4"]),
        ("パスワードはP@ssw0rd#1です", ["P@ssw0rd#1"]),  # the sentence goes on in its own script
        ("पासवर्ड: रीसेट", []),
    ],
)
def test_passwords_keep_latin_letters_with_accents_and_more_labels(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Телефон: 8 (949) 486-62-83", ["8 (949) 486-62-83"]),  # a Russian trunk "8" written apart
        ("okres ubezpieczenia 01.01.2025-31.12.2025.", []),  # a period, not a phone
        ("WhatsApp \u200e+972\u200f-56-744-5786", ["\u200e+972\u200f-56-744-5786"]),  # the mark opening it goes too
        ("call \u2066+44 20 7946 0958\u2069 now", ["+44 20 7946 0958"]),  # an isolate stays paired
    ],
)
def test_trunks_periods_and_marks_before_a_phone(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "токен Discord-бота: ODU1OTI2NTY4NDYxNDA0MTE3OQ.KD2Xyb.NGYmlpEBm8xgONaNoVBxn19c7KHzk6D19Slx_u (скрыть)",
            ["ODU1OTI2NTY4NDYxNDA0MTE3OQ.KD2Xyb.NGYmlpEBm8xgONaNoVBxn19c7KHzk6D19Slx_u"],
        ),
        ("MTIzNDU2Nzg5MDEyMzQ1Njc4.Gx2Qa9", []),  # two parts only
    ],
)
def test_a_discord_bot_token(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("asked for a callback at (788) 339-9869 about the denied claim", ["(788) 339-9869"]),
        ("ring the pharmacy back re: prior auth, 422.846.8616", ["422.846.8616"]),
        # Not numbers anyone is reached at: a 555 number of the films, a 0 or 1 leading the exchange.
        ("Dial (555) 123-4567 in the demo", []),
        ("placeholder 000-000-0000", []),
        ("order 788-339-9869", []),  # a reference, said so
    ],
)
def test_a_north_american_shape_whose_area_code_is_not_in_service(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("הסיסמה היא Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),  # Hebrew, "the password is"
        ("סיסמה: Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),
        ("كلمة المرور: Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),  # Arabic
        ("رمز عبور: Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),  # Persian
        ("Kata sandi adalah Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),  # Indonesian
        ("kata laluan: Tr0ub4dor&3x", ["Tr0ub4dor&3x"]),  # Malay
        ("סיסמה חזקה היא חשובה", []),  # "a strong password is important": words, no password
    ],
)
def test_password_labels_in_hebrew_arabic_persian_indonesian_and_malay(text: str, values: list[str]) -> None:
    assert found_values(text) == values


_RANDOM = "KV1gtgi1pjOw2deV75EHpPj68yPUp9mT"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (f"[09:41] ops: הטוקן של ה-API של המעבדה הוא {_RANDOM} תשמור אותו אצלך", [_RANDOM]),
        (f"токен API лаборатории: {_RANDOM}", [_RANDOM]),
        (f"токен:{_RANDOM}", [_RANDOM]),  # glued to its colon
        (f"ラボのAPIトークンは {_RANDOM} です", [_RANDOM]),  # glued to "API"
        (f"APIキー：{_RANDOM}", [_RANDOM]),
        (f"API 키: {_RANDOM}", [_RANDOM]),
        (f"密钥是{_RANDOM}", [_RANDOM]),
        (f"la clave de la API es {_RANDOM}", [_RANDOM]),
        (f"mã khóa bí mật {_RANDOM}", [_RANDOM]),
        ("punto clave: commit 01d73aa30f9fc4e0babbd8c1a762e8223264e496", []),  # an identifier after the word
        ("ключевой момент: sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", []),
        ("キーボードの型番 KBD-2024-JP-104-BLACK-USB", []),  # a word with one digit run, not random
        (f"the value {_RANDOM} alone", []),  # no secret word near it
    ],
)
def test_random_values_after_secret_words_of_other_languages(text: str, values: list[str]) -> None:
    assert found_values(text) == values
