"""A password at the end of its label's clause, whatever words stand between.

The keyword finder reads a label, a few words and what assigns the value (a colon, "is", "set to" in
some forty languages). Reviewer AZ (blind) wrote the words between as each language does, with no
colon and a verb the finder did not know, or none: "heslo k portálu pro praktické lékaře bylo
resetováno na Brno-Lab-2024.", "Tymczasowe hasło ustawione na Wiosna!2024kr, kontakt ...",
"Wachtwoord loonstrokenportaal tijdelijk Loon2024!Daan.", "Password portal INSW sementara
Cikarang!88, jangan disebar.", "Пароль до порталу митного брокера Mytnytsia_24!, логін ...",
"パスワードを Misaki_0412 に再設定済み", "Online işlem şifresi olarak Emre.1984! verdi".

Read: a label, then its clause (up to a sentence's stop or the line's end, 120 characters at most);
the first word of the clause shaped as only a password is (8 to 64 characters, letters and a digit,
and a password's own symbol or both cases; no address, link, path, date or version) is the value,
where it ends the clause: a stop, a comma or a bracket after it, or a word of another script (the
Japanese, Hindi or Arabic verb that follows it), or one word that says it was given ("verdi").
The word right before the value must say that the value follows: a copula ("is", "es", "adalah"), maybe
then "now"; a preposition after a verb that sets the value ("reset to", "resetováno na", "reposta para");
or, before a value with a password's own symbol, any preposition, a qualifier ("temporary", "new") or the
words of what the password is of ("nuova password Wi-Fi u*_@4CBO=^5l.": reviewer BA). Any other word leads
to what the password is of or for ("the password for the printer Canon2019"). The label must not head a
compound noun ("password manager is ..."), and the clause must not describe passwords rather than give one
(a policy, an example, "the same as"), nor be a question.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.answers import PASSWORD_SYMBOLS
from securemem.pii.normalize import viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, index_words
from securemem.pii.secrets import ACRONYM_NAMED, COMPOUND_HEADS, DESCRIBED, SET_BY, skip_blanks

Hit = tuple[str, int, int]


# The labels, lower case, as the view writes them: the forms a sentence gives them (Nordic definite forms,
# Slavic and Finnish cases, Turkish and Hungarian possessives).
_LATIN_LABELS = (
    "password", "passwords", "passwort", "passworte", "passwd", "passphrase", "passcode", "pwd", "kennwort",
    "wachtwoord", "mot de passe", "mdp", "contraseña", "contrasena", "senha", "palavra-passe", "palavra passe",
    "hasło", "hasła", "hasłem", "haslo", "hasla", "heslo", "hesla", "heslem", "jelszó", "jelszava", "jelszót",
    "jelszo", "şifre", "şifresi", "şifreniz", "şifrem", "sifre", "sifresi", "parola", "parolă", "parola mea",
    "lozinka", "lozinku", "geslo", "salasana", "salasanan", "salasanaksi", "lösenord", "lösenordet", "passord",
    "passordet", "adgangskode", "adgangskoden", "kata sandi", "kata laluan", "mật khẩu", "clave",
    # Tagalog's and Swahili's words, Turkish's "its password", Danish's (reviewer BF)
    "kontrasenya", "kontraseña", "nenosiri", "nywila", "parolası", "parolasi", "parolamız", "parolan", "parolanızı",
    "kodeord", "kodeordet",
    "contrasenya",  # Catalan's ("la contrasenya del TPV és ...": reviewer CI)
)  # fmt: skip
_OTHER_LABELS = viewed_words(
    "пароль",
    "пароля",
    "паролем",
    "паролі",
    "κωδικός πρόσβασης",
    "κωδικό πρόσβασης",
    "συνθηματικό",
    "סיסמה",
    "סיסמא",
    "הסיסמה",
    "كلمة المرور",
    "كلمة السر",
    "كلمة سر",
    "رمز عبور",
    "رمز ورود",
    "گذرواژه",
    "パスワード",
    "密码",
    "密碼",
    "口令",
    "비밀번호",
    "비번",
    "पासवर्ड",
    "รหัสผ่าน",
    "పాస్‌వర్డ్",  # Telugu (reviewer BF)
    "పాస్ వర్డ్",
    "የይለፍ ቃል",  # Amharic
    "የይለፍ ቃሉ",
)
_LABEL = lazy_compile(
    r"(?<![^\W\d_])(?:"
    + "|".join(re.escape(label) for label in sorted(_LATIN_LABELS, key=len, reverse=True))
    + r")(?![^\W\d_])|(?:"
    + "|".join(re.escape(label) for label in sorted(_OTHER_LABELS, key=len, reverse=True))
    + ")"
)
_REACH = 120  # characters of the label's clause read after it
# A sentence's stop: ".", "!", "?" or ";" before a blank or the end (inside a value they are its own), a line's end.
_CLAUSE_STOP = lazy_compile(r"[.!?;](?=\s|$)|[。！？]|\r?\n")
_TOKEN = lazy_compile(r"\S+")
_PARTICLE = lazy_compile(r"(?:を|は|が|은|는|을|를)[ \t]")
# After a value a particle introduced: what it was set to ("Misaki_0412 に再設定済み"), not where it is kept or
# how it is changed ("1Password8 에 저장", "Outlook2019 で変更": an attacker's round).
_SET_TO_AFTER = lazy_compile(r"[ \t]*(?:に|へ|로|으로|为|為)")
_WRAP = "\"'«»“”‘’([{<「『|*_"  # quotes, brackets and markup around a value
_TRAIL = ".,;:?)]}>\"'»”’」』|*_"  # ... and punctuation after it ("!" ends many passwords: it stays the value's)
# The word right before the value says that the value follows: a copula ("is", "es", "är", Indonesian
# "adalah", Greek "είναι"), or a preposition after a verb that sets it ("reset to", Czech "resetováno na",
# Polish "ustawione na", Portuguese "reposta para"), or a qualifier ("temporary", "new"). A preposition after
# any other word ("due in Sprint42", "restablecida para JGarcia2024", "samma som till Office365"), a qualifier,
# and Turkish "olarak" take only a value with a password's own symbol. Any other word leads to what the password
# is of ("Passwort für den Router FRITZ!Box7590", "the password for the printer Canon2019?": attackers' rounds).
_COPULAS = frozenset(
    {"is", "was", "es", "era", "est", "était", "c'est", "ist", "war", "lautet", "é", "è", "är", "er", "je", "jest",
     "ay", "ni", "adalah", "ialah", "yaitu", "là",  # Tagalog's, Swahili's, Indonesian's, Vietnamese's "is"
     "és",  # Catalan's
     *viewed_words("είναι", "ήταν", "є", "это", "הוא", "היא", "هي", "هو", "है", "उन्होंने")}
)  # fmt: skip
# Romanian's "is" after its label only (Spanish's "este" is "this": "contraseña de este Router2024!"); Thai's "is",
# glued to the word before it as Thai writes ("รหัสผ่าน Wi-Fi ห้องพักครูใหม่คือ Mali2025!Khru": reviewer CT), before a
# value with a password's own symbol ("รหัสผ่าน คือ Argon2id ที่ใช้แฮช" names a hash: an earlier attacker's round)
_ROMANIAN_LABELS = frozenset({"parola", "parolă", "parola mea"})
_THAI_IS = viewed_words("คือ")[0]
# Indonesian's "became" ("Kata sandi akun ... sudah direset menjadi Melati#3390": reviewer CT), where no word before the
# label makes it a policy's, a hash's or a rule's ("Kebijakan kata sandi diperbarui menjadi ISO-27001+NIST", "Hash kata
# sandi dimigrasikan menjadi Argon2id": an attacker's round)
_BECAME = "menjadi"
_RULE_OF = lazy_compile(
    r"(?<![^\W\d_])(?:hash|aturan|kebijakan|syarat|panjang|format|enkripsi|algoritma|standar)[ \t]+$"
)
# The new copulas' values are no algorithm's or standard's names ("PBKDF2+SHA256", "ISO+27001": an attacker's round).
_STANDARD = lazy_compile(r"(?i)pbkdf2|sha-?\d|argon2|bcrypt|scrypt|md5|aes-?\d|rsa-?\d|iso[+\-_ ]?\d|nist|fips|rfc\d")
_WHOM = frozenset({"me", "us", "him", "her", "them"})
# ... not where it was not given ("Please don't send the password to me (GDPR-Art32)": an attacker's round)
_NOT_GIVEN = lazy_compile(r"(?:don't|don’t|do not|never|not|won't|can't|cannot)\b[^.!?\n]*$")
_CLOSES = {"(": ")", "[": "]", '"': '"', "'": "'", "«": "»", "“": "”", "‘": "’", "「": "」", "『": "』"}
_OPENERS = frozenset({"«", "“", '"', "„"})
_CLOSES["„"] = "“"


_PREPOSITIONS = frozenset(
    {"to", "as", "into", "auf", "zu", "als", "a", "in", "en", "à", "para", "op", "naar", "till", "til", "na",
     "olarak", *viewed_words("σε", "в", "на")}
)  # fmt: skip
_QUALIFIES = frozenset(
    {"temporary", "temp", "new", "initial", "default", "tijdelijk", "nieuw", "nieuwe", "sementara", "baru",
     "tymczasowe", "nowe", "dočasné", "nové", "neu", "neues", "vorläufig", "temporär", "nouveau", "provisoire",
     "temporaire", "nuevo", "nueva", "provisional", "temporal", "nova", "novo", "provisória", "temporária",
     "nuova", "provvisoria", "temporanea", "geçici", "yeni", "ideiglenes", "új", "väliaikainen", "uusi",
     "midlertidig", "ny", "nytt", "tillfälligt", "nya", "mới"}
)  # fmt: skip
# A word that says the value was given, after it ("Emre.1984! verdi": Turkish "gave"; "said", "gave").
_GIVEN = frozenset(
    {"verdi", "söyledi", "dedi", "gave", "said", "sagte", "dijo", "disse", "dit", "zei", "sa",
     # ... or a chat's particle or when it was set ("Bahay#2024 po.", "Kopi#2024 ya.", "Wiosna!2024 wczoraj.")
     "po", "ya", "yah", "nhé", "nha", "ok", "yesterday", "today", "gestern", "heute", "ayer", "hoy", "ieri", "oggi",
     "hier", "wczoraj", "dzisiaj", "včera", "dnes", "igår", "idag", "i går", "i dag", "tegnap", "ma", "dün", "bugün"}
)  # fmt: skip
# "Now" and its kin between the copula and the value ("Passwort lautet jetzt Mond7Stern.", "Wachtwoord is nu
# Zomer2024!", "Heslo je teď Praha#2024": an attacker's round).
_NOW = frozenset({"now", "jetzt", "nun", "nu", "teď", "ted", "most", "sofort", "maintenant", "ahora", "agora", "ora",
                  "teraz", "nå", "nyt", "şimdi", "sekarang", "ngayon", "bây giờ"})  # fmt: skip
# Words of a clause that describes passwords, not one of them.
_DESCRIBES = lazy_compile(
    r"(?<![^\W\d_])(?:policy|policies|rule|rules|example|examples|e\.g|eg|z\.b|p\.ex|ej|like|such|format|pattern|"
    r"regex|must|should|requires?|required|contain|contains|least|characters|chars|length|hint|hash|hashed|"
    r"bcrypt|argon2|salt|richtlinie|beispiel|muss|mindestens|zeichen|exemple|doit|caractères|ejemplo|debe|"
    r"caracteres|exemplo|deve|esempio|voorbeeld|moet|przykład|musi|znaków|příklad|musí|znaků|örnek|olmalı|"
    # "the same as for Office365" in some languages; Vietnamese "for example"
    r"same|samma|samme|misma|mismo|gleiche|gleiches|même|stessa|stesso|mesma|mesmo|zelfde|тakoй|тakoe|тakaя|ví dụ)"
    r"(?![^\W\d_])"
)
_EMAIL = lazy_compile(r"[^@\s]+@[^@\s]+\.[^\W\d_]{2,}")
_NOT_A_PASSWORD = lazy_compile(
    r"[0-9]{1,4}[./\-][0-9]{1,2}[./\-][0-9]{1,4}"  # a date
    r"|v?[0-9]+(?:\.[0-9]+)+[a-z0-9\-]*"  # a version
    r"|[\w\-]+\.(?:pdf|docx?|xlsx?|csv|txt|png|jpe?g|zip|json|xml|html?|py|sh|md|log|exe|msi)"  # a file's name
    r"|wpa[23]?-?(?:personal|enterprise|psk)|[0-9]{1,2}-[a-z]{3}-[0-9]{2,4}"  # a setting, a date with its month's name
    r"|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+(?:\(\))?",  # a name in code ("self.Http2Client", "config.DbPassword1")
    re.I,
)
_LATIN_LETTER = lazy_compile(r"[A-Za-z\u00c0-\u024f]")


def _strong(value: str) -> bool:
    """Shaped as only a password is: letters and a digit, and a password's own symbol or both cases."""
    if not 8 <= len(value) <= 64 or "/" in value or "\\" in value or "://" in value:
        return False
    if not any(char.isdigit() for char in value) or not any(char.isalpha() for char in value):
        return False
    if _EMAIL.fullmatch(value) or _NOT_A_PASSWORD.fullmatch(value) or DESCRIBED.fullmatch(value):
        return False
    symbol = any(char in PASSWORD_SYMBOLS for char in value)
    cases = any(char.islower() for char in value) and any(char.isupper() for char in value)
    return symbol or cases


