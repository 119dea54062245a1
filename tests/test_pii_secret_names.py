"""Secrets under the snake-case names OAuth 1, sessions, webhooks and bots give them, in the syntaxes where only the
name says secret (an XML element, a tab-separated line, "set ... to"): a probe of key names against value shapes
found these missed where "client_secret" and "access_token" were found; with the near forms that must stay."""

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
