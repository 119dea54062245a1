"""Short codes a customer gives away, named by the words around them: a card's security code (CVV, CVC,
CID, "cryptogramme", "Prüfziffer", "セキュリティコード"), and one-time codes (OTP, TAN, BLIK, an SMS, sign-in
or verification code, a passcode, "验证码", "認証コード"), in the languages a bank's, an insurer's and a
hospital's service desks write (reviewer T's blind round: call transcripts, chat logs and fraud notes;
reviewer U's: onboarding notes).

Digits alone are anything; right after such a label they are the code ("CVV 020", "security code (back
of card): 123", "zwei TANs (027276, 251499)", "kod BLIK 321713", "OTP bhi 186068", "Your OTP:" then the
code on the next line), and so are digits an SMS gives before its label ("482913 is your verification
code"), and a one-time code a clause after its label that a verb or a colon ends ("codice OTP per
l'accesso con SPID è 078704": the clause opened by what the code is for or how it came). A card's code
has three or four digits, a one-time code four to eight, maybe in groups ("4829 1357", "48-29-13") or
read out digit by digit.

What stays (two attackers' rounds): a sentence that goes on past the label to something else ("OTP
error 4290", "MFA timeout: 1800", "OTP not received. Ticket 48213", "HOTP/OTP per RFC 4226"): at most
four words between label and code, each a verb, an article, a possessive or how the code came
(_TO_THE_CODE), no sentence punctuation, no count's noun after the code ("1532 ms", "8000 users"); a
year; a test's value ("111111", "123456"); a decimal or a file's name ("cid:image001.png"); "CID", "CSC"
and a check digit without a card's word or number nearby (a disease's code in Brazil, a course's
number, a cell's in a GSM log); a meeting's passcode.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence

from securemem.pii.accounts import MEETING
from securemem.pii.checksums import luhn_valid
from securemem.pii.normalize import as_viewed, normalise_text
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import (
    COUNTED,
    GATE_WORDS,
    WORD_AFTER,
    YEAR,
    Scan,
    a_date,
    a_month,
    index_words,
    year_or_example,
)

Hit = tuple[str, int, int]

_CARD_LABELS = (
    r"cvv2?|cvc2?|cvn|c\.v\.v\.?|csc|cid|card verification (?:value|code|number)|(?:card )?security code|"
    r"sicherheitscode|kartenprüfnummer|prüfziffer|prüfnummer|cryptogramme(?: visuel)?|code de sécurité|"
    r"código de seguridad|código de segurança|codice di sicurezza|kod (?:cvc|cvv|zabezpieczający)|"
    r"(?:three|3|four|4)[ \-]digits?(?: security)? code on the back|(?:three|3|four|4)[ \-]digits? on the back|"
    r"code on the back(?: of the card)?|back code|sec\.? code|código|codigo"
)
# A card's code as a key or an element names it in a payment request, joined by "_", "-" or as one word
# (lower-cased camelCase): "card_cvv", "cardCvc", "cvv_code", "securityCode", Moneris' "cvd_value". In
# an XML element the value follows ">" ("<cvv>3029</cvv>": reviewer AB).
_CARD_KEYS = (
    r"(?:card[_\-]?)?(?:cvv2?|cvc2?|cvn|cv2)(?:[_\-]?(?:code|number|value))?|(?:card[_\-]?)?security[_\-]?code|"
    r"card[_\-]?verification[_\-]?(?:value|code|number)|cvd[_\-]?value"
)
# As an element only, "cardCode" and "cvd": in prose a card code may be a product's, CVD a disease.
_CARD_ELEMENT = rf"<(?:[a-z][\w\-.]*:)?(?:{_CARD_KEYS}|card[_\-]?code|cvd)(?:[ \t][^<>\n]{{0,80}})?>[ \t]*"
# Scripts without spaces between words: no word boundary before the label.
_CARD_LABELS_GLUED = r"セキュリティー?コード|安全码|安全碼|보안 ?코드|رمز الأمان"
# Services that text one-time codes as "Your <name> code is ...".
_SMS_SENDERS = (
    r"amazon|google|microsoft|apple|apple id|facebook|meta|instagram|whatsapp|telegram|signal|viber|wechat|"
    r"snapchat|tiktok|twitter|linkedin|discord|slack|zoom|uber|lyft|bolt|grab|gojek|doordash|deliveroo|"
    r"airbnb|booking\.com|netflix|spotify|steam|epic games|playstation|xbox|nintendo|twitch|reddit|yahoo|"
    r"outlook|hotmail|gmail|icloud|dropbox|github|gitlab|okta|duo|authy|paypal|venmo|cash app|zelle|wise|"
    r"revolut|monzo|n26|starling|chase|coinbase|binance|kraken|robinhood|stripe|shopify|ebay|etsy|"
    r"alibaba|aliexpress|taobao|paytm|phonepe|gpay|tinder|bumble|hinge|yandex|vk|naver|kakao|kakaotalk"
)
# ... or with "of the SIM card" between it and the code ("PUK-код SIM-карты: 84920175", "PUK-код для сім-картки:
# 70318846", "PUK-код вашей SIM-карты: 8492 0175"), the code the clause's last word: not a count, a date or a table's
# cell ("PUK-код SIM-карты — 12480000 просмотров", "PUK-код SIM-карты\t20240312": an attacker's round)
_PUK_CYRILLIC = as_viewed(("пук",))
_SIM_OF = as_viewed(("для", "от", "к", "від", "до", "вашей", "вашої", "вашего", "моей", "моєї", "моего"))
_OF_THE_SIM = (
    rf"[ ]+(?:(?:{_SIM_OF})[ ]+){{0,2}}"
    rf"(?:sim|{as_viewed(('сим', 'сім'))})[ \-]?{as_viewed(('карт',))}[^\W\d_]{{0,3}}"
    r"(?=[ ]?[:\-]?[ ]?(?!(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01]))(?:[0-9]{8}|[0-9]{4} [0-9]{4})"
    r"(?![0-9])(?![ \t]*[^\W\d_]))"
)
_ONE_TIME_LABELS = (
    r"otp|one[ \-]time (?:pass(?:code|word)|code|pin)|(?:push|sms|chip|mobile|photo|app|e|i|m)?tans?|sms-tan|"
    r"blik(?: code)?|(?:verification|validation|confirmation|authentication|sms|text|2fa|mfa|login|log-in|sign-in|"
    r"signin|access|one-time|otp|totp|authenticator|(?:six|6|eight|8)[ \-]digit) code|your code|sms-code|2fa|mfa|"
    # a backup or recovery code of digits ("MFA backup code: 719492", "Backup codes: 719492, 118273": reviewer DD)
    r"(?:backup|recovery) codes?|"
    # An SMS's "Your Amazon code is 839201", "your WhatsApp code: 123-456": a sender that sends such codes
    # named before "code" (a list: "your bank code", "your NACE code", "your colour code" are other codes)
    rf"your (?:{_SMS_SENDERS}) (?:verification |login |security |sign-in |confirmation )?code|"
    # (a SIM's PUK named with its code's word in the note's language: "SIM-kortin PUK-koodi: 33203366": reviewer CU)
    r"security number|passcode|puk2?(?:[ \-](?:koodi|code|kod|kód|kode|koden|código|codice|nummer|nr\.?))?|"
    # (Russian's and Ukrainian's "PUK-код", as the view writes "код", before a PUK's eight digits: not an operator's
    # helpline's short number, "PUK-код — 0500 с мобильного": an attacker's round)
    rf"(?:puk[12]?|{_PUK_CYRILLIC})[ \-]?(?:{as_viewed(('код', 'кода', 'коды'))})"
    rf"(?:(?=[^0-9\n]{{0,8}}[0-9]{{8}}(?![0-9]))|{_OF_THE_SIM})|"
    r"code (?:de (?:validation|vérification|confirmation|connexion)|sms|à usage unique|reçu par sms)|"
    r"código (?:sms|de (?:verificación|verificação|confirmación|confirmação|validación|acceso|acesso))|"
    r"clave (?:dinámica|de un solo uso|sms)|codice (?:otp|sms|di verifica|di conferma)|"
    r"kod (?:blik|sms|weryfikacyjny|autoryzacyjny|potwierdzający)|bestätigungscode|sicherheitsnummer|"
    r"einmalpasswort|einmalcode|doğrulama kodu(?:nuz)?|verificatiecode|код (?:подтверждения|из смс|из sms)|"
    r"tek kullan[ıi]ml[ıi]k şifre(?:niz)?|"  # the view writes Turkish "ı" as "i"
    # Swedish, Norwegian and Danish one-time and security codes ("fick hennes engångskod 914 227",
    # "BankID-säkerhetskod 9731"); the IRS's Identity Protection PIN ("2023 IP PIN from CP01A letter:
    # 482915"); a code de sécurité sent by SMS (reviewer Y)
    r"engångskod(?:en)?|engångslösenord(?:et)?|engangskode(?:n)?|säkerhetskod(?:en)?|sikkerhedskode(?:n)?|"
    r"sikkerhetskode(?:n)?|kod (?:e-)?recepty|"  # Norwegian; a Polish e-prescription's code (reviewer Z)
    r"(?:ip|identity protection) pin|code de sécurité|"
    # Mexico's number-porting PIN, sent by SMS ("recibió su NIP de portabilidad 4314 por SMS": reviewer CU)
    r"nip (?:de|para)(?: la)? portabilidad|nip (?:de|para)(?: la)? portaci[óo]n"
)
# The one-time codes of more languages an SMS is sent in (reviewer AA): Spanish, Portuguese, German,
# French, Italian, Dutch, Turkish, Polish, Czech, Vietnamese, Indonesian and Malay. These labels, those
# of the scripts the view rewrites and the glued ones AA added name a code only where the code ends its
# clause (see _CODE_ENDS_CLAUSE): the counts and sums their languages write after them are many ("код
# подтверждения 1500 клиентам", "确认码 3000 个用户", "رمز التأكيد 5000 ريال": a fresh attacker's round).
_ONE_TIME_LABELS_MORE = (
    r"código de (?:un solo uso|uso único|autenticación|autenticação)|verifizierungscode|anmeldecode|"
    r"code d'authentification|codice (?:di autenticazione|monouso)|bevestigingscode|inlogcode|eenmalige code|"
    r"onay kodu(?:nuz)?|kod jednorazowy|ověřovací kód|jednorázový kód|mã (?:xác thực|xác nhận|xác minh|otp)|"
    r"kode (?:verifikasi|konfirmasi|otp)|kod pengesahan|"
    # Hungarian's and Czech's SMS code, Finnish's text-message, confirmation and one-time codes, Romanian's
    # one-time code ("SMS-kód 567259", "tekstiviestikoodi 998638", "cod unic pentru semnătura electronică
    # 136882": reviewer BB)
    r"sms-kód|sms-kódot|sms-kódom|sms kód|tekstiviestikoodi|tekstiviestikoodin|kertakäyttökoodi|cod sms|codul sms|"
    r"cod otp|cod unic(?= pentru semn)|codul unic(?= pentru semn)"
)


# The one-time codes' labels of scripts the view rewrites, between word boundaries: Russian ("Код
# подтверждения: 5823", the code "код" in its cases), Ukrainian, Greek.
_ONE_TIME_LABELS_OF_SCRIPTS = as_viewed(
    (
        "код подтверждения", "кода подтверждения", "код из смс", "код из sms", "код для входа", "код верификации",
        "проверочный код", "одноразовый код", "одноразовый пароль", "код підтвердження", "одноразовий код",
        "κωδικός επαλήθευσης", "κωδικός μιας χρήσης", "κωδικός sms",
        # Hebrew's one-time code, Arabic's e-signature code ("קוד חד-פעמי לחתימה 179411", "رمز التوقيع
        # الإلكتروني 039102": reviewer BB)
        "קוד חד-פעמי", "קוד חד פעמי", "رمز التوقيع",
    )
)  # fmt: skip
_ONE_TIME_LABELS_GLUED = (
    r"验证码|驗證碼|校验码|动态密码|動態密碼|認証コード|確認コード|ワンタイムパスワード|인증 ?번호|인증 ?코드|"
    r"رمز التحقق|رمز التفعيل|كلمة المرور لمرة واحدة|"  # Arabic: verification, activation code, one-time password
    # Hindi's and Bengali's "OTP", and their "OTP code" ("ओटीपी है ३८४१२०", "है" written "ह" by the view: reviewer W;
    # "আপনার ওটিপি কোড ৪১৩০৫৫": reviewer DE)
    + as_viewed(("ओटीपी कोड", "ওটিপি কোড", "otp कोड", "otp কোড", "ओटीपी", "ওটিপি"))
)
# Reviewer AA's (their codes end their clause, as _ONE_TIME_LABELS_MORE's do): Chinese, Japanese, Korean;
# Arabic confirmation code and "كود", the loanword; Hindi (verification code, one-time password), Thai
# (confirmation code, OTP), Hebrew and Persian (verification code), as the view writes them (marks dropped).
_ONE_TIME_LABELS_GLUED_MORE = (
    r"校驗碼|动态码|動態碼|确认码|確認碼|一次性密码|一次性密碼|認証番号|ワンタイムコード|확인 ?코드|일회용 ?비밀번호|"
    r"رمز التأكيد|كود التحقق|كود التفعيل|"
    + as_viewed(("सत्यापन कोड", "वन टाइम पासवर्ड", "รหัสยืนยัน", "รหัส otp", "קוד אימות", "کد تایید", "کد تأیید"))
)
# Between the label and the code: a quote (JSON's "cvc": "929"), a "*" or a remark in brackets ("CVV*",
# "security code (back of card)"), up to five words with no digit and no sentence punctuation ("code de
# validation reçu par SMS est", "Mã OTP khách đọc qua điện thoại:": reviewer CC), then ":", "=", "#", "(" or a
# dash, or the bracket a heading closes and maybe one of those ("[OTP] 4829", "【認証コード】194313", "(OTP): 4829",
# "〔認証コード〕194313": reviewer AC and its attacker; see _heading_ends); or ":" and the code on the next line.
_GAP = (
    r"[\"']?(?:[ \t]*\*)?(?:[ \t]*\([^()\n]{1,24}\))?"
    r"(?:[ \t]*(?:no\.|nr\.|#))?"
    r"(?P<words>(?:[ \t]+[^\W\d_][^\s\d.,;!?()\[\]{}=:]{0,15}){0,5})"
    r"(?:[ \t]*(?:[:=(#→\[]|-{1,2}|(?P<shut>[\]】」』)〕〉》])(?:[ \t]*(?:[:=#→]|-{1,2}))?)"
    r"[ \t]{0,8}(?:\r?\n[ \t]{0,8}){0,2}"
    r"|[ \t]{1,8}|[ \t]*\r?\n[ \t]{0,8})[\"']?"
)
# Scripts without spaces: a particle may join the label to the code ("验证码是482913", "認証コードは482913").
# Or words: Arabic's "الخاص بك هو" (yours is) and "الذي وصلني هو" (that reached me is: reviewer CC), Hindi's
# "है" (is), Thai's "ของคุณคือ" (yours is: "ของคณคอ" as the view writes it), Persian's "شما" (your).
_GLUED_GAP = (
    r"(?:[是为為は는은이가]|で)?[ \t]*(?:(?:الخاص|بك|هو|هي|الذي|التي|وصلني|وصلك|وصل|है|ह|ของคณ|คอ|شما)[ \t]*){0,3}"
    r"(?:[:=\[]|\uff1a|(?P<gshut>[\]】」』)〕〉》]))?[ \t]*"
)
# (CJK may follow: "認証コードは482913です".)
_END = r"(?![0-9A-Za-z_\u00c0-\u024f\-/:@]|[.,][0-9]|\.[^\W\d_])"
# After a label of those scripts a full stop and a letter of them start the next sentence ("验证码 297978。登录
# IP ...": the view writes "。" as "."; reviewer AD); a Latin letter after a stop makes a file's name.
# After a label of those scripts a comma and a digit start the next clause ("您的验证码是962403，5分钟内有效":
# the view reads the fullwidth comma as ","): Chinese and Japanese write a decimal with a point, and a
# thousands' comma has three digits before it at most, never the four to eight of a code.
_GLUED_END = r"(?![0-9A-Za-z_\u00c0-\u024f\-/:@]|\.[0-9]|\.[A-Za-z\u00c0-\u024f])"
_CARD_CODE = lazy_compile(
    rf"(?:(?<![\w\-])(?:{_CARD_LABELS}|(?P<key>{_CARD_KEYS}))(?![^\W\d_]){_GAP}|(?P<glued>{_CARD_LABELS_GLUED}){_GLUED_GAP}"
    rf"|(?P<element>{_CARD_ELEMENT}))"
    rf"(?P<value>[0-9]{{3,4}}|[0-9](?:[ \-][0-9]){{2,3}})(?(glued){_GLUED_END}|{_END})(?! [0-9])"
    r"(?(element)(?=[ \t]*</))"  # an element's code is all its text
)
_ONE_TIME_VALUE = (
    # six digits or more one by one with dots between ("OTP 3.8.2.8.3.5": reviewer AH; "OTP 2.4.1" is a version)
    r"[0-9](?:\.[0-9]){5,7}(?![0-9])|"
    r"[0-9]{4}[ \-][0-9]{4}|[0-9]{4,8}|[0-9]{3}[ \-][0-9]{3}|[0-9]{2}(?:[ \-][0-9]{2}){2,3}|[0-9](?:[ \-][0-9]){3,7}"
)
_ONE_TIME_CODE = lazy_compile(
    rf"(?:(?<![\w])(?:{_ONE_TIME_LABELS}|(?P<more>{_ONE_TIME_LABELS_MORE}|{_ONE_TIME_LABELS_OF_SCRIPTS}))"
    rf"(?![^\W\d_]){_GAP}"
    rf"|(?P<glued>{_ONE_TIME_LABELS_GLUED}|(?P<glued_more>{_ONE_TIME_LABELS_GLUED_MORE})){_GLUED_GAP})"
    rf"(?P<value>{_ONE_TIME_VALUE})(?(glued){_GLUED_END}|{_END})"
)
# Where a code after one of AA's labels ends: the text's or the line's end, or a stop, a comma, a colon,
# a question or exclamation mark, a closing bracket or quote ("Код подтверждения: 5823. Никому не
# сообщайте", "验证码是962403，5分钟内有效"; the view writes fullwidth punctuation as ASCII), or the
# verb or polite particle that ends a sentence of a language that puts it last (Hindi "है", Japanese
# "です", Korean "입니다", Thai "ค่ะ" and "ครับ").
_CODE_ENDS_CLAUSE = lazy_compile(
    # (blanks possessive, a word after them behind a look-back: two runs side by side were quadratic, an attacker's)
    r"[ \t]*+(?:$|\r?\n|[.,;:!?)\]}\"'»。、」』】·؛،]|"
    rf"(?:{as_viewed(('है', 'ค่ะ', 'ครับ'))}|です|입니다)(?![^\W\d_])"
    r"|(?<=[ \t])volt[ \t]*+(?:$|[.,;!?])"  # Hungarian's "was", last in its clause ("Az SMS-kódom 567259 volt.")
    # Russian's "came" ("код из СМС 9563 пришёл на ...": reviewer BB)
    rf"|(?<=[ \t]){as_viewed(('пришёл', 'пришел', 'пришла', 'пришло'))}(?![^\W\d_])"
    # Greek's "and" opens the next clause ("ο κωδικός SMS ήταν 117201 και ήρθε στο ...": reviewer BB); not before a
    # number or "above" ("κωδικός sms 4500 και άνω"), nor in other languages, whose "and" leads to thresholds and
    # errors as often ("Onay kodu 1500 ve üzeri", "Verifizierungscode 4040 und Timeout": two attackers' rounds)
    rf"|(?<=[ \t]){as_viewed(('και',))}[ \t]++(?![0-9]|{as_viewed(('άνω', 'πάνω', 'περισσότερ'))}))"
)
_ERROR_AFTER = lazy_compile(
    r"[^\n.!?]{0,12}?(?<![^\W\d_])(?:error|errors|erreur|eroare|errore|fehler|fout|błąd|chyba|hiba|virhe|hata|lỗi|"
    + as_viewed(("ошибка", "помилка", "σφάλμα", "שגיאה", "خطأ"))
    + ")"
)
# A count or a sum after a number in Thai: baht, times, people, items (as the view writes them).
_THAI_COUNTED = lazy_compile("[ \t]*(?:" + as_viewed(("บาท", "ครั้ง", "คน", "ราย", "ตัว", "รายการ")) + ")")
# Years of the calendars of those labels' languages, not codes: the Solar Hijri (Persian: 1403) and the
# Buddhist era (Thai: 2567), around the present.
_OTHER_CALENDARS = lazy_compile(r"13[6-9][0-9]|14[0-2][0-9]|25[4-9][0-9]")
# A one-time code a clause after its label, which a verb or a colon ends: "Il tuo codice OTP per l'accesso
# con SPID è 078704", "Die TAN für die Überweisung an ... über 1.250,00 EUR lautet 565591", "eine pushTAN
# bekommen, die ich nicht angefordert habe: 844703" (reviewers T and V). The clause stays in its sentence
# (no ".", "!", "?", ";" or line break; a dot only inside an amount), names no setting (_SETTING_WORDS)
# and no meeting, and its first word says what the code is for or how it came (_CLAUSE_OPENERS): a noun
# there makes the label part of another thing's name ("OTP vendor contract", "TAN list", "MFA enrolment").
_CLAUSE_CODE = lazy_compile(
    rf"(?<![\w])(?:{_ONE_TIME_LABELS})(?![^\W\d_])"
    r"(?P<clause>(?:[^\n.!?;:]|(?<=[0-9])\.(?=[0-9])){4,80}?)"
    # "is" in Tagalog and Vietnamese too ("Ang OTP niyo po para sa member portal ay 188157": reviewer AZ)
    r"(?:[ \t]+(?:is|was|è|lautet|ist|est|es|é|wynosi|era|war|ay|là|adalah|är|er)|[ \t]*:)[ \t]+"
    rf"(?P<value>{_ONE_TIME_VALUE}){_END}"
)
_SETTING_WORDS = lazy_compile(
    r"(?<![^\W\d_])(?:limit|timeout|ttl|length|lifetime|expiry|expires|validity|window|rate|count|attempts?|"
    r"retries|max|maximum|min|minimum|interval|port|error|status|version|size|digits|failures|requests|id|"
    r"ticket|case|setting|config|default|seconds|minutes|code 2fa|range|between|day|daily|week|month|year|"
    r"hour|tenant|users?|team|staff|customers?|accounts?|company|companies|aziende|average|total|volume|limits?|"
    r"quota|price|cost|fee|prefix|country|pack|package|bundle|plan|bulk|"
    # Nordic, Vietnamese and Tagalog counts, prices, periods and audiences ("Antal OTP för kvartalet är 48213",
    # "OTP til erhvervskunder er 2500", "Số OTP được gửi thành công là 9921": an attacker's round)
    r"antal|antall|totalt|kostnad|pris|belopp|beløp|beløb|referensnummer|uke|uge|vecka|månad|måned|kvartal|"
    r"kvartalet|kunder|kunderna|brukere|användare|alla|alle|klart|leverantörer|bestillinger|erhvervskunder|"
    r"utlandet|udlandet|tổng|số|tháng|tuần|quý|năm|hôm nay|lần|khách|thành công|bilang|ilang|beses|buwan|"
    r"linggo|taon|araw|ngayong)(?![^\W\d_])"
)
# Before a one-time code's label, a word that counts them ("Antal skickade OTP för mars: 18342", "Tổng OTP đã
# gửi hôm nay: 12500", "Ilang OTP ko na ang nagamit": an attacker's round).
_COUNTED_BEFORE = lazy_compile(
    r"(?<![^\W\d_])(?:antal|antall|tổng|số|bilang|ilang|total|number of|count of|anzahl|nombre de|número de|"
    r"numero di|liczba|počet)(?![^\W\d_])[^.!?;\n]{0,24}$"
)
# The view writes a dash "–" as "-"; a bracket opens a remark ("734219 (expired now)"), not a count's "(2 attempts)".
_CLAUSE_END = lazy_compile(r"[ \t]*(?:$|[.,;!?)\]\"'—–\n]|-(?=[ \t])|\((?![0-9]))")
# Hindi's "sent", "received", "came" (as the view writes them: "OTP भेजा गया, ग्राहक ने बताया: 366404", reviewer DD),
# before a clause with no number of its own (not "OTP भेजा गया, 5000 ग्राहकों को: 12000", a count)
_HINDI_OPENERS = frozenset(normalise_text(word).lower() for word in ("भेजा", "भेजी", "मिला", "मिली", "प्राप्त", "आया"))
_CLAUSE_OPENERS = frozenset(
    {
        "for", "to", "that", "which", "they", "you", "i", "we", "he", "she", "per", "für", "fuer", "zur", "zum",
        "die", "der", "das", "den", "dem", "ich", "du", "sie", "pour", "que", "qui", "je", "tu", "on", "para",
        "por", "do", "da", "de", "di", "del", "della", "dla", "che", "yo", "ele", "ela", "received", "sent",
        "texted", "bekommen", "erhalten", "reçu", "reçue", "recibido", "recebido", "ricevuto", "inviato", "got",
        "gesendet", "envoyé", "otrzymany", "wysłany", "from", "vom", "von", "aus",
        # Nordic "for", Vietnamese "was (sent)", Tagalog "your" (reviewer AZ: "Engångskod till lönebeskedet:
        # 169474", "Mã OTP đã gửi: 183861", "Ang OTP niyo po para sa ...")
        "till", "för", "til", "đã", "được", "niyo", "ninyo", "mo", "ko",
    }
    | _HINDI_OPENERS
)  # fmt: skip
# The SMS's own form, the code first: "482913 is your verification code", "G-482913 is your Google
# verification code", "482913 est votre code", "123 is my CVV".
_CODE_FIRST = lazy_compile(
    r"(?:g-)?(?P<value>[0-9]{4,8})[ \t]+(?:is your|is the|est votre|es tu|é o seu|ist dein|ist ihr)[ \t]+"
    r"(?:[^\s\d.,;!?]{1,20}[ \t]+){0,3}?(?:code|otp|pin|passcode|password|código|codice|kod)\b"
    r"|(?P<card>[0-9]{3,4})[ \t]+is[ \t]+(?:my|the|his|her)[ \t]+(?:cvv2?|cvc2?|security code)\b"
    # Italian's, Portuguese's other form and Dutch's, with six digits or more, maybe in bold ("*508265* è il
    # tuo codice di verifica": reviewer AN; not a year, "Vanaf 1 januari 2026 is je oude pin ...": an
    # attacker's round)
    r"|(?P<sms>[0-9]{6,8})\*{0,2}[ \t]+(?:è il tuo|è il suo|è il vostro|é o teu|is je|is uw)[ \t]+"
    r"(?:[^\s\d.,;!?]{1,20}[ \t]+){0,3}?(?:code|codice|código|pin|verificatiecode)\b"
)
# The words that may stand between a label and its code: a verb, an article or a possessive, how the
# code came ("code de validation reçu par SMS est 504616", "OTP bhi 186068", "kod BLIK to 321713"). Any
# other word leads elsewhere: to a count, a setting or a reference ("OTP error 4290", "MFA timeout 1800",
# "Confirmation code sent to 1500 users", "CVV failures 1203").
_TO_THE_CODE = frozenset(
    {
        "is", "was", "are", "were", "be", "it", "it's", "its", "my", "your", "his", "her", "their", "our", "the",
        "a", "an", "new", "received", "via", "by", "sms", "text", "email", "mail", "code", "number",
        "no", "nr", "de", "du", "la", "le", "el", "da", "do", "o", "est", "es", "é", "ist", "lautet", "war",
        "hai", "bhi", "hain", "to", "jest", "wynosi", "è", "era", "reçu", "reçue", "recibido", "recebido",
        "ricevuto", "erhalten", "par", "por", "con", "mit", "que", "ha", "got", "have", "has", "here",
        "this", "one-time", "only", "now", "again", "ora", "agora", "ahora", "jetzt", "des", "del", "il", "su",
        "seu", "sua", "votre", "ton", "ta", "tu", "dein", "deine", "ihr", "ihre", "mój", "twój", "twoj", "moj",
        "card", "carte", "tarjeta", "karte", "cartão", "on", "back", "of", "then", "and", "also", "blik", "as",
        "als", "comme", "como", "slowly", "out", "aloud", "twice", "sent", "enviado", "enviada", "envoyé",
        "gesendet", "inviato", "wysłany", "per", "aaya", "aayi", "aya", "ayi", "mila", "mili",
        "aa", "gaya", "gayi", "bheja", "tha", "thi",
        # where it came from ("TAN aus SMS: 116686", "the code from the app is ...": reviewer AD)
        "aus", "from", "von", "vom", "der", "die", "das", "dem",
        # Vietnamese, Indonesian, Malay and Czech "is" and "your": "Mã xác thực của bạn là 482913", "Kode OTP
        # Anda adalah 482913", "Váš ověřovací kód je 482913"
        "là", "của", "bạn", "adalah", "ialah", "anda", "kamu", "je", "váš", "vaš",
        # Italian banks' "OTP dispositivo", the code that signs a payment (reviewer AE); German "kam an"
        # (came: "SMS-TAN kam an: 583 119", reviewer AG)
        "dispositivo", "dispositiva", "kam", "kamen", "angekommen",
        *(normalise_text(word).lower() for word in ("ήταν",)),
        "primit", "primită", "primita",  # Romanian: received ("Codul SMS primit: 136882": an attacker's round)
        "vừa", "gửi", "đã", "được", "mới",  # Vietnamese "just sent" ("mã OTP vừa gửi: 279069": reviewer BC)
        # ... and "the customer read over the phone" ("Mã OTP khách đọc qua điện thoại: 503740": reviewer CC; not
        # English's, which lead to a short code's or an extension's number as often: an attacker's round)
        "khách", "hàng", "đọc", "qua", "điện", "thoại",
        "nhận", "giao",  # "to receive the goods", delivery's ("Mã OTP nhận hàng 086029": reviewer CF)
        # Russian "from the SMS" ("код из СМС 9563 пришёл на ...": reviewer BB)
        *(normalise_text(word).lower() for word in ("из", "смс", "sms-ки")),
    }
)  # fmt: skip
_CARD_NEARBY = lazy_compile(
    r"(?<![^\W\d_])(?:card|amex|american express|visa|mastercard|carte bancaire|carte bleue|tarjeta|kreditkarte|"
    r"kartennummer|karte|carte|cartão de (?:crédito|débito)|carta di credito|karta)(?![^\W\d_])"
)
_CARD_DIGITS = lazy_compile(r"[0-9](?:[ \-.]?[0-9]){12,18}")
_NOT_A_CARD = lazy_compile(r"(?<![^\W\d_])(?:lac|mcc|mnc|gsm|lte|cell id|sim)(?![^\W\d_])")
# Other things' codes too: a disease's (Brazil's CID), a course's, a cell's (GSM's CID); a check digit; a
# product's or a place's "código" (a card's only next to a card: "validade 11/27 código 604", reviewer W).
_NEEDS_CARD = ("cid", "csc", "prüfziffer", "prüfnummer", "back code", "sec code", "sec. code", "código", "codigo")
# ... and these a card's number, not its word alone ("Tarjeta gráfica RTX 4070, código 4070").
_NEEDS_CARD_NUMBER = ("back code", "sec code", "sec. code", "código", "codigo")
_CARD_BACK = 160  # characters before a "CID" or "CSC" read for a card
# More codes after the first: "TANs (027276, 251499)", "OTP 4411 and 9921".
_MORE = lazy_compile(rf"[ \t]*(?:,|;|/|and|und|et|y|e|i|oraz)[ \t]*(?P<value>[0-9]{{4,8}}){_END}")
_MORE_CODES = 8
_BRIDGE_BACK = 160  # characters before a passcode read for a meeting's words

# A word of each label (of several, one word that some of them share: "code" for "passcode", "SMS
# code" and "verification code"): a run of digits whose last _REACH characters hold none has no label
# before it.
_MARKS_ASCII = (
    "cvv", "cvc", "c.v.v", "cvn", "csc", " cid", "\ncid", "\"cid", "(cid", "verification", "security", "crypto",
    "seguridad", "sicurezza", "kod", "the back", "otp", "one-time", "one time", "tan", "blik", "code", "sms", "cvd",
    "cv2",
    "codice", "2fa", "mfa", "puk", "clave", "einmal", "ip pin", "protection pin", "koodi", "cod ", "codul",
    "nip de port", "nip para",
)  # fmt: skip
_MARKS = (
    *_MARKS_ASCII, "sicherheit", "prüf", "sécurité", "segurança", "código", "コード", "码", "碼", "密碼",
    "密码", "번호", "코드", "ワンタイム", "رمز", "كلمة", "kullan", "ओटीपी", "ওটিপি", "kód", "mã", "番号", "كود", "קוד",
    "کد",
    # the words of the labels the view rewrites, as it writes them ("код" reads "koд")
    *{normalise_text(word).lower() for word in ("код", "пароль", "κωδικ", "कोड", "पासवर्ड", "รหัส")},
)  # fmt: skip
# Three digits, maybe read out one by one: what every code holds (most notes have none; the patterns
# read only the windows that end at such digits and start _REACH characters before them). Found in the
# scan's canonical copy (digits "0", separators "-"): a pattern led by a literal skips at C speed.
_DIGITS = lazy_compile(rb"0(?:0|-0)-?0")
_DIGITS_ON = lazy_compile(r"[0-9 \-]*")
# From a match's start to its code: a label (40 characters at most), a quote, a "*", "no." and a remark in
# brackets (32), four words (64), the operator, blanks and two line breaks (30), a quote: 170.
_REACH = 192


# The words of _MARKS led by a letter or a digit, found with the gates' words in their one pass (a substring
# search each cost a line of numbers most of its scan, an index of their own a pass of its own); the others
# (" cid", "(cid" ...) hold "cid", which is one of them.
index_words("cid")
_INDEXED_MARKS = index_words(*(mark for mark in _MARKS if mark.isascii() and mark[:1].isalnum()))


_CID_MARKS = tuple(mark for mark in _MARKS if mark.isascii() and mark not in _INDEXED_MARKS)  # " cid", "(cid" ...
_CID_LEADS = "".join(mark[0] for mark in _CID_MARKS)
_INDEXED_ASCII_MARKS = _INDEXED_MARKS.intersection(_MARKS_ASCII)
_OTHER_MARKS = tuple(mark for mark in _MARKS if not mark.isascii())


def _marks_in(lower: str, found: dict[str, list[int]]) -> list[str]:
    """The words of _MARKS in ``lower`` (in no order): what a substring search for each finds; ``found``: the
    gates' words in ``lower``."""
    marks = [mark for mark in found if mark in _INDEXED_MARKS]  # "cid" alone is none
    if "cid" in found:
        marks += [mark for mark in _CID_MARKS if mark in lower]
    if not lower.isascii():
        marks += [mark for mark in _OTHER_MARKS if mark in lower]
    return marks


