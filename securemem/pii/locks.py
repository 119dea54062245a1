"""A door's, a gate's, an alarm's or a barrier's code, in the words of some thirty languages.

Reviewer AZ (a warehouse's, a laboratory's and an insurer's notes, blind) wrote them the way each
language does: a compound ("alarmcode kantoor Utrecht is 7391", "hekcode vrachtwagenpoort #2207",
"toegangscode 2468B voor de monsterkluis"), a code "to" or "of" the lock, inflected ("kod do bramy
wjazdowej 4490", "kod alarmu w biurze 1357", "Kód k závoře 2019.", "az irodai riasztó kódja 8024",
"הקוד לשער הוא 2468"), the lock before the word for its code ("Sleutelkluis bij de achteringang: code
0458", "仓库门禁密码 2580#", "창고 출입문 비밀번호 1472*"), a number of the place between ("portkoden till
provtagningen på plan 2 är 1967").

Read: a word for a code (maybe the end of a compound), then at most eight words (a number of one or two
digits among them: a floor's, a hall's), maybe a colon, and the value: three to eight digits, maybe ending in
"#" or "*" or a keypad's letter, maybe led by "#". Whose code it is decides: the compound's first part, the
word right before the code word or the first word after it past prepositions and articles must name a lock
or a way in ("booking code", "kode tiket", "müşteri kodu" are other things'). The value ends its clause (a
stop, a bracket, the line's end, or "after", "then", "for" and their kin), is no year that the words around
make one and no count, and no word of its clause names a product's, an error's, a shipment's or a one-time
code (codes.py reads those).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.accounts import NOT_A_LOCK_CODE
from securemem.pii.normalize import viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import COUNTED, YEAR, Scan, index_words

Hit = tuple[str, int, int]


# The words for a code, with their inflections, in the lower-cased view: "code", "kode(n)", "kod(u)", "kód(ja)",
# "koodi", "codice", "código", "codul", Greek's "κωδικός", Russian's and Ukrainian's "код", Hebrew's "קוד".
_CODE_WORDS = (
    "codes", "code", "koden", "koder", "kode", "kodu", "kody", "kodem", "kod", "kódja", "kódot", "kódu", "kód",
    "koodin", "koodia", "koodi", "codice", "código", "codigo", "codul", "codigos",
    # Turkish "şifresi" (a lock's "password": "anahtar kutusu şifresi 7440", "alarm şifresi 1640"), Swahili
    # "msimbo" ("Msimbo wa sefu chumbani: 7032": reviewer BA)
    "şifresi", "sifresi", "şifre", "msimbo",
    # Vietnamese "mã", Arabic "رمز" ("mã hộp khóa 8435", "رمز صندوق المفاتيح 6422": reviewer BB)
    "mã", "رمز",
    *viewed_words("κωδικός", "κωδικό", "кодом", "коду", "кода", "код", "הקוד", "קוד"),
)  # fmt: skip
# A lock's word: its stem, and at most two letters of an inflection after it ("bram" for "brama", "bramy",
# "bramie"; "závo" for "závora", "závoře"; "gate" and "gates", not "gateway"). Kept to words that name a lock,
# a door or a way in, in each language.
_LOCK_STEMS = (
    # English
    "door", "gate", "barrier", "alarm", "entry", "entrance", "intercom", "buzzer", "garage", "keypad", "lockbox",
    "keybox", "keysafe", "padlock", "locker", "shutter",
    # German, Dutch, Nordic
    "haustür", "pforte", "eingang", "schranke", "schließfach", "tresor", "deur", "poort", "ingang", "slagboom",
    "kluis", "dörr", "dør", "larm", "ingång", "inngang", "indgang",
    # Romance
    "porte", "portail", "portillon", "barrière", "alarme", "entrée", "accès", "digicode", "interphone", "puerta",
    "portón", "portal", "barrera", "alarma", "entrada", "acceso", "garaje", "taquilla", "porta", "portão",
    "portaria", "acesso", "garagem", "cancela", "portone", "cancello", "allarme", "ingresso", "accesso", "sbarra",
    "interfon", "poartă", "poarta", "ușă", "ușa", "barieră", "bariera",
    # Slavic, Hungarian, Finnish, Turkish, Greek as the view writes it
    "drzwi", "bram", "furtk", "szlaban", "wjazd", "domofon", "dveř", "dveri", "brán", "brana", "brany", "vrat",
    "závo", "zavo", "ajtó", "kapu", "riasztó", "sorompó", "bejárat", "ovi", "oven", "portti", "hälyty", "puomi",
    "kapı", "kapi", "bariyer", "kutusu", "anahtar", "sefu", "mlango", "geti",
    *viewed_words("πόρτα", "πύλη", "συναγερμ", "εισόδ", "είσοδ", "κλειδοκούτι", "двер", "ворот", "воріт", "шлагбаум",
             "сигнализац", "сигналізац", "домофон", "підʼїзд", "під'їзд", "подъезд"),
    # Indonesian, Malay, Vietnamese, Tagalog
    "pintu", "lemari", "brankas", "pinto", "tarangkahan",
    # Hebrew ("to the gate", the door, the alarm), Arabic
    "לשער", "השער", "דלת", "לדלת", "הדלת", "אזעקה", "לאזעקה", "باب", "البوابة", "بوابة",  # "קוד השער": reviewer CF
    # a key box's or a key safe's own word (reviewer BB: a home-care provider's nurses' notes, "kulcsdoboz kódja
    # 6704", "κωδικός κλειδοθήκης 6108", "הקוד לכספת המפתחות 9440", "kod do sejfu na klucze 2807", "код сейфа для
    # ключів 3233", "avainsäilön koodi 7817"); a box's word and the keys' are read apart (_BOXES, _KEY_STEMS)
    "kulcsdoboz", "kulcsszekr", "sejf", "avainsäil", "avainboks", "nøgleboks", "nøkkelboks", "nyckelskåp",
    "nyckelgömm", "schlüsselkast", "schlüsselbox", "schlüsseltresor", "sleutelkast", "לכספת", "כספת", "הכספת",
    *viewed_words("κλειδοθήκ", "сейф", "ключниц"),
    # a way in: "access code", "kode akses", "código de acceso" (a secret, whatever it opens)
    "access", "akses", "acceso", "accès", "accesso", "acesso", "zugang", "zugangs", "toegang", "toegangs", "adgang",
    "adgangs", "tilgang", "dostępu", "přístupu", "přístupový", "hozzáférési", "erişim",
)  # fmt: skip
_INFLECTION = 2  # letters an inflection adds to a stem
# Short words that name a lock only whole ("Tür", not Turkish "türü"; "Tor", not Polish "toru" or "Torx").
_LOCK_WORDS = frozenset(
    {"tür", "türe", "türen", "tor", "tores", "hek", "hekken", "grind", "grinden", "porten", "bom", "bommen"}
)
_KEY_WORDS = frozenset({"chei", "cheile", "cheilor"})  # Romanian: the keys ("codul cutiei cu chei 0963")
# A box, read past as a preposition is, whose keys' word then names a lock: "mã hộp khóa", "kode kotak kunci",
# "codul cutiei cu chei", "kód schránky na klíče", "skrzynki na klucze", "رمز صندوق المفاتيح". The keys' word
# alone is any key's: a course's, a licence's, an answer sheet's, a search's ("Mã khóa học", "Kode kunci
# jawaban", "kod klucza produktu", "код ключа активации", "Kod nyckel 4521 i kalkylbladet": an attacker's round).
_BOXES = frozenset(
    {"hộp", "kotak", "cutiei", "cutia", "cassetta", "صندوق", "caja", "caixa", "box", "boîte", "boite", "schránky",
     "schránka", "schránce", "skrzynki", "skrzynka", "skrzynce"}
)  # fmt: skip
_KEY_STEMS = ("khóa", "kunci", "klíč", "klucz", "chiav", "nyckl", "nyckel", "nøgl", "nøkl", "المفاتيح", "مفاتيح",
              *viewed_words("ключ"))  # fmt: skip
# Looked for inside a word too: the second part of a compound ("achteringang", "sleutelkluis",
# "vrachtwagenpoort", "Haupteingang", "Nebentür").
_COMPOUND_STEMS = ("ingang", "kluis", "schranke", "tresor", "deur", "haustür", "hintertür", "gartentür")
_PREPOSITIONS = frozenset(
    {"do", "k", "ke", "ku", "de", "di", "del", "della", "dello", "da", "du", "des", "na", "za", "for", "to", "of",
     "ng", "van", "für", "zur", "zum", "zu", "til", "till", "för", "a", "al", "à", "the", "la", "le", "el", "lo",
     "wa", "ya", "cu", "số",
     "il", "der", "die", "das", "den", "het", "az", "o", "w", "v", "ve", "u", "pro", "para", "per",
     *viewed_words("για", "το", "της", "του", "στην", "την", "к", "от", "для", "до", "від")}
)  # fmt: skip
# ... and the first part of a code word's compound ("portkoden", "torcode", "hekcode": "port" and "tor" alone
# are a network's and a rail track's, "Authorization code flow on port 8080" an attacker's round).
_COMPOUND_FIRST = ("port", "tor", "garagentor", "hoftor", "tür", "alarm", "larm", "ingang", "eingang", "ingångs")
# The words that may stand between a code word and a year-shaped value, besides a lock's: a preposition, an
# article, a copula ("Kód k závoře 2019." is a code; "Zugangscode gültig bis Dezember 2025", "kapukód cseréje
# 2025" are not).
_YEAR_GAP = _PREPOSITIONS | {"is", "ist", "är", "er", "je", "jest", "est", "es", "é", "è", "on", "este", "voor", "het"}

# CJK writes a lock's word and its code's glued or a blank apart ("门禁密码", "출입문 비밀번호").
_CJK_LOCKS = (
    "门禁", "門禁", "大门", "门锁", "玄関", "入口", "출입문", "현관", "대문", "도어락", "출입", "공동현관",
    "钥匙", "鑰匙", "保险箱", "保險箱", "キーボックス", "열쇠",  # a key box's, a safe's ("钥匙盒密码9559": reviewer BB)
)  # fmt: skip
_CJK_CODES = ("密码", "密碼", "暗証番号", "비밀번호", "비번")

_STOPS = ".!?;\n"
_CLAUSE_BACK = 48  # characters before a code word read for its lock's word
_WORD = lazy_compile(r"[^\W\d_]+(?:['’ʼ][^\W\d_]+)?")
# The word right before a code word, a colon maybe between ("Sleutelkluis bij de achteringang: code 0458").
_WORD_BEFORE = lazy_compile(r"(?P<word>[^\W\d_]+)[ \t]*:?[ \t]+$")
# A code word is found by its stem (a literal search the engine runs at C speed), then read whole: the word it
# stands in, which ends with one of _CODE_WORDS; what comes before in the word is its compound's first part.
_CODE_STEM = lazy_compile("|".join(sorted({word[:3] for word in _CODE_WORDS}, key=len, reverse=True)))
# ... in ASCII text read from the scan's words (found with the gates' in one pass: the pattern, whose stems start
# with "c", "k", "m" and "s", stopped at most letters of prose).
_ASCII_STEMS = index_words(*(word[:3] for word in _CODE_WORDS if word[:3].isascii()))
_CODE_END = lazy_compile(
    "(?:" + "|".join(re.escape(word) for word in sorted(_CODE_WORDS, key=len, reverse=True)) + r")\Z"
)
_LETTERS_BACK = lazy_compile(r"[^\W\d_]{0,24}\Z")
_LETTERS_ON = lazy_compile(r"[^\W\d_]*")
_LETTER = lazy_compile(r"[^\W\d_]")


def _stems(scan: Scan) -> list[tuple[int, int]]:
    """Where each code word's stem is: what ``_CODE_STEM.finditer`` finds (the leftmost, none inside another)."""
    lower = scan.lower
    if not lower.isascii():
        return [stem.span() for stem in _CODE_STEM.finditer(lower)]
    words = scan.words
    found: list[tuple[int, int]] = []
    end = 0
    for at in sorted(at for stem in _ASCII_STEMS for at in words.get(stem, ())):  # each three letters
        if at >= end:
            end = at + 3
            found.append((at, end))
    return found


