"""An account's password written in a service's own syntax, with no label that says "password".

From reviewer Q's blind round:
- an admin account and its password as "user / password" ("Grafana admin fallback: admin /
  BNXNs4BZ7fv8D29z", "statuspage-admin / <b>nHNELqNbveoC3K%01</b>");
- Redis's AUTH command as MONITOR prints it ('"AUTH" "SfoQbSzRr5zYdpapMOTdv01RoOFwIXfb"') or as typed
  at its prompt ("127.0.0.1:6379> AUTH ...");
- HAProxy's "stats auth admin:undo-monkey-disagree-add4".
The value must still look like a password (letters with a digit and both cases, or a password's own
symbol): "admin / settings" is a menu's path.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from securemem.pii.answers import PASSWORD_SYMBOLS as _SYMBOLS
from securemem.pii.normalize import as_viewed, viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import COUNTED, YEAR, LineStarts, Scan, index_words, year_or_example

Hit = tuple[str, int, int]

# An admin account's name, a slash with a blank on either side (a path has none), the password maybe
# in markup's emphasis.
_ADMIN_PAIR = lazy_compile(
    r"(?<![\w/.\-])(?:admin|root|administrator|superuser|sa|postgres|[a-z0-9._\-]{1,32}-admin|admin-[a-z0-9._\-]{1,32})"
    r"[ \t]+/[ \t]+(?:<b>|<strong>|\*\*|`)?(?P<value>[^\s<>/*`'\"]{8,64})"
)
# Redis 6 takes a user first ("AUTH default <password>"): the password is the last argument.
_REDIS_AUTH = lazy_compile(
    r"\"auth\"[ \t]+(?:\"[^\"\s]{1,64}\"[ \t]+)?\"(?P<quoted>[^\"\s]{6,128})\"[ \t]*\r?$"
    r"|(?:^|>[ \t]*)auth[ \t]+(?:[^\s\"]{1,64}[ \t]+)?(?P<bare>[^\s\"]{6,128})[ \t]*\r?$",
    re.M,
)
_STATS_AUTH = lazy_compile(r"(?<![\w-])stats[ \t]+auth[ \t]+[^\s:]{1,64}[ \t]?:(?P<value>\S{4,128})")
# A network device's shared secrets in its configuration (Cisco IOS and its kin): an SNMP community, a TACACS+
# or RADIUS server's key, maybe after its host and an encryption type ("snmp-server community hUR5SuEzi#YR RO",
# "tacacs-server host 10.40.0.5 key fwt%Pf~k#9iWEoaD": reviewer BA). "public" and "private" are the defaults.
_DEVICE_KEY = lazy_compile(
    r"(?<![\w-])(?:snmp-server[ \t]+community|(?:tacacs|radius)-server[ \t]+(?:host[ \t]+\S+[ \t]+)?key(?:[ \t]+[07])?)"
    r"[ \t]+(?P<value>\S{4,128})"
)
_DEVICE_DEFAULTS = frozenset({"public", "private"})
# An account's email address and its password after a slash ("TurboTax login sabine1989@proton.me /
# Chai.1267#", "Spotify: lukas@yandex.ru / lamp-copper-otter17": reviewer R).
# A blank on each side of the slash: "user:pw@host/db?retryWrites=true" is a URL.
_EMAIL_PAIR = lazy_compile(
    r"[\w.+\-]{1,64}@[\w\-]{1,63}(?:\.[\w\-]{1,63}){1,8}[ \t]+/[ \t]+(?P<value>[^\s/<>\"'`]{6,64})"
)
# An account's address, then its password alone at the line's end after two blanks or more ("HBO (mom's
# acc) t.moreira@libero.it  Ozzy_599#": reviewer R).
_EMAIL_THEN = lazy_compile(
    r"[\w.+\-]{1,64}@[\w\-]{1,63}(?:\.[\w\-]{1,63}){1,8}[ \t]{2,}(?P<value>[^\s\"'`]{8,64})[ \t]*\r?$", re.M
)
# A Wi-Fi network's key after its label ("Nest Wi-Fi: P@nda@1500*").
# The key ends its line, or a sentence in a script without Latin letters goes on after it ("รหัส WiFi:
# PhuketPalm88! หากมีปัญหา...": reviewer X).
# (a compound's last part too: "Gäste-WLAN:", Finnish "Vieras-WLAN:", the guests' network: reviewer CW)
_WIFI = lazy_compile(
    r"(?:(?<![\w-])|(?<=[^\W\d_]-))(?:wi-?fi|wlan)(?:[ \t]+(?:key|pw|pass))?[ \t]*:[ \t]*(?P<value>[^\s\"'`]{6,64})"
    r"(?:[ \t]*\r?$|[ \t]+(?=[\u0370-\u03ff\u0400-\u04ff\u0590-\u06ff\u0e00-\u0e7f\u3040-\u9fff\uac00-\ud7af]))",
    re.M,
)
# A Wi-Fi network's name and key as a pair, after the label ("wifi is PineCabin / s'mores-by-the-fire",
# "wifi : SFR_7C10 / clef : Oberkampf!Coloc75": reviewer W). The key is what a key looks like: a symbol,
# or digits with letters of both cases, or words joined by hyphens; not a version or a standard
# ("Wi-Fi 7 / 802.11be", "WiFi 6E / Bluetooth 5.3").
_WIFI_PAIR = lazy_compile(
    r"(?<![\w-])(?:wi-?fi|wlan)(?:[ \t]+(?:is|name|network|ssid))?[ \t]*+(?::[ \t]*+)?"
    r"(?P<ssid>['\"]?[^\s/'\"]{1,32}['\"]?)[ \t]+/[ \t]+"
    r"(?:(?:clef|clé|cle|key|pw|pass(?:word)?|senha|contraseña|mot de passe|passwort|kennwort)[ \t]*:[ \t]*)?"
    r"(?P<value>[^\s\"`]{6,64})"
)
# A Wi-Fi network's quoted name, then its key after "key", "pass" or "password" ("Wi-Fi 'Xfinity61' pass
# ember-tiger-tiger-cactus", 'POS Wi-Fi SSID "Cafe_POS" key EhDKEYfz8q': reviewers CF and CG); or the key after "the
# Wi-Fi's password" said with the network named by its kind ("nenosiri la Wi-Fi Granite-sokol3734": Swahili's "the
# Wi-Fi's password", reviewer CF). The key is what a key looks like (_strong, a passphrase, hyphened words).
_WIFI_NAMED = lazy_compile(
    r"(?<![\w-])(?:wi-?fi|wlan)(?:[ \t]++(?:ssid|network|name))?[ \t]*+:?[ \t]*+"
    r"(?P<ssid>['\"“‘][^'\"”’\n]{1,32}['\"”’])[ \t]*+,?"
    r"[ \t]*+(?:key|pass(?:word|phrase)?|pw|psk|clave|senha|mot de passe|passwort)[ \t]*+(?:is[ \t]|[:=])?[ \t]*+"
    r"(?P<value>[^\s\"'`,;]{6,64})"
    # (Swahili only: "the password for the wifi Starbucks-Reserve" names the network in English and Romance languages,
    # "contraseña del wifi Movistar_A3F2": an attacker's round)
    r"|(?<![\w-])nenosiri[ \t]++(?:(?:la|ya)[ \t]++)?(?:wi-?fi|wlan)[ \t]++(?P<key>[^\s\"'`,;:?]{6,64})(?![^\s.,;])"
)
# Words of a sentence, not of a passphrase ("printed-on-the-router", "see-front-desk-card": an attacker's round)
_PROSE_PARTS = frozenset(
    {"the", "a", "an", "on", "in", "at", "to", "of", "for", "as", "your", "my", "our", "see", "ask", "same", "printed",
     "check", "front", "desk", "card", "router", "sticker", "back", "below", "above", "fridge", "wall", "label", "box"}
)  # fmt: skip
_TRAILING_PUNCTUATION = ".,;?)'\""
_STANDARD = lazy_compile(r"[0-9.]+[a-z]{0,3}|[a-z]{0,3}[0-9.]+", re.I)
_HYPHENED_WORDS = lazy_compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?(?:-[^\W\d_]+){3,}")


# A router's specification after "WLAN:" or "Wi-Fi:", not its key ("2,4GHz+5GHz", "Wi-Fi6E", "2x2MIMO",
# "WPA3-Personal", "802.11ax": an attacker's round).
_WIFI_SPEC = lazy_compile(
    r"ghz|mhz|mimo|wpa[23]?-|wi-?fi ?[4567]|802\.11|dual-?band|tri-?band|mbit|mbps|gbps|[0-9]x[0-9]"
)


# A Wi-Fi network's QR payload ("WIFI:T:WPA;S:Praxis-Gast;P:0PE4\\:dF$YlK!5kD;;": ZXing's format, ";", ":" and "\\"
# escaped by a backslash): its key is the P field, whatever it holds but a mask or a placeholder; the other fields
# (the network's name, its security) stay (reviewer BW).
# (its last field may end the line without its ";": "WIFI:T:WPA;S:HomeNet;P:Cz7FWNln95m1", an attacker's round)
_WIFI_QR = lazy_compile(r"(?i:wifi):(?P<fields>(?:[A-Za-z]{1,2}:(?:\\.|[^;\\\n]){0,128}(?:;|(?=\r?\n)|\Z)){1,8})")
_WIFI_FIELD = lazy_compile(r"(?P<name>[A-Za-z]{1,2}):(?P<value>(?:\\.|[^;\\\n]){0,128})(?:;|(?=\r?\n)|\Z)")
# A mask, a placeholder or a template's field as the key (a payload's documentation, code that builds one: "P:{psk}",
# "P:$password", "P:%s", "P:[REDACTED]": an attacker's round), and a key with no password's shape ("P:mypass").
_MASKED = lazy_compile(
    r"[*•x.\-]+|<[^<>]*>|\$\{[^{}]*\}|\{[^{}]*\}|\{\{.*\}\}|\$[A-Za-z_]\w*|%[A-Za-z_]*%?|\[[^\[\]]*\]|\([^()]*\)",
    re.IGNORECASE,
)


def _wifi_payloads(text: str) -> Iterator[tuple[int, int, Hit | None]]:
    """Each payload's span, and its key (None: a masked one)."""
    for payload in _WIFI_QR.finditer(text):
        key: Hit | None = None
        named = False  # a payload names its network ("S:"): "Status wifi:P: degraded; S: ok" is a status line
        for field in _WIFI_FIELD.finditer(text, payload.start("fields"), payload.end("fields")):
            name, value = field["name"].upper(), field["value"]
            named = named or (name == "S" and bool(value.strip()))
            if (
                name == "P"
                and value
                and not _MASKED.fullmatch(value)
                and (_strong(value) or _PASSPHRASE.fullmatch(value))
            ):
                key = ("PASSWORD", *field.span("value"))
        yield payload.start(), payload.end(), key if named else None