# A value written after the label and what it is of, with no verb: the thing's word (a network, a device, an
# account), "of" and its kin, "the", "new"; "for" leads to what the value is for ("Passwort für den Router
# FRITZ!Box7590", "Password for the discount Spring2024%": earlier attackers' rounds).
_THINGS = frozenset(
    {"wi-fi", "wifi", "wlan", "wireless", "router", "routera", "routeru", "modem", "módem", "modemu", "roteador",
     "routeur", "ruter", "network", "netzwerk", "red", "rede", "réseau", "rete", "sieci", "portal", "portalu",
     "account", "konta", "cuenta", "conta", "compte", "konto", "app", "aplikasi", "aplikacji", "email", "e-mail",
     "mail", "correo", "vpn", "admin", "panel", "netbank", "banking", "server", "servidor", "serwera",
     *viewed_words("الراوتر", "الواي", "فاي", "кабинета", "личного", "роутера", "модема", "ไวไฟ", "مودم", "روتر")}
)  # fmt: skip
_OF_THE = _QUALIFIES | {
    "la", "ya", "wa", "del", "de", "da", "do", "du", "des", "der", "di", "van", "of", "the", "el", "le", "il", "al",
    "nuovo", "nouvelle", "neue", "nowa", "mpya", *viewed_words("от", "новый", "الجديدة", "الجديد", "ใหม่"),
}  # fmt: skip
_ASSIGNED = lazy_compile(r"=|[A-Z_]+=|\w+=[\"']")  # "=x", "KEY=...", "VALUE='...'": an assignment, not a value