def _code_words(scan: Scan) -> Iterator[tuple[int, int, str]]:
    """(start, end, compound's first part) of each word that ends with a code word, in order."""
    lower = scan.lower
    done = 0
    for stem_start, stem_end in _stems(scan):
        if stem_start < done:
            continue
        rest = _LETTERS_ON.match(lower, stem_end)  # always matches, maybe empty
        end = rest.end() if rest is not None else stem_end
        done = end
        back = _LETTERS_BACK.search(lower, max(0, stem_start - 24), stem_start)
        start = back.start() if back is not None else stem_start
        if start and _LETTER.match(lower, start - 1):
            continue  # a longer word than the 24 letters read back
        code = _CODE_END.search(lower, start, end)
        if code is not None and code.end() == end:
            yield start, end, lower[start : code.start()]


# After the code word: at most eight words (a number of one or two digits among them), a colon or "=", the value.
_TO_VALUE = lazy_compile(
    r"(?P<gap>(?:[ \t]+(?:[^\s\d.!?;:=]+|[0-9]{1,2}(?=[ \t])|,)){0,8}?)[ \t]*(?:[:=][ \t]*)?"
    # (or an intercom's flat, its key "К" and the code: "код домофона 789К6432", as the view writes it: reviewer CF)
    r"(?<![^\s:=])(?P<value>[#*]?(?:(?=[0-9a-d]{4})[0-9]{1,6}[a-d]|[0-9]{1,4}k[0-9]{3,6}|[0-9]{3,8}[#*]?)(?![\w]))"
)
# The value ends its clause: the text's or line's end, a stop, a bracket, a quote, or a word that goes on
# to when or what for ("1967 efter kl 18", "2580 etter kl 20", "2468B voor de monsterkluis").
_END = lazy_compile(
    # (blanks possessive, a word after them behind a look-back: two runs side by side were quadratic, an attacker's)
    r"(?=[ \t]*+(?:$|[.,;!?)\]\"'»”」）。，、।\r\n]|-[ \t]|(?<=[ \t])(?:after|then|for|and|efter|etter|och|og|nach|und|"
    r"für|après|puis|pour|et|después|luego|para|y|depois|e|dopo|poi|per|daarna|dan|voor|en|po|potem|dla|i|pro|a|"
    # where: Czech's and Polish's "u" before a title (at someone's: not Croatian's "kod vrata 204 u prizemlju", an
    # attacker's round), Indonesian's "di", Greek's "για" ("kód schránky na klíče 2450 u paní ...", "kode kotak
    # kunci 5748 di rumah ...": reviewer BB), Finnish "at the client's", "the patient's" ("avainsäilön koodi 7817
    # asiakkaalla Aino Mäkinen")
    r"után|és|jälkeen|ja|sonra|ve|setelah|lalu|untuk|sau|rồi|pagkatapos|asiakkaalla|asiakkaan|potilaalla|potilaan|"
    r"u(?=[ \t]+(?:paní|pani|pana|pan|p\.))|"
    r"di(?=[ \t]+(?:rumah|kantor|gedung|pintu|lantai|depan|belakang|samping|gudang|apartemen|kamar))|"
    rf"{'|'.join(viewed_words('για'))})(?![^\W\d_]))"
    r"|(?=[ \t]*[\u0590-\u05ff\u0600-\u06ff\u3040-\u9fff\uac00-\ud7af]))"
)
# Words in the clause that make the number another thing's code (a product's, an error's, a shipment's,
# a postcode, a tax's).
_OTHER_CODE = lazy_compile(
    r"(?:ошибк|помилк|σφάλμα|σφαλμα|foutcode|statuscode|responsecode|virhekoodi|fehlercode|hibakód|chybový)"
    r"|(?<![^\W\d_])(?:error|errors|erreur|erro|fehler|fout|błąd|błędu|bledu|chyba|hiba|virhe|hata|errore|"
    r"status|http|product|produit|produkt|producto|produto|prodotto|article|artikel|artículo|item|sku|model|"
    r"modell|modelo|modello|ship(?:ping|ment)|versand|envío|envio|spedizione|zásilk|przesyłk|zip|post(?:al)?|"
    r"postcode|postleitzahl|tax|steuer|promo|discount|rabatt|coupon|voucher|gutschein|country|land|tariff|hs|"
    r"iata|icao|airport|flight|fault|storing|störung|usterk|porucha|version|versie|build|release|stato|estado|état|"
    r"etat|stan|share|response|risposta|respuesta|resposta|réponse|antwort|exit|return|retour|rückgabe|"
    # one-time codes (codes.py reads them) and OAuth's
    r"otp|totp|tan|tans|sms|2fa|mfa|one-time|unique|usage|verification|verifica|vérification|verificación|"
    r"bestätigung|confirmation|conferma|confirmação|confirmación|login|authori[sz]ation|oauth|flow|"
    # a setting of the code ("Access code TTL 3600": an earlier attacker's round)
    r"ttl|timeout|expiry|expires|lifetime|validity|length|limit|attempts|retries|interval|duration|seconds|"
    r"minutes|digits)"
    r"(?![^\W\d_])"
)
# Before a four-digit value, what makes it a year ("changed in 2019", "seit 2024", "od roku 2023").
_YEAR_BEFORE = lazy_compile(
    r"(?:^|[ \t])(?:in|since|from|until|till|ab|seit|bis|im|jahr|en|depuis|année|desde|año|em|ano|dal|nel|"
    r"anno|sinds|vanaf|sedan|siden|od|roku|rok|roce|óta|ében|vuonna|yılında|năm|tahun|sejak)[ \t]*$"
)

