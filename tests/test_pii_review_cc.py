"""Reviewer CC's blind round (customer operations in telecom, utilities, travel and retail as an agent keeps them:
handoffs, SIM-swap and porting cases, SMS and payment logs, chat exports, integrations' configuration, 20 languages):
each form found missed or altered, as a general case, with the near forms that must stay as they were."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from securemem import SecureMemory
from tests.helpers import found_values, ok


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a card or an IBAN sent over several chat messages, each message's digits one piece
        (
            "[14:01] bot: Please don't share full card numbers here.\n[14:02] guest: 4942\n[14:02] guest: 135117\n"
            "[14:03] guest: 559028\n[14:03] guest: exp 12/31",
            ["4942", "135117", "559028"],
        ),
        (
            "[10:02] customer: ok first part 5123 9228\n[10:02] customer: and the rest 0528 5182\n"
            "[10:03] agent: please don't send card details in chat",
            ["5123 9228", "0528 5182"],
        ),
        ("[09:14] klant: iban is NL95 SNSB\n[09:14] klant: 4928 4961 83", ["NL95 SNSB", "4928 4961 83"]),
        (
            "SMS 1: per il rimborso ecco l'IBAN prima parte IT89 L030 1527 576\n"
            "SMS 2: seconda parte 2063 6216 4271 grazie",
            ["IT89 L030 1527 576", "2063 6216 4271"],
        ),
        # a card's parts in a list under a key that names the card
        (
            '{"order": "A-234818", "pan_parts": ["6497", "2334", "6611", "0784"], "exp": "03/28"}',
            ['6497", "2334", "6611", "0784'],
        ),
        ('{"card_number_parts": ["6497", "2334", "6611", "0784"]}', ['6497", "2334", "6611", "0784']),
        # digits spelt in Tagalog, Swahili and Korean
        (
            "Ang number ko po ay sero nuwebe uno nuwebe, uno nuwebe dos, dos nuwebe sero kuwatro",
            ["sero nuwebe uno nuwebe, uno nuwebe dos, dos nuwebe sero kuwatro"],
        ),
        (
            "namba yangu ni sifuri saba tatu nane, sita nne mbili, mbili tatu sita, nipigie",
            ["sifuri saba tatu nane, sita nne mbili, mbili tatu sita"],
        ),
        ('연락처는 공일공 이사육육 구칠사일 이에요', ["공일공 이사육육 구칠사일"]),
        # a code read out as words after "as"; an SMS's code from any sender, told not to be shared
        (
            'the caller read out the verification code as "three eight six one three eight"',
            ["three eight six one three eight"],
        ),
        ("body=\"Your Fibernet Nord code is 906978. Don't share it.\"", ["906978"]),
        ("Your Acme Bank verification code is 482 913. It expires in 10 minutes.", ["482 913"]),
        # a one-time code's label with who read it before the colon, a remark after; Arabic's "that reached me is"
        ("Mã OTP khách đọc qua điện thoại: 503740 (đã hết hạn)", ["503740"]),
        ("رسالة العميل: رمز التحقق الذي وصلني هو ٧٨٠٧٠٠", ["٧٨٠٧٠٠"]),
        # a card's security code named only "code" right after the card
        ("Can you put it on my other card? It's 4909 5249 0316 0664, code 154.", ["4909 5249 0316 0664", "154"]),
        ("my card: 4909 5249 0316 0664, exp 12/27, code 154.", ["154"]),
        # Swahili's account label
        ("Benki: Equity Bank Kenya\nNamba ya akaunti: 0114885666050", ["0114885666050"]),
        # a password that starts with "?"
        ("Router admin login: admin / password ?Y4#3BMDo&gi**ST", ["?Y4#3BMDo&gi**ST"]),
        # a user and a password in base64, named as credentials
        (
            "carrier portal basic-auth creds, base64'd: YWdlbnQ5NjU6X0RwUVhPeTdBMU4tdg==",
            ["YWdlbnQ5NjU6X0RwUVhPeTdBMU4tdg=="],
        ),
        # a literal that ends in a blank, joined to the next by "+"
        (
            'auth_hdr = "Bea" + "rer " + "IBE-mJJfn6KkpF4TF" + "J6uFxpYC94xwP2TbZlfvRzb"',
            ['IBE-mJJfn6KkpF4TF" + "J6uFxpYC94xwP2TbZlfvRzb'],
        ),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    found = found_values(text)
    assert all(value in found for value in values), found


@pytest.mark.parametrize(
    "text",
    [
        # numbers side by side in a chat that are no card's or IBAN's pieces, a list of parts no card's key names
        "[10:01] ops: batch 4821\n[10:02] ops: 339412 557390\n[10:03] ops: done",
        '{"sku_parts": ["4030", "4040", "1234", "5678"]}',
        # Korean words of digit syllables that are no number
        "오늘 이사 일정 공유: 삼일 오후",
        # a code that is a postcode, a code valid for something that is not minutes
        "Your zip code is 94107. It is valid for shipping.",
        # words ranked "as" a list
        "We ranked them as one, three, five, seven.",
        # a query's parameter after a token's key
        "token=?format=json",
        # a Stripe card's token (an identifier the integration keeps instead of the card)
        "Cards: store the token (tok_Amfk23jnpwWEKJ), never the PAN.",
        # base64 of a host and a port, not of credentials; a GitHub node's id beside a login
        "login config: aG9zdDo4MDgw",
        '{"data":{"viewer":{"login":"octocat","repository":{"id":"MDEwOlJlcG9zaXRvcnkxMjk2MjY5"}}}}',
        # a list's labels and their numbers under a card's word, a list of parts no card's record holds
        "Gift card inventory by store\nBerlin: 4100\nHamburg: 2200\nMunich: 3500\nCologne: 1804\n",
        'card_segments: ["4111", "2024", "0315", "0006"]  # UI animation durations',
        # a transaction's status code after its number, a promo code shared on purpose, a commit after a backup's word
        "txn 5500120008009441, code 404.",
        "Your promo code is 5050. Valid for 48 hours only!",
        "Recovery codes regression fixed in commit: 4e8a1f2c",
        # a Korean name and words of digit syllables, an order's number spelt in Swahili
        "철수와 영이 사오일 사이사이 놀러 왔다",
        "Namba ya tiketi yako ni sifuri saba tatu nane moja mbili nne tano sita saba.",
        # a short code and an extension after a one-time code's label
        "OTP caller number: 56161 (SMS short code)",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


def test_a_count_after_a_card_and_code_is_no_security_code() -> None:
    assert found_values("Scan 4909524903160664 code 154 units") == ["4909524903160664"]


@pytest.mark.parametrize(
    "text",
    [
        "[10:01] Alice: my card number is 4012\n[10:01] Alice: 8888\n[10:02] Alice: 8888\n[10:02] Alice: 1881\n",
        "SMS 1: my card is 4012 8888\nSMS 2: 8888 1881",
        "my credit card, first half 40128888, second half 88881881",
    ],
)
def test_a_card_stored_in_pieces_is_masked_whole(tmp_path: Path, text: str) -> None:
    # The regulated policy masks cards to their last four: each piece masked to its own last four showed the card
    # whole, piece by piece, and each placeholder was read again as a piece, 23 placeholders deep (an attacker's round).
    with SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy="regulated") as memory:
        ok(memory, command="create", path="/memories/chat.md", file_text=text)
        shown = ok(memory, command="view", path="/memories/chat.md")
    assert "[CREDIT_CARD ****]" in shown
    assert not any(piece in shown for piece in ("4012", "8888", "1881"))
    assert "[CREDIT_CARD ****[" not in shown
