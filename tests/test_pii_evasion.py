"""Evasion: the normalised view, its map back to the original, and values disguised as an attacker would."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from securemem import SecureMemory
from securemem.pii import ENTITY_TYPES, Finding, Scrubber, detect, keyed_token, normalise_text
from securemem.pii.normalize import View
from securemem.policy import load_policy
from tests.helpers import found, ok, stored

KEY = b"k" * 32
MUST_SURVIVE = (Path(__file__).parent / "data" / "must_survive.txt").read_text(encoding="utf-8").splitlines()
ZWSP, NBSP, EN_DASH = "\u200b", "\u00a0", "\u2013"


def everything(action: str = "redact") -> Scrubber:
    return Scrubber(dict.fromkeys(ENTITY_TYPES, action), hash_key=KEY)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the view


@pytest.mark.parametrize(
    ("original", "view"),
    [
        ("\uff14\uff11\uff11\uff11", "4111"),  # fullwidth
        ("\u0664\u0661\u0661\u0661", "4111"),  # Arabic-Indic
        ("\u096a\u0967\u0967\u0967", "4111"),  # Devanagari
        ("\U0001d7d2\U0001d7cf", "41"),  # mathematical bold
        ("a\uff20b", "a@b"),  # fullwidth at sign
        (f"41{ZWSP}11\u2060\ufeff\u00ad11", "411111"),  # invisible characters
        ("\u202e4111\u202c \u20664111\u2069", "4111 4111"),  # bidi controls
        (f"4111{NBSP}1111\u202f1111\u20091111", "4111 1111 1111 1111"),  # spaces
        (f"123{EN_DASH}45\u221267\u20118", "123-45-67-8"),  # dashes
        ("\u0410\u041a\u0406\u0410", "AKIA"),  # Cyrillic look-alikes
        ("4\u03321\u0332", "41"),  # combining marks
        ("ﬁle", "file"),  # NFKC ligature
        ("plain ascii stays", "plain ascii stays"),
    ],
)
def test_view_folds_what_a_reader_would_not_notice(original: str, view: str) -> None:
    assert normalise_text(original) == view


def test_ascii_text_is_its_own_view() -> None:
    text = "Release 2.4.1 ships on 2024-03-15."
    view = View(text)
    assert view.text is text and view.identity


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_view_offsets_map_back_inside_the_original_in_order(text: str) -> None:
    view = View(text)
    previous = 0
    for offset in range(len(view.text)):
        start = view.start(offset)
        assert previous <= start < len(text)
        assert view.end(offset + 1) > start
        previous = start
    assert view.end(len(view.text)) <= len(text)


def test_the_whole_original_span_is_replaced_invisible_characters_included() -> None:
    card = f"4111{ZWSP}1111{ZWSP}1111{ZWSP}1111"
    outcome = everything().scrub(f"card {card} ok")
    assert outcome.text == "card [CREDIT_CARD] ok"
    marked = "".join(f"{char}\u0332" for char in "4111111111111111")
    assert everything().scrub(f"card {marked} ok").text == "card [CREDIT_CARD] ok"


def test_a_value_in_a_tags_attribute_keeps_its_own_action_beside_a_value_markup_cuts() -> None:
    # An attacker's round on a widening (reverted) that took the tags around a value cut by markup
    # into its span: it swallowed the attribute's phone (left in place where emails are allowed) and
    # its token (hashed as an email where secrets are refused).
    phone = Scrubber({"EMAIL": "allow", "PHONE": "redact"}, hash_key=KEY)
    text = '<span title="+44 7700 900123">jonas</span>@gmx.de'
    assert phone.scrub(text).text == '<span title="[PHONE]">jonas</span>@gmx.de'
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    refusing = Scrubber({"EMAIL": "hash", "SECRET": "refuse"}, hash_key=KEY)
    assert refusing.scrub(f'<span title="{token}">jonas</span>@gmx.de').refused == ("GITHUB_PAT",)


@pytest.mark.parametrize(
    ("text", "scrubbed"),
    [
        # Markup on one side only: the value's first group alone in a tag, the rest after a blank.
        ("card <i>4111</i> 1111 1111 1111", "card <i>[CREDIT_CARD]"),
        ("<em>4111 1111</em> <em>1111 1111</em>", "<em>[CREDIT_CARD]</em>"),
        # Inline elements beyond formatting (a link, a key), and a tag left open.
        ('mail <a href="#x">jonas.weber</a>@gmx.de', 'mail <a href="#x">[EMAIL]'),
        ("mail jonas.weber@<kbd>gmx.de</kbd>", "mail [EMAIL]</kbd>"),
        ("ssn 123-<b>45-6789", "ssn [US_SSN]"),
        # An attribute between the two halves of a name: the email is read across it, the
        # attribute's own value stays its own finding.
        ('a<span title="john.doe@gmail.com">b</span>', 'a<span title="[EMAIL]">b</span>'),
    ],
)
def test_a_value_cut_by_inline_markup_is_read_across_it(text: str, scrubbed: str) -> None:
    assert everything().scrub(text).text == scrubbed


@pytest.mark.parametrize(
    "text", ["**OTP:** 839201", "**[OTP]** 839201", "<b>OTP</b> 839201", "<b>OTP:</b> 839201", "__OTP__: 839201"]
)
def test_a_label_decorated_by_markup_still_names_its_value(text: str) -> None:
    assert [kind for kind, _ in found(text)] == ["GENERIC_SECRET"]
    assert "839201" not in everything().scrub(text).text


@pytest.mark.parametrize(
    "text", ["**Note:** build 839201 passed", "j***@g***.com", "<code>app</code>@<code>router.get</code>"]
)
def test_markup_around_ordinary_text_finds_nothing(text: str) -> None:
    assert found(text) == []


def test_a_value_read_across_markup_gets_the_token_of_the_value_a_reader_sees() -> None:
    hashing = Scrubber({"EMAIL": "hash", "PHONE": "hash"}, hash_key=KEY)
    assert hashing.scrub("<b>jonas.weber</b>@<i>gmx.de</i>").text == (
        "<b>" + hashing.scrub("jonas.weber@gmx.de").text + "</i>"
    )
    plain = hashing.scrub("+44 7465 136833").text
    assert hashing.scrub('<span style="font-size:12px">+44</span> <span>7465 136833</span>').text == (
        f'<span style="font-size:12px">{plain}</span>'
    )
    # Markdown's marks inside a value: the same token, never an exception (the phone parser's).
    phone = hashing.scrub("+44 7465 136833").text
    assert hashing.scrub("+**44** 7465 136833").text == phone
    assert hashing.scrub("mail **jonas.weber**@gmx.de").text.endswith(hashing.scrub("jonas.weber@gmx.de").text)
    assert hashing.scrub("mail jonas.weber@__gmx__.de").text == "mail " + hashing.scrub("jonas.weber@gmx.de").text
    # The mask's last four characters are the value's, never a tag's letters.
    masking = Scrubber({"CREDIT_CARD": "mask"}, hash_key=KEY)
    assert masking.scrub("4111 1111 1111 11<b>11</b>").text == "[CREDIT_CARD ****1111]</b>"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("ghp_A1b2C3d4E5f6G7h8I9j0\nK1l2M3n4O5p6Q7r8", "GITHUB_PAT"),  # a provider's token, cut after its prefix
        ("> card 4111 1111\n> 1111 1111", "CREDIT_CARD"),  # a quoted message's lines
        ("> > email jonas.weber@\n> > gmx.de", "EMAIL"),
    ],
)
def test_a_wrapped_value_is_read_whole(text: str, kind: str) -> None:
    assert [found_kind for found_kind, _ in found(text)] == [kind]


def test_a_value_wrapped_in_a_quoted_message_gets_the_token_of_the_value() -> None:
    hashing = Scrubber({"EMAIL": "hash", "PHONE": "hash"}, hash_key=KEY)
    assert hashing.scrub("> mail jonas.weber@\n> gmx.de").text == "> mail " + hashing.scrub("jonas.weber@gmx.de").text
    assert hashing.scrub("> tel +44 7700\n> 900123").text == "> tel " + hashing.scrub("+44 7700 900123").text


@pytest.mark.parametrize(
    "text",
    [
        "thanks to\n@jonas for the review",
        "a > 4111 1111\n> 1111 1111 is no quote",
        # A line that starts with "@" is a decorator or a handle, not the end of an address (a third
        # attacker's round on a join tried and taken back).
        "from x import y_z\n@pytest.fixture",
        "README.md\n@team.dev",
    ],
)
def test_lines_that_only_look_wrapped_stay(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # Reviewer AD's blind corpus, as it came: each stored as written.
        ("TAN aus SMS: 116686 (abgelaufen).", "GENERIC_SECRET"),
        ("ssn: 616 . 75 . 7196", "US_SSN"),
        ("secret_client = lhXRBeskXyCwZJO3WwFFmsCV", "GENERIC_SECRET"),
        # A label and its value on the lines of a quoted message.
        ("> Password:\n> Hunter2!xyz", "PASSWORD"),
        ("> Your OTP:\n> 839201", "GENERIC_SECRET"),
        # A password column named in German in a markdown table.
        ("| System | Benutzer | Passwort |\n|---|---|---|\n| SAP QAS | RFC_USER | uD.0KQz.JLrW |", "PASSWORD"),
        # A clause that a quote and a stop end before the next label ('"minha senha é Rosa0604$". Token
        # do webhook: ...'); padding "=" glued to the value, not an operator; a verb that ends its line;
        # a code after a CJK label before "。" and more text (the view writes "。" as ".").
        ('Chat: "minha senha é Rosa0604$". Ticket do cliente: 48213.', "PASSWORD"),
        ('"كلمة المرور الخاصة بي هي Sakura711=" شكرا', "PASSWORD"),
        ("> > Das Passwort für das Kundenportal lautet\n> > !qKcOF8-pzC#*1\n> Danke", "PASSWORD"),
        ("用户发送，验证码 297978。登录成功", "GENERIC_SECRET"),
    ],
)
def test_values_a_blind_reviewer_found_stored(text: str, kind: str) -> None:
    assert [found_kind for found_kind, _ in found(text)] == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "version 616 . 75 . 7196",
        "secret_client_id = abc123",
        "> quoted\n> 2024 plan",
        "The password is\nrequired for every login.",
        "验证码 297978.png",
        "passwort wird geändert. Ticket: 48213",
    ],
)
def test_lines_beside_what_a_blind_reviewer_found_stay(text: str) -> None:
    assert found(text) == []


def test_tokens_name_the_value_not_its_markup() -> None:
    hashing = Scrubber({"EMAIL": "hash"}, hash_key=KEY)
    # Underscores inside a name are part of the mailbox, not emphasis: another address, another token.
    assert hashing.scrub("first__last@example.org").text != hashing.scrub("firstlast@example.org").text
    # A tag the view reads as a space between a word and a number is not part of the value either.
    assert hashing.scrub("jonas<b>2024@gmx.de").text == hashing.scrub("jonas2024@gmx.de").text
    # ... nor does that space cut a token: read again without it.
    token = "ghp_A1b" + "<b>" + "2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    assert Scrubber({"SECRET": "refuse"}, hash_key=KEY).scrub(token).refused == ("GITHUB_PAT",)


def test_a_bidi_pop_after_a_value_stays() -> None:
    text = "call \u2066+44 20 7946 0958\u2069 now"
    assert everything().scrub(text).text == "call \u2066[PHONE]\u2069 now"


# ---------------------------------------------------------------- disguised values

DISGUISES: dict[str, Callable[[str], str]] = {
    "fullwidth": lambda v: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in v),
    "arabic-indic": lambda v: "".join(chr(0x0660 + int(c)) if c.isdigit() else c for c in v),
    "devanagari": lambda v: "".join(chr(0x0966 + int(c)) if c.isdigit() else c for c in v),
    "zero-width": ZWSP.join,
    "soft-hyphen": "\u00ad".join,
    "word-joiner": lambda v: v[:3] + "\u2060" + v[3:],
    "rlm": "\u200f".join,
    "nbsp": lambda v: v.replace(" ", NBSP),
    "en-dash": lambda v: v.replace("-", EN_DASH),
    "minus": lambda v: v.replace("-", "\u2212"),
    "marks": lambda v: "".join(c + "\u0301" if c.isdigit() else c for c in v),
}
VALUES = [
    ("EMAIL", "jane.doe@example.com"),
    ("PHONE", "+1 415-555-2671"),
    ("PHONE", "+44 20 7946 0958"),
    ("CREDIT_CARD", "4111 1111 1111 1111"),
    ("US_SSN", "123-45-6789"),
    ("IBAN", "DE89370400440532013000"),
    ("AWS_ACCESS_KEY", "AKIAABCDEFGHIJKLMNOP"),
    ("GITHUB_PAT", "ghp_" + "Ab1Cd2Ef3G" * 3 + "h4Ij5K"),
    ("STRIPE_SECRET_KEY", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"),
]


@pytest.mark.parametrize("disguise", sorted(DISGUISES))
@pytest.mark.parametrize(("kind", "value"), VALUES, ids=[f"{kind}-{i}" for i, (kind, _) in enumerate(VALUES)])
def test_a_disguised_value_is_found_whole(kind: str, value: str, disguise: str) -> None:
    shown = DISGUISES[disguise](value)
    text = f"SSN note: {shown} (from the chat)" if kind == "US_SSN" else f"note: {shown} (from the chat)"
    findings = [(k, v) for k, v in found(text) if k == kind]
    assert findings == [(kind, shown)]
    scrubbed = everything().scrub(text).text
    assert shown not in scrubbed and f"[{kind}]" in scrubbed


def test_a_disguised_value_gets_the_token_of_the_plain_one() -> None:
    scrubber = everything("hash")
    plain = scrubber.scrub("card 4111 1111 1111 1111").text
    for disguise in ("fullwidth", "arabic-indic", "zero-width", "marks"):
        shown = DISGUISES[disguise]("4111 1111 1111 1111")
        assert scrubber.scrub(f"card {shown}").text == plain
    assert plain == "card " + keyed_token(KEY, "CREDIT_CARD", "4111111111111111")


@pytest.mark.parametrize(
    "keyword", ["p\u0430ssword", f"pass{ZWSP}word", "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44", "PASSWORD"]
)
def test_a_disguised_keyword_still_anchors_a_password(keyword: str) -> None:
    assert found(f"{keyword}: Winter2024!") == [("PASSWORD", "Winter2024!")]


@pytest.mark.parametrize("space", [NBSP, "\u202f"])
@pytest.mark.parametrize("before", ["", "Intake form: ", "| 2024-03-01 | "])
def test_an_ssn_whose_groups_no_break_spaces_keep_apart_is_found_in_a_field_of_its_own(space: str, before: str) -> None:
    # No label needed, as for "219-45-1234" and "219.45.1234": the separator is typed on purpose.
    shown = space.join(("219", "45", "1234"))
    assert found(f"{before}{shown} was on the intake form") == [("US_SSN", shown)]


@pytest.mark.parametrize(
    "text",
    [
        "Noted 219 45 1234 on the intake form",  # plain spaces need a label
        f"Noted 219{NBSP}45 1234 on the form",  # mixed ones too
        f"000{NBSP}45{NBSP}1234 was on the form",  # no SSN starts with 000
        # an attacker's round: after a noun, three counts or measures; the figure space aligns digits in tables
        f"Scores 231{NBSP}17{NBSP}4410 en trois manches",
        f"Frequenzen: 433{NBSP}92{NBSP}8680 Hz",
        "Widgets\u2007512\u200734\u20075678",
    ],
)
def test_groups_apart_by_plain_or_mixed_spaces_after_a_noun_or_measured_need_a_label(text: str) -> None:
    assert found(text) == []


ALPHABET = st.sampled_from([ZWSP, "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u2066", "\u2069"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 18), ALPHABET), max_size=6), st.sampled_from(VALUES))
def test_invisible_characters_anywhere_inside_never_hide_a_value(
    cuts: list[tuple[int, str]], entity: tuple[str, str]
) -> None:
    kind, value = entity
    shown = value
    for cut, char in sorted(cuts, reverse=True):
        position = min(cut, len(shown) - 1)
        shown = shown[:position] + char + shown[position:]
    text = f"SSN record {shown} end" if kind == "US_SSN" else f"record {shown} end"
    scrubbed = everything().scrub(text).text
    assert f"[{kind}]" in scrubbed
    assert normalise_text(value) not in normalise_text(scrubbed)


# ---------------------------------------------------------------- token-shaped text


def test_a_real_value_in_a_token_shaped_bracket_is_scrubbed() -> None:
    scrubber = everything("hash")
    outcome = scrubber.scrub("call [PHONE:4155552671] or [EMAIL:jane@example.com]")
    assert "4155552671" not in outcome.text and "jane@example.com" not in outcome.text
    assert outcome.counts == {"EMAIL": 1, "PHONE": 1}


def test_only_tokens_of_this_key_are_left_alone() -> None:
    scrubber = everything("hash")
    mine = keyed_token(KEY, "GENERIC_SECRET", "x")
    theirs = keyed_token(b"other-key", "GENERIC_SECRET", "x")
    assert scrubber.is_own_token(mine) and not scrubber.is_own_token(theirs)
    text = f"token {mine} and token {theirs}"
    outcome = scrubber.scrub(text)
    assert mine in outcome.text and theirs not in outcome.text


def test_tokens_carry_96_bits_and_differ_per_customer() -> None:
    scrubber = Scrubber({"EMAIL": "hash"}, hash_key=KEY)
    tokens = {scrubber.scrub(f"customer{i}@example.com").text for i in range(2000)}
    assert len(tokens) == 2000
    identity = next(iter(tokens)).split(":")[1][:24]
    assert len(identity) * 4 >= 96


# ---------------------------------------------------------------- what must survive


def test_the_must_survive_set_is_large() -> None:
    assert len(MUST_SURVIVE) >= 300
    assert len(set(MUST_SURVIVE)) >= 290


@pytest.mark.parametrize("action", ["redact", "hash"])
def test_the_must_survive_set_stays_byte_identical(action: str) -> None:
    scrubber = everything(action)
    damaged = [line for line in MUST_SURVIVE if scrubber.scrub(line).text != line]
    assert damaged == []
    joined = "\n".join(MUST_SURVIVE)
    assert scrubber.scrub(joined).text == joined


@pytest.mark.parametrize(
    "text",
    [
        "icon@2x.png and logo@1.5x.webp",
        "postgres://db.internal.example.com:5432/app",
        "git@github.com:org/repo.git",
        "Reset your password: click the link below.",
        "password: required",
        "api_key: ${API_KEY}",
        "max_tokens=1024 token_count: 4096",
        "sha256:4bcff63911fcb4448bd4fdacec207030997caf25e9bea4045fa6c8c44de311d1",
    ],
)
def test_ordinary_technical_text_is_not_damaged(text: str) -> None:
    assert detect(text) == []


def test_a_database_url_keeps_its_host_and_loses_its_password() -> None:
    text = "DATABASE_URL=postgres://app:s3cr3t-Pa55@db.internal.example.com:5432/app"
    assert everything().scrub(text).text == "DATABASE_URL=postgres://[URL_CREDENTIALS]@db.internal.example.com:5432/app"


# ---------------------------------------------------------------- values split across an edit


@pytest.fixture
def regulated(tmp_path: Path) -> SecureMemory:
    return SecureMemory.open(tmp_path / "m.db", key=os.urandom(32), policy="regulated")


def _stored(memory: SecureMemory, path: str) -> str:
    return stored(memory, path, now=memory.clock()).decode()


def _token(memory: SecureMemory, entity: str, normalised: str) -> str:
    return keyed_token(memory.store.token_key, entity, normalised)


def test_an_edit_completing_an_email_tokenises_the_whole_address(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/c.md", file_text="contact: jane.doe\n")
    ok(regulated, command="str_replace", path="/memories/c.md", old_str="doe\n", new_str="doe@example.com\n")
    assert _stored(regulated, "/memories/c.md") == f"contact: {_token(regulated, 'EMAIL', 'jane.doe@example.com')}\n"


def test_an_insert_completing_a_card_masks_the_whole_number(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/c.md", file_text="card 4111 1111\n")
    ok(regulated, command="str_replace", path="/memories/c.md", old_str="1111\n", new_str="1111 1111 1111\n")
    assert _stored(regulated, "/memories/c.md") == "card [CREDIT_CARD ****1111]\n"


def test_an_edit_completing_a_phone_gets_the_full_numbers_token(regulated: SecureMemory) -> None:
    ok(regulated, command="create", path="/memories/p.md", file_text="call +44 20 7946\n")
    text = ok(regulated, command="str_replace", path="/memories/p.md", old_str="7946\n", new_str="7946 0958\n")
    expected = _token(regulated, "PHONE", "442079460958")
    assert _stored(regulated, "/memories/p.md") == f"call {expected}\n"
    assert "7946 0958" not in text


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 ok", "CREDIT_CARD", "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"),
        ("card 4111/1111/1111/1111 ok", "CREDIT_CARD", "4111/1111/1111/1111"),
        ("card 41-11-11-11-11-11-11-11 ok", "CREDIT_CARD", "41-11-11-11-11-11-11-11"),
        ("IBAN: DE89-3704-0044-0532-0130-00", "IBAN", "DE89-3704-0044-0532-0130-00"),
        ("write to jane @ example.com today", "EMAIL", "jane @ example.com"),
        ("write to jane (at) example (dot) co (dot) uk", "EMAIL", "jane (at) example (dot) co (dot) uk"),
    ],
)
def test_regrouped_and_spaced_values(text: str, kind: str, value: str) -> None:
    assert (kind, value) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "h = x @ self.proj",
        "y = a @ b.T",
        "Rejected number 4889 0152 6347 7331 (checksum).",
        "card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 (fails Luhn)",
        "meet @ 10 in room 4",
    ],
)
def test_regrouping_rules_do_not_invent_values(text: str) -> None:
    assert found(text) == []


def test_a_spaced_address_gets_the_token_of_the_plain_one() -> None:
    scrubber = everything("hash")
    assert scrubber.scrub("jane @ example.com").text == scrubber.scrub("jane@example.com").text


# ---------------------------------------------------------------- the held-out adversarial set

HELD_OUT = [
    json.loads(line) for line in (Path(__file__).parent / "data" / "pii_heldout.jsonl").read_text("utf-8").splitlines()
]


def _covered(text: str, kind: str, value: str, findings: list[Finding]) -> bool:
    """Findings of ``kind`` cover every character of ``value`` (nothing of it would be stored)."""
    start = text.find(value)
    end = start + len(value)
    for finding in sorted(
        (f for f in findings if f.type == kind and f.start < end and start < f.end), key=lambda f: f.start
    ):
        if finding.start > start:
            return False
        start = max(start, finding.end)
    return start >= end


def test_the_held_out_set_is_large_and_mixed() -> None:
    positives = [row for row in HELD_OUT if row["entities"]]
    assert len(HELD_OUT) >= 200
    assert len(positives) >= 120 and len(HELD_OUT) - len(positives) >= 60
    assert len({row["note"] for row in positives}) >= 12


def test_the_held_out_set_is_found_whole_at_99_percent() -> None:
    labelled = missed = 0
    misses = []
    for row in HELD_OUT:
        findings = detect(row["text"])
        for entity in row["entities"]:
            labelled += 1
            if not _covered(row["text"], entity["type"], entity["value"], findings):
                missed += 1
                misses.append(row["note"])
    assert labelled and missed / labelled <= 0.01, misses


def test_the_held_out_negatives_are_left_alone() -> None:
    damaged = [row["text"] for row in HELD_OUT if not row["entities"] and detect(row["text"])]
    assert damaged == []
    extra = [
        row["text"]
        for row in HELD_OUT
        if row["entities"] and {f.type for f in detect(row["text"])} - {e["type"] for e in row["entities"]}
    ]
    assert extra == []


# ---------------------------------------------------------------- letters for digits


@pytest.mark.parametrize(
    ("original", "view"),
    [
        ("+44 7700 9OO l23", "+44 7700 900 123"),
        ("4lll 1111 1111 1111", "4111 1111 1111 1111"),
        ("SSN 4O1-2l-3456", "SSN 401-21-3456"),
        ("+33 6 lO 34 89 28", "+33 6 10 34 89 28"),
        ("tel: 415 555 267l", "tel: 415 555 2671"),
        ("\u0421all +1 415 555 2O71", "Call +1 415 555 2071"),  # a Cyrillic letter elsewhere changes nothing
    ],
)
def test_letters_inside_a_number_read_as_digits(original: str, view: str) -> None:
    assert normalise_text(original) == view


@pytest.mark.parametrize(
    "text",
    [
        "lol 2024 was wild",
        "Room 1O1? No, room 101 in block I.",
        "OOO until 10 Oct, back on the 11th",
        "build l0l0 passed",
        "I/O bound: 100 requests, 10 workers",
        "Version 1.0.1l-beta and v2.O.1",
        "Serial IMG_0O12.png uploaded",
        "dropped to 182 ms; p95 latency 40",
        "A320neo and O2 sensor 12345",
        "Ol' Bill sold 1,000,000 copies",
    ],
)
def test_words_beside_numbers_keep_their_letters(text: str) -> None:
    assert normalise_text(text) == text


def test_a_number_spelt_with_letters_gets_the_token_of_the_number() -> None:
    scrubber = everything("hash")
    assert scrubber.scrub("card 4lll 1111 1lll 1111").text == scrubber.scrub("card 4111 1111 1111 1111").text
    assert scrubber.scrub("call +44 2O 7946 O958").text == scrubber.scrub("call +44 20 7946 0958").text


# ---------------------------------------------------------------- addresses spelt out, values spaced out


@pytest.mark.parametrize(
    "shown",
    [
        "jane at example dot com",
        "Jane.Doe AT example DOT co DOT uk",
        "jane dot doe at mail dot example dot org",
        "jane at example.com",
        "jane(at)example(dot)com",
        "jane {at} example {dot} io",
        "jane @ example . com",
        "j a n e @ e x a m p l e . c o m",
        "j a n e . d o e @ e x a m p l e . c o . u k",
        "JANE AT EXAMPLE DOT COM",
        "bob_smith at gmail dot com",
    ],
)
def test_a_spelt_out_address_is_found_whole_and_hashes_as_the_address(shown: str) -> None:
    text = f"reach me: {shown}, thanks"
    assert found(text) == [("EMAIL", shown)]
    scrubber = everything("hash")
    plain = shown.replace(" ", "").replace("(at)", "@").replace("(dot)", ".").replace("{at}", "@")
    plain = plain.replace("{dot}", ".").replace("dot", ".").replace("DOT", ".").replace("at", "@").replace("AT", "@")
    assert scrubber.scrub(text).text == scrubber.scrub(f"reach me: {plain}, thanks").text


@pytest.mark.parametrize(
    "text",
    [
        "Let's meet at the cafe dot com event next week.",
        "Look at example dot com for the details.",
        "look at example dot",
        "She works at example dot org now.",
        "Arrive at 9 dot 30 sharp.",
        "I'm at home dot dot dot",
        "prices start at 9.99 per month",
        "stored at /var/lib/app (dot files included)",
        "S U M M A R Y of the week",
        "count: 1 2 3 4 5 6 7 8 9 10",
        "x = 1 + 2 + 3 + 4 + 5 + 6",
        "Grid 0 1 0 1 1 0 0 1 0 1",
        "Tickets at eventbrite dot com are sold out",
        "We are at example.com headquarters",
        "the meeting at 10 dot 30",
        "user @ host",
        "A B C D E F G",
        "token:\n  type: bearer",
        "secret: true\nenabled: false",
        "key: sk-learn based classifier",
        "keyboard: AKIA brand, model 2024",
    ],
)
def test_prose_with_at_dot_and_spaced_letters_is_left_alone(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("text", "kind", "shown"),
    [
        ("call + 4 4 2 0 7 9 4 6 0 9 5 8 tonight", "PHONE", "+ 4 4 2 0 7 9 4 6 0 9 5 8"),
        ("phone: 4 1 5 5 5 5 2 6 7 1", "PHONE", "4 1 5 5 5 5 2 6 7 1"),
        ("SSN 1 2 3 - 4 5 - 6 7 8 9 on file", "US_SSN", "1 2 3 - 4 5 - 6 7 8 9"),
        ("key A K I A I O S F O D N N 7 E X A M P L E", "AWS_ACCESS_KEY", "A K I A I O S F O D N N 7 E X A M P L E"),
    ],
)
def test_a_value_spaced_out_character_by_character_is_found_whole(text: str, kind: str, shown: str) -> None:
    assert found(text) == [(kind, shown)]


def test_spaced_runs_whose_windows_touch_are_read_in_one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text made of spaced-out runs ("PIN 1 2 3 4 ... PIN 5 6 7 8 ...") is read again once, not
    once per run (a whole scan per run made 100 KB of them take seconds); each run's value is still
    found alone, and one a long way after the others gets a window of its own."""
    from securemem.pii import detectors

    windows: list[int] = []
    real = detectors._spaced_window

    def counted(*args: object) -> list[tuple[str, int, int]]:
        windows.append(len(args[3]))  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(detectors, "_spaced_window", counted)
    codes = ["4 8 2 9 1 3", "9 7 5 3 1 8", "6 1 8 2 7 4"]
    text = " ".join(f"PIN {code}" for code in codes) + " " + "x" * 60 + " PIN 7 3 9 4 5 2"
    assert [v for _, v in found(text)] == [*codes, "7 3 9 4 5 2"]
    assert windows == [3, 1]


