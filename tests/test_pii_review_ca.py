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
        # "wa" after an English label; an account's number with no bank, cheque or routing named
        "the password wa reset yesterday",
        "acct no 007369478424 for the gym membership",
        "my account number 0736470231 at the library",
        # (an attacker's round) a bill's cheque, a network's or a call centre's routing, "wa" after another language's
        # label (Swahili's "of", Indonesian's WhatsApp), a word of two letters and "bank", Tagalog's "namin" after a
        # label that names no bank
        "Please write your account number 850012345678 on the back of your cheque.",
        "call routing is configured per account number 7004412",
        "BGP routing on the edge router dropped; ticket for account number 55500123",
        "Password wa M-Pesa usimpe mtu yeyote",
        "lupa password WA Business2 gimana",
        "connected my wallet to DeBank; Binance account number 55532109",
        "PLDT account number namin: 0298765432, naka auto-debit sa bank",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_pin_of_one_digit_over_and_over_is_still_a_pin() -> None:
    # (an attacker's round: "2222", "0000" are among the PINs people really use; reviewer CA's joke stays altered)
    assert found_values("my ATM PIN 2222 pls dont share") == ["2222"]
    assert found_values("card PIN 8888 - nicht weitergeben") == ["8888"]
