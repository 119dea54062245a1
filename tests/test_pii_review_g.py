"""Forms from reviewer G's blind round (tests/data/pii_review_g.jsonl, taken as it came): values it
labels that were missed, each with the hard cases around it. Each case lists exactly what is found."""

from __future__ import annotations

import pytest

from tests.helpers import found_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # Japanese writes no space between words: a card glued to kana is not glued to a word.
        (
            "カード番号は４６２１\u3000３６８２\u3000４５４４\u3000１８５４、有効期限は０３／３０です。",
            ["４６２１\u3000３６８２\u3000４５４４\u3000１８５４"],
        ),
        ("카드 번호는4621 3682 4544 1854입니다", ["4621 3682 4544 1854"]),
        ("id4621 3682 4544 1854", []),  # glued to a Latin word: an identifier
    ],
)
def test_a_card_glued_to_a_spaceless_script(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "$ redis-cli -h 83.89.101.251 -p 6379 -a 'Marmalade!basilisk65' --no-auth-warning INFO",
            ["83.89.101.251", "Marmalade!basilisk65"],
        ),
        ("sshpass -p 'Tr0ub4dor&3' ssh admin@bastion", ["Tr0ub4dor&3"]),
        ("redis-cli -p 6379 ping | grep -a PONG", []),
        ("docker run -p 8080:80 -a stdout nginx", []),
    ],
)
def test_every_option_of_a_command_is_read(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("$ vault login hvs._QYBGf2GJFF8RHzkdTsCdTOP", ["hvs._QYBGf2GJFF8RHzkdTsCdTOP"]),
        (
            "export DOPPLER_TOKEN=dp.st.prd.XJTHmAxU3tQc8ICB7grJ64YDcJS5k5gCHSb8sGQyFsv",
            ["dp.st.prd.XJTHmAxU3tQc8ICB7grJ64YDcJS5k5gCHSb8sGQyFsv"],
        ),
        ("see hvs.short", []),
    ],
)
def test_short_vault_and_config_named_doppler_tokens(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "GET /unsubscribe?email=camille_girard%40laposte.net&phone=%2B34966280112&utm_source=x",
            ["camille_girard%40laposte.net", "%2B34966280112"],
        ),
        ("<span>s&#46;vogel&commat;gmx&#46;de</span>", ["s&#46;vogel&commat;gmx&#46;de"]),
        ("<span>ana&#x40;example.org</span> or &#43;44 20 7946 0958", ["ana&#x40;example.org", "&#43;44 20 7946 0958"]),
        (
            '{"contact": "nakamura.hina\\u0040gmail.com", "phone": "\\u002b39 380 092 9377"}',
            ["nakamura.hina\\u0040gmail.com", "\\u002b39 380 092 9377"],
        ),
        (
            '"{\\"email\\":\\"lotte60@gmail.com\\",\\"password\\":\\"Snowdrop632_\\"}"',
            ["lotte60@gmail.com", "Snowdrop632_"],
        ),
        ('<a href="tel:%2B46798771881">Call us</a>', ["%2B46798771881"]),
        # Escapes of other characters, and the same characters where they are no escape, stay as they are.
        ("discount 40%40 off, 100%2e5 and a&amp;b &#64; c", []),
        ('mail "jane\\"doe"@example.com', ['"jane\\"doe"@example.com']),
    ],
)
def test_escaped_punctuation_is_read_as_what_it_stands_for(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            '<wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0'
            '#PasswordText">Marmalade_wombat55</wsse:Password>',
            ["Marmalade_wombat55"],
        ),
        (
            "SECRET_KEY = 'django-insecure-=+h36-fabqyh)k%6#gv2h+$7)y5fsgijn!0yz%l4dedhc#5w52'",
            ["django-insecure-=+h36-fabqyh)k%6#gv2h+$7)y5fsgijn!0yz%l4dedhc#5w52"],
        ),
        (
            '  "private_key_id": "14dfbb33fffa544469126c4e9a9d38f380c9886e",',
            ["14dfbb33fffa544469126c4e9a9d38f380c9886e"],
        ),
        ('  "private_key_id": "key-1",', []),
    ],
)
def test_ws_security_passwords_django_keys_and_service_account_key_ids(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "ok so my number is four one four, seven zero one, eight zero seven zero — text me",
            ["four one four, seven zero one, eight zero seven zero"],
        ),
        (
            "mi número: seis tres cero ocho cinco cinco nueve ocho cuatro",
            ["seis tres cero ocho cinco cinco nueve ocho cuatro"],
        ),
        ("Phone: oh seven seven oh oh nine oh oh one two three", ["oh seven seven oh oh nine oh oh one two three"]),
        # Counting, or too few digits, or no word naming a phone before them: left alone.
        ("one two three four five six seven eight", []),
        ("call me at four one four five", []),
        ("the steps are one, two, three, four, five, six and seven", []),
    ],
)
def test_a_phone_number_spelt_out_in_words(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Cep: 0 (505) 593 90 81\nE-posta: x", ["0 (505) 593 90 81"]),
        ("Room 10 (505) 593 9081", ["(505) 593 9081"]),  # a number before it, not a trunk
    ],
)
def test_a_trunk_zero_written_apart_goes_with_the_number(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("واتساب فقط: ۰۰۹۶۶۵۴۳۴۸۱۹۲۷ — لا ترسل", ["۰۰۹۶۶۵۴۳۴۸۱۹۲۷"]),  # "WhatsApp only:", Persian digits
        ("رقم الطلب: 00966543481927", []),  # "order number:": a reference
    ],
)
def test_arabic_words_that_name_a_phone(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "- C2: hxxp://199[dot]53[dot]107[dot]168:443/gate.php\n- 31[.]155.119.24\n",
            ["199[dot]53[dot]107[dot]168", "31[.]155.119.24"],
        ),
        (
            "blocked src 2a00[:]1450[:]69b5[:]e0ae[:]c7f6[:]2b98[:]55a[:]f639 (from",
            ["2a00[:]1450[:]69b5[:]e0ae[:]c7f6[:]2b98[:]55a[:]f639"],
        ),
        ("items[.]length and a[:] slice, regex [a-z]\\-[0-9]", []),
        ("- [ ] Laptop: temp login pw `walnut-meadow-marble-57` (force change)", ["walnut-meadow-marble-57"]),
        ("callers must always pass `organization_id`.", []),  # "pass" the verb, a name of code
        ("Όνομα χρήστη: alexandros06 / Κωδικός: Olympiakos2021! – still", ["Olympiakos2021!"]),
        ("ο προσωρινός κωδικός για το VPN είναι M4pl3$34", ["M4pl3$34"]),
        ("κωδικός προϊόντος: AB-1234", []),  # a product's code
    ],
)
def test_defanged_addresses_markdown_code_and_greek_labels(text: str, values: list[str]) -> None:
    assert found_values(text) == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("ΚΩΔΙΚΟΣ: Olympiakos2021!", ["Olympiakos2021!"]),  # capitals, written without accents
        ("ПАРОЛЬ: Olympiakos2021!", ["Olympiakos2021!"]),
        ("jane [dot] doe [at] example [dot] com", ["jane [dot] doe [at] example [dot] com"]),
    ],
)
def test_labels_in_capitals_and_spaced_defanged_addresses(text: str, values: list[str]) -> None:
    assert found_values(text) == values