# A router's own Wi-Fi key as its sticker prints it, after the key's name: twenty digits in groups of four (a
# FRITZ!Box's "Netzwerkschlüssel 4719 2281 0937 4416 2290"), or thirteen or twenty-six hex digits (a WEP or an
# Aterm's key, "暗号化キー 4a1c9e27f3b8d": reviewer CW)
_STICKER_KEY = lazy_compile(
    r"(?:netzwerkschlüssel|wlan-schlüssel|wlan-key|wlan key|wpa2?[ \-]key|wi-?fi key|network key|clé wpa2?|clé wi-?fi|"
    r"暗号化キー|暗号キー|パスフレーズ)[ \t]*+[:=：]?[ \t]*+"
    r"(?P<value>[0-9]{4}(?:[ \-][0-9]{4}){3,4}|[0-9]{16,20}"
    r"|(?=[a-f]*[0-9])(?=[0-9]*[a-f])(?:[0-9a-f]{26}|[0-9a-f]{13}))"
    r"(?![0-9a-z])"
)


def _sticker_keys(lower: str) -> Iterator[Hit]:
    for sticker in _STICKER_KEY.finditer(lower):
        value = sticker["value"]
        groups = re.split("[ -]", value)
        line = lower[lower.rfind("\n", 0, sticker.start()) + 1 : sticker.start()]
        # not a plan's years, a placeholder's repeated or counted digits, round numbers, nor an example's
        # ("0000 0000 ...", "1234 5678 9012 ...", "1000 2000 3000 ...", "Beispiel: Netzwerkschlüssel ...": attackers)
        if (
            all(YEAR.fullmatch(group) or len(set(group)) == 1 for group in groups)
            or len(_COUNTED_FOUR.findall(value)) >= 2
            or all(group.endswith("00") for group in groups)
            or _STICKER_EXAMPLE.search(line) is not None
        ):
            continue
        yield "PASSWORD", *sticker.span("value")


_COUNTED_FOUR = lazy_compile(r"0123|1234|2345|3456|4567|5678|6789|7890")
_STICKER_EXAMPLE = lazy_compile(
    r"(?<![^\W\d_])(?:example|beispiel|exemple|ejemplo|esempio|sample|muster|z\.b\.|e\.g\.)"
)


# (read where the text says no "wifi" or "WLAN" too: "FRITZ!Box 7590 KQ, Netzwerkschlüssel 4719 ...", an attacker of the
# README's promises)
_STICKER_WORDS = index_words(
    "netzwerkschlüssel", "wlan-schlüssel", "wlan-key", "wlan key", "wpa key", "wpa2 key", "wpa-key", "wpa2-key",
    "wifi key", "wi-fi key", "network key", "clé wpa", "clé wi", "暗号化キー", "暗号キー", "パスフレーズ",
)  # fmt: skip


def _wifi_and_sticker_keys(text: str, lower: str, words: dict[str, list[int]]) -> Iterator[Hit]:
    if not _WIFI_WORDS.isdisjoint(words):
        yield from _wifi_keys(text, lower)
    if not _STICKER_WORDS.isdisjoint(words):
        yield from _sticker_keys(lower)


def _wifi_keys(text: str, lower: str) -> Iterator[Hit]:
    if " / " in lower:
        yield from _wifi_pairs(text, lower)
    for named in _WIFI_NAMED.finditer(lower):
        group = "value" if named["value"] is not None else "key"
        start, end = named.span(group)
        while end > start and text[end - 1] in _TRAILING_PUNCTUATION:
            end -= 1
        value = text[start:end]
        words = set(value.lower().replace("_", "-").split("-"))
        if (_strong(value) or _PASSPHRASE.fullmatch(value) or _HYPHENED_WORDS.fullmatch(value)) and not (
            _WIFI_SPEC.search(value.lower()) or words & _PROSE_PARTS
        ):
            yield "PASSWORD", start, end
    payloads: set[int] = set()
    if "wifi:" in lower:
        for start, _, key in _wifi_payloads(text):
            payloads.add(start)
            if key is not None:
                yield key
    for match in _WIFI.finditer(lower):
        if match.start() in payloads:
            continue  # a payload's fields, read above
        value = text[match.start("value") : match.end("value")]
        if (_strong(value) or _PASSPHRASE.fullmatch(value)) and not _WIFI_SPEC.search(value.lower()):
            yield "PASSWORD", *match.span("value")


def _wifi_pairs(text: str, lower: str) -> Iterator[Hit]:
    for match in _WIFI_PAIR.finditer(lower):
        start, end = match.span("value")
        while end > start and text[end - 1] in _TRAILING_PUNCTUATION:
            end -= 1  # the sentence's, not the key's ("!" may be either: it stays)
        value = text[start:end]
        if len(value) < 6 or _STANDARD.fullmatch(value):
            continue
        # A password's own symbol, a passphrase in lower case ("seagull-morning-77"), or words joined with an
        # apostrophe among them ("s'mores-by-the-fire"); not a product's or a setting's name, which mixes
        # case and digits ("WPA2-Enterprise", "Deco-X50-Outdoor", "Meeting-Rooms-Floor-3": an attacker's round).
        if (
            any(char in _SYMBOLS for char in value)
            or (value.islower() and _PASSPHRASE.fullmatch(value))
            or (_HYPHENED_WORDS.fullmatch(value) and "'" in value and not text[slice(*match.span("ssid"))].islower())
        ):
            yield "PASSWORD", start, end