def _of_a_thing(between: str) -> bool:
    words = [word.strip(_WRAP + _TRAIL) for word in between.lower().split()]
    words = [word for word in words if word]
    return (
        bool(words)
        and len(words) <= _THING_WORDS
        and any(word in _THINGS for word in words)
        and all(word in _THINGS or word in _OF_THE for word in words)
    )


_THING_WORDS = 4


def _ends_clause(text: str, end: int, clause_end: int, trailed: bool) -> bool:
    """The value ends its clause: punctuation after it, the clause's end, a word of another script, or a
    word that says it was given, then the clause's end or a comma."""
    if trailed or end >= clause_end:
        return True
    rest = text[end:clause_end]
    following = _TOKEN.search(rest)
    if following is None:
        return True
    word = following.group()
    if not _LATIN_LETTER.match(word) and not word[0].isdigit():
        return True  # "に再設定済み", "बताया", "verdi" in another script
    bare = word.rstrip(_TRAIL)
    return bare.lower() in _GIVEN and (bare != word or following.end() == len(rest.rstrip()))


CLAUSE_WORDS = index_words(
    "password", "passwort", "passwd", "passphrase", "passcode", "pwd", "kennwort", "wachtwoord", "mdp", "senha",
    "haslo", "heslo", "jelszo", "sifre", "parola", "lozinka", "geslo", "salasana", "passord", "adgangskode",
    "kata sandi", "kata laluan", "contrasena", "clave", "kontrasenya", "nenosiri", "kodeord", "nywila", "kontrase",
    "contrasenya",
)  # fmt: skip
_OTHER_MARKS = ("mot de passe", "contraseña", "palavra", "hasł", "jelsz", "şifre", "parolă", "lösenord", "mật khẩu",
                *(label[:4] for label in _OTHER_LABELS))  # fmt: skip