def _windows(
    lower: str, runs: list[re.Match[bytes]], found: dict[str, list[int]] | None = None
) -> list[tuple[int, int]]:
    """Where a code may be: from _REACH characters before each run of digits whose window holds a
    label's word to two characters after the run (what the patterns' look-ahead reads), merged where
    they meet. A match there is a match of a pass over the whole text, and each match of that pass is
    in one: its code is such a run, its label's word in the characters before. ``found``: the gates' words
    in ``lower`` (Scan.words), found here if not given."""
    if found is None:
        found = GATE_WORDS.find(lower)
    if lower.isascii():
        return _ascii_windows(lower, runs, found)
    marks: Sequence[str] = _MARKS
    if len(runs) * _REACH >= len(lower):
        # Runs close together (a short line of numbers): the words looked for once in the whole text.
        marks = _marks_in(lower, found)
        if not marks:
            return []
    windows: list[tuple[int, int]] = []
    for digits in runs:
        begin = max(0, digits.start() - _REACH)
        before = lower[begin : digits.start()]
        if any(mark in before for mark in marks) or (begin == 0 and before.startswith("cid")):
            _add_window(windows, lower, begin, digits)
    return windows


def _add_window(windows: list[tuple[int, int]], lower: str, begin: int, digits: re.Match[bytes]) -> None:
    """The window from ``begin`` to two characters past the run of ``digits``, merged with the last where they meet."""
    end = _DIGITS_ON.match(lower, digits.end()).end()  # type: ignore[union-attr]  # matches the empty string
    if windows and begin <= windows[-1][1]:
        windows[-1] = (windows[-1][0], min(len(lower), end + 2))
    else:
        windows.append((begin, min(len(lower), end + 2)))