# A PIN in other scripts: Russian's and Ukrainian's (capitals the view reads apart: "ПИН" as "пиh"), Hindi's,
# Bengali's, Arabic's "secret number" (of a card), and after "ATM" the Tamil and Urdu words that are other words
# too ("பின்" is "after"): "ПИН-код 4237", "পিন নম্বর: 34810", "ATM பின் 0942", "اے ٹی ایم پن 9186", "بالرقم
# السري للبطاقة خطأً: 7971" (reviewer BF). A word may follow the label (its "code", "number").
# Swahili's "secret number", an M-Pesa PIN ("alisema namba ya siri yake ni 3996": reviewer CV), in ASCII: the gates
# look for it among the scan's words
_SECRET_NUMBER = "namba ya siri"  # noqa: S105
_PIN_OTHER = "|".join(
    re.escape(word)
    for word in sorted(
        {
            *viewed_words("пин", "пін", "ПИН", "ПІН", "ТПИН", "पिन", "পিন", "الرقم السري", "بالرقم السري"),
            *viewed_words("الرمز السري", "رقمي السري", "رمزي السري", "رمز دوم", "والرقم السري", "ፒን"),
            _SECRET_NUMBER,
            *(
                f"{atm} {pin}"
                for atm in viewed_words("atm", "ஏடிஎம்", "اے ٹی ایم", "اے ٹی ایم کا", "اے ٹی ایم کی")
                for pin in viewed_words("பின்", "پن")
            ),
        },
        key=len,
        reverse=True,
    )
)
# A PIN or a door's, gate's or alarm's code: digits, maybe ending in "#" or "*" ("UPI PIN 543410", "PIN do
# karty mBank: 0674", "hardware wallet PIN 14332948", "Ring alarm code 0092#", "codice cancello:
# 8575*", "the door code for the lockbox is 1668#": reviewer R). A few words may come between.
_CODE_END = r"(?![\w\-/:]|\.\w|,[0-9])"  # a full stop may end the sentence
# Or read out digit by digit ("door code: 3-7-1-9", "alarm code 4 4 2 1": an attacker's round).
_SPACED = r"[0-9](?:[ \-][0-9]){3,7}(?![ \-][0-9])"  # all of the run ("keypad 1 2 3 4 5 6 7 8 9 0" is none)
# The words between hold no bracket and no mask ("PIN: [PASSWORD ****6091]" is a scrubbed one). A
# name's last part may be "-PIN" ("Online-Banking-PIN 38049": reviewer T).
# What an aside says to keep a PIN to oneself, in the languages read.
_KEEP_IT = (
    "nicht weitergeben|geheim|vertraulich|nicht teilen|do not share|don't share|never share|keep (?:it )?secret|"
    "confidential|secret|private|ne pas (?:partager|divulguer|communiquer)|confidentiel|no compartir|confidencial|"
    "não compartilhar|nao compartilhar|non condividere|riservato|niet delen|geheim houden|nie udostępniać|poufne"
)
_PIN = lazy_compile(
    # a mobile banking app's and a phone banking line's PIN ("MPIN: 5274", "TPIN 4417": reviewer BF), or a PIN in
    # the words of other scripts as the view writes them (_PIN_OTHER)
    # (no Indic letter or mark may follow the word of another script: "সেফটি পিনের দাম", a safety pin's price)
    rf"(?:(?:(?<!\w)[mt]p|p(?<![\w]p)(?<![0-9]-p))in\b"
    rf"|(?<![^\W\d_])(?P<other>{_PIN_OTHER})(?![^\W\d_]|[\u0900-\u0dff\u0600-\u06ff]))"
    rf"(?:[^\n0-9\[*•]{{0,24}}?"
    # a longer clause, led by what the PIN is of and read up to a verb or a colon ("PIN der beA-Karte des
    # Kollegen lautet 582913": reviewer AX); its value must end the clause and be no year (_long_pin)
    # (an aside in brackets that says to keep it may end it: "PIN der Girocard (nicht weitergeben!): 7042",
    # reviewer BJ; not one that names another number, "PIN of the ATM (terminal ID): 40871235": an attacker's round)
    r"|(?P<long>[ \t]+(?:of|for|to|der|des|für|zur|zum|de|du|della|del|dla|för|van)[ \t][^\n0-9\[*•,;()]{8,48}?"
    rf"(?:[ \t]*\((?:{_KEEP_IT})!?\)[ \t]*)?(?:[ \t](?:is|ist|lautet|est|es|é|è|är|wynosi|jest)|:))[ \t]*)"
    rf"(?P<value>(?:[0-9]{{4,8}}|{_SPACED})[#*]?){_CODE_END}"
)
_LOCKS = (
    "door|gate|alarm|garage|lockbox|safe|keypad|key|entry|building|buzzer|intercom|lock|alarmanlage|tür|haustür|"
    "tiefgarage|porte|portail|puerta|portón|portão|porta|portal|portone|cancello|alarme|alarma|kapı|kapi|domofon|"
    "antifurto|"  # a car radio's anti-theft code ("Codice antifurto autoradio: 2716": reviewer Z)
    "domofonu|telefonillo|도어락|현관|"
    # a ward's drug cupboard or medication room, a warehouse's store, a gate or a door in Czech and Polish, an alarm in
    # Hungarian ("Läkemedelsrummets kod är 4719", "Code medicijnkar is ... 2207", "Kód k brance 0815", "Clave del
    # almacén: 7712", "riasztó élesítő kód 7314": reviewer CW)
    "drug cupboard|cd cupboard|medication room|med room|medicine cabinet|medicijnkar|medicijnkast|medicijnkamer|"
    "riasztó|riaszto"
)
# ... and the stems of words a lock's is the first part of, or declined ("läkemedelsrummets", "furtki"); Czech's gate
# as "k brance" declines it (not "branka" alone, a goal in sport, nor Polish "bramka", a payment's gateway too)
_LOCK_STEMS = "läkemedelsrum|brance|branku"
_LOCK = rf"(?:{_LOCKS}|(?:{_LOCK_STEMS})[^\W\d_]*)"
# Portuguese "senha do portão", Turkish "kapı şifresi" (a door's password) name a lock's code too.
# ("clave" too, with a lock's word: "La clave del portón es 2853"; not a warehouse's, "clave de almacén" is its number
# in an ERP: an attacker's round)
_CODE_WORDS = "code|codice|código|codigo|kod|kodu|kód|senha|şifresi|sifresi|비번|비밀번호|clave"
# "code de la porte", "código do portão", "Code für die Tiefgarage"
_OF = "de la|de l'|della|de|del|da|do|du|des|für die|für den|für das|k|ke|od|na"
# A box or a padlock that holds keys opens with its code alone ("the key safe by the back door is 0 4 1
# 9", "caja de llaves código 0916", "cadenas 0 5 8 2": reviewer W).
_KEY_BOXES = (
    "keybox|key box|key safe|keysafe|key lockbox|lockbox|lock box|padlock|combination lock|schlüsselbox|"
    "schlüsseltresor|cadenas|boîte à clés|boite à clés|caja de llaves|caixa de chaves|cajetín|cajetin|"
    "in-room safe|room safe|hotel safe|combo lock|sleutelkluis|schlüsselsafe|cassetta portachiavi|sejf na klucze|"
    "anahtar kutusu"
)
# A French digicode's keypad has letters ("digicode 47B29"), a door's code may end in one ("2468B").
_KEYPAD = r"(?=[0-9a-d]{4,8}(?![\w]))[0-9]{1,6}[a-d][0-9]{1,5}"  # inside: "5400D" is a model
# ... before its digits, after a blank or a colon (a word's last letter is no keypad's: "code de la porte d'entrée est
# ..."); not after them, where a model's, a firmware's, a section's or a house's letter is ("keypad firmware 1205a",
# "building code 101A", "221B Baker Street": an attacker's round)
_LETTERED = r"(?<=[ \t:])[a-d][0-9]{3,6}(?![0-9])"
# ... or a keypad's "*" or "#" inside it, not after a year ("door code since 2019#3", "policy changed in 2024#12": an
# attacker's round)
_STARRED = r"(?<!#)(?!(?:19|20)[0-9]{2}[*#])[0-9]{3,8}[*#][0-9]{1,4}(?![0-9])"
_ACCESS_CODE = lazy_compile(
    rf"(?:(?<![\w-]){_LOCK}\b[^\n0-9]{{0,24}}?\b(?:{_CODE_WORDS}|pin)"
    rf"|(?<![\w-])(?:{_CODE_WORDS})[ \t]{{1,8}}(?:(?:{_OF})[ \t]{{1,8}})?(?:{_LOCK}|accès|acceso|acesso)"
    rf"|支付密码|支付密碼"  # Alipay's and WeChat Pay's six digits
    # a door's code in one word ("Haustürcode 4821", "digicode : 4821", "Zahlencode Nebeneingang Saal B:
    # 2580": reviewer Y), a key box's
    # (and a duress code, which an alarm's owner keys in under threat: "Bedrohungscode 2581", "código de coação
    # 6624", "duress code 3308": reviewer CW)
    rf"|(?<![\w-])(?:haustürcode|türcode|torcode|deurcode|zahlencode|portkod(?:en)?|dörrkod(?:en)?|dørkode(?:n)?|digicode|"
    rf"bedrohungscode|überfallcode|duress code|código de coação|código de coacção|código de coacción|"
    rf"code d'entrée|code d'accès|keypad|{_KEY_BOXES})"
    # a key box's number ("Key is in lockbox #3, code 0622": reviewer AY)
    r"(?:[ \t]*#[ \t]?[0-9]{1,3}(?![0-9]))?)"
    # a keypad's "#" may lead the code too ("gate code is #7305* until Friday": reviewer BB)
    # (a keypad's "*" or "#" inside it too, not after a "#" that numbers a box: "keypad code changed to 2580*7"; or a
    # keypad's letter, A to D, before its digits: "Le code de la porte d'entrée est B4792": reviewer CX)
    rf"(?:\b|(?<=[0-9]))[^\n0-9\[*•#]{{0,24}}?"
    rf"(?P<value>(?:{_STARRED}|#?(?:[0-9]{{3,8}}|{_SPACED}|{_KEYPAD}|{_LETTERED}))[#*]?){_CODE_END}"
)
# A door's, a gate's or an intercom's code named by its own language's phrase (reviewer AY: "Codul de la
# interfon: 2581", "a kapukód 1935, a kulcs a portán", "avainkaapin koodi on 7310", "код домофона, старый
# 3108", "Код від під'їзду: 4417"), the code right after it (a colon, a verb, "old" or "new" between). The
# languages' own words, not "kode" or "koodi" with any lock's word: those name a server's and an API's status
# codes as often ("Lock kode 200 betyder OK", "Alarm på serveren: kode 503": an attacker's round).
_LOCK_PHRASE = lazy_compile(
    r"(?<![\w-])(?:codul de la interfon|codul interfonului|kapukód|kapukod|avainkaapin koodi|"
    + as_viewed(("код домофона", "код подъезда", "код від під'їзду", "код під'їзду"))
    + r")(?:[ \t]*[:=][ \t]*|[ \t]+(?:on|este|є|—|-)[ \t]+|[ \t]*,?[ \t]+(?:"
    + as_viewed(("старый", "новый", "старий", "новий"))
    + r")[ \t]+|[ \t]+)(?P<value>[0-9]{3,8})(?![\w\-/:]|[.,][0-9])"
)
_LOCK_PHRASE_MARKS = ("interfon", "kapuk", "avainkaap", "koд")
_STOP_AFTER = lazy_compile(r"[ \t]*[,.;!?)]")


def _lock_phrase_codes(lower: str) -> Iterator[Hit]:
    if not any(mark in lower for mark in _LOCK_PHRASE_MARKS):
        return
    for match in _LOCK_PHRASE.finditer(lower):
        value = match["value"]
        # A year ("код домофона 2024", "A kapukód cseréje 2025"), a count or a unit after it: a code only
        # before a stop ("a kapukód 1935, a kulcs a portán").
        if (YEAR.fullmatch(value) and _STOP_AFTER.match(lower, match.end()) is None) or COUNTED.match(
            lower, match.end()
        ):
            continue
        yield "PASSWORD", *match.span("value")


# A passphrase of words and a number ("lamp-copper-otter17"), as password managers make them.
_PASSPHRASE = lazy_compile(r"[a-z]{3,10}(?:[-_.][a-z]{3,10}){1,5}[-_.]?[0-9]{1,4}[!#$%&*?]?")
_PLACEHOLDERS = frozenset({"password", "passwd", "secret", "changeme", "default", "basic_auth", "none", "null"})


def may_hold_account_password(scan: Scan) -> bool:
    """What find_account_passwords reads is in the text: its tests, and no more (a gate that most prose
    passed, "wi" of "with", only moved the work). The words are read from the scan's (Scan.words: the
    same answers as _may_name_wifi's and _may_name_code's substring searches, found with the other
    gates' words in one pass)."""
    lower = scan.lower
    return (
        "@" in lower
        or not _ACCOUNT_WORDS.isdisjoint(scan.words)  # " / ", "chpasswd", "app pass"... among them
        or (not lower.isascii() and (_may_name_code_other(lower) or _may_name_pin_other(lower)))
    )