LOCK_WORDS = index_words("cod", "kod", "koodi", "sifre", "msimbo")  # the gate's words among the scan's
_OTHER_MARKS = ("kód", "kωδik", "koд", "קוד", "şifre", "mã", "رمز", "کد", "کوڈ", *_CJK_CODES,
                *viewed_words("कोड", "কোড", "รหัส"))  # fmt: skip


# the phrases the readers below start from, and the other scripts' marks: among the gates' words, found in one pass
_LOCK_PHRASES = index_words("siri ya", "boît", "boitier", "opens with", "unlocks with", " takes ", *_OTHER_MARKS)


def may_hold_lock_code(scan: Scan) -> bool:
    words = scan.words
    return (
        not LOCK_WORDS.isdisjoint(words)
        or not _LOCK_PHRASES.isdisjoint(words)
        or not _SELF_CODED_WORDS.isdisjoint(words)
    )


def _is_lock(word: str) -> bool:
    return (
        word in _LOCK_WORDS
        or any(word.startswith(stem) and len(word) - len(stem) <= _INFLECTION for stem in _LOCK_STEMS)
        or any(stem in word for stem in _COMPOUND_STEMS)
    )


def _beside_a_lock(pre: str, before: str, after: list[str]) -> bool:
    """The code is a lock's: its compound starts with a lock's word ("alarmcode", "portkoden", "toegangscode");
    or, written apart, the word right before it is a lock's ("door code", "riasztó kódja") or the first word
    after it, past prepositions and articles, is ("kod do bramy", "Kód k závoře", "kode akses"). Any other
    word there names whose code it is ("booking code", "kode tiket", "kod rabatowy", "müşteri kodu": an
    attacker's round)."""
    if pre and pre != "ה":  # Hebrew writes its article glued ("הקוד")
        return _is_lock(pre) or pre.startswith(_COMPOUND_FIRST)
    if before and _is_lock(before):
        return True
    boxed = False
    for index, word in enumerate(after):
        if word in _PREPOSITIONS:
            continue
        if word in _BOXES:
            boxed = True
            continue
        if word == "khóa" and after[index + 1 : index + 2] == ["học"]:
            return False  # "mã hộp khóa học": a course's ("khóa học"), not a lock's key (an attacker's round)
        return _is_lock(word) or (boxed and _is_key(word))
    return False