_OTHER_WORDS = index_words(*_OTHER_MARKS)  # found with the gates' words too (a search each cost more)


_PW = lazy_compile(r"(?<![^\W\d_])pw(?![^\W\d_])")


def turned_password(text: str, lower: str, low: int, after: int, high: int) -> tuple[int, int] | None:
    """The password a line says is written backwards, its label anywhere in the line ("ops vault pw, written
    backwards so grep won't find it: KO*0791noclaF", "Type it backwards: 77sutcaC$retniW (that's the new local
    admin password)": reviewers CR and CT): the first word after the reversal's word, in ``text[after:high]``,
    shaped as only a password is (a password's shape does not change when it is turned around); the label and no
    word that describes passwords in ``text[low:high]``, the reversal's reach on its line."""
    named = _LABEL.search(lower, low, high) is not None or _PW.search(lower, low, high) is not None
    if not named or _DESCRIBES.search(lower, low, high) is not None or lower.startswith("-", after):
        return None  # (nor "backwards-compatible")
    # the value right after a colon that follows the reversal's word ("written backwards so grep won't find it: ...")
    colon = _TURNED_COLON.match(lower, after, high)
    if colon is None:
        return None
    token = _TOKEN.match(text, colon.end(), high)
    if token is None:
        return None
    raw = token.group()
    value = raw.lstrip(_WRAP)
    bare = value.rstrip(_TRAIL)
    if (
        not bare.isascii()
        or not _strong(bare)
        or _ASSIGNED.match(bare)
        or _STANDARD.search(bare)  # "Backwards ... hashing: bcrypt$2b$12"
        or _HOST.fullmatch(bare)  # "Reverse DNS for the password portal: auth-01.corp.local"
    ):
        return None
    at = token.start() + len(raw) - len(value)
    return at, at + len(bare)