def _ascii_windows(lower: str, runs: list[re.Match[bytes]], found: dict[str, list[int]]) -> list[tuple[int, int]]:
    """_windows of an ASCII text, whose marks are all among the gates' words (``found``): a run's window is one
    where a mark ends at or before the run and starts at or after the window's beginning (where a substring
    search of the characters before the run, one per mark and run, found it)."""
    dense = len(runs) * _REACH >= len(lower)  # as _windows: then every mark of _MARKS in ASCII, else _MARKS_ASCII's
    marks = _INDEXED_MARKS if dense else _INDEXED_ASCII_MARKS
    spans = [(at, at + len(mark)) for mark, places in found.items() if mark in marks for at in places]
    cid = found.get("cid", [])
    spans += [(at - 1, at + 3) for at in cid if at and lower[at - 1] in _CID_LEADS]  # " cid", "(cid" ...
    if not spans and dense:
        return []  # a short line of numbers and no mark
    cid_first = bool(cid) and cid[0] == 0
    spans.sort()
    firsts = [first for first, _ in spans]
    windows: list[tuple[int, int]] = []
    for digits in runs:
        begin = max(0, digits.start() - _REACH)
        start = digits.start()
        # the marks that start in the window's characters before the run (bisected: a long text holds many)
        at = bisect_left(firsts, begin)
        marked = False
        while at < len(spans) and spans[at][0] < start:
            if spans[at][1] <= start:
                marked = True
                break
            at += 1
        if marked or (begin == 0 and cid_first and start >= 3):
            _add_window(windows, lower, begin, digits)
    return windows