def _is_key(word: str) -> bool:
    return word in _KEY_WORDS or any(
        word.startswith(stem) and len(word) - len(stem) <= _INFLECTION for stem in _KEY_STEMS
    )


# A key box named earlier on the line, with whose it is and where between it and a bare "code" word: "nøgleboks
# hos Poul Jensen, Vestergade 17, 1. tv., 8000 Aarhus C, kode 4829", "sleutelkluis bij mevrouw Tineke Bakker,
# Lindenlaan 23, 3581 GB Utrecht, code 2645", "nyckelgömma hos Sven Berg, Storgatan 5, ..., kod 0311" (reviewer
# BB: a home-care provider's nurses' notes). Only a key box's own word (a box that holds keys), the code word
# alone (no compound, no word between it and the value), and no other thing's code on the way.
_KEY_BOX_WORDS = lazy_compile(
    r"(?<![^\W\d_])(?:nøgleboks|nøkkelboks|nyckelgömma|nyckelbox|nyckelskåp|sleutelkluis|sleutelkastje|lockbox|"
    r"lock box|keybox|key box|key safe|keysafe|schlüsselbox|schlüsseltresor|schlüsselsafe|kulcsdoboz|avainsäilö|"
    r"avainkaappi|boîte à clés|boite à clés|caja de llaves|caixa de chaves|cassetta chiavi|sejf na klucze)"
)
_BOX_BACK = 120  # characters before the code word read for the box
_OPENS_CLAUSE = lazy_compile(r"[,;:][ \t]*$")  # the code word opens its clause