# The words of _may_name_wifi and the ASCII words of _may_name_code, and "auth".
_WIFI_WORDS = index_words("wifi", "wi-fi", "wlan")
_CODE_NAMES = index_words(
    "pin", "cod", "kod", "key box", "keybox", "keypad", "key safe", "keysafe", "room safe", "hotel safe", "lockbox",
    "lock box", "padlock", "combination lock", "combo lock", "cadenas", "llaves", "chaves", "senha", "ifresi", "cajet",
    "kluis", "portachiavi", "sejf", "anahtar kutusu", "koodi", "avainkaap", "nip", "clave",
)  # fmt: skip
# A remote login's words, before a "user:password" pair (_LOGIN_PAIR)
_LOGIN_WORDS = index_words("ssh", "sftp", "rdp", "vnc", "login", "logon", "bastion", "jump host", "jumphost")
_ACCOUNT_WORDS = (
    index_words("auth", "snmp-server", "tacacs-server", "radius-server") | _WIFI_WORDS | _CODE_NAMES | _LOGIN_WORDS
) | index_words(
    " / ", "chpasswd", "app pass", "app-pass", "app-specific", "anwendungspasswort", _SECRET_NUMBER, "homekit",
    "_code", "-code", "_pin",
) | _STICKER_WORDS  # fmt: skip
# A HomeKit accessory's setup code, eight digits as its sticker prints them ("482-19-735"), in a text about HomeKit
# (reviewer CW), within _HOMEKIT_REACH characters after its name
_HOMEKIT_CODE = lazy_compile(r"(?<![0-9\-])[0-9]{3}-[0-9]{2}-[0-9]{3}(?![0-9\-])")
_HOMEKIT_REACH = 400
# ... named as a code ("setup codes", "pairing code"), no other number's word between ("build 123-45-678")
_HOMEKIT_OTHER = lazy_compile(
    r"(?<![^\W\d_])(?:build|version|model|serial|part|order|ticket|invoice|sku|firmware|category|article|kb|avoid|"
    r"must not be|cannot be|invalid|rejects?|tracking|parcel)(?![^\W\d_])"
)
# ("code" a word of its own: "barcode", "zipcode" name none, an attacker of the README's promises)
_HOMEKIT_CODE_WORD = lazy_compile(r"(?<![^\W\d_])(?:codes?|pairing)(?![^\W\d_])")
_HOMEKIT_REFUSED = frozenset({"123-45-678", "876-54-321"})  # Apple's own list of codes no accessory may use


def _homekit_and_keyed_codes(scan: Scan, lower: str) -> Iterator[Hit]:
    words = scan.words
    if "homekit" in words:
        places = scan.places("homekit")
        for code in _HOMEKIT_CODE.finditer(lower, places[0]):
            at = places[bisect_right(places, code.start()) - 1]  # the name nearest before it
            if code.start() - at > _HOMEKIT_REACH:
                continue
            between = lower[at : code.start()]
            named = max((word.end() for word in _HOMEKIT_CODE_WORD.finditer(between)), default=-1)
            if (
                named != -1
                and _HOMEKIT_OTHER.search(between) is None
                and not any(stop in between[named:] for stop in ".;")
                and len(set(code.group().replace("-", ""))) > 2  # Apple refuses "111-11-111", "123-45-678"
                and code.group() not in _HOMEKIT_REFUSED
            ):
                yield "PASSWORD", *code.span()
    if "_code" in words or "-code" in words or "_pin" in words:
        for keyed in _KEYED_LOCK_CODE.finditer(lower):
            if not year_or_example(keyed["value"]) and not (keyed["kq"] and not keyed["vq"]):
                yield "PASSWORD", *keyed.span("value")


# A lock's code under a key of code or a file of settings ("alarm_code: '1408'", "gate-pin = 5512": reviewer CW)
_KEYED_LOCK_CODE = lazy_compile(
    r"(?<![\w\-])(?P<kq>[\"']?)(?:alarm|door|gate|garage|garage_door|lockbox|keybox|keypad|safe|intercom|front_door|"
    r"back_door)[_\-]"
    # (nothing after it on its line: a comment says what else the number is, "door_code: 1012  # dock door id in
    # the WMS", an attacker's round)
    # (a key quoted, as JSON quotes it, with its value quoted: a telemetry record's bare "alarm_code": 2145 is an
    # event's; the record's brace may follow: an attacker of the README's promises)
    r"(?:code|pin|passcode)(?P=kq)[ \t]*[:=][ \t]*(?P<vq>[\"']?)(?P<value>[0-9]{4,8})(?P=vq)[ \t]*(?:[,}]|\r?$)",
    re.M,
)


def _may_name_wifi(lower: str) -> bool:
    return "wifi" in lower or "wi-fi" in lower or "wlan" in lower


def _may_name_code(lower: str) -> bool:
    # Words that share a part are tested by that part first ("key", "safe", "lock", "aves"): text
    # without it holds none of them, and most text stops at one substring search for each group.
    # Words with a letter that is not ASCII are looked for in text that has one (isascii() costs nothing).
    return (
        "pin" in lower
        or "cod" in lower
        or "kod" in lower
        or ("key" in lower and ("key box" in lower or "keybox" in lower or "keypad" in lower))
        or (
            "safe" in lower
            and ("key safe" in lower or "keysafe" in lower or "room safe" in lower or "hotel safe" in lower)
        )
        or (
            "lock" in lower
            and (
                "lockbox" in lower
                or "lock box" in lower
                or "padlock" in lower
                or "combination lock" in lower
                or "combo lock" in lower
            )
        )
        or "cadenas" in lower
        or ("aves" in lower and ("llaves" in lower or "chaves" in lower))
        or "senha" in lower
        or "ifresi" in lower
        or "cajet" in lower
        or "kluis" in lower
        or "portachiavi" in lower
        or "sejf" in lower
        or "anahtar kutusu" in lower
        or "koodi" in lower  # Finnish's key cabinet's code (_LOCK_PHRASE)
        or "avainkaap" in lower
        or (not lower.isascii() and _may_name_code_other(lower))
    )


_PIN_OTHER_MARKS = viewed_words("пин", "пін", "ПИН", "ПІН", "पिन", "পিন", "السري", "பின்", "پن", "رمز دوم", "ፒን")


def _may_name_pin_other(lower: str) -> bool:
    return any(mark in lower for mark in _PIN_OTHER_MARKS)


def _may_name_code_other(lower: str) -> bool:
    """_may_name_code's words with a letter that is not ASCII."""
    return (
        "kód" in lower
        or "cód" in lower
        or "schlüssel" in lower
        or "clés" in lower
        or "비번" in lower
        or "비밀번호" in lower
        or "密" in lower
        or "koд" in lower  # Russian's and Ukrainian's "код" as the view writes it (_LOCK_PHRASE)
    )


