"""detect(): normalise, run the detectors asked for, settle overlaps, map spans back to the original.

Plug-in detectors
-----------------
A deployment can add its own detector (a name recogniser, an in-house account-number format, a
Presidio analyzer) without touching this package. A detector is any object with

- ``name``: a short label used in error messages;
- ``types``: the entity types it reports (each registered with ``register_entity_type``, or a
  built-in type);
- ``find(text)``: the ``(type, start, end)`` spans it finds in ``text``.

``text`` is the *normalised* view of what is being stored (see normalize.py): fullwidth and
other-script digits are ASCII, invisible characters are gone, dashes and spaces are folded. Spans
are offsets into that view; securemem maps them back to the original and replaces the whole
original span. Findings of a plug-in compete with the built-in ones (the longer span wins, then the
more specific type) and are scrubbed by the policy's action for their type. A plug-in that raises
makes the scan fail with DetectorError (the write is refused), never with the plug-in's message,
which could hold the text.

Register one for every Scrubber with ``register_detector(detector)``, or pass
``detectors=[...]`` to ``Scrubber`` or ``detect``. ``securemem.pii.presidio`` adapts Presidio
pattern recognizers.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Protocol, TypeVar, runtime_checkable

import phonenumbers

from securemem.pii import entities
from securemem.pii.accounts import (
    MEMORABLE_LITERALS,
    PORTING_LITERALS,
    find_account_passwords,
    find_memorable_words,
    find_porting_codes,
    may_hold_account_password,
)
from securemem.pii.answers import (
    find_answered_cards,
    find_answered_codes,
    find_answered_passwords,
    may_hold_answered_card,
    may_hold_answered_code,
    may_hold_answered_password,
)
from securemem.pii.banking import (
    find_bank_fields,
    find_bank_numbers,
    find_hungarian_accounts,
    may_hold_bank_field,
    may_hold_bank_number,
    may_hold_hungarian_account,
)
from securemem.pii.cardpins import find_card_pins, may_hold_card_pin
from securemem.pii.catalogue import CATALOGUE_TYPES, KEYED
from securemem.pii.checksums import IBAN_LENGTHS, iban_valid
from securemem.pii.clauses import find_clause_passwords, may_hold_clause_password, turned_password
from securemem.pii.codes import find_alnum_codes, find_codes, may_hold_alnum_code
from securemem.pii.columns import (
    find_aligned_columns,
    find_columns,
    find_form_fields,
    find_split_cells,
    find_split_parts,
    find_sql_inserts,
    may_hold_aligned_columns,
    may_hold_columns,
    may_hold_form_field,
    may_hold_html_rows,
    may_hold_split_cells,
    may_hold_sql_insert,
)
from securemem.pii.contact import (
    PHONE_CONTEXT,
    PHONE_DIGITS,
    SPOKEN_ATS,
    find_bare_at_emails,
    find_emails,
    find_glued_at_emails,
    find_korean_phones,
    find_labelled_phones,
    find_msisdns,
    find_obfuscated_emails,
    find_phone_objects,
    find_phones,
    find_pix_keys,
    find_spelt_numbers,
    find_split_area_codes,
    find_spoken_emails,
    find_whatsapp_links,
    foreign_at,
    may_hold_korean_phone,
    may_hold_labelled_phone,
    may_hold_phone_object,
    may_hold_spelt_phone,
    may_hold_split_area_code,
    phone_e164,
)
from securemem.pii.credentials import (
    DER_KEY_HINTS,
    find_bearer_tokens,
    find_der_keys,
    find_jwts,
    find_private_keys,
    find_wrapped_jwts,
)
from securemem.pii.dictated import find_dictated_emails, may_hold_dictated_email
from securemem.pii.edi import find_edifact_phones, find_x12, may_hold_x12
from securemem.pii.encoded import find_encoded_secrets, may_hold_encoded_secret
from securemem.pii.findings import Finding
from securemem.pii.hl7 import find_hl7, may_hold_hl7
from securemem.pii.labels import find_labelled_tokens, may_hold_labelled_token
from securemem.pii.ledgers import find_ledger_accounts, may_hold_ledger_account
from securemem.pii.locks import find_lock_codes, may_hold_lock_code
from securemem.pii.national import find_national_ids, may_hold_national_id
from securemem.pii.network import find_ip_addresses, find_said_ipv4, may_hold_ip_address, may_hold_said_ip
from securemem.pii.normalize import ATTRIBUTED_TAGS, OTHER_TAGS, View, viewed_words
from securemem.pii.numeric import (
    A_CARDS_WORD,
    CARD_AFTER,
    CARD_DIGITS,
    CARD_NAMES,
    CARD_WORDS,
    PAYMENT_CARD_NAMED,
    SHORT_MAESTRO_DIGITS,
    SSN_DIGITS,
    find_cards,
    find_ibans,
    find_keyed_cards,
    find_piped_cards,
    find_short_maestros,
    find_ssns,
    find_underscored_cards,
    may_hold_iban,
    may_hold_keyed_card,
    may_hold_piped_card,
    may_hold_ssn,
    may_hold_underscored_card,
    names_an_ssn,
)
from securemem.pii.patterns import lazy_compile
from securemem.pii.payments import find_encoded_fields, find_payment_fields, find_payment_secrets
from securemem.pii.questions import find_security_answers, may_hold_security_answer
from securemem.pii.recovery import find_recovery_secrets, may_hold_recovery_secret
from securemem.pii.regions import DEFAULT_PHONE_REGIONS, check_phone_regions
from securemem.pii.scan import Scan, Span, index_words
from securemem.pii.secrets import (
    DJANGO_LITERALS,
    JOINTS,
    LEET_LITERALS,
    find_aws_named_secrets,
    find_aws_pairs,
    find_basic_auth,
    find_blocked_tokens,
    find_catalogue,
    find_combo_passwords,
    find_command_credentials,
    find_connection_passwords,
    find_cookie_secrets,
    find_dash_spaced_tokens,
    find_django_keys,
    find_dumped_secrets,
    find_high_entropy,
    find_keyword_secrets,
    find_leet_labelled_passwords,
    find_login_pairs,
    find_oauth_codes,
    find_odd_case_labels,
    find_pgpass,
    find_property_secrets,
    find_sasl_plain,
    find_sid_pairs,
    find_spaced_joint_tokens,
    find_sql_passwords,
    find_transcript_passwords,
    find_url_credentials,
    find_variable_defaults,
    may_hold_blocked_token,
    may_hold_combo_line,
    may_hold_command_credential,
    may_hold_high_entropy,
    may_hold_keyword_secret,
    may_hold_login_pair,
    may_hold_odd_case_label,
    may_hold_pgpass,
    starts_a_prefixed_token,
)
from securemem.pii.seeds import find_unlabelled_seeds, may_hold_seed
from securemem.pii.spelt import find_spelt_passwords, may_hold_spelt_password
from securemem.pii.told import (
    find_celled_values,
    find_chat_parts,
    find_second_pieces,
    find_told_parts,
    may_hold_cells,
    may_hold_chat_parts,
    may_hold_second_piece,
    may_hold_told_parts,
)
from securemem.pii.wallets import find_wallet_keys, may_hold_wallet_key

Hit = tuple[str, int, int]
_new_tuple = tuple.__new__


class DetectorError(RuntimeError):
    """A plug-in detector failed or returned something unusable (the message never holds text)."""


@runtime_checkable
class Detector(Protocol):
    """What a plug-in detector provides (see the module docstring)."""

    @property
    def name(self) -> str: ...

    @property
    def types(self) -> Collection[str]: ...

    def find(self, text: str) -> Iterable[tuple[str, int, int]]: ...


def _typed(name: str, finder: Callable[[Scan], Iterable[Span]]) -> Callable[[Scan], Iterable[Hit]]:
    def run(scan: Scan) -> Iterable[Hit]:
        return [(name, start, end) for start, end in finder(scan)]

    return run


# An extension written after a number ("+1 (485) 671-2247 ext. 43", "865.565.0140 x394"): part of it.
# Other languages' words for it (reviewer M): Italian "int.", Polish "wew.", French "poste", Turkish
# "dahili", German "Durchwahl"/"DW", Spanish "extensión"/"anexo", Russian "доб."/"доп.".
_EXTENSION = lazy_compile(
    # (blanks possessive: a run of them after each phone was read back and forth, quadratic: an attacker's round)
    r"[ \t]*+(?:,[ \t]*+)?(?:ext\.?|extn\.?|extension|x|#"
    r"|int\.|wew\.|poste|dahili|durchwahl|dw\.?|extensión|anexo|доб\.|доп\.)"
    r"[ \t]*+[0-9]{1,6}(?![0-9A-Za-z])",
    re.IGNORECASE,
)


def _phones(finder: Callable[[Scan], Iterable[Span]]) -> Callable[[Scan], Iterable[Hit]]:
    def run(scan: Scan) -> Iterable[Hit]:
        text = scan.text
        hits: list[Hit] = []
        for start, end in finder(scan):
            extension = _EXTENSION.match(text, end)
            hits.append(("PHONE", start, end if extension is None else extension.end()))
        return hits

    return run


_SECRETS = frozenset(entities.members("SECRET"))
# What a base64 run is read for once decoded: every secret, and an address encoded to slip it past a filter ("the
# mail in base64 so the filter leaves it: Z3Jvc3NpMTY3QHRpc2NhbGkuaXQ=": reviewer BO). Not numbers: a number
# decoded has lost the label that said what it is, and ordinary systems encode theirs (a Kafka offset, a
# channel's id, a lot's number in a query: an attacker's round).
_DECODED_TYPES = _SECRETS | {"EMAIL"}


def _encoded(scan: Scan) -> Iterable[Hit]:
    """Base64 runs whose decoded text holds a secret or a personal value (read with the detectors a join's
    window gets: decoded text is not decoded again)."""
    paired: list[bool] = []  # whether the text names credentials: searched once, for the first run that needs it

    def secrets_in(decoded: str) -> list[Hit]:
        if len(decoded) <= _DECODED_VALUE and iban_valid(decoded.strip().replace(" ", "").upper()):
            # An IBAN says what it is by its country and check digits, encoded or not (reviewer CM)
            return [("IBAN", 0, len(decoded))]
        found = _builtin_hits(Scan(decoded, scan.phone_regions), _decoded_types(decoded), True)
        if not found and _USER_PASSWORD.fullmatch(decoded) is not None:
            if not paired:
                paired.append(_PAIR_NAMED.search(scan.lower) is not None)
            if paired[0]:
                return [("BASIC_AUTH", 0, len(decoded))]
        return found

    return find_encoded_secrets(scan, secrets_in)


# A user and a password as Basic authentication encodes them ("user:pass" in base64), in a text that names such
# credentials ("carrier portal basic-auth creds, base64'd ...: YWdlbnQ5NjU6...": reviewer CC): the password has a
# digit or a symbol and a letter, six characters at least.
# (whole words: "basically", "incredible", "loginUrl" and a GraphQL id beside "login" name no credentials; the user a
# name, not a number or a type's: "010:Repository1296269" is a GitHub node's id: an attacker's round)
_PAIR_NAMED = lazy_compile(
    r"(?<![^\W\d_])(?:basic[ _\-]?auth|auth|authorization|credentials?|creds|zugangsdaten|identifiants|credenciales"
    r"|credenziali|user:pass(?:word)?|username:password)(?![^\W\d_])"
)
# The password mixes small and capital letters and digits, or holds a password's symbol (not a version, a locale, a
# digest, a ticket or a timestamp: "nginx:1.25.3-alpine", "locale:en_US.UTF-8", "sha256:9f86...", "ticket:INC-0045",
# "request:2024-06-12T10" in base64 beside "auth" or "creds": an attacker's round); the user is no such key's name.
_USER_PASSWORD = lazy_compile(
    r"(?!(?:sha[0-9]*|md5|locale|ticket|request|version|region|offset|cursor|page|redirect|layout|experiment|"
    r"partition|image|type|id|key|hash|etag|state|nonce|session|section|anchor|ref|urn|arn|id[a-z]*):)"
    r"[a-z][a-z0-9._@+\-]{1,63}:(?=[^\s:]*[A-Za-z])"
    r"(?:(?=[^\s:]*[a-z])(?=[^\s:]*[A-Z])(?=[^\s:]*[0-9])(?![a-z]{2}_[A-Z]{2}\b)|(?=[^\s:]*[!@#$%^&*?~+=]))[^\s:]{6,128}"
)


# ... but a "+" number under a phone's own key in the decoded JSON keeps its label ('{"msisdn": "+4917644055456"}' in
# base64 as an OAuth request's "state": reviewer BW).
_DECODED_PHONE_KEY = lazy_compile(
    r"""["'](?:msisdn|phone|mobile|tel|telephone|phone_?number)["'][ \t]*:[ \t]*["']\+[1-9]""", re.I
)


def _decoded_types(decoded: str) -> frozenset[str]:
    types = _DECODED_TYPES if len(decoded) <= _DECODED_VALUE else _SECRETS
    return types | {"PHONE"} if _DECODED_PHONE_KEY.search(decoded) else types


_DECODED_VALUE = 64  # a decoded run this short is one value (a blob's longer text is read for secrets only)
# Every character of a value percent-escaped, as a link's query hides it ("?e=%70%65%72...%40%62%6F%6C..."):
# reviewer BO. (The view reads the escapes of "@", "+", ".", " " and "-" alone in place: see normalize.py.)
# The view has read the escapes it knows in place, so a run may hold "@", ".", "+", "-", ":" and "/" among them.
_PERCENT_RUN = lazy_compile(r"%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2}|[@.+\-:/]){7,1024}")
_PERCENT_ESCAPE = lazy_compile(r"(?:%[0-9A-Fa-f]{2})+")
_PERCENT_LEAST = 6  # escapes a run holds at least
_PERCENT_BUDGET = 1 << 16  # characters of runs decoded per text


def _percent_encoded(scan: Scan) -> Iterable[Hit]:
    hits: list[Hit] = []
    budget = _PERCENT_BUDGET
    for run in _PERCENT_RUN.finditer(scan.text):
        if run.group().count("%") < _PERCENT_LEAST or "@" not in run.group():
            continue  # an address's "@" the view has read already (see normalize.py)
        budget -= len(run.group())
        if budget < 0:
            break
        try:
            decoded = _PERCENT_ESCAPE.sub(lambda m: bytes.fromhex(m.group().replace("%", "")).decode(), run.group())
        except ValueError:
            continue
        if not decoded.isprintable():
            continue
        found = _builtin_hits(Scan(decoded, scan.phone_regions), _DECODED_TYPES, True)
        if found:
            kind = max(found, key=lambda hit: hit[2] - hit[1])[0]
            hits.append((kind, *run.span()))
    return hits


def _dictated_emails(scan: Scan) -> Iterable[Hit]:
    return [("EMAIL", start, end) for start, end in find_dictated_emails(scan)]


def _emails(scan: Scan) -> Iterable[Hit]:
    hits = [("EMAIL", start, end) for start, end in find_emails(scan)] if "@" in scan.text else []
    lower = scan.lower
    foreign = foreign_at(lower)  # "arroba", "chiocciola"... (see SPOKEN_ATS), read once for the finders below
    hits += [("EMAIL", start, end) for start, end in find_obfuscated_emails(scan, foreign)]
    hits += [("EMAIL", start, end) for start, end in find_bare_at_emails(scan)]
    hits += [("EMAIL", start, end) for start, end in find_glued_at_emails(scan)]
    if foreign or " at " in lower:
        hits += [("EMAIL", start, end) for start, end in find_spoken_emails(scan, foreign)]
    return hits


@dataclass(frozen=True)
class _Builtin:
    """A built-in detector and its gate: what the text must hold for the detector to be worth running.

    Gates are checked inline by ``locate`` (a substring test costs far less than a call): most
    writes are ordinary text, and most detectors have nothing to do there.
    """

    types: frozenset[str]
    run: Callable[[Scan], Iterable[Hit]]
    digits: int = 0  # needs a number with this many digits or more (7 at least: see Scan.long_numbers)
    literals: tuple[str, ...] = ()  # needs one of these substrings
    lowered: bool = False  # ... in the lower-cased text
    gate: Callable[[Scan], bool] | None = None  # needs this to hold (a cheap test of its own)
    # Reads a text's tables, rows or messages as a whole: not run again on the short windows a join
    # makes (a wrapped line, split literals, spaced-out characters), where no table or message is.
    whole: bool = False


# An address, a closing bracket of "[at]", a dashed, underscored or spelt-out "at" ("nokta": Turkish "et" (@) and
# "." spelt).
_EMAIL_MARKS = ("@", "]", ")", "}", ">", "-at-", "_at_", " nokta ", *SPOKEN_ATS)
_EMAIL_MARKS_OTHER = tuple(mark for mark in _EMAIL_MARKS if not mark.isascii())


def _may_hold_email(scan: Scan) -> bool:
    """One of _EMAIL_MARKS is in the lower-cased text: the same answer as a test of each, with fewer
    substring searches (each reads the whole text): marks that share a part are tested by that part
    first, " at the rate " is found by " at ", and marks with a letter that is not ASCII are looked
    for only in text that has one (tests/test_pii_prefilters.py checks it against the marks)."""
    lower = scan.lower
    return (
        "@" in lower
        or "]" in lower
        or ")" in lower
        or "}" in lower
        or ">" in lower
        or not _AT_WORDS.isdisjoint(scan.words)  # "-at-", " at "
        or "_at_" in scan.words
        or (
            # Each word between its blanks only where the scan's words hold it (most text holds none).
            not _SPOKEN_AT_WORDS.isdisjoint(scan.words)
            and (
                " nokta " in lower
                or " chez " in lower
                or " kukac " in lower
                or " arond " in lower
                or " snabel-a " in lower
                or " chiocciola " in lower
                or " klammeraffe " in lower
                or " arroba " in lower
                or " arobase " in lower
                or " apenstaartje " in lower
                or " apestaartje " in lower
                or " arrova " in lower
            )
        )
        or (not lower.isascii() and any(mark in lower for mark in _EMAIL_MARKS_OTHER))
    )


_AT_WORDS = index_words("-at-", " at ")
index_words("_at_")
_SPOKEN_AT_WORDS = index_words(
    "nokta", "chez", "kukac", "arond", "snabel-a", "chiocciola", "klammeraffe", "arroba", "arobase", "apenstaartje",
    "apestaartje", "arrova",
)  # fmt: skip


# What a table's column, a SQL row's value or an aligned column may be named as.
_TABLE_TYPES = frozenset(
    {"US_SSN", "PHONE", "CREDIT_CARD", "IBAN", "BANK_ACCOUNT", "NATIONAL_ID", "PASSWORD", "GENERIC_SECRET"}
)
_BUILTINS: tuple[_Builtin, ...] = (
    _Builtin(frozenset({"EMAIL"}), _emails, gate=_may_hold_email),
    _Builtin(frozenset({"EMAIL"}), _dictated_emails, gate=may_hold_dictated_email),
    _Builtin(frozenset({"PHONE"}), _phones(find_phones), digits=PHONE_DIGITS),
    _Builtin(
        frozenset({"PHONE"}),
        _phones(find_labelled_phones),
        digits=PHONE_DIGITS,
        gate=may_hold_labelled_phone,
    ),
    _Builtin(
        frozenset({"PHONE", "US_SSN", "CREDIT_CARD", "GENERIC_SECRET", "BANK_ACCOUNT"}),
        find_spelt_numbers,
        gate=may_hold_spelt_phone,
    ),
    _Builtin(frozenset({"PHONE"}), _phones(find_phone_objects), gate=may_hold_phone_object),
    _Builtin(frozenset({"PHONE"}), _phones(find_korean_phones), gate=may_hold_korean_phone),
    _Builtin(
        frozenset({"PHONE"}), find_split_area_codes, literals=("area",), lowered=True, gate=may_hold_split_area_code
    ),
    _Builtin(frozenset({"CREDIT_CARD"}), _typed("CREDIT_CARD", find_cards), digits=CARD_DIGITS),
    _Builtin(frozenset({"PASSWORD", "GENERIC_SECRET"}), find_card_pins, digits=CARD_DIGITS, gate=may_hold_card_pin),
    _Builtin(frozenset({"US_SSN", "CREDIT_CARD"}), find_told_parts, gate=may_hold_told_parts),
    _Builtin(frozenset({"CREDIT_CARD", "IBAN"}), find_chat_parts, gate=may_hold_chat_parts),
    _Builtin(frozenset({"CREDIT_CARD", "IBAN"}), find_celled_values, gate=may_hold_cells),
    _Builtin(frozenset({"PASSWORD"}), find_second_pieces, gate=may_hold_second_piece),
    _Builtin(
        frozenset({"CREDIT_CARD"}),
        _typed("CREDIT_CARD", find_short_maestros),
        digits=SHORT_MAESTRO_DIGITS,
        literals=("maestro",),
        lowered=True,
    ),
    _Builtin(
        frozenset({"CREDIT_CARD"}),
        _typed("CREDIT_CARD", find_underscored_cards),
        literals=("_",),
        gate=may_hold_underscored_card,
    ),
    _Builtin(frozenset({"CREDIT_CARD"}), _typed("CREDIT_CARD", find_piped_cards), gate=may_hold_piped_card),
    _Builtin(frozenset({"CREDIT_CARD"}), _typed("CREDIT_CARD", find_keyed_cards), gate=may_hold_keyed_card),
    _Builtin(frozenset({"IBAN"}), _typed("IBAN", find_ibans), gate=may_hold_iban),
    _Builtin(frozenset({"BANK_ACCOUNT"}), find_bank_numbers, gate=may_hold_bank_number),
    _Builtin(frozenset({"BANK_ACCOUNT"}), find_hungarian_accounts, gate=may_hold_hungarian_account),
    _Builtin(frozenset({"BANK_ACCOUNT"}), find_bank_fields, gate=may_hold_bank_field),
    _Builtin(frozenset({"BANK_ACCOUNT"}), _typed("BANK_ACCOUNT", find_ledger_accounts), gate=may_hold_ledger_account),
    _Builtin(frozenset({"US_SSN"}), _typed("US_SSN", find_ssns), digits=SSN_DIGITS, gate=may_hold_ssn),
    _Builtin(frozenset({"US_SSN", "PHONE"}), find_x12, literals=("~",), gate=may_hold_x12),  # EDI segments
    _Builtin(frozenset({"PHONE"}), find_edifact_phones, literals=("COM+",)),  # EDIFACT's COM segments
    _Builtin(frozenset({"US_SSN", "PHONE"}), find_hl7, literals=("|",), gate=may_hold_hl7, whole=True),  # HL7 v2
    _Builtin(frozenset({"IP_ADDRESS"}), _typed("IP_ADDRESS", find_ip_addresses), gate=may_hold_ip_address),
    _Builtin(frozenset({"IP_ADDRESS"}), _typed("IP_ADDRESS", find_said_ipv4), gate=may_hold_said_ip),
    _Builtin(frozenset({"PRIVATE_KEY"}), _typed("PRIVATE_KEY", find_private_keys), literals=("PRIVATE KEY",)),
    _Builtin(frozenset({"PRIVATE_KEY"}), _typed("PRIVATE_KEY", find_der_keys), literals=DER_KEY_HINTS),
    _Builtin(frozenset({"PRIVATE_KEY"}), _typed("PRIVATE_KEY", find_wallet_keys), gate=may_hold_wallet_key),
    _Builtin(frozenset({"JWT"}), _typed("JWT", find_jwts), literals=("eyJ",)),
    _Builtin(frozenset({"JWT"}), _typed("JWT", find_wrapped_jwts), literals=("eyJ",), whole=True),
    _Builtin(
        frozenset({"BEARER_TOKEN"}),
        _typed("BEARER_TOKEN", find_bearer_tokens),
        literals=("bearer", "ssws"),
        lowered=True,
    ),
    _Builtin(frozenset(CATALOGUE_TYPES) - {rule.type for rule in KEYED}, find_catalogue),
    _Builtin(frozenset(CATALOGUE_TYPES) - {rule.type for rule in KEYED}, find_dash_spaced_tokens, literals=(" - ",)),
    _Builtin(frozenset(CATALOGUE_TYPES) - {rule.type for rule in KEYED}, find_spaced_joint_tokens, literals=JOINTS),
    _Builtin(
        frozenset(CATALOGUE_TYPES) - {rule.type for rule in KEYED}, find_blocked_tokens, gate=may_hold_blocked_token
    ),
    _Builtin(
        frozenset({"PASSWORD", "GENERIC_SECRET"} | {rule.type for rule in KEYED}),
        find_keyword_secrets,
        gate=may_hold_keyword_secret,
    ),
    _Builtin(
        frozenset({"BACKBLAZE_KEY_ID", "BACKBLAZE_APPLICATION_KEY", "GENERIC_SECRET", "PASSWORD"}),
        find_command_credentials,
        gate=may_hold_command_credential,
    ),
    _Builtin(frozenset({"TWILIO_AUTH_TOKEN"}), find_sid_pairs, literals=("AC", "SK")),
    _Builtin(frozenset({"AWS_SECRET_KEY", "AWS_ACCESS_KEY"}), find_aws_pairs, literals=("AKIA", "ASIA")),
    _Builtin(frozenset({"GENERIC_SECRET"}), find_django_keys, literals=DJANGO_LITERALS, lowered=True),
    _Builtin(
        frozenset({"AWS_SECRET_KEY"}), find_aws_named_secrets, literals=("aws", "secret", "akia", "asia"), lowered=True
    ),
    _Builtin(frozenset({"EMAIL", "PHONE"}), find_pix_keys, literals=("br.gov.bcb.pix",), lowered=True),  # Pix's key
    _Builtin(frozenset({"PHONE"}), _phones(find_msisdns), literals=("msisdn",), lowered=True),
    _Builtin(frozenset({"GENERIC_SECRET"}), find_oauth_codes, literals=("code=",)),  # an OAuth redirect's code
    _Builtin(frozenset({"PASSWORD"}), find_sql_passwords, literals=("identified", "sp_addlogin"), lowered=True),
    _Builtin(frozenset({"PASSWORD", "GENERIC_SECRET"}), find_variable_defaults, literals=("variable",)),
    _Builtin(
        frozenset({"PHONE"}),
        _phones(find_whatsapp_links),
        literals=("wa.me/", "phone=", "t.me/+", "intent://send/", "upi://"),
        lowered=True,
    ),
    _Builtin(frozenset({"PASSWORD"}), find_pgpass, literals=(":",), gate=may_hold_pgpass),  # .pgpass lines
    # IMAP's LOGIN and SMTP's AUTH LOGIN in a transcript; a secret setting's "value" under its name (reviewer BU)
    _Builtin(frozenset({"PASSWORD"}), find_transcript_passwords, literals=("LOGIN", "login", "UGFzc3dvcmQ6")),
    _Builtin(frozenset({"PASSWORD", "GENERIC_SECRET"}), find_property_secrets, literals=('"value"',)),
    # "-u " and "--user"; Go's MySQL DSN, "user:pass@tcp(...)"
    _Builtin(frozenset({"URL_CREDENTIALS"}), find_url_credentials, literals=("://", "-u", "@tcp(", "@unix(", "@udp(")),
    _Builtin(frozenset({"BASIC_AUTH"}), find_basic_auth, literals=("basic",), lowered=True),
    _Builtin(frozenset({"BASIC_AUTH"}), find_sasl_plain, literals=("plain",), lowered=True),
    _Builtin(
        frozenset({"PASSWORD", "GENERIC_SECRET"}),
        find_dumped_secrets,
        # a REPL's prompt, or (the view drops ">>> ") a name in brackets or quotes that ends its line
        literals=(
            ">>> ",
            "=>",
            " = 0x",
            "']\n",
            '"]\n',
            "')\n",
            '")\n',
            "']\r",
            '"]\r',
            "In [",
            "irb(",
            "pry(",
            "ghci>",
            "julia>",
            "iex(",
            "\n'",
            '\n"',
        ),
    ),
    _Builtin(frozenset({"PASSWORD", "IBAN"}), find_spelt_passwords, gate=may_hold_spelt_password),
    _Builtin(frozenset({"CREDIT_CARD", "PHONE", "US_SSN"}), find_payment_fields, digits=7),
    _Builtin(
        frozenset({"CREDIT_CARD", "US_SSN", "IBAN"}),
        find_encoded_fields,
        literals=("base64", '"pan"', '"card', '"ssn"', '"tax', '"iban"', '"account"'),
        lowered=True,
    ),
    _Builtin(
        frozenset({"GENERIC_SECRET", "PASSWORD"}),
        find_payment_secrets,
        literals=("554=", "925=", "component", "pin block", "pin_block", "pinblock", "pin-block"),
        lowered=True,
    ),
    _Builtin(frozenset({"GENERIC_SECRET"}), find_cookie_secrets, literals=("cookie", "-b "), lowered=True),
    _Builtin(frozenset({"GENERIC_SECRET"}), find_recovery_secrets, gate=may_hold_recovery_secret),
    _Builtin(frozenset({"NATIONAL_ID"}), find_national_ids, gate=may_hold_national_id),
    _Builtin(frozenset({"PASSWORD"}), find_combo_passwords, gate=may_hold_combo_line),
    _Builtin(
        frozenset({"PASSWORD", "GENERIC_SECRET", "BEARER_TOKEN"}), find_odd_case_labels, gate=may_hold_odd_case_label
    ),
    _Builtin(frozenset({"GENERIC_SECRET"}), find_unlabelled_seeds, gate=may_hold_seed),
    _Builtin(frozenset({"PASSWORD"}), find_answered_passwords, gate=may_hold_answered_password, whole=True),
    _Builtin(frozenset({"PASSWORD"}), find_answered_codes, gate=may_hold_answered_code, whole=True),
    _Builtin(frozenset({"CREDIT_CARD"}), find_answered_cards, gate=may_hold_answered_card, whole=True),
    _Builtin(frozenset({"PASSWORD"}), find_account_passwords, gate=may_hold_account_password),
    _Builtin(frozenset({"PASSWORD"}), find_login_pairs, gate=may_hold_login_pair),
    _Builtin(frozenset({"PASSWORD"}), find_lock_codes, gate=may_hold_lock_code),
    _Builtin(
        frozenset({"GENERIC_SECRET"}), _typed("GENERIC_SECRET", find_security_answers), gate=may_hold_security_answer
    ),
    _Builtin(frozenset({"PASSWORD"}), find_memorable_words, literals=MEMORABLE_LITERALS, lowered=True),
    _Builtin(frozenset({"GENERIC_SECRET"}), find_porting_codes, literals=PORTING_LITERALS),
    _Builtin(frozenset({"PASSWORD"}), find_clause_passwords, gate=may_hold_clause_password),
    _Builtin(
        frozenset({"PASSWORD", "GENERIC_SECRET"}), find_leet_labelled_passwords, literals=LEET_LITERALS, lowered=True
    ),
    _Builtin(frozenset({"GENERIC_SECRET"}), find_codes),  # one pass for runs of digits: its own gate
    _Builtin(frozenset({"GENERIC_SECRET"}), find_alnum_codes, gate=may_hold_alnum_code),
    _Builtin(_DECODED_TYPES | {"IBAN"}, _encoded, gate=may_hold_encoded_secret, whole=True),
    _Builtin(_DECODED_TYPES, _percent_encoded, literals=("%",), whole=True, gate=lambda scan: "@" in scan.text),
    _Builtin(frozenset(rule.type for rule in KEYED), find_labelled_tokens, gate=may_hold_labelled_token),
    _Builtin(
        frozenset({"PASSWORD", "GENERIC_SECRET", "PRIVATE_KEY"}),
        find_connection_passwords,
        literals=("jdbc:oracle:thin:", "={", "= {", "secret", "LS0tLS1CRUdJTi", "->"),
    ),
    _Builtin(frozenset({"HIGH_ENTROPY_SECRET"}), find_high_entropy, gate=may_hold_high_entropy),
    # Values under a header that names them ("...,ssn,hire_date" then "1042,...,105032014,2019-04-01").
    _Builtin(
        _TABLE_TYPES,
        find_columns,
        literals=("\n",),
        gate=may_hold_columns,
        whole=True,
    ),
    _Builtin(
        _TABLE_TYPES,
        find_sql_inserts,
        literals=("values",),
        lowered=True,
        gate=may_hold_sql_insert,
        whole=True,
    ),
    _Builtin(
        frozenset({"US_SSN", "PHONE", "CREDIT_CARD", "IBAN"}),
        find_split_cells,
        literals=("|",),
        gate=may_hold_split_cells,
        whole=True,
    ),
    _Builtin(
        frozenset({"US_SSN", "PHONE", "CREDIT_CARD", "IBAN", "GENERIC_SECRET"}),
        find_split_parts,
        literals=("<tr", '":', '" :'),
        lowered=True,
        gate=may_hold_html_rows,
        whole=True,
    ),
    _Builtin(_TABLE_TYPES, find_form_fields, literals=("<input", "</"), lowered=True, gate=may_hold_form_field),
    _Builtin(
        _TABLE_TYPES,
        find_aligned_columns,
        literals=("   ",),
        gate=may_hold_aligned_columns,
        whole=True,
    ),
)

_REGISTERED: list[Detector] = []
check_phone_regions(DEFAULT_PHONE_REGIONS)


def register_detector(detector: Detector) -> None:
    """Add a plug-in detector that every Scrubber and detect() call uses from now on."""
    _check_detector(detector)
    if detector not in _REGISTERED:
        _REGISTERED.append(detector)


def unregister_detector(detector: Detector) -> None:
    if detector in _REGISTERED:
        _REGISTERED.remove(detector)


def registered_detectors() -> tuple[Detector, ...]:
    return tuple(_REGISTERED)


def _check_detector(detector: Detector) -> None:
    if not isinstance(detector, Detector):
        raise TypeError("a detector has name, types and find(text)")
    known = set(entities.entity_types())
    unknown = sorted(set(detector.types) - known)
    if unknown:
        raise ValueError(f"detector {detector.name!r} reports unregistered type(s) {', '.join(unknown)}")


class Located(NamedTuple):
    """A finding with its span in the view (what tokens are computed from) and in the original."""

    type: str
    view_start: int
    view_end: int
    start: int
    end: int


# A step's literal: its rarest character, itself, its key in the scan's words (None: tested by a search of
# its own), and whether the text itself must hold it (a step that reads the text as written: the words are
# found in the lower-cased copy).
_Literal = tuple[str, str, str | None, bool]
_Step = tuple[Callable[[Scan], Iterable[Hit]], bool, int, tuple[_Literal, ...], bool, Callable[[Scan], bool] | None]
# Characters from most to least common in text (lower case first): a literal's gate is its rarest one.
_COMMONNESS = " etaoinsrhldcumfpgwybvkxjqz.,-:)(ETAOINSRHLDCUMFPGWYBVKXJQZ0123456789/@]_=>}"


def _rarest(literal: str) -> str:
    return max(literal, key=lambda char: _COMMONNESS.find(char) if char in _COMMONNESS else len(_COMMONNESS))


def _literal_key(literal: str, lowered: bool) -> str | None:
    """``literal``'s key in the scan's words: itself lower-cased, unless the index cannot hold it (one
    character, blanks alone), a step reading the lower-cased text asks for a capital (found nowhere), or
    a short literal of capitals would be found lower-cased in most prose ("AC" in "each", "PAC" in "space":
    their capitals, rare, are tested first)."""
    key = literal.lower()
    if len(key) < 2 or key.isspace() or (lowered and key != literal) or (key != literal and len(key) < 4):
        return None
    return key


def _literal(literal: str, lowered: bool) -> _Literal:
    key = _literal_key(literal, lowered)
    return (_rarest(literal), literal, key, key is not None and not lowered)


index_words(*{key for b in _BUILTINS for lit in b.literals if (key := _literal_key(lit, b.lowered)) is not None})


@lru_cache(maxsize=256)
def _plan(wanted: frozenset[str], version: int, window: bool = False) -> tuple[_Step, ...]:
    """The built-in detectors to run for ``wanted``: (run, filter its hits, digits, literals, lowered, gate);
    on a join's ``window``, not those that read a whole text's tables and messages."""
    del version  # part of the cache key only
    return tuple(
        (
            b.run,
            not b.types <= wanted,
            b.digits,
            tuple(_literal(lit, b.lowered) for lit in b.literals),
            b.lowered,
            b.gate,
        )
        for b in _BUILTINS
        if b.types & wanted and not (window and b.whole)
    )


class _Plan:
    """A plan's steps, and which of them a text's literals' rarest characters leave to run.

    The rarest characters of all the steps' literals (each in the text or in its lower-cased copy,
    as its step reads) are tested once per text, a memchr each; a step with literals none of whose
    rarest characters is in the text is dropped (its literals' test could only fail), all of them
    in one dictionary lookup (kept per set of characters found) instead of step by step. A step
    kept still tests its literals as before: the same steps run, in the same order.
    """

    __slots__ = ("_chosen", "_masks", "lowered_rares", "rares", "steps")

    _KEEP = 1024  # sets of characters whose steps are kept (texts of one kind share a few)

    def __init__(self, steps: tuple[_Step, ...]) -> None:
        self.steps = steps
        rares = sorted({literal[0] for step in steps if not step[4] for literal in step[3]})
        lowered_rares = sorted({literal[0] for step in steps if step[4] for literal in step[3]})
        bits = {(rare, False): 1 << index for index, rare in enumerate(rares)}
        bits.update({(rare, True): 1 << (len(rares) + index) for index, rare in enumerate(lowered_rares)})
        self.rares = tuple(rares)
        self.lowered_rares = tuple(lowered_rares)
        masks = []
        for step in steps:
            mask = 0
            for literal in step[3]:
                mask |= bits[literal[0], step[4]]
            masks.append(mask)
        self._masks = tuple(masks)
        self._chosen: dict[int, tuple[_Step, ...]] = {}

    def chosen(self, text: str, lower: str) -> tuple[_Step, ...]:
        """The steps whose literals may be in ``text`` (``lower`` for the lower-cased ones), in order."""
        found = 0
        bit = 1
        for rare in self.rares:
            if rare in text:
                found |= bit
            bit <<= 1
        for rare in self.lowered_rares:
            if rare in lower:
                found |= bit
            bit <<= 1
        steps = self._chosen.get(found)
        if steps is None:
            steps = tuple(step for step, mask in zip(self.steps, self._masks, strict=True) if not mask or mask & found)
            if len(self._chosen) < self._KEEP:
                self._chosen[found] = steps
        return steps


@lru_cache(maxsize=256)
def _fast_plan(wanted: frozenset[str], version: int, window: bool = False) -> _Plan:
    return _Plan(_plan(wanted, version, window))


def detect(
    text: str,
    types: Collection[str] | None = None,
    *,
    phone_regions: str | Sequence[str] = DEFAULT_PHONE_REGIONS,
    detectors: Sequence[Detector] | None = None,
    phone_region: str | None = None,
) -> list[Finding]:
    """Non-overlapping findings sorted by start, in offsets of ``text`` as given.

    ``types`` limits the scan to those entity types or families (all types when None). National
    phone numbers (no "+" or "00") are read in each of ``phone_regions`` in turn; ``phone_region``
    is the older single-region spelling. ``detectors`` replaces the registered plug-ins for this
    call. Where candidates overlap, the longer one wins, then the more specific type (a PEM block
    swallows anything inside it; a JWT sent as "Bearer <jwt>" is reported once, as a JWT).
    """
    if phone_region is None and phone_regions is DEFAULT_PHONE_REGIONS:
        regions = DEFAULT_PHONE_REGIONS  # checked when the module was imported
    else:
        regions = check_phone_regions((phone_region,) if phone_region is not None else phone_regions)
    wanted = wanted_types(None if types is None else _as_names(types))
    view, settled = _settled(text, wanted, regions, _REGISTERED if detectors is None else tuple(detectors))
    if view.identity:
        found = [_new_tuple(Finding, hit) for hit in settled]  # each hit is (type, start, end) already
    else:
        found = [Finding(kind, start, end) for kind, _, _, start, end in _disjoint(view, settled)]
    if found and ("_" in text or "*" in text or "~" in text or "`" in text):
        found = [_closed(text, finding) for finding in found]
    return found


def _as_names(types: Collection[str]) -> tuple[str, ...]:
    if isinstance(types, str):
        raise TypeError("types must be a collection of entity type names, not one string")
    return tuple(sorted(types))


def wanted_types(types: Collection[str] | None) -> frozenset[str]:
    """Concrete types named by ``types`` (types or families); every type for None."""
    if isinstance(types, str):
        raise TypeError("types must be a collection of entity type names, not one string")
    return _wanted(None if types is None else tuple(sorted(types)), entities.version())


@lru_cache(maxsize=256)
def _wanted(types: tuple[str, ...] | None, version: int) -> frozenset[str]:
    del version  # part of the cache key only
    if types is None:
        return frozenset(entities.entity_types())
    entities.check_names(types)
    chosen: set[str] = set()
    for name in types:
        chosen.update(entities.members(name) if name in entities.FAMILY_NAMES else (name,))
    return frozenset(chosen)


def locate(
    text: str, wanted: frozenset[str], regions: tuple[str, ...], detectors: Sequence[Detector]
) -> tuple[View, list[Located]]:
    """The view of ``text`` and the settled findings of the ``wanted`` types."""
    view, settled = _settled(text, wanted, regions, detectors)
    if view.identity:
        found = [Located(kind, start, end, start, end) for kind, start, end in settled]
    else:
        found = _disjoint(view, settled)
    if found and ("_" in text or "*" in text or "~" in text or "`" in text):
        found = [_closed(text, finding) for finding in found]
    return view, found


_BIDI_OPENERS = "\u202a\u202b\u202d\u202e\u2066\u2067\u2068"
_BIDI_CLOSERS = "\u202c\u2069"
_DIRECTION_MARKS = "\u200e\u200f"  # left-to-right and right-to-left marks


def _bidi_whole(original: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` widened by the bidi control just outside it that pairs with one inside: the closer
    after a value that opens an override ("4917 7446 \u202e8360 9959\u202c": reviewer AH), the opener
    before one that closes it ("\u202ejane.doe@exa\u202cmple.com": an attacker's round). Replaced with
    the value, no half of the pair is left to turn the rest of the line around."""
    part = original[start:end]
    balance = sum(part.count(char) for char in _BIDI_OPENERS) - sum(part.count(char) for char in _BIDI_CLOSERS)
    if balance > 0 and end < len(original) and original[end] in _BIDI_CLOSERS:
        return start, end + 1
    if balance < 0 and start > 0 and original[start - 1] in _BIDI_OPENERS:
        return start - 1, end
    if start > 0 and end < len(original) and original[start - 1] == "\u202e" and original[end] in _BIDI_CLOSERS:
        return start - 1, end + 1  # a value the override turns around whole ("\u202e4830-...-2354\u202c": reviewer BL)
    if original[start] in _DIRECTION_MARKS and end < len(original) and original[end] in _DIRECTION_MARKS:
        return start, end + 1  # marks around a value copied from a chat ("\u200f052\u200e-...-6054\u200f": reviewer CF)
    return start, end


def _disjoint(view: View, settled: Sequence[Hit]) -> list[Located]:
    """The findings in original offsets, where two that touch one original character are one.

    Findings are disjoint in the view; one original character may stand for several of the view's
    (NFKC reads ``¼`` as ``1⁄4``), and two findings that each take part of it ("10.0.0.1¼jane@...":
    an address ends in its ``1``, an email starts at its ``4``) would overlap in the original. They
    are replaced as one span, named by the longer.
    """
    out: list[Located] = []
    original = view.original
    for kind, start, end in settled:
        found = Located(kind, start, end, *_bidi_whole(original, *view.span(start, end)))
        if _opened_before(original, found.start, found.end) and (not out or out[-1].end <= found.start - 2):
            found = found._replace(start=found.start - 2)
        if out and found.start < out[-1].end:
            last = out[-1]
            longer = last.type if last.end - last.start >= found.end - found.start else kind
            found = Located(longer, last.view_start, end, last.start, max(last.end, found.end))
            out[-1] = found
            continue
        out.append(found)
    return out


def _settled(
    text: str, wanted: frozenset[str], regions: tuple[str, ...], detectors: Sequence[Detector]
) -> tuple[View, list[Hit]]:
    """The view of ``text`` and the settled findings of the ``wanted`` types, in view offsets."""
    view = View(text)
    if not wanted or not text:
        return view, []
    hidden = view.hidden_breaks() if not view.identity else ()
    scan = Scan(view.text, regions, view.encoded, view.lettered, hidden, no_break=view.no_break)
    candidates = _builtin_hits(scan, wanted)
    candidates += _spaced_out_hits(scan, wanted)
    candidates += _reversed_hits(scan, wanted)
    # (a run holds seven digits at least: most prose has fewer, and stops at a count kept from the built-in steps)
    if scan.digit_count >= _SEPARATED_LEAST and (
        "*" in scan.text or "_" in scan.text or scan.canonical.find(b"0-0-0-0-0-0-0") != -1
    ):
        candidates += _separated_digit_hits(scan, wanted)
    candidates += _comma_grouped_hits(scan, wanted)
    if "\n" in scan.text:
        candidates += _wrapped_hits(scan, wanted)
    # (a memchr for "*" before a search for "**": a two-character search costs a note 1 us, where "*" is absent)
    if '"' in scan.text or "'" in scan.text or "\\" in scan.text or ("*" in scan.text and "**" in scan.text):
        candidates += _literal_hits(scan, wanted)
    if not _PARTS_GATE.isdisjoint(scan.words) and (
        ":" in scan.text or "=" in scan.text or '"' in scan.text or "'" in scan.text
    ):
        candidates += _part_hits(scan, wanted)
    if "\n" in scan.text and _ONE_PER_LINE_GATE.search(scan.text) is not None:
        candidates += _vertical_hits(scan, wanted)
    if (
        view.spaced
        or "<" in scan.text
        or "*" in scan.text
        or "_" in scan.text
        or ("~" in scan.text and "~~" in scan.text)  # a memchr first, as for "**" above
        or ("`" in scan.text and _CODE_SPANS_MEET(scan.text))  # a memchr first: the pattern starts at any letter
    ):
        candidates += _markup_hits(scan, wanted, candidates, view.spaced)
    if view.glued:
        candidates += _split_hits(scan, wanted, view.glued, candidates)
    if "\u202e" in text:
        candidates += _overridden_hits(view, scan, wanted)
    for detector in detectors:
        if wanted.intersection(detector.types):
            candidates.extend(hit for hit in _plugin_hits(detector, scan.text) if hit[0] in wanted)
    settled = _settle(candidates) if len(candidates) > 1 else candidates
    if view.identity and (("*" in scan.text and "**" in scan.text) or ("_" in scan.text and "__" in scan.text)):
        settled = _with_openers(scan.text, settled)  # a view that is not the text: see _disjoint
    return view, settled


# A value written in pieces that code or markup joins: string literals joined by "+" or by nothing
# but a line break ('"sk_live_UQb4cfWS8v7vPUA"' then '"xXpaVRh5g"' on the next line, Python's implicit
# joining; '"AKIAGVPKAX" +' then '"O5H556HLBP"' in Go, Java and JavaScript), a backslash that continues
# a line inside a string (a shell's, YAML's) or after a "+" (Python's: '"ab" + \\' then '"cd"', reviewer BO),
# markdown's bold markers inside a token
# ("**AKIA3VBR**I56AI3XLTOTX"), and literals side by side on one line, which Python and C join
# ('("aio_pid1" "NJ1i0g5X...")': reviewer BE). Around each junction the text is read again with the junctions taken
# out, and a value found across one is kept, covering its pieces and the junctions between them. A
# junction's quotes close and open literals: a token's character is on each side of them. A comma
# joins only in Rust's concat!(): elsewhere items of a list are separate values.
# Each alternative is led by its first character, the lookbehinds after it: the engine skips to
# those characters at C speed.
_JUNCTION = lazy_compile(
    # (a blank may end the literal before: '"Bea" + "rer " + "IBE-mJJ..."' is "Bearer IBE-mJJ...": reviewer CC)
    r"""(?P<q>["'])(?:(?<=[^\s"'\\]["'])|(?<=[^\s"'\\][ ]["']))"""
    # (blanks possessive: a quote before a long run of blanks was read back and forth, quadratic: an attacker's round)
    r"""(?:[ \t]*+[+,]?[ \t]*+\\?\r?\n[ \t]*+\+?[ \t]*+|[ \t]*+[+,][ \t]*+|(?P<gap>[ \t]++))(?P=q)(?=[^\s"'])"""
    r"|\\\r?\n[ \t]*"
    r"|\*\*(?:(?<=[A-Za-z]\*\*)(?=[A-Za-z0-9])|(?<=[0-9]\*\*)(?=[A-Za-z]))"
)
_CONCAT = "concat!("  # Rust's macro joins its literals, which commas set apart
_SQL_CONCAT = lazy_compile(r"(?<![\w.])(?i:concat)[ \t]*\(")  # SQL's CONCAT('ghp_1BH', 'hZl4...'): an attacker's round


# Joins of other languages, read for a secret's pieces only (their pieces are often numbers that join into no
# value: "SELECT '5432' || '6379' || ... AS ports", an attacker's round): SQL's "||" ("SELECT 'ghp_1BHs' ||
# 'hZl4...'": reviewer BL), PHP's and Perl's ".", Lua's "..", a spreadsheet's "&", and a shell's quotes of either
# kind glued ("GL_TOKEN='glpat-VeQ5v'\"li7BvHbU...\"": one word, reviewer BL; or of one kind, '"ghp_1BH""hZl4..."').
_CODE_JUNCTION = lazy_compile(
    r"""(?P<q>["'])(?<=[^\s"'\\]["'])[ \t]*(?:\|\||\.\.?|&)[ \t]*(?P=q)(?=[^\s"'])"""
    r"""|(?<=[^\s"'\\$])(?:'"|"'|""|'')(?=[^\s"',;)\]}])"""
)
_CODE_JOIN_GATE = lazy_compile(r"""["'][ \t]*(?:\|\||\.|&)|['"]['"]""")


def _in_brackets(text: str, at: int) -> bool:
    """``at`` is inside brackets opened on its line ('key = ("aio_pid1" "NJ1i0g5X...")'), where literals side by
    side are one string in Python and C; not a shell's array ('ZIPS=("4532" "0151" ...)': its items stay apart)."""
    low = max(0, at - _JOIN_BACK)  # bounded: a long line of literals was read back to its start once per junction
    line = text[max(text.rfind("\n", low, at) + 1, low) : at]
    opened = line.rfind("(")
    return opened > 0 and ")" not in line[opened:] and line[opened - 1] != "="


# An assignment with blanks around its "=", which a shell refuses, of literals side by side: one string in Python and C
# ('card = "4626 7289" "2029 4602"  # implicit concat': reviewer CM).
_ASSIGNED_LITERALS = lazy_compile(r"""[ \t]*[A-Za-z_][\w.]*[ \t]+=[ \t]+(?:(["'])[^"'\n]*\1[ \t]+)*["'][^"'\n]*""")


def _assigned_literals(text: str, at: int) -> bool:
    """``at`` ends a literal of such an assignment, on its line."""
    low = max(0, at - _JOIN_BACK)
    return _ASSIGNED_LITERALS.fullmatch(text, max(text.rfind("\n", low, at) + 1, low), at) is not None


def _in_concat(text: str, at: int) -> bool:
    """``at`` is inside the arguments of Rust's concat!() or SQL's CONCAT() (no bracket closed between)."""
    low = max(0, at - _JOIN_BACK)
    opened = text.rfind(_CONCAT, low, at)
    if opened == -1:
        calls = list(_SQL_CONCAT.finditer(text, low, at))
        if not calls:
            return False
        opened, size = calls[-1].start(), len(calls[-1].group())
    else:
        size = len(_CONCAT)
    return ")" not in text[opened + size : at]


# A list of literals joined with nothing between: JavaScript's "['ghp_eLcRvqsp', 'fDwzKw18z6R0QH', ...].join('')"
# (reviewer CF), Python's "''.join(['ghp_', ...])". Its commas join its literals as concat!()'s do; a list joined
# otherwise (".join(', ')", ".join()", which puts commas back) or not joined keeps them apart.
_JOINED_AFTER = lazy_compile(r"\][ \t]*\.join\([ \t]*(?:''|\"\"|``)[ \t]*\)")
_JOINED_BEFORE = lazy_compile(r"(?:''|\"\")[ \t]*\.join\([ \t]*[\[(]")
# ... and Terraform's join() of a list with nothing between ('join("", ["sk-ant-api03-PMW8...", "acRN...", ...])':
# reviewer CK)
_JOIN_CALL = lazy_compile(r"(?<![\w.])join\([ \t]*(?:\"\"|'')[ \t]*,[ \t]*\[")


def _in_joined_list(text: str, at: int) -> bool:
    low = max(0, at - _JOIN_BACK)
    opened = text.rfind("[", low, at)
    if opened != -1 and "]" not in text[opened:at]:
        close = text.find("]", at, at + _JOIN_AHEAD)
        if close != -1 and (
            ("\n" not in text[at:close] and _JOINED_AFTER.match(text, close)) or _dialled_items(text, opened, close + 1)
        ):
            return True
    call = text.rfind("join(", low, at)
    if call != -1 and (opened_call := _JOIN_CALL.match(text, call)) is not None:
        return "]" not in text[opened_call.end() : at]
    joined = text.rfind(".join(", low, at)
    if joined == -1:
        return False
    before = _JOINED_BEFORE.search(text, max(low, joined - 4), joined + 8)
    return before is not None and ")" not in text[before.end() : at]


# A list of digits' strings whose first is a country's code ('"kontakt": ["+48", "691", "055", "820"]': reviewer
# CP; printed a string a line too: an attacker's round), read across as strings joined are: a number only if one is
# there whole.
_DIGIT_ITEMS = lazy_compile(r"""\[\s*(["'])\+(?P<code>[0-9]{1,3})\1(?:\s*,\s*\1[0-9]{1,6}\1){2,7}\s*\]""")


def _dialled_items(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is such a list, its first string a country's calling code whole ("+48"; not "+12": an
    attacker's round, '"delta": ["+12", "345", ...]')."""
    items = _DIGIT_ITEMS.fullmatch(text, start, end)
    return (
        items is not None
        and int(items["code"]) in phonenumbers.COUNTRY_CODE_TO_REGION_CODE
        # named a phone's or a contact's ('"kontakt": [...]'), not a score's or a tick's ('"scores": ["+33", ...]')
        and _ITEMS_NAMED.search(text, max(0, start - _ITEMS_BACK), start) is not None
    )


_ITEMS_NAMED = lazy_compile(
    r"(?i)(?:phone|tel|mobile|cell|contact|kontakt|contacto|contato|handy|whatsapp|sms|fax|callback|number|nummer"
    r"|numer|número|numéro|numero)[\w\- ]{0,16}[\"']?[ \t]*[:=][ \t]*\Z"
)
_ITEMS_BACK = 48


_JOIN_BACK = 256  # characters read before a junction (the key that names the value)
_JOIN_AHEAD = 512  # ... and after it
_JOIN_BUDGET = 64  # junctions read per text
_JOIN_CONTEXT = 128  # characters a value found in a window has before it there, when not read across a junction


# A value written one character per line ("7\n2\n0\n3\n...", an acrostic: reviewer BE's model that wrote it
# "vertically to dodge filters"): eight lines of one character in a row or more; each line break between them is
# a junction, and the text is read again without them (see _literal_hits).
_ONE_PER_LINE = lazy_compile(r"(?:^|\n)[^\s](?:\r?\n[^\s]){7,}(?=\r?\n|$)")
_ONE_PER_LINE_GATE = lazy_compile(r"\n[^\s]\r?\n[^\s]\r?\n[^\s]\r?\n[^\s]\r?\n")  # a line break first: found fast


def _vertical_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    text = scan.text
    junctions: list[tuple[int, int]] = []
    for run in _ONE_PER_LINE.finditer(text):
        start = run.start() + (text[run.start()] == "\n")
        for at in range(start + 1, run.end()):
            if text[at] == "\n":
                junctions.append((at - (text[at - 1] == "\r"), at + 1))
        if len(junctions) >= _VERTICAL_BUDGET:
            break
    # A column of digits that passes a card's checks is dice, lottery balls or answers as often: a card's only
    # after a card's word (an attacker's round).
    return [
        hit
        for hit in _hits_across(scan, wanted, junctions[:_VERTICAL_BUDGET])
        if hit[0] != "CREDIT_CARD" or CARD_WORDS.search(scan.lower, max(0, hit[1] - 80), hit[1]) is not None
    ]


_VERTICAL_BUDGET = 256  # line breaks read per text


def _literal_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    text = scan.text
    junctions = []
    tried = 0  # junctions refused: each costs a read back, so they are counted against the budget too
    for junction in _JUNCTION.finditer(text):
        if "," in junction.group() and not (
            _in_concat(text, junction.start()) or _in_joined_list(text, junction.start())
        ):
            continue
        if junction["gap"] is not None and not (
            _in_brackets(text, junction.start()) or _assigned_literals(text, junction.start())
        ):
            tried += 1  # a shell's arguments side by side ('-H "PRIVATE-TOKEN: glpat-..." "https://..."')
            if tried == _JOIN_BUDGET:
                break
            continue
        junctions.append(junction.span())
        if len(junctions) == _JOIN_BUDGET:
            break
    hits = _hits_across(scan, wanted, junctions)
    if _CODE_JOIN_GATE.search(text) is not None:
        secrets = wanted & _secrets_now()
        joins = [found.span() for _, found in zip(range(_JOIN_BUDGET), _CODE_JUNCTION.finditer(text), strict=False)]
        if secrets and joins:
            hits += _hits_across(scan, secrets, joins)
    return hits


@lru_cache(maxsize=4)
def _secret_types(version: int) -> frozenset[str]:
    del version  # part of the cache key only
    return frozenset(entities.members("SECRET"))


def _secrets_now() -> frozenset[str]:
    """The secret types the registry holds now."""
    return _secret_types(entities.version())


# Characters after a right-to-left override (U+202E) are shown in reverse: "\u202e4830-4106-2832-2354\u202c" is
# read on screen as the card 4532-2382-6014-0384 (reviewer BL). What the override turns around, up to its pop
# (U+202C) or the line's end, is read again reversed; a value found there is the span it is shown from.
_OVERRIDE = lazy_compile(r"\u202e(?P<inner>[^\u202c\u2069\n]{4,1024})")
# What is read reversed: values whose checks a reversed ordinary string passes by chance rarely (a card's Luhn
# digit, an IBAN's, an address's shape, a token's), not numbers a context word judged in the text's order (an
# attacker's round: "\u202eversion 1.0.0.4" read back as an address, a part number "4711-08-153" as an SSN).
_OVERRIDDEN_TYPES = frozenset({"CREDIT_CARD", "IBAN", "EMAIL"})


def _overridden_hits(view: View, scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    wanted = wanted & (_OVERRIDDEN_TYPES | _secrets_now())
    if not wanted:
        return []
    hits: list[Hit] = []
    original = view.original
    for override in _OVERRIDE.finditer(original):
        inner = override["inner"]
        shown = View(inner[::-1]).text
        found = _builtin_hits(Scan(shown, scan.phone_regions), wanted, window=True)
        if not found:
            continue
        forward = View(inner).text
        # (the view's own map: a view of all the text before each override was quadratic, 25 s for 80 KB of them)
        at = view.offset(override.start())
        if not scan.text.startswith(forward, at):
            at = scan.text.find(forward)
            if at == -1:
                continue
        size = len(forward)
        for kind, start, end in found:
            if len(shown) == size:
                hits.append((kind, at + size - end, at + size - start))  # the same characters, in the text's order
            else:
                hits.append((kind, at, at + size))
    return hits


# A value kept in parts that a key says are parts (reviewer BL): the items of a list named for them
# ('"maps_key_parts": ["AIzaSy_0BIF9gaivAOOw", "5o7IMEREZvenq0C2uu6"]') or the values of keys numbered as
# parts one after another ('"iban_part1": "DE58 0309 0117", "iban_part2": "2033 3087 60"'). Each gap between two
# parts is a junction (see _literal_hits): what is read across it is kept. Keys numbered without a part's
# word ("phone1", "phone2") are two values.
_PART_WORDS = r"(?:parts?|pieces?|chunks?|shards?|slices?|segments?|fragments?|halves|half|teile?)"
# (found with the scan's words, in its one pass: a substring search each cost a note 7 us once ":" let them be read)
_PARTS_GATE = index_words("part", "piece", "chunk", "shard", "slice", "segment", "fragment", "half", "halv", "teil")
# The part's word ends the key's name and starts it or follows "_", "-" or "." ("counterparts" is no key of parts:
# an attacker's round).
_PARTS_LIST = lazy_compile(
    rf"""(?<![^\s"'{{,])(?P<stem>(?:[A-Za-z0-9]+[_\-.])*)(?i:{_PART_WORDS})["']?[ \t]*[:=][ \t]*[\[(]"""
)
# A list whose key names a card's number ("card_number_parts", "pan_parts": PAN is the payment industry's name for
# it, reviewers BV and CC), or names a card in a record that holds its expiry or its code ('{"card_parts": [...],
# "exp": "03/28"}'; not a UI's "card_segments" or a compiler's "cc_parts" alone: an attacker's round): its parts
# joined may be a card (whose network and Luhn check hold), not only a secret, an IBAN or an email.
_CARD_NUMBER_STEM = lazy_compile(r"(?i:card[_\-.]?(?:number|num|no)|cardnumber|ccnum|pan|pan[_\-.]?number)[_\-.]")
_CARD_STEM = lazy_compile(r"(?i:cc|card)[_\-.]")
# (the record's expiry as a month and a year, its code as three or four digits: not a player's "exp": 4500 or a call
# of math.exp: an attacker's round)
_CARD_RECORD = lazy_compile(
    r"""(?i:(?<![a-z])(?:exp(?:iry|iration|ires)?(?:_?date)?["']?[ \t]*[:=][ \t]*["']?(?:0[1-9]|1[0-2])[ \t]*/"""
    r"""[ \t]*(?:20)?[0-9]{2}(?![0-9])|(?:cvv2?|cvc2?)["']?[ \t]*[:=][ \t]*["']?[0-9]{3,4}(?![0-9])))"""
)
_CARD_RECORD_REACH = 160  # characters around the list where the record holds the card's expiry or code
_LIST_ITEM = lazy_compile(r"""[ \t\r\n]*(?P<q>["'])(?P<value>[^"'\n]{1,256})(?P=q)[ \t\r\n]*(?P<sep>[,\])])""")
_NUMBERED_PART = lazy_compile(
    # (a stem starts a token only, not at each of a dotted token's words: "part: ab.cd.ef...." of 40 KB took 30 s, an
    # attacker's round)
    rf"""(?<![A-Za-z0-9_.\-])(?P<stem>[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*?)[_\-.](?i:{_PART_WORDS})[_\-.#]?"""
    r"""(?P<n>[0-9]{1,2})["']?[ \t]*[:=][ \t]*"""
    r"""(?:(?P<q>["'])(?P<value>[^"'\n]{1,256})(?P=q)|(?P<bare>[^\s"',;#][^\n"',;#]{0,255}))"""
)
# What a value kept in parts may be: a secret, an IBAN or an email (a key's parts joined into a card, an SSN or an
# address were lists of plain numbers in an attacker's round: "sku_chunks": ["4030", "4040", ...])
_PART_TYPES = frozenset({"IBAN", "EMAIL"})


def _part_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    kinds = wanted & (_secrets_now() | _PART_TYPES)
    if not kinds and "CREDIT_CARD" not in wanted:
        return []
    text = scan.text
    junctions: list[tuple[int, int]] = []
    card_junctions: list[tuple[int, int]] = []
    for named in _PARTS_LIST.finditer(text):
        at, last = named.end(), -1
        carded = "CREDIT_CARD" in wanted and (
            _CARD_NUMBER_STEM.fullmatch(named["stem"]) is not None
            or (
                _CARD_STEM.fullmatch(named["stem"]) is not None
                and _CARD_RECORD.search(
                    text, max(0, named.start() - _CARD_RECORD_REACH), named.end() + _CARD_RECORD_REACH
                )
                is not None
            )
        )
        while len(junctions) + len(card_junctions) < _JOIN_BUDGET:
            item = _LIST_ITEM.match(text, at)
            if item is None:
                break
            if last != -1:
                (card_junctions if carded else junctions).append((last, item.start("value")))
            last, at = item.end("value"), item.end()
            if item["sep"] != ",":
                break
    previous: re.Match[str] | None = None
    for part in _NUMBERED_PART.finditer(text):
        value = "value" if part["value"] is not None else "bare"
        if (
            previous is not None
            and part["stem"].lower() == previous["stem"].lower()
            and int(part["n"]) == int(previous["n"]) + 1
        ):
            before = "value" if previous["value"] is not None else "bare"
            junctions.append((previous.end(before), part.start(value)))
        previous = part
    hits = _hits_across(scan, kinds, sorted(set(junctions))) if junctions else []
    if card_junctions:
        hits += _hits_across(scan, kinds | {"CREDIT_CARD"}, sorted(set(card_junctions)))
    return hits


def _markup_hits(scan: Scan, wanted: frozenset[str], plain: Sequence[Hit], spaced: Sequence[int]) -> list[Hit]:
    """Values cut, or labels decorated, by inline markup ("<b>jonas.weber</b>@<i>gmx.de</i>").

    A run of inline tags, or a markdown mark, that touches a character other than a blank on either
    side is a junction; the text is read again without them (see _literal_hits), and kept are the
    values read across one ("<i>4111</i> 1111 1111 1111") and those its label names once they are
    gone ("**OTP:** 839201"). The view keeps the tags, so a value in an attribute is found where it
    stands (``plain``) and keeps its own type's action: a value read across a junction that holds
    one is cut around that junction, never swallows it. The spaces the view reads tags between a word
    and a number as (``spaced``) are junctions too: a token cut there is read whole.
    """
    text = scan.text
    junctions = [
        match.span()
        for match in _MARKUP.finditer(text)
        if (match.start() > 0 and _touches(text[match.start() - 1]))
        or (match.end() < len(text) and _touches(text[match.end()]))
    ]
    if spaced:
        junctions = sorted(junctions + [(at, at + 1) for at in spaced])
    if not junctions:
        return []
    spans = {(start, end) for _, start, end in plain}
    hits = [hit for hit in _hits_across(scan, wanted, junctions, labels=True) if hit[1:] not in spans]
    held = sorted(spans)
    if not hits or not held:
        return hits
    opens = [low for low, _ in junctions]
    out: list[Hit] = []
    for kind, first, end in hits:
        start = first
        at = bisect_right(opens, start)
        while at < len(junctions) and junctions[at][1] < end:
            low, high = junctions[at]
            at += 1
            if _holds(held, low, high):
                out.append((kind, start, low))
                start = high
        out.append((kind, start, end))
    return out


def _with_openers(text: str, settled: list[Hit]) -> list[Hit]:
    """Each value with the "**" or "__" opened just before it that it closes (see _opened_before)."""
    out: list[Hit] = []
    for kind, start, end in settled:
        opened = _opened_before(text, start, end) and (not out or out[-1][2] <= start - 2)
        out.append((kind, start - 2 if opened else start, end))
    return out


_Spanned = TypeVar("_Spanned", Finding, Located)


def _closed(text: str, finding: _Spanned) -> _Spanned:
    start, end = finding.start, finding.end
    if _spans_in_a_row(text, start, end):
        return finding._replace(start=start - 1, end=end + 1)
    end = _closed_after(text, start, end)
    return finding if end == finding.end else finding._replace(end=end)


def _spans_in_a_row(text: str, start: int, end: int) -> bool:
    """A value each of whose groups is a code span ("`4986` `7829` `1380` `6926`": reviewer CR): the first span's
    opening and the last one's closing backtick are the value's too, so that what replaces it is no code span
    opened before it and closed after it. (A code span around the whole value is left: "`sk_live_...`".)"""
    return (
        start > 0
        and end < len(text)
        and text[start - 1] == "`"
        and text[end] == "`"
        and (inside := text.count("`", start, end)) > 0
        and inside % 2 == 0
    )


def _closed_after(text: str, start: int, end: int) -> int:
    """A value whose last group opened emphasis that closes right after it ("5141 **8619** 9412 _5106_": reviewer
    BV), or a code span ("... *7063* `5336`": reviewer CP): its end with the closing mark, so that no half of the
    pair is left. (A code span around the whole value, or around each group, is left whole: "`sk_live_...`",
    "`4111` `1111` ...": its backticks inside are even.)"""
    if end >= len(text) or text[end] not in "_*~`":
        return end
    if text[end] == "`":
        closes = text.count("`", start, end) % 2 == 1 and not (end + 1 < len(text) and text[end + 1].isalnum())
        return end + 1 if closes else end
    blank = max(*(text.rfind(char, start, end) for char in _BLANKS), start - 1)
    for mark in ("***", "**", "__", "~~", "*", "_"):
        if (
            text.startswith(mark, blank + 1)
            and text.startswith(mark, end)
            and not text.startswith(mark[0], end + len(mark))
            and mark[0] not in text[blank + 1 + len(mark) : end]
            and not (end + len(mark) < len(text) and text[end + len(mark)].isalnum())
        ):
            return end + len(mark)
    return end


_BLANKS = (" ", "\t", "\u00a0", "\u202f")  # (no-break spaces between a card's groups: an attacker's round)


def _opened_before(text: str, start: int, end: int) -> bool:
    """A value read across a closing "**" or "__" that opened just before it ("**+44** 161 036 2825": reviewer
    BF): replaced, it takes the opener in too, so that no half of the pair is left."""
    mark = text[max(0, start - 2) : start]
    return mark in ("**", "__") and text.count(mark, start, end) % 2 == 1


def _split_hits(scan: Scan, wanted: frozenset[str], glued: Sequence[int], plain: Sequence[Hit]) -> list[Hit]:
    """Values that start where the view dropped tags between two letters, read with a space there: a
    label's end ("<b>Password</b>Hunter2!xyz", "<b>Key</b>sk_live_..."). One window per place, at most
    one place per 256 characters (and 16): bounded work on tag-dense text."""
    text = scan.text
    held = {(start, end) for _, start, end in plain}
    hits: list[Hit] = []
    for at in glued[: max(16, len(text) // 256)]:
        low, high = max(0, at - _JOIN_BACK), min(len(text), at + _JOIN_AHEAD)
        window = Scan(f"{text[low:at]} {text[at:high]}", scan.phone_regions)
        for kind, start, end in _builtin_hits(window, wanted, window=True):
            if start == at - low + 1 and (end - 1 < high - low or high == len(text)):
                hit = (kind, at, low + end - 1)
                if hit[1:] not in held:
                    hits.append(hit)
    return hits


def _holds(held: Sequence[tuple[int, int]], low: int, high: int) -> bool:
    """One of the ``held`` spans (sorted) lies within ``low``..``high``."""
    at = bisect_left(held, (low, low))
    while at < len(held) and held[at][0] < high:
        if held[at][1] <= high:
            return True
        at += 1
    return False


# What a reader sees no more than the bare tags the view drops: tags with attributes (a run of them,
# bare ones between), comments, markdown's emphasis ("**OTP:** 839201", "*Password:*", "__PIN__ 4821",
# "~~", inside a value or around its label). Not one "*" inside a word or beside "@" or "." (a masked
# "j***@g***.com", an EDI segment's "*TE*"), nor a backtick (a code span's ends delimit what it holds).
# Every alternative starts with "<", "*", "_" or "~": the lookahead before them all lets the engine skip
# to those characters at C speed (without it, every position tried every alternative: a tenth of the
# scan of a dense file).
_MARKUP = lazy_compile(
    # One code span closed and the next opened inside a token ("<code>sk_live_51Lph</code><code>7qNj...":
    # reviewer AP): read across, as the view keeps them apart ("<code>4111 ...</code><code>12/26</code>": a
    # card and its expiry; code's "@" between two spans stays a decorator's).
    rf"(?=[<*_~`])(?:{ATTRIBUTED_TAGS.pattern}|{OTHER_TAGS}|<!--[^<>]{{0,256}}?-->|(?i:</code><code>)"
    # ... and markdown's: code spans side by side inside a value (reviewer BT), a card's or an IBAN's groups of four
    # a blank or a dash apart ("`SE97` `5009` `1563` ..."), a token's parts of eight characters or more a dot apart
    # ("`eyJhbGciOi...`.`eyJzdWIi...`.`nlgW69...`"); not exit codes, versions or numbers a dot apart ("`0` `1` `126`",
    # "`6877`.`2373`": an attacker's round)
    r"|(?<=`[A-Za-z0-9]{4})`(?=[ \-]?`[A-Za-z0-9]{2,4}`)|(?<=`[A-Za-z0-9]{4}`)`(?=[A-Za-z0-9]{2,4}`)"
    r"|(?<=`[A-Za-z0-9]{4}`[ \-])`(?=[A-Za-z0-9]{2,4}`)"
    r"|(?<=[\w\-]{8})`(?=\.`[\w\-]{8})|(?<=[\w\-]{8}`\.)`(?=[\w\-]{8})"
    # (or a blank apart, the first part of eight or more, the next no token's prefix: "`ghp_NqjRfefo18HQVj8ayRG`
    # `r7Qz62LdxWqR` `kKiED`", reviewer CS; not two tokens side by side, "`ghp_...` `ghp_...`")
    r"|(?<=[\w\-]{8})` `(?![A-Za-z]{2,10}[_\-])(?=[\w\-]{2,}`)"
    # a number's last group in a code span after the groups before it, maybe emphasised ("**4136** 4004 *7063*
    # `5336`": reviewer CP; "4539-5787-6362-`1486`", "3714 496353 `98431`", "+48 691 055 `820`": an attacker's round)
    # (two groups in one span too: "5664 6494 `2244 3887`", an attacker's round)
    r"|(?<=[0-9]{3}[ \-])`(?=[0-9]{2,5}(?: [0-9]{2,5})?`)|(?<=[0-9]{3}[*_] )`(?=[0-9]{2,5}`)"
    r"|(?<=[0-9]{3}\*\* )`(?=[0-9]{2,5}`)"
    # ... and its close, a group after it ("**4663** *2728* `9130` 6925": reviewer CQ; "`4462` 9179 ...",
    # "4128-8465-`8360`-1013": an attacker's round)
    r"|(?<=`[0-9]{4})`(?=[ \-][0-9])|(?<=[0-9*_] `[0-9]{3})`(?=[ \-][0-9])"
    r"|(?<![\w*@.])\*{1,3}(?=\w)|(?<=[\w:.)])\*{1,3}(?![\w*@.])|(?<!\*)\*\*(?!\*)|(?<!_)__(?!_)|~~"
    # one "_" of emphasis at a word's edge ("_Password:_ ...", "+44 7465 _136833_"), not inside a name
    r"|(?<![\w@.%*])_(?=[\w+])|(?<=[\w:.)])_(?![\w@.%*]))"
)


# two code spans side by side (not a fence's), or a group of digits in one after another: see _MARKUP
_CODE_SPANS_MEET = lazy_compile(
    r"\w`[ .\-]?`\w|[0-9][ \-*_]{1,3}`[0-9]{2,5}(?: [0-9]{2,5})?`|`[0-9]{4}`[ \-][0-9]"
).search


def _touches(char: str) -> bool:
    return not char.isspace()


def _hits_across(
    scan: Scan, wanted: frozenset[str], junctions: Sequence[tuple[int, int]], *, labels: bool = False
) -> list[Hit]:
    """Values found with ``junctions`` (spans of ``scan.text``, in order) taken out, that cross one.

    With ``labels``, also those that cross none, found because the context that names them did
    ("<b>OTP:</b> 839201"), unless the window cut what may be theirs: less than _JOIN_CONTEXT
    characters before them (the label that says a number is an invoice's), or its end.
    """
    text = scan.text
    # Windows around the junctions, merged where they overlap.
    windows: list[list[int]] = []
    for start, end in junctions:
        low, high = max(0, start - _JOIN_BACK), min(len(text), end + _JOIN_AHEAD)
        if windows and low <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], high)
        else:
            windows.append([low, high])
    hits: list[Hit] = []
    at = 0
    for low, high in windows:
        pieces: list[str] = []
        origin: list[int] = []  # where each character of the joined copy is in the text
        cursor = low
        while at < len(junctions) and junctions[at][0] < high:
            start, end = junctions[at]
            at += 1
            if start < cursor:
                continue
            pieces.append(text[cursor:start])
            origin.extend(range(cursor, start))
            cursor = end
        pieces.append(text[cursor:high])
        origin.extend(range(cursor, high))
        joined = Scan("".join(pieces), scan.phone_regions)
        for kind, found_start, found_end in _builtin_hits(joined, wanted, window=True):
            first, last = origin[found_start], origin[found_end - 1]
            across = last - first != found_end - 1 - found_start
            if across or (
                labels and (first - low >= _JOIN_CONTEXT or low == 0) and (last + 1 < high or high == len(text))
            ):
                hits.append((kind, first, last + 1))
    return hits


# A value spelt one character at a time ("j a n e @ e x a m p l e . c o m", "+ 4 4 7 4 0 0 ..."): a
# run of six or more one-character words is read again with its spaces taken out. The canonical copy
# (a space stays, other white space becomes a line break, brackets, quotes and the punctuation that
# ends a clause "p", anything else "x"; one byte per character) finds such runs at C speed; ordinary
# text rarely has even one.
_SPACED_TABLE = bytes(
    ord(" ")
    if code == 32
    else ord("\n")
    if chr(code).isspace()
    else ord("p")
    if chr(code) in ",;:!?()[]{}<>\"'"
    else ord("d")
    if code == ord(".")
    else ord("x")
    for code in range(256)
)
_SPACED_HINT = b"x x x x x"
_SPACED_HINT_WIDE = b"x  x  x  x  x"  # two spaces between ("j  a  n  e  @ ...")
_SPACED_HINT_GROUPED = b"x x  x x"  # one space inside groups, two between ("4 8 2 5  0 1 2 5  ...")
# ... or three between, as OCR sets a card's groups apart ("3 5 6 0   1 5 2 1   8 5 1 6 ...": reviewer CH)
_SPACED_HINT_GROUPED_WIDE = b"x x   x x"
# One-character words with one to three spaces between them.
# A full stop is a word of its own (" . " in a spelt address) or ends the run's last word ("... 2 6 7 1."):
# "8.5" and "e.g." stay words of three and four characters.
_SPACED_RUN = lazy_compile(
    rb"(?<![xd])[xpd]d?(?![xd])"
    # (three blanks only between groups of four, as a card's: "1 2 3   4 5 6   7 8 9" is a keypad: the attacker's round)
    rb"(?: {1,2}[xpd]d?(?![xd])|(?<=[xd] [xd] [xd] [xd]) {3}(?=[xd] [xd] [xd] [xd](?! [xd](?![xd])))[xpd]d?(?![xd]))++"
)
_SPACED_MIN = 6  # one-character words in a run
# What each hint needs in the text itself: two one-character words, each between spaces (the hint's blanks are
# spaces of the text: _SPACED_TABLE makes nothing else " "), one to three spaces apart (" x x ", " x  x ", " x   x ").
# One pass of a pattern led by a space costs a note a third of the four searches of the token copy (whose two bytes,
# "x" and " ", make a substring search step one byte at a time), and prose rarely has such words side by side.
_SPACED_GATE = lazy_compile(rb" [^ ] {1,3}[^ ] ")
_PUNCTUATION = b"pd"  # what _SPACED_TABLE makes of brackets, quotes, a full stop and the punctuation ending a clause
_SPACED_CONTEXT = 40  # characters before the run read with it ("call", "password:")
_SPACED_VALUE_AHEAD = 256  # characters of the last run's line read after it (the value a spelt keyword names)
_SPACED_KEYWORD_GAP = 4  # characters between a run and the value it names (" : ", "=")
# Values a keyword before them makes: found after a run, the run is that keyword spelt out.
_NAMED_VALUES = frozenset({"PASSWORD", "GENERIC_SECRET"})


# A value written backwards, with a word on its line that says so ("reversed so it won't trigger alerts:
# 8w8lSc7a6QmueE6DdYKCFiMG_evil_ks", a Stripe key; "Numero del genitore: 2786 341 743 (scritto al contrario)": reviewer
# CQ; "száma visszafelé: 5218 328 07 60": reviewer CP). Each run of a value's characters on that line (a token, or
# digit groups a blank or a dash apart) is turned around where it stands, the line's other words left as they are,
# and the line read again: what is found across a turned run is that run. Turned around, a word or a number that is
# no value stays none.
# (as the view writes them: "наоборот" is "нaoбopoт" there, its look-alikes read as Latin)
_REVERSAL_WORDS = index_words(
    *viewed_words(
        "reversed", "backwards", "in reverse", "al revés", "al reves", "al contrario", "à l'envers", "a l'envers",
        "rückwärts", "ruckwarts", "umgekehrt", "visszafelé", "odwrotnie", "od tyłu", "achterstevoren", "omgekeerd",
        "ao contrário", "de trás para a frente", "tersten", "baklänges", "baglæns", "baklengs", "takaperin",
        "наоборот", "задом наперед", "навпаки", "倒着", "倒過來", "倒过来", "逆順", "逆から", "거꾸로", "ngược lại",
        "terbalik", "reverse", "mirrored", "omvendt", "invertido", "à rebours", "a rebours", "반대로", "ters yaz",
    )
)  # fmt: skip
# (groups that each hold a digit, an IBAN's country among them, a "+" after a phone's last; a sentence's stop not in it)
_TURNED_RUN = lazy_compile(
    r"(?:[A-Za-z]*[0-9][0-9A-Za-z]*)(?:[ \-][A-Za-z]*[0-9][0-9A-Za-z]*)+\+?|[\w@+\-][\w@.+\-]{6,}\w"
)
_TURNED_REACH = 256  # characters of the line read on either side of the word
_ENDS_ITS_LINE = lazy_compile(r"[ \t:.,)\]]*")


def _reversed_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    if _REVERSAL_WORDS.isdisjoint(scan.words):
        return []
    text, lower = scan.text, scan.lower
    places = sorted(
        (at, word)
        for word, found in scan.words.items()
        if word in _REVERSAL_WORDS
        for at in found
        # the word, not a part of one ("unreversed"); words of scripts written without blanks are glued ("卡号倒着写")
        if not word.isascii()
        or not ((at and lower[at - 1].isalpha()) or lower[at + len(word) : at + len(word) + 1].isalpha())
    )
    hits: list[Hit] = []
    done = -1
    for at, word in places:
        low = max(text.rfind("\n", max(0, at - _TURNED_REACH), at) + 1, at - _TURNED_REACH, done)
        high = text.find("\n", at, at + _TURNED_REACH)
        high = min(len(text), at + _TURNED_REACH) if high == -1 else high
        if high < len(text) and _ENDS_ITS_LINE.fullmatch(text, at + len(word), high):
            # the word ends its line: what it says is on the next ("The next line is reversed:\n4952...": an
            # attacker's round)
            following = text.find("\n", high + 1, high + 1 + _TURNED_REACH)
            high = min(len(text), high + 1 + _TURNED_REACH) if following == -1 else following
        if high > low:
            done = high
            hits += _turned_line(scan, wanted, low, high)
            if "PASSWORD" in wanted and (found := turned_password(text, lower, low, at + len(word), high)) is not None:
                hits.append(("PASSWORD", *found))
    return hits


def _turned_line(scan: Scan, wanted: frozenset[str], low: int, high: int) -> list[Hit]:
    """What ``text[low:high]`` holds once each run of a value's characters is turned around where it stands."""
    text = scan.text
    runs = [run.span() for run in _TURNED_RUN.finditer(text, low, high) if not run.group().isalpha()]
    if not runs:
        return []
    line = list(text[low:high])
    for start, end in runs:
        line[start - low : end - low] = reversed(line[start - low : end - low])
    turned = "".join(line)
    hits: list[Hit] = []
    for kind, start, end in _builtin_hits(Scan(turned, scan.phone_regions), wanted, window=True):
        if not _turned_named(kind, turned[start:end], scan.lower[low:high]):
            continue
        first, last = start + low, end + low
        for run_start, run_end in runs:
            if first < run_end and last > run_start:
                # across a turned run: where its part inside the run stands in the text as written
                # (the part outside it, a label's or a prefix's the finder took in, stays where it is)
                mirrored_start = run_start + run_end - min(last, run_end)
                mirrored_end = run_start + run_end - max(first, run_start)
                start_at = first if first < run_start else mirrored_start
                end_at = last if last > run_end else mirrored_end
                hits.append((kind, min(start_at, mirrored_start), max(end_at, mirrored_end)))
                break
    return hits


def _turned_named(kind: str, value: str, line: str) -> bool:
    """A value read turned around that holds a letter (a token, an address) is one; digits alone turn into a valid
    number one time in ten ("Ticket numbers in reverse: 4021 4020 4019 4018" turned is a card by its Luhn check,
    "Sorted orders in reverse: ORD-2024-309167" a phone: an attacker's round), and are read only as what the line
    names: a phone, a payment card, an SSN."""
    if any(char.isalpha() for char in value):
        return True
    if kind == "PHONE":
        return PHONE_CONTEXT.search(line) is not None
    if kind == "CREDIT_CARD":
        return PAYMENT_CARD_NAMED.search(line) is not None or A_CARDS_WORD.search(line) is not None
    return kind == "US_SSN" and names_an_ssn(line)


_CLAUSE_MARKS = frozenset("-\u2013\u2014.,")


def _spaced_out_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    if len(scan.text) < 2 * _SPACED_MIN - 1 or _SPACED_GATE.search(scan.encoded) is None:
        return []
    # The scan's token copy has "x x x x x" wherever this one has (and a few more, "a,b,c,d,e"): most
    # text stops at those searches, with no copy of its own.
    tokens = scan.tokens
    if (
        tokens.find(_SPACED_HINT) == -1
        and tokens.find(_SPACED_HINT_WIDE) == -1
        and tokens.find(_SPACED_HINT_GROUPED) == -1
        and tokens.find(_SPACED_HINT_GROUPED_WIDE) == -1
    ):  # find, not `in`: see letters_as_digits
        return []
    text = scan.text
    canonical = scan.encoded.translate(_SPACED_TABLE)
    spaced = canonical.replace(b"d", b"x") if 0x64 in canonical else canonical  # the hints read a dot as a word
    hints = [
        at
        for at in (
            spaced.find(_SPACED_HINT),
            spaced.find(_SPACED_HINT_WIDE),
            spaced.find(_SPACED_HINT_GROUPED),
            spaced.find(_SPACED_HINT_GROUPED_WIDE),
        )
        if at != -1
    ]
    if not hints:
        return []
    # A grouped run starts up to four one-character words before its hint ("4 8 2 5  0 1 ..."): start
    # before them, or the run would be read from its middle.
    runs: list[tuple[int, int, list[int]]] = []  # each run: its span and its characters, spaces out
    for run in _SPACED_RUN.finditer(canonical, max(0, min(hints) - 16)):
        start, end = run.span()
        kept = [at for at in range(start, end) if text[at] != " "]
        while kept and text[kept[-1]] in _CLAUSE_MARKS:
            kept.pop()  # a clause's dash or full stop after the run ("... a l i c e . i t - thanks": reviewer CR)
        if len(kept) >= _SPACED_MIN:
            runs.append((start, end, kept))
    # Runs whose windows (a run and the context before it) touch are read in one window: a text made
    # of such runs ("PIN 1 2 3 4 5 6 7 8 9 PIN 1 2 ...") costs one read of its length, not one whole
    # scan per run.
    hits: list[Hit] = []
    first_run = 0
    for index in range(1, len(runs) + 1):
        if index == len(runs) or runs[index][0] - _SPACED_CONTEXT > runs[index - 1][1]:
            hits += _spaced_window(scan, wanted, canonical, runs[first_run:index])
            first_run = index
    return hits


def _spelt_keyword_values(scan: Scan, wanted: frozenset[str], last: int, origin: list[int], joined: str) -> list[Hit]:
    """A value after a keyword spelt out ("p a s s w o r d : W8%_b...", "s e c r e t = 49G1...": reviewer
    AT): where the window's last run (it ends at ``last`` in the text, and ends ``joined``) is followed on
    its line by an operator, the joined copy is read again with the rest of that line, and a value a
    keyword names is kept where it starts right after the run."""
    text = scan.text
    if not _NAMED_VALUES & wanted or (
        _AFTER_SPELT_KEYWORD.match(text, last) is None and not joined.endswith((":", "=", ">", "\u2192"))
    ):
        return []  # the run ends in an operator of its own: "p a s s w o r d :" joins as "password:"
    line_end = text.find("\n", last, last + _SPACED_VALUE_AHEAD)
    rest = range(last, line_end if line_end != -1 else min(len(text), last + _SPACED_VALUE_AHEAD))
    where = origin + list(rest)
    hits: list[Hit] = []
    read = Scan(joined + text[last : rest.stop], scan.phone_regions)
    for kind, start, end in _builtin_hits(read, wanted, window=True):
        if kind in _NAMED_VALUES and 0 <= start - len(joined) <= _SPACED_KEYWORD_GAP:
            hits.append((kind, where[start], where[end - 1] + 1))
    return hits


_AFTER_SPELT_KEYWORD = lazy_compile(r"[ \t]*(?::|=|->|=>|\u2192)")


# Digits one at a time with a mark between each ("2*7*1*0*...", "0_1_5_9_..."),
# as people type a number past a filter: read again without the marks, like the spaced-out runs above,
# and kept as a card or a phone only where the words before it say so (_spaced_window).
# Not "|": a table's row of single digits ("Phone survey ratings: 5 | 4 | 4 | ...": an attacker's round).
# (or a dot or a dash after every digit: "ssn: 1.2.6.2.0.1.8.3.8", "Rappeler le +3-3-7-1-7-4-5-0-6-6-7": reviewer CS)
_SEPARATED_DIGITS = lazy_compile(
    r"(?<![\w*.\-])[0-9](?:[ \t]?([*_.\-])[ \t]?[0-9])(?:[ \t]?\1[ \t]?[0-9]){5,18}(?![\w*]|[.\-][0-9])"
)
_SEPARATED_LEAST = 7  # ASCII digits a run holds at least (one, one after the first mark, five more)


# ... where a word right before names a phone or a card itself: "number", "no", "contact" or "text" name
# rows, ids and lengths too ("Row number | 6 | 1 | 7 | ...", "contact_ids = 3*1*2*...": an attacker's round).
_SEPARATED_NAMED = lazy_compile(
    r"(?<![^\W\d_])(?:phone|mobile|cell|cellphone|tel|telephone|call|whatsapp|sms|card|visa|mastercard|amex|credit"
    r"|debit|karte|kreditkarte|tarjeta|carte|cartão|carta|telefon|telefono|teléfono|téléphone|handy|móvil|celular"
    r"|portable|ssn|social|rappeler|appeler|llamar|anrufen)(?![^\W\d_])"
)
_SSN_OR_CALLBACK = lazy_compile(r"(?<![^\W\d_])(?:ssn|social|rappeler|appeler|llamar|anrufen)(?![^\W\d_])")
_NAMED_RIGHT_BEFORE = lazy_compile(
    _SEPARATED_NAMED.pattern + r"(?:[ \t]+(?:le|la|al|the|no|nr|number|is|at|on|au)(?![^\W\d_])|[ \t]*[:#=])*[ \t]*\+?$"
)


def _dialled_with_trunk(scan: Scan, run: re.Match[str]) -> bool:
    """Ten digits or more from a trunk "0", a valid number of the deployment's regions ("Mon portable :
    0.6.4.1.8.3.3.3.6.8": reviewer CT); not a sequence a line describes as one ("Tel: 0.3.1.4.1.5.9.2.6.5 (digits of
    pi)", "Call: 0-1-1-2-3-5-8-1-3-2-1 (Fibonacci back-off)"), nor ten different digits (a keypad's order: a number
    dialled has them one time in three thousand), nor a few digits over and over ("0.7.0.7.0.7..."), nor a count
    (the attacker's rounds)."""
    digits = "".join(char for char in run.group() if char.isdigit())
    different = len(set(digits))
    if len(digits) < _TRUNK_DIALLED or digits[0] != "0" or different < _FEWEST_DIALLED or different == 10:
        return False
    line_start = scan.text.rfind("\n", 0, run.start()) + 1
    line_end = scan.text.find("\n", run.end())
    line = scan.lower[
        max(line_start, run.start() - 80) : min(run.end() + 80, len(scan.text) if line_end == -1 else line_end)
    ]
    return _SEQUENCE_SAID.search(line) is None and phone_e164(digits, scan.phone_regions) is not None


_TRUNK_DIALLED = 10
_FEWEST_DIALLED = 4
_SEQUENCE_SAID = lazy_compile(
    r"(?<![^\W\d_])(?:digits|sequence|sequenza|secuencia|séquence|fibonacci|pi|countdown|back-?off|keys|keypad|"
    r"buttons?|test|order|led|pattern|pressed|alternating|delays?|retry|retries|seconds)(?![^\W\d_])"
)


def _separated_digit_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    text = scan.text
    runs = [
        (run.start(), run.end(), [at for at in range(run.start(), run.end()) if text[at].isdigit()])
        for run in _SEPARATED_DIGITS.finditer(text)
        if (
            _SEPARATED_NAMED.search(scan.lower, max(0, run.start() - _SPACED_CONTEXT), run.start()) is not None
            if run.group(1) in "*_"
            # a dot or a dash after each digit: the word right before (a version's digits after "phone firmware"), an
            # SSN's or a callback's, or a "+" before the digits (a retry's delays after "call:", a keypad's order after
            # "phone:" are digits so set: an attacker's round)
            else _NAMED_RIGHT_BEFORE.search(scan.lower, max(0, run.start() - _SPACED_CONTEXT), run.start()) is not None
            and (
                text[run.start() - 1 : run.start()] == "+"
                or _SSN_OR_CALLBACK.search(scan.lower, max(0, run.start() - 24), run.start())
                or _dialled_with_trunk(scan, run)
            )
        )
    ]
    if not runs:
        return []
    canonical = scan.encoded.translate(_SPACED_TABLE)
    return [hit for run in runs for hit in _spaced_window(scan, wanted, canonical, [run])]


# Digit groups a transcript sets apart with commas, as a caller paused between them ("the card number is 5194,
# 1730, 5592, 8881", "sure, 0 7 9, 6 4, 0 9 6 5": reviewer BP's speech-to-text): three groups or more, each of
# digits maybe typed apart, nine to nineteen digits in all.
# (the ideographic comma and Arabic's too: "我的手机号是138、1234、5678"; fullwidth commas the view reads as ",")
# (The look-behind after the first digit, not before it: a pattern that starts with a digit is tried only where
# one is; one that starts with a look-behind, at every character.)
_COMMA_GROUPED = lazy_compile(
    r"[0-9](?<![A-Za-z0-9_.,;、،][0-9])(?:[ \t]?[0-9]){0,4}(?:[,;、،][ \t]{0,2}[0-9](?:[ \t]?[0-9]){0,4}){2,7}"
    r"(?![\w]|[.,;、،][ \t]?[0-9])"
)
_COMMAS = frozenset(",;、،")
_COMMA_DIGITS = 9  # digits a run holds at least (and 19 at most)
# A run's first two commas with the group between, in the scan's canonical copy (a digit "0", a blank "-"; a comma,
# any of them, "x", as every character that is no digit nor separator): one pass led by "0x", where the run's own
# pattern, led by a digit, is tried at every digit of the text (9 us for a KB of prose with dates and amounts).
_COMMA_GROUPED_GATE = lazy_compile(rb"0x-{0,2}0(?:-?0){0,4}x")
_THOUSANDS_GROUP = 3
_LEADING_ZEROS = 2
_COMMA_GROUPED_TYPES = frozenset({"CREDIT_CARD", "US_SSN", "PHONE"})
# ... said to be a card's or a phone's number right before them ("the card number is", "my mobile:", "call me
# on"), not only named ("Card transactions per day: 4539, 3074, ...", "mobile data (MB): 312, 555, 7890": counts);
# an SSN by its full name or its letters, maybe in the question a line or two before ("social" alone names media)
_COMMA_SAID = lazy_compile(
    r"(?<![^\W\d_])(?:(?:phone|mobile|cell|tel|telephone|card|credit card|debit card|visa|mastercard|amex)"
    r"(?:[ \t]*(?:number|no\.?|nr\.?|#))?[ \t]*(?:is|was|:)"
    r"|(?:call|reach|text|ring)[ \t]+(?:me|us)(?:[ \t]+back)?(?:[ \t]+(?:on|at))?"
    r"|(?:my|your|the)[ \t]+(?:number|callback|call-back)(?:[ \t]+number)?[ \t]*(?:is|was|:)"
    r"|(?:callback|call-back)(?:[ \t]+number)?[ \t]*(?:is|was|:)"
    # Indonesian's "nomor HP saya", "nomor kartu kredit saya" (my phone's, my card's number)
    r"|nomor[ \t]+(?:hp|ponsel|telepon|kartu(?:[ \t]+kredit)?)(?:[ \t]+saya)?[ \t]*(?:adalah|:)?"
    # a question on the line before that asks for a number, a card or a phone
    # (a number of a card's, a phone's, or the one to reach you by: not an order's or a case's)
    r"|(?:(?:card|phone|mobile|cell|contact|callback|best|good|your)[ \t]+number|card|phone|mobile|cell)"
    r"[^\n?]{0,40}\?[ \t]*\r?\n[^\n0-9]{0,30})"
    r"(?:[ \t,]+(?:it's|its|it is|sure|ok|okay|yes|yeah|um|uh))*[ \t,:]*$"
    # Chinese, Japanese and Korean glue the words before ("我的手机号是138、1234、5678")
    r"|(?:手机号码?|电话号码?|電話番号|携帯番号|カード番号|卡号|전화번호|휴대폰[ ]?번호|카드[ ]?번호"
    r"|رقم[ ]?(?:جوالي|هاتفي|الجوال|الهاتف|البطاقة))"
    r"[ \t]*(?:是|は|는|:|：)?[ \t]*$"
)
_COMMA_SSN = lazy_compile(
    r"(?<![^\W\d_])(?:social security(?: number| no\.?| #)?|ssn|(?:my|your|his|her)[ \t]+social"
    r"|social(?=[ \t]+(?:is|was)))(?![^\W\d_])"
    # said right before the groups, or ending the line (a question or a request) before the answer's
    r"(?:[ \t]*(?:number|no\.?|#))?(?:[ \t]*(?:is|was|:)[ \t,]*(?:(?:it's|its|sure|ok|okay|yes|um|uh)[ \t,]*)*"
    r"|[ \t]*[.?!]?[ \t]*\r?\n[^\n]{0,48})$"
)
_COMMA_NAMED_BACK = 48  # characters before the groups where a card or a phone is named ...
_COMMA_SSN_BACK = 160  # ... and an SSN, maybe in the question a line or two before the answer


_GROUP_SPLIT = lazy_compile(r"[,;、،][ \t]*")
_GLUED_GROUP = lazy_compile(r"[,;、،][0-9]")  # a group right after its comma: how thousands are written


def _listed_apart(run: str) -> bool:
    """Thousands written with commas ("1,204,556,789 sessions") or a list of codes each led by its "0" ("030; 040;
    089; 069", "010、021、020、0755": area codes): an attacker's round; not digits said one at a time."""
    groups = _GROUP_SPLIT.split(run)
    if all(len(group) == _THOUSANDS_GROUP for group in groups[1:]) and _GLUED_GROUP.search(run):
        return True
    if all(len(group) == _THOUSANDS_GROUP for group in groups):
        return True  # codes of three digits each ("telephone: 212, 646, 718, 917 are the NYC area codes")
    whole = [group for group in groups if " " not in group and "\t" not in group]
    return len([group for group in whole if group.startswith("0")]) > _LEADING_ZEROS  # not an SSN's "078, 05, 1120"


def _comma_grouped_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    """Cards, SSNs and phones in comma-set groups, read with the commas taken out, only where the words before
    name one (a list of counts, "212, 555, 1234", is none)."""
    kinds = wanted & _COMMA_GROUPED_TYPES
    if (
        not kinds
        or scan.digit_count < _COMMA_DIGITS
        or not any(comma in scan.text for comma in _COMMAS)
        or _COMMA_GROUPED_GATE.search(scan.canonical) is None
    ):
        return []
    text, lower = scan.text, scan.lower
    hits: list[Hit] = []
    budget = max(_WRAP_BUDGET, len(text) // _WRAP_BUDGET_PER)  # reads of a copy, as for wrapped lines
    for run in _COMMA_GROUPED.finditer(text):
        start, end = run.span()
        digits = sum(char.isdigit() for char in run.group())
        if not 9 <= digits <= 19 or _listed_apart(run.group()):
            continue
        named = _COMMA_SAID.search(lower, max(0, start - _COMMA_NAMED_BACK), start) is not None
        ssn = _COMMA_SSN.search(lower, max(0, start - _COMMA_SSN_BACK), start) is not None
        if not (named or ssn):
            continue
        budget -= 1  # the copies read, not the runs passed over (an attacker's round: a metrics dump spent it)
        if not budget:
            break
        low = max(0, start - (_COMMA_SSN_BACK if ssn else _COMMA_NAMED_BACK))
        origin = list(range(low, start)) + [at for at in range(start, end) if text[at] not in _COMMAS]
        joined = "".join(text[at] for at in origin)
        offset = start - low
        copy = Scan(joined, scan.phone_regions)
        found = _builtin_hits(copy, kinds, window=True) + _spaced_out_hits(copy, kinds)
        for kind, found_start, found_end in _settle(found) if len(found) > 1 else found:
            if found_start >= offset and found_end > offset:
                hits.append((kind, origin[found_start], origin[found_end - 1] + 1))
    return hits


def _spaced_window(
    scan: Scan, wanted: frozenset[str], canonical: bytes, runs: list[tuple[int, int, list[int]]]
) -> list[Hit]:
    """The values found in one window: the context before its first run, then each run with its
    spaces taken out and the text between runs as it is. A value counts where it ends in a run (one
    that ends in the text around the runs is the main scan's)."""
    text = scan.text
    low = max(0, runs[0][0] - _SPACED_CONTEXT)
    origin = list(range(low, runs[0][0]))  # where each character of the joined copy is in the text
    owner = [-1] * len(origin)  # the run each character belongs to (-1: the text around the runs)
    for number, (start, _, kept) in enumerate(runs):
        if number:
            between = range(runs[number - 1][1], start)
            origin += between
            owner += [-1] * len(between)
        origin += kept
        owner += [number] * len(kept)
    joined = "".join(text[at] for at in origin)
    hits: list[Hit] = _spelt_keyword_values(scan, wanted, runs[-1][1], origin, joined)
    for kind, found_start, found_end in _builtin_hits(Scan(joined, scan.phone_regions), wanted, window=True):
        number = owner[found_end - 1]
        if number == -1:
            continue  # ends in the context or between runs: the main scan has it
        start, _, kept = runs[number]
        # Digits, maybe after a clause's punctuation ("rows): 6 1 7 5 ..." read from its ":").
        digits_only = all(text[at].isdigit() or canonical[at] in _PUNCTUATION for at in kept)
        if digits_only and not _spoken_of(kind, text[max(0, start - _SPACED_CONTEXT) : start].lower()):
            continue  # digits one at a time (dice logs, sudoku rows): a card or a phone only where the text says so
        hits.append((kind, origin[found_start], origin[found_end - 1] + 1))
    return hits


# A value wrapped across one line break ("card: 4061\n1330 0646 9180", "DE54 7933 3971\n1334 6574 51",
# "+1 702 873\n0897", "name@\nsfr.fr", a JWT or a provider key a terminal wrapped): the two lines are
# read again joined, and a value found across the join is kept only where its own checks make the
# join safe: a card named on its line, a "+" phone, an IBAN (its checksum), an address whose line
# ends in "@", a JWT (its header decodes) or a provider key the first line alone does not hold.
# Numbers whose first line already holds a whole value of their type (a table's rows) are not joined.
_WRAP_BACK = 256  # characters of the line before the break read back
_WRAP_AHEAD = 512  # characters of the line after it read ahead (a JWT's payload)
# Joins read per text that find nothing: at least 64, one per 4,096 characters in a longer text
# (each reads a bounded window). A join that finds a value does not count: it is paid for by the
# value it replaces, so a text of many wrapped addresses is scrubbed in one pass instead of 64 per
# pass until the scan budget refused it (an attacker's round: 130 ms per KB).
_WRAP_BUDGET = 64
_WRAP_BUDGET_PER = 4096
_WRAP_TOKEN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+/=")
_WRAP_NUMERIC = frozenset({"CREDIT_CARD", "IBAN", "PHONE"})
_ASCII_DIGITS = frozenset("0123456789")  # the view's digits (a dash after one may end a wrapped number's line)
_WRAP_TOKEN_MIN = 16  # a token's part before the break, to be worth joining
# An IBAN's start at a line's end, in capitals as banks print it: its country and check digits, then up
# to seven groups (what is left of the longest, 34 characters, reaches the next line).
_IBAN_LINE_END = lazy_compile(r"(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?:[ ]?[A-Z0-9]{1,4}){0,7}\Z")
_IBAN_HEAD_BACK = 44  # characters before the break read for it


# Which line breaks _wrap_join may join, found in one pass: a copy of the text with one byte per
# character (an ASCII digit "0", "@" itself, "-" "d", the other token characters "t", a space or a tab "s",
# "\r" "r", "\n" itself, "?" "u": it stands for any character that is not ASCII, which may be a digit
# or a letter; anything else "."), reversed so that the pattern is led by the break (C speed from one
# to the next) and reads what comes before it. A break passes where what ends its line (after "\r"
# and blanks) is a digit, "@", "u", a digit and "-", or the end of 16 token characters: what _wrap_join needs before
# it, and more (it checks the token's length), or "-" ending an address's part. Most
# breaks of prose fail here.
_WRAP_TABLE = bytes(
    ord("0")
    if 48 <= code <= 57
    else ord("@")
    if code == ord("@")
    else ord("d")
    if code == ord("-")
    else ord("t")
    if chr(code) in _WRAP_TOKEN
    else ord("s")
    if chr(code) in " \t"
    else ord("r")
    if code == ord("\r")
    else ord("\n")
    if code == ord("\n")
    else ord("u")
    if code == ord("?")
    else ord("p")
    if code == ord(")")
    else ord(".")
    for code in range(256)
)
# A line that ends in a digit or in "@" joins only a line that starts with a digit (a number), or with a
# letter or a digit (an address): read in the lookbehinds (what follows the break, blanks first, reversed),
# where up to two blanks are read whole and three or more let the break through.
_WRAP_AFTER = rb"(?:(?<=%s\n)|(?<=%ss\n)|(?<=%sss\n)|(?<=sss\n))"
_WRAP_BREAK_HEAD = (
    rb"\n(?:(?=r?s*+[u0])"
    + _WRAP_AFTER % ((rb"[u0]",) * 3)
    + rb"|(?=r?s*+@)"
    + _WRAP_AFTER % ((rb"[u0t]",) * 3)
    + rb"|(?=r?s*+(?:d0|d[t0du]{1,64}@|[td0]{%d}))" % _WRAP_TOKEN_MIN
    # an area code in brackets ending the line, a digit opening the next
    + rb"|(?=r?s*+p0{2,5}\.)"
    + _WRAP_AFTER % ((rb"0",) * 3)
)
_WRAP_IBAN_HEAD = rb"00tt"  # an IBAN's country and check digits, reversed
_WRAP_BREAK_REVERSED = lazy_compile(
    _WRAP_BREAK_HEAD
    # an IBAN's start (two letters, two digits, then groups) ending the line, a letter or a digit opening
    # the next
    + rb"|(?=r?s*+[t0s]{0,40}?"
    + _WRAP_IBAN_HEAD
    + rb"(?![t0u]))"
    + _WRAP_AFTER % ((rb"[u0t]",) * 3)
    + rb")"
)
# The same pattern without the IBAN's branch: the same breaks in a copy that holds no "00tt" (no line
# can end in an IBAN's start there), found in a fifth of the time: the branch's lazy run reads back
# up to 40 characters at every break of prose, whose lines end in words ("t").
_WRAP_BREAK_REVERSED_NO_IBAN = lazy_compile(_WRAP_BREAK_HEAD + rb")")


def _wrap_breaks(scan: Scan) -> list[int]:
    """The line breaks _wrap_join may join, in text order (every one it joins, and some more)."""
    last = len(scan.text) - 1
    reversed_copy = scan.encoded.translate(_WRAP_TABLE)[::-1]
    # (an IBAN's head holds two digits: text with fewer skips the search, a byte at a time in this copy's few bytes)
    iban = scan.digit_count >= 2 and reversed_copy.find(_WRAP_IBAN_HEAD) != -1
    pattern = _WRAP_BREAK_REVERSED if iban else _WRAP_BREAK_REVERSED_NO_IBAN
    breaks = [last - found.start() for found in pattern.finditer(reversed_copy)]
    breaks.reverse()
    return breaks


def _wrapped_hits(scan: Scan, wanted: frozenset[str]) -> list[Hit]:
    text = scan.text
    hits: list[Hit] = []
    # An IBAN's joins are budgeted apart: lines of flights and seats ("flight BA29") would spend the
    # budget a card wrapped further on needs (an attacker's round).
    budget = iban_budget = max(_WRAP_BUDGET, len(text) // _WRAP_BUDGET_PER)
    for at in _wrap_breaks(scan):
        joined = _wrap_join(text, at)
        if joined is not None and joined[3] == "iban":
            if iban_budget:
                iban_budget -= 1
                hits += _joined_hits(scan, wanted, at, joined)
        elif joined is not None:
            found = _joined_hits(scan, wanted, at, joined)
            if not found and joined[3] == "number":
                # Halves of one number, a fax's or a form's line each ("53361886\n71619507"), or a group cut
                # by the break ("SSN ... 360-4\n3-3477": reviewer AX): joined whole.
                found = _joined_hits(scan, wanted, at, (*joined[:2], "", "glued"))
            if not found:
                budget -= 1
            # A JWT, or a token a terminal wrapped, may go on over more lines than the two joined.
            hits += [
                (kind, first, _rest_of_wrapped_token(text, last) if kind == "JWT" or joined[3] == "token" else last)
                for kind, first, last in found
            ]
            if not budget:
                break
    return hits


def _wrap_join(text: str, at: int) -> tuple[int, int, str, str] | None:
    """(end of the first line's value, start of the second's, separator, kind) for a break worth joining."""
    end = at
    if end and text[end - 1] == "\r":
        end -= 1
    while end and text[end - 1] in " \t":
        end -= 1
    start = at + 1
    while start < len(text) and text[start] in " \t":
        start += 1
    if not end or start >= len(text):
        return None
    before, after = text[end - 1], text[start]
    if after.isdigit() and (number := _number_join(text, end, before)) is not None:
        return end, start, *number
    # Not a line that starts with "@": a decorator in code ("@pytest.fixture" after an import), a
    # handle ("@acme.store"), a CSS rule (a third attacker's round).
    if before == "@" and after.isalnum():
        return end, start, "", "email"
    if before == "-" and after.isalpha() and end >= 2 and text[end - 2].isalnum() and _in_address(text, end - 1):
        # An address hyphenated where a scan broke its line ("j.kowalczyk@exam-" then "ple.pl": reviewer Y):
        # the hyphen is the break's, not the domain's.
        return end - 1, start, "", "email"
    if (
        before.isalnum()
        and after.isalnum()
        and (head := _IBAN_LINE_END.search(text, max(0, end - _IBAN_HEAD_BACK), end)) is not None
        and head.group()[:2] in IBAN_LENGTHS  # a country's code ("LH12 FRA", a flight, is none)
    ):
        # "Kontonummer bitte: NL15 INGB" then "1938 0389 92" (reviewer AA): the line ends in an IBAN's
        # country, check digits and groups; its length and mod-97 check decide whether the next line ends it.
        return end, start, " ", "iban"
    if before in _WRAP_TOKEN and after in _WRAP_TOKEN:
        first = end
        while first > max(0, end - _WRAP_BACK) and text[first - 1] in _WRAP_TOKEN:
            first -= 1
        # A token a terminal wrapped fills its line; a JWT may be cut anywhere after its header, a
        # provider's token anywhere after its prefix ("ghp_A1b2C3d4E5f6G7h8" then "I9j0K1l2M3n4O5p6Q7r8").
        if (
            (end - first >= _WRAP_TOKEN_MIN and ("eyJ" in text[first:end] or starts_a_prefixed_token(text, first)))
            or (
                end - first >= _WRAP_WIDTH
                and (_WORD_OPENS_LINE.match(text, start) is None or _NAMED_RUN.search(text, first, end) is None)
            )
        ) and _FIELD_NAME.match(text, start) is None:
            return end, start, "", "token"
    return None


# A line that starts with a field's name and its colon ("X-Delivery: 9952...", "  kdf_salt: ...") starts a
# field of its own: the line before ended its value, however long (reviewer BP: a webhook's signature header
# of 71 characters, joined to the next header's name, was read as a secret).
_FIELD_NAME = lazy_compile(r"[A-Za-z][A-Za-z0-9_.\-]{0,63}:(?:[ \t]|$)", re.MULTILINE)
# ... as does a line that opens with a capitalised word and a blank after a run that is no JWT's and no provider's
# token: a log's or a tool's next message ("Cache restored from key: node-cache-...-9d39...5d40" then "Received 270
# of 270 MB": reviewer BU), no token's tail.
_WORD_OPENS_LINE = lazy_compile(r"[A-Z][a-z]{3,}[ \t]")
# ... where the run before the break is a name made of words ("node-cache-Linux-x64-npm-..."), not a random token's
# (which may end its line in a word's letters: "...Bi1R" then "Wxyzab ", an attacker's round)
_NAMED_RUN = lazy_compile(r"(?:^|(?<=[\-_./]))[A-Za-z]{4,}[\-_./]")


def _number_join(text: str, end: int, before: str) -> tuple[str, str] | None:
    """(separator, kind) where the line ending at ``end`` (in ``before``) breaks a number the next line
    goes on with a digit."""
    if before.isdigit():
        return " ", "number"
    if before == ")" and (bracket := _AREA_CODE_END.search(text, max(0, end - 8), end)) is not None:
        # "call me at (646)" then "555-0143": a form's or a scan's line broke after the area code (reviewer AU),
        # right after a phone's word or a call and its preposition (not "Phone models (2023)", "Tel. rates table
        # (415)": an attacker's round)
        low = max(0, bracket.start() - _AREA_LEAD_BACK)
        line = text.rfind("\n", low, bracket.start()) + 1 or low
        return (" ", "area") if _AREA_LEAD.search(text, line, bracket.start()) is not None else None
    if before == "-" and end >= 2 and text[end - 2] in _ASCII_DIGITS:
        return "", "dashed"  # "SSN is 057-41-" then "7512": a dashed number cut after a dash (reviewer S)
    return None


_AREA_CODE_END = lazy_compile(r"(?<![\w(])\((?!(?:19|20)[0-9]{2}\))[0-9]{2,5}\)$")  # not a year ("Telefon (2023)")
_AREA_LEAD = lazy_compile(
    r"(?<![^\W\d_])(?:phone|tel|telephone|mobile|mobil|cell|fax|handy|telefon|call|ring|reach|contact|rückruf|"
    r"whatsapp)(?![^\W\d_])[.:]?(?:(?:[ \t]+[^\W\d_]+){0,3}[ \t]+(?:at|on|under|unter|an|au|al|to|back))?[ \t]*$",
    re.IGNORECASE,
)
_AREA_LEAD_BACK = 64


def _in_address(text: str, at: int) -> bool:
    """``at`` is in the domain of an address: an "@" before it in the same word, a letter after the "@"."""
    word = at
    while word > max(0, at - _WRAP_BACK) and not text[word - 1].isspace():
        word -= 1
    mark = text.find("@", word, at)
    return mark != -1 and mark + 1 < at and all(char.isalnum() or char in ".-" for char in text[mark + 1 : at])


def _across_break(kind: str, found: str, window: str, alone: list[Hit], where: tuple[int, int, int]) -> bool:
    """A value found across the break is one value, not a value of the first line and more."""
    start, join, end = where
    if kind == "token" and found != "JWT":
        # A value of any type already in the first line's part ("KEY=value" then the next line's
        # "NAME=...": one .env line after another) is not joined, unless a terminal wrapped it.
        return not any(hit[1] < join and hit[2] > start for hit in alone) or _terminal_wrap(window, start, join, end)
    if found == "JWT":
        return _jwt_across(window, alone, start, join, end)
    # The first line holds a whole value from there: a table's row.
    return not any(hit[0] == found and hit[1] <= start for hit in alone)


def _jwt_across(window: str, alone: list[Hit], start: int, join: int, end: int) -> bool:
    """A JWT the break cut: the first line's part alone is none, or one that runs to the break; and the
    token goes on to the end of the next line ("…In0\n.then we left" is prose), or to the quote that
    closes the string it opened ('"access_token":"eyJ…W0jxvu' then '9PFA…Jwg","token_type"', a JSON
    body a log wrapped: reviewer P)."""
    if any(hit[0] == "JWT" and hit[1] <= start and hit[2] != join for hit in alone):
        return False
    if end == len(window):
        return True
    return start > 0 and window[start - 1] in "\"'" and window[end] == window[start - 1]


def _wrap_types(kind: str, wanted: frozenset[str]) -> frozenset[str]:
    """The types a join of ``kind`` is read for (see _wrap_join)."""
    if kind == "number":
        return wanted & _WRAP_NUMERIC
    if kind in ("dashed", "glued"):
        return wanted & (_WRAP_NUMERIC | {"US_SSN"})
    if kind == "email":
        return wanted & {"EMAIL"}
    if kind == "area":
        return wanted & {"PHONE"}
    if kind == "iban":
        return wanted & {"IBAN"}
    return wanted - _WRAP_NUMERIC - {"EMAIL", "US_SSN", "IP_ADDRESS"}


def _joined_hits(scan: Scan, wanted: frozenset[str], at: int, how: tuple[int, int, str, str]) -> list[Hit]:
    """Values found across the break at ``at`` once its lines are joined as ``how`` says (see _wrap_join)."""
    end, start, separator, kind = how
    text = scan.text
    line_start = max(text.rfind("\n", 0, at) + 1, end - _WRAP_BACK)
    line_end = text.find("\n", start)
    line_end = min(len(text) if line_end == -1 else line_end, start + _WRAP_AHEAD)
    head = text[line_start:end]
    window = head + separator + text[start:line_end]
    join = len(head)
    types = _wrap_types(kind, wanted)
    if not types:
        return []
    alone = _builtin_hits(Scan(head, scan.phone_regions), types, window=True)
    hits: list[Hit] = []
    for found, found_start, found_end in _builtin_hits(Scan(window, scan.phone_regions), types, window=True):
        # Not across the break, or the head of the next line's own number ("+1 415 555" then "2024-01-02").
        if not found_start < join < found_end or (
            kind in ("number", "dashed", "area", "glued") and _CUT_NUMBER.match(window, found_end)
        ):
            continue
        if not _across_break(kind, found, window, alone, (found_start, join, found_end)):
            continue
        value = window[found_start:found_end]
        if (
            found == "CREDIT_CARD"
            and not CARD_WORDS.search(text[max(0, line_start - _CARD_LINE_BACK) : end].lower())
            and not _card_after(text, start + (found_end - join - len(separator)))
        ):
            continue  # named on its line or the line before ("PAN split across lines in the fax:\n5336..."),
            # or its expiry, its code or its name right after it ("...\n4146 3165\nexp 11/26")
        if (
            found == "US_SSN"
            and kind == "glued"
            and not names_an_ssn(text[max(0, line_start - _CARD_LINE_BACK) : end].lower())
        ):
            # A group the break cut, joined, is an SSN only where its line or the one before names one, not a
            # count before a date ("Attendees: 7\n22-11-2024"), a claim's or a shelf's number: an attacker's round.
            continue
        # A national number across a break only where a dash or an area code in brackets ends the line and
        # the line names a phone ("call 415-555-" then "0123", "call me at (646)" then "555-0143").
        if (
            found == "PHONE"
            and not value.startswith(("+", "(+"))
            and (kind not in ("dashed", "area") or PHONE_CONTEXT.search(head.lower()) is None)
            and not (
                kind in ("number", "glued") and _cut_after_its_label(window, found_start, join, join + len(separator))
            )
        ):
            continue
        first = line_start + found_start
        last = start + (found_end - join - len(separator))
        hits.append((found, first, last))
    if kind == "number" and "CREDIT_CARD" in types and not any(hit[0] == "CREDIT_CARD" for hit in hits):
        hits += _card_named_above(scan, line_start, head, separator + text[start:line_end], start - len(separator))
    return hits


# What says a phone's number follows, right before a number a break cut, the rest alone on the next line ("ok my
# number is 31264" then "30226": reviewer BS): whose number it is, or a call asked for; not a channel's or a device's
# name before a count ("phone 48213" then "20931", "Sessions - mobile: 482133" then "209311", "Mobile 2024" then
# "2025", "Excel cell 1204": an attacker's round).
_CUT_PHONE_LEAD = lazy_compile(
    r"(?<![^\W\d_])(?:my (?:new |mobile |cell |phone |home |work )?number(?: is)?|(?:call|text|reach) me(?: at| on)?"
    r"|my (?:phone|mobile|cell)(?: number| no\.?)?(?: is)?"
    # a phone's or a fax's abbreviated label as forms print it ("Tel. 0171" then "482 9317 (Zeilenumbruch im Fax)":
    # reviewer CX; not "mobile 48213" then "20931", a device's count, or "cell 1204" then "5678": an attacker's round)
    r"|(?P<abbr>(?:tel|fax)\.|(?:tel|fax|telefon|telefax)(?=[ \t]*:)))[ \t]*:?[ \t]*\Z"
)
# Each line's part a group of digits alone: the head's after the label, the rest alone on its line (not a date: "my
# number is 12345" then "2024-06-11")
_CUT_HEAD = lazy_compile(r"[0-9]{2,8}\Z")
_CUT_REST = lazy_compile(r"[0-9]{2,8}[ \t.,;!]*(?:\r?\n|\Z)")
# ... after a phone's abbreviated label, two or three groups too, then the line's end or an aside in brackets ("482
# 9317 (Zeilenumbruch im Fax)"; not after "my number is": "31264" then "30226 (order)", an attacker's round)
_CUT_REST_LABELLED = lazy_compile(r"[0-9]{2,8}(?:[ ][0-9]{2,8}){0,2}(?:[ \t.,;!]*(?:\r?\n|\Z)|[ \t]+(?=\())")


def _cut_after_its_label(window: str, start: int, join: int, rest: int) -> bool:
    """A phone's number cut by a line break right after what names it (``start``: where it starts in the joined
    ``window``, ``join``: where its first line ends, ``rest``: where its next line's part starts), each part a group
    of digits alone, the rest alone on its line."""
    lead = _CUT_PHONE_LEAD.search(window[max(0, start - 40) : start].lower())
    if lead is None or _CUT_HEAD.fullmatch(window, start, join) is None:
        return False
    return (_CUT_REST if lead["abbr"] is None else _CUT_REST_LABELLED).match(window, rest) is not None


def _card_named_above(scan: Scan, line_start: int, head: str, tail: str, tail_at: int) -> list[Hit]:
    """A card's groups over two lines after a line that names the card ("카드번호" then "5235-9929" then
    "2505-4763": reviewer BH), whose grouping only a card's word before it lets the card readers take (groups
    joined by a dash, then by a break): read again with a card's word before them. ``tail``: the separator the
    join puts and the next line, which starts at ``tail_at`` in the text, the separator's length before it."""
    # The line above ends in a card's name, maybe its number's word and a colon ("Card number:", "카드번호"): not
    # "GL account numbers for Q3:", "Ticket numbers assigned:", "Card game scores:" (an attacker's round)
    above = scan.text[max(0, line_start - _CARD_LINE_BACK) : max(0, line_start - 1)].lower()
    if not _CARD_LABEL_ENDS.search(above):
        return []
    lead = "card: "
    window = lead + head + tail
    cut = len(lead) + len(head)
    found = _builtin_hits(Scan(window, scan.phone_regions), frozenset({"CREDIT_CARD"}), window=True)
    return [
        ("CREDIT_CARD", line_start + first - len(lead), tail_at + last - cut)
        for kind, first, last in found
        if kind == "CREDIT_CARD" and len(lead) <= first < cut < last
    ]


_CARD_LINE_BACK = 80  # characters read before a wrapped card's line for the words that name a card
_CARD_LABEL_ENDS = lazy_compile(
    rf"(?:{CARD_NAMES.pattern})(?:[ \t]*(?:number|no\.?|nr\.?|#|번호|番号|号码|號碼|numéro|nummer|número|numero))?"
    r"[ \t]*:?[ \t]*\r?$"
)
_CARD_AHEAD = 40  # characters read after it for its expiry, its code or its name


def _card_after(text: str, end: int) -> bool:
    """What follows a wrapped card, on its line or the next, names it as one (``CARD_AFTER``)."""
    return CARD_AFTER.search(text[end : end + _CARD_AHEAD].lower()) is not None


_TOKEN_LINE = lazy_compile(r"[ \t]*[A-Za-z0-9_\-=.]{8,}[ \t]*(?=\r?\n|\Z)")
# Lines a wrapped token may go on over, past the two joined (a key of 14 lines leaked its tail at 8).
_WRAPPED_LINES = 64


def _rest_of_wrapped_token(text: str, end: int) -> int:
    """The end of a JWT an email client wrapped over more than two lines: while the line it ends
    filled its width (40 characters or more), each next line made only of its characters goes on."""
    for _ in range(_WRAPPED_LINES):
        line_start = text.rfind("\n", 0, end) + 1
        breaks = 2 if text.startswith("\r\n", end) else 1 if text.startswith("\n", end) else 0
        if end - line_start < 40 or not breaks:
            break
        following = end + breaks
        line = _TOKEN_LINE.match(text, following)
        if line is None:
            break
        end = line.end()
    return end


_CUT_NUMBER = lazy_compile(r"[.\-/:][0-9]")  # a number going on past a value's end: a date, a time, a range
_WRAP_WIDTH = 60  # the narrowest terminal line a wrapped token fills


def _terminal_wrap(window: str, start: int, join: int, end: int) -> bool:
    """A token that fills its line and goes on as the whole next line: a terminal wrapped it (a
    provider key whose shortest length the first line already reaches is still cut there)."""
    rest = window[join:end]
    before = window[:start].rstrip(" \t")
    # A provider's token alone on its line, its rest alone on the next (a note's own wrap, narrower than a
    # terminal's: "sk-ant-api03-…" of 56 characters then its tail, "xoxb-…" then "-v9dcl…": reviewer AU).
    # Its tail is drawn at random (small and capital letters and digits: not a digest, a UUID, a pod's or a
    # job's name, a date) and is no provider's token of its own (two tokens on two lines): an attacker's round.
    # (or after its label's colon: "sk-ant key split for the chat limit: sk-ant-api03-…" then its tail, reviewer BJ)
    alone_on_its_line = (
        (not before or before[-1] in ":=")
        and len(rest) >= _WRAP_TOKEN_MIN
        and starts_a_prefixed_token(window, start)
        and _MIXED_CASE_AND_DIGITS.search(rest) is not None
        and not any(hit[1] == 0 for hit in find_catalogue(Scan(rest, ("US",))))
    )
    return (
        (join - start >= _WRAP_WIDTH or alone_on_its_line)
        # alone on its line, or after its label ("Authorization: Bearer eyJ…", "token=": reviewer AE) where
        # the next line is not a provider's token of its own (an age key's public half, then its secret)
        and (
            not before
            or alone_on_its_line
            or ((before[-1] in ":=" or before.lower().endswith("bearer")) and not starts_a_prefixed_token(window, join))
        )
        and end == len(window)
        and _WRAP_REST.fullmatch(rest) is not None  # no "NAME=value" of its own: "=" only as padding
        and any(char.isdigit() for char in rest)
        and any(char.isalpha() for char in rest)
    )


_WRAP_REST = lazy_compile(r"[A-Za-z0-9_\-+/.]+={0,2}")
_MIXED_CASE_AND_DIGITS = lazy_compile(r"(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])(?=[^0-9]*[0-9])")


_DIGIT_BY_DIGIT = lazy_compile(r"digit[ \-]by[ \-]digit|one digit at a time|digits one by one|(?:each|every) digit")


def _spoken_of(kind: str, context: str) -> bool:
    """The context names the kind of number a run of single digits is."""
    if kind == "CREDIT_CARD":
        # "here it is digit by digit: 5 0 1 8 ...": read out, and still a card's length, issuer and Luhn digit.
        return CARD_WORDS.search(context) is not None or _DIGIT_BY_DIGIT.search(context) is not None
    if kind == "PHONE":
        return PHONE_CONTEXT.search(context) is not None
    return True


def _builtin_hits(scan: Scan, wanted: frozenset[str], window: bool = False) -> list[Hit]:
    candidates: list[Hit] = []
    text = scan.text
    lower = scan.lower
    most_digits = -1  # not counted yet
    for run, filtered, digits, literals, lowered, gate in _fast_plan(wanted, entities.version(), window).chosen(
        text, lower
    ):
        if digits:
            if most_digits == -1:
                most_digits = scan.most_digits
            if most_digits < digits:
                continue
        if literals:
            haystack = lower if lowered else text
            words = scan.words
            for rare, literal, key, exact in literals:
                if key is not None:
                    # Found with the gates' words, in one pass for all (the lower-cased text holds it); a
                    # step that reads the text as written searches the text for it then (rarely: "AC", "LOGIN").
                    if key in words and (not exact or literal in text):
                        break
                # A one-character test (memchr, nearly free) before the substring search (which reads the text).
                elif rare in haystack and literal in haystack:
                    break
            else:
                continue
        if gate is not None and not gate(scan):
            continue
        hits = run(scan)
        if hits:
            candidates.extend([hit for hit in hits if hit[0] in wanted] if filtered else hits)
    return candidates


def _plugin_hits(detector: Detector, text: str) -> list[Hit]:
    try:
        hits = [(str(kind), int(start), int(end)) for kind, start, end in detector.find(text)]
    except Exception as exc:  # a plug-in's message may quote the text: never pass it on
        raise DetectorError(f"detector {detector.name!r} failed ({type(exc).__name__})") from None
    allowed = set(detector.types)
    for kind, start, end in hits:
        if kind not in allowed or not 0 <= start < end <= len(text):
            raise DetectorError(f"detector {detector.name!r} returned a span outside the text or an undeclared type")
    return hits


def _settle(candidates: list[Hit]) -> list[Hit]:
    """Split candidates into clusters of transitively overlapping ones and settle each alone."""
    candidates.sort(key=lambda hit: (hit[1], hit[2]))
    kept: list[Hit] = []
    cluster: list[Hit] = []
    cluster_end = -1
    for hit in candidates:
        if cluster and hit[1] >= cluster_end:
            kept.extend(_best_of(cluster))
            cluster = []
        cluster.append(hit)
        cluster_end = max(cluster_end, hit[2]) if len(cluster) > 1 else hit[2]
    kept.extend(_best_of(cluster))
    return kept


def _best_of(cluster: list[Hit]) -> list[Hit]:
    """Longest first, then most specific; each kept finding excludes those it overlaps."""
    if len(cluster) == 1:
        return cluster
    rank = entities.rank
    ranked = sorted(cluster, key=lambda hit: (hit[1] - hit[2], -rank(hit[0]), hit[1]))
    # The chosen findings never overlap, so a candidate need only be checked against its neighbours
    # in start order (a long chain of overlapping candidates stays O(n log n)).
    starts: list[int] = []
    chosen: list[Hit] = []
    for hit in ranked:
        at = bisect_left(starts, hit[1])
        if at and chosen[at - 1][2] > hit[1]:
            continue  # the one starting before it reaches into it
        if at < len(chosen) and chosen[at][1] < hit[2]:
            continue  # it reaches into the one starting at or after it
        starts.insert(at, hit[1])
        chosen.insert(at, hit)
    return chosen


def entity_types(types: Collection[str] | None) -> tuple[str, ...]:
    """``types`` validated and expanded, in registry order (kept for callers of the old API)."""
    wanted = wanted_types(types)
    return tuple(name for name in entities.entity_types() if name in wanted)