@pytest.mark.parametrize(
    ("text", "kind", "shown"),
    [
        ("call me: 4 1 5 5 5 5 2 6 7 1.", "PHONE", "4 1 5 5 5 5 2 6 7 1"),
        ("email j a n e @ e x a m p l e . c o m.", "EMAIL", "j a n e @ e x a m p l e . c o m"),
        ("SSN 7 1 2 - 0 4 - 3 3 9 8.", "US_SSN", "7 1 2 - 0 4 - 3 3 9 8"),
        ("SSN confirmed as 7 1 2 \u2013 0 4 \u2013 3 3 9 8. Thanks", "US_SSN", "7 1 2 \u2013 0 4 \u2013 3 3 9 8"),
    ],
)
def test_a_value_read_out_keeps_its_last_character_before_a_full_stop(text: str, kind: str, shown: str) -> None:
    """The full stop that ends a sentence stuck to the run's last character: the run ended one
    character early, and the value was found without it (reviewer X)."""
    assert found(text) == [(kind, shown)]


@pytest.mark.parametrize("text", ["a . b . c . d . e . f . g", "values 1 2 3 4 5 8.5 and e.g. x y z"])
def test_dots_inside_words_keep_them_words(text: str) -> None:
    assert found(text) == []


def test_a_digit_run_in_a_spaced_window_is_a_phone_only_where_its_own_context_says_so() -> None:
    """Runs read in one window keep their own context: the dice log's digits after "rolled" stay,
    the number after "call" is found."""
    text = "rolled 4 1 5 5 5 5 2 6 7 1 then call 4 1 5 5 5 5 2 6 7 1"
    assert found(text) == [("PHONE", "4 1 5 5 5 5 2 6 7 1")]
    assert detect(text)[0].start == text.index("call") + 5