def find_codes(scan: Scan) -> Iterator[Hit]:
    runs = list(_DIGITS.finditer(scan.canonical))
    if not runs:
        return
    lower, text = scan.lower, scan.text
    windows = _windows(lower, runs, scan.words)
    for match in _in_windows(_CARD_CODE, lower, windows):
        if _to_the_code(lower, match) and _card_code(lower, match) and _heading_ends(lower, match):
            yield "GENERIC_SECRET", *match.span("value")
    yield from _one_time_codes(text, lower, windows)
    for match in _in_windows(_CLAUSE_CODE, lower, windows):
        if _clause_code(text, lower, match) and (
            not lower.startswith(("backup", "recovery"), match.start()) or _kept_code(lower, match)
        ):
            yield "GENERIC_SECRET", *match.span("value")
    for match in _in_windows(_BARE_CODE, lower, windows):
        if _bare_code(lower, match):
            yield "GENERIC_SECRET", *match.span("value")
    yield from _instructed_and_keyed(lower, windows)
    yield from _codes_first(lower, runs)
    if "your" in lower and ("share" in lower or "expire" in lower or "valid" in lower):
        # the whole text: the warning after the code is past the windows' ends
        for match in _SENDERS_CODE.finditer(lower):
            sender = text[match.start("sender") : match.end("sender")].split()
            if all(word[:1].isupper() or word[:1].isdigit() for word in sender) and not year_or_example(
                match["value"].replace(" ", "").replace("-", "")
            ):
                yield "GENERIC_SECRET", *match.span("value")