def _box_named_before(lower: str, at: int, pre: str, gap: list[str]) -> bool:
    if pre or gap or not _OPENS_CLAUSE.search(lower, max(0, at - 4), at):
        return False  # "tracking code 12345678", "product code 5400": another thing's code
    start = max(0, at - _BOX_BACK, lower.rfind("\n", 0, at) + 1)
    boxes = list(_KEY_BOX_WORDS.finditer(lower, start, at))
    # The box, then whose or where it is ("nøgleboks hos ...", "sleutelkluis bij ...", "Nøgleboks ved ..."): a bank's
    # lockbox is a service, and its files, deposits and batches have codes ("Lockbox deposit from BofA, code 115": an
    # attacker's round).
    return (
        bool(boxes)
        and _BOX_WHERE.match(lower, boxes[-1].end()) is not None
        and (_OTHER_CODE.search(lower, boxes[-1].end(), at) is None)
    )


# A box of keys: its keys' word is not the key blank's or the product key's that NOT_A_LOCK_CODE refuses
# ("codice della cassetta chiavi 4583", "código da caixa de chaves 2291": reviewer BB).
_BOX_OF_KEYS = lazy_compile(
    r"(?:cassetta|caixa|caja|scatola)[ \t]+(?:(?:delle|de|das|da|di|per)[ \t]+)?(?:chiavi|chaves)"
)
_BOX_WHERE = lazy_compile(
    r"[ \t]+(?:hos|bij|chez|bei|ved|vid|på|at|by|near|next to|beside|am|an der|an|naast|i|in)[ \t]"
)


