"""Values in a column of delimited text whose header names them.

A CSV export or a spreadsheet pasted as text states what each column holds once, in its header
("employee_id,first_name,last_name,ssn,hire_date"; "User name,Password,Access key ID,Secret access
key"), and then its values bare: an SSN of nine digits, a phone written without a label, a secret
key with nothing around it. Each value of a named column is read as what the header says, and
still has to pass that type's own check (the SSA's rules, a dialling plan, Luhn, mod 97, a
password's or a random secret's shape).
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator

from securemem.pii.banking import column_account
from securemem.pii.checksums import card_number_valid, iban_valid, ssn_valid
from securemem.pii.contact import phone_e164, valid_where_said
from securemem.pii.national import COLUMN_WORDS, names_a_device, national_cell, near_a_device, short_label
from securemem.pii.national import COLUMNS as NATIONAL_COLUMNS
from securemem.pii.normalize import normalise_text
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, a_date, year_or_example
from securemem.pii.secrets import looks_like_column_secret

Hit = tuple[str, int, int]

_DELIMITERS = (",", ";", "\t", "|")
_MAX_HEADER = 1024  # characters of a line read as a header
_MAX_CELL = 256
_NAME_SPLIT = lazy_compile(r"[\s_.\-]+")
_CAMEL = lazy_compile(r"(?<=[a-z])(?=[A-Z])")  # a field's "cardNumber", "otpCode"

_COLUMNS: dict[str, str] = {}
# Systems whose password a column may name with "pass", "pw", "pwd" or "passwd" ("ldap_pass", "redis_pwd"; "pass_db"
# too): its cells are read as passwords only when they look random (_random_password)
_SYSTEMS = (
    "mqtt", "db", "ftp", "ssh", "smtp", "sip", "vpn", "wifi", "root", "admin", "ldap", "redis", "amqp", "rabbitmq",
    "mongo", "mysql", "postgres", "pg", "imap", "pop3", "sftp", "proxy", "radius", "vnc", "rdp", "ipmi", "bmc",
    "idrac", "ilo", "rtsp", "camera", "cam", "nvr", "dvr", "kafka", "svc", "smb", "nas", "router", "ap", "bind",
    "mail", "portal", "console", "mgmt", "wpa", "psk", "snmp", "jenkins", "vault", "fw", "firewall", "elastic",
    "oracle", "mssql", "mariadb", "ora", "git", "svn", "nexus", "grafana", "keycloak",
)  # fmt: skip
_SYSTEM_PASS_WORDS = ("pass", "pw", "pwd", "passwd")
for _column_kind, _names in (
    ("US_SSN", "ssn|ss number|ssn number|social security|social security number|social security no|social sec no"
     # a US payroll's export with Spanish headers (reviewer BZ)
     "|número de seguro social|numero de seguro social|seguro social"),
    ("PHONE", "phone|phone number|phone no|telephone|telephone number|tel|mobile|mobile number|mobile phone|cell"
     "|cell phone|cellphone|fax|contact number|phone1|phone2|home phone|work phone"
     # the same in the languages exports are written in (reviewer M: a Spanish sheet's "Teléfono")
     "|teléfono|telefono|telefone|téléphone|telefon|telefonnummer|telefoonnummer|móvil|movil|celular|cellulare"
     "|handy|mobil|portable|gsm|телефон|電話|電話番号|전화|전화번호|연락처|手机|电话"
     "|telefoon|τηλέφωνο|טלפון|هاتف|điện thoại|dien thoai|telepon|nomor telepon|nomor hp|telefonszám|telefonszam"
     # a mobile network's subscriber number (reviewer CL: "INSERT INTO customers (..., msisdn, ...)")
     "|msisdn"),
    ("CREDIT_CARD", "card number|card no|card|credit card|credit card number|cc|cc number|ccnum|pan|card num"
     # the same in the languages exports are written in (reviewer BK: "Numer karty (1/2)", "Kartennummer")
     "|kartennummer|numéro de carte|numero de carte|número de tarjeta|numero de tarjeta|numer karty|номер карты"
     "|číslo karty|cislo karty|kártyaszám|kartyaszam|kaartnummer|numero carta|número do cartão|numero do cartao"
     "|kart numarası|kart numarasi|kart no|卡号|カード番号|카드번호|رقم البطاقة|מספר כרטיס|কার্ড নম্বর"
     "|कार्ड नंबर|số thẻ|so the|nomor kartu|αριθμός κάρτας"),
    # An SSN kept as the SSA's three fields, a column each ("ssn_area,ssn_group,ssn_serial": reviewer BK)
    ("SSN_PART", "ssn area|ssn group|ssn serial"),
    ("IBAN", "iban|iban number"),
    # An account's number, read only in a table that names its bank too (see _BANK_COLUMN): "payee,sort_code,
    # account_number,reference" (reviewer BS); alone, "account_number" is a CRM's customer number as often.
    ("BANK_ACCOUNT", "account number|account no|account num|account nbr|acct no|acct number|acct num|bank account"
     "|bank account number|bank account no|beneficiary account|payee account|kontonummer|numéro de compte"
     "|numero de compte|número de cuenta|numero de cuenta|numero conto|número da conta|numero da conta"
     "|rekeningnummer|numer konta|numer rachunku|nomor rekening|номер счета|номер счёта|口座番号|계좌번호|银行账号"
     "|رقم الحساب"
     # a bank's account in Spanish and Hindi, in Chinese's other spelling (reviewer BZ)
     "|número de cuenta bancaria|numero de cuenta bancaria|बैंक खाता संख्या|बैंक खाता नंबर|खाता संख्या|银行帐号"
     # an account named alone, beside its routing's column in a payroll export ("...,net_pay,routing,account" then
     # "...,027906242,770164571852": reviewer CG), read only so (see _beside_a_bank)
     "|account|acct"),
    ("PASSWORD", "password|passwd|pwd|passphrase|user password|login password|password plain|plain password"
     "|plaintext password|password plaintext|cleartext password|password clear"  # "pass" may be pass or fail
     # the same in other languages (reviewer AD: a German wiki's "| System | Benutzer | Passwort |")
     "|passwort|kennwort|mot de passe|contraseña|contrasena|senha|hasło|haslo|wachtwoord|lösenord|losenord"
     "|adgangskode|passord|salasana|şifre|sifre|heslo|jelszó|пароль|密码|密碼|パスワード|비밀번호|كلمة المرور"
     # a protocol's or a system's password ("mqtt_password", "db_pwd")
     "|mqtt password|mqtt pwd|db password|db pwd|admin password|admin pwd|wifi password|wifi pwd|ftp password"
     "|ssh password|root password|root pwd|router password|vpn password|smtp password|sip password|mgmt password"
     "|device password"),
    # ... "pass" for short ("serial,imei,mqtt_user,mqtt_pass": reviewer CV), whose cells hold a random secret only:
    # "pass" after a check's name is its result as often ("pipeline,db_pass,db_fail" holds "Green", "site,smtp_pass"
    # holds "TLS1.3": an attacker's round)
    ("SYSTEM_PASS", "|".join(f"{system} {word}|{word} {system}" for system in _SYSTEMS for word in _SYSTEM_PASS_WORDS)),
    ("GENERIC_SECRET", "secret|secret key|secret access key|client secret|api key|api secret|token|access token"
     "|auth token|private key|apikey|secret token"
     # a webhook's or a partner's signing secret ("partner,env,signing_secret": reviewer AQ)
     "|signing secret|webhook secret|signing key|webhook signing secret|shared secret|hmac secret|hmac key"),
    # One-time and backup codes (reviewer AE: a psql table's "mfa_backup_code", a form's "otp" field)
    ("CODE", "otp|otp code|one time code|one time password|onetime code|mfa code|2fa code|totp|totp code"
     "|backup code|mfa backup code|2fa backup code|recovery code|mfa recovery code|verification code|sms code"
     "|sms otp|login code|auth code|mfa|2fa"),
    # A card's code: beside the card's number only (a "CSC" column is a hospital's code elsewhere)
    ("CARD_CODE", "cvv|cvv2|cvc|cvc2|csc|card code|card security code|card cvv|card cvc"),
    # A phone's area code in a column of its own, the number in the next ("| Vorwahl | Rufnummer |": reviewer
    # BL): nothing alone, joined with the number beside it (see _joined_cells)
    ("AREA_CODE", "area code|vorwahl|ortsnetzkennzahl|prefijo|indicatif|prefisso|netnummer|kierunkowy|numer kierunkowy"
     "|std code"
     "|código de área|codigo de area|dialling code|dialing code"),
):  # fmt: skip
    for _name in _names.split("|"):
        _COLUMNS[_name] = _column_kind
        # as the view writes it: an Indic name's marks dropped ("কার্ড নম্বর"), Greek's and Cyrillic's
        # Latin-looking letters Latin
        _COLUMNS.setdefault(normalise_text(_name).lower(), _column_kind)
# A national number's column ("bsn", "PESEL", "NI_Number", "national_id"; reviewer CZ's sheets and an attacker's
# round): its cells are read with the schemes its name names (national.py), each whole and its check digit holding.
_NATIONAL = "NATIONAL_ID:"
for _name in NATIONAL_COLUMNS:
    _COLUMNS.setdefault(_name, _NATIONAL + _name)
# A cell holding one of the names, between delimiters or a line's ends, read on a line that starts a
# table only.
# Whose value a column holds, before its name ("subscriber_ssn", "member_phone", "patient_email": reviewer
# AU's claims exports): the name after it is read as the column's.
_WHOSE_COLUMN = frozenset(
    {"subscriber", "member", "patient", "customer", "client", "employee", "insured", "policyholder", "holder",
     "beneficiary", "spouse", "dependent", "guarantor", "primary", "secondary", "contact", "emergency", "home",
     "work", "cell"}
)  # fmt: skip
_WHOSE_KINDS = frozenset({"US_SSN", "PHONE", "IBAN", "CREDIT_CARD"})
# A column whose whole name is a bank's, its branch's or its routing's: beside it, and filled in the row, an account's
# number is a bank's. Not a name that holds such a word ("transit_days", "routing_key", "bank_reconciled",
# "swift_version", "food_bank_site", "bankruptcy_flag": an attacker's round).
_BANK_COLUMN = lazy_compile(
    r"(?:bank|bank name|bank code|bank id|bank branch|branch code|sort code|sortcode|routing|routing number|routing no"
    r"|aba|aba routing|aba number|aba routing number|iban|bic|swift|swift code|swift bic|bic swift|bsb|bsb number|ifsc"
    r"|ifsc code|blz|bankleitzahl|transit number|institution number|clabe|banque|nom de la banque|banco|banca|bankname"
    r"|kreditinstitut|банк|银行|開户行|开户行|銀行|은행|بنك|البنك)"
)
_HEADER_CELL = lazy_compile(
    r"(?:^|[,;\t|])[ \t\"']*(?:(?:"
    + "|".join(sorted(_WHOSE_COLUMN))
    + r")[ _.\-]+)?(?:"
    + "|".join(sorted((re.escape(name).replace(r"\ ", r"[ _.\-]+") for name in _COLUMNS), key=len, reverse=True))
    + r")(?:[ \t]*(?:\([0-9](?:/[0-9])?\)|\((?:part|teil|partie|parte) [0-9](?:/[0-9])?\)|#[0-9]"
    + r"|(?:part|teil|partie|parte) [0-9](?:/[0-9])?|[0-9]/[0-9])|[ _\-]?[1-4])?\.?[ \t\"']*(?:[,;\t|]|$)"
)

_SSN = lazy_compile(r"([0-9]{3})([- ]?)([0-9]{2})\2([0-9]{4})")
_CARD = lazy_compile(r"[0-9]{4}(?:[ \-]?[0-9]{2,6}){2,4}")
_PHONE = lazy_compile(r"\+?[0-9(][0-9 ().\-/]{5,22}[0-9]")
_IBAN = lazy_compile(r"[A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{11,40}")
_DATE = lazy_compile(
    r"[0-9]{4}[-./][0-9]{1,2}[-./][0-9]{1,2}|[0-9]{1,2}[-./][0-9]{1,2}[-./][0-9]{2,4}"
)  # in a phone column
# A password under "X_pass": letters and a digit, no dot or blank, and random: a symbol in it ("Qw3rty!Db2024"), or not
# capitalised words, capitals and digits joined (_words_joined: "pIiYpvLxYI9rzTmO", "5BEuuiviVC5dYYRf", "k7v9q2m4x8"
# are random). Not "Green", "TLS1.3", "CIS-5.2.1", a check's result or a standard's number, nor a check's, a
# render's, a route's or a plan's name ("PostgreSQL15", "Ed25519Only", "CamMainV3", "Zone2Monthly", "SeeRunbook7":
# an attacker's round), nor a password manager's entry ("keepass:Infra/Redis01", "bw:Infra-Mysql01").
_SYSTEM_PASS_VALUE = lazy_compile(r"(?=[^A-Za-z]*[A-Za-z])(?=[^0-9]*[0-9])(?![A-Za-z]+:)[^\s.]{8,64}")
_SYMBOL = lazy_compile(r"[^A-Za-z0-9]")
# (cut into its runs in one pass, not matched whole: a pattern of runs of runs backtracked exponentially over a cell of
# digits with a small letter after them, "Abc111...1a": the attacker of the README's promises)
_JOINED_RUNS = lazy_compile(r"[0-9]+|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|.")
_CAPITALISED = lazy_compile(r"[A-Z][a-z]{2,}")


def _words_joined(value: str) -> bool:
    """Capitalised words, capitals and digits joined ("CamMainV3", "PostgreSQL15"), a word of three letters at least
    among them: no run of small letters of its own, no other character."""
    runs = _JOINED_RUNS.findall(value)
    return any(_CAPITALISED.fullmatch(run) for run in runs) and not any(
        run.islower() or not run.isalnum() for run in runs
    )


_STOP = frozenset(("", "none", "null", "n/a", "na", "-", "redacted", "hidden", "*****", "xxx", "password", "secret"))
# A one-time or backup code: six to eight digits, maybe in two groups, or a recovery code's two groups of
# letters and digits ("a7k2-9fqx"); not an example's digits (see year_or_example). Fewer digits under such
# a name are a count, a status, a setting or a test's number ("otp,345", "auth_code,200", "totp,1000",
# "login code,1440": a fresh attacker's round).
_CODE = lazy_compile(r"[0-9]{6,8}|[0-9]{3,4}[ \-][0-9]{3,4}|(?=[a-z]*[0-9])(?=[0-9]*[a-z])[a-z0-9]{4,5}-[a-z0-9]{4,5}")
_CARD_CODE = lazy_compile(r"[0-9]{3,4}")
# What each kind is reported as: a code is a secret of no provider's shape.
_REPORTED = {
    "SYSTEM_PASS": "PASSWORD",
    "CODE": "GENERIC_SECRET",
    "CARD_CODE": "GENERIC_SECRET",
    "ACCOUNT_BESIDE_BANK": "BANK_ACCOUNT",
    "ACCOUNT_BESIDE_ROUTING": "BANK_ACCOUNT",
}
# An account read only beside a bank's column that the row fills (see _bank_filled)
_BESIDE = frozenset({"ACCOUNT_BESIDE_BANK", "ACCOUNT_BESIDE_ROUTING"})
# A header that names an account's login beside a "secret" column: the secret is that login's password
# ("login,secret,role": reviewer AE), which may be shorter and less random than a key.
_ACCOUNT_NAMES = frozenset(("login", "user", "username", "user name", "user id", "userid", "account", "login name"))


# Substrings the names hold: where one occurs, its line is read as a possible header (each line once).
# The secret words ("pass", "pw", "secret", "token") are where the keyword finder found them, when it ran.
# ("tel", "cell", "cc", "pan" and "api key" alone are headers rarely enough to be left to the other finders.)
_HINTS: tuple[str, ...]
_HINTS = ("ssn", "social", "phone", "mobile", "fax", "card", "iban", "tele", "telé", "tél", "móvil", "movil", "celular",
          "msisdn", "pan_1", "pan_0", "pan-1", "pan1", "pan 1",  # a card's number in numbered parts (see _card_name)
          "val", "handy", "mobil", "portable", "gsm", "телеф", "電話", "전화", "연락처", "手机", "电话", "otp", "mfa",
          "2fa", "backup", "recovery", "verification", "one time", "one_time", "cvv", "cvc", "csc",
          # cards' numbers, phones in more languages (reviewer BK)
          "kart", "carte", "tarjeta", "carta", "cartão", "cartao", "карт", "卡号", "カード", "카드", "بطاق", "כרטיס",
          "কার্ড", "कार्ड", "thẻ", "so the", "τηλέφ", "κάρτ", "טלפון", "هاتف", "điện thoại", "telepon",
          # a phone's area code in a column of its own (reviewer BL)
          "area", "vorwahl", "ortsnetz", "prefijo", "indicatif", "prefisso", "netnummer", "kierunkowy", "std code",
          "código de", "codigo de", "dialing code", "dialling code",
          # an account's number in a table that names its bank (reviewer BS)
          "account", "acct", "konto", "compte", "cuenta", "conto", "conta", "rekening", "rachunk", "счет", "счёт",
          "口座", "계좌", "账号", "الحساب",
          # (reviewer BZ) Hindi's account, Chinese's other spelling of an account ("social" reads Spanish's SSN)
          "खाता", "帐号")  # fmt: skip
_HINTS = tuple(dict.fromkeys([*_HINTS, *(normalise_text(hint).lower() for hint in _HINTS)]))  # as the view writes them
_SECRET_HINTS = ("pass", "pw", "secret", "token")


def may_hold_columns(scan: Scan) -> bool:
    return "\n" in scan.text and any(delimiter in scan.text for delimiter in _DELIMITERS)


def _header_lines(scan: Scan) -> list[int]:
    """The starts of the lines holding a hint, each once, in order."""
    text = scan.text
    lower = scan.lower
    found: list[int] = []
    for hint in _HINTS if scan.hints is not None else _HINTS + _SECRET_HINTS:
        at = lower.find(hint)
        while at != -1:
            found.append(at)
            end = text.find("\n", at)
            if end == -1:
                break
            at = lower.find(hint, end)  # the rest of this line is read with it
    if scan.hints is not None:
        found += [at for at, _ in scan.hints if lower.startswith(_SECRET_HINTS, at)]
    found += [at for word in scan.words.keys() & COLUMN_WORDS for at in scan.words[word]]
    return sorted({text.rfind("\n", 0, at) + 1 for at in found})


_COUNTED, _QUOTED = 1, 2  # how a table's start was told (see _table_start)
_ANY_DIGIT = lazy_compile(r"[0-9]")


def _table_start(text: str, start: int, end: int) -> int:
    """The line [start, end) has a delimiter, and the next line as many of it (a header and a row: _COUNTED);
    a rule between them ("+----+------+", a MySQL client's table) is passed over. Or the next line has as many
    cells once its CSV quotes are read, a quoted cell holding the delimiter (_QUOTED): 'E37714,"Bennett,
    Olivia",531 76 7699' (reviewer BZ). 0: no table starts there."""
    if end >= len(text):
        return 0
    end = _past_rule(text, end)
    if end >= len(text):
        return 0
    row = _next_line(text, end)
    after = _line_end(text, row)
    quoted = '"' in text[row:after]
    told = 0
    for delimiter in _DELIMITERS:
        count = text.count(delimiter, start, end)
        if not count:
            continue
        if text.count(delimiter, row, after) == count:
            return _COUNTED
        if quoted and (cells := _quoted_cells(text, row, after, delimiter)) is not None and len(cells) == count + 1:
            told = _QUOTED
    return told


# The columns read in a table told by its quotes only: values a check of their own vouches for (SSA's rules, Luhn,
# mod 97, a bank's column beside), not an analytics sheet's "mobile" counts, a token list's contract addresses, a
# policy's words under "password" or a card's authorisation code (an attacker's round on reviewer BZ's readers).
_CHECKED_KINDS = frozenset(
    {
        "US_SSN",
        "SSN_PART",
        "CREDIT_CARD",
        "IBAN",
        "BANK_ACCOUNT",
        "ACCOUNT_BESIDE_BANK",
        "ACCOUNT_BESIDE_ROUTING",
        "BANK_NAMED",
    }
)


def _checked(kind: str | None) -> str | None:
    return kind if kind in _CHECKED_KINDS or (kind or "").startswith(_NATIONAL) else None


# A table's rule: "+----+-------+" (MySQL's borders), "--------+-------" (psql's, under its header).
_RULE = lazy_compile(r"[ \t]*(?:\+[-+=]*\+|-+(?:\+-+)+)[ \t]*\r?$", re.MULTILINE)


def _past_rule(text: str, end: int) -> int:
    """``end`` (a line's end), or the end of the rule line that follows it."""
    rule = _RULE.match(text, _next_line(text, end))
    return _line_end(text, _next_line(text, end)) if rule is not None else end


def _next_line(text: str, end: int) -> int:
    """Where the line after the one ending at ``end`` (before its "\r\n" or "\n") starts."""
    return end + 2 if text.startswith("\r\n", end) else end + 1


def _kind(cell: str) -> str | None:
    name = _column_name(cell)
    kind = _COLUMNS.get(name)
    if kind is None:
        whose, _, rest = name.partition(" ")
        kind = _COLUMNS.get(rest) if whose in _WHOSE_COLUMN else None
        if kind not in _WHOSE_KINDS and not (kind or "").startswith(_NATIONAL):
            kind = None  # "primary_csc", "employee_pwd" (a disability flag in some HR exports): an attacker's round
    return kind


# A column that holds one part of a value says which ("Numer karty (1/2)", "Card number (part 2)"): the name before it.
# "IBAN part 1/2", "IBAN Teil 2", "IBAN 1/2" too (an attacker's round on reviewer BV's readers).
_PART_SUFFIX = lazy_compile(
    r"[ \t]*(?:\([0-9](?:/[0-9])?\)|\((?:part|teil|partie|parte) [0-9](?:/[0-9])?\)|(?:part|teil|partie|parte) [0-9]"
    r"(?:/[0-9])?|#[0-9]|(?<![0-9])[0-9]/[0-9])$"
)


def _column_name(cell: str) -> str:
    return _PART_SUFFIX.sub("", _NAME_SPLIT.sub(" ", _CAMEL.sub(" ", cell.strip().strip("\"'")).lower()).strip())


def reported(kind: str) -> str:
    """The type a finding of a column's ``kind`` is reported as."""
    return "NATIONAL_ID" if kind.startswith(_NATIONAL) else _REPORTED.get(kind, kind)


def find_columns(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    done = 0
    for line in _header_lines(scan):
        if line < done:
            continue  # a row of a table read already
        end = _line_end(text, line)
        header = None
        told = _table_start(text, line, end) if end - line <= _MAX_HEADER else 0
        if told:
            lower = text[line:end].lower()
            if _HEADER_CELL.search(lower) or _KEY_VALUE_HEADER.search(lower):
                header = _header(text[line:end])
        if header is not None and told == _QUOTED:
            delimiter, count, kinds = header
            header = delimiter, count, [_checked(kind) for kind in kinds]
            if not any(header[2]):
                continue
        if header is not None:
            # (a table told by its quotes ends at the next header: a CSV pasted below it is read under its own, an
            # attacker's round)
            done = yield from _rows(scan, _next_line(text, _past_rule(text, end)), header, told == _QUOTED)


def _rows(
    scan: Scan, start: int, header: tuple[str, int, list[str | None]], to_header: bool = False
) -> Generator[Hit, None, int]:
    """The values of the named columns in the lines from ``start`` with as many cells as the header;
    returns where the table ends (``to_header``: at the next line that is a header, too)."""
    text = scan.text
    delimiter, count, kinds = header
    while start < len(text):
        end = _line_end(text, start)
        if to_header and _HEADER_CELL.search(text[start:end].lower()) and not _ANY_DIGIT.search(text, start, end):
            break
        if '"' in text[start:end]:  # a quoted cell may hold the delimiter: cells are read quote by quote
            spans = _quoted_cells(text, start, end, delimiter)
            if spans is not None and len(spans) == count:
                yield from _cell_hits(scan, start, end, kinds, spans)
            elif text.count(delimiter, start, end) != count - 1:
                break
            # else a row whose quotes are not CSV's ('| db1 | "prod" only |'): passed over, the table goes on
        elif text.count(delimiter, start, end) != count - 1:
            break
        else:
            yield from _cells(scan, start, end, delimiter, kinds)
        start = _next_line(text, end)
    return start


def _quoted_cells(text: str, start: int, end: int, delimiter: str) -> list[tuple[int, int]] | None:
    """The cells of the row [start, end) as CSV quotes them (``"a","b,c"``, ``""`` for a quote inside), each
    cell's span inside its quotes; None when a quote is left open or text follows a closing one. Read once
    (a row of quoted cells was skipped whole: "subscriber_ssn" in an export quoted throughout, reviewer AU)."""
    spans: list[tuple[int, int]] = []
    at = start
    while True:
        low = at
        while low < end and text[low] in " \t":
            low += 1
        if low < end and text[low] == '"':
            close = low + 1
            while True:
                close = text.find('"', close, end)
                if close == -1:
                    return None
                if not text.startswith('""', close):
                    break
                close += 2
            cell = (low + 1, close)
            stop = close + 1
            while stop < end and text[stop] in " \t":
                stop += 1
            if stop < end and text[stop] != delimiter:
                return None
        else:
            stop = text.find(delimiter, low, end)
            stop = end if stop == -1 else stop
            cell = _trimmed(text, low, stop)
        spans.append(cell)
        if stop >= end:
            return spans
        at = stop + 1


def _line_end(text: str, start: int) -> int:
    """Where the line starting at ``start`` ends, before its "\r\n" or "\n"."""
    end = text.find("\n", start)
    if end == -1:
        end = len(text)
    return end - 1 if end > start and text[end - 1] == "\r" else end


_FAILED = lazy_compile(r"(?<![^\W\d_])fail(?![^\W\d_])")  # a column "fail" ("ssh_fail"), not "failover", "fail2ban"


def _header(line: str) -> tuple[str, int, list[str | None]] | None:
    for delimiter in _DELIMITERS:
        if delimiter not in line:
            continue
        cells = line.split(delimiter)
        filled = [cell.strip(" \t") for cell in cells if cell.strip(" \t")]
        if len(filled) == 1 and (line[:1] in " \t" or filled[0][:1] in "'\""):
            # One name and a trailing delimiter, indented or quoted: an item of a list or an argument
            # in code ("    'password',", "            password,"), not a one-column export ("password;").
            continue
        names = [_column_name(cell) for cell in cells]
        value_name = next((name for name in _VALUE_NAMES if name in names), None)
        named_columns = any(_COLUMNS.get(name) not in (None, "CARD_CODE") for name in names)
        if value_name is not None and any(name in _KEY_NAMES for name in names) and not named_columns:
            # A table of keys and values: each row's key names its value (see _KEY_VALUE_HEADER); a column
            # named for what it holds is read as such ("name,password,value").
            key = next(index for index, name in enumerate(names) if name in _KEY_NAMES)
            value = names.index(value_name)
            marks = {key: _KEY, value: _VALUE}
            return delimiter, len(cells), [marks.get(index) for index in range(len(cells))]
        kinds = _banked(_personal([_kind(cell) for cell in cells], line.lower()), names)
        if "SYSTEM_PASS" in kinds and any(_FAILED.search(name) for name in names):
            # "ssh_pass,ssh_fail": a check's results, passed and failed (an attacker's round)
            kinds = [None if kind == "SYSTEM_PASS" else kind for kind in kinds]
        if any(kinds) or any(
            (found := _CARD_NUMBERED.fullmatch(_bare_cell(cell)))
            and (_card_name(found["name"]) or found["name"] == "pan")
            for cell in cells
        ):
            if any(_column_name(cell) in _ACCOUNT_NAMES for cell in cells):
                kinds = [
                    "PASSWORD" if kind == "GENERIC_SECRET" and _column_name(cell) == "secret" else kind
                    for kind, cell in zip(kinds, cells, strict=True)
                ]
            return delimiter, len(cells), _split_columns(cells, kinds)
    return None


# Names too short to say a column holds a card's number rather than a card's, a game's or a loyalty scheme's
# ("card (1)", "cc", "pan"): their cells are not joined (an attacker's round on reviewer BK's readers).
_BARE_CARD_NAMES = frozenset(("card", "cc", "pan", "card num", "kart no"))


def _split_columns(cells: list[str], kinds: list[str | None]) -> list[str | None]:
    """``kinds`` with the columns that hold parts of one value marked so (see _joined_cells): adjacent columns
    that name a card's number outright, or a password's with a part's number ("Heslo (1)", "Heslo (2)")."""
    marked = list(kinds)
    for index in range(len(cells) - 1):
        first, second = _column_name(cells[index]), _column_name(cells[index + 1])
        if kinds[index] == kinds[index + 1] == "CREDIT_CARD" and not {first, second} & _BARE_CARD_NAMES:
            marked[index] = marked[index + 1] = "CARD_PART"
        elif kinds[index] == kinds[index + 1] == "IBAN" and all(
            _PART_SUFFIX.search(cell.strip().lower()) for cell in cells[index : index + 2]
        ):
            marked[index] = marked[index + 1] = "IBAN_PART"  # "IBAN (1/2)", "IBAN (2/2)" (reviewer BV)
        elif (
            kinds[index] == kinds[index + 1] == "PASSWORD"
            and first == second
            and all(_PART_SUFFIX.search(cell.strip().lower()) for cell in cells[index : index + 2])
        ):
            marked[index] = marked[index + 1] = "PASSWORD_PART"
    # Four columns of one card's name numbered 1 to 4 ("card_1,card_2,card_3,card_4": reviewer BL): a group each;
    # "pan_1".."pan_4" where an expiry's column says the table holds cards ("client,pan_1,...,pan_4,exp": reviewers I
    # and CV; "panel_row,pan_1,...", a roof's panels, has none: an attacker's round).
    expiry = any(_EXPIRY_COLUMN.fullmatch(_column_name(cell)) for cell in cells)
    for index in range(len(cells) - 3):
        numbered = [_CARD_NUMBERED.fullmatch(_bare_cell(cell)) for cell in cells[index : index + 4]]
        names = {found["name"] for found in numbered if found}
        numbered = [
            found if found and (_card_name(found["name"]) or (found["name"] == "pan" and expiry)) else None
            for found in numbered
        ]
        if all(numbered) and [found["n"] for found in numbered if found] in _QUADS and len(names) == 1:
            marked[index : index + 4] = ["CARD_QUAD"] * 4
    # The column after an area code's holds the rest of the number, whatever its name says ("Rufnummer", "Number").
    for index in range(len(cells) - 1):
        if kinds[index] == "AREA_CODE" and (
            kinds[index + 1] == "PHONE" or _column_name(cells[index + 1]) in _LOCAL_NUMBER_NAMES
        ):
            marked[index + 1] = "LOCAL_NUMBER"
        elif kinds[index] == "AREA_CODE" and _column_name(cells[index + 1]) in _BARE_NUMBER_NAMES:
            # a bare "Nummer" after "Vorwahl": the rest of a phone only where the area's cell opens with a
            # country's code ("| +49 151 | 76943197 |": reviewer BV), never a count of subscribers
            marked[index + 1] = "LOCAL_AFTER_PLUS"
    # A password's column with a part's number and no other part beside it is no column of passwords ("| Password
    # | Password (2) |" of a screen's fields: an attacker's round): its cells are left alone, as before.
    for index, cell in enumerate(cells):
        if marked[index] == "PASSWORD" and _PART_SUFFIX.search(cell.strip().lower()):
            marked[index] = None
    return marked


_EXPIRY_COLUMN = lazy_compile(
    r"(?:exp|expiry|expires|expiration)(?: (?:date|month|year|mm|yy|yyyy))?|valid thru|valid until|mm yy|ablauf"
)
_CARD_NUMBERED = lazy_compile(r"(?P<name>.+?)[ _\-#]?\(?(?P<n>[0-4])\)?")


_QUADS = (["1", "2", "3", "4"], ["0", "1", "2", "3"])


def _card_name(name: str) -> bool:
    """A card's number's name, "card" alone included ("card_1".."card_4": reviewer BL; "kartennummer_1"), not "cc"
    or "pan", which name codes and pans or panels as often (an attacker's round; "pan" with an expiry's column
    beside it: see _split_columns)."""
    return name == "card" or (_COLUMNS.get(_column_name(name)) == "CREDIT_CARD" and name not in ("cc", "pan"))


def _bare_cell(cell: str) -> str:
    return cell.strip().strip("\"'").strip().lower()


_BARE_NUMBER_NAMES = frozenset(("number", "nummer", "numéro", "número", "numero", "numer", "no", "nr"))
# Names that say the column holds a phone's local part: a bare "Number" or "Nummer" beside an area code is a count
# as often ("| Area code | Number |" of subscribers per area: an attacker's round).
_LOCAL_NUMBER_NAMES = frozenset(
    ("rufnummer", "teilnehmernummer", "anschluss", "anschlussnummer", "local number", "subscriber number",
     "numéro d'abonné", "número local", "numero locale", "numer abonenta")
)  # fmt: skip


# A table of keys and values, whose rows name their values each ("id,type,value" then "1,otp,550183",
# "2,reset_token,Oc-6SERRiyz…"; a settings table's "smtp_password,…": reviewer AE): the key's name, or
# its last word, says what the value is.
_KEY_NAMES = frozenset(
    ("key", "name", "type", "kind", "field", "setting", "attribute", "param", "parameter", "property", "option",
     "variable", "variable name", "config key", "setting name")
)  # fmt: skip
_VALUE_NAMES = ("value", "val")
_KEY_VALUE_HEADER = lazy_compile(r"(?:^|[,;\t|])[ \t\"']*val(?:ue)?[ \t\"']*(?:[,;\t|]|$)")
_KEY, _VALUE = "KEY", "VALUE"


def _key_value(scan: Scan, spans: list[tuple[int, int]], kinds: list[str | None]) -> Iterator[Hit]:
    text = scan.text
    name = _column_name(text[slice(*spans[kinds.index(_KEY)])])
    kind = _COLUMNS.get(name) or _COLUMNS.get(name.rsplit(" ", 1)[-1])
    if kind == "BANK_ACCOUNT":
        kind = _beside_a_bank(name, banked=False)  # a row of its own names no bank: only "bank_account" does
    if kind == "CARD_CODE":
        return  # a card's code is read beside the card's number (a delimited table's columns)
    low, high = spans[kinds.index(_VALUE)]
    if (
        kind
        and kind.startswith(_NATIONAL)
        and short_label(kind[len(_NATIONAL) :])
        and near_a_device(scan.lower, low, high)
    ):
        return  # a device's fields ("| model | GW-4400 |", "| bsn | 185339104 |": a board's serial number)
    if kind is not None and high - low <= _MAX_CELL and _valid(kind, text[low:high], scan.phone_regions):
        yield reported(kind), low, high


def _cells(scan: Scan, start: int, end: int, delimiter: str, kinds: list[str | None]) -> Iterator[Hit]:
    text = scan.text
    spans: list[tuple[int, int]] = []  # each cell, its blanks left out
    at = start
    for _ in kinds:
        stop = text.find(delimiter, at, end)
        stop = end if stop == -1 else stop
        spans.append(_trimmed(text, at, stop))
        at = stop + 1
    yield from _cell_hits(scan, start, end, kinds, spans)


def _cell_hits(
    scan: Scan, start: int, end: int, kinds: list[str | None], spans: list[tuple[int, int]]
) -> Iterator[Hit]:
    text = scan.text
    if _KEY in kinds:
        yield from _key_value(scan, spans, kinds)
        return
    found = []
    for part, (low, high) in zip(kinds, spans, strict=True):
        kind = _WHOLE.get(part or "", part)
        if (
            kind is not None
            and kind not in _PIECES
            and high - low <= _MAX_CELL
            and _valid(kind, text[low:high], scan.phone_regions)
            and (kind != "CARD_CODE" or _card_in(text, start, end))
            and (kind not in _BESIDE or _bank_filled(text, kinds, spans, kind == "ACCOUNT_BESIDE_ROUTING"))
        ):
            found.append(low)
            yield reported(kind), low, high
    yield from _joined_cells(scan, kinds, spans, found)


def _personal(kinds: list[str | None], header: str) -> list[str | None]:
    """``kinds`` without a national number's column of a short acronym in a table of devices ("sku,bsn,fw_version",
    a board's serial number: an attacker's round)."""
    if not any(kind and kind.startswith(_NATIONAL) and short_label(kind[len(_NATIONAL) :]) for kind in kinds):
        return kinds
    if not names_a_device(header, 0, len(header)):
        return kinds
    return [
        None if kind and kind.startswith(_NATIONAL) and short_label(kind[len(_NATIONAL) :]) else kind for kind in kinds
    ]


def _banked(kinds: list[str | None], names: list[str]) -> list[str | None]:
    """``kinds`` of the columns ``names``, an account's column's read beside its bank's (see _beside_a_bank) and
    the bank's columns marked (BANK_NAMED)."""
    if "BANK_ACCOUNT" not in kinds:
        return kinds
    banks = [_BANK_COLUMN.fullmatch(name) is not None for name in names]
    return [
        "BANK_NAMED" if bank and kind is None else _beside_a_bank(name, any(banks)) if kind == "BANK_ACCOUNT" else kind
        for kind, bank, name in zip(kinds, banks, names, strict=True)
    ]


# A bank named inside an account column's name in other scripts ("银行账号", "बैंक खाता संख्या"), or a word that is a
# bank's account alone (Japanese "口座", Korean "계좌": reviewer BZ's payroll exports); as the view writes them too.
_BANK_WORDS = ("银行", "銀行", "口座", "계좌", "बैंक", normalise_text("बैंक"), "банк")
_BANK_WORD_IN_NAME = lazy_compile("|".join(dict.fromkeys(_BANK_WORDS)))


def _beside_a_bank(name: str, banked: bool) -> str | None:
    """An account's column: a bank's by its own name ("bank_account"), else one read only in a row whose bank's
    column is filled (ACCOUNT_BESIDE_BANK), and only where the header has such a column."""
    if "bank" in name or "bancaria" in name or "bancaire" in name or _BANK_WORD_IN_NAME.search(name):
        return "BANK_ACCOUNT"
    if not banked:
        return None
    return "ACCOUNT_BESIDE_ROUTING" if name in ("account", "acct") else "ACCOUNT_BESIDE_BANK"


def _bank_filled(text: str, kinds: list[str | None], spans: list[tuple[int, int]], coded: bool = False) -> bool:
    """The row names its bank: a cell of a bank's column holds a bank's name or code (not "none", a flag or a tier:
    "customer_account_number,bank,plan" then "900123456,none,basic", "account_number,aba,units" then
    "62012345,0,14", "routing" holding "tier2": an attacker's round). ``coded``: its code, digits (beside an
    account's column named "account" alone: a ticket's "routing" holds "escalation", a shipment's "Ground", an
    attacker's round)."""
    for kind, (low, high) in zip(kinds, spans, strict=True):
        cell = text[low:high].strip(" \t\"'")
        if (
            kind in ("BANK_NAMED", "IBAN")
            and cell.lower() not in _STOP
            and cell.lower() not in _NO_BANK
            and (_BANK_DIGITS.fullmatch(cell) if coded else _BANK_CELL.fullmatch(cell))
        ):
            return True
    return False


_BANK_DIGITS = lazy_compile(r"[0-9][0-9 \-]{4,}[0-9]")


# What a ledger writes in its bank's column when no bank holds the money (a cash book's "Cash": an attacker's round on
# reviewer BZ's readers)
_NO_BANK = frozenset(("cash", "petty cash", "in hand", "cash in hand", "kasse", "caisse", "caja", "nakit", "नकद"))


# A bank's name (letters, maybe a few words and digits: "Santander", "Banco do Brasil", "ING Bank 2"), a branch's or a
# routing's number ("48-72-05", "021000021") or a BIC's or an IFSC's shape ("DEUTDEFF", "HDFC0001234").
_BANK_CELL = lazy_compile(
    r"[^\W\d_]{3,}(?:[ .&'\-][^\W_]+)*|[0-9][0-9 \-]{3,}[0-9]|[A-Za-z]{4}[A-Za-z]{2}[A-Za-z0-9]{2}(?:[A-Za-z0-9]{3})?"
    r"|[A-Za-z]{4}0[A-Za-z0-9]{6}|[A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{10,40}"
)


# A value split across cells, a piece each (reviewer BK's evasions): a card's groups in two columns that both
# name a card's number, an SSN in the SSA's three fields, a phone's country code in the cell before a phone's.
# Joined, the pieces must pass the type's own check; the finding spans them, delimiters between.
# the most cells a value is split into
_JOINED = {"CARD_PART": 4, "CARD_QUAD": 4, "SSN_PART": 3, "PASSWORD_PART": 2, "IBAN_PART": 4}
# a part's own check
_WHOLE = {
    "CARD_PART": "CREDIT_CARD",
    "CARD_QUAD": "CARD_QUAD",
    "SSN_PART": "US_SSN_PART",
    "PASSWORD_PART": "PASSWORD",
    "IBAN_PART": "IBAN",
}
_PIECES = frozenset(
    {"US_SSN_PART", "CARD_QUAD", "AREA_CODE", "LOCAL_NUMBER", "LOCAL_AFTER_PLUS", "BANK_NAMED"}
)  # nothing alone: see _joined_cells
_COUNTRY_CODE = lazy_compile(r"\+[1-9][0-9]{0,2}")
_FOUR_DIGITS = lazy_compile(r"[0-9]{4}")
_AREA_DIGITS = lazy_compile(r"\(?0?[1-9][0-9]{0,4}\)?")
_PLUS_AREA = lazy_compile(r"\+[1-9][0-9]{0,2}[ \-](?:\(0\)[ ]?)?\(?0?[1-9][0-9]{0,4}\)?")  # "+49 151", "+49 (0)151"
_LOCAL_DIGITS = lazy_compile(r"[0-9]{2,8}(?:[ \-][0-9]{2,8}){0,3}")
_CARD_GROUPS = lazy_compile(r"[0-9]{3,6}(?:[ \-][0-9]{2,6})+")
# A letter, a digit, and a symbol or both cases.
_PASSWORD_WHOLE = lazy_compile(r"(?=.*[0-9])(?=.*[^\W\d_])(?:.*[^\w\s]|(?=.*[a-z]).*[A-Z])")


def _joined_cells(scan: Scan, kinds: list[str | None], spans: list[tuple[int, int]], found: list[int]) -> Iterator[Hit]:
    text = scan.text
    index = 0
    while index < len(kinds):
        kind = kinds[index]
        if kind == "PHONE" and index:
            low, high = spans[index - 1]
            if _COUNTRY_CODE.fullmatch(text, low, high) and _valid(
                "PHONE", f"{text[low:high]} {text[slice(*spans[index])]}", scan.phone_regions
            ):
                yield "PHONE", low, spans[index][1]
        if kind in ("LOCAL_NUMBER", "LOCAL_AFTER_PLUS") and index:
            # an area code's cell, then the rest of the number (reviewer BL's "| 030 | 87654321 |"): joined,
            # a phone of a configured region, the area's trunk "0" included
            low, high = spans[index - 1]
            area, local = text[low:high], text[slice(*spans[index])]
            if (
                (_PLUS_AREA.fullmatch(area) or (kind == "LOCAL_NUMBER" and _AREA_DIGITS.fullmatch(area)))
                and _LOCAL_DIGITS.fullmatch(local)
                and _valid("PHONE", f"{area} {local}", scan.phone_regions)
            ):
                yield "PHONE", low, spans[index][1]
        if kind is None or kind not in _JOINED:
            index += 1
            continue
        last = index
        while last + 1 < len(kinds) and last + 1 - index < _JOINED[kind] and kinds[last + 1] == kind:
            last += 1
        # (a password's halves are joined though one passes alone: the other is part of it)
        alone = any(spans[at][0] in found for at in range(index, last + 1))
        if last > index and (kind == "PASSWORD_PART" or not alone):
            hit = _joined_hit(scan, kind, spans[index : last + 1])
            if hit is not None:
                yield hit
        index = last + 1


def _joined_hit(scan: Scan, kind: str, spans: list[tuple[int, int]]) -> Hit | None:
    """The value of ``kind`` split across the cells ``spans`` of one row, if joined it is one."""
    pieces = [scan.text[slice(*span)] for span in spans]
    if not all(piece.strip() for piece in pieces):
        return None
    if kind == "SSN_PART":
        kind, joined = "US_SSN", "-".join(pieces)
    elif kind == "PASSWORD_PART":
        # "Heslo (1);Heslo (2)": a password's halves (reviewer BK); joined, a password's whole shape, not a
        # policy table's "12 | 20", "Yes | No", "90d | 1y" (an attacker's round)
        kind, joined = "PASSWORD", "".join(pieces)
        # (matched from the start, which reads the whole piece: searched, its look-aheads read the rest from each
        # character, quadratic on a long cell: an attacker's round)
        if not (len(joined) >= 8 and _PASSWORD_WHOLE.match(joined)):
            return None
    elif kind == "IBAN_PART":
        kind, joined = "IBAN", " ".join(piece.strip() for piece in pieces)
    elif kind == "CARD_QUAD":
        # four cells of four digits under a card's name numbered 1 to 4 ("card_1,...,card_4": reviewer BL)
        if len(pieces) != 4 or not all(_FOUR_DIGITS.fullmatch(piece.strip()) for piece in pieces):
            return None
        groups = [int(piece) for piece in pieces]
        if groups == sorted(groups) or groups == sorted(groups, reverse=True):
            return None  # numbers counted up or down ("4040,4041,4042,4043": a game's cards, an attacker's round)
        kind, joined = "CREDIT_CARD", " ".join(piece.strip() for piece in pieces)
    else:
        # each piece a card's groups ("4539 7265", "3530-3543"), not a game's or a loyalty scheme's plain ids in
        # two columns ("27022640,89593718" under "卡号 (1),卡号 (2)": an attacker's round)
        if not all(_CARD_GROUPS.fullmatch(piece.strip()) for piece in pieces):
            return None
        kind, joined = "CREDIT_CARD", " ".join(pieces)
    if not _valid(kind, joined, scan.phone_regions):
        return None
    return reported(kind), spans[0][0], spans[-1][1]


def _trimmed(text: str, low: int, high: int) -> tuple[int, int]:
    """``(low, high)`` without the blanks at either end."""
    while low < high and text[low] in " \t":
        low += 1
    while high > low and text[high - 1] in " \t":
        high -= 1
    return low, high


_CARD_IN_ROW = lazy_compile(r"(?<![0-9])[0-9](?:[ \-]?[0-9]){12,18}(?![0-9])")


def _card_in(text: str, start: int, end: int) -> bool:
    """The row holds a card's number (a card code's column is read beside one only: "CSC" is also a
    hospital's code, "CVV" a count of checks; a fresh attacker's round)."""
    return any(
        card_number_valid(re.sub("[^0-9]", "", number.group())) for number in _CARD_IN_ROW.finditer(text, start, end)
    )


def _valid(kind: str, value: str, regions: tuple[str, ...]) -> bool:
    if value.lower() in _STOP:
        return False
    if kind == "US_SSN":
        match = _SSN.fullmatch(value)
        return match is not None and ssn_valid(match[1], match[3], match[4])
    if kind == "CREDIT_CARD":
        digits = "".join(char for char in value if char.isdigit())
        return _CARD.fullmatch(value) is not None and 12 <= len(digits) <= 19 and card_number_valid(digits)
    if kind == "PHONE":
        # A column that says phone may hold other countries' numbers, as a label that says so may
        return (
            _PHONE.fullmatch(value) is not None
            and _DATE.fullmatch(value) is None
            and (phone_e164(value, regions) is not None or valid_where_said(value))
        )
    if kind == "IBAN":
        return _IBAN.fullmatch(value) is not None and iban_valid(value.replace(" ", "").upper())
    if kind == "CODE":
        digits = value.replace("-", "").replace(" ", "")
        return _CODE.fullmatch(value.lower()) is not None and not year_or_example(digits) and not a_date(digits)
    if kind == "CARD_CODE":
        return _CARD_CODE.fullmatch(value) is not None and not year_or_example(value)
    if kind in ("BANK_ACCOUNT", "ACCOUNT_BESIDE_BANK", "ACCOUNT_BESIDE_ROUTING"):
        return column_account(value)
    if kind.startswith(_NATIONAL):
        return national_cell(kind[len(_NATIONAL) :], value)
    if kind == "SYSTEM_PASS":
        return (
            _SYSTEM_PASS_VALUE.fullmatch(value) is not None
            and (_SYMBOL.search(value) is not None or not _words_joined(value))
            and looks_like_column_secret("PASSWORD", value)
        )
    return looks_like_column_secret(kind, value)


# SQL dumps name their columns once too: "INSERT INTO customers (id, email, phone, ssn) VALUES (...),
# (...);" (reviewer P's blind round: an SSN as bare digits in such a tuple). Each value of a named
# column is read as that column's type, as a delimited table's is.
_INSERT = lazy_compile(
    r"insert[ \t]+into[ \t]+[\w.\"`\[\]]{1,128}[ \t]*\((?P<columns>[^()\n]{1,1024})\)[ \t\r\n]*values[ \t\r\n]*",
    re.IGNORECASE,
)
_SQL_VALUE = lazy_compile(r"[ \t\r\n]*(?:'(?P<quoted>(?:[^'\n]|''){0,256})'|(?P<bare>[^,()'\s]{1,64}))[ \t\r\n]*")
_SQL_NEXT_ROW = lazy_compile(r"[ \t\r\n]*,[ \t\r\n]*")
_MAX_ROWS = 10_000


def may_hold_sql_insert(scan: Scan) -> bool:
    return "insert" in scan.lower


def find_sql_inserts(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for insert in _INSERT.finditer(text):
        names = [_column_name(name.strip(' \t"`[]')) for name in insert["columns"].split(",")]
        kinds = _banked(_personal([_kind(name) for name in names], insert["columns"].lower()), names)
        if not any(kinds):
            continue
        at = insert.end()
        for _ in range(_MAX_ROWS):
            row = _sql_row(text, at, len(kinds))
            if row is None:
                break
            cells, at = row
            for kind, (start, end) in zip(kinds, cells, strict=True):
                if (
                    kind is not None
                    and kind != "BANK_NAMED"
                    and start < end
                    and _valid(kind, text[start:end], scan.phone_regions)
                    and (kind not in _BESIDE or _bank_filled(text, kinds, cells, kind == "ACCOUNT_BESIDE_ROUTING"))
                ):
                    yield reported(kind), start, end
            more = _SQL_NEXT_ROW.match(text, at)
            if more is None:
                break
            at = more.end()


def _sql_row(text: str, at: int, columns: int) -> tuple[list[tuple[int, int]], int] | None:
    """The values' spans of the row "(v, ...)" at ``at`` (quotes left out) and where it ends; None
    where no row of ``columns`` values starts there."""
    if not text.startswith("(", at):
        return None
    at += 1
    cells: list[tuple[int, int]] = []
    while len(cells) < columns:
        value = _SQL_VALUE.match(text, at)
        if value is None:
            return None
        cells.append(value.span("quoted") if value["quoted"] is not None else value.span("bare"))
        at = value.end()
        if text.startswith(",", at) and len(cells) < columns:
            at += 1
        elif len(cells) < columns:
            return None
    return (cells, at + 1) if text.startswith(")", at) else None


# A value split across the cells of a row whose first cell names it ("| IBAN | DE11 3704 0044 | 7414
# 5525 01 |", an OCR'd form's boxes, reviewer P): the row's other cells read as one value, which must
# still pass its type's check.
_PIPE_ROW = lazy_compile(r"^[ \t]*\|(?P<cells>(?:[^|\n]*\|){3,6})[ \t]*\r?$", re.MULTILINE)
_ROW_WORDS = lazy_compile(r"[a-z]+")
_ROW_KINDS = {"iban": "IBAN", "card": "CREDIT_CARD", "pan": "CREDIT_CARD", "ssn": "US_SSN", "contact": "PHONE"}


def may_hold_split_cells(scan: Scan) -> bool:
    return "\n" in scan.text and scan.text.count("|") >= 4


def _row_kind(label: str) -> str | None:
    for word in _ROW_WORDS.findall(label.lower()):
        kind = _ROW_KINDS.get(word) or (_COLUMNS.get(word) if _COLUMNS.get(word) == "PHONE" else None)
        if kind is not None:
            return kind
    return None


def find_split_cells(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for row in _PIPE_ROW.finditer(text):
        start = row.start("cells")
        cells: list[tuple[int, int]] = []
        for cell in row["cells"].split("|")[:-1]:
            cells.append(_trimmed(text, start, start + len(cell)))
            start += len(cell) + 1
        yield from _parts(scan, _row_kind(text[slice(*cells[0])]), cells[1:])


# The same in HTML: a row whose first cell names the value the others hold in parts
# ("<tr><th>SSN</th><td>761</td><td>34</td><td>2273</td></tr>", "<td>Tel.</td><td>+49</td><td>30</td>...":
# reviewer AE), and a JSON key's list of the parts ("pan": ["4438", "1058", "7740", "0862"]).
_HTML_ROW = lazy_compile(
    r"<tr\b[^<>]{0,256}>(?P<cells>(?:(?!</?tr\b|</table\b).){1,2048}?)(?:</tr>|(?=<tr\b)|(?=</table\b)|$)",
    re.IGNORECASE | re.DOTALL,
)
_HTML_CELL = lazy_compile(r"<t[hd]\b[^<>]{0,256}>[ \t\r\n]*+(?P<value>[^<>]{0,64}?)[ \t\r\n]*+</t[hd]>", re.IGNORECASE)
_JSON_STRING = r"[ \t\r\n]*\"[^\"\n]{1,24}\""
_JSON_PARTS = lazy_compile(
    rf"\"(?P<key>[^\"\n]{{1,40}})\"[ \t]*:[ \t\r\n]*\["
    rf"(?P<items>{_JSON_STRING}(?:[ \t\r\n]*,{_JSON_STRING}){{1,7}})[ \t\r\n]*\]"
)
_JSON_ITEM = lazy_compile(r"\"(?P<value>[^\"\n]{1,24})\"")


def may_hold_html_rows(scan: Scan) -> bool:
    return "<tr" in scan.lower or '":' in scan.text or '" :' in scan.text


def find_split_parts(scan: Scan) -> Iterator[Hit]:
    """Values cut into an HTML row's cells or a JSON key's list, read whole (see _HTML_ROW)."""
    text = scan.text
    if "<tr" in scan.lower:
        for row in _HTML_ROW.finditer(text):
            spans = [cell.span("value") for cell in _HTML_CELL.finditer(text, row.start("cells"), row.end("cells"))]
            if len(spans) >= 3:
                yield from _parts(scan, _html_row_kind(text, spans), spans[1:])
    for parts in _JSON_PARTS.finditer(text):
        key = _kind(parts["key"])  # the key names the value whole ("pan", "ssn"; not "phone_models")
        items = _JSON_ITEM.finditer(text, parts.start("items"), parts.end("items"))
        yield from _parts(scan, key, [item.span("value") for item in items])


# Labels that name a category as often as a number: a device ("Mobile", "Cell") in an analytics table, a
# payment method ("Card") in a revenue table (a fresh attacker's round: "<td>Mobile</td><td>343</td>
# <td>706</td><td>9916</td>" is a count per quarter). Under them only a "+" number is a phone, no card.
_CATEGORY_LABELS = frozenset(("mobile", "cell", "card", "cc", "handy", "mobil", "portable", "gsm", "celular", "móvil"))


def _html_row_kind(text: str, spans: list[tuple[int, int]]) -> str | None:
    """What an HTML row's first cell names, whole ("Tel.", "SSN", "Card number"; not "Tel Aviv")."""
    label = _column_name(text[slice(*spans[0])].rstrip(" :.#"))
    kind = _COLUMNS.get(label) or _ROW_KINDS.get(label)
    if kind is None or label not in _CATEGORY_LABELS:
        return kind
    first = next((text[low:high] for low, high in spans[1:] if high > low), "")
    return "PHONE" if kind == "PHONE" and first.startswith("+") else None


def _parts(scan: Scan, kind: str | None, spans: list[tuple[int, int]]) -> Iterator[Hit]:
    values = [span for span in spans if span[1] > span[0]]
    if kind is None or kind in ("CODE", "CARD_CODE") or len(values) < 2:
        return  # a row of counts under "MFA" or "OTP" is no code cut in parts
    text = scan.text
    if kind == "PHONE" and text[values[0][0]] not in "+(":
        return  # a phone cut into cells is written "+49 | 30 | 901820", "(212) | 555 | 0188"; bare parts
        # under "Phone" are a channel's counts per quarter (a fresh attacker's round)
    joined = " ".join(text[low:high] for low, high in values)
    first = text[values[0][0] : values[0][1]]  # a whole value alone: a row of values, not one split
    if _valid(kind, joined, scan.phone_regions) and not _valid(kind, first, scan.phone_regions):
        yield reported(kind), values[0][0], values[-1][1]


# An HTML form's field: its type, name, id or autocomplete hint says what its value is, in whatever order
# the attributes come ("<input value="..." type="password">", "<input name="otp" value="604913">",
# autocomplete="one-time-code": reviewer AE and an attacker's round).
_INPUT = lazy_compile(
    r"<input\b(?P<attributes>(?:\"[^\"]{0,1024}\"|'[^']{0,1024}'|[^<>\"']){0,2048})/?>", re.IGNORECASE
)
_ATTRIBUTE = lazy_compile(
    # a name tried from its first character only, read whole once (a 2 KB name with no "=" was read again
    # from each of its characters: 20 ms per KB, a fresh attacker's round)
    r"""(?<![\w\-:])([a-z][\w\-:]*+)[ \t\r\n]*+=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|([^\s"'<>=`]+))""",
    re.IGNORECASE,
)
_AUTOCOMPLETE = {
    "current-password": "PASSWORD", "new-password": "PASSWORD", "one-time-code": "CODE", "cc-number": "CREDIT_CARD",
    "cc-csc": "CARD_CODE", "tel": "PHONE", "tel-national": "PHONE",
}  # fmt: skip
# Words after a field's name that leave what it holds as it is ("password_confirmation", "passwordConfirm").
_SAME_AS = frozenset(("confirm", "confirmation", "again", "repeat", "verify", "check", "1", "2", "input", "field"))


# A configuration's element named by its attribute: '<property name="password">Adt#Feed2024!</property>'
# (Spring, Mirth, Ant; reviewer AF), '<param name="otp">...</param>', '<entry key="api_key">...</entry>'.
_NAMED_ELEMENT = lazy_compile(
    r"<(?P<tag>property|entry|param|parameter|setting|item|field|attribute|var|variable|arg|value|secret)\b"
    r"(?P<attributes>[^<>]{0,512})>(?P<value>[^<>\n]{1,256})</(?P=tag)>",
    re.IGNORECASE,
)


def may_hold_form_field(scan: Scan) -> bool:
    lower = scan.lower
    return "<input" in lower or "</" in lower


def find_form_fields(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    for element in _NAMED_ELEMENT.finditer(text):
        named = _attributes(text, element.start("attributes"), element.end("attributes"))
        named["value"] = (element["value"], element.span("value"))
        kind = _field_kind({key: named[key] for key in ("name", "key", "id", "value") if key in named})
        yield from _field_value(scan, kind, named["value"])
    for field in _INPUT.finditer(text):
        named = _attributes(text, field.start("attributes"), field.end("attributes"))
        value = named.get("value") or named.get("defaultvalue")  # React's uncontrolled field
        if value is not None:
            yield from _field_value(scan, _field_kind(named), value)


def _attributes(text: str, start: int, end: int) -> dict[str, tuple[str, tuple[int, int]]]:
    """A tag's attributes in ``text[start:end]``: each name (lower-cased, the first of each), its value and where."""
    named: dict[str, tuple[str, tuple[int, int]]] = {}
    for attribute in _ATTRIBUTE.finditer(text, start, end):
        group = next(index for index in (2, 3, 4) if attribute.group(index) is not None)
        named.setdefault(attribute.group(1).lower(), (attribute.group(group), attribute.span(group)))
    return named


def _field_value(scan: Scan, kind: str | None, found: tuple[str, tuple[int, int]]) -> Iterator[Hit]:
    value, (low, high) = found
    if kind is not None and value.strip() and _valid(kind, value.strip(), scan.phone_regions):
        yield reported(kind), *_trimmed(scan.text, low, high)


def _field_kind(named: dict[str, tuple[str, tuple[int, int]]]) -> str | None:
    """What a field's value is: its type says a password; its autocomplete hint (each of its tokens:
    "billing cc-csc", "current-password webauthn"); else the first of its name, id and key, by its last
    part ("user[password]", "form.otp"), its last word ("login-otp") or its first word before one that
    leaves it as it is ("password_confirmation")."""
    if named.get("type", ("", None))[0].strip().lower() == "password":
        return "PASSWORD"
    for token in named.get("autocomplete", ("", None))[0].lower().split():
        if token in _AUTOCOMPLETE:
            return _AUTOCOMPLETE[token]
    attribute = next((attribute for attribute in ("name", "id", "key") if attribute in named), None)
    if attribute is None:
        return None
    name = _column_name(re.split(r"[\[\].]+", named[attribute][0].strip("[] "))[-1])
    words = name.split()
    if not words:
        return None
    kind = _COLUMNS.get(name) or _COLUMNS.get(words[-1])
    if kind is None and len(words) > 1 and _SAME_AS.issuperset(words[1:]):
        kind = _COLUMNS.get(words[0])
    return kind


# A table aligned by spaces (pandas' and psql's output, a report's columns): the header's names two
# spaces or more apart, each row's cell under its name ("telefono" above "670 46 16 70": reviewer P),
# right-aligned (pandas), left-aligned or roughly so: the one cell that shares a column with the name.
_ALIGNED_CELL = lazy_compile(r"\S+(?: \S+)*")
_MAX_ALIGNED_ROWS = 1_000
_NAMES_ONLY = lazy_compile(r"[ \t]*[\w#.\-]+(?: [\w#.\-]+)*(?:[ \t]{2,}[\w#.\-]+(?: [\w#.\-]+)*)+[ \t]*")


def may_hold_aligned_columns(scan: Scan) -> bool:
    return "\n" in scan.text and "   " in scan.text


def find_aligned_columns(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    done = 0
    for line in _header_lines(scan):
        end = _line_end(text, line)
        if line < done or end - line > _MAX_HEADER or not _NAMES_ONLY.fullmatch(text, line, end):
            continue  # a delimited table's (read above), or a line of code or settings ("password   = var.pw")
        names = list(_ALIGNED_CELL.finditer(text, line, end))
        kinds = _personal([_kind(found.group()) for found in names], text[line:end].lower())
        named = [(found.start() - line, found.end() - line, kind) for found, kind in zip(names, kinds, strict=True)]
        if len(names) < 2 or not any(kind for _, _, kind in named):
            continue
        row = _next_line(text, end)
        for _ in range(_MAX_ALIGNED_ROWS):
            row_end = _line_end(text, row) if row < len(text) else row
            cells = text[row:row_end]
            if not cells.strip():
                break
            for low, high, kind in named:
                if kind is None:
                    continue
                span = _aligned(cells, low, high)
                if span is not None and _valid(kind, cells[span[0] : span[1]], scan.phone_regions):
                    yield reported(kind), row + span[0], row + span[1]
            row = text.find("\n", row_end) + 1 or len(text)
        done = row


def _aligned(row: str, low: int, high: int) -> tuple[int, int] | None:
    """The one cell of ``row`` under its header's name (sharing a column with it), if only one is."""
    under = [cell.span() for cell in _ALIGNED_CELL.finditer(row) if cell.start() < high and cell.end() > low]
    return under[0] if len(under) == 1 else None