# An SMS's "Your <sender> code is 906978. Don't share it." from any sender (reviewer CC: "Your Fibernet Nord code
# is ...", a telecom's): the warning or the minutes it expires in after it say it is a one-time code ("your zip
# code is 94107. It is valid for shipping" says neither).
# Not a code of another kind ("Your promo / discount / zip / table / parking code is ...", shared on purpose: an
# attacker's round), its sender named in capitals as a brand is ("Your Fibernet Nord code"; not "Your happy hour code",
# "Your Kahoot game code": a second round), and the warning is about the code and ends with it ("don't share it", "...
# with anyone"; not "share it with friends!", "don't share it outside your class") or gives its minutes ("expires in
# 10 minutes"; not "valid for 48 hours").
_OTHER_CODES = (
    r"promo|promotional|discount|coupon|voucher|gift|referral|invite|invitation|reward|rewards|zip|postal|post|area|"
    r"country|table|booking|reservation|parking|zone|product|tracking|order|access|door|gate|wifi|wi-fi|event|ticket|"
    r"color|colour|class|course|seat|room|locker|promotion|offer|deal|sale|redemption|activation|unlock|pairing"
)
# (The look-behind after "your", not before it: a pattern that starts with a word is searched for it, one that
# starts with a look-behind is tried at every character.)
_SENDERS_CODE = lazy_compile(
    rf"your(?<![^\W\d_]your)[ \t]+(?P<sender>(?:(?!(?:{_OTHER_CODES})[ \t])[^\W\d_][\w&'.\-]*[ \t]+){{1,4}})code"
    r"(?:[ \t]+is|[ \t]*:)"
    r"[ \t]*(?P<value>[0-9]{4,8}|[0-9]{3}[ \-][0-9]{3})(?![\w])[ \t]*[.,!\-–]?[ \t]*"
    r"(?=(?:please[ \t]+)?(?:don['’]?t|do not|never)[ \t]+share[ \t]+(?:it|this|the code|your code)"
    r"(?:[ \t]+with[ \t]+anyone)?[ \t]*(?:[.!\"]|$)"
    r"|(?:it[ \t]+)?(?:expires|is valid|valid)[ \t]+(?:in|for)[ \t]+[0-9]{1,2}[ \t]*(?:min|mins|minutes|m)(?![^\W\d_]))"
)


# A remark in brackets after a code given after a colon ("Mã OTP khách đọc qua điện thoại: 503740 (đã hết hạn)":
# reviewer CC); not after a count a label names with no colon ("Codul SMS 3000 (clienți afectați)", "Onay kodu 1500
# (yeni müşteri kampanyası)": an attacker's round).
_REMARK_AFTER_CODE = lazy_compile(r"[ \t]*[(\[](?![ \t]*[0-9])")


def _remarked(lower: str, match: re.Match[str]) -> bool:
    return (
        ":" in lower[match.start() : match.start("value")]
        and _REMARK_AFTER_CODE.match(lower, match.end("value")) is not None
    )


_FILE_AFTER = lazy_compile(r"(?:[ \t]*,[ \t]*[0-9\-]+)*\.[a-z]{2,4}(?![^\W\d_])")
# ... right after its label, an aside in brackets at most ("MFA backup code (spaced): 719 492"; not "Backup codes for
# the helpdesk hours: 0900-1700", a clause that says the digits are something else)
_RIGHT_AFTER = lazy_compile(r"(?:backup|recovery) codes?[ \t]*(?:\([^()\n]{0,24}\))?[ \t]*(?:[:=#]|is|are)?[ \t]*")


def _kept_code(lower: str, match: re.Match[str]) -> bool:
    """A backup or a recovery code of digits right after its label, of six digits (as services print them; four or
    five are a backup job's status, a cost or a disaster recovery's charge code: "Veeam backup code 4501", "Cost
    recovery code: 81230", an attacker's round), ending its clause, not a date nor the start of a file's name."""
    digits = match["value"].replace(" ", "").replace("-", "")
    return (
        len(digits) == _BACKUP_DIGITS
        and _RIGHT_AFTER.fullmatch(lower, match.start(), match.start("value")) is not None
        and _CODE_ENDS_CLAUSE.match(lower, match.end("value")) is not None
        and _FILE_AFTER.match(lower, match.end("value")) is None
        and _NOT_A_USERS_CODE.search(lower, max(0, match.start() - _BRIDGE_BACK), match.start()) is None
    )


_BACKUP_DIGITS = 6
# A backup's or a recovery's code of a thing, not an account's: a job's, a device's, a cost's, a disaster's
_NOT_A_USERS_CODE = lazy_compile(
    r"(?<![^\W\d_])(?:cost|disaster|dr|veeam|synology|acronis|commvault|job|jobs|nas|tape|drive|disk|excavator|dell|"
    r"bios|uefi|salvage|charge|timesheets?|ledger|gl)(?![^\W\d_])"
)