def _clause_before(lower: str, at: int) -> str:
    start = max(0, at - _CLAUSE_BACK)
    stop = max(lower.rfind(char, start, at) for char in _STOPS)
    return lower[max(start, stop + 1) : at]


def _value_ok(lower: str, start: int, end: int, value: str, gap: list[str]) -> bool:
    """No count after the value; a year's four digits only before a stop, with only a lock's words, prepositions,
    articles and copulas between the code word and them, and no word before them that makes them a year ("Kód
    k závoře 2019." is a code; "changed in 2019", "код домофона 2024", "kapukód cseréje 2025." are not)."""
    if COUNTED.match(lower, end) is not None and _FOR_SOMEONE.match(lower, end) is None:
        return False
    if YEAR.fullmatch(value.strip("#*")) is None:
        return True
    return (
        _YEAR_STOP.match(lower, end) is not None
        and _YEAR_BEFORE.search(lower, max(0, start - 16), start) is None
        and all(word in _YEAR_GAP or _is_lock(word) for word in gap)
    )


# Italian's "per" before a title or a client's word is "for" someone, not "per" a period ("cassetta chiavi 4583
# per la signora Rosa Bianchi": reviewer BB; "2500 per la manutenzione annuale" is a sum: an attacker's round).
_FOR_SOMEONE = lazy_compile(
    r"[ \t]+per[ \t]+(?:(?:la|il|lo|i|gli|le|l')[ \t]+)?(?:signora|signor|sig\.?|sig\.ra|dott\.?|dottoressa|paziente|"
    r"cliente|famiglia|utente|assistit[ao])(?![^\W\d_])"
)
_YEAR_STOP = lazy_compile(r"[.,;!?)](?![0-9])")