# ---------------------------------------------------------------- secrets cut after their keyword

PAT = "ghp_" + "Ab1Cd2Ef3G" * 3 + "h4Ij5K"


@pytest.mark.parametrize(
    ("text", "kind", "shown"),
    [
        (f"GITHUB_TOKEN: {PAT[:14]} {PAT[14:]}", "GITHUB_PAT", f"{PAT[:14]} {PAT[14:]}"),
        (f"token: {PAT[:20]}\n{PAT[20:]}", "GITHUB_PAT", f"{PAT[:20]}\n{PAT[20:]}"),
        ("api_key = 7Hq2LmX9 Rt4Vb8Nw K3pZ6sYc", "GENERIC_SECRET", "7Hq2LmX9 Rt4Vb8Nw K3pZ6sYc"),
        ("client_secret:\n  9fKq2Lm7\n  Xw4Rt8Vb\n", "GENERIC_SECRET", "9fKq2Lm7\n  Xw4Rt8Vb"),
        ("password: Tr0ub 4dor&3", "PASSWORD", "Tr0ub 4dor&3"),
        ("AWS key: AKIA IOSF ODNN 7EXA MPLE", "AWS_ACCESS_KEY", "AKIA IOSF ODNN 7EXA MPLE"),
        (
            "stripe key = sk_live_4eC3 9HqL yjWD arjt T1zd p7dc",
            "STRIPE_SECRET_KEY",
            "sk_live_4eC3 9HqL yjWD arjt T1zd p7dc",
        ),
    ],
)
def test_a_secret_cut_by_spaces_or_a_line_break_is_found_whole(text: str, kind: str, shown: str) -> None:
    assert found(text) == [(kind, shown)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password: hunter2 please change it", "hunter2"),
        ("password: Winter2024! Please rotate it", "Winter2024!"),
        ("token=abc123XYZ987 status=ok", "abc123XYZ987"),
        ("password: s3cr3tPass\nusername: bob", "s3cr3tPass"),
        ("password: s3cr3tPass\n42 items left", "s3cr3tPass"),
    ],
)
def test_the_words_after_a_secret_are_not_taken_with_it(text: str, value: str) -> None:
    assert [v for _, v in found(text)] == [value]


# ---------------------------------------------------------------- symbols NFKC leaves alone


@pytest.mark.parametrize(
    ("original", "view"),
    [
        ("\u2776\u2777\u2778", "123"),  # dingbat negative circled digits
        ("\u2780\u24ff", "10"),  # dingbat circled sans-serif one, negative circled zero
        ("\U0001f170\U0001f17a\U0001f178\U0001f170", "AKIA"),  # negative squared letters
        ("\U0001f150", "A"),  # negative circled letter
        ("\u04c0\u01c0", "Il"),  # palochka, dental click
    ],
)
def test_symbols_drawn_as_digits_or_letters_fold(original: str, view: str) -> None:
    assert normalise_text(original) == view


_POLICY = load_policy("regulated")
REGULATED = Scrubber(_POLICY.pii.actions, hash_key=KEY, phone_regions=_POLICY.pii.phone_regions)
MARKUP_ATTACK = [
    (f"{round_}-{index}", json.loads(line))
    for round_ in ("ad", "ae")
    for index, line in enumerate(
        (Path(__file__).parent / "data" / f"markup_attack_{round_}.jsonl").read_text(encoding="utf-8").splitlines()
    )
]


@pytest.mark.parametrize("row", [row for _, row in MARKUP_ATTACK], ids=[name for name, _ in MARKUP_ATTACK])
def test_an_attackers_markup_round(row: dict[str, str]) -> None:
    """Two attackers' rounds on markup and wraps: each value they hid is scrubbed or refused (the first
    crashed the hash of phones cut by "**", leaked look-alike letters past a tag, broke wraps and joined
    literals; the second glued a form's label to its value), and each ordinary line they marked up or
    wrapped stays as written (the second: "Your bank code 10020030", "Follow us on Instagram" then
    "@acme.store", a regex's "\\@")."""
    text = row["text"]
    outcome = REGULATED.scrub(text)
    if row["expect"] == "caught":
        assert outcome.refused or outcome.text != text
    else:
        assert outcome.text == text and not outcome.refused


