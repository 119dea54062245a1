"""Forms real text takes that three fresh reviewers found stored verbatim or damaged: two wrote
labelled corpora (about 2,800 lines no one here wrote; the second one's second round written after
reading this package's source), the third hunted damage in about 1,200 ordinary lines.

Positives: the whole value is inside one finding of the family named (the type may be a sibling:
a password found as PASSWORD or GENERIC_SECRET both hide it); 150 of the 161 were missed by the
release before these changes, the others guard rules the changes added or kept (a heroku key that
is a UUID, "$password = '...'" in PHP, an address at a mail provider's domain, a PIN).
Negatives: nothing is found; 87 of the 126 were damaged by that release, the others guard the new
rules (an SSH remote is not an address, "-p 8080:80" is not a password, an ISBN is not a phone).
The first group of each list came later, from forms the reviews named but no rule covered then
(a quoted local part, an address literal, card groups joined by underscores).
"""

from __future__ import annotations

import re

import pytest

from securemem.pii import ENTITY_TYPES, Scrubber, detect, members

KEY = b"k" * 32
REDACT_ALL = Scrubber(dict.fromkeys(ENTITY_TYPES, "redact"), hash_key=KEY)


def covered(text: str, value: str, family: str) -> bool:
    start = text.index(value)
    end = start + len(value)
    kinds = set(members(family)) if family in ("SECRET", "API_KEY", "PII") else {family}
    return any(f.start <= start and f.end >= end and f.type in kinds for f in detect(text))