def _one_time_codes(text: str, lower: str, windows: list[tuple[int, int]]) -> Iterator[Hit]:
    """Codes after a one-time code's label ("OTP 482913", "TANs (027276, 251499)")."""
    for match in _in_windows(_ONE_TIME_CODE, lower, windows):
        if not _to_the_code(lower, match) or not _heading_ends(lower, match):
            continue
        # Thai's "รหัส OTP" holds "OTP", a label alone, which needs no end of clause ("ลูกค้าส่งรหัส OTP ๕๓๔๕๘๑
        # มาในแชท": Thai writes no punctuation; reviewer AH)
        thai_otp = (
            match["glued_more"] is not None
            and "otp" in match["glued_more"]
            and len(match["value"]) == 6
            and _THAI_COUNTED.match(lower, match.end("value")) is None
        )
        if (match["more"] is not None or match["glued_more"] is not None) and (
            (
                _CODE_ENDS_CLAUSE.match(lower, match.end("value")) is None
                and not thai_otp
                and not _remarked(lower, match)
            )
            or _OTHER_CALENDARS.fullmatch(match["value"])
        ):
            continue
        if lower.startswith("tan", match.start()) and not text.startswith("TAN", match.start()):
            continue  # "Mr Tan 5551234": a name; the code is written "TAN"
        if _ERROR_AFTER.match(lower, match.end()):
            continue  # "Codul SMS 5003, eroare de operator.": an error's code (an attacker's round)
        if MEETING.search(lower, max(_line_start(lower, match.start()), match.start() - _BRIDGE_BACK), match.start()):
            continue  # "Bridge passcode 67474796": a meeting's, anyone's who is invited
        if lower.startswith(("backup", "recovery"), match.start()) and not _kept_code(lower, match):
            continue  # "backup code: 20240315" (a date), "backup codes: 9921-3557, 7601-4327.txt" (a file's name)
        yield "GENERIC_SECRET", *match.span("value")
        end = match.end()
        for _ in range(_MORE_CODES):
            more = _MORE.match(lower, end)
            if more is None or YEAR.fullmatch(more["value"]) or COUNTED.match(lower, more.end()):
                break
            yield "GENERIC_SECRET", *more.span("value")
            end = more.end()


# "Code" alone names any code ("error code", "zip code", "the code is 200 lines"); in a text that says how
# a one-time code came or what it opens it names that one: "the code it sent me was 898907" after "my 2FA
# isn't working", 'Parent texted back: "code is 481927"', "ya llegó, el código es 965638", "Er hat den Code
# 941845 und sein Kennwort" in a phishing report, "code: ⁴⁶⁵¹²⁰ ← from the SMS" (reviewers AD, AG, AH). The
# word before "code" is none, an article or a possessive (not "error", "zip", "reference", "promo"); the words
# between say how it came; six or eight digits (three and three), ending the clause.
_BARE_CODE = lazy_compile(
    r"(?<![\w\-])(?:code|código|codigo|codice|kod)(?![^\W\d_])"
    r"(?P<words>(?:[ \t]+[^\W\d_][^\s\d.,;!?()\[\]{}=:\"']{0,15}){0,4})"
    r"(?:[ \t]*:[ \t]*|[ \t]+)[\"'“«]?"
    r"(?P<value>[0-9]{6}|[0-9]{8}|[0-9]{3}[ \-][0-9]{3})(?![0-9A-Za-z_\-/:@]|[.,][0-9])"
)
_BEFORE_BARE_CODE = frozenset(
    {
        "the", "a", "my", "your", "his", "her", "their", "our", "this", "that", "new", "el", "mi", "tu", "su", "le",
        "la", "mon", "ton", "son", "o", "meu", "seu", "il", "mio", "tuo", "den", "der", "die", "das", "dem", "mein",
        "meinen", "ihr", "ihren", "sein", "seinen", "dein", "deinen", "de", "del", "um", "uno", "un", "une", "ein",
        "einen", "got", "received", "texted", "sent",
    }
)  # fmt: skip
_BARE_WORDS = _TO_THE_CODE | {
    "me", "us", "they", "he", "she", "you", "i", "just", "gave", "shows", "showed", "says", "texted", "emailed",
}  # fmt: skip
_ONE_TIME_CONTEXT = lazy_compile(
    r"(?<![^\W\d_])(?:2fa|mfa|otp|two[ \-]factor|2-step|two-step|verification code|authenticator|texted|"
    r"text message|sent (?:me|you)|(?:by|via|per|por|par) sms|sms code|phishing|llegó|kam an|"
    r"(?:from|in) (?:the|an|my|your) sms)(?![^\W\d_])"
)
_CONTEXT_BACK, _CONTEXT_AHEAD = 240, 80
_OPENS_A_QUOTE = ("", '"', "'", "“", "«", "(", "[")  # the line's start, a quote or a bracket before "code"
# ... or a conjunction, or an arrow pointing back at it ("code: 465120 ← from the SMS")
_CONJUNCTION_AFTER = lazy_compile(r"[ \t]+(?:(?:and|und|et|y|e|but|aber|mais|pero|ma|mas)(?![^\W\d_])|[←⟵]|<-)")
_PREVIOUS_WORD = lazy_compile(r"([^\W\d_]+)[ \t]+$")


def _bare_code(lower: str, match: re.Match[str]) -> bool:
    value = re.sub("[^0-9]", "", match["value"])
    if year_or_example(value) or a_date(value) or COUNTED.match(lower, match.end()):
        return False
    if not set(match["words"].split()) <= _BARE_WORDS:
        return False  # "code reviewed in PR 482913", "code freeze until 20240612": another thing's number
    start = match.start()
    line = _line_start(lower, start)
    previous = _PREVIOUS_WORD.search(lower, max(line, start - 24), start)
    if previous is not None and previous[1] not in _BEFORE_BARE_CODE:
        return False  # "error code is 500123", "zip code 941103", "promo code 482913"
    if previous is None and lower[max(line, start - 24) : start].rstrip(" \t")[-1:] not in _OPENS_A_QUOTE:
        return False  # "the app just says: code 403002", "Anmeldung fehlgeschlagen. Code 482913": a status
    if a_month(value):
        return False  # "code 202401 (Jan 2024 period)"
    if _FAILURE.search(lower, max(line, start - _STATUS_BACK), start) is not None:
        return False  # "SMS delivery failed. Code 300122"
    end = match.end()
    if _CLAUSE_END.match(lower, end) is None and _CONJUNCTION_AFTER.match(lower, end) is None:
        return False  # "the code 500123 means the gateway refused": the sentence goes on about it
    return _ONE_TIME_CONTEXT.search(lower, max(0, start - _CONTEXT_BACK), end + _CONTEXT_AHEAD) is not None


def _instructed_and_keyed(lower: str, windows: list[tuple[int, int]]) -> Iterator[Hit]:
    """Codes an instruction names ("Use code 83 41 27 to finish signing in": read past the window, which
    ends at the code) and codes under a record's "code" key (see _KEYED_CODE)."""
    if not windows:
        return
    for match in _USE_CODE.finditer(lower, windows[0][0]):
        digits = re.sub("[^0-9]", "", match["value"])
        # six digits or more: "use code 7890 to continue" is a menu's, a door's
        if len(digits) < 6 or year_or_example(digits) or a_date(digits):
            continue
        if match["place"] is not None and not _ONE_TIME_CONTEXT.search(
            lower, max(0, match.start() - _CONTEXT_BACK), match.end() + _CONTEXT_AHEAD
        ):
            continue
        yield "GENERIC_SECRET", *match.span("value")
    # Each line read once, however many "code" keys it holds (one long line of them was quadratic).
    lines: dict[int, bool] = {}  # line start -> the line names a one-time code
    read, line_start = 0, 0  # where the last look for a line break stopped, and the line it was in
    for match in _in_windows(_KEYED_CODE, lower, windows):
        found = lower.rfind("\n", read, match.start())
        line_start, read = (found + 1 if found != -1 else line_start), match.start()
        if _keyed_code(lower, match, line_start, lines):
            yield "GENERIC_SECRET", *match.span("value")


# An SMS's or an email's instruction: "Use code 83 41 27 to finish signing in", "enter the code 482913 to
# verify your account" (reviewer AE), or where to type it: "asked her to enter the new code 840798 in the
# app instead" (reviewer AN: an app, a sign-in screen, a prompt; "enter code 200104 in the ledger" stays).
_USE_CODE = lazy_compile(
    r"(?<![\w])(?:use|enter|type|input)[ \t]+(?:(?:the|this|your)[ \t]+)?(?:new[ \t]+)?(?:code|otp|passcode)"
    rf"[ \t]*:?[ \t]*(?P<value>{_ONE_TIME_VALUE})[ \t]+(?:to[ \t]+(?:sign|log|verify|finish|complete|confirm|reset|"
    r"access|continue|authenticate|authori[sz]e|approve|activate|unlock|proceed|validate)"
    r"|(?:in|on|into|at)[ \t]+(?:the|your)[ \t]+(?:(?:banking|mobile|authenticator)[ \t]+)?"
    r"(?P<place>app|authenticator|portal|sign[ \-]?in|log[ \-]?in|login|verification|prompt)(?![^\W\d_]))"
)
# Other codes are typed there too ("Product recall: enter the code 200104 in the app to check your batch",
# a department's code in a portal, a promotion's "new code ... for 10% off", a badge's at "the sign-in
# desk": attackers' rounds): the text must say how a one-time code came (_ONE_TIME_CONTEXT).
# A structured record's "code" key with a one-time code's digits, in a record (its line) that says what
# the code is for: a log's "auth.mfa ... channel=sms to=... code=392017", a gateway's "template=login_otp
# params={"code":"661094"}" (reviewer AE). The key is "code" itself, a key of its own ("error_code",
# "status.code", "postal code:" are other codes); the code six or eight digits, as one-time codes are
# (error, status and provider codes of four or five digits sit in the same lines: "code=21211",
# "code=1029", a fresh attacker's round); and no error's or status's key comes just before it
# ('{"error":{"code":400001', "verify otp failed status=400 code=100300").
_KEYED_CODE = lazy_compile(
    r"(?:(?<=[{,&?;(\[])|(?<=^)|(?<=[ \t\"'])(?<![a-z][ \t]))[\"']?code[\"']?[ \t]*[=:][ \t]*[\"']?"
    r"(?P<value>[0-9]{6}|[0-9]{8})[\"']?(?![\w.\-/:@])",
    re.MULTILINE,
)
_ONE_TIME_RECORD = lazy_compile(
    r"(?<![a-z0-9])(?:otp|mfa|2fa|totp|hotp|one[_\- ]?time|verification|verify|passcode)(?![a-z0-9])"
)
_STATUS_KEY = lazy_compile(
    r"(?<![a-z])(?:error|err|status|http|exit|reason|fault)[\"']?[ \t]*[=:][ \t]*[\"']?"
    r"(?:[0-9{]|fail|error|invalid|denied|reject)"  # a number, an error's object or word ("status=queued": none)
)
_STATUS_BACK = 48
# A failure told just before the key: its code is the error's ("verification failed; code=131026",
# '"quota exceeded for project 4412","code":"429001"': a fresh attacker's round).
_FAILURE = lazy_compile(
    r"(?<![a-z_])(?:fail|failed|failure|error|err|invalid|denied|rejected|undeliverable|exceeded|expired|blocked|"
    r"disabled|throttled)(?![a-z_])"
    # not a key that says none happened ('"failed":false', "retries_failed=0": a fresh attacker's round)
    r"(?![\"']?[ \t]*[:=][ \t]*[\"']?(?:false|0|no|none|null)\b)"
)