def find_account_passwords(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    words = scan.words  # the words of _may_name_wifi and _may_name_code, "pin" and "auth" among them
    if " / " in lower:
        yield from _admin_pairs(text, lower)
    if "@" in lower:
        yield from _email_pairs(text, lower)
    yield from _wifi_and_sticker_keys(text, lower, words)
    yield from _french_pins(lower, words)
    if "pin" in words or _SECRET_NUMBER in words or (not lower.isascii() and _may_name_pin_other(lower)):
        yield from (("PASSWORD", *span) for span in _pins(text, lower))
    if not _CODE_NAMES.isdisjoint(words) or (not lower.isascii() and _may_name_code_other(lower)):
        for match in _access_codes(lower, scan):
            box = _box_label(lower, match)
            if (
                _year_not_code(lower, match)
                or NOT_A_LOCK_CODE.search(lower, max(0, match.start() - 24), match.start("value"))
                or _CARRIES.match(lower, match.start())
            ):
                continue
            if (box is None and _read_out(text, lower, match, "PIN" if "pin" in match.group() else "")) or (
                box and COUNTED.match(lower, match.end()) is None
            ):
                yield "PASSWORD", *match.span("value")
    yield from _lock_phrase_codes(lower)
    yield from _homekit_and_keyed_codes(scan, lower)
    yield from _login_pairs(text, lower, words)
    yield from _chpasswd_lists(text, lower)
    if "auth" in words or "-server" in lower:
        yield from _auth_commands(text, lower)
    if "app pass" in lower or "app-pass" in lower or "app-specific" in lower or "anwendungspasswort" in lower:
        for match in _APP_PASSWORD.finditer(lower):
            letters = match["value"].replace(" ", "").replace("-", "")
            if letters not in _ALPHABET and len(set(letters)) > 4:  # "abcd efgh ijkl mnop", "xxxx xxxx ...": examples
                yield "PASSWORD", *match.span("value")


def _kept_pin(text: str, lower: str, match: re.Match[str]) -> bool:
    return (
        not _not_a_pin(lower, match)
        and _read_out(text, lower, match, "PIN")
        and _long_pin(lower, match)
        and not (lower[match.start()] in "mt" and _YEAR_LIKE.fullmatch(match["value"]))  # "TPIN 2024 rollout"
    )


def _pins(text: str, lower: str) -> Iterator[tuple[int, int]]:
    """The PINs _PIN reads. A label refused whose clause ends before its value ("पिन कोड नहीं, ATM पिन: ८४०२":
    India's postcode's word, then the ATM's PIN: reviewer CX) is read again after its comma or semicolon, for a PIN
    that ends its own clause and is no postcode's six digits ("পিন কোড, পিন: 700019", "..., পিন নম্বর: 1200 পাতা":
    an attacker's round)."""
    for match in _PIN.finditer(lower):
        if _kept_pin(text, lower, match):
            yield match.span("value")
            continue
        label = match.start("value")
        stop = max(lower.rfind(",", match.start(), label), lower.rfind(";", match.start(), label))
        if stop == -1:
            continue
        again = _PIN.search(lower, stop + 1, match.end() + _PIN_LOOK)  # (bounded: the refused match's span, and after)
        if (
            again is not None
            and again.end() <= match.end()
            and len(again["value"]) != _POSTCODE_DIGITS
            and _LONG_PIN_END.match(lower, again.end()) is not None
            and _kept_pin(text, lower, again)
        ):
            yield again.span("value")


_POSTCODE_DIGITS = 6  # India's postcodes ("PIN code")
_PIN_LOOK = 64  # characters after a refused match that its reading again may look at


# A remote login's word, at most two words and a colon, then "user:password" alone ("ssh box: liveops:M@pl300*
# (yes, that's user:pass)": reviewer BF). The password is drawn as passwords are: eight characters or more of
# three kinds (small and capital letters, digits, symbols), no "/" (a path), not all digits (a port, a time).
# Only a box's, a host's or an account's word may come between ("login stats: alice:Success=12", "ssh key type:
# deploy:Ed25519-SHA256", "bastion tags: env:Prod-EU1" are attributes: an attacker's round), and the pair is
# not one of a list.
_LOGIN_PAIR = lazy_compile(
    r"(?<![\w.\-])(?:ssh|sftp|rdp|vnc|login|logon|bastion|jump ?host)(?:-(?:zugang|access|login|zugriff))?"
    # a host's name or address ("ssh into db01 with", "ssh on 10.0.0.5:"), a box's in brackets ("RDP (jump box):")
    r"(?:[ \t]+(?:box|host|server|access|creds|credentials|account|user|login|as|is|into|on|to|with|via"
    # (its blanks possessive, the colon's run apart from the one after it: two runs side by side, each giving back to
    # the other, were quadratic: 16 KB of blanks after "login" took 3 s)
    r"|[a-z0-9\-]*[0-9.][a-z0-9.\-]*:?|\([a-z ]{1,20}\):?)){0,3}(?:[ \t]*+[:=][ \t]++|[ \t]++)[`'\"]?"
    r"(?P<user>[a-z_][a-z0-9_.\-]{0,31}):(?P<value>[^\s:/\\\"'`=,]{8,64})(?=[`'\"]?(?:[\s;)]|[.!?]?$))"
    r"(?![`'\"]?[ \t]*,[ \t]*[\w.\-]+:)"
)


def _login_pairs(text: str, lower: str, words: dict[str, list[int]]) -> Iterator[Hit]:
    if _LOGIN_WORDS.isdisjoint(words):
        return
    for match in _LOGIN_PAIR.finditer(lower):
        start, end = match.span("value")
        while end > start and text[end - 1] in ".,;)":
            end -= 1
        value = text[start:end]
        key = lower[match.start("value") - 1 - len(match["user"]) : match.start("value") - 1]
        if _AT_HOST.search(value) or _FILE_NAME.search(value) or key in _ATTRIBUTE_KEYS:
            continue  # "user:password@host": the URL reader's; a file's name; an attribute's key
        # a password's own symbol among letters and digits: not an attribute's value of words joined by dashes
        # ("OAuth2-App", "AccessDenied-403", "Focal-Fossa20": an attacker's round)
        letters_and_digits = any(char.isalpha() for char in value) and any(char.isdigit() for char in value)
        if letters_and_digits and len(value) >= 8 and any(char in _LOGIN_SYMBOLS for char in value):
            yield "PASSWORD", start, end


_AT_HOST = lazy_compile(r"@[a-z0-9\-]+\.[a-z]", re.IGNORECASE)
_FILE_NAME = lazy_compile(r"\.(?:zip|tar|gz|txt|log|html?|bat|sh|ps1|py|json|ya?ml|xml|csv|local|conf)$", re.IGNORECASE)
_LOGIN_SYMBOLS = frozenset("!@#$%^&*+?~")
_ATTRIBUTE_KEYS = frozenset(
    {"sha256", "sha1", "md5", "error", "reason", "status", "state", "result", "event", "type", "method", "mode", "env",
     "region", "az", "zone", "tag", "label", "role", "group", "team", "sg", "ami", "image", "os", "theme", "policy",
     "job", "cmd", "tunnel", "display", "geometry", "dns", "domain", "host", "port", "key", "level", "tier", "title",
     "next", "page", "flow", "queue", "shell", "script", "badge", "metrics", "stats", "cache", "session", "count"}
)  # fmt: skip


# cloud-init's chpasswd list: "user:password" lines under "list: |" ("chpasswd:\n  list: |\n    root:Sr19p5S4n%7x=3*\n
#    ubuntu:Cobalt1923#": reviewer BG); "user:RANDOM" asks cloud-init to draw one.
_CHPASSWD = lazy_compile(r"(?m)^[ \t]*chpasswd:[ \t]*\r?\n(?:[ \t]+[^\n]*\n){0,4}?[ \t]+list:[ \t]*\|[ \t]*\r?\n")
_CHPASSWD_LINE = lazy_compile(r"(?P<indent>[ \t]+)[a-z_][a-z0-9_.\-]{0,31}:(?P<value>[^\s]{1,128})[ \t]*\r?(?:\n|$)")


# cloud-init's own draw, a template's or a variable's reference, an encrypted or a locked value, a placeholder
# ("ubuntu:${UBUNTU_PASSWORD}", "ubuntu:{{ubuntu_password}}", "ubuntu:ENC[AES256_GCM,...]", "ubuntu:!locked":
# an attacker's round)
_CHPASSWD_NOT_A_VALUE = lazy_compile(
    r"(?i:random|r)|\$\{.*\}|\{\{.*\}\}|%\{.*\}|\$[A-Za-z_][A-Za-z0-9_]*|<.*>|ENC\[.*|[*!].*"
    r"|(?i:change_?me|password|changeit|secret|xxx+|\.\.\.)"
)


def _chpasswd_lists(text: str, lower: str) -> Iterator[Hit]:
    if "chpasswd" not in lower:
        return
    for block in _CHPASSWD.finditer(text):
        at, indent = block.end(), None
        while (line := _CHPASSWD_LINE.match(text, at)) is not None and indent in (None, line["indent"]):
            indent = line["indent"]
            if not _CHPASSWD_NOT_A_VALUE.fullmatch(line["value"]):
                yield "PASSWORD", *line.span("value")
            at = line.end()


_ALPHABET = "abcdefghijklmnopqrstuvwxyz"
# An app password as Google and Microsoft show it, four groups of four small letters (Apple's "app-specific
# password" joins them with "-"), after its label and a colon, ending the line ("App password for the old
# Outlook 2016 on the front desk PC: tzkq mvrb wxhd npsf": reviewer AG; "app passwords: some apps like mail
# work fine" is a sentence: a fresh attacker's round).
_APP_PASSWORD = lazy_compile(
    r"(?<![\w-])(?:app[ -](?:specific[ -])?passwor(?:d|t)|anwendungspasswort)\b[^\n:=]{0,80}[:=][ \t]*"
    r"(?P<value>[a-z]{4}(?:(?P<joint>[ -])[a-z]{4})(?:(?P=joint)[a-z]{4}){2})"
    r"[ \t]*+(?:(?:[.,;)][ \t]*+)?(?:\r?\n|$)|(?<=[ \t])[(\-–—])"  # the value ends its line, or a remark follows
)


_BOX_WORDS = tuple(sorted(_KEY_BOXES.split("|"), key=len, reverse=True))
# Between a key box and its code, only where the box is and what comes next ("the key safe by the back
# door is 0 4 1 9 if you're out"); any other word leads to another number ("lockbox model 5400", "our
# lockbox is in room 1204", "the lockbox API returns 4040").
_BOX_GAP = frozenset(
    {
        "is", "code", "combination", "combo", "pin", "the", "a", "by", "at", "on", "in", "of", "next", "to", "near",
        "back", "front", "side", "main", "door", "gate", "garage", "porch", "shed", "wall", "fence", "entrance",
        "new", "now", "number", "ist", "lautet", "neben", "der", "die", "das", "am", "an", "est", "la", "le", "de",
        "du", "el", "es", "é", "è", "do", "da", "código", "codigo", "numéro", "número", "rue", "entrée",
        "hat", "den", "carport", "eingang", "haus", "reset", "set", "changed", "has", "uses",
    }
)  # fmt: skip


# After a key box's code: the sentence's end or what comes next, no word about the box itself ("padlock
# 1000 series", "lockbox number 4412 was returned", "is 100 years old", "at 1600 Pennsylvania Ave").
# (or how long it holds: "key box code is 8163 this week", "... until Friday", "... from Monday": reviewer CW)
_BOX_CODE_END = lazy_compile(
    r"[ \t]*(?:\r?$|[.,;:!?()\]\"'—–]|(?:then|and|if|or|to|at|please|pls|this|until|till|from)\b)", re.M
)
_SUFFIX = lazy_compile(r"['’][^\W\d_]")
# Before or after a year, what makes it one ("em 2023", "ab 2025", "2023 yılında", "2024 neu vergeben").
_YEAR_WORDS = lazy_compile(
    r"(?:^|[ \t])(?:em|in|ab|seit|since|from|de|en|desde|dal|od|bis|until|till|after|before|year|jahr|année|año|"
    # Nordic and German "changed", "valid", "until" ("portkoden byttes 2024", "gültig bis Dezember 2025")
    r"byttes|byts|ändras|ändrades|gültig|fra|från|frem til|dezember|januar)"
    r"[ \t]*$"
)


# A product's, a shipment's, an error's or a form's code near a door's word ("Porte de garage, code
# produit 45120", "Il corriere porta il pacco, codice spedizione 483920", "Alarma, código de error 4031":
# an attacker's round).
NOT_A_LOCK_CODE = lazy_compile(
    r"(?<![^\W\d_])(?:art(?:ikel|icle|icolo|igo|ículo)|produ(?:it|ct|cto|to|kt)|prodotto|ürün|error|erreur|erro|"
    r"fehler|błędu|bledu|hata|spedizione|treno|postale|avviamento|ricambio|trámite|tramite|posta|postal|zip|"
    r"sku|item|model|modell|modèle|modelo|modello|parzelle|lieferung|versand|envío|envio|shipping|chaves|chiavi|"
    r"documenti|usb|"
    # bookkeeping's entries, a logic gate's, a toll gate's, a port of entry's, a supplier's code, a code returned
    # (an attacker's round on reviewer AZ's readers: "Journal entry code 6010", "Logic gate code 7408", "Entry port
    # code 2704", "Supplier portal, vendor code 40213", "The portal returned code 502")
    r"journal|ledger|gl|accounting|logic|toll|port|customs|vendor|supplier|fournisseur|fornecedor|proveedor|"
    r"fornitore|lieferant|lieferanten|returned|returns|return|"
    # an order's code in Czech ("Dveře do skladu, kód zakázky 48213": an attacker's round); a ward's, a project's, a
    # budget's, an audit's, a cost centre's or a call's code, an item's, a product's, a CPV or an EAN, an alarm's
    # event or its zone, a log's entry (an attacker's round on reviewer CW's readers)
    r"zakázky|zakázka|zakazky|objednávky|objednavky|ward|project|budget|audit|cost|call|phone|kostnadsställe|"
    r"položky|polozky|produktu|cpv|ean|event|events|evento|ereignis|meldergruppe|zone|zona|eseménynapló|"
    r"eseménynaplója|hibanapló|hibanaplója|napló|naplója|zápasu|zapasu)"
    r"(?![^\W\d_])"
)
# "porte le code", "porta il codice": French and Italian "carries", not a door ("Le dossier porte le code 4021").
_CARRIES = lazy_compile(r"(?:porte|portent|porta|portano)[ \t]+(?:le|la|les|un|une|il|lo|i|gli|uno|una)[ \t]")


def _year_not_code(lower: str, match: re.Match[str]) -> bool:
    """A four-digit code that reads as a year where the words around it make it one."""
    value = match["value"]
    if not YEAR.fullmatch(value):
        return False
    before = lower[max(match.start(), match.start("value") - 16) : match.start("value")]
    after = _WORD_AFTER.match(lower, match.end()) or _SUFFIX.match(lower, match.end())  # "2025'te"
    return _YEAR_WORDS.search(before) is not None or after is not None


def _box_label(lower: str, match: re.Match[str]) -> bool | None:
    """None where the match does not start at a key box's word; else whether only the words of _BOX_GAP
    stand between the box and its code (a code read out one digit at a time may then have words after),
    or a few words where the box is or whom it is for, then a code's own word right before the code ("Lockbox on
    the gas meter, code 0731", "Key safe code for the carers: 1966": reviewer CW)."""
    for word in _BOX_WORDS:
        if lower.startswith(word, match.start()):
            gap = lower[match.start() + len(word) : match.start("value")]
            words = _LETTERS.findall(gap)
            placed = (
                0 < len(words) <= _BOX_PLACE_WORDS
                and words[0] in _BOX_PLACE_FIRST
                and _CODE_LAST.search(gap) is not None
                and _BOX_NOT_PLACE.isdisjoint(words)
                and _PLACED_CODE.fullmatch(match["value"]) is not None
            )
            return (_BOX_GAP.issuperset(words) or placed) and _BOX_CODE_END.match(lower, match.end()) is not None
    return None


# A code's word last before the code, maybe with "is" or a colon ("..., code 0731", "... code for the carers: 1966")
_CODE_LAST = lazy_compile(
    r"(?<![^\W\d_])(?:code|combination|combo|pin|código|codigo)(?:[ \t]+for[ \t]+(?:the[ \t]+)?[^\W\d_]+)?"
    r"(?:[ \t]+is|[ \t]*:)?[ \t]*$"
)
_BOX_PLACE_WORDS = 8
_PLACED_CODE = lazy_compile(r"[0-9]{4,6}[#*]?")  # a box's own code, not a catalogue's eight digits
# ... led by where the box is or by the code's word ("Lockbox exceptions for May, code 2017", "Keybox firmware notes:
# code 4521" are reports: an attacker's round)
_BOX_PLACE_FIRST = frozenset(
    {"on", "by", "at", "near", "behind", "under", "beside", "next", "inside", "outside", "in", "for", "code",
     "combination", "combo", "pin", "código", "codigo"}
)  # fmt: skip
# ... not another thing's code between ("lockbox API error code 4040", "lockbox deposit batch code 1150")
_BOX_NOT_PLACE = frozenset(
    {"api", "error", "status", "http", "response", "model", "batch", "deposit", "order", "zip", "post", "postal",
     "area", "product", "part", "sku", "item", "ticket", "invoice", "file", "account", "fee", "bank", "tracking",
     "returns", "returned", "return", "service", "fault", "event", "serial", "sic", "hs", "tariff", "colour", "color"}
)  # fmt: skip


_LETTERS = lazy_compile(r"[^\W\d_]+")


# Every match of _ACCESS_CODE holds one of these ("code" and its kin, "pin", Alipay's "支付密"), at
# most 35 characters after its start (a lock's word, then at most 24 characters), and ends at most 91
# characters after it (the longest code word, 8 blanks, "della" and 8 more, a lock's word, 24 characters,
# 8 digits read out one by one and "#"). The pattern, whose alternatives start with most letters, reads only the windows
# around them; its look-ahead after the value still sees the text's next two characters.
_CODE_MARKS = (
    "cod", "cód", "kod", "kód", "pin", "비번", "비밀번호", "支付密", "keybox", "key box", "schlüssel", "key safe",
    "keysafe", "lockbox", "lock box", "padlock", "combination lock", "cadenas", "clés", "llaves", "chaves", "senha",
    "şifresi", "sifresi", "cajet", "room safe", "hotel safe", "keypad", "combo lock", "kluis", "portachiavi", "sejf",
    "anahtar kutusu", "clave",
)  # fmt: skip
_CODE_BEFORE = 48
_CODE_AFTER = 96


# The marks among the gates' words (Scan.words): their places are read from the scan's, the others searched for.
_INDEXED_CODE_MARKS = index_words(*(mark for mark in _CODE_MARKS if mark.isascii()))


# ... and one of these, which name what the code opens: a lock's word, a key box's, a door's code in one word,
# "accès" or Alipay's (each alternative of _ACCESS_CODE holds one). Without one, no window is read: a "code" or a
# "pin" ("shopping", "mapping") is in much prose, and the pattern, led by a look-behind, is tried at every character.
_OPENS = tuple(
    dict.fromkeys(
        re.sub(r"\(\?:[^)]*\)\?", "", word)  # "portkod(?:en)?": "portkod"
        for words in (
            _LOCKS,
            _KEY_BOXES,
            _LOCK_STEMS,
            "accès|acceso|acesso|支付密码|支付密碼|haustürcode|türcode|torcode|deurcode|zahlencode|portkod(?:en)?|"
            "dörrkod(?:en)?|dørkode(?:n)?|digicode|code d'entrée|code d'accès|keypad|bedrohungscode|überfallcode|"
            "duress code|código de coação|código de coacção|código de coacción",
        )
        for word in words.split("|")
    )
)
_INDEXED_OPENS = index_words(*(word for word in _OPENS if word.isascii()))
_OTHER_OPENS = tuple(word for word in _OPENS if not word.isascii())


def _names_what_opens(lower: str, scan: Scan | None) -> bool:
    if scan is not None:
        if not _INDEXED_OPENS.isdisjoint(scan.words):
            return True
    elif any(word in lower for word in _INDEXED_OPENS):
        return True
    return not lower.isascii() and any(word in lower for word in _OTHER_OPENS)


def _access_codes(lower: str, scan: Scan | None = None) -> Iterator[re.Match[str]]:
    """The matches of _ACCESS_CODE, read in the windows around the marks; ``scan``: the scan of
    ``lower``, whose words give the places of most marks (what a substring search for each finds)."""
    if not _names_what_opens(lower, scan):
        return
    windows: list[tuple[int, int]] = []
    for mark in _CODE_MARKS:
        if scan is not None and mark in _INDEXED_CODE_MARKS:
            windows += [(max(0, at - _CODE_BEFORE), min(len(lower), at + _CODE_AFTER)) for at in scan.places(mark)]
            continue
        at = lower.find(mark)
        while at != -1:
            windows.append((max(0, at - _CODE_BEFORE), min(len(lower), at + _CODE_AFTER)))
            at = lower.find(mark, at + len(mark))
    windows.sort()
    begin, end = windows[0] if windows else (0, 0)
    for start, stop in windows:
        if start > end:  # no match spans two windows apart: each one's marks are in its window
            yield from _ACCESS_CODE.finditer(lower, begin, end)
            begin = start
        end = max(end, stop)
    if windows:
        yield from _ACCESS_CODE.finditer(lower, begin, end)


# India's postal "PIN code 400001" (six digits); a conference bridge's dial-in PIN, anyone's who is invited.
_POSTAL_PIN = lazy_compile(r"pin[ \t]*code[^0-9\n]{0,8}[0-9]{6}(?![0-9])|pincode")
# "Address: MG Road, Bangalore, PIN 560001": six digits on a line that gives an address.
_ADDRESS_LINE = lazy_compile(r"address|road|\bnagar\b|\bmarg\b|street|\bdist\b|\bcity\b")
# A meeting's words: its PIN or passcode is anyone's who is invited (codes.py reads them too).
MEETING = lazy_compile(r"dial[ \-]?in|bridge|conference|meeting|webex|zoom|teams")


# Digits read out one by one are a code when nothing but punctuation follows them, and after "PIN" when
# it is written so ("Arduino pin 2 3 4 5", "JTAG pin 1-2-3-4", "building code 1 0 0 4 section": an
# attacker's round).
_WORD_AFTER = lazy_compile(r"[ \t]*(?!then\b)[^\W\d_]")  # "4 8 1 5 then tick": how the keypad takes it


def _read_out(text: str, lower: str, match: re.Match[str], label: str) -> bool:
    value = match["value"]
    if value[1:2] not in (" ", "-"):
        return COUNTED.match(lower, match.end()) is None  # "2-pin plug, 2500 W"
    return _WORD_AFTER.match(lower, match.end()) is None and (
        not label
        or label in text[match.start() : match.start("value")]
        or _PIN_SAID.search(lower, match.start(), match.start("value")) is not None
    )


_PIN_SAID = lazy_compile(r"pin(?:[ \t]*:|[ \t]+is)[ \t]*$")  # "the pin is 4 8 2 1", "Pin: 4 8 2 1"


_PIN_LINE = 160  # characters of a PIN's line read on either side for an address's or a meeting's words


def _long_pin(lower: str, match: re.Match[str]) -> bool:
    """True unless the PIN's value follows a longer clause and is a year or does not end its clause (an
    attacker's round: "PIN der Terminals in der Filiale Nord ist 2019 erneuert worden", "PIN des cartes
    émises par l'agence de Lyon : 2300 cartes au total")."""
    if match["long"] is None:
        return True
    return YEAR.fullmatch(match["value"]) is None and _LONG_PIN_END.match(lower, match.end()) is not None


# Where a PIN's value after a longer clause (or a PIN read again, see _pins) ends: the text's or the line's end, a stop
# (Devanagari's "।" too), a bracket that opens an aside, or a dash before a remark ("... lautet 582913 — nicht
# weitergeben", which the view writes with "-"); not a word ("ist 2019 erneuert worden", "2300 cartes"). Not
# _BOX_CODE_END: its words after the code ("and", "to") go on here.
_LONG_PIN_END = lazy_compile(r"[ \t]*(?:\r?$|[.,;!?()\]\"'।]|-(?=[ \t]))", re.M)


def _not_a_pin(lower: str, match: re.Match[str]) -> bool:
    line = lower.rfind("\n", max(0, match.start() - _PIN_LINE), match.start()) + 1
    line = max(line, match.start() - _PIN_LINE)
    end = lower.find("\n", match.end(), match.end() + _PIN_LINE)
    end = min(len(lower), match.end() + _PIN_LINE) if end == -1 else end
    postal = len(match["value"]) == 6 and (
        _ADDRESS_LINE.search(lower, line, end) is not None or _indian_postcode(lower, match)
    )
    return bool(
        postal
        or _POSTAL_PIN.match(lower, match.start())
        or MEETING.search(lower, line, end)
        or (match["other"] is not None and _not_a_pin_of_another_script(lower, match))
    )


def _indian_postcode(lower: str, match: re.Match[str]) -> bool:
    """Six digits after Hindi's or Bengali's "PIN" are India's postcode ("पिन कोड 110001"), but a payment's PIN
    named right before the word ("UPI पिन 482913", "बैंक पिन 482913": reviewer BF) or after the word alone and
    a colon ("पिन: 482913"); "ATM के पास पिन कोड 560001" is an address (an attacker's round)."""
    label = lower[match.start() : match.start("value")]
    if not any(word in label for word in _INDIAN_PIN_WORDS):
        return False
    paid = _PAYMENT_BEFORE.search(lower, max(0, match.start() - 16), match.start()) is not None
    return not paid and not (label.rstrip(" \t").endswith(":") and not any(word in label for word in _CODE_OF))


_INDIAN_PIN_WORDS = viewed_words("पिन", "পিন")


# French's PIN ("nouveau code confidentiel provisoire : 8152"), Quebec's ("NIP du compte : 4826": reviewer BH),
# right before a colon and the value; not a year, not a number a unit or a noun follows ("NIP des rouleaux : 2500
# N", "Code confidentiel : voir l'article 1234": an attacker's round)
def _french_pins(lower: str, words: dict[str, list[int]]) -> Iterator[Hit]:
    if "confidentiel" in lower or "nip" in words or "pincode" in lower:
        for match in _FRENCH_PIN.finditer(lower):
            # Dutch's "Pincode ... is" opens its clause (at most an article or an owner's word before it), and gives
            # no example's digits: "Het aantal resets van de pincode is 1200", "Het maximumbedrag zonder pincode is
            # 2500", "The pincode is 56001", "Standaard pincode is 0000" name none (an attacker's round)
            if match["nl"] is not None and (
                _DUTCH_CLAUSE_START.search(lower, max(0, match.start() - _CLAUSE_BACK), match.start()) is None
                or year_or_example(match["value"])
            ):
                continue
            yield "PASSWORD", *match.span("value")


_DUTCH_CLAUSE_START = lazy_compile(r"(?:^|[.!?;:\n(]|,)[ \t]*(?:(?:de|het|mijn|uw|je|jouw|onze|nieuwe)[ \t]+){0,2}\Z")
_CLAUSE_BACK = 32


_FRENCH_PIN = lazy_compile(
    # (and Dutch's "Pincode:" right before four or five digits: India's has six; reviewer BI)
    r"(?<!\w)(?:code confidentiel(?: provisoire| temporaire)?|nip (?:du compte|de (?:la |votre )?carte)"
    r"|pincode(?=[ \t]*:[ \t]*[0-9]{4,5}(?![0-9]))"
    # (and Dutch's "Pincode ... is", what the PIN is of between: "Pincode van de bedrijfstelefoon is 8362": reviewer CY)
    r"|(?P<nl>pincode)(?:[ \t]+(?:van|voor)[ \t]+(?:de|het|mijn|uw|je|jouw)[ \t]+[^\W\d_]{2,30})?[ \t]+is"
    r"(?=[ \t]+[0-9]{4,5}(?![0-9])))(?:[ \t]*:[ \t]*|(?<=is)[ \t]+)"
    r"(?P<value>(?!(?:19|20)[0-9]{2}(?![0-9]))[0-9]{4,6})(?![0-9\w])(?![ \t]*[^\W\d_])"
)
_CODE_OF = viewed_words("कोड", "কোড", "code")
# A payment's word right before the PIN's ("UPI पिन", "एटीएम पिन", "नगद पिन": bKash's and Nagad's wallets).
_PAYMENT_BEFORE = lazy_compile(
    "(?:upi|atm|card|bank|"
    + "|".join(viewed_words("यूपीआई", "एटीएम", "कार्ड", "बैंक", "এটিএম", "কার্ড", "ব্যাংকের", "ব্যাংক", "বিকাশ", "নগদ"))
    + r")[ \t]*$"
)
# After a PIN's word of another script: a year or an amount, not a PIN ("Закреплённый пин 2024 года", "Нажмите и
# удерживайте пин 3000 мс", "पिन बदलने का शुल्क 2000 रुपये", "بالرقم السري تم الدخول 3500 مرة": an attacker's round).
_COUNTED_AFTER = lazy_compile(
    r"[ \t]*(?:"
    + "|".join(
        viewed_words(
            "года",
            "году",
            "год",
            "г.",
            "року",
            "рік",
            "р.",
            "штук",
            "шт",
            "мс",
            "рублей",
            "руб",
            "гривен",
            "грн",
            "раз",
            "रुपये",
            "रुपए",
            "रु",
            "साल",
            "में",
            "से",
            "पैकेट",
            "टाका",
            "টাকা",
            "টি",
            "সালে",
            "সাল",
            "مرة",
            "مرات",
            "पीस",
            "টাকার",
            "রুপি",
            "иероглифов",
            "سنة",
            "عام",
            "روپے",
            "سال",
            "میں",
            "سے",
            "ஆம்",
            "ரூபாய்",
            "முதல்",
            "முதல",
        )
    )
    + r")(?![^\W\d_])"
)
# A year of the Gregorian calendar up to 2039, and of the Solar Hijri one ("رمز دوم: ۱۴۰۲"); "एटीएम पिन: 2044" is a PIN
_YEAR_LIKE = lazy_compile(r"19[0-9]{2}|20[0-3][0-9]|1[34][0-9]{2}")
# Russian's and Ukrainian's small "пин" is a board's, a chat's pinned message's: a PIN only with its "код", a
# colon or a card's or a bank's word before it ("пин от карты 8812"); the capitals "ПИН" say PIN
_SMALL_PIN = viewed_words("пин", "пін")
_BANK_WORDS = lazy_compile("|".join(viewed_words("карт", "банк", "сим", "sim", "картк", "بطاق", "card", "कार्ड", "কার্ড")))


def _not_a_pin_of_another_script(lower: str, match: re.Match[str]) -> bool:
    """Between the word and the value only its "code" or "number" word, a dash or a colon ("ПИН-код 4237",
    "পিন নম্বর: 34810"), or any words ending in a colon ("بالرقم السري للبطاقة خطأً: 7971"); not a compound
    ("ПИН-конверт №4512"), India's "पिन कोड" (its postcode), a year or an amount after it."""
    between = lower[match.end("other") : match.start("value")]
    if not (
        _PIN_BETWEEN.fullmatch(between)
        or between.rstrip(" \t").endswith(":")
        or _BANK_WORDS.search(between) is not None  # "пин от карты 8812", "الرقم السري الخاص بالبطاقة هو 7971"
    ):
        return True
    if any(word in between for word in _INDIAN_CODE) or _COUNTED_AFTER.match(lower, match.end()):
        return True
    if _YEAR_LIKE.fullmatch(match["value"]):
        return True
    if match["other"] == _SECRET_NUMBER and not _SWAHILI_GIVEN.search(between):
        # the PIN given ("... ni 3996", ": 3996"), not spoken of ("namba ya siri 1234 au 0000 haziruhusiwi")
        return True
    if match["other"] in _SMALL_PIN and not any(word in between for word in _CODE_OF):
        return _BANK_WORDS.search(lower, max(0, match.start() - 24), match.end()) is None
    return False


_PIN_BETWEEN = lazy_compile(
    r"[ \t]*(?:[\-—][ \t]*)?(?:(?:"
    + "|".join(viewed_words("код", "kod", "code", "নম্বর", "नंबर", "number", "номер", "நம்பர்", "எண்"))
    + r")[ \t]*)?[:=\-—]?[ \t]*"
    # (Swahili's "his / my / your ... is": "namba ya siri yake ni 3996", reviewer CV)
    r"(?:(?:yake|yangu|yako|yetu|yenu|yao)[ \t]+)?(?:ni[ \t]+)?"
)
_SWAHILI_GIVEN = lazy_compile(r"(?<![^\W\d_])ni[ \t]+$|:")
_INDIAN_CODE = viewed_words("कोड", "কোড")


def _admin_pairs(text: str, lower: str) -> Iterator[Hit]:
    for match in _ADMIN_PAIR.finditer(lower):
        start, end = _trimmed(text, *match.span("value"))
        # The pair ends its clause ("admin / UserManagement2 / Roles", "root / Documents2023 folder"
        # are a menu's path and a folder), and the value is no word with a number.
        if _CLAUSE_END.match(text, match.end()) and _strong(text[start:end]) and not _WORDY.search(text[start:end]):
            yield "PASSWORD", start, end
    for match in _LOGIN_SLASH.finditer(lower):
        start, end = _trimmed(text, *match.span("value"))
        value = text[start:end]
        ended = _CLAUSE_END.match(text, match.end()) or _NEXT_SENTENCE.match(text, match.end())
        if not (ended and _strong(value) and any(char in _SYMBOLS for char in value) and _SLASH_VALUE.match(value)):
            continue
        # A user right after the word holds a letter or is a host's address ("account 2024 / Q3-Revenue-Report!" is a
        # report's); after a colon further on, a random password only (no four small letters in a row, both cases:
        # "User stories: US-1042 / Checkout-Flow-v2!", "Account review: FY2024 / Q4-Close&Audit")
        near = match["near"]
        if _WORDY.search(value) or _TICKET.search(value):
            continue  # words joined ("Profile-Edit-v3!"), a ticket's or a case's number ("Case#00481-B")
        named = near is not None and (any(char.isalpha() for char in near) or _HOST_ADDRESS.fullmatch(near))
        random = match["far"] is not None and not _FOUR_SMALL.search(value) and _CASES.search(value)
        if named or random:
            yield "PASSWORD", start, end


# Any user, or a host's address, then " / " and a password, after an account's or a login's word in the clause ("owner
# account chidi / Kitchen-Lights-42!", "router admin 192.168.0.1 / Adm1n-Nagy!", "Workday ISU for the ADP connector:
# ISU_ADP_Payroll / q7!Rm2@vXe9#Lp": reviewer CW); the password strong and holding a symbol (a menu's "Sales /
# Marketing2" holds none)
# (the user right after the word, or after a colon or a comma further on, holding a digit, a dot, "_" or "@": "user
# guide v2.1 / Getting-Started-2024!" is a page's path, "LOGIN page KPIs: p95 1200ms / p99#3400ms" two figures)
_LOGIN_SLASH = lazy_compile(
    r"(?<![^\W\d_])(?:account|login|isu|user|username|creds|credentials|admin)(?![^\W\d_])"
    # (the far user one run, a digit, a dot, "_" or "@" in it seen ahead: a run cut in two at any of its digits was
    # quadratic, "login: " and 16,000 digits took 2 s, an attacker of the README's promises)
    r"(?:[ \t]+(?P<near>[a-z0-9._@\-]{2,64})|[^\n/]{0,40}?[:,][ \t]*+(?P<far>(?=[a-z\-]*+[0-9._@])[a-z0-9._@\-]++))"
    r"[ \t]+/[ \t]+(?P<value>[^\s<>/*`'\"]{8,64})"
)
# The password: a letter and a digit in it, not led by a currency's sign or a channel's "#" ("$49.99+VAT",
# "#ops-alerts-prod"); letters of both cases
_SLASH_VALUE = lazy_compile(r"(?=[^\s]*[A-Za-z])(?=[^\s]*[0-9])[^$€£#]")
_CASES = lazy_compile(r"(?=[^\s]*[a-z])(?=[^\s]*[A-Z])")
_FOUR_SMALL = lazy_compile(r"[a-z]{4}")  # "Q4-Close&Audit": words
_TICKET = lazy_compile(r"[A-Za-z]#[A-Z0-9]")
_HOST_ADDRESS = lazy_compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")


# A retina asset's name ("insurer-badge@2x~ipad.png" after "spinner@1.5x.gif" in a list of icons: reviewer BQ)
_RETINA = lazy_compile(r"@[0-9]+(?:\.[0-9]+)?x(?![a-z0-9])")


def _email_pairs(text: str, lower: str) -> Iterator[Hit]:
    for match in _EMAIL_THEN.finditer(lower):
        value = text[match.start("value") : match.end("value")]
        if _RETINA.search(lower, match.start(), match.end()) is not None:
            continue
        if _strong(value) and (any(char in _SYMBOLS for char in value) or not _WORDY.search(value)):
            yield "PASSWORD", *match.span("value")  # not a table's next column ("Active2024")
    for match in _EMAIL_PAIR.finditer(lower):
        start, end = _trimmed(text, *match.span("value"))
        value = text[start:end]
        ends = _CLAUSE_END.match(text, match.end()) or (
            (_NEXT_SENTENCE.match(text, match.end()) or _NEXT_PAIR.match(lower, match.end()))
            and _LOGIN_BEFORE.search(lower, max(0, _pairs_start(lower, match.start()) - 80), match.start())
        )
        if ends and (_strong(value) or _PASSPHRASE.fullmatch(value)):
            yield "PASSWORD", start, end


def _auth_commands(text: str, lower: str) -> Iterator[Hit]:
    for match in _REDIS_AUTH.finditer(lower):
        group = "quoted" if match["quoted"] is not None else "bare"
        value = text[match.start(group) : match.end(group)]
        if not _placeholder(value) and (_strong(value) or _random(value)):
            yield "PASSWORD", *match.span(group)
    for match in _STATS_AUTH.finditer(lower):
        if not _placeholder(match["value"]):
            yield "PASSWORD", *match.span("value")
    if "-server" in lower:
        for match in _DEVICE_KEY.finditer(lower):
            value = text[match.start("value") : match.end("value")]
            if value.lower() not in _DEVICE_DEFAULTS and not _placeholder(value) and (_strong(value) or _random(value)):
                yield "PASSWORD", *match.span("value")


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while end > start and text[end - 1] in ".,;:)":
        end -= 1
    return start, end


# Five small letters in a row: a word ("UserManagement2", "OAuth2Config"), not a random password.
_WORDY = lazy_compile(r"[a-z]{5}")
_CLAUSE_END = lazy_compile(r"(?:</b>|</strong>|\*\*|`)?[.,;:)]?[ \t]*(?:\r?$|[(\[<]|\Z)", re.M)
# ... or the sentence ends with it ("... login: schroederm@gmail.com / Ykouypha8605@. Remove after filing.": reviewer
# CG)
_NEXT_SENTENCE = lazy_compile(r"(?<=[.;!])[ \t]+(?=[A-Z])")
# ... where a login is named before the pair ("Send invoices to billing@acme.com / AP-Dept2. Net 30." names none)
_LOGIN_BEFORE = lazy_compile(r"login|log-in|credential|password|passwort|sign[ -]?in|anmeld|zugang|accounts?\b")
# ... or another pair follows ("QA accounts ...: a@x.app / gDBQ3SrR!3?+ and b@x.app / Harvest#1304": reviewer CL)
_NEXT_PAIR = lazy_compile(r"[ \t]*(?:,|;|and|&|und|et|y|e)[ \t]+[\w.+\-]{1,64}@[\w\-]{1,63}\.[\w\-.]{2,}[ \t]+/[ \t]")
_PAIR_BEFORE = lazy_compile(
    r"[\w.+\-]{1,64}@[\w\-]{1,63}(?:\.[\w\-]{1,63}){1,8}[ \t]+/[ \t]+[^\s/<>\"'`]{6,64}[ \t]*"
    r"(?:,|;|and|&|und|et|y|e)[ \t]+$"
)


def _pairs_start(lower: str, start: int) -> int:
    """Where a list of pairs that ``start``'s pair ends begins: the login's word is read before the first one."""
    while (before := _PAIR_BEFORE.search(lower, max(0, start - 160), start)) is not None:
        start = before.start()
    return start


def _placeholder(value: str) -> bool:
    return value.startswith(("$", "<", "{", "%")) or value.lower() in _PLACEHOLDERS


def _strong(value: str) -> bool:
    letters = any(char.isalpha() for char in value)
    digits = any(char.isdigit() for char in value)
    mixed = value.lower() != value != value.upper()
    return letters and ((mixed and digits) or any(char in _SYMBOLS for char in value))


def _random(value: str) -> bool:
    """Letters and digits, twelve characters or more: what a generated password is."""
    return len(value) >= 12 and any(char.isdigit() for char in value) and any(char.isalpha() for char in value)


# A bank's "memorable word" (UK banks ask for letters of it), a secret word or answer: one word after the label
# ("memorable word tangerine", "Memorable word: Peregrine7": reviewer BC), not a state or a verb ("memorable word
# reset", "memorable word is required").
_MEMORABLE = lazy_compile(
    r"(?<![^\W\d_])(?i:memorable (?:word|information|info)|secret word|security word)"
    # (blanks possessive, the colon's apart from those after it: two runs side by side were quadratic: _LOGIN_PAIR)
    r"(?:[ \t]+(?:is|was|set to|now))?(?:[ \t]*+[:=][ \t]++|[ \t]++)[\"'“]?(?P<value>[A-Za-z][A-Za-z0-9]{3,23})[\"'”]?"
    r"(?=[ \t]*(?:$|[.,;)\n]))"
)
_NOT_A_WORD_GIVEN = frozenset(
    {"reset", "required", "set", "changed", "updated", "verified", "confirmed", "correct", "incorrect", "wrong",
     "missing", "locked", "unlocked", "forgotten", "needed", "requested", "given", "provided", "ok", "okay", "none",
     "unknown", "blank", "empty", "hidden", "redacted", "withheld", "declined", "failed", "passed", "matched",
     "check", "checked", "too", "also", "again", "please"}
)  # fmt: skip


MEMORABLE_LITERALS = ("memorable", "secret word", "security word")
PORTING_LITERALS = ("PAC", "STAC")  # in capitals: "pac" is in "space", "capacity", "impact"

# A UK mobile's porting or switching code, which moves the number to whoever holds it: a PAC is three letters
# and six digits, a STAC six digits and three letters ("PAC issued HGF082847": reviewer BC).
_PORTING_CODE = lazy_compile(
    r"(?<![^\W\d_])(?:PAC|STAC)(?![^\W\d_])(?:[ \t]+code)?(?:[ \t]+(?:issued|is|was|sent|given))?"
    r"[ \t]*+(?:[:=][ \t]*+)?"  # (possessive: blanks read once; a run of them after "PAC" was cubic: 350 s for 160 KB)
    r"(?P<value>[A-Z]{3}[0-9]{6}|[0-9]{6}[A-Z]{3})(?![\w])"
)


_PORTING_WORDS = lazy_compile(r"(?i:\bport|porting|switch|network|provider|carrier|operator|leave|cancel|retention)")


def find_memorable_words(scan: Scan) -> Iterator[Hit]:
    for match in _MEMORABLE.finditer(scan.text):
        if match["value"].lower() not in _NOT_A_WORD_GIVEN:
            yield "PASSWORD", *match.span("value")


def find_porting_codes(scan: Scan) -> Iterator[Hit]:
    text = scan.text
    if "PAC" in text or "STAC" in text:
        line_start = LineStarts(text)
        named_lines: dict[int, bool] = {}  # each line read once for the words (once per code was quadratic)
        for match in _PORTING_CODE.finditer(text):
            start = line_start(match.start())
            named = named_lines.get(start)
            if named is None:
                # a number's porting or switching named in the line ("PAC BOS240115", an airport and a date, has
                # none: an attacker's round)
                end = text.find("\n", match.end())
                named = named_lines[start] = (
                    _PORTING_WORDS.search(text, start, len(text) if end < 0 else end) is not None
                )
            if named:
                yield "GENERIC_SECRET", *match.span("value")
