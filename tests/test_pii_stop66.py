"""Stop 66's readers: the last stop's known misses read where the form is general (a SIM's "PUK-код" with the card
named between it and the code; a seed phrase numbered "#1", "(1)", "[1]", "1 -" or with no mark; more systems'
"_pass" columns), each with the near forms that must stay as they were."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_SEED_24 = (
    "nuclear bean picture tennis also lamp crisp pig acid few bleak any snack retreat ask cotton mountain sick brand "
    "industry wheat vast wear margin"
)
_SEED_12 = "liar hurry puzzle few pig daring dice own wreck sun liquid canvas"


def _numbered(words: str, item: str, joint: str = " ") -> str:
    return joint.join(item.format(at=at, word=word) for at, word in enumerate(words.split(), start=1))


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # "PUK-код" and "of the SIM card" (Russian, Ukrainian) before the code's eight digits
        ("PUK-код SIM-карты: 84920175", ["84920175"]),
        ("Абоненту продиктовали PUK-код для SIM-карты 26470913, карту разблокировали.", ["26470913"]),
        ("PUK-код сім-картки не потрібен; PUK-код для SIM-карти: 55210934", ["55210934"]),
        ("PUK-код вашей SIM-карты: 8492 0175", ["8492 0175"]),
        ("ПУК-код від SIM-картки: 26470913", ["26470913"]),
        # a seed phrase numbered in other ways: twenty-four words with no wallet's word around them, twelve in a
        # text about one
        (f"Player's wallet: {_numbered(_SEED_24, '#{at} {word}')}", [_numbered(_SEED_24, "#{at} {word}")]),
        (f"Player's wallet: {_numbered(_SEED_24, '({at}) {word}')}", [_numbered(_SEED_24, "({at}) {word}")]),
        # ... twenty-four words with "1." or "1)" and no wallet named (reviewer CV's)
        (f"Player sent: {_numbered(_SEED_24, '{at}. {word}')}", [_numbered(_SEED_24, "{at}. {word}")]),
        (f"wallet seed:\n{_numbered(_SEED_12, '[{at}] {word}', chr(10))}",
         [_numbered(_SEED_12, "[{at}] {word}", "\n")]),
        (f"wallet seed:\n{_numbered(_SEED_12, '{at} - {word}', chr(10))}",
         [_numbered(_SEED_12, "{at} - {word}", "\n")]),
        (f"my wallet words {_numbered(_SEED_12, '{at} {word}')}", [_numbered(_SEED_12, "{at} {word}")]),
        # ... an example's word as part of another before it ("my greatest fear", "the latest update")
        (f"my greatest fear is losing my wallet: {_numbered(_SEED_12, '{at}. {word}')}",
         [_numbered(_SEED_12, "{at}. {word}")]),
        # ... counted, after "Word", quoted, in a markdown table, with pipes, slashes or blank lines between
        (f"wallet: {_numbered(_SEED_12, '{at}/12 {word}')}", [_numbered(_SEED_12, "{at}/12 {word}")]),
        (f"Metamask: {_numbered(_SEED_12, 'Word {at}: {word}')}", [_numbered(_SEED_12, "Word {at}: {word}")]),
        (f"My wallet showed: {_numbered(_SEED_12, 'Word {at} of 12: {word}')}",
         [_numbered(_SEED_12, "Word {at} of 12: {word}")]),
        ("wallet: " + _numbered(_SEED_12, '{at}) "{word}"'), [_numbered(_SEED_12, '{at}) "{word}"')]),
        (f"wallet:\n| # | word |\n|---|---|\n{_numbered(_SEED_12, '| {at} | {word} |', chr(10))}",
         [_numbered(_SEED_12, "| {at} | {word} |", "\n")]),
        (f"wallet: {_numbered(_SEED_12, '{at}. {word}', ' | ')}", [_numbered(_SEED_12, "{at}. {word}", " | ")]),
        (f"wallet:\n{_numbered(_SEED_12, '- {at}. {word}', chr(10) * 2)}",
         [_numbered(_SEED_12, "- {at}. {word}", "\n\n")]),
        (f"wallet: {_numbered(_SEED_12, '{at}.{word}', ' / ')}", [_numbered(_SEED_12, "{at}.{word}", " / ")]),
        # more systems' password columns named "<system>_pass", their cells random
        ("host,ldap_user,ldap_pass\ndc01,svc-sync,Hq7tLm2pZx9", ["Hq7tLm2pZx9"]),
        ("cam_id;rtsp_user;rtsp_pass\nC-12;viewer;Vw8rT2kqP5m", ["Vw8rT2kqP5m"]),
        ("rack,ipmi_user,ipmi_pass\nR4-U12,ADMIN,Ipm1#Rk4", ["Ipm1#Rk4"]),
        ("host,redis_pwd\ncache01,Jq3xN7vLk9", ["Jq3xN7vLk9"]),
        ("device,pass_mqtt\nsensor-7,Sn5r#Mq7", ["Sn5r#Mq7"]),
        ("router,snmp_passwd\nr01,k7v9q2m4x8", ["k7v9q2m4x8"]),
    ],
)  # fmt: skip
def test_a_value_in_these_forms_is_found(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    "text",
    [
        # "PUK-код" and the card before a helpline's short number, or before no number
        "PUK-код SIM-карты — 0500 с мобильного, звонок бесплатный.",
        "PUK-код SIM-карты можно узнать в личном кабинете или по номеру 0611.",
        # ... before a count, a date, or a table's cell (an attacker's round)
        "Итоги года: PUK-код SIM-карты — 12480000 просмотров за 2024 год.",
        "Статья\tДата\nPUK-код SIM-карты\t20240312",
        "Выдача PUK-кода SIM-карты\t40012233\t0 руб.",
        "PUK-код SIM-карты: 20240312",
        # numbered lists of the standard's words that are no phrase: titled, in the list's own order, twelve with no
        # wallet's word around them, a list of chores
        f"Vocabulary test answers: {_numbered(_SEED_24.title(), '#{at} {word}')}",
        "Wallet glossary: " + _numbered("abandon ability able about above absent absorb abstract absurd abuse access "
                                        "accident", "({at}) {word}"),
        f"Spelling list, week 3: {_numbered(_SEED_12, '#{at} {word}')}",
        "Chores: 1 wash 2 dry 3 fold 4 iron 5 sort 6 pack 7 load 8 ship 9 check 10 file 11 clean 12 close",
        # twenty-four words in a quiz's layouts with no wallet named; twelve in a text that speaks of a phrase, a
        # backup or a seed but names no wallet (an attacker's round); a heading that says it is an example
        f"Pictionary cards: {_numbered(_SEED_24, '{at}/24 {word}')}",
        f"Bingo:\n| # | word |\n|---|---|\n{_numbered(_SEED_24, '| {at} | {word} |', chr(10))}",
        f"Escribe una frase con cada palabra: {_numbered(_SEED_12, '| {at} | {word} |', chr(10))}",
        f"Seed order for the allotment: {_numbered(_SEED_12, '{at}/12 {word}')}",
        f"Example from the wallet's help page, never use it:\n{_numbered(_SEED_12, '{at}. {word}', chr(10))}",
        "Test vector 3, the wallet docs' table:\n\n| # | word |\n|---|---|\n"
        + _numbered(_SEED_12, "| {at} | {word} |", "\n"),
        f"Scavenger hunt sheet: {_numbered(_SEED_24, '{at}. {word}', ' | ')}",
        f"wallet quiz:\n| # | word |\n|---|---|\n{_numbered(_SEED_12.title(), '| {at} | {word} |', chr(10))}",
        f"Word of the day, wallet club: {_numbered(_SEED_12, 'Word {at}: {word}')[:60]}",
        "Week 1 plan - day 1 - run 2 km, day 2 - rest, 1 month later: 10 km",
        # a check's result under "<system>_pass": a word, a version, a count
        "node,ipmi_pass,bmc_pass\nr1,Green,TLS1.3",
        "job,redis_pass,redis_fail\nnightly,12,0",
        "site,ldap_pass,ldap_fail\ndc01,Passed,None",
        # ... a check's result beside a "fail" column, names joined with a digit, a password manager's entry
        "host\tssh_pass\tssh_fail\nweb01\tEd25519Only\tCBCCiphers",
        "shot,camera_pass,light_pass,status\nsh010,CamMainV3,KeyLightV2,approved",
        "route,svc_pass,price_eur\nR12,Zone2Monthly,48",
        "host,redis_pass,owner\ncache01,keepass:Infra/Redis01,platform",
    ],
)  # fmt: skip
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []
