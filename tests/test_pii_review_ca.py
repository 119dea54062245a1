"""Reviewer CA's blind round (informal and code-mixed chat as an assistant keeps it: WhatsApp, Telegram, Signal,
WeChat, LINE and KakaoTalk exports, SMS threads, transcribed voice notes, Hinglish, Spanglish, Taglish, Arabizi and
romanised Japanese): each form found missed or altered, as a general case, with the near forms that must stay as
they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # an account's number where the text names a cheque, or a bank whose name is two letters and "Bank"
        ("send rent to landlord, acct no 007369478424 , routing is on the cheque", "007369478424"),
        ("Abeg send am to my account number 0736470231 GTBank, name Chioma", "0736470231"),
        # Tagalog's "my" between the label and its colon
        ("BDO bank account number ko: 004219164708 , pakisend na lang", "004219164708"),
        # Japanese's "は" written in Latin letters after the label
        ("wifi no パスワード wa cYuhSC73h!0g desu", "cYuhSC73h!0g"),
    ],
)
def test_a_value_in_these_forms_is_found(text: str, value: str) -> None:
    assert value in found_values(text)


@pytest.mark.parametrize(
    "text",
    [
        # a PIN of one digit over and over: a default's or a joke's
        "el pin del locker es 0000 jajaja no, es broma, no tiene pin",
        "PIN 1111 is the factory default, change it",
        # "wa" after an English label; an account's number with no bank, cheque or routing named
        "the password wa reset yesterday",
        "acct no 007369478424 for the gym membership",
        "my account number 0736470231 at the library",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