POSITIVES = [
    # Forms RFC 5321 allows and no filter expects; groups joined as an identifier joins them.
    ("write to jane@[192.168.1.1] today", "jane@[192.168.1.1]", "EMAIL"),
    ("write to jane@[IPv6:2001:db8::1] today", "jane@[IPv6:2001:db8::1]", "EMAIL"),
    ('write to "jane"@example.com today', '"jane"@example.com', "EMAIL"),
    ('write to "jane doe"@example.com today', '"jane doe"@example.com', "EMAIL"),
    ("card 5292_4741_0000_0002 on file", "5292_4741_0000_0002", "CREDIT_CARD"),
    ("cc_4111_1111_1111_1111", "4111_1111_1111_1111", "CREDIT_CARD"),
    ("amex 3782_822463_10005", "3782_822463_10005", "CREDIT_CARD"),
    ('mail "jane@home"@example.com', '"jane@home"@example.com', "EMAIL"),
    ('mail "jane\\"doe"@example.com', '"jane\\"doe"@example.com', "EMAIL"),
    ("mail jane@[ipv6:2001:db8::1]", "jane@[ipv6:2001:db8::1]", "EMAIL"),
    ("mail jane@[IPv6:fe80::1%eth0]", "jane@[IPv6:fe80::1%eth0]", "EMAIL"),
    ("mail jane@[ 192.168.1.1 ]", "jane@[ 192.168.1.1 ]", "EMAIL"),
    ("card 5292_4741-0000-0002", "5292_4741-0000-0002", "CREDIT_CARD"),
    ("card 5292 4741_0000_0002", "5292 4741_0000_0002", "CREDIT_CARD"),
    ("5292__4741__0000__0002", "5292__4741__0000__0002", "CREDIT_CARD"),
    ("card5292_4741_0000_0002", "5292_4741_0000_0002", "CREDIT_CARD"),
    # An SSH command looked for 256 characters back must not start inside a word ("fake|ssh").
    ("note: fakessh -o K=" + "v" * 246 + " jane.doe@example.com", "jane.doe@example.com", "EMAIL"),
    # Password labels of more languages in ASCII, with attributes, inside a child element, after a
    # CJK word, glued and quoted on a command line; phone labels glued on, a caller ID.
    ("haslo: Fd6&hS9%aM", "Fd6&hS9%aM", "PASSWORD"),
    ("Usuario: jlopez / Contrasena: Lm2^cV6*gF", "Lm2^cV6*gF", "PASSWORD"),
    ("Brukernavn: ola / Passord: Lm2^cV6*gF", "Lm2^cV6*gF", "PASSWORD"),
    ("losenord: Xk9#mP2$vL", "Xk9#mP2$vL", "PASSWORD"),
    ("jelszo: Pz8@uN3#tK", "Pz8@uN3#tK", "PASSWORD"),
    ("salasana: Kc3!xB7$wN", "Kc3!xB7$wN", "PASSWORD"),
    ("adgangskode: Kc3!xB7$wN", "Kc3!xB7$wN", "PASSWORD"),
    ("PAROLA_DB=Kc3!xB7$wN", "Kc3!xB7$wN", "PASSWORD"),
    ('<password type="plain">Hb4%nK8&sD</password>', "Hb4%nK8&sD", "PASSWORD"),
    ("<Password><Value>Fd6&hS9%aM</Value></Password>", "Fd6&hS9%aM", "PASSWORD"),
    ("我的密码是 Hb4%nK8&sD，别告诉别人", "Hb4%nK8&sD", "PASSWORD"),
    ("mysql -h db -u root -p'Xk9#mP2$vL' shop", "Xk9#mP2$vL", "PASSWORD"),
    ("sshpass -pPz8@uN3#tK ssh pi@10.0.0.9", "Pz8@uN3#tK", "PASSWORD"),
    ("VISA4373113566805802 exp 11/27", "4373113566805802", "CREDIT_CARD"),
    ("mc5280897066394585", "5280897066394585", "CREDIT_CARD"),
    ("card 4027-6646 4381-3888", "4027-6646 4381-3888", "CREDIT_CARD"),
    ("Visa 4817.2861 4254 9625", "4817.2861 4254 9625", "CREDIT_CARD"),
    ("client_secret=auqowggralkxgcqvwthkjgltjfzosyym", "auqowggralkxgcqvwthkjgltjfzosyym", "SECRET"),
    ("secret: 84629175019283746", "84629175019283746", "SECRET"),
    (
        "Datadog API key for the event pipeline: 4763efc3879f387bde416faa7672b866",
        "4763efc3879f387bde416faa7672b866",
        "SECRET",
    ),
    (
        "webhook secret for the session service \u2192 tmk67CbScSvZ4svmi97jU2zabct3XSzu",
        "tmk67CbScSvZ4svmi97jU2zabct3XSzu",
        "SECRET",
    ),
    ("scrivimi a mario.rossi chiocciola libero punto it", "mario.rossi chiocciola libero punto it", "EMAIL"),
    ("mail naar jan apenstaartje voorbeeld punt nl", "jan apenstaartje voorbeeld punt nl", "EMAIL"),
    ("  db_password: >-\n    Fd6&hS9%aM", "Fd6&hS9%aM", "PASSWORD"),  # YAML block scalars
    ("password: |\n  Fd6&hS9%aM", "Fd6&hS9%aM", "PASSWORD"),
    (
        "Authorization: Bearer ZlLUGuhh0vZvPMGjK8WK:MreCr61ctPn9M39RHtIM",
        "ZlLUGuhh0vZvPMGjK8WK:MreCr61ctPn9M39RHtIM",
        "BEARER_TOKEN",
    ),
    ("SSN: 616-07 7617", "616-07 7617", "US_SSN"),  # separators that change, after a label
    ("Seat A12 4160044807080847", "4160044807080847", "CREDIT_CARD"),  # "A12" is no IBAN's country and check digits
    ("creds: admin / Hb4%nK8&sD", "Hb4%nK8&sD", "PASSWORD"),
    ("maestro card 5901234123457", "5901234123457", "CREDIT_CARD"),
    ("Caller ID: 07812 088668", "07812 088668", "PHONE"),
    ("tel:07812088668", "07812088668", "PHONE"),
    ("Mob-0161 422 7991", "0161 422 7991", "PHONE"),
    ("Tel+44 7400 123831", "+44 7400 123831", "PHONE"),
    # Cards after another number, glued to a label, with wider separators, other networks.
    ("exp 09/27 5292 4741 1667 7371", "5292 4741 1667 7371", "CREDIT_CARD"),
    ("CVV 314 4319 7686 3353 8616", "4319 7686 3353 8616", "CREDIT_CARD"),
    ("Card 2 4408 3160 0869 9340", "4408 3160 0869 9340", "CREDIT_CARD"),
    ("card 5292 4741 1667 7371 123", "5292 4741 1667 7371", "CREDIT_CARD"),
    ("Karten-Nr.4273444366480343", "4273444366480343", "CREDIT_CARD"),
    ("VISA-4619770504435770", "4619770504435770", "CREDIT_CARD"),
    ("5554312189007949CVV123", "5554312189007949", "CREDIT_CARD"),
    ("4049161248292117-0927", "4049161248292117", "CREDIT_CARD"),
    ("cc: 5235  5251  3779  0442", "5235  5251  3779  0442", "CREDIT_CARD"),
    ("cc: 5454 - 1882 - 0020 - 8729", "5454 - 1882 - 0020 - 8729", "CREDIT_CARD"),
    ("cc: 5251\t2922\t1219\t5109", "5251\t2922\t1219\t5109", "CREDIT_CARD"),
    ("card 5568\u20531208\u20537732\u20533708", "5568\u20531208\u20537732\u20533708", "CREDIT_CARD"),
    ("RuPay card 8174.5504.1461.1316 failed", "8174.5504.1461.1316", "CREDIT_CARD"),
    ("Troy kartı: 9792 1424 8883 5870", "9792 1424 8883 5870", "CREDIT_CARD"),
    ("humo card: 9860 0722 9710 2823", "9860 0722 9710 2823", "CREDIT_CARD"),
    ("card 4532 23l9 2Ol2 lOOl", "4532 23l9 2Ol2 lOOl", "CREDIT_CARD"),
    ("card: 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "CREDIT_CARD"),
    # Phones: French pairs, glued labels, double spaces, after short numbers, "+" numbers the
    # metadata does not know, bracketed country codes, a trunk kept after the country code.
    ("Rappelez-moi au 03.58.84.58.74, merci", "03.58.84.58.74", "PHONE"),
    ("Le livreur a appelé le 09-44-61-98-84.", "09-44-61-98-84", "PHONE"),
    ("Kontakt Tel.0171 2345678", "0171 2345678", "PHONE"),
    ("Büro T.0161 496 0123", "0161 496 0123", "PHONE"),
    ("tel: +44 20  7946 0123", "+44 20  7946 0123", "PHONE"),
    ("Hotline 24/7 0800 123 4567 (kostenlos)", "0800 123 4567", "PHONE"),
    ("Sprechzeiten Mo-Fr 9-17 030 2345678", "030 2345678", "PHONE"),
    ("Room 12 0161 496 0123 ext 4", "0161 496 0123", "PHONE"),
    ("Zimmer 4.12 0171 2345678", "0171 2345678", "PHONE"),
    ("Customer +44 7911 123456 called twice", "+44 7911 123456", "PHONE"),
    ("The phone for the booking is 07911 123456.", "07911 123456", "PHONE"),
    ("Rappelez au +420 654 658 599", "+420 654 658 599", "PHONE"),
    ("Mob: (+91) 74682 53558, Office", "(+91) 74682 53558", "PHONE"),
    ("My number is 7590723412 btw", "7590723412", "PHONE"),
    ("Handynummer: 01712345678", "01712345678", "PHONE"),
    ("call +44 07911 123456", "+44 07911 123456", "PHONE"),
    ("Rappelez au +l 97l 447 7686", "+l 97l 447 7686", "PHONE"),
    ("switchboard: (212) 736-lOOO", "(212) 736-lOOO", "PHONE"),
    # IBANs: letters in the account part, letters for digits, double spaces, dots.
    ("IBAN BH62 BBKU A187 8Z29 5M51 98", "BH62 BBKU A187 8Z29 5M51 98", "IBAN"),
    ("IBAN luxembourgeois : LU18 3531 I818 4239 1720", "LU18 3531 I818 4239 1720", "IBAN"),
    ("IBAN DE905l9886O83832O9446l", "DE905l9886O83832O9446l", "IBAN"),
    ("IBAN ES42  0559  9383  0541  0027  9434", "ES42  0559  9383  0541  0027  9434", "IBAN"),
    ("IBAN FR76.6529.7008.7177.4603.4393.730", "FR76.6529.7008.7177.4603.4393.730", "IBAN"),
    # SSNs: glued to the label, "social", "SS number", a swung dash.
    ("SSN-123-04-2078", "123-04-2078", "US_SSN"),
    ("the applicant's social is 557 85 3890, please verify", "557 85 3890", "US_SSN"),
    ("SS number 518 19 2947", "518 19 2947", "US_SSN"),
    ("SSN 622\u205351\u20536614", "622\u205351\u20536614", "US_SSN"),
    # Emails: defanged, dashed, mixed, other languages, country domains, combo lists, ports.
    ("mail me: joao.schmidt[@]uol[.]com[.]br", "joao.schmidt[@]uol[.]com[.]br", "EMAIL"),
    (
        "écrivez à hannah.yamamoto -at- hotmail -dot- co -dot- uk",
        "hannah.yamamoto -at- hotmail -dot- co -dot- uk",
        "EMAIL",
    ),
    ("write yuki.lefevre (ät) acme-corp (punkt) io", "yuki.lefevre (ät) acme-corp (punkt) io", "EMAIL"),
    (
        "mail me: fatima.iyer arroba barclays punto co punto uk",
        "fatima.iyer arroba barclays punto co punto uk",
        "EMAIL",
    ),
    ("mail me: ravi.martin arobase protonmail point ch", "ravi.martin arobase protonmail point ch", "EMAIL"),
    ("reach me: lukas@gmx dot de", "lukas@gmx dot de", "EMAIL"),
    ("mail jane.doe\uff20example dot com", "jane.doe\uff20example dot com", "EMAIL"),
    ("reach me: jane [at] example dot com", "jane [at] example dot com", "EMAIL"),
    ("reach me: jane at example [dot] com", "jane at example [dot] com", "EMAIL"),
    ("reach me: sophie at orange . fr", "sophie at orange . fr", "EMAIL"),
    ("mail: jan.novak at seznam dot cz", "jan.novak at seznam dot cz", "EMAIL"),
    ("mail: budi at telkom dot co dot id", "budi at telkom dot co dot id", "EMAIL"),
    ("combo list: jane.doe@gmail.com:Summer2024!", "jane.doe@gmail.com", "EMAIL"),
    ("smtp_user=alerts@acme-corp.io:587", "alerts@acme-corp.io", "EMAIL"),
    # IPv6 after a key's colon.
    ("IPv6:2a00:1450:4001:82a::200e", "2a00:1450:4001:82a::200e", "IP_ADDRESS"),
    ("client_ip:2001:db8:85a3::8a2e:370:7334", "2001:db8:85a3::8a2e:370:7334", "IP_ADDRESS"),
    # Passwords: other languages, words before the assignment, markup, netrc, command lines, key
    # names with suffixes, values that open with a symbol or hold brackets.
    ("Passwort: Xk9Nj9M6#435", "Xk9Nj9M6#435", "SECRET"),
    ("Das Kennwort für den Router ist washer-tiger-74", "washer-tiger-74", "SECRET"),
    ("Mot de passe : Soleil2021?", "Soleil2021", "SECRET"),
    ("mdp: !--M$KHLMzn8kIxL", "!--M$KHLMzn8kIxL", "SECRET"),
    ("contraseña: correct-tiger-30", "correct-tiger-30", "SECRET"),
    ("senha: horse-tiger-51", "horse-tiger-51", "SECRET"),
    ("wachtwoord: Tulp2024!x", "Tulp2024!x", "SECRET"),
    ("パスワード：P@ssw0rd95", "P@ssw0rd95", "SECRET"),
    ("password di accesso: Summer2025%", "Summer2025%", "SECRET"),
    ("Password for jane@example.com: Summer2024!", "Summer2024!", "SECRET"),
    ("<password>dish-tiger-35</password>", "dish-tiger-35", "SECRET"),
    ("<pass>Sommer2024#</pass>", "Sommer2024#", "SECRET"),
    ('<add key="SmtpPassword" value="Mumbai2025%" />', "Mumbai2025%", "SECRET"),
    ("machine api.heroku.com login jdoe password Xk9k3lTS#566", "Xk9k3lTS#566", "SECRET"),
    ("connecting to db as app with password Xk9V27z4#819", "Xk9V27z4#819", "SECRET"),
    ("docker login -u ci-bot -p dckrPw2024!x registry.example.com", "dckrPw2024!x", "SECRET"),
    ("mysql -u root -pS3cr3tRoot! shop < dump.sql", "S3cr3tRoot!", "SECRET"),
    ("redis-cli -h cache -a r3d1sPassw0rd ping", "r3d1sPassw0rd", "SECRET"),
    ("sshpass -p 'Tr0ub4dor&3' ssh admin@bastion", "Tr0ub4dor&3", "SECRET"),
    ("DB_PASSWORD_PROD=K10tvFlLANawHP1", "K10tvFlLANawHP1", "SECRET"),
    ("PASSWORD2=dFz6KzYYjUe", "dFz6KzYYjUe", "SECRET"),
    ("DB_PW=Mumbai2022?", "Mumbai2022?", "SECRET"),
    ("PGPASS=Tokyo2019*", "Tokyo2019*", "SECRET"),
    ("pw: hunter2024", "hunter2024", "SECRET"),
    ("DB_PASSWORD=@dmin123!", "@dmin123!", "SECRET"),
    ("DB_PASSWORD=%Tg7!kq2Lm", "%Tg7!kq2Lm", "SECRET"),
    ("DB_PASSWORD=#Winter2024", "#Winter2024", "SECRET"),
    ("password: Xk9(a;P2|wQ", "Xk9(a;P2|wQ", "SECRET"),
    ("password: Hunter(2)Go!", "Hunter(2)Go!", "SECRET"),
    ("passphrase: correct.horse.battery.staple", "correct.horse.battery.staple", "SECRET"),
    ("creds: admin/Hunter2024", "admin/Hunter2024", "SECRET"),
    # Secrets under keys that name them with a suffix, a bare "key", a qualified key in prose.
    ("API_KEY_V2=ySkvfX0Z1FGkUYf8v0v0OIa6oCx50E2V", "ySkvfX0Z1FGkUYf8v0v0OIa6oCx50E2V", "SECRET"),
    ("GITHUB_TOKEN_RO=EX4MVLDbg8VVhCe9eqQems6PIxVWfdUC", "EX4MVLDbg8VVhCe9eqQems6PIxVWfdUC", "SECRET"),
    ("STRIPE_KEY=KoQvdqLACLSLEn73jkkGq3IVqZARsJ95", "KoQvdqLACLSLEn73jkkGq3IVqZARsJ95", "SECRET"),
    (
        "FERNET_KEY=LMMMjHRGsW7h-t2ej2jRxIz9_8gXQqyw60GW3wabFnS=",
        "LMMMjHRGsW7h-t2ej2jRxIz9_8gXQqyw60GW3wabFnS=",
        "SECRET",
    ),
    ("CLIENT_SECRET_PROD=wSB0bWu9eqjfoedySxntqA5LLClGva0h", "wSB0bWu9eqjfoedySxntqA5LLClGva0h", "SECRET"),
    (
        '{"username":"jdoe","key":"02da32d4cbc686b2b3ec6084cd8f955ce0267155"}',
        "02da32d4cbc686b2b3ec6084cd8f955ce0267155",
        "SECRET",
    ),
    (
        "HMAC key qqKz7r6meNtNb9oRXoZqpFavrwsXmwsrkDUYxCQ3MBu7= (webhooks)",
        "qqKz7r6meNtNb9oRXoZqpFavrwsXmwsrkDUYxCQ3MBu7=",
        "SECRET",
    ),
    # Credentials in URLs holding "#", "?", "/" and "@".
    ("DATABASE_URL=postgres://app:Xk9h5P9s#308@db.internal:5432/orders", "app:Xk9h5P9s#308", "SECRET"),
    ("ftp://deploy:Winter2019#@files.example.org/upload/", "deploy:Winter2019#", "SECRET"),
    ("DATABASE_URL=postgres://app:aB3/xY9+kLq2@db.internal:5432/orders", "app:aB3/xY9+kLq2", "SECRET"),
    ("DATABASE_URL=postgres://app:p@ss/w0rd#1@db.internal:5432/orders", "app:p@ss/w0rd#1", "SECRET"),
    # A second reviewer's corpus: letter-only account parts, verbs and particles after a label,
    # labels the view spells with Latin letters, configuration directives, a key qualified by the
    # word before it.
    ("Przelew na konto QA29JDMLLZ5JG2MQSFUCZ6PGLPTYD", "QA29JDMLLZ5JG2MQSFUCZ6PGLPTYD", "IBAN"),
    ("Neues Passwort lautet N0v3mber!", "N0v3mber!", "SECRET"),
    ("パスワードはP@ssw0rd#1です", "P@ssw0rd#1", "SECRET"),
    ("密码是Xk9#mP2$vL", "Xk9#mP2$vL", "SECRET"),
    ("пароль: Xk9#mP2$vL", "Xk9#mP2$vL", "SECRET"),
    ("şifre: MyDog$Rex2019", "MyDog$Rex2019", "SECRET"),
    ("auth_pass gH7&kL9*", "gH7&kL9*", "SECRET"),
    ("requirepass winter_is_here_7", "winter_is_here_7", "SECRET"),
    ("rootpw Tr0ub4dor&3", "Tr0ub4dor&3", "SECRET"),
    ("heroku api key: b7a2089b-acb8-d65f-a96d-5a609a1d7136", "b7a2089b-acb8-d65f-a96d-5a609a1d7136", "SECRET"),
    (
        "key: \u03c7\u03bf\u03c7b-276408909737-9532214460460-0iKml7InYl5bFydAGp05Z3OE",
        "\u03c7\u03bf\u03c7b-276408909737-9532214460460-0iKml7InYl5bFydAGp05Z3OE",
        "SECRET",
    ),
    # Spelt out with two spaces, or unevenly; braces for brackets.
    ("mail: j  a  n  e  @  g  m  a  i  l  .  c  o  m", "j  a  n  e  @  g  m  a  i  l  .  c  o  m", "EMAIL"),
    ("mail j a n e . d o e  @  g m a i l . c o m", "j a n e . d o e  @  g m a i l . c o m", "EMAIL"),
    ("mobile: 0  7  9  1  1  1  2  3  4  5  6", "0  7  9  1  1  1  2  3  4  5  6", "PHONE"),
    ("reach me: jane{@}example{.}com", "jane{@}example{.}com", "EMAIL"),
    # A source-aware reviewer's round: credentials with "#" and "&=" in the password beside an
    # address-shaped tail, a query's address, a mail provider's capitalised domain, Greek letters.
    ("proxy = http://jdoe:Spring#2024@proxy.corp.com:3128", "jdoe:Spring#2024", "SECRET"),
    ("https://hook:x&y=z!42@hooks.example.com/in", "hook:x&y=z!42", "SECRET"),
    ("https://example.com?email=jane.doe@gmail.com", "jane.doe@gmail.com", "EMAIL"),
    ("write mikesmith at Gmail.com", "mikesmith at Gmail.com", "EMAIL"),
    ("mande para joao.silva at gmail ponto com", "joao.silva at gmail ponto com", "EMAIL"),
    ("Customer: 0161 586 5259", "0161 586 5259", "PHONE"),
    ("backup_192.168.1.10.tar.gz", "192.168.1.10", "IP_ADDRESS"),
    ("ARP table: 192.168.1.10 at 00:11:22:33:44:55", "192.168.1.10", "IP_ADDRESS"),
    ("stripe sk_liv\u03b5_51Z4kZJbQ4JQ5gTk2qddc6bSna", "sk_liv\u03b5_51Z4kZJbQ4JQ5gTk2qddc6bSna", "SECRET"),
    ("curl -u 'admin:Xk9#mP2$vL' https://api.example.com", "admin:Xk9#mP2$vL", "SECRET"),
    # Secrets set in code and SQL, phrasings, labels inside names, values holding an apostrophe.
    ("config['password'] = 'Xk9#mP2$vL'", "Xk9#mP2$vL", "SECRET"),
    ('os.environ["DB_PASSWORD"] = "Xk9#mP2$vL"', "Xk9#mP2$vL", "SECRET"),
    ("define('DB_PASSWORD', 'Xk9#mP2$vL');", "Xk9#mP2$vL", "SECRET"),
    ('props.setProperty("password", "Xk9#mP2$vL")', "Xk9#mP2$vL", "SECRET"),
    ('ds.setPassword("Xk9#mP2$vL");', "Xk9#mP2$vL", "SECRET"),
    ("CREATE USER app WITH PASSWORD 'Xk9#mP2$vL';", "Xk9#mP2$vL", "SECRET"),
    ('<property name="password" value="Xk9#mP2$vL"/>', "Xk9#mP2$vL", "SECRET"),
    ('r = requests.get(url, auth=("bob", "Xk9#mP2$vL"))', "Xk9#mP2$vL", "SECRET"),
    ('$password = ConvertTo-SecureString "Xk9#mP2$vL" -AsPlainText -Force', "Xk9#mP2$vL", "SECRET"),
    ("$password = 'Ol@2024sol';", "Ol@2024sol", "SECRET"),
    ("Password was changed to Summer2024!", "Summer2024!", "SECRET"),
    ("the password for the router is now Xk9#mP2$vL", "Xk9#mP2$vL", "SECRET"),
    ("Das neue Kennwort heißt Xk9#mP2$vL", "Xk9#mP2$vL", "SECRET"),
    ("le mot de passe devient Xk9#mP2$vL", "Xk9#mP2$vL", "SECRET"),
    ("DB_PASSWORT=Xk9#mP2$vL", "Xk9#mP2$vL", "SECRET"),
    ("MDP_BDD=Xk9#mP2$vL", "Xk9#mP2$vL", "SECRET"),
    ("password: Don'tPanic42", "Don'tPanic42", "SECRET"),
    ("DB_PASSWORD=@dmin123", "@dmin123", "SECRET"),
    ("password: /Xk9mP2#q", "/Xk9mP2#q", "SECRET"),
    ("token=%3Dghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789a", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789a", "SECRET"),
    (
        "Authorization: Bearer 653|2oYCUm6J8E02lb0whmm327yLXooqhSdf4x3J9gGz",
        "653|2oYCUm6J8E02lb0whmm327yLXooqhSdf4x3J9gGz",
        "SECRET",
    ),
    ("SSN737-70-0210", "737-70-0210", "US_SSN"),
    ("SSN: 017 - 79 - 7245", "017 - 79 - 7245", "US_SSN"),
    ("call 0151 001 3608x12", "0151 001 3608x12", "PHONE"),
    ("mail: info at acme dot com", "info at acme dot com", "EMAIL"),
    ("Customer: 0161 586 5259", "0161 586 5259", "PHONE"),
    ("Jane at example.com wrote back", "Jane at example.com", "EMAIL"),
    ("os.getenv('DB_PASSWORD', 'Xk9#mP2$vL')", "Xk9#mP2$vL", "SECRET"),
    ("pin: 4821", "4821", "SECRET"),
    ('accessToken: "Wq8zLm3Nx7Pt2Kv9Rb4Yc6Hd"', "Wq8zLm3Nx7Pt2Kv9Rb4Yc6Hd", "SECRET"),
    # Provider tokens behind look-alike letters and in an API URL.
    ("runner \u050cR1348941GV8E4JUOLhIuqHM0f8-h", "\u050cR1348941GV8E4JUOLhIuqHM0f8-h", "SECRET"),
    ("stripe s\u043a_live_51Z4kZJbQ4JQ5gTk2qddc6bSna", "s\u043a_live_51Z4kZJbQ4JQ5gTk2qddc6bSna", "SECRET"),
    (
        "curl https://api.telegram.org/bot7167280079:AATRvFoaIWwdB7bw-O6fOFdppl5IcXkd6tY/sendMessage",
        "7167280079:AATRvFoaIWwdB7bw-O6fOFdppl5IcXkd6tY",
        "SECRET",
    ),
    (
        "dnkey-CD9XB41WF73CDQ96DHV8VQEIGJ-S8M5UBY6QFB6X6JYVBBL6C0PY89IUHSPRZ0Z3Q73X7Q3B7PJGGE7 leaked",
        "dnkey-CD9XB41WF73CDQ96DHV8VQEIGJ-S8M5UBY6QFB6X6JYVBBL6C0PY89IUHSPRZ0Z3Q73X7Q3B7PJGGE7",
        "SECRET",
    ),
    # Passwords shaped like what ends or refuses a value: brackets, words, identifiers alone on their
    # line after a password's key; configuration directives that take one.
    ("password: K9<mQ>2z!", "K9<mQ>2z!", "PASSWORD"),
    ("password: {Zq8}Lm3!", "{Zq8}Lm3!", "PASSWORD"),
    ("DB_PASSWORD=a7<Tq}9Lx", "a7<Tq}9Lx", "PASSWORD"),
    ("password: correct horse battery staple", "correct horse battery staple", "PASSWORD"),
    ("wifi password: purple monkey dishwasher 7", "purple monkey dishwasher 7", "PASSWORD"),
    ("passphrase = tulip anchor velvet 42 orbit\nuser = bob", "tulip anchor velvet 42 orbit", "PASSWORD"),
    ("password: iLoveSecrets", "iLoveSecrets", "PASSWORD"),
    ("pwd: myPassword", "myPassword", "PASSWORD"),
    ("password: HUNTER_2024", "HUNTER_2024", "PASSWORD"),
    ("ADMIN_PASS=ROOT_ADMIN_77", "ROOT_ADMIN_77", "PASSWORD"),
    ("password: correct_horse_battery_staple", "correct_horse_battery_staple", "PASSWORD"),
    ("password: Welcome.Home1", "Welcome.Home1", "PASSWORD"),
    ("masterauth N0v3mber!", "N0v3mber!", "PASSWORD"),
    ('psk="hunter2!"', "hunter2!", "PASSWORD"),
    ("bindpw Xk9#mP2$vL", "Xk9#mP2$vL", "PASSWORD"),
    (
        "the token for the build job: 365012fc0b626de18df77f527ef72601d1accfb9",
        "365012fc0b626de18df77f527ef72601d1accfb9",
        "SECRET",
    ),
    # Cards after a short group that is no part of them; French numbers in pairs after a booking; an
    # address after a version word where the line names an address or the numbers are no version; a
    # URL password that opens with a digit and a "/".
    ("cid 4417 3708 090482 96871", "3708 090482 96871", "CREDIT_CARD"),
    ("txn 8812 4144 3960 4589 4590 approved", "4144 3960 4589 4590", "CREDIT_CARD"),
    ("exp 0927 4966 8199 7852 7817", "4966 8199 7852 7817", "CREDIT_CARD"),
    ("CVV: 123 4111-1111-1111-1111", "4111-1111-1111-1111", "CREDIT_CARD"),
    ("Booking: 01 23 47 17 37", "01 23 47 17 37", "PHONE"),
    ("Reservation 02 08 52 61 97 (table for 4)", "02 08 52 61 97", "PHONE"),
    ("order ref 06.12.34.56.78 to confirm", "06.12.34.56.78", "PHONE"),
    ("build agent ip \u2192 build: 10.1.2.3", "10.1.2.3", "IP_ADDRESS"),
    ("v 81.2.69.160", "81.2.69.160", "IP_ADDRESS"),
    ("REDIS_URL=redis://default:9/kLm2?Qx@cache.internal:6379/0", "default:9/kLm2?Qx", "URL_CREDENTIALS"),
    # Values in a column of delimited text whose header names them.
    (
        "employee_id,first_name,last_name,ssn,hire_date\n1042,Maria,Gonzalez,105032014,2019-04-01",
        "105032014",
        "US_SSN",
    ),
    (
        "User name,Password,Access key ID,Secret access key\n"
        "ci-bot,,AKIAFAEOMEZF6BLS4EWE,Wx9+/0ne3alCCzSdE91aPAVQTiqQIV3442cfCQDr",
        "Wx9+/0ne3alCCzSdE91aPAVQTiqQIV3442cfCQDr",
        "SECRET",
    ),
    ("id,name,email,phone\n1042,Anika Sharma,anika@example.de,09587731112", "09587731112", "PHONE"),
    ("name;Phone Number;city\r\nBob;020 7946 0123;London", "020 7946 0123", "PHONE"),
    ("user\tpassword\nalice\thunter22", "hunter22", "PASSWORD"),
    ("id|card_number|exp\n1|4111111111111111|09/27\n2|5555555555554444|01/28", "5555555555554444", "CREDIT_CARD"),
    # Tabs between groups; a loopback address after a key naming an address; "→" as an assignment;
    # digits spelt one at a time in groups set apart by two spaces.
    ("tel:\t+44\t20\t7946\t0123", "+44\t20\t7946\t0123", "PHONE"),
    ("phone\t020\t7946\t0123", "020\t7946\t0123", "PHONE"),
    ("IBAN\tFR76\t8763\t2106\t9233\t2231\t9443\t462", "FR76\t8763\t2106\t9233\t2231\t9443\t462", "IBAN"),
    ("X-Forwarded-For: ::1", "::1", "IP_ADDRESS"),
    ("remote_addr=::ffff:a00:1", "::ffff:a00:1", "IP_ADDRESS"),
    ("heroku auth:token \u2192 5ad8767a-4805-28ac-b46e-88b8da5b280e", "5ad8767a-4805-28ac-b46e-88b8da5b280e", "SECRET"),
    ("my card: 4 8 2 5  0 1 2 5  4 1 2 3  9 6 4 6", "4 8 2 5  0 1 2 5  4 1 2 3  9 6 4 6", "CREDIT_CARD"),
    ("mobile: 0 7 9 1 1  1 2 3  4 5 6", "0 7 9 1 1  1 2 3  4 5 6", "PHONE"),
    (
        "her social security number, which she read out twice over the phone, was 407 42 6160",
        "407 42 6160",
        "US_SSN",
    ),
]


@pytest.mark.parametrize(("text", "value", "family"), POSITIVES, ids=[case[0][:40] for case in POSITIVES])
def test_found(text: str, value: str, family: str) -> None:
    assert covered(text, value, family), [(f.type, text[f.start : f.end]) for f in detect(text)]


NEGATIVES = [
    # Underscored numbers that are no card (a numeric literal, Luhn fails), a quote before "@" in code.
    "LIMIT = 1_000_000_000_000_000",
    "id = 4111_1111_1111_1112",
    'print("a"@b)',
    "server at [::1]:8080 and admin@[not-an-ip]",
    # "parola" is Italian for "word" too; "-p" alone prompts; a label inside a longer word.
    "una parola: ciao",
    "La parola: amore",
    "mysql -p dbname",
    "hotel-0161 and motel-2",
    "ref 4027-6646 4381-3888",  # groups whose separators change: a card only where one is named
    "la chiocciola è un animale lento",  # Italian for "snail", and for "@"
    "password: |\n  please ask the admin",
    "description: |\n  Some text here",
    "client_secret=yourclientsecrethere",
    "creds: see the vault / ask ops",
    "creds: admin / password",
    "PN-4412,5901234123457,Washer M8",  # an EAN-13 that passes Luhn: a 13-digit Maestro only where a card is named
    # What follows a password's name in code, configs and command lines without being its value: the
    # next option, a URL's rest, a shell expansion, a PowerShell variable, a type, a lambda; "pass"
    # the noun; identifiers in a key=value run or under a key that names one (a third review).
    "mongo -u admin -p --authenticationDatabase admin",
    "mysql --user=app --password --database=app",
    "pg_dump --password --format=custom app",
    "redis-cli --pass --help",
    "az keyvault secret show --vault-name kv --name db-password --version 7f3a9c",
    "kubectl delete secret db-password --namespace prod",
    "aws ssm get-parameter --name /prod/db-password --with-decryption",
    "proxy_pass http://backend;",
    "grpc_pass grpc://inventory:50051;",
    'export PGPASSWORD="${DB_PASSWORD:?missing}"',
    "PASSWORD=${PASSWORD:-$(cat /run/secrets/db_password)}",
    "$password = $env:APP_PASSWORD",
    'password=lambda: prompt("Password")',
    "password = property(_get_password, _set_password)",
    "fn login(user: &str, password: &str) -> bool {",
    "    password: *const c_char,",
    "    secret: &SecretString,",
    "first pass: tokenize, second pass: parse",
    "the final pass: codegen",
    '{"msg":"token refreshed","token_id":"tok_01HQ3K5N8Z9Y7X6W5V4T3S2R1Q"}',
    "token refreshed, request_id=01HQ3K5N8Z9Y7X6W5V4T3S2R1Q",
    "token revoked id=8f14e45fceea167a5a36dedd4cea2543",
    "Na standartě prezidenta je heslo „Pravda vítězí“.",  # Czech "heslo": a motto as well
    "Heslo „Praha 2024“ bylo na plakátech.",
    "the caller passed 12345678 as the size",
    "ERROR caller=4412345678 depth=3",
    "TEL-20240115 release tag",
    "mob-12345678 entity id",
    "Ho visto una chiocciola nel punto in cui il muro finisce.",  # a snail, at a point
    "secret manager version for prod: 4bf92f3577b34da6a3ce929d0e0e4736",
    "part 616-07 7617",
    "call 616-07 7617 now",  # one case of letters, and words: a placeholder
    "secret: 100000000000",
    "Reverted the password-policy change in 3f786850e387550fdab836ed7e6dc881de23001b.",
    "emc5280897066394585",
    # Asset names, company mentions, hosts after ":" in SSH remotes.
    "Assets/UI/icon@2x.png.meta",
    "icons/close@2x-dark.png",
    "design/hero@2x.psd (layered source)",
    "I'm a data scientist at Booking.com since 2019.",
    "said Jan Berg, CTO at Acme.io, in a statement.",
    "git clone git@github.com:org/repo.git",
    "deploy@host.example.com:/var/www",
    "stay-at-home.example.org is a site",
    "look at example dot com",
    # Code and configuration that names a secret without holding one.
    "if (password == confirmPassword) {",
    "password: currentPassword,",
    "password = getpass()",
    "password: foo(bar)",
    "password: !vault |",
    "MasterUserPassword: !Ref DBPassword",
    "password: env:DB_PASSWORD",
    "password: secretsmanager:prod/db:password",
    "GOOGLE_APPLICATION_CREDENTIALS=/path/to/key.json",
    "ssh_key: /home/deploy/.ssh/id_ed25519",
    "DATABASE_URL=postgres://app:${DB_PASSWORD}@db.internal:5432/orders",
    "engine: postgresql://app:***@db:5432/orders",
    "mongodb://<username>:<password>@cluster0.example.mongodb.net/",
    "postgres://user:password@localhost:5432/mydb",
    "http://host:8080/path/to/page",
    "docker run -p 8080:80 nginx:1.25.3",
    "mysql -u root -p shop",
    "password expiry is 90days",
    "the password reset link is broken",
    "sort_key = created_at",
    "public_key: MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE4",
    '"key": "550e8400-e29b-41d4-a716-446655440000"',
    "cache_key=user:42:profile",
    "Passwort vergessen? Hier zurücksetzen.",
    "Wachtwoord vergeten?",
    "mongodb://admin:<password>@cluster0.example.net/test",
    # Identifiers and digests next to secret words.
    "Token refresh failed for session 7f9c2ba4-e88f-4e2a-9c1b-3d6e5f4a3b2c",
    "fix token expiry handling (commit 9fceb02d0ae598e95dc970b74767f19372d61af8)",
    "revoked secret version 4bf92f3577b34da6a3ce929d0e0e4736",
    "sha256 of the token: 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
    # Versions and section numbers with four parts, paths in code.
    '[assembly: AssemblyVersion("1.0.0.0")]',
    "<Version>1.2.0.0</Version>",
    '"version_name": "2.3.1.0"',
    "See RFC 5280 section 4.2.1.3 (Key Usage).",
    "let c = Add::add(a, b);",
    "Dead::beef()",
    # Amounts, dice, part numbers, ISBNs, IMEIs.
    "Le chiffre d'affaires consolidé atteint 2 345 678 901 € en 2023.",
    "Das Vermögen beträgt 9 876 543 210 CHF.",
    "Общий объём: 9 812 345 670 руб.",
    "Sudoku rows 1-2: 3 4 6 9 8 1 7 5 2 8 3 7 2 4 5 6 9 1",
    "Dice log: 4 2 4 5 4 2 4 3 5 2 4 6 5 4 4 6",
    "Part number 302-15-4421 (torque sensor)",
    "Le Petit Prince, Gallimard, 2-07-040850-5",
    "Bowling pins per roll: 6 0 3 5 7 6 9 8 8 2 7 3 7 8 3 2",
    # Words a form or a log puts after a label, type names, ids that pass Luhn, code.
    "Password: Incorrect",
    "Kennwort: Abgelaufen",
    "Password last changed: 12-Mar-2024",
    "Password reset-link expired, request a new one.",
    "Boarding pass: gate B44, seat 12A",
    "password: SecretStr = Field(...)",
    "token: CancellationToken",
    "pin: GPIO17",
    "Idempotency-Key: 8f14e45fceea167a5a36dedd4bea2543",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "docker run -u 1000:1000 app",
    "curl -u $USER:$TOKEN https://api.example.com",
    "token contract 0xdAC17F958D2ee523a2206206994597C13D831ec7",
    "chore(token-refresh): revert 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "She is an engineer at booking.com in Amsterdam.",
    "docs deployed at docs.example.io",
    "scores = q@k.transpose(-2, -1) / math.sqrt(d)",
    "Assets/font@2x.fnt",
    "The octets 9 876 543 210 were counted.",
    "Abschnitt 3.2.1.4 beschreibt das Verfahren.",
    "values[100::200]",
    "EAN-13: 4008627617607 (barcode on the box)",
    "Discord channel id 651634672597647973 muted",
    "AliExpress order number: 3040029165063095",
    "FedEx tracking 487378869304818",
    'print("password", "is required")',
    # A third reviewer's ordinary text: changesets, codes and numbers after nouns that name them,
    # masks and browser versions, services' hosts, slugs and resource ids after secret words,
    # settings named like passwords, a password policy in several languages, pagination tokens.
    "Liquibase changeset 2024-03-14-01 by platform team.",
    "Customer number 2125550143 reported the issue twice.",
    "HTS code 6109.10.0012 applies to cotton shirts.",
    "NDC 50090-1234-1 is listed in the formulary.",
    "Asset tag 020 7946 0958 is on the laptop.",
    "Coordinates: 52.520008 13.404954",
    "Ref 212-45-7890 in the procurement system.",
    "Subnet mask 255.255.255.0 corresponds to /24.",
    "Wildcard mask 0.0.0.255 is used in Cisco ACLs.",
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/122.0.0.0 Safari/537.36",
    "Timecode 10.15.30.12 marks the start of the scene.",
    "Sign in at portal.azure.com with your work account.",
    "Errors at sentry.io spiked after the deploy.",
    "preds = features@model.coef",
    "The client secret for app registration payments-api-prod-2024 expires in June.",
    "The token refresher pod token-refresher-7d9f8b6c5d-x2k4p crashed twice.",
    "Fix token refresh race (9fceb02d0ae598e95dc970b74767f19372d61af8)",
    "Encryption key rotation for volume vol-0a1b2c3d4e5f6a7b8 finished.",
    "License key for WindowsServer2022Datacenter is in the asset DB.",
    "fetch(url, { method: 'POST', credentials: 'same-origin' })",
    '{"token": "New York", "label": "GPE", "start": 12}',
    "auth: oauth2-client-credentials",
    "secret: db-credentials-v2",
    'raise ValueError("token", "expired at 2024-03-14T09:26:53Z")',
    "high_pass = 3000",
    "int pw = 1500; // pulse width in microseconds",
    "Tests: pass=1187 fail=3 skip=12",
    "パスワードは12文字以上にしてください。",
    "Password: 8-64 characters, at least one digit.",
    "Password: 1Password (Engineering vault)",
    "password: reset",
    "Passwort: mindestens 12 Zeichen",
    "Contraseña: mínimo 12 caracteres",
    "密码：至少8位",
    '"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA"',
    "password: isn't set",
    "password_hash: $2b$12$abcdefghijklmnopqrstuv",
    "the password is now expired",
    "docker run -u 1000:1000 -v $PWD:/app node:20 npm test",
    "curl -u admin:$ADMIN_PASSWORD https://jenkins.local/api/json",
    "out = x@self.weight.T + self.bias",
    "more info at example.com",
    "Table 4.1.2.3 lists the limits.",
    "Requirement REQ 3.1.4.1 is satisfied.",
    "IMEI 490154203237518",
    "id-4111111111111111",
    "IBAN DE89 3704 0044 0532 0130 01 failed the checksum.",
    # What a password's key is followed by in code, templates and forms: variables, placeholders,
    # sentences, rules; brackets that hold a template's name; a "psk" that is a mode.
    "password: <your-password>",
    "password: {password}",
    "password: {{ vault_pw }}",
    "password: <%= ENV['DB_PASSWORD'] %>",
    "password: {get_param: db_pw}",
    "password: <PASSWORD>1",
    "password: please ask the admin",
    "password: at least twelve characters long",
    "password: same as above",
    "password: stored in the team vault",
    "password = newPassword",
    "password = user.password",
    "password = DEFAULT_PASSWORD",
    "password = hashed_user_pw",
    "password = self.password_hash",
    "password: currentPassword",
    "    password: loginForm.password,",
    "password = passwordInput.value;",
    "PASSWORD=ADMIN_USER",
    "password: env_var_name",
    "the psk was rotated",
    "PSK mode enabled",
    "secret manager version for prod: 4bf92f3577b34da6a3ce929d0e0e4736",
    "the token for the session id: 4bf92f3577b34da6a3ce929d0e0e4736",
    # Groups of a longer code, versions, a port before a path.
    "serial 8812 4144 3960 4589 4590",
    "license key 0927 4966 8199 7852 7817",
    "1234 4144 3960 4589 4590",
    "server version 10.1.2.3",
    "firmware 2.1.100.3",
    "build 10.0.19041.1",
    "http://api:8080/u/jane@example.com:8443/x",
    "http://host:8080/path/user@x",
    # Tables whose named columns hold no such value; names inside longer headers; prose with commas.
    "id,phone,notes\n1,unknown,call back\n2,n/a,-",
    "id,ssn,name\n1,123456,Bob",
    "id,password,user\n1,********,bob\n2,<redacted>,eve",
    "id,token_count,pass_rate\n1,123456789012,0.98",
    "id,card,exp\n1,4111111111111112,09/27",
    "id,secret,kind\n1,my-app-name,demo",
    "The phone, the card and the token were lost.\nWe found the phone, the card and the pass.",
    # Numbers in a table's columns, slices and scopes, digits one at a time after a clause's punctuation.
    "id\tcount\n1023\t4567\t890",
    "2024\t415\t555\t2671",
    "values[::1]",
    "x ::1 y",
    "std::vector<int> v;",
    "token \u2192 refresh flow",
    "Sudoku (first two rows): 6 1 7 5 2 3 9 4 8 8 3 5 2 4 1 6 7 9",
    "Dice: 4 8 2 5  0 1 2 5  4 1 2 3  9 6 4 6",
    # "pass" the noun and a column of pass or fail, a board's pin: no passphrase there.
    "first pass: tokenize parse emit",
    "pin: alpha bravo charlie",
    "student,pass,grade\nBob,passed,A",
    "SSN on file, see the attached scanned form.\nRoom 407 42 6160",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_left_alone(text: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []
    assert REDACT_ALL.scrub(text).text == text


def test_each_value_gets_the_token_of_its_plain_form() -> None:
    """An address written in any of the new forms is tokenised as the address itself."""
    scrubber = Scrubber({"EMAIL": "hash"}, hash_key=KEY)
    plain = scrubber.scrub("jane@example.com").text
    for written in (
        "jane[@]example[.]com",
        "jane -at- example -dot- com",
        "jane@example dot com",
        "jane at example [dot] com",
    ):
        assert scrubber.scrub(written).text == plain, written


# Each card label, dot word and CLI option is now written once; these are what the old copies
# disagreed on (one list lacked "maestro", another "ponto", a third read "pan" inside "japan").
ONE_LIST = [
    ("Maestro-4111111111111111", "4111111111111111", "CREDIT_CARD"),
    ("KARTI-4111-1111-1111-1111", "4111-1111-1111-1111", "CREDIT_CARD"),
    ("write to jane@example ponto com please", "jane@example ponto com", "EMAIL"),
    ("mysql -u root --password=Xk9pq2!a", "Xk9pq2!a", "SECRET"),
]


@pytest.mark.parametrize(("text", "value", "family"), ONE_LIST, ids=[case[0][:40] for case in ONE_LIST])
def test_found_by_each_use_of_a_word_list(text: str, value: str, family: str) -> None:
    assert covered(text, value, family), [(f.type, text[f.start : f.end]) for f in detect(text)]


def test_a_card_word_inside_another_word_names_no_card() -> None:
    text = "japan 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
    assert detect(text) == []
    assert detect(text.replace("japan", "pan")) != []


# A user name that is an address (SMTP relays, SaaS databases): found whole by a fourth reviewer
# who attacked the README's promises through the store; a scp-like remote after such a user is not.
ADDRESS_USERS = [
    "postgres://jane@example.com:Tr0ub4dor3xyz@db.example.org:5432/app",
    "ftp://jane@example.com:s3cr3t@ftp.example.org",
    "postgresql://jane.doe@corp.com:Hunter2Pass!@db.internal/app",
    "smtp://alerts@corp.example.com:Xk9#mQ2vL8pZ@smtp.example.com:587",
]


@pytest.mark.parametrize("text", ADDRESS_USERS)
def test_url_credentials_with_an_address_for_user(text: str) -> None:
    credentials = text.split("://", 1)[1].rsplit("@", 1)[0]
    assert covered(text, credentials, "URL_CREDENTIALS"), [(f.type, text[f.start : f.end]) for f in detect(text)]


def test_a_remote_path_after_an_address_user_is_no_password() -> None:
    text = "pip install git+ssh://git@github.com:org/repo.git@v1.2"
    assert [f.type for f in detect(text)] == []


# Reviewer C's blind corpus (tests/data/pii_review_c.jsonl): each class of form it found stored
# verbatim, with hard negatives of the same shapes.
_SA_KEY = (
    "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n"
)
REVIEW_C_POSITIVES = [
    # A PEM key inside a JSON string, its lines joined by "\n" escapes: the string's whole value.
    ('{"type": "service_account", "private_key": "' + _SA_KEY + '", "client_id": "1"}', _SA_KEY, "PRIVATE_KEY"),
    ('{"private_key":"' + _SA_KEY.replace("\\n", "\\r\\n") + '"}', _SA_KEY.replace("\\n", "\\r\\n"), "PRIVATE_KEY"),
    # A setting's name as the key, the value in another syntax: a default after an environment
    # variable, fish's and csh's set commands, a name field then a value field, a bytes literal.
    (
        "const token = process.env.CLOUDFLARE_API_TOKEN || 'lG42cUJrGMFHWoEchjbDeOnQHHKLGXZShDQ2xecj';",
        "lG42cUJrGMFHWoEchjbDeOnQHHKLGXZShDQ2xecj",
        "SECRET",
    ),
    ("const key = env.STRIPE_SECRET ?? 'Zq8Lm3Xk9pQ2vT7wR4yB6nC1';", "Zq8Lm3Xk9pQ2vT7wR4yB6nC1", "SECRET"),
    ("token=${GITHUB_TOKEN:-a8F3kQ9zL2mX7vB4nR6tW1yC}", "a8F3kQ9zL2mX7vB4nR6tW1yC", "SECRET"),
    ("set -gx TWILIO_AUTH_TOKEN 7991b31e5b082a10550ffa0248f825b1", "7991b31e5b082a10550ffa0248f825b1", "SECRET"),
    ("setenv DB_PASSWORD Xk9#mP2$vL", "Xk9#mP2$vL", "PASSWORD"),
    (
        '  env:\n    - name: OKTA_API_TOKEN\n      value: "003xhfx-pJ9AIx3CtTxTM8iN5e0JgrO5RxIcSRbQw5"',
        "003xhfx-pJ9AIx3CtTxTM8iN5e0JgrO5RxIcSRbQw5",
        "SECRET",
    ),
    ('[{"name": "DB_PASSWORD", "value": "Hb4%nK8&sD"}]', "Hb4%nK8&sD", "PASSWORD"),
    (
        'memory.save(key="heroku_api_key", value="cab3557d-0e00-4c4e-8e13-f86243c5c4ce")',
        "cab3557d-0e00-4c4e-8e13-f86243c5c4ce",
        "SECRET",
    ),
    (
        "azure_storage_key: E9xXsm3tNnJB6Kmcm+O3WdWsUVkIN4up9UpBQ4uoaK5+bLPM9EUHlgprq3l23WpD4dLHpjVy9SxpaYs5sr55WA==",
        "E9xXsm3tNnJB6Kmcm+O3WdWsUVkIN4up9UpBQ4uoaK5+bLPM9EUHlgprq3l23WpD4dLHpjVy9SxpaYs5sr55WA==",
        "SECRET",
    ),
    (
        "app.secret_key = b'\\x29\\x86\\x02\\x96\\xc1\\x12\\xe6\\x35\\x7f\\x33\\x6e\\xfc\\x2c\\xb5'",
        "\\x29\\x86\\x02\\x96\\xc1\\x12\\xe6\\x35\\x7f\\x33\\x6e\\xfc\\x2c\\xb5",
        "SECRET",
    ),
    (
        'SECRET_KEY = b"\\x8f\\x1e_kS\\x9a\\x03\\xd4\\x7f\\xe2Qz\\x11\\xc0\\x88"',
        "\\x8f\\x1e_kS\\x9a\\x03\\xd4\\x7f\\xe2Qz\\x11\\xc0\\x88",
        "SECRET",
    ),
    # Phones: "+" glued to CJK text, a phone word of another script or an office's label before a
    # national number with its trunk 0, a fullwidth number after 電話：.
    ("連絡先の電話番号は+81 800-047-3016です。", "+81 800-047-3016", "PHONE"),
    ("电话+8613812345678，谢谢", "+8613812345678", "PHONE"),
    ("नमस्ते, मेरा मोबाइल नंबर 09349430451 है", "09349430451", "PHONE"),
    ("मेरा फ़ोन 09876543210 है", "09876543210", "PHONE"),
    ("Office (Bengaluru): 09377614763, Mon–Fri 10:00–18:00 IST", "09377614763", "PHONE"),
    ("電話：０７４６５９９８６１５", "０７４６５９９８６１５", "PHONE"),
    # An IPv6 address followed by a label's colon (ping's output).
    (
        "64 bytes from 2a02:eb2:6b97:f506:83ce:d8ab:307e:ed37: icmp_seq=1 ttl=57",
        "2a02:eb2:6b97:f506:83ce:d8ab:307e:ed37",
        "IP_ADDRESS",
    ),
    ("peer fe80::1ff:fe23:4567:890a: connection reset", "fe80::1ff:fe23:4567:890a", "IP_ADDRESS"),
]
REVIEW_C_NEGATIVES = [
    "const env = process.env.NODE_ENV || 'development';",
    "const timeout = process.env.API_TIMEOUT || '3000';",
    "const token = process.env.API_TOKEN || null;",
    "url=${API_URL:-http://localhost:8080}",
    "set -gx PATH $PATH /usr/local/bin",
    "set -gx EDITOR vim",
    "  env:\n    - name: OKTA_API_TOKEN\n      valueFrom:\n        secretKeyRef:\n          name: okta",
    "  env:\n    - name: LOG_LEVEL\n      value: debug",
    'settings.save(key="theme", value="dark")',
    "storage_backend: s3\nstorage_key_id: 12345",
    "header = b'\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR'",
    "secret_key = b'dev'",
    "注文番号は+1200円です",
    "価格は+12345678円です",
    "कीमत 09349430451 रुपये",
    "Office: 2019 Professional, build 1234567890",
    "at 12:34:56: error",
    "std::vector::at: out of range",
    "lease 00:11:22:33:44:55: renewed",
    # Wrapped lines with no value, digits read out with no card's checks.
    "qty\n4061\n1330 0646 9180",
    "4111 1111\n1111 1111",
    "order 4111 1111\n1111 1111 shipped",
    "row 1: 415 555\n2671 rows",
    "jane@\nexample",
    "digit by digit: 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4",
    "dice digit by digit: 6 1 7 5 2 3 6 4 2 3 1 5 6 2 4 1",
]


@pytest.mark.parametrize(
    ("text", "value", "family"), REVIEW_C_POSITIVES, ids=[case[0][:40] for case in REVIEW_C_POSITIVES]
)
def test_found_from_review_c(text: str, value: str, family: str) -> None:
    assert covered(text, value, family), [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize("text", REVIEW_C_NEGATIVES)
def test_left_alone_from_review_c(text: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []
    assert REDACT_ALL.scrub(text).text == text


def test_a_pem_block_on_its_own_lines_ends_at_its_end_line() -> None:
    """Only an escaped line break is taken with the block: a real one, and the line after, stay."""
    block = (
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----"
    )
    text = block + "\n\\n next"
    assert [(f.start, f.end) for f in detect(text)] == [(0, len(block))]


# Values wrapped across one line break, joined only where the type's own checks make it safe: a
# card named on its line (Luhn), an IBAN (mod 97), a "+" phone, an address whose line ends in "@",
# a JWT (its header decodes), a provider key a terminal wrapped (the key fills its line, the next
# line is its rest). Digits read out one at a time are a card where the text says it reads them out.
_J1 = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
_J2 = "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUgRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
_J3 = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
_WRAPPED_KEY = (
    "sk-ant-api03-" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7kL9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7kL9mN1pQ3sT5vW7yZ9bC1dE3fAA"
)
WRAPPED = [
    ("card: 4061\n1330 0646 9180 exp 10/26", "4061\n1330 0646 9180", "CREDIT_CARD"),
    ("Visa 4111 1111\r\n1111 1111 thanks", "4111 1111\r\n1111 1111", "CREDIT_CARD"),
    ("my credit card is 5555 5555 5555 \n4444", "5555 5555 5555 \n4444", "CREDIT_CARD"),
    ("IBAN: DE89 3704 0044\n0532 0130 00", "DE89 3704 0044\n0532 0130 00", "IBAN"),
    ("Bitte auf\nGB82 WEST 1234 5698\n7654 32\nDanke", "GB82 WEST 1234 5698\n7654 32", "IBAN"),
    ("call +44 20 7946\n0958 tomorrow", "+44 20 7946\n0958", "PHONE"),
    ("Ring +1 415 555\n2671 after 5", "+1 415 555\n2671", "PHONE"),
    ("Ring me on +33 (0)9 66 73 27\n22 after 5", "+33 (0)9 66 73 27\n22", "PHONE"),
    ("write to jane.doe@\nexample.com soon", "jane.doe@\nexample.com", "EMAIL"),
    ("mail: j.smith-42@\n  mail.uni-heidelberg.de", "j.smith-42@\n  mail.uni-heidelberg.de", "EMAIL"),
    (f"Bearer {_J1}.\n{_J2}.{_J3}", f"{_J1}.\n{_J2}.{_J3}", "JWT"),
    (f"token: {_J1}.{_J2[:30]}\n{_J2[30:]}.{_J3}", f"{_J1}.{_J2[:30]}\n{_J2[30:]}.{_J3}", "JWT"),
    (f"key:\n{_WRAPPED_KEY[:64]}\n{_WRAPPED_KEY[64:]}", f"{_WRAPPED_KEY[:64]}\n{_WRAPPED_KEY[64:]}", "API_KEY"),
    ("here it is digit by digit: 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "CREDIT_CARD"),
    ("read it one digit at a time: 5 5 5 5 5 5 5 5 5 5 5 5 4 4 4 4", "5 5 5 5 5 5 5 5 5 5 5 5 4 4 4 4", "CREDIT_CARD"),
]
# Lines that must not be joined: no card word, a reference word, the first line holding a whole
# value (a table's rows), no "+", a checksum that fails, a word after a key, digits with no cue.
NOT_JOINED = [
    "qty\n4061\n1330 0646 9180",
    "4111 1111\n1111 1111",
    "card: 4111 1111 1111 1111\n4242 4242 4242 4242",
    "+44 20 7946 0958\n2024 sales",
    "row 1: 415 555\n2671 rows",
    "order 4111 1111\n1111 1111 shipped",
    "jane@\n",
    "x@\n1",
    "the values 12 34 56\n78 90 12 34",
    "DE89 3704 0044\n9999 9999 99",
    _WRAPPED_KEY[:64] + "\nThanks",
    _WRAPPED_KEY[:64] + "\nsee 2 more",
    "digit by digit: 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4",
    "dice digit by digit: 6 1 7 5 2 3 6 4 2 3 1 5 6 2 4 1",
]


@pytest.mark.parametrize(("text", "value", "family"), WRAPPED, ids=[case[0][:40] for case in WRAPPED])
def test_a_value_wrapped_across_a_line_is_found_whole(text: str, value: str, family: str) -> None:
    assert covered(text, value, family), [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize("text", NOT_JOINED)
def test_lines_that_hold_no_wrapped_value_are_not_joined(text: str) -> None:
    """What is found on such lines (a card row, a phone) is found on its own line; nothing spans a break."""
    found = [text[f.start : f.end] for f in detect(text)]
    assert not any("\n" in value for value in found), found


# Adversarial cases written after reviewer C's round, in the same classes (the first list found,
# the second left alone).
_RSA_KEY = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7x\\n-----END RSA PRIVATE KEY-----\\n"
_SENDGRID = "SG.aB3dE5gH7jK9mN1pQ3sT5v.wX7yZ9bC1dE3fG5hJ7kL9mN1pQ3sT5vW7yZ9bC1dE3"
ADVERSARIAL_C = [
    (
        '{"type":"service_account","private_key":"' + _RSA_KEY + '"}',
        _RSA_KEY,
        "PRIVATE_KEY",
    ),
    (
        f"apiKey: process.env.SENDGRID_API_KEY || '{_SENDGRID}'",
        _SENDGRID,
        "SECRET",
    ),
    ('const pw = process.env.DB_PASSWORD ?? "Tr0ub4dor&3x";', "Tr0ub4dor&3x", "PASSWORD"),
    (
        "set -Ux OPENAI_API_KEY sk-proj-aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7kL9mN1pQ",
        "sk-proj-aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7kL9mN1pQ",
        "SECRET",
    ),
    (
        "containers:\n  - env:\n    - name: STRIPE_SECRET_KEY\n      value: sk_live_aB3dE5gH7jK9mN1pQ3sT5vW7",
        "sk_live_aB3dE5gH7jK9mN1pQ3sT5vW7",
        "SECRET",
    ),
    (
        '{"name":"SLACK_SIGNING_SECRET","value":"8f3a9c2e7b1d4f6a0c5e9b3d7f1a2c4e"}',
        "8f3a9c2e7b1d4f6a0c5e9b3d7f1a2c4e",
        "SECRET",
    ),
    (
        "account_storage_key = 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7kL9m=='",
        "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7kL9m==",
        "SECRET",
    ),
    (
        "SECRET_KEY = b'\\xde\\xad\\xbe\\xef\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08'",
        "\\xde\\xad\\xbe\\xef\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08",
        "SECRET",
    ),
    ("携帯は+81 90-1234-5678です", "+81 90-1234-5678", "PHONE"),
    ("전화번호는+82 10-1234-5678입니다", "+82 10-1234-5678", "PHONE"),
    ("手机号码：+86 138 1234 5678", "+86 138 1234 5678", "PHONE"),
    ("Office: 020 7946 0123", "020 7946 0123", "PHONE"),
    ("reply from fe80::1ff:fe23:4567:890a: bytes=32", "fe80::1ff:fe23:4567:890a", "IP_ADDRESS"),
    ("Mastercard 5555 5555\n5555 4444 please", "5555 5555\n5555 4444", "CREDIT_CARD"),
    ("IBAN FR76 3000 6000 0112 3456\n7890 189", "FR76 3000 6000 0112 3456\n7890 189", "IBAN"),
    ("WhatsApp +49 151\n23456789", "+49 151\n23456789", "PHONE"),
    ("send to maria.garcia@\r\ngmail.com", "maria.garcia@\r\ngmail.com", "EMAIL"),
    ("card number, digit by digit: 3 7 8 2 8 2 2 4 6 3 1 0 0 0 5", "3 7 8 2 8 2 2 4 6 3 1 0 0 0 5", "CREDIT_CARD"),
]
ADVERSARIAL_C_NEGATIVES = [
    "const mode = process.env.APP_MODE || 'production';",
    "url: ${BASE_URL:-https://example.com}",
    "set -gx GOPATH $HOME/go",
    "- name: SECRET_NAME\n  value: my-app-secret",
    "- name: API_TOKEN_TTL\n  value: 3600",
    'cache.set(key="user_42", value="profile")',
    "sig = b'\\x00\\x00'",
    "参考価格+1,234円",
    "Office hours: 0900 1700 daily",
    "time 10:20:30: done",
    "totals:\n1234 5678\n9012 3456",
    "IBAN list:\nDE89 3704\n0044 0532 0130 01",
    "see @\nfoo",
]


@pytest.mark.parametrize(("text", "value", "family"), ADVERSARIAL_C, ids=[case[0][:40] for case in ADVERSARIAL_C])
def test_found_adversarial_c(text: str, value: str, family: str) -> None:
    assert covered(text, value, family), [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize("text", ADVERSARIAL_C_NEGATIVES)
def test_left_alone_adversarial_c(text: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []
    assert REDACT_ALL.scrub(text).text == text


# Phone numbers written one after another (an attacker's finding): the candidate pattern ran them into
# one candidate, which was no number (stored unchanged) or a long German-shaped one (the second
# number's tail left behind). Each is now found with its own span, so it gets the token it gets alone.
HASH_PHONES = Scrubber({"PHONE": "hash"}, hash_key=KEY)
ADJACENT_PHONES = [
    ("Phones: ", ["415 555 2600", "415 555 2601"], " "),
    ("Tel ", ["0171 2345678", "0171 2345679"], " "),
    ("Tel: ", ["06 12 34 56 78", "06 12 34 56 79"], " / "),
    ("Phones: ", ["415-555-2600", "415-555-2601", "415-555-2602"], " "),
    ("Tel: ", ["0171 2345678", "0171 2345679", "0171 2345670"], " / "),
    ("Phones: ", ["415 555 2600", "0171 2345678"], " "),  # two shapes in one run
    ("call ", ["4155552671", "4155552672"], " "),
    ("Tel: ", [f"06 12 34 10 {index:02d}" for index in range(40)], " "),  # a run of many on one line
]


def _alone(number: str) -> str:
    """The token ``number`` gets written alone (bare digits after "call", as they need a phone word)."""
    return HASH_PHONES.scrub(f"call {number}").text.removeprefix("call ")


@pytest.mark.parametrize(("label", "numbers", "joint"), ADJACENT_PHONES, ids=[case[1][0] for case in ADJACENT_PHONES])
def test_adjacent_phones_are_each_found_with_their_own_span(label: str, numbers: list[str], joint: str) -> None:
    text = label + joint.join(numbers)
    found = [text[f.start : f.end] for f in detect(text) if f.type == "PHONE"]
    assert found == numbers
    assert HASH_PHONES.scrub(text).text == label + joint.join(_alone(number) for number in numbers)


ADJACENT_NOT_PHONES = [
    "order 415 555 2600 415 555 2601",  # a reference noun before the run
    "amounts 1 234 567 890 1 234 567 891",  # amounts in thousands
    "results 03 14 15 92 65 35 89 79 32 38",  # pairs that split into no numbers
    "ts 1700000000 1700000001",  # bare digits with no phone word
    "build 0171 2345678 0171 2345679",  # a reference noun: numbers of a build
]


@pytest.mark.parametrize("text", ADJACENT_NOT_PHONES)
def test_runs_that_hold_no_numbers_side_by_side_are_left_alone(text: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []


def test_adjacent_phones_end_to_end() -> None:
    from securemem import SecureMemory

    memory = SecureMemory.open("memory://", key=bytes(32), policy="regulated")
    text = "Phones: 415 555 2600 415 555 2601\nTel: 06 12 34 56 78 / 06 12 34 56 79\n"
    memory.execute({"command": "create", "path": "/memories/a.md", "file_text": text})
    stored = memory.execute({"command": "view", "path": "/memories/a.md"}).text
    assert stored.count("[PHONE:") == 4
    # The tokens' own hex may hold any digits (a run of CI found "2601" in one): read the text around them.
    around = re.sub(r"\[PHONE:[0-9a-f]+\]", "[PHONE]", stored)
    for digits in ("2600", "2601", "56 78", "56 79"):
        assert digits not in around


# Values glued to their label by a dash, an underscore or "#" (an attacker's finding; file names are
# scanned by the same detectors, so "tel-4155552671.md" is refused as a path too).
GLUED_TO_LABELS = [
    ("Tel-4155552671", "4155552671", "PHONE"),
    ("Mob-4155552671", "4155552671", "PHONE"),
    ("tel-+14155552671", "+14155552671", "PHONE"),
    ("tel_+14155552671", "+14155552671", "PHONE"),
    ("x-+14155552671", "+14155552671", "PHONE"),
    ("phone_4155552671", "4155552671", "PHONE"),
    ("ph#4155552671", "4155552671", "PHONE"),
    ("mobile_07911 123456", "07911 123456", "PHONE"),
    ("cell-4155552671", "4155552671", "PHONE"),
    ("tel-4155552671.md", "4155552671", "PHONE"),
    ("Karte4111 1111 1111 1111", "4111 1111 1111 1111", "CREDIT_CARD"),
    ("Carte4111111111111111", "4111111111111111", "CREDIT_CARD"),
    ("card n4111111111111111", "4111111111111111", "CREDIT_CARD"),
    ("Visa no4111111111111111", "4111111111111111", "CREDIT_CARD"),
    ("ibanDE89370400440532013000", "DE89370400440532013000", "IBAN"),
    ("IBANGB82WEST12345698765432", "GB82WEST12345698765432", "IBAN"),
    ("ssn_123456789", "123456789", "US_SSN"),
    ("ssn_123456789.md", "123456789", "US_SSN"),
]


@pytest.mark.parametrize(("text", "value", "family"), GLUED_TO_LABELS, ids=[case[0] for case in GLUED_TO_LABELS])
def test_values_glued_to_their_label_are_found(text: str, value: str, family: str) -> None:
    assert covered(text, value, family), [(f.type, text[f.start : f.end]) for f in detect(text)]


GLUED_NOT_LABELS = [
    "build_4155552671",
    "order_123456789",
    "user_12345",
    "v1_2_3",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "TEL-20240115 release tag",  # a tag: no valid number after the label
    "graph_4155552671",  # "ph" ends a longer word
    "telemetry_4155552671",
    "n4111111111111111",  # "n" glued, no card named
    "ssn_count 123456789",
    "ssn_total_123456789",
    "tin_123456789",
    "liban 89370400440532013000",
]


@pytest.mark.parametrize("text", GLUED_NOT_LABELS)
def test_identifiers_glued_to_words_are_left_alone(text: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []


def test_a_file_name_glued_to_a_label_is_refused_as_a_path() -> None:
    from securemem import SecureMemory

    memory = SecureMemory.open("memory://", key=bytes(32), policy="regulated")
    for path in ("/memories/tel-4155552671.md", "/memories/ssn_123456789.md"):
        result = memory.execute({"command": "create", "path": path, "file_text": "x"})
        assert result.is_error, path
    for path in ("/memories/build_4155552671.md", "/memories/order_123456789.md"):
        result = memory.execute({"command": "create", "path": path, "file_text": "x"})
        assert not result.is_error, path


# Addresses that name no host (an attacker's finding: each was replaced). The unspecified address;
# a network in CIDR notation (host bits zero) with a short prefix, a provider's or an organisation's
# block, or based at an RFC 1918 block's first address; loopback with a port or after a word that
# binds a service to it. Kept as addresses: a longer prefix ("route add 192.168.50.0/24", which a
# reviewer labels), an interface's own address with its prefix, loopback named as someone's.
NOT_HOSTS = [
    "server listening on 0.0.0.0:8080",
    "bind 127.0.0.1 port 6379",
    "ip route add 10.0.0.0/8 via gateway",
    "subnet 10.0.0.0/16 cidr 172.16.0.0/12",
    "ASN 13335 prefix 104.16.0.0/13",
    "allow 192.168.0.0/24",
    "curl http://127.0.0.1:8080/health",
    "redis listening on 127.0.0.1",
    "route 2001:db8::/32 upstream",
    "default route :: and 0.0.0.0/0",
    "route add 192.168.50.0/24 via gateway",  # a private network, of any size
    'cidr    = "10.118.0.0/16"',
    "subnets = [10.0.1.0/24, 10.0.2.0/24, 172.20.16.0/20]",
    "route add -net 192.168.100.0/24 gw router.lan",
]


@pytest.mark.parametrize("text", NOT_HOSTS)
def test_addresses_that_name_no_host_are_left_alone(text: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []


HOSTS = [
    ("ip route add 10.0.0.0/8 via 192.168.1.1", "192.168.1.1"),
    ("route add 192.168.50.0/24 via 10.0.0.1", "10.0.0.1"),
    ("CIDR 10.20.0.0/16 routes through 10.20.0.1.", "10.20.0.1"),
    ("announce 217.232.108.0/24 from AS3320", "217.232.108.0"),  # a public /24 narrows to a site
    ("inet 10.1.2.3/24 brd 10.1.2.255", "10.1.2.3"),
    ("peer 203.0.113.0/31", "203.0.113.0"),  # a point-to-point link's host
    ("10.0.0.0/32 is the VIP", "10.0.0.0"),
    ("inet6 2001:db8:1::/48 assigned to the household", "2001:db8:1::"),
    ("Customer's home router is 127.0.0.1; whitelist it.", "127.0.0.1"),
    ("X-Forwarded-For: ::1", "::1"),
]


@pytest.mark.parametrize(("text", "value"), HOSTS)
def test_addresses_of_hosts_are_still_found(text: str, value: str) -> None:
    assert covered(text, value, "IP_ADDRESS"), [(f.type, text[f.start : f.end]) for f in detect(text)]


# Characters the view read wrongly or not at all (an attacker's finding): digits NFKC writes with
# brackets or a stop ("⑴" is "(1)", "⒈" is "1."), the fraction slash as a separator, the Unicode line
# and paragraph separators between a card's groups (NEL, U+0085, already worked), "℮" for an "e".
HASH_ALL = Scrubber(dict.fromkeys(ENTITY_TYPES, "hash"), hash_key=KEY)
VIEW_FORMS = [
    ("x \u2474\u2475\u2476-\u2477\u2478-\u2479\u247a\u247b\u247c y", "123-45-6789", "US_SSN"),
    ("x \u2488\u2489\u248a-\u248b\u248c-\u248d\u248e\u248f\u2490 y", "123-45-6789", "US_SSN"),
    ("call +1\u2044415\u2044555\u20442671", "+1/415/555/2671", "PHONE"),
    ("call +1/415/555/2671", "+1/415/555/2671", "PHONE"),
    ("card 4111\u20281111\u20281111\u20281111", "4111 1111 1111 1111", "CREDIT_CARD"),
    ("card 4111\u20291111\u20291111\u20291111", "4111 1111 1111 1111", "CREDIT_CARD"),
    ("mail jan\u212e@example.com", "jane@example.com", "EMAIL"),
    ("mail jane@exampl\u212e.com", "jane@example.com", "EMAIL"),
]


@pytest.mark.parametrize(("text", "plain", "family"), VIEW_FORMS, ids=[case[1] for case in VIEW_FORMS])
def test_view_reads_decorated_digits_slashes_and_line_separators(text: str, plain: str, family: str) -> None:
    findings = detect(text)
    assert [f.type for f in findings] == [family], [(f.type, text[f.start : f.end]) for f in findings]
    # Scrubbed whole, with the token of the plain form: nothing of the value is left, nothing around it taken.
    written = text[: findings[0].start] + plain + text[findings[0].end :]
    assert HASH_ALL.scrub(text).text == HASH_ALL.scrub(written).text


VIEW_FORMS_LEFT_ALONE = [
    "see \u2474 and \u2489 below",  # list markers
    "steps \u2488 \u2489 \u248a \u248b",
    "mix 1\u20442 cup of flour, 3\u20444 of sugar",
    "line one\u2028line two\u2029paragraph",
    "\u212e 500 g net weight",
]


@pytest.mark.parametrize("text", VIEW_FORMS_LEFT_ALONE)
def test_view_forms_in_ordinary_text_are_left_alone(text: str) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []


# Reviewer D's blind round (kept out of the repository as a measure of text no one here had seen):
# an ISBN with its hyphens and an IPv4 network in a SQL row were read as phones.
@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("INSERT INTO books VALUES ('0-306-40615-2', 'Theory of Graphs', 1987);", []),
        ("INSERT INTO books VALUES ('978-0-306-40615-7', 'Theory of Graphs');", []),
        ("VALUES ('22.87.231.0/24', 9944957, false);", [("IP_ADDRESS", "22.87.231.0")]),
        ("call 0-306-40615-2", [("PHONE", "0-306-40615-2")]),  # said to be a phone: a phone
        ("ISBN 0-306-40615-3 or call 030-640-6152", [("PHONE", "030-640-6152")]),  # a bad check digit is no ISBN
    ],
)
def test_isbns_and_addresses_are_not_phones(text: str, found: list[tuple[str, str]]) -> None:
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == found


ENV_FILE = (
    "AWS_SECRET_ACCESS_KEY = GpW6jTXrDznr1FV9iSrKLalMsrl6uMfGhWEDle1A\n"
    "HEROKU_API_KEY=b2e2be71-14c4-249a-d734-2c049d48f5a0\n"
    "DD_API_KEY=4a0dd086f4023673be7f9e7602dc269d\n"
    "AZURE_STORAGE_KEY=E9xXsm3tNnJB6Kmcm+O3WdWsUVkIN4up9UpBQ4uoaK5+bLPM9EUHlgprq3l23WpD4dLHpjVy9SxpaYs5sr55WA==\n"
    "DB_PORT=5432\n"
    "Here is the rest of the note.\n"
)


def test_values_at_line_ends_are_not_joined_to_the_next_lines_name() -> None:
    """Read joined with the next line, a secret at a line's end took the next line's variable name
    with it ("…1A\\nHEROKU_API_KEY": a wrap that was no wrap): each finding stays on its line."""
    findings = detect(ENV_FILE)
    assert findings and all("\n" not in ENV_FILE[f.start : f.end] for f in findings)
    for name in ("HEROKU_API_KEY", "DD_API_KEY", "AZURE_STORAGE_KEY", "DB_PORT", "Here is"):
        at = ENV_FILE.index(name)
        assert not any(f.start <= at < f.end for f in findings), name


@pytest.mark.parametrize(
    "text",
    [
        "The HMAC key is PBKDF2-HMAC-SHA512 of the key (2 rounds)",
        "Passphrase: stretched with PBKDF2-HMAC-SHA512 (256,000 iterations)",
        "secret_key: PBKDF2-HMAC-SHA512",
        "token: TLS-ECDHE-RSA-AES128-GCM-SHA256",
        "ssl_ciphers: ECDHE-RSA-AES256-GCM-SHA384",
        "password: AES-256-GCM",
    ],
)
def test_the_name_of_an_algorithm_after_a_secret_word_is_no_secret(text: str) -> None:
    """Found in this package's own docstrings: a chain of algorithm names reads as random."""
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("password: Aes256Gcm!x9", "Aes256Gcm!x9"), ("api_key=AES256GCMxQ9fk2LmZp7Rt4Wd", "AES256GCMxQ9fk2LmZp7Rt4Wd")],
)
def test_a_secret_that_starts_like_an_algorithm_is_still_one(text: str, value: str) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == [value]


@pytest.mark.parametrize(
    "text",
    [
        "user, password = HTTPPasswordMgr.find_user_password(self, realm, authuri)",
        "user, passwd = self.get_user_passwd(host, realm, i)",
        "passwd = unquote(passwd or '')",
        "username, have_password, password = userinfo.partition(b':')",
    ],
)
def test_a_function_called_for_a_password_is_no_password(text: str) -> None:
    """Found by scanning Python's own urllib: a call after a password's name is code, not a value."""
    assert [(f.type, text[f.start : f.end]) for f in detect(text)] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("pwd = '!bLfmWh8aKN3Nqf32f'", "!bLfmWh8aKN3Nqf32f"),  # reviewer D: read as a YAML tag
        ("password = '!bLfmWh8aKN3Nqf32f'", "!bLfmWh8aKN3Nqf32f"),  # its "!" was left in clear
        ("password: !Qx7kP2mZr9", "!Qx7kP2mZr9"),
    ],
)
def test_a_password_opening_with_an_exclamation_mark_is_found_whole(text: str, value: str) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == [value]


@pytest.mark.parametrize(
    "text", ["password: !vault |", "Password: !Ref DbPassword", "password: !secret db_password", "key: !!binary"]
)
def test_yaml_tags_after_a_password_key_stay(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Bonjour, vous pouvez me joindre au 0612383903 ou par mail.", ["0612383903"]),  # reviewer D
        ("Sie können mich anrufen: 01512 3456789", ["01512 3456789"]),
        ("Wir erreichen 2024 neue Kunden", []),
        ("nous allons appeler 12 personnes", []),
    ],
)
def test_calling_verbs_of_other_languages_name_a_phone(text: str, found: list[str]) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            'twilio = Client("AC1f6a698b713dd457528af4f2007e8a3e", "a633f4036ba3252c3027d26c86e6bfab")  # auth token',
            ["a633f4036ba3252c3027d26c86e6bfab"],
        ),  # reviewer D's blind round: no key name announces the token
        (
            "client = Client('AC0b9d2c4e6f8a1b3c5d7e9f0a2b4c6d8e', 'e3b0c44298fc1c149afbf4c8996fb924')",
            ["e3b0c44298fc1c149afbf4c8996fb924"],
        ),
        ("sid AC1f6a698b713dd457528af4f2007e8a3e in the console", []),  # an account SID names, it does not open
        ("AC1f6a698b713dd457528af4f2007e8a3e then md5 5d41402abc4b2a76b9719d911017c592", []),
    ],
)
def test_a_twilio_token_written_beside_its_account_sid_is_found(text: str, found: list[str]) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == found


# Reviewer E's blind round (tests/data/pii_review_e.jsonl, taken as it came).
@pytest.mark.parametrize(
    ("text", "found"),
    [
        (">>> df.describe()\nmean   534.79  6.88  76.71\nstd    88.12  2.36  9.76", []),  # a table of decimals
        ("STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", []),  # a template's filler
        ("token ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", []),
        ("Landlord rang from 0191491854 about the boiler.", ["0191491854"]),
        ("Tel 06.12.34.56.78", ["06.12.34.56.78"]),
        ("sk_live_51Hx9kLmQp2rSt7UvWxYz0AbCdEfGhIj", ["sk_live_51Hx9kLmQp2rSt7UvWxYz0AbCdEfGhIj"]),
    ],
)
def test_reviewer_e_forms(text: str, found: list[str]) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("note to self: staging vpn Passwort => 4xVo5WN-inriJ0wg", ["4xVo5WN-inriJ0wg"]),  # reviewer E
        ("mot de passe => Xk9#mQ2zL", ["Xk9#mQ2zL"]),
        ("Passwort => nicht gesetzt", []),
        ("$h = ['passwort' => $pw];", []),
    ],
)
def test_an_arrow_assigns_a_password_under_a_label_of_any_language(text: str, found: list[str]) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == found


def test_a_jwt_is_not_joined_with_the_prose_on_the_next_line() -> None:
    """A wrapped JWT runs to the end of the next line; "….In0" then ".then we left" is prose, which a
    join took in as the signature (from a review of this change)."""
    text = "jwt=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0\n.then we left\n"
    assert all("then" not in text[f.start : f.end] for f in detect(text))


# Found by scanning the interpreter's library and installed packages: "pass" the verb, and a
# contraction after "Password", read as passwords (docstrings and comments left intact).
@pytest.mark.parametrize(
    "text",
    [
        "        :param args:\n            Command line arguments to pass to :py:func:`pytest.main`.",
        "    # If pre init method has arguments, pass the values given to __init__.",
        "        # If not, we'll pass & move on to whatever's next in the credential",
        'message = ("Password shouldn\'t be hardcoded for"',
        "The password\u2019s hash is stored, never the password.",
        "pass to the next handler: middleware.next",
    ],
)
def test_pass_the_verb_and_contractions_are_no_passwords(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("wifi pass: Hunter2!", "Hunter2!"),
        ("pass = Tr0ub4dor&3", "Tr0ub4dor&3"),
        ("Password: Don't4get!", "Don't4get!"),
    ],
)
def test_pass_as_a_key_still_names_a_password(text: str, value: str) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == [value]