_TURNED_COLON = lazy_compile(r"[^:\n]{0,48}?:[ \t]*")
_HOST = lazy_compile(r"[\w\-]+(?:\.[A-Za-z][\w\-]*)+")


def may_hold_clause_password(scan: Scan) -> bool:
    words = scan.words
    return not CLAUSE_WORDS.isdisjoint(words) or not _OTHER_WORDS.isdisjoint(words)


def find_clause_passwords(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    done = 0
    for label in _LABEL.finditer(lower):
        start = label.end()
        # A label of prose: a blank after it ("DB_PASSWORD=...", "password: ..." are the keyword finder's), or
        # a particle of its script ("パスワードを ..."); not a key's part ("reason=bad_password attempts=4").
        particle = _PARTICLE.match(lower, start)
        if (
            start < done
            or not (lower.startswith((" ", "\t"), start) or particle is not None)
            or (label.start() and lower[label.start() - 1] in "_=")
        ):
            continue
        head = _TOKEN.search(lower, start)
        if head is not None and head.group().strip(_TRAIL) in COMPOUND_HEADS:
            continue  # "password manager is 1Password8": the label heads a compound noun
        stop = _CLAUSE_STOP.search(lower, start, min(len(lower), start + _REACH))
        clause_end = stop.start() if stop is not None else min(len(lower), start + _REACH)
        if stop is not None and stop.group() == "?":
            continue  # a question about a password, not one
        previous = verb = ""
        copula_before = False
        for token in _TOKEN.finditer(text, particle.end() if particle is not None else start, clause_end):
            raw = token.group()
            if raw in _OPENERS and not previous:
                # a quote opened apart right after the label: the value it holds comes next ("son mot de passe
                # « Soleil#1980 » par téléphone": reviewer BI)
                previous = raw
                continue
            value = raw.lstrip(_WRAP)
            at = token.start() + len(raw) - len(value)
            bare = value.rstrip(_TRAIL)
            if bare.isascii() and _strong(bare) and not _ASSIGNED.match(bare) and "`" not in raw:
                end = at + len(bare)
                while end < len(text) and text[end] == "!":
                    end += 1  # the clause's stop read it apart ("Emre.1984! verdi")
                if value != raw and text.startswith("?", end) and text.startswith(_CLOSES.get(raw[0], "\0"), end + 1):
                    end += 1  # inside brackets or quotes a "?" is the value's ("(Bluebonnet4414?)": reviewer BF)
                symbol = any(char in PASSWORD_SYMBOLS for char in text[at:end])
                introduced = (
                    (previous in _COPULAS and not copula_before)
                    or (
                        not copula_before
                        and _STANDARD.search(bare) is None
                        and (
                            (previous == "este" and label.group() in _ROMANIAN_LABELS)
                            # glued to the word before it, as Thai writes ("...ใหม่คือ"), not apart ("รหัสผ่าน คือ ...")
                            or (previous.endswith(_THAI_IS) and previous != _THAI_IS and symbol)
                            or (
                                previous == _BECAME
                                and _RULE_OF.search(lower, max(0, label.start() - 16), label.start()) is None
                            )
                        )
                    )
                    or (previous in _NOW and verb in _COPULAS)
                    or (previous in _PREPOSITIONS and (symbol or verb in SET_BY.get(previous, ())))
                    or (previous in _QUALIFIES and symbol)
                    or (previous in _OPENERS and symbol and text.startswith(_CLOSES[previous], skip_blanks(text, end)))
                    # told to someone, the value in brackets or quotes ("She read her benefits-portal password to
                    # me (Bluebonnet4414?)": reviewer BF)
                    or (
                        previous in _WHOM
                        and verb == "to"
                        and value != raw
                        # the password itself told ("password to me"), not its reset link or its change
                        and lower.startswith(" to ", label.end())
                        and _NOT_GIVEN.search(lower, max(0, label.start() - 24), label.start()) is None
                        and ACRONYM_NAMED.match(bare) is None
                    )
                    or (not previous and particle is not None and _SET_TO_AFTER.match(text, end) is not None)
                    # what the password is of, then the value with a password's own symbol ("nuova password Wi-Fi
                    # u*_@4CBO=^5l.", "clave del módem iAE1=g50?I", "와이파이 비밀번호 gbHT+2=v~J": reviewer BA)
                    or (symbol and _of_a_thing(lower[start:at]))
                )
                if (
                    introduced
                    and _DESCRIBES.search(lower, start, at) is None
                    and _ends_clause(text, end, clause_end, trailed=len(bare) < len(value))
                ):
                    yield "PASSWORD", at, end
                    done = end
                break  # the first word shaped as a password is the clause's value, or there is none
            # A copula before the one that leads to the value makes it a description ("Mật khẩu là tên công ty
            # viết liền, là CongTy2024": the company's name written as one word, an attacker's round).
            copula_before = copula_before or previous in _COPULAS
            verb, previous = previous, raw.strip(_WRAP + _TRAIL).lower()