def _keyed_code(lower: str, match: re.Match[str], line_start: int, lines: dict[int, bool]) -> bool:
    if year_or_example(match["value"]) or a_date(match["value"]):
        return False
    # A failure told in the same record after it: '"code":"200001","message":"throttled"}', "code=550000
    # (ERR_2FA_DISABLED)"; not past the record's end ('params={"code":"661094"} err="rate limited"').
    after = lower[match.end() : match.end() + _STATUS_BACK].split("}", 1)[0].split("\n", 1)[0]
    if _FAILURE.search(after) is not None:
        return False
    start = match.start()
    named = lines.get(line_start)
    if named is None:
        line_end = lower.find("\n", start)
        line_end = len(lower) if line_end == -1 else line_end
        named = lines[line_start] = _ONE_TIME_RECORD.search(lower, line_start, line_end) is not None
    back = max(line_start, start - _STATUS_BACK)
    return named and _STATUS_KEY.search(lower, back, start) is None and _FAILURE.search(lower, back, start) is None


def _heading_ends(lower: str, match: re.Match[str]) -> bool:
    """A label in brackets ("[OTP] 482913", "【認証コード】194313（5分間有効）"): the form of an SMS's
    heading, and of a changelog's, a log's or a PR title's tag before a count or a ticket's number
    ("[MFA] 40213 challenges issued", "[2FA] 1042 Add backup codes", "【验证码】95588为工商银行客服电话"):
    a code only when the bracket also opens the label and the code ends its clause (or a remark in
    brackets follows it). True for a label no bracket closes."""
    if match["shut"] is None and match["gshut"] is None:
        return True  # "security code (back of card): 123": a remark's bracket, not a heading's
    start = match.start()
    value_end = match.end("value")
    return (
        start > 0
        and lower[start - 1] in _OPEN
        and (_CODE_ENDS_CLAUSE.match(lower, value_end) is not None or _REMARK_AFTER.match(lower, value_end) is not None)
    )


_OPEN = "[【「『(〔〈《"
_REMARK_AFTER = lazy_compile(r"[ \t]*\(")


def _codes_first(lower: str, runs: list[re.Match[bytes]]) -> Iterator[Hit]:
    """Codes with no label before them: BitLocker's keys, and the SMS's "482913 is your code"."""
    for digits in runs:
        key = _BITLOCKER.match(lower, digits.start())
        if key is not None and _bitlocker(key.group()):
            yield "GENERIC_SECRET", *key.span()
        first = digits.start() - 2 if lower.startswith("g-", digits.start() - 2) else digits.start()
        found = _CODE_FIRST.match(lower, first)
        if found is not None and (first == 0 or not lower[first - 1].isalnum()):
            group = "value" if found["value"] is not None else "card" if found["card"] is not None else "sms"
            yield "GENERIC_SECRET", *found.span(group)


# A BitLocker recovery key: eight groups of six digits, each a multiple of 11 below 720,896 (Microsoft's
# format; reviewer U). No label needed: nothing else is written so.
_BITLOCKER = lazy_compile(r"(?<![0-9\-])[0-9]{6}(?:(?:-|[ \t]|-?\r?\n)[0-9]{6}){7}(?![0-9\-])")
_BITLOCKER_GROUP_MAX = 720_896


def _bitlocker(key: str) -> bool:
    return all(int(group) % 11 == 0 and int(group) < _BITLOCKER_GROUP_MAX for group in re.findall("[0-9]+", key))


# What a one-time code signs or when it came, the last words between its label and it ("OTP firma digitale
# 587103", "código OTP da assinatura digital 494 170", "engangskode for e-signatur 782431", "jednorázový kód k
# podpisu 413055", "de sms-code van vanochtend was 289373": reviewer BB), one of them among the words, the
# others their prepositions and adjectives. A count, a street's number or a model's after "for" is no code
# ("2FA for 1200 contractors", "Gate passcode for 1420 Elm Street", "OTP van 0900 tot 1700": an attacker's round).
_SIGNED_OR_WHEN = frozenset(
    {"digitale", "assinatura", "signature", "signatur", "e-signatur", "e-signature", "podpisu", "semnătura",
     "semnatura", "semnătură", "semnaturii", "electronică", "electronica", "elektronische", "vanochtend", "vanmorgen",
     "gisteren", "vandaag",
     *(normalise_text(word).lower() for word in ("υπογραφής", "לחתימה", "الإلكتروني"))}
)  # fmt: skip
_TO_THE_SIGNING = (
    _SIGNED_OR_WHEN
    | _TO_THE_CODE
    | {"firma", "digital", "electronic", "for", "van", "k", "pentru", "da", "de", "della"}
    | {normalise_text("ηλεκτρονικής").lower()}
)


def _to_the_code(lower: str, match: re.Match[str]) -> bool:
    """The words between label and code lead to it, and no count's noun follows it; not a year, not a
    test's value ("every OTP is 111111", "123456")."""
    value = match["value"]
    if year_or_example(value.replace(" ", "").replace("-", "")):
        return False
    words = (match["words"] or "").split()
    if not _TO_THE_CODE.issuperset(words) and not (
        not _SIGNED_OR_WHEN.isdisjoint(words)
        and _TO_THE_SIGNING.issuperset(words)
        and _SIGNED_CODE_END.match(lower, match.end()) is not None  # "OTP firma digitale 3000 clienti" counts
    ):
        return False
    return COUNTED.match(lower, match.end()) is None


_SIGNED_CODE_END = lazy_compile(r"[ \t]*(?:$|[.,;:!?)\]\r\n·؛،])")


def _clause_code(text: str, lower: str, match: re.Match[str]) -> bool:
    value = match["value"]
    if year_or_example(value.replace(" ", "").replace("-", "")):
        return False
    clause = match["clause"]
    words = clause.replace(",", " ").split()
    if not words or words[0] not in _CLAUSE_OPENERS:
        return False
    if words[0] in _HINDI_OPENERS and any(char.isdigit() for char in clause):
        return False
    if _SETTING_WORDS.search(clause) is not None or MEETING.search(clause) is not None:
        return False
    if _COUNTED_BEFORE.search(lower, max(0, match.start() - 40), match.start()) is not None:
        return False
    if _CLAUSE_END.match(lower, match.end()) is None:
        return False  # a word after the number: a count, a price, a prefix ("1500 mal", "5511 is the ...")
    if lower.startswith("tan", match.start()) and not text.startswith("TAN", match.start()):
        return False  # "Mr Tan ...": a name
    start = match.start()
    return MEETING.search(lower, max(_line_start(lower, start), start - _BRIDGE_BACK), start) is None


def _card_code(lower: str, match: re.Match[str]) -> bool:
    if match["key"] is not None or match["element"] is not None:
        # A payment request's key or element names a card's code beside the card's other fields: alone,
        # "securityCode: 404 not found", "card_cvv 500 internal server error", "<cardCode>100</cardCode>"
        # are a status, a type's code (a fresh attacker's round). Its word or its number is read around it.
        begin, end = max(0, match.start() - 2 * _CARD_BACK), match.end() + 2 * _CARD_BACK
        return _CARD_NEARBY_KEYS.search(lower, begin, end) is not None or _card_number_near(lower, begin, end)
    if not lower.startswith(_NEEDS_CARD, match.start()):
        return True
    begin, end = max(0, match.start() - _CARD_BACK), match.start() + 80
    if _NOT_A_CARD.search(lower, begin, end) is not None:
        return False
    if not lower.startswith(_NEEDS_CARD_NUMBER, match.start()) and _CARD_NEARBY.search(lower, begin, end) is not None:
        return True
    # Or a card's number: 13 to 19 digits that pass Luhn's check ("3786-082144-09744, CID 9921").
    return _card_number_near(lower, begin, end)


