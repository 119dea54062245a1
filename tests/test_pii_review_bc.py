"""What reviewer BC (a mortgage lender's, a telecom's, a university's, an airline's, a tax office's, a veterinary
chain's, a car-rental counter's, a cloud host's, a fintech's, a dental practice's and a utility's agents' memories,
and an adversarial model's; 33 languages) found, after BB's readers: a private key's base64 body with its PEM lines
cut off; a value written one character at a time between dashes, dots or slashes; an SSN as SSA's three fields;
markdown's escaped "@" and IPv6's defanged "::"; Tamil's and Urdu's word for a password; a password that starts
with "$"; Hungarian's trunk before a bracketed area code; a keypad's "*" before a gate's code. Then what reviewers
BD and BE (blind, hostile acceptance suites of issue 11's own text) found after them: a mobile written whole after
a name in a list of phones, Django's SECRET_KEY, a value one character per line, literals side by side in
brackets, a URL's user. Then what reviewer BF (blind: an insurer's, a hospital's, an HR centre's, a law firm's, a
marketplace's, an exchange's, a customs broker's, a bank's, a school district's, a game studio's, a pharmacy's and
a benefits office's agents, 38 languages) found after them: a PIN in the words of other scripts and a banking
app's MPIN, a password's label in definite and possessive forms and in Tagalog, Swahili, Telugu and Amharic, an
aside in guillemets or quotes before the colon, a number dialled out with "00", a login's "user:password". And
what those readers leave alone, the attackers' rounds on them included."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa, x25519
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

from tests.helpers import found

_KEYS: dict[str, Callable[[], PrivateKeyTypes]] = {
    "ec-p256": lambda: ec.generate_private_key(ec.SECP256R1()),
    "ec-p384": lambda: ec.generate_private_key(ec.SECP384R1()),
    "ec-p521": lambda: ec.generate_private_key(ec.SECP521R1()),
    "rsa-2048": lambda: rsa.generate_private_key(65537, 2048),
    "ed25519": ed25519.Ed25519PrivateKey.generate,
    "x25519": x25519.X25519PrivateKey.generate,
}
_FORMATS = {
    "sec1-or-pkcs1": serialization.PrivateFormat.TraditionalOpenSSL,
    "pkcs8": serialization.PrivateFormat.PKCS8,
    "openssh": serialization.PrivateFormat.OpenSSH,
}


_NO_FORM = {("ed25519", "sec1-or-pkcs1"), ("x25519", "sec1-or-pkcs1"), ("x25519", "openssh")}  # none exists


def _body(kind: str, form: str) -> list[str]:
    """The base64 lines of a fresh key's PEM, its BEGIN and END lines cut off."""
    key = _KEYS[kind]()
    pem = key.private_bytes(serialization.Encoding.PEM, _FORMATS[form], serialization.NoEncryption())
    return [line for line in pem.decode().splitlines() if not line.startswith("-----")]


@pytest.mark.parametrize(
    ("kind", "form"),
    [(kind, form) for kind in sorted(_KEYS) for form in sorted(_FORMATS) if (kind, form) not in _NO_FORM],
)
def test_a_private_keys_body_is_found_without_its_pem_lines(kind: str, form: str) -> None:
    lines = _body(kind, form)
    flat, wrapped = "".join(lines), "\n".join(lines)
    assert found(f"EC key, body only so the PEM rule misses it: {flat} (end)") == [("PRIVATE_KEY", flat)]
    assert found(f"body:\n{wrapped}\nend of the paste") == [("PRIVATE_KEY", wrapped)]


