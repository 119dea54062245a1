"""What probes found: values generated in many shapes, put in many labels and syntaxes, and checked found whole.

- Secrets under the snake-case names OAuth 1, sessions, webhooks and bots give them, in the syntaxes where only the
  name says secret (an XML element, a tab-separated line, "set ... to"): missed where "client_secret" and
  "access_token" were found.
- An SSN's groups set apart by slashes after more of its labels (a key's quotes, "(SSN)", "SS#", "my social is").
- An address whose "@" is a word glued between hyphens or underscores, after a mail's word.
- A password after "p/w" or "pass-phrase".

Each with the near forms that must stay."""

from __future__ import annotations

import pytest

from tests.helpers import found_values

_NAMES = ("consumer_secret", "session_secret", "private_token", "webhook_secret", "signing_secret", "bot_token")
_VALUES = ("g3TiWfoDvhu1WjkcQFrG", "e046ee2503dfeb12a39f588707285134", "Fy0fWw8i3ZsTlDZHptQPNFE7MIgkPm6iPF2OCLcSmWoE")
_FORMS = ("<{k}>{v}</{k}>", "set {k} to {v}", "{k}\t{v}")


@pytest.mark.parametrize("name", _NAMES)
@pytest.mark.parametrize("value", _VALUES)
@pytest.mark.parametrize("form", _FORMS)
def test_a_secret_under_these_names_is_found(name: str, value: str, form: str) -> None:
    assert found_values(form.format(k=name, v=value)) == [value]


@pytest.mark.parametrize(
    "text",
    [
        # a name glued to a word that says nothing of a secret, or values no secret's
        "<cache_token>g3TiWfoDvhu1WjkcQFrG</cache_token>",
        "set page_token to e046ee2503dfeb12a39f588707285134",
        "session_secret\tnot-set-yet",
        "set session_secret to SessionSecretPlaceholder",
        "<private_token>${PRIVATE_TOKEN}</private_token>",
        "consumer_secret\t<redacted>",
    ],
)
def test_these_near_forms_stay(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    "text",
    ['"ssn": "386/75/0149"', "tax id (SSN) 386/75/0149", "SS# 386/75/0149", "my social is 386/75/0149"],
)
def test_an_ssn_set_apart_by_slashes_after_its_label_is_found(text: str) -> None:
    assert found_values(text) == ["386/75/0149"]


@pytest.mark.parametrize(
    "text",
    ["ssn rev 001/01/2024", "SSN: due 001/01/2024", "my social is 12/05/2024", "the social event 386/75/0149"],
)
def test_dates_and_revisions_after_an_ssns_word_stay(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("contact li.wei-at-uni-wien.ac.at", "li.wei-at-uni-wien.ac.at"),
        ("mail: jan_at_firma_dot_de", "jan_at_firma_dot_de"),
        ('"email": "anna_berg_at_outlook_dot_de"', "anna_berg_at_outlook_dot_de"),
        ("Kontakt: tomasz.kowalczyk-at-hospital-dot-org", "tomasz.kowalczyk-at-hospital-dot-org"),
    ],
)
def test_an_address_with_a_glued_at_is_found_after_a_mails_word(text: str, value: str) -> None:
    assert found_values(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "meet-at-noon.com is our domain",
        "reach out via look-at-this.io",
        "build_at_night.example.org",
        "contact: the build_at_night job",
        "email the team about check-at-startup.sh",
    ],
)
def test_hosts_and_names_with_at_in_them_stay(text: str) -> None:
    assert found_values(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("the p/w is Hunter2024!", "Hunter2024!"),
        ("u/n: jsmith p/w: Hunter2024!", "Hunter2024!"),
        ("pass-phrase: Hunter2024!", "Hunter2024!"),
    ],
)
def test_a_password_after_an_abbreviated_or_hyphenated_label_is_found(text: str, value: str) -> None:
    assert found_values(text) == [value]


@pytest.mark.parametrize("text", ["p/w ratio 3.2", "the p/w split is 60/40", "p/w: see the vault"])
def test_ratios_and_pointers_after_p_w_stay(text: str) -> None:
    assert found_values(text) == []