# The card's other fields in a payment request: its number's key, its expiry's, its holder's.
_CARD_NEARBY_KEYS = lazy_compile(
    r"(?<![a-z])(?:pan|card[_\-]?(?:number|no|num|holder)|cardnumber|account[_\-]?number|exp(?:iry|iration)?"
    r"(?:[_\-]?(?:date|month|year))?|exp[_\-]?(?:mm|yy|yyyy))(?![a-z])"
)


def _card_number_near(lower: str, begin: int, end: int) -> bool:
    return any(
        13 <= len(digits := re.sub("[^0-9]", "", number.group())) <= 19 and luhn_valid(digits)
        for number in _CARD_DIGITS.finditer(lower, begin, end)
    )


def _line_start(lower: str, at: int) -> int:
    return lower.rfind("\n", max(0, at - _BRIDGE_BACK), at) + 1


def _in_windows(pattern: re.Pattern[str], lower: str, windows: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    for begin, end in windows:
        yield from pattern.finditer(lower, begin, end)


# A code of letters and digits after a label that names what it opens: "DocuSign access code:
# QX7-44-PLANO", "Machtigingscode voor intermediair: K9X4-7TQP", "Termin-PIN für die Online-Vorsprache:
# 7F3K-92QX", "PIN dispositivo letto dall'utente: Rb5xQ9tw", "Government Gateway recovery code
# HX4T-92KD-7PQA" (reviewer Y). Up to five words may stand between label and colon (what the code is
# for, how it came); with none, a colon or blanks. The value has six letters and digits or more, at
# least two digits and two letters, in groups a dash joins or in mixed case: not "E1234", not a word,
# not a template's "XXXX-XXXX", not an error's, a product's or a postal code (their labels are not these).
_ALNUM_LABELS = (
    # written as a key too ("access_code", "accessCode", "recovery-code")
    r"access[ _\-]?code|recovery[ _\-]?code|backup[ _\-]?codes?|authori[sz]ation[ _\-]?code|activation[ _\-]?code|"
    r"machtigingscode|activatiecode|código de acesso|código de ativação|"
    r"autorisatiecode|toegangscode|zugangscode|freischaltcode|aktivierungscode|code d'accès|code d'activation|"
    r"código de acceso|código de activación|codice di accesso|codice di attivazione|pin dispositivo|"
    # "PIN" alone names a pin of a board as often ("pin GP0-GP15", "pin HDR-1X40"): only the end of a
    # compound names a code ("Termin-PIN", "Online-PIN")
    r"(?<=-)pin"
)
_ALNUM_CODE = lazy_compile(
    rf"(?<![\w])(?:{_ALNUM_LABELS})(?![^\W\d_])"
    # what the code is for, then a colon or a verb ("access code is QX7-44-PLANO", "Termin-PIN für die
    # Online-Vorsprache lautet 7F3K-92QX": an attacker's round)
    r"(?:(?P<clause>(?:[ \t]+[^\s\d.,;!?:()\[\]{}=]{1,24}){1,5})?"
    r"(?:[ \t]*:|[ \t]+(?:is|was|lautet|ist|est|es|è|é|wynosi))"
    r"|[\"']?[ \t]*[:=]?)[ \t]*[\"'`]?"
    r"(?P<value>[A-Za-z0-9]{2,8}(?:-[A-Za-z0-9]{2,8}){0,4})(?![\w\-@/])"
)
# Where a label may be: "pin", or a word for a code ("cod" of code, codice, kod; "cód" of código) and one
# of the labels' own words. Most text holds none: two or three substring tests.
_ALNUM_CODE_MARKS = (
    *(f"{stem}{joint}code" for stem in ("access", "recovery", "backup", "ation") for joint in ("", " ", "_", "-")),
    "code d", "codice d", "código d", "gingscode", "atiecode", "gangscode", "altcode", "rungscode",
)  # fmt: skip


# The marks that hold "cod", with where: each is in the text where it starts that far before a "cod" of
# the text (the scan's words list every place of "cod": a few tests at each, where a substring search
# per mark read the whole text). The others ("código d") are searched for.
_ALNUM_MARKS_AT_COD = tuple((mark, mark.index("cod")) for mark in _ALNUM_CODE_MARKS if "cod" in mark)
_ALNUM_MARKS_OTHER = tuple(mark for mark in _ALNUM_CODE_MARKS if "cod" not in mark)


def may_hold_alnum_code(scan: Scan) -> bool:
    lower = scan.lower
    words = scan.words  # "pin" and "cod" among them (one pass for every gate's words)
    if "pin" in words or "RIO" in scan.text:
        return True
    for at in words.get("cod", ()):
        for mark, offset in _ALNUM_MARKS_AT_COD:
            if at >= offset and lower.startswith(mark, at - offset):
                return True
    return ("cod" in words or "cód" in lower) and any(mark in lower for mark in _ALNUM_MARKS_OTHER)


index_words("pin", "cod")


# A French line's porting code (RIO: "Relevé d'Identité Opérateur"): the operator's two digits, "P" or
# "E", six characters and a three-character key, after its name ("voici mon RIO 02P7XK3F9A41": reviewer Z).
_RIO = lazy_compile(r"(?<![\w])RIO(?:[ \t]*:|[ \t]+(?:est|:))?[ \t]+(?P<value>[0-9]{2}[PE][A-Z0-9]{9})(?![\w\-])")


_LABEL_WORDS = ("pin", *_ALNUM_CODE_MARKS)


def _alnum_label_starts(lower: str) -> list[int]:
    """Where each label may start: the word holding one of the labels' words (read back to its start:
    "authorisation code", "termin-pin"), in order. A label is tried there only, not at every character."""
    starts: set[int] = set()
    for word in _LABEL_WORDS:
        at = lower.find(word)
        while at != -1:
            start = at
            while start > 0 and lower[start - 1].isalpha():
                start -= 1
            starts.add(start)
            at = lower.find(word, at + 1)
    return sorted(starts)


_NAMED_GROUPS = lazy_compile(
    r"(?:[A-Za-z]{3,}[0-9]+|[0-9]{1,2}(?:[AaPp][Mm]))(?:-(?:[A-Za-z]{3,}[0-9]+|[0-9]{1,2}[AaPp][Mm]))*"
)
# A name and its number ("AES-256", "ISO-9564", "Windows-11") and a capitalised word ("Pro", "Room").
_STANDARD = lazy_compile(r"[A-Za-z]+-[0-9]+|[A-Za-z]{2,5}-[A-Za-z0-9]+")  # and "PKCE-S256": a name, a variant
_CAPITALISED = lazy_compile(r"[A-Z][a-z]{2,}[a-z0-9]*")
# The first word of the words between label and colon: what the code is for, how it came.
_ALNUM_OPENERS = _CLAUSE_OPENERS | {
    "voor", "van", "letto", "comunicato", "fornito", "ricevuto", "dettato", "given", "issued", "provided",
    "dictado", "facilitado", "entregado", "dictée", "donné", "fourni", "mitgeteilt", "genannt", "erhalten",
}  # fmt: skip


def find_alnum_codes(scan: Scan) -> Iterator[Hit]:
    text, lower = scan.text, scan.lower
    if "RIO" in text:
        for rio in _RIO.finditer(text):
            yield "GENERIC_SECRET", *rio.span("value")
    done = 0
    for at in _alnum_label_starts(lower):
        match = _ALNUM_CODE.match(lower, at) if at >= done else None
        if match is None:
            continue
        done = match.end()
        start, end = match.span("value")
        value = text[start:end]
        letters = sum(char.isalpha() for char in value)
        digits = sum(char.isdigit() for char in value)
        if letters < 2 or digits < 2 or letters + digits < 6:
            continue
        if _NAMED_GROUPS.fullmatch(value) or any(YEAR.fullmatch(group) for group in value.split("-")):
            continue  # "GPIO17-GPIO27", "10AM-12PM", "WEEK-2024": names with numbers, hours, a year
        if _STANDARD.fullmatch(value) or any(_CAPITALISED.fullmatch(group) for group in value.split("-")):
            continue  # "AES-256", "RFC-6238", "Office-365", "Win10-Pro", "Room-204b": names, not codes
        if WORD_AFTER.match(lower, end):
            continue  # "activation code: COVID-19 vaccine pass", "recovery code: RFC-6238 compliant"
        dashed = "-" in value
        if not dashed and not (value.lower() != value != value.upper()):
            continue  # "AB1234", "x86_64": one case and no groups is a reference's or a model's shape
        clause = match["clause"]
        if clause is not None and (
            clause.split()[0] not in _ALNUM_OPENERS or _SETTING_WORDS.search(clause) or MEETING.search(clause)
        ):
            continue  # "PIN assignment table: GPIO17-GPIO27", "backup code review is at: 10AM-12PM"
        if match["clause"] is None and not dashed and lower[start - 1] not in ":= \t":
            continue
        yield "GENERIC_SECRET", start, end