def find_lock_codes(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    for word_start, word_end, pre in _code_words(scan):
        tail = _TO_VALUE.match(lower, word_end)
        if tail is None or _END.match(lower, tail.end()) is None:
            continue
        clause = _clause_before(lower, word_start)
        gap = tail["gap"]
        around = f"{clause} {lower[word_start:word_end]} {gap}"
        if _OTHER_CODE.search(around) or NOT_A_LOCK_CODE.search(_BOX_OF_KEYS.sub(" ", around)):
            continue
        gap_words = _WORD.findall(gap)
        before = _WORD_BEFORE.search(lower, max(0, word_start - 40), word_start)
        if not _beside_a_lock(pre, before["word"] if before else "", gap_words) and not _box_named_before(
            lower, word_start, pre, gap_words
        ):
            continue
        start, end = tail.span("value")
        if _value_ok(lower, start, end, tail["value"], gap_words):
            yield "PASSWORD", start, end
    if not lower.isascii():
        yield from _cjk_lock_codes(lower)
    yield from _script_lock_codes(lower)
    if not _SELF_CODED_WORDS.isdisjoint(scan.words):
        yield from _self_coded(lower)
    if "open" in lower or "take" in lower:
        yield from _opened_with(lower)


def _opened_with(lower: str) -> Iterator[Hit]:
    for match in _OPENS_WITH.finditer(lower):
        value = match["value"]
        if YEAR.fullmatch(value) is not None or COUNTED.match(lower, match.end("value")) is not None:
            continue  # "the gate takes 2025", "takes 1500 cars a day"
        if match["verb"] == "takes" and value[-1] not in "#*":
            continue  # what a door takes is a sum or a load as often ("the garage door takes 1800 for the
            # motor": the attacker's round on reviewer BC's readers); a keypad's "#" or "*" says a code
        if _OTHER_CODE.search(match.group()) or NOT_A_LOCK_CODE.search(match.group()):
            continue
        if _END.match(lower, match.end("value")):
            yield "PASSWORD", *match.span("value")


# A gate's or a door's code in scripts whose words for them no reader above knows, as notes in them write it: Urdu
# "گیٹ کا کوڈ *0307", Hindi "गेट का कोड", Bengali "গেটের কোড", Persian "رمز درب پارکینگ 0156*", Thai
# "รหัสประตูหน้าบ้าน #9516", Swahili "Namba ya siri ya geti: 9977*", French "code du boîtier à clés 3618"
# (reviewer BC): the phrase, at most two words of where (a parking's, the front's), maybe a colon, the code
# ending its clause.
_SCRIPT_LOCK_PHRASES = viewed_words(
    "گیٹ کا کوڈ",
    "دروازے کا کوڈ",
    "गेट का कोड",
    "दरवाज़े का कोड",
    "दरवाजे का कोड",
    "গেটের কোড",
    "দরজার কোড",
    "رمز درب",
    "کد درب",
    "รหัสประตู",
    "namba ya siri ya geti",
    "namba ya siri ya mlango",
    "nambari ya siri ya geti",
    "code du boîtier à clés",
    "code du boitier à clés",
    "code de la boîte à clés",
)
_SCRIPT_LOCK = lazy_compile(
    "(?:" + "|".join(re.escape(phrase) for phrase in sorted(_SCRIPT_LOCK_PHRASES, key=len, reverse=True)) + ")"
    r"(?:[ \t]*[^\s\d.,;:!?#*]{1,16}){0,2}?[ \t]*[:：]?[ \t]*(?P<value>[#*]?[0-9]{3,8}[#*]?)(?![\w])"
)


def _script_lock_codes(lower: str) -> Iterator[Hit]:
    # Each phrase whole (a match holds one; their first three letters alone let "code" in any English text through,
    # and the pattern, whose alternatives start with many letters, is tried at every character).
    if not any(phrase in lower for phrase in _SCRIPT_LOCK_PHRASES):
        return
    for match in _SCRIPT_LOCK.finditer(lower):
        value = match["value"]
        if (
            YEAR.fullmatch(value.strip("#*")) is None
            and COUNTED.match(lower, match.end()) is None
            and _END.match(lower, match.end())
        ):
            yield "PASSWORD", *match.span("value")


# A lock that "opens with" or "takes" its code, its place maybe between ("Lockbox at Flat 3, 27 Gorse Road, Leeds
# LS9 6HX opens with 8326; the building door takes 6536#": reviewer BB). Only a lock's word in English (the
# sentence is English's), four to eight digits, the clause's end after them.
_OPENS_WITH = lazy_compile(
    r"(?<![^\W\d_])(?:lockbox|lock box|key ?box|key ?safe|keypad|padlock|door|gate|safe)(?![^\W\d_])"
    r"[^.;!?\n]{0,80}?[ \t](?P<verb>opens with|unlocks with|takes)[ \t]+"  # the verbs may_hold_lock_code knows
    r"(?P<value>#?[0-9]{4,8}[#*]?)(?![\w])"
)


# A lock that is opened by a code, its code right after it with no word for a code ("alarm code 7889, lockbox 6302 on
# side door", "digicode C6004", a French entry code led by its keypad's letter: reviewer CF); a Japanese building's
# auto-lock's release number ("オートロック解除番号 2862"): four to eight digits.
_SELF_CODED = lazy_compile(
    r"(?<![^\W\d_])(?:lockbox|lock box|keybox|key box|keysafe|key safe|digicode|combo lock|combination lock|padlock"
    r"|オートロック(?:解除)?(?:番号|暗証番号)?)(?![^\W\d_])"
    r"[ \t]*+(?:[:=][ \t]*+|(?:は)[ \t]*+)?(?P<value>#?(?:[a-d][0-9]{4,7}|[0-9]{4,8}[#*]?))(?![\w])"
)
# The code ends its clause, or the lock's place follows ("6302 on side door"): not a model's number before what it is
# sold as or where it stands ("padlock 8500 by Abus", "Lockbox 1800 near Aisle 12", "combination lock 4400 for the
# lockers", "Cadenas padlock 2500 en promo": an attacker's round), nor one after an article ("the lock box 5000").
_SELF_CODED_END = lazy_compile(
    r"[ \t]*(?:$|[.,;!?)\]\"'»”」）。，、\r\n])"
    r"|[ \t]+on[ \t]+(?:the[ \t]+)?(?:side|front|back|rear|garage|gate|door|porch|shed|wall|fence|left|right)"
    r"(?![^\W\d_])",
    re.MULTILINE,
)
# ... and only where the code is spoken of: a code's word in the clause before ("alarm code 7889, lockbox 6302"), the
# lock's place after it, a keypad's letter leading it ("digicode C6004") or the number named as the lock's
# ("オートロック解除番号"). A lock's word and a number alone are a product's model or an address as often ("Remit
# payments to ACME Corp, Lockbox 774411, Pittsburgh", "We stock the Abus padlock 8500.", "Intratone digicode 2024.":
# a round of attacks on the README's promises, each a write refused whole).
_CODE_SPOKEN = lazy_compile(r"(?<![^\W\d_])(?:code|codes|pin|combo|combination|access)(?![^\W\d_])")
_CODE_REACH = 48  # characters of the clause before a lock's word read for a code's word
_PLACE_AFTER = lazy_compile(r"[ \t]++on[ \t]")


def _code_spoken_of(lower: str, match: re.Match[str]) -> bool:
    value = match["value"]
    if value[:1].isalpha() or "番号" in match.group() or match.group().startswith(("combo", "combination")):
        return True
    if _PLACE_AFTER.match(lower, match.end("value")) is not None:
        return True
    low = max(0, match.start() - _CODE_REACH)
    stop = max(lower.rfind(mark, low, match.start()) for mark in ".;!?\n")
    return _CODE_SPOKEN.search(lower, max(low, stop + 1), match.start()) is not None


_PRODUCT_BEFORE = lazy_compile(r"(?<![^\W\d_])(?:the|a|an|our|this|that|new|ordered|bought|buy)[ \t]+\Z")
_SELF_CODED_WORDS = index_words("lockbox", "lock box", "keybox", "key box", "keysafe", "key safe", "digicode",
                                "combo lock", "combination lock", "padlock", "オートロック")  # fmt: skip


def _self_coded(lower: str) -> Iterator[Hit]:
    for match in _SELF_CODED.finditer(lower):
        value = match["value"]
        if not _code_spoken_of(lower, match):
            continue
        if _SELF_CODED_END.match(lower, match.end("value")) is None or YEAR.fullmatch(value) is not None:
            continue
        if _PRODUCT_BEFORE.search(lower, max(0, match.start() - 12), match.start()) is not None:
            continue
        if COUNTED.match(lower, match.end("value")) is not None or _OTHER_CODE.search(match.group()):
            continue
        yield "PASSWORD", *match.span("value")


_CJK_VALUE = lazy_compile(r"[ \t]*(?:[:：=][ \t]*|(?:は|是|为|는|은)[ \t]*)?(?P<value>[#*]?[0-9]{3,8}[#*]?)(?![0-9])")


# A year, a count, a sum or a period after the number ("钥匙和密码2024年3月统一更换", "保险箱密码 360 天更换一次",
# "キーボックス暗証番号 365日ごとに更新": an attacker's round).
_CJK_COUNTED = lazy_compile(r"[ \t]*(?:年|天|日|次|元|円|个|個|件|回|度|号|년|일|회|번|원|개)")


def _cjk_lock_codes(lower: str) -> Iterator[Hit]:
    for code in _CJK_CODES:
        at = lower.find(code)
        while at != -1:
            before = lower[max(0, at - 12) : at]
            if any(lock in before for lock in _CJK_LOCKS):
                tail = _CJK_VALUE.match(lower, at + len(code))
                if (
                    tail is not None
                    and _END.match(lower, tail.end()) is not None
                    and not _CJK_COUNTED.match(lower, tail.end())
                ):
                    yield "PASSWORD", *tail.span("value")
            at = lower.find(code, at + len(code))