@pytest.mark.parametrize(
    "text",
    ["        h = h * 69069 + 907133923", "    expected = 3.14159 + 2.71828 - 5.0", "total = (12 + 907133923) * 2"],
)
def test_a_plus_between_two_numbers_is_an_addition(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("call + 44 20 7946 0958", ["+ 44 20 7946 0958"]),
        ("numbers: +1 415 555 2671 + 44 20 7946 0958", ["+1 415 555 2671", "+ 44 20 7946 0958"]),
    ],
)
def test_a_spaced_plus_after_words_or_a_number_still_opens_one(text: str, values: list[str]) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == values


# Found by scanning the interpreter's library: a one-letter word a few words back ("1M." the unit)
# read as the label "M" of a mobile, and names of code after a token's key read as secrets.
@pytest.mark.parametrize(
    "text",
    [
        "# Reads at most 1M.\n_MAXLINE = 1000000",
        "t = time()\nlimit = 4155552671",
        "ACCESS_KEY = 'AWSAccessKeyId'",
        "PseudoToken = Whitespace + group(PseudoExtras, Number, Funny)",
        "token = HttpServer",
    ],
)
def test_letters_and_code_names_are_no_phones_or_secrets(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("M. 07700 900123", "07700 900123"),
        ("T: 020 7946 0958", "020 7946 0958"),
        ("token = 'HgTrWqPlKmNbVc'", "HgTrWqPlKmNbVc"),
        ("client_secret = XbQmZtRwPlYsKd", "XbQmZtRwPlYsKd"),
        ("api_token = 'Tr0ub4dorLetters'", "Tr0ub4dorLetters"),
    ],
)
def test_one_letter_labels_and_random_letters_still_found(text: str, value: str) -> None:
    assert [text[f.start : f.end] for f in detect(text)] == [value]