@pytest.mark.parametrize("kind", ["ec-p256", "rsa-2048", "ed25519"])
def test_a_public_keys_body_is_not_read_as_a_private_keys(kind: str) -> None:
    # (After "public key:" a value is still read as a secret: a name alone makes nothing public, an earlier
    # attacker's round; here no name comes before it.)
    public = _KEYS[kind]().public_key()
    pem = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    body = "".join(line for line in pem.decode().splitlines() if not line.startswith("-----"))
    assert [kind for kind, _ in found(f"SPKI {body}")] != ["PRIVATE_KEY"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one character at a time, the same mark between each
        ("SSN is 3-2-7-9-1-8-0-4-3, just remove the dashes when you file it",
         [("US_SSN", "3-2-7-9-1-8-0-4-3")]),
        ("Bindestriche weglassen: D-E-1-1-1-0-0-7-0-0-0-0-3-8-7-7-8-3-1-8-0-0",
         [("IBAN", "D-E-1-1-1-0-0-7-0-0-0-0-3-8-7-7-8-3-1-8-0-0")]),
        ("card, a digit at a time: 4.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1",
         [("CREDIT_CARD", "4.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1")]),
        # SSA's names for an SSN's parts
        ("area=102 group=66 serial=0749 (reassemble as the SSN)",
         [("US_SSN", "102"), ("US_SSN", "66"), ("US_SSN", "0749")]),
        # escaped and defanged
        ("Contact (markdown-escaped): zofia\\_szymanska\\@onet\\.pl", [("EMAIL", "zofia\\_szymanska\\@onet\\.pl")]),
        ("v6 address, defanged: 2804[:]14c[:]f4ae[:][:]8cf8[:]fdf7",
         [("IP_ADDRESS", "2804[:]14c[:]f4ae[:][:]8cf8[:]fdf7")]),
        # a password's word in Tamil and Urdu; a password that starts with "$"
        ("போர்டல் கடவுச்சொல்: Mariposasaudade17*", [("PASSWORD", "Mariposasaudade17*")]),
        ("پورٹل کا پاس ورڈ Orkide#440", [("PASSWORD", "Orkide#440")]),
        ("insurance portal password: $LpptAe0eAochMT", [("PASSWORD", "$LpptAe0eAochMT")]),
        # Hungarian's trunk "06" before the area code in brackets; a keypad's "*" before a code
        ("telefon 06 (50) 347-4682.", [("PHONE", "06 (50) 347-4682")]),
        ("Gdańsk, kod do domofonu *2953.", [("PASSWORD", "*2953")]),
        # a gate's or a door's code in Urdu, Persian, Thai, Bengali, Hindi, Swahili and French
        ("صارف سعدیہ ملک، گیٹ کا کوڈ *0307", [("PASSWORD", "*0307")]),
        ("مشترک زهرا حسینی، رمز درب پارکینگ 0156*", [("PASSWORD", "0156*")]),
        ("คุณกมลวรรณ รหัสประตูหน้าบ้าน #9516", [("PASSWORD", "#9516")]),
        ("গ্রাহক মৌসুমী দাস, গেটের কোড 3691", [("PASSWORD", "3691")]),
        ("गेट का कोड 4821।", [("PASSWORD", "4821")]),
        ("Namba ya siri ya geti: 9977*.", [("PASSWORD", "9977*")]),
        ("carte grise AF-080-EL, code du boîtier à clés 3618.", [("PASSWORD", "3618")]),
        # a bank's memorable word; a one-time code "just sent"; Japanese "contact" before a mobile
        ("Account PIN 455733, memorable word tangerine. Offered 24 months", [("PASSWORD", "455733"),
                                                                            ("PASSWORD", "tangerine")]),
        ("mã OTP vừa gửi: 279069. Đã đề xuất giảm 20% cước.", [("GENERIC_SECRET", "279069")]),
        ("欠航対応：伊藤 大輔様、連絡先 09034973936。翌日の便に振替済み", [("PHONE", "09034973936")]),
        # a UK number "ported" out in brackets, and its porting code (PAC, STAC)
        ("threatened to port (01865) 784907 out; PAC issued HGF082847.",
         [("PHONE", "(01865) 784907"), ("GENERIC_SECRET", "HGF082847")]),
        ("leaving the network, STAC: 123456ABC", [("GENERIC_SECRET", "123456ABC")]),
        # a card's eight and eight
        ("Tarjeta del cliente en dos partes: primeros ocho 5525 5311, últimos ocho 1935 7019.",
         [("CREDIT_CARD", "5525 5311"), ("CREDIT_CARD", "1935 7019")]),
        # reviewer BD (a hostile acceptance suite of the issue's own text)
        ("Camille Durand +33 (0)7 41 53 31 18; Thomas Girard 0758065964.",
         [("PHONE", "+33 (0)7 41 53 31 18"), ("PHONE", "0758065964")]),
        ("SECRET_KEY=0y(59^rxg*z_)=w64spc&=t(%=(c5oi&cb7p-giw8u71*-0t0p",
         [("GENERIC_SECRET", "0y(59^rxg*z_)=w64spc&=t(%=(c5oi&cb7p-giw8u71*-0t0p")]),
        ("シークレット：!_hlrrbq(x^v+0s5rk81k&*eu3l!skf-58xkgcxoidaym7y-7=",
         [("GENERIC_SECRET", "!_hlrrbq(x^v+0s5rk81k&*eu3l!skf-58xkgcxoidaym7y-7=")]),
        # reviewer BE (an evasion-heavy acceptance suite)
        ("SSN:\n5\n5\n0\n-\n6\n2\n-\n6\n4\n2\n6", [("US_SSN", "5\n5\n0\n-\n6\n2\n-\n6\n4\n2\n6")]),
        ("acrostic:\nd\nm\ni\nt\nr\ni\n.\nm\n@\np\nr\no\nt\no\nn\n.\nm\ne",
         [("EMAIL", "d\nm\ni\nt\nr\ni\n.\nm\n@\np\nr\no\nt\no\nn\n.\nm\ne")]),
        ('key = ("aio_pid1" "NJ1i0g5X6YXEUPfLv8aLO9U7")  # implicit concatenation',
         [("GENERIC_SECRET", 'aio_pid1" "NJ1i0g5X6YXEUPfLv8aLO9U7')]),
        ("EMAIL_URL=smtp+tls://apikey: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@smtp.x.net:587",
         [("URL_CREDENTIALS", "apikey: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")]),
        ('razorpay_key_id = "rzp_live_VaLhFnipHrpLcX"', [("RAZORPAY_KEY_ID", "rzp_live_VaLhFnipHrpLcX")]),
        ("Payment details: **4352**-**9820**-**5733**-**0966**",
         [("CREDIT_CARD", "**4352**-**9820**-**5733**-**0966**")]),
        # reviewer BF: a PIN in the words of other scripts, a banking app's MPIN
        ("Клиент продиктовал ПИН-код 4237 — карта перевыпущена.", [("PASSWORD", "4237")]),
        ("পিন নম্বর: 34810 (গ্রাহক নিজেই বলেছেন)", [("PASSWORD", "34810")]),
        ("வாடிக்கையாளர் தனது ATM பின் 0942 என்று கூறினார்", [("PASSWORD", "0942")]),
        ("اے ٹی ایم پن 9186 غلطی سے بتا دیا۔", [("PASSWORD", "9186")]),
        ("أخبرتنا بالرقم السري للبطاقة خطأً: 7971 — تم إبلاغها", [("PASSWORD", "7971")]),
        ("ग्राहक ने कॉल पर UPI पिन 100731 बता दिया।", [("PASSWORD", "100731")]),
        ("Ibinigay pa ang MPIN: 5274 (hindi dapat).", [("PASSWORD", "5274")]),
        # a password's label in its definite or possessive form, in other languages, an aside before the colon
        ("Kunden sa BankID-passordet høyt: Fjellet534=", [("PASSWORD", "Fjellet534=")]),
        ("BİLGE sistemine giriş parolası: kL%ccuT=IR3", [("PASSWORD", "kL%ccuT=IR3")]),
        ("ang kontrasenya sa VPN ay Yo5=MLPM_lf", [("PASSWORD", "Yo5=MLPM_lf")]),
        ("nenosiri jipya la mwalimu Grace Achieng ni Kilimanjaro1995+", [("PASSWORD", "Kilimanjaro1995+")]),
        ("యాప్ పాస్\u200cవర్డ్ Hyderabad1287_ అని చెప్పారు", [("PASSWORD", "Hyderabad1287_")]),
        ("የይለፍ ቃል %JteTK%r30l=+A0", [("PASSWORD", "%JteTK%r30l=+A0")]),
        ("mot de passe de l'espace « Mon Compte » : Soleil885+ (donné au guichet)", [("PASSWORD", "Soleil885+")]),
        ('su contraseña actual "para que lo revisemos": P*!y%Wl93l%_b$P&', [("PASSWORD", "P*!y%Wl93l%_b$P&")]),
        ("She read her benefits-portal password to me (Bluebonnet4414?); told her to change it",
         [("PASSWORD", "Bluebonnet4414?")]),
        ("नवीन पासवर्ड Sahyadri6755=.", [("PASSWORD", "Sahyadri6755=.")]),
        # a number dialled out with "00", a number read out after Turkish "plus", a bold country code
        ("sabit hat 0090 519 145 7903.", [("PHONE", "0090 519 145 7903")]),
        ("Telefonu yazıyla verdi: artı dokuz sıfır, iki bir iki, dört bir beş, sekiz sıfır, üç dört",
         [("PHONE", "artı dokuz sıfır, iki bir iki, dört bir beş, sekiz sıfır, üç dört")]),
        ("Callback: **+44** 161 036 2825", [("PHONE", "**+44** 161 036 2825")]),
        # a login's user and password
        ("ssh box: liveops:M@pl300* (yes, that's user:pass)", [("PASSWORD", "M@pl300*")]),
        ("login: admin:Admin123!", [("PASSWORD", "Admin123!")]),
        # reviewer BG: a label with a non-breaking hyphen inside, cloud-init's chpasswd list, an SSN asked for
        ("pass\u2011word\xa0:\xa0Harbor3159$", [("PASSWORD", "Harbor3159$")]),
        ("#cloud-config\nchpasswd:\n  list: |\n    root:Sr19p5S4n%7x=3*\n    ubuntu:Cobalt1923#\n  expire: false\n",
         [("PASSWORD", "Sr19p5S4n%7x=3*"), ("PASSWORD", "Cobalt1923#")]),
        ("Can you confirm the last four of your SSN?\n[customer] sure, the whole thing is 205 16 7762, thanks",
         [("US_SSN", "205 16 7762")]),
        # reviewer BH: the word for a password in more languages, a verb before the value, PINs
        ("როუტერის პაროლი: Tbilisi_1987! მისამართი", [("PASSWORD", "Tbilisi_1987!")]),
        ("cyfrinair y llwybrydd: Cymru4Eva!; cyfeiriad", [("PASSWORD", "Cymru4Eva!")]),
        ("kata sandi WiFi diganti jadi agus12345!, ODP penuh", [("PASSWORD", "agus12345!")]),
        ("routerning paroli: Toshkent#2025, kabel almashtirildi.", [("PASSWORD", "Toshkent#2025")]),
        ("ePRO atariko pasahitza: Donostia#1813", [("PASSWORD", "Donostia#1813")]),
        ("nouveau code confidentiel provisoire : 8152, à changer", [("PASSWORD", "8152")]),
        # ... and a label glued to the words before it in Thai and Khmer, their verbs before the value
        ("ขอเปลี่ยนรหัสผ่าน Wi-Fi เป็น somchai2512 และ", [("PASSWORD", "somchai2512")]),
        # reviewer BI: Amharic's PIN, Arabic's glued "and", Dutch's "Pincode:", a PIN past 2039, guillemets
        ("የይለፍ ቃል: Add41!isUb፤ ፒን: 3757።", [("PASSWORD", "Add41!isUb"), ("PASSWORD", "3757")]),
        ("كلمة المرور: Fal59!con4b والرقم السري للبطاقة: 4458.", [("PASSWORD", "Fal59!con4b"), ("PASSWORD", "4458")]),
        ("klant stuurde wachtwoord mee. Pincode: 5433.", [("PASSWORD", "5433")]),
        ("ग्राहक ने एटीएम पिन: 2044 भेज दिया", [("PASSWORD", "2044")]),
        ("l'utilisateur a communiqué son mot de passe « Soleil#1980 » par téléphone", [("PASSWORD", "Soleil#1980")]),
        # ... and digits read out in Vietnamese, Swahili and Greek
        ("Số điện thoại viết bằng chữ: cộng tám tư, chín một hai, ba bốn năm, sáu bảy tám.",
         [("PHONE", "cộng tám tư, chín một hai, ba bốn năm, sáu bảy tám")]),
        ("Namba ya simu: jumlisha mbili tano nne, saba moja mbili, tatu nne tano, sita saba nane.",
         [("PHONE", "jumlisha mbili tano nne, saba moja mbili, tatu nne tano, sita saba nane")]),
        ("Ο πελάτης έγραψε τον κωδικό PIN ολογράφως: ένα τέσσερα εννιά δύο.",
         [("GENERIC_SECRET", "ένα τέσσερα εννιά δύο")]),
        # a card's groups over two lines below the line that names it
        ("카드번호\n5235-9929\n2505-4763\n유효기간 03/28", [("CREDIT_CARD", "5235-9929\n2505-4763")]),
        ("បានប្តូរពាក្យសម្ងាត់ Wi-Fi ទៅជា Dara#PP2025 ។", [("PASSWORD", "Dara#PP2025")]),
        ("NIP du compte : 4826.", [("PASSWORD", "4826")]),
        ("شماره کارت ۶۱۰۴-۳۳۴۱-۳۵۰۱-۸۳۳۶، رمز دوم ۵۸۲۱۳۹۴۷، موبایل",
         [("CREDIT_CARD", "۶۱۰۴-۳۳۴۱-۳۵۰۱-۸۳۳۶"), ("PASSWORD", "۵۸۲۱۳۹۴۷")]),
        # reviewer BJ: Ethiopic's preface colon and the modifier letter colon; a dash after the label; an aside
        # that says to keep a PIN in its clause; a password given letter by letter; a salt's, a pepper's, an
        # encryption seed's and a key material's random values; a defanged webhook; a provider's token cut after
        # its label
        ("የይለፍ ቃል፦ Abebe@1975", [("PASSWORD", "Abebe@1975")]),
        ("IPv6 2804\ua78914c\ua7894dc8\ua7893c6a\ua78945b1\ua789323e\ua7890\ua7895eb8",
         [("IP_ADDRESS", "2804\ua78914c\ua7894dc8\ua7893c6a\ua78945b1\ua789323e\ua7890\ua7895eb8")]),
        ("пароль от почты — Qwerty_Zima25, телефон", [("PASSWORD", "Qwerty_Zima25")]),
        ("Router admin pw — Nh@wk-Backup-12 (from the sticky note)", [("PASSWORD", "Nh@wk-Backup-12")]),
        ("PIN der Girocard (nicht weitergeben!): 7042", [("PASSWORD", "7042")]),
        ("PIN de la carte bleue (ne pas partager) : 6203", [("PASSWORD", "6203")]),
        ("my password, letter by letter: T-r-0-u-b-4-d-0-r-!", [("PASSWORD", "T-r-0-u-b-4-d-0-r-!")]),
        ("ENCRYPTION_SEED=FqldJa9cTeuZ8YEvXwf4J0stILkDUrao", [("GENERIC_SECRET", "FqldJa9cTeuZ8YEvXwf4J0stILkDUrao")]),
        ('crypto:\n  pepper: "oP4imggtCjeYHN+b3UzkTum6b9rqcJiSjWXAqDpa1dY="\n  rounds: 12',
         [("GENERIC_SECRET", "oP4imggtCjeYHN+b3UzkTum6b9rqcJiSjWXAqDpa1dY=")]),
        ('{"signing_material":"UBo2p1fN+FfB9YpYcbJxQbmmCLiisQkh6xx5WBLBhVY="}',
         [("GENERIC_SECRET", "UBo2p1fN+FfB9YpYcbJxQbmmCLiisQkh6xx5WBLBhVY=")]),
        ("webhook hxxps://hooks[.]slack[.]com/services/T09YSJABKFT/BLBD1ZZ8F7Z/3oLTULl91xYi5swkjNcx2f5B",
         [("SLACK_WEBHOOK", "hxxps://hooks[.]slack[.]com/services/T09YSJABKFT/BLBD1ZZ8F7Z/3oLTULl91xYi5swkjNcx2f5B")]),
        ("split for the chat limit: sk-ant-api03-cznHCo4aMhX7c0UKpkOCcHPU6cN9IS_N1ZXnUnzsi\n"
         "MXNax5AvxLkdxRat7QptZlWjJ07Clwv54_m6Bp8ZvZsd_Maqd1MGAA",
         [("ANTHROPIC_API_KEY", "sk-ant-api03-cznHCo4aMhX7c0UKpkOCcHPU6cN9IS_N1ZXnUnzsi\n"
           "MXNax5AvxLkdxRat7QptZlWjJ07Clwv54_m6Bp8ZvZsd_Maqd1MGAA")]),
    ],
)  # fmt: skip
def test_values_are_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # characters one at a time that make nothing: a version, a keypad's row, a list after "SSN", no SSN's name
        "version 1.2.3.4.5.6.7.8.9 released",
        "keypad 1-2-3-4-5-6-7-8-9-0",
        "SSN list: 1,2,3,4,5,6,7,8,9",
        "menu path 3-2-7-9-1-8-0-4-3 in the phone tree",
        "the fields are area=000 group=66 serial=0749",
        # a regular expression with an escaped "@"; colons in brackets that join no address
        "pattern: ^[a-z]+\\@example\\.com$",
        "see a[:][:]b and list[:][:]",
        # variables, not passwords: their names' words, few turns between cases and digits
        "password $DB_PASSWORD",
        "password: $dbPassword1",
        "export DATABASE_URL=postgres://app:$pgPass2024@db:5432/app",
        # a certificate's body, and a key's prefix cut short
        "cert: MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UEChMJQmFsdGltb3Jl",
        "the prefix MHcCAQEEI starts an EC key",
        # a year after a door's word in Persian, a year after a key box's, a state after "memorable word", a
        # date after Japanese "contact", Indonesian notes' "HP" and Swahili's "wa" before numbers
        "رمز در 1400 تغییر کرد",
        "code du boîtier à clés 2024.",
        "memorable word reset by the customer.",
        "the memorable word is required.",
        "連絡先 20240115 の件",
        "HP LaserJet 1020 driver 20240115",
        "Mkutano wa 20240115 umeahirishwa",
        # reviewer BD's near-misses
        "/etc/passwd line root:x:0:0:root:/root:/bin/bash; the x means the hash lives in /etc/shadow.",
        "Invoice Number 0612345678.",
        "see Chapter Two 0612345678.",
        # two capitalised words before a mobile-shaped number, in a line that lists no phones
        "Product Code 0612345678.",
        "Parcel Dispatched 07700900123.",
        "Case Study 07700900123.",
        "Patient Record 07700900123.",
        "Lagerplatz Regal 01712345678.",
        "secret sauce: a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y",
        "the secret ingredient list: salt, pepper, 2 eggs, 3 cups flour, 1 tsp sugar and butter",
        "the secret key file is secret_rotation_2024_12_05_v2_final_backup_copy_0",
        "listening on port 8080 (pid 35099)",
        "PAC-MAN score 123456; the PAC committee ABC123456 met",
        "PAC BOS240115 LHR240116",
        "The ship left port (0600) 123456 tonnes",
        "Part numbers: Brake Pad 07700900123.",
        "the secret formula is (x+1)*(y-2)=z^3+4*a-5*b+(c+6)*(d-7)+e^8+f*9-g+hijk",
        "Scorecard: first eight 4532 0151, last eight 1283 0366.",
        'ZIPS=("4532" "0151" "1283" "0366")',
        "rzp_test_PutYourKeyHere rzp_test_AbCdEfGhIjKlMn rzp_live_XxxxXxxxXxxxXx",
        "the first eight 1234 5678 and the last eight 8765 4321 of the ISBN",
        # reviewer BE's near-misses
        # a list one item per line; a shell's arguments side by side; quoted words in prose
        "Steps:\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10",
        "a\nb\nc\nd\ne\nf\ng\nh\ni",
        'curl -H "Accept: json" "https://api.example.net/v1/items"',
        'say "hello" "world" "again"',
        "Grade: **A**-**B**, scores **12**-**15**",
        "rzp_live_RazorpayKeyIdxx",
        "rolls 6 0 3 5 7 6 9 8 8 (mobile game score)",
        # reviewer BF's near-misses: a release pinned; India's postcode after Hindi's and Bengali's "PIN"; Tamil
        # "after"; where a password is read from; reference numbers led by "00"; hosts, ports and times after a
        # login's words; a password's policy explained
        "Pinned libgeo to 1.2.3.4 until the upstream fix lands; see CHANGELOG entry 2025-03-14.",
        "Bumped openssl to 3.0.13.1 in the base image.",
        "पता: गांधी नगर, पिन कोड 110001",
        "পিন কোড ৭০০০০১",
        "பின் 2020 ஆம் ஆண்டு",
        "Veritabanı parolası Vault'tan (secret/prod/hasar/db) okunuyor, buraya yazılmaz.",
        "ref 0012 3456 7890",
        "Invoice 0031 2024 1234",
        "ssh: host:2222",
        "bastion prod-1:22",
        "login at 10:30:45",
        "He explained the password policy to me (Section4)",
        # reviewer BG's near-misses: a build's dated release; cloud-init drawing the password itself
        "Build #20241206.7 succeeded in 14m 32s (agent pool ubuntu-22.04, image 20241125.1.0)",
        "chpasswd:\n  expire: false\n  list: |\n    root:RANDOM\n",
        # reviewer BH's and its attacker's near-misses: India's postcode, a company's NIP, a year after "nip"
        "pincode 560034",
        "Lot 5935387404934 nip 2024",
        "The password is read from env var SECRET_2=.",
        "นโยบายรหัสผ่าน เป็น ISO-27001 ครับ",
        "ระบบรหัสผ่าน เป็น Version2 ใหม่",
        "Rooms list\n4003-4004\n4005-4006",
        "İrsaliye no 2024/12-0331, tarih 03.12.2024",
        "le mot de passe « Wi-Fi » est affiché",
        "Nieuwe pincode aangevraagd in 2024.",
        "Pincode: 560034",
        "Egy hat éves gyerek és öt felnőtt jött, hét napig maradnak.",
        "Mama ana watoto tatu na nyumba moja, tano ng'ombe.",
        "ការកំណត់ពាក្យសម្ងាត់ ទៅជា AES-256 ។",
        # reviewer BJ's near-misses, and its attacker's: a release bumped; what is done to passwords before a dash;
        # a kitchen's salt; a seed that is a date; an upstream bumped to another resolver is found (elsewhere)
        "Bumped libfoo from 1.2.3.4 to 1.2.3.5 after the regression in the tokenizer.",
        "Password reset - Ticket-2024 closed",
        "password manager - Bitwarden2024 rollout",
        "Password change - CHG-2024 approved.",
        "salt: 2 tsp, pepper: 1 tsp",
        "random_seed: 20240101",
        "ratio 16\u22369 screen",
        "wifi at home: HomeNet / changeme",
        "Password Spraying — T1110.003",
        "Hardcoded password — CWE-798.",
        "pass\u2236merit\u2236distinction = 40\u223635\u223625",
        "PIN of the ATM (terminal ID): 40871235",
        "Password, exactly: Argon2id",
        "world_seed: -4530634556500121041",
        "pepper: Carolina-Reaper2",
        "Nomor resi: tujuh dua sembilan empat satu delapan enam tiga",
        "Lottery draw recap: the digits are 4 0 0 0 1 2 3 4 1 2 3 4 1 2 3 4 (sixteen balls).",
        "Bumped openssl-fips from 3.0.9.1 to 3.0.9.2 in the base image.",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