def test_a_text_of_many_wrapped_addresses_is_scrubbed_whole_not_refused_as_unfinished() -> None:
    # 64 joins per pass left 3,000 wrapped addresses to the scan budget, which refused the write
    # (and spent 13 s on it); one join per 64 characters finishes in a few passes.
    text = "jonas.weber@\ngmx.de\n" * 3000
    outcome = REGULATED.scrub(text)
    assert outcome.unfinished == () and outcome.refused == ()
    assert "jonas" not in outcome.text and outcome.counts == {"EMAIL": 3000}


def test_numbers_read_out_in_words_are_pseudonymised_as_their_digits() -> None:
    # Two numbers read out once shared one token (their digits read as ""); now each is hashed as its digits, so it
    # gets the token it gets typed (an attacker's round on the README's promises).
    hashing = Scrubber({"PHONE": "hash"}, hash_key=KEY)

    def token(text: str) -> str:
        return hashing.scrub(text).text.rpartition(" ")[2]

    first = token("my number is zero seven nine one one one two three four five six")
    second = token("my number is zero seven seven zero zero nine zero zero one two three")
    assert first.startswith("[PHONE") and second.startswith("[PHONE")
    assert first != second
    assert first == token("my number is 07911 123456")
    assert token("rappelle-moi au zéro six - quarante-deux - dix-huit - soixante-treize - zéro cinq") == token(
        "rappelle-moi au 06 42 18 73 05"
    )