# Found by scanning installed packages (about 9,500 files of Python): items of a list in code read
# as a one-column table under a "password" header, and names of code after a secret's key.
@pytest.mark.parametrize(
    "text",
    [
        "RESERVED = (\n    'partitions',\n    'password',\n    'password_lock_time',\n    'path',\n    'rank',\n)",
        "KEYWORDS = [\n    'to',\n    'token',\n    'tolower',\n    'toreflectedfield',\n]",
        "# 51 Franklin St, Fifth Floor, Boston, MA\n# 02110-1301  USA",
        "private_key = base64.standard_b64decode(private_key)",
        'creds = " --username=" + auth',
        'ExtendedKeyUsageOID.SERVER_AUTH: "serverAuth",',
        'DEFAULT_REMOTE_ACCESS = {"ec2SshKey": "eksKeypair"}',
        "_DD_SIGNATURE = 0x08074b50",
        "urllib.request.HTTPBasicAuthHandler(password_mgr=auth)",
        "        self.username, self.password = credentials",
        "        username, password = split",
        '"""Utilities to get a password and/or the current user name.',
        'builtins["AWS::Auth::AccountId"] = None',
        "self._signature = _signature",
        '"Resource": "arn:aws:secretsmanager:*:*:secret:rds-custom!*"',
        "def change_password(self, user: bytes, passwd: bytes) -> None:",
        "certificate_arn=certificate_arn, passphrase=passphrase",
        'USER_PASSWORD_AUTH = "USER_PASSWORD_AUTH"',
        "sig = '%s : %s rank-0 array(string(len=%s),'",
        "convolve = np.vectorize(np.convolve, signature='(n),(m)->(k)')",
        "private_key: PKCS7PrivateKeyTypes,",
    ],
)
def test_code_of_installed_packages_is_left_alone(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("user,password\nbob,Hunter2!x\n", "Hunter2!x"),
        ("Tel. 08191-1234", "08191-1234"),
        ("private_key = 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", None),
        ("self.password = 'sunshine'", "sunshine"),
        ("spring.datasource.password=hunter", "hunter"),
        ("password: 'Pa%sword1'", "Pa%sword1"),
        ("token (xK9mQ2vL8pR4tZ7wB3nF6hJ1)", "xK9mQ2vL8pR4tZ7wB3nF6hJ1"),
        ("secret: Xk9!mQ2vL8pR", "Xk9!mQ2vL8pR"),
    ],
)
def test_values_beside_those_names_still_found(text: str, value: str | None) -> None:
    expected = value if value is not None else text.split(" = ")[1]
    assert [text[f.start : f.end] for f in detect(text)] == [expected]
