"""Attackers' rounds on reviewers' readers: ordinary strings written to be damaged by them, each line of
tests/data/ordinary_attack_<round>.jsonl holding the text and what must be found in it; "left" marks those
still altered when the round was recorded.

- Round Y. An attacker's round on reviewer Y's forms: 253 ordinary strings written to be damaged by them (pins of
boards after "pin", standards after "activation code:", three sizes a space apart, "chez" in French prose,
names after "password", rooms after "Zugangscode", order numbers read out in Turkish, references beside
addresses of a country's domain). Each line of tests/data/ordinary_attack_y.jsonl holds the text and
what must be found in it (mostly nothing); the 15 marked "left" were still altered when they were
recorded (an address's "get underscore user at utils dot py", "IP PIN 2024 FAQ"...), and the tree before
Y's forms altered 19 of the 253. Two of them are left alone since reviewer AZ's round ("Companies House
no. 09876543", "Rechnungsnummer 0171 2345678": "No." or "Nr." alone names no phone).

- Round AZ. An attacker's round on reviewer AZ's readers: 302 ordinary strings in twenty languages written to be
damaged by them (product, error, shipment, customer and course codes beside a lock's word, ports and
gateways, years and counts after a code's word, password labels before products, users, versions and
policies, one-time codes' statistics, names before amounts, scores and order numbers). Each line of
tests/data/ordinary_attack_az.jsonl holds the text and what must be found in it (nothing); the readers as
first written altered 161 of them that the tree before did not, none since. 51 were altered by the readers
that were there before AZ's round too; 37 of them are left alone since (a password's label heading a compound
noun, "Password storage was migrated to Pbkdf2Sha256."; a plain preposition after a verb that moves or sends,
"Password rotation is postponed to Sprint47."; bookkeeping's, logic gates', toll gates', ports of entry's and
suppliers' codes, French and Italian "porte le code"). The 14 marked "left" still are ("Alarm code 1042.",
"The most common password this year was Qwerty123.", "Never set your password to Summer2024!.").

- Round BB. An attacker's round on reviewer BB's readers: 285 ordinary strings in twenty languages written to be
damaged by them (India's postcodes after a parcel's number and "pincode", queue tickets after "senha", EANs,
ISBNs and UPCs that read as mobiles, order and record numbers starting with "0" after any noun, "Cardinal
Health" and gift cards' orders before numbers starting with 7, tickets' numbers after "password for ...",
ciphers glued to CJK password labels, API keys' ids in audit logs, counts and street numbers after "2FA
for", course, licence and answer keys beside a code's word, lists and menus before "1 (800) ..."). Each
line of tests/data/ordinary_attack_bb.jsonl holds the text and what is found in it: nothing, or what the
tree before BB's round found too. The readers as first written altered 205 of them that the tree before did
not, none since; the 3 marked "left" still are (a protocol's number that reads as a card and the "senha"
after it, a door's issue number led by "#", Mercado Pago's documented sample token).

- Round BC. A second attacker's round on reviewer BB's readers, once the first round's were fixed, none of
its strings the first's: 288 ordinary strings (IDs after a label's colon or in lists that read as whole
mobiles, invoices and statements after fuel cards' words, EAN-13s before "senha", a sum's "first three ...
second two ... final four" and a revenue's halves, tickets in mixed case, spreadsheets' cells, prices and
packages' versions after "password for", protocols glued to CJK labels, KPIs and prices after "Login ... /",
audit lines naming an API key's secret, thresholds after "and", bank lockboxes' files, CJK years and counts
after a safe's code). The readers altered 257 of them that the tree before did not, none since; the one
marked "left" still is (a Hebrew one-time code's "4290.", which may well be one).

- Round BD. An attacker's round on stop 47's readers (BB's leftovers and reviewer BC's): 237 ordinary strings
(40-character stack outputs, role names and S3 version ids in lines naming an AWS secret or "AWS Secrets
Manager", doors and gates that "take" a sum or a load, survey answers and dice rolls one digit at a time that
pass a Luhn check, a telecom's "SSN" subsystem numbers, warehouses' "area= group= serial=", OpenSSH's fixed
key header in a YARA rule, abbreviated shell variables after "password", Hebrew sums after "ל-+"). The readers
as first written altered 61 that the tree before did not (16 the tree before altered too); 8 since, marked
"left": an S3 version id drawn at random in a line about an AWS secret, an IBAN's digits contrived one at a
time, a key box's code said to be wrong, "Canon-2019!" and "Berlin-2024!" after "password for" (as
"Canon2019!" always was), and an escaped example address and defanged documentation IPv6 addresses (as their
plain forms always were).

- Round BE. An attacker's round on reviewers BD's and BE's readers: 276 ordinary strings (parts', seats' and
relays' lists before a name and a 0-prefixed number, formulas, recipes and queries after "secret", passwd
lines, "port (0...)" in networking, airport codes and dates after "PAC", scorecards' and points cards' "first
eight / last eight", digit columns of dice and lottery balls, shell arrays of quoted digits, placeholders after
"rzp_test_", game scores before "(mobile)"). The readers as first written altered 84 that the tree before did
not (22 the tree before altered too), and one of them read back to its line's start once per junction (2 s for
a megabyte line of literals); 2 since, marked "left" (a documented test card and a phone written as Python
literals side by side in brackets, which Python joins). Narrowed: a mobile right after a name needs an
international number before it in its line; Django's key needs some thirty different characters, fifteen
letters and no "name=value&" pairs; a PAC or STAC needs its line to name a port or a switch; "to port (0...)"
only; eight and eight need a payment card named; a column of digits is a card only after a card's word; a shell
array's literals stay apart; Razorpay ids are no capitalised words run together nor alternate case at every
letter; single digits need a phone's word before them (its word in brackets after them was withdrawn).

- Round BF. An attacker's round on reviewer BF's readers: 394 ordinary strings in many languages (years,
amounts, safety pins, hair pins, chat pins and India's postcodes after a PIN's word of another script; schemes
said of a password, "WPA2-basert", "SHA256-hashed"; standards after a quoted aside, 'Password "best practices":
NIST-800-63B'; attributes after a login's word, "login stats: alice:Success=12"; archives', lots' and pallets'
numbers led by "00"; releases pinned or held). The readers as first written altered 133 that the tree before did
not; 6 since, marked "left" with the 22 the tree before altered too: a suite's name after a password's label
and a colon ("Parolanız: Microsoft365 ...", as English "Password: Office365" always was) and a score's bold "+33"
read as a phone, now with its opener. Narrowed: a PIN's word of another script takes only its "code" or
"number" word, a dash, a colon or a card's word before the value, no year, amount or compound; India's "पिन
कोड" is its postcode; a scheme with what it does ("-based", "-hashet", "-krypteret") or a suite's name is no
password; after a quoted aside the value ends its clause and is no standard's name; a login's pair follows only
a box's, a host's or an account's word and is no list's item, file or release; "00" numbers need a phone's
word; a release is pinned only after a package's name, and no address after "held" or "locked".

- Round BH. An attacker's round on reviewer BH's readers: 248 ordinary strings (English "parole", product,
standard and cipher names after the new languages' words for a password, "jadi", "menjadi" and Nordic "var"
before versions, Dutch "pincode" before years and phone numbers, "code confidentiel" in policies, Quebec's
"NIP" before units, Solar Hijri years after "رمز دوم", India's postcodes after Kannada's and Telugu's "PIN",
numbered lists with bullets). The readers as first written altered 88 the tree before did not; 6 since, marked
"left" (a town's name and year, a campaign's, a mobile plan's after a password's word in Uzbek, Welsh and
Azerbaijani; a standard's name then an Armenian word; a version after Indonesian "jadi"; "Парола: BG-Cert-2024",
left once round S48 showed that "ACME-Summer-2024", a company's, a season's and a year, is how passwords are
made). Withdrawn: "parole",
Armenian's comma as a colon, "jadi", "menjadi" and "var" alone, Dutch "pincode", Kannada's and Telugu's PIN,
bullets read as dots. Narrowed: a system's, a standard's or a cipher's name with its number ("Windows11",
"WPA2-PSK", "BG-Cert-2024") and a value with no Latin letter or digit are no password after any label; French's
PIN only right after its colon; a PIN's word of another script never takes a year (Solar Hijri ones too).

- Round S48. A fresh attacker's round on all of stop 48's readers together: 199 ordinary strings, mostly English
technical text (cards' groups over two lines below "GL account numbers:", FAQs asking about an SSN or a TIN
then counts and form numbers, login lines' attributes, "login via: github:OAuth2-App", a host key's
fingerprint after "ssh:", cloud-init lists of templates and locked users, quoted asides naming settings, "the
password reset link to me (ticket#4521)", "empty_str=.", "TPIN 2024 rollout", years in numbered folders). The
readers as written altered 111 that the tree before did not; 5 since, among the 27 marked "left" (the other 22
were altered by the tree before too: FAQ lines that name an SSN before a 3-2-4 number, valid numbers led by
"00", "pin" before a number): i18n tables giving "parool", "kodeord" and "contrasenya" example values, a ticket
count after "TPIN". Narrowed: a card named above its groups only when the line above ends in a card's name; an
SSN asked for only by "SSN" or "social security" and a question, the number on the next line after a reply's
few words; a login's pair needs a password's own symbol and no attribute's key; cloud-init's templates, locked
and encrypted values left alone; a quoted aside naming a setting, or a date or a span after it; "to me" only
right after the password's word; "=" before a stop only after a digit; a year after MPIN or TPIN; a year at the
end of numbered folders. Regressions it found, fixed: a password's own "!" ended the scheme-name rule's match
("password Office365!", "WPA2-Home!", "Release2023!" were missed), "ACME-Summer-2024".

- Round BJ. An attacker's round on reviewer BJ's readers: 472 ordinary strings (ratios written with the ratio
sign, "pass∶fail∶skip"; MITRE techniques, CWEs, CVEs, tickets, encodings and products after a password's word and
a dash; Thai compounds glued to the word for a password before "คือ"; asides naming a ticket, a build or a
terminal's id in a PIN's clause; standards and encodings after ", exactly:" or ", case-sensitive:"; Wi-Fi
security modes and channels after "wifi at the office: SSID ... /"; game, generator and test seeds, a pepper's
and a SaltStack minion's names; lottery draws after "the digits are"; Indonesian parcel, order and queue numbers
read out after "nomor"; resolvers bumped from one address to another). The readers as first written altered 103
that the tree before did not; 1 since, among the 10 marked "left" (the other 9 the tree before altered too:
"Pin of the month (votes): 2381", releases bumped from "32.1.2.0"). Withdrawn: the ratio sign and the raised
colon as ":", Thai's "คือ", ", exactly:", ", in full:", ", verbatim:", ", case-sensitive:" and ", spelled out:",
the Wi-Fi pair's place and "SSID", "the digits are", Indonesian's "nomor" alone. Narrowed: a value after a dash
has a password's whole shape (small and capital letters, a digit, a symbol that is no dot or dash) and ends its
clause; an aside in a PIN's clause says to keep it; letter by letter holds a digit and a letter; salts, peppers,
encryption seeds and key material are secrets only with long random values (as a bare key's); a bump is a
release's only where the name says nothing of a host, a resolver or a peer.

- Round BK. An attacker's round on reviewer BK's readers: 242 ordinary strings (policy and comparison tables under
two password columns, "12 | 20", "Yes | No"; settings and audit exports as key,value lines, "password,Kerberos5",
"token,2025-06-30T00:00:00.123456", "lookup_key,<md5>"; game, bingo and loyalty ids under "card (1),card (2)" and
"卡号 (1),卡号 (2)"; the SSA's area allocation table; growth and scores before phone columns). The readers as first
written altered 67 the tree before did not; 1 since (that allocation table's "001,01,0001"), among the 35 marked
"left" (34 altered by the tree before too: counts under a phone's column, cards in "pan,pan" rows). Narrowed:
card columns are joined only under names that say a card's number (not "card", "cc", "pan") and only pieces
shaped as a card's groups; password columns only as numbered parts of one name, joined into a password's whole
shape (a lone "Password (2)" column is no column of passwords); a CSV pair only under a compound secret's name
with a random value. Withdrawn: a password's column names in other languages as headers' hints (their check is
a length), passwords as CSV pairs.

- Round BL. An attacker's round on reviewer BL's readers and the issue's own promises read before it: 231 ordinary
strings (dates, PRs, commits and populations before "my phone ..." or "our mobile ..."; counts, sizes and
frequencies in three groups kept apart by no-break or figure spaces; steel grades, ships, slides and screenshots
after "SS#"; rows and episodes before "4:05 10 15 ..."; ports and part numbers joined by SQL's "||"; SKUs under
"..._chunks" and "counterparts"; subscriber counts beside an area code's column; a game's cards under "card_1" to
"card_4"; versions and part numbers behind a right-to-left override). The readers as first written altered 136 of
them that the tree before did not; 5 since, marked "left" (a visitor count after "pro Tag:", "SS# 101 12 2023" at a
line's start, a wiki path's "#Schritt-2!" after an over-find the tree before had too, sales in "unités"). Narrowed:
a phone named after the number only by a present copula or a dash, a possessive and a phone's word that ends the
clause, not an eight-digit date or a reference's number; an SSN between no-break spaces only in a field of its own
and not measured; "SS#" only alone or after whose it is; a label's index only after upper-case letters; SQL's, PHP's
and a shell's joins, keys named as parts and text behind an override read for secrets (and parts for IBANs and
addresses, overrides for cards too) only; an area code joined only with a column that names a phone's number; four
card columns only under a card number's name, not counting up.

- Round BM. An attacker's round on reviewer BM's readers: 250 ordinary strings (meetings, support calls and
dictation with counts, scores, meter readings and tickets read out with pauses and corrections; ranges and sums said
with "plus"; acronyms and grades spelt letter by letter before "at"; prose with "at this point", "dot", "punkt",
file names said as "README dot md"; CJK times with 点; Turkish "et ... nokta" across a clause). The readers as first
written altered 67 that the tree before did not; 12 since, marked "left" (mostly wider spans of what the tree before
found too: "r s v p at door dot com" where it found "p at door dot com"). Narrowed: digit groups a pause or a
correction joins are a phone only where a phone's noun comes right before (or with a copula), a caller asks to be
reached ("reach me on", "call me back at", "erreichen mich unter"), a question on a line before names a phone, or
"plus" leads them (not after an operand), and no count's noun follows; a dictated address only with its words said
as one (no clause's punctuation between), a transcript's timestamps counted inside its local part only, two words of
another script for "@" and ".", and not a domain prose says ("this point is", a file's extension, a word's top-level
domain after a plain local part, a time's number).

- Round BN. An attacker's round on reviewer BN's readers: 157 ordinary strings (serials, shipments, lots and builds
that pass a Luhn check before "D", "=" or "^"; software components' hashes, UUIDs and PCI ids after "component N:";
FIX logons whose 554 and 925 hold masks, placeholders or documented defaults, and tag lists in prose; a scooter's
"cc" and a country's population as "number"; ACORD's documented samples). The readers as first written altered 117
that the tree before did not; 12 since, marked "left" (standards' and manuals' PIN block test vectors, a simulator's
documented default password, ACORD's sample phones in the 555 exchange). Narrowed: each track in its whole shape (a
name and an expiry after track 1's number, a month and a service code after track 2's), the chip's length byte
saying the PAN's length, a key's component only where the text names a key, FIX's passwords only after its delimiter
in a message with a type and not a mask or a placeholder, a phone's code and number only in an object a phone's key
names, ACORD's samples and numbers counted up no SSN.

- Round ST51. An attacker's round on stop 51's readers (values base64- or percent-encoded whole, keys printed as
bytes literals, OCR's "l" before a North American number, SSNs under the SSA's identifier in CDA, Mexico's "+52 1",
Slack's configuration tokens and the check for words run together): 162 ordinary strings the readers as first
written altered and the tree before did not (bytes literals under any key's name: identifiers, empty inputs'
digests, placeholders; numbers decoded from base64 or percent-escapes without the label outside that said what they
are; "Step I-800-..."; an element's SSA identifier beside a number outside it; firmware symbols after "fw_"). 9
since, marked "left" (an ssh target percent-escaped whole, read as an address; "+52 1" glued to counters). Narrowed:
decoded runs read for emails and secrets only (not numbers), percent runs only with an "@", a budget for them; a
bytes literal only under a name that says what it opens or signs, and random (no words run together, no
placeholder, no empty input's digest); OCR's "l" only glued to a dash; the SSA's identifier only as the root of the
element whose extension the number is; words run together are two runs or more.

- Round BPA. An attacker's round on reviewer BP's readers (comma-set digit groups in transcripts, new words for a
phone in Czech, Indonesian, Korean, Thai and Bengali, telephony logs' keys, 3-D Secure's phone objects, Norwegian
dotted accounts, bank initials before a colon, a REPL's answers, a CSV column's header): 335 ordinary strings
(counts, prices and serial numbers after the new words, lists of counts after a card's, a phone's or an SSN's
word, CSV columns beside a phone's, currency codes before a colon, translations and widgets a REPL prints). The
readers as first written altered 95 that the tree before did not; 2 since, marked "left" (Norwegian accounts
valid by modulus 11 read in a ledger's sense, "Account no. 3052.60.18156 (kontoplan: ...)").

- Round ST52. An attacker's round on the readers once narrowed and on reviewer BQ's (an account named alone beside
a bank's branch, REPL answers, property lists, telephony keys, comma groups, phone words in company): 311 ordinary
strings (ledger, cloud and student accounts beside "Branch:" or "Institution:", S3 object keys and public key
fingerprints a REPL prints, thousands written with commas, area codes' lists, order numbers after Czech's
"mobilní", product codes after "ponsel", "cli:" as a command line's). The readers attacked altered 107 that the
tree before did not, 17 since (marked "left": a transit pass's or a routing slip's account, a currency's or a
ticket's initials read as a bank's, OpenPGP fingerprints under "GPG_KEY", counts after "msisdn:", a Turkish
"şifreniz: gönderildi"), and a line of 200 KB of "account ..." took 121 s (the branch's word searched over the
whole line per label), 0.3 s since.

- Round BSA. An attacker's round on reviewer BS's readers (a bank account's column beside a bank's, Arabic's bank
account labels, a phone after a postcode, "my number is" in other languages, a number a break cut after its label):
211 ordinary strings (ledgers' and CRMs' account numbers beside "transit_days", "routing_key", "bank_reconciled" or a
bank column holding "none", flights' and shifts' times and lottery draws after a number, ids named in a bracket after
"мой номер", counts on the line after "phone" or "mobile:"). The readers attacked altered 110 that the tree before
did not (86 plainly ordinary), 18 since (marked "left": a Spanish table of accounts beside their banks, bare digits
after "my number" in other languages that may well be phones).

- Round BTA. An attacker's round on reviewer BT's readers (code spans side by side, "my ... line", Spanish's
"secreto", "BLZ", bytes of a hex dump, a template's words around "[at]"): 328 ordinary strings (exit codes and
benchmark numbers in code spans, "my bottom line", "my credit line", ISO's "BLZ Belize", French opening hours after a
phone). The readers attacked altered 45 that the tree before did not and lost 17 of its values (French phones beside
"de 09 00" read as a hex dump, addresses whose local part is "or", "an" or "a"); 8 and none since (marked "left": a
commit hash, a file's and a lot's codes after Spanish's "secreto", as after English's "secret" before).

- Round BUA. An attacker's round on reviewer BU's readers (Sentry DSNs, Azure storage keys, IMAP's and SMTP's logins,
a secret setting's "value", a payment's account fields, addresses escaped twice, wrapped tokens before a word): 190
ordinary strings ("2 login attempts failed", "OAuth2 login flow broken", masked and literal IMAP passwords, SMTP's
"QUIT" after the password's prompt, the actuator's "PWD", credentials' files and settings about secrets). The
readers attacked altered 88 that the tree before did not and lost 27 of its values (provider tokens wrapped before a
word); 8 and none since (marked "left": logins and values that may well be real).

- Round BVA. An attacker's round on reviewer BV's readers (password labels inside a failed phrase, CJK secret labels
with asides, bank accounts under Indonesian, Vietnamese, Russian and Japanese labels, Poland's NRB, IBANs and phones
split across columns, "+" numbers glued to Thai, emphasis closed after a value): 192 ordinary strings in twelve
languages (other numbers after an account's label and a clause's colon, "Kundennummer:", "nomor resi:"; Danish
"stk." and M-Pesa's "STK push"; "кадр/с" and Spanish "p/c"; Japanese balances, counts and ledgers after "普通預金";
camelCase calls after CJK secret words; prices glued to Thai). The readers attacked altered 118 that the tree before
did not (one quadratic: a line of Japanese accounts' kinds, 70 s for 1 MB); 8 and none since, linear (marked
"left": valid NRBs under "Account:", valid phones split across an area's and a number's columns, a password in a
bracketed aside).

- Round BWA. An attacker's round on reviewer BW's readers (queries encoded inside others', links to a number, Pix and
Wi-Fi payloads, bank fields in other languages, connection strings' properties, "aws_sk", OAuth codes, cards split
across fields, a secret's rotation, a card read out): 208 ordinary strings (Wi-Fi payloads' placeholders and the code
that builds them, charts of accounts beside "routing_key" or "bank_statement_import", BIN and date ranges in
"card_start=...&card_end=...", nested redirects' "password%3Dforgot%26...", OAuth's specification examples and share
links, Telegram invites whose hash starts with digits, tickets and orders "the new one is ..."). The readers attacked
altered 110 that the tree before did not (one quadratic: a megabyte line of "?code=" without a blank, 157 s); 11
and none since, linear (marked "left": phones under "tel" or "mobile" in an encoded query, UPI's example numbers, a
Pix key of a wrong length).

- Round BXA. An attacker's round on reviewer BX's readers (SQL's IDENTIFIED BY and sp_addlogin, Terraform variables
named for secrets, folded iCalendar lines, German token compounds, "счёт №", a record's number and its year): 127
ordinary strings (prose's "identified by 'uuid'", documentation's placeholder passwords, variables' defaults "true",
"us-east-1", "GITHUB_TOKEN" and paths, order numbers in folded iCalendar text). The readers attacked altered 59 that
the tree before did not and lost 12 of its values ("Tel.: 0711/2024" read as a year's record); 16 and none since,
linear (marked "left": example passwords in documentation, numbers a real fold joins, "+" numbers under a phone's
key in base64 JSON, twenty-digit accounts after "счёт №").

- Round BYA. An attacker's round on reviewer BY's readers (an IBAN with "+" for its blanks, North America's "1" in a
quoted value, an account's number in a payroll's or a payout's record, a digest under a key's path): 87 of the 147
ordinary strings it tried, those the readers altered (spreadsheets' formulas "=ES73+ES146+...", a search's
"query=MK42+2LN+Milton+Keynes", a cloud account named "payroll-prod", ledgers' postings for a payroll run, a payroll
host's name lines away, a utility's "payoutSchedule", menus' and quantities' "1" before a number). The readers
attacked lost 76 of the tree before's values (secrets under key paths such as "run/deploy=") and were 12 times slower
on long runs joined by "+"; 7 and none lost since, linear (marked "left": a quoted value that is "1 (800) ..." alone,
which may be a number with its country's code).

- Round BZA. An attacker's round on reviewer BZ's readers (a table told by a first row's quoted cell, account columns
named in other scripts, a "+" number after a slash, an address with a footnote's mark, an amount's tail with three
decimals): 117 of the 134 ordinary strings it tried, those the readers altered (an analytics sheet's "mobile" counts,
a token list's contract addresses and a policy's words under "password" in tables told by their quotes, a second CSV
read under the first one's header, code's "query@keys.to(d)" and a log's "handler@views.py(42)", a ledger's
"(−)/+12.345.678" and "(out)/+61 234 567", a cash book's "Cash" in a bank's column). 6 and none lost since, linear
(marked "left": account columns named for a bank's account in Japanese, Korean, Chinese and Hindi, which hold real
accounts as often; a manual page's "crontab@freebsd.org(5)").

- Round CAA. An attacker's round on reviewer CA's readers (a cheque or a routing named in the text, banks of two
letters and "Bank", Tagalog's "ko" before a label's colon, romanised Japanese "wa" after a password's label, PINs of
one digit over and over kept): 123 of the 151 ordinary strings it tried, those the readers altered (bills' "write your
account number on the back of your cheque", call and network routing beside a ticket's account number, Swahili's
"password wa M-Pesa", Indonesian's "password WA Business2", "DeBank" and INSEE's "idBank", "namin:" after a utility's
account); 12 of the tree before's values lost (PINs such as "2222"). 1 and none lost since, linear (marked "left": a
wallet's number in a text that names GTBank for another account).

- Round CBA. An attacker's round on reviewer CB's readers (a password of two words a dot joins and a number before
more text, a health system's number named with "number" or "no", Hindi's bare "number" after an acronym): 42 of the
65 ordinary strings it tried, those the readers altered (code's "Resources.password01", "Constants.dbpass01",
"Password: Windows.update2024 must be installed first", "password: Python.version311 or later"); the password reader
was removed, the others kept to a record's shape and a record's acronyms. None and none lost since, linear.

- Round CFA. An attacker's round on reviewers CF's and CG's readers (wallets' keys, security answers, banks' files,
countries' accounts, locks' codes, Wi-Fi keys, joined lists): 120 of the 212 ordinary strings it tried, those the
readers altered (Solana transactions' signatures and 64-number lookup tables near "export", "wallet" or "secret"; a
form's help after "Security question:"; "padlock 8500 by Abus"; a network's name after "the password for the wifi"; a
ticket's "routing" column holding "escalation"; inventories' fixed-width lines read as NACHA entries; placeholders and
samples of RPC keys, MT940s, BACS records and Brazilian accounts; Korean registration numbers after a bank's name; a
balance after "cuenta de ahorros"; "счёт" on a sample's or an order's line), and three inputs slower than linear
(blanks after "agência ... conta", after a Korean bank's name, and after a quoted literal, the last older than these
readers). Since: a Solana keypair read only as a seed and its public key, answers only after a quoted or asked
question and ending their clause, a lock's code ending its clause, Swahili's "the Wi-Fi's password" only, a routing
column's digits, an entry's amount field, samples and placeholders left alone, blanks read possessively. None altered
beyond the one the tree before altered too, linear.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import found_values

DATA = Path(__file__).parent / "data"
# round -> (lines, left, lines recorded with nothing found and not left)
ROUNDS = {
    "y": (253, 13, None),
    "az": (302, 14, None),
    "bb": (285, 3, 269),
    "bc": (288, 1, 287),
    "bd": (237, 8, 213),
    "be": (276, 2, 255),
    "bf": (394, 25, 368),
    "bh": (248, 6, 240),
    "s48": (199, 27, 172),
    "bj": (472, 10, 462),
    "bk": (242, 35, 207),
    "bl": (231, 5, 219),
    "bm": (250, 12, 202),
    "bn": (157, 12, 117),
    "st51": (162, 9, 153),
    "bpa": (335, 2, 316),
    "st52": (311, 17, 267),
    "bsa": (211, 18, 186),
    "bta": (328, 8, 308),
    "bua": (190, 8, 162),
    "bva": (192, 8, 178),  # (an ОГРН left alone since stop 57: reviewer CG's registry numbers)
    "bwa": (208, 11, 190),
    "bxa": (127, 16, 111),
    "bya": (87, 7, 74),
    "bza": (117, 6, 108),
    "caa": (123, 1, 122),
    "cba": (42, 0, 42),
    "cca": (83, 4, 77),
    "cda": (110, 12, 92),
    "cfa": (212, 0, 211),
    # Reviewer CH's readers, attacked (cuenta/compte/conta as verbs, ledgers, helplines, Thai and Vietnamese amounts,
    # HTTPie's placeholders, keypads): 38 altered as first written, one of them since (HTTPie's documented demo login,
    # "http -a demo:demo1234 https://pie.dev/..."); the other 6 left altered were so before these readers (a bank's
    # helpline after "Bank account", a question bank's "account", a keypad's digits).
    "cha": (110, 6, 99),
    # Reviewer CI's readers, attacked (banks' names before counts, Serbian receipts, Swahili's "piga", leet players'
    # names, public keys in hex, Japanese samples, "punkt" in German prose, spelt lottery numbers): 31 newly altered
    # as first written, none since but one a comma's kind alone decides (Arabic's "،" reads as the comma did before:
    # "اتصل بنا لمعرفة النتائج: صفر، ثلاثة، ..."); the other 18 left altered were so before these readers.
    "cia": (169, 19, 150),
    # Reviewers CK's and CL's readers, attacked (amounts and counts after wallets' names, digit words as ordinary
    # words, spoken dots in laws' and releases' numbering, products' names after a password's long clause, Kafka's
    # placeholders, templates in spaced dashes, dated batches after "CCI" and "nib"): 93 newly altered as first
    # written, two since (an msisdn field's numbers, a documented sandbox number among them: a subscriber's number by
    # its name); the other 26 left altered were so before these readers (timestamps and counts after phone words).
    "ckla": (235, 28, 207),
    # Reviewer CM's readers, attacked (code names, SKUs, sizes and test names in spaced dots or blocks after a token's
    # prefix, 18-digit references after "CLABE", base64 configs, words for "@" and "." in prose): 22 newly altered as
    # first written, none since (pieces of words run together refused, prefixes that are words or codes read for no
    # blocks, a CLABE's reach kept); 5 of the 10 altered before these readers stay (two addresses in a spaced log
    # line, two base64 values, a report's number after "CLABE"); CLABEs led by no bank's code mended.
    "cmla": (150, 5, 145),
    # Reviewer CN's readers, attacked (Russian's "адрес" inside other words, numerals' "の" in patents', standards' and
    # exercises' numbers, Malay's "[di]" in quotes and grammar notes, Thai instructions glued to a password's label,
    # asides that name an id's or a digest's kind): 19 newly altered as first written, none since ("адрес" as a word
    # in its cases, "の" only between a phone's three groups led by "〇", "[di]" after a mailbox's local part, Thai's
    # own qualifiers only, such asides refused); the 2 left altered were so before these readers.
    "cnla": (193, 2, 191),
    # Reviewer CP's readers, attacked (tag characters in emoji, Hebrew's prefixes before "at", Japanese tallies, Czech
    # vouchers' numbers and years, Turkish device counts, French prose read in pairs, tables of counts, code spans of
    # ids, JSON lists of scores, containers' numbers, Polish firms' NIPs beside phones): 42 newly altered as first
    # written, 7 since: five "at <host> dot com" after a Hebrew prefix (read as in English, "CI at github dot com",
    # by design) and two runs of ids in code spans (read as the same digits are without them); the other 4 left
    # altered were so before these readers (Turkish counts after "cep telefonu", a table's row after "Pan-European");
    # two more such counts mended since (a count in thousands, round or named by what it counts, is no phone).
    "cpa": (181, 11, 170),
    # Reviewer CQ's readers, attacked (ids, postcodes and invoices after "reverse", arrays of 64 numbers after files
    # named "*_id.json", Basque sales and storage figures after "mugikorra", "llamarla" in code, PEM placeholders,
    # "=40" in CSS and mail): 22 newly altered as first written, none since (digits turned around read only as what
    # their line names, Solana's own file names and no count, Basque words as labels only, placeholders by their
    # words and length); the 13 left altered: documented test keys and cards (Hardhat's account #0, "4111 ..."),
    # service mail addresses in quoted-printable mail (read as any address is), a PTR record's address, a company's
    # free line, and three PEM blocks holding a key's first characters or "1Password" (a key's head is read as the
    # key, however short: a block of a few characters of base64 is what an acceptance suite writes for one).
    "cqa": (191, 13, 178),
    # Reviewer CR's readers attacked (stop 62): 205 ordinary lines, 29 altered by the tree before, 42 by the readers as
    # first written (companies' numbers in brackets after "Kunde", counts read out with their units after them, a
    # keypad's test and a countdown, "Map password to ... and token to ...", garden seeds after "Recovery seed", a
    # Korean count, an order's number after Hebrew's "from", log lines quoting HL7 with a count after them), 22 since:
    # left altered, by design or older than these readers, companies' numbers after "Kunde" and "Klient" (a number in
    # brackets after a customer's name in a text of calls), Italian fixed fees' numbers valid in a configured region,
    # test cards in code spans, the ISO's sample IBAN read in the radio alphabet, BIP-39's "abandon ... about".
    "cra": (205, 22, 183),
    # Reviewer CS's readers attacked (stop 62): 252 ordinary lines, 16 altered by the tree before, 129 by the readers
    # as first written (code's "@" before a domain the readers had newly listed, numbers read out after the generic
    # words for "number" of six languages, references read with a dash said between commas, keys' asides, "다시" with
    # no phone's word, dotted or dashed digits after "call:"), 7 since: the new domains dropped (an assignment's key
    # must name a mail instead), those words and the comma-dash gap dropped, asides dropped, ordinals only for a
    # secret's key.
    "csa": (252, 7, 245),
    # Stop 63's readers attacked (reviewers CS's and CT's forms): 233 ordinary lines, 9 altered by the tree before, 131
    # by the readers as first written (serials and orders read out after "the number" in Czech, Greek, Finnish,
    # Swedish, Hebrew, Hungarian; "seguro" and "social" alone naming an SSN; kana button orders after "電話"; scores,
    # versions and decimals said with "point"; identifiers of abbreviations; base64 of text naming OpenAI; Google's
    # prefix before hex blocks, and 18 s for 320 KB of "AIza "; EDIFACT samples; digit sequences after a phone's word;
    # policies after "menjadi" and Thai's "คือ"; Swahili's "wa"), 8 since: the Google blocks dropped, the rest narrowed
    # (a customer's or a caller's word or "in words" for "the number"; an SSN's full name for a dash between commas;
    # a trunk "0" and a valid number for kana; "dot" and an address's own word, and the typed address's rules, for an
    # address said; capitals side by side three times for letters drawn at random; text's bytes refused under the
    # OpenAI marker; a segment's start and a valid number for EDIFACT; no sequence described on the line for dotted
    # digits; "nomor WA" for WhatsApp). Left altered: a receipt's number "in words" in Hebrew, a router's default
    # private address said in words (as typed it is found too), and six lines the tree before altered (its other
    # three, codes after "Seguro" and "Social", are no longer).
    "cta": (233, 8, 225),
    # Stop 64's readers attacked (reviewer CU's forms, the probes' and CS's and CT's mends): 210 ordinary lines, 13
    # altered by the tree before, 126 by the readers as first written (BIP-39's list quoted in docs, glossaries and
    # tables, test vectors and demos' mnemonics; asides that name an identifier, a format or a lifetime; routers' and
    # templates' names after a Wi-Fi key's or a one-time password's label; lists of ports, sizes and rooms joined by
    # pipes and counted keys of weeks, quarters and doses; a file's number and its year or dimensions after an SSN's
    # word; product and market codes in brackets near a customer's word; a porting's file number; Hungarian invoices
    # near "számla"; hosts with "-at-" after a mail's word; digests, build ids and signatures in hex groups after
    # "wallet"; Arabic's "its number" after an order), 17 since, 14 of them the tree before's (and a hotline's number
    # after "PUK-Code", a phone, now expected): the seed's gaps blanks, a line break or a dash only, the list's order
    # and an example's word refused; asides that say what else the value is refused; a word and a number only ending
    # its clause; a payment spoken of near piped or keyed groups, no counted periods or places; a year or a round
    # measure after an SSN's slashes refused after the labels this stop added (after "SSN:" they are read as before:
    # two of the tree before's dates stay altered, so that no SSN whose serial looks like a year is lost); the party's
    # word right before a capitalised name; a porting's file words and what the number is said after it; an account's
    # number or a transfer's word for Hungary; the mail's word right before a glued address; a key's word between
    # "wallet" and the hex; Arabic's "its number" dropped. Left altered: a tariff's name after "кодовое слово", the
    # documented Amex test number joined by pipes, AWS's documented example key in hex.
    "cua": (210, 17, 192),
    # Stop 65's readers attacked ("PUK-код", a seed pasted as a list after its label, a Hungarian account's groups
    # joined by blanks, a token's bytes in hex one by one, a traveller's country in square brackets): 121 ordinary
    # lines, 6 altered by the tree before, 99 by the readers as first written (an operator's helpline after "PUK-код";
    # lists of garden seeds, menus, keywords, phrase books and packing lists after "seed", "recovery", "backup",
    # "words" or "phrase", inside other words too; two dates, orders or vouchers near "utal" or "számlaszám"; a
    # field's "key:Value2024" in hex beside "auth"; amounts in a report's row after "Customers ... [SG]"), 6 since,
    # all the tree before's: a PUK's eight digits only; a seed's, a mnemonic's, a recovery's or a backup's phrase or
    # words, or "seed" or "mnemonic" alone, right before the colon; the Hungarian blanks and the square brackets
    # dropped; no user and password pair from hex bytes.
    "cva": (121, 6, 115),
    # Reviewer CV's readers attacked (an answer's own label, columns named "X_pass", "pan_1".."pan_4", Czech's
    # "reportedly", Finnish's compounds of "salasana", Swahili's PIN, seeds numbered word by word, incidents'
    # numbers): 117 ordinary lines, none altered by the tree before, 115 by the readers as first written (vocabulary
    # tests' and word searches' numbered answers passing the checksum with no wallet spoken of; a form's status after
    # an answer's label; checks' results under "X_pass"; panels under "pan_N"; a Czech slogan; Finnish descriptions
    # of a password; Swahili help texts), none since: a seed numbered with no wallet spoken of only at 24 words,
    # never in capitals or in the list's order; an answer with a digit or a symbol; "X_pass" holding small and
    # capital letters and a digit; "pan_N" beside an expiry's column; Czech's "reportedly", Finnish's compounds and
    # the incidents' words dropped (after "Tel. incidencia:" a phone was lost); Swahili's PIN after "ni" or a colon.
    "cvb": (117, 0, 117),
    # Two last readers attacked (a password of words joined by a dot before a sentence's stop; a parent's mobile in a
    # class's contact list): 62 ordinary lines, none altered by the tree before, 62 by the readers as first written
    # (code's names such as "torch.Float16." after a password's label in prose; a family tree's dates and lists of
    # round amounts after a parent's word), none since: the first reader dropped, the second refusing a group that
    # reads as a year and two round groups.
    "cvc": (62, 0, 62),
    # Stop 66's readers attacked ("PUK-код" with "of the SIM card" between it and the code, seeds numbered "#1",
    # "(1)", "1 -" or with no mark, more systems' "_pass" columns, a lock's code after "code for the <lock>"): 100
    # ordinary lines, 13 altered by the tree before, 65 by the readers as first written (HS, colour, status, post,
    # tariff, budget and event codes "for the door/gate/alarm/key"; checks', renders' and plans' names under
    # "X_pass"; a count, a date and a price list's cell after "PUK-код SIM-карты"), 11 since, all the tree before's:
    # the lock's reader dropped; "X_pass" refused beside a "fail" column, its cell random (a symbol, or not words,
    # capitals and digits joined); the SIM's code the clause's last word, never a date or a tab's cell.
    "cwa": (100, 11, 89),
    # Stop 66's numbered seeds in more layouts attacked (tables, "Word 1:", "1/24", "1st", "- 1.", pipes, quotes,
    # blank lines between items): 82 ordinary lines, 40 of them word orders chosen so that the checksum holds; 18
    # altered by the tree before, 41 by the reader as first written (homework after "frase" or "palavras", a garden's
    # "Seed order", "Backup rotation", bingo cards and spelling lists of 24 words), 18 since: the new layouts are read
    # only in a text that names a wallet or a seed's phrase outright, a whole word (not "phrase", "backup", "seed",
    # "ledger" alone), never with 24 words and no wallet; an example's word, whole, up to four lines above refuses the
    # list. Left altered: the layouts the tree before read ("1." and "1)" after a word such as "phrase" or "recovery",
    # 24 such words anywhere), and lists beside a wallet's own word whose order was chosen so that the checksum holds.
    "cwb": (82, 18, 64),
    # Reviewer CW's readers attacked (a key box's code after where it is, a ward's cupboard's, a warehouse's, a gate's
    # and an alarm's words, duress codes, app and consumer keys, a router's sticker key, TOTP secrets and CJK backup
    # codes, checking and savings accounts, " / " pairs after a login's word, HomeKit codes, keyed lock codes): 141
    # ordinary lines, 13 altered by the tree before, 85 by the readers as first written (an ERP's "clave de almacén",
    # a ward's, a budget's or a product's code, alarms' event numbers after a duress word, placeholder keys, tickets
    # after a CJK backup code's word, dashboards' "routing ... savings", breadcrumbs and ledgers after "account" or
    # "admin", Apple's list of codes HomeKit refuses, settings keys with a comment), 13 since: the warehouse's words,
    # Polish "furtka" and Czech "dveře" dropped; a ward's, a project's, a budget's, an audit's, a call's, an item's, a
    # product's code, a CPV, an EAN, an event, a zone and a log refused before a lock's code; a key box's code after
    # its place only as its own four to six digits right after the code's word; a placeholder's repeated digits; a CJK
    # label right before its colon; checking and savings only beside a routing number whose check digit holds; the
    # " / " pair's user a name or a host's address (or, after a colon, a random password only); HomeKit's refused
    # codes and a sentence between the code's word and the number; a comment after a settings key. Left: two CJK lines
    # whose English forms the tree before reads the same ("バックアップコード：SHA256、bcrypt12").
    "cwc": (141, 13, 128),
    # Stop 68's readers attacked (reviewer CY's leftovers): 259 ordinary lines, 135 altered by the readers as first
    # written beyond the tree before (laws' "Bankgeheimnis" before a case's number, identifiers beside "khóa API" and
    # "recovery key", numbers of phones, customers and invoices after "password for the ...:", tickets and Jira keys
    # in a list after "backup codes for ..."), none since: a technical head before "Geheimnis", the value given
    # right after a colon or "is" with no identifier's word, digits only for a machine, a network or a safe, codes
    # of letters and digits in each group. The 38 left are what the tree before alters too (phones, mostly).
    "s68": (259, 38, 221),
    # NATIONAL_ID attacked (stop 68): 1,026 ordinary lines, 259 altered by the reader as first written beyond the
    # tree before (any number after a label's own words and a colon: "BSN niet bekend, klantnummer: ..."; numbers
    # with no check digit after "NID", "TIN", "CCCD"; acronyms of other things: card-not-present's "CNP", "SIN" in
    # capitals, a NAS's address, toll-free "TFN" numbers, "NHS" the service; Hindi's "आधार", a basis; amounts and
    # addresses read with their dots; references shaped as an Emirates ID; documentation's examples), 3 since: an
    # MRN after "NHS #", an employee's number after "NIK", a training account's after "CPF n°" (each with a valid
    # check digit, named as such only by an aside after it). The other 141 left are what the tree before alters
    # too (phones and addresses, mostly).
    "nid": (1026, 144, 882),
    # Stop 68's second readers attacked (DA's: more national schemes, verbs and line breaks before a number, labels in
    # alternating case, "e-mail:password" lines, Finnish compounds, recovery phrases in other languages): 4,056
    # ordinary lines, 548 altered as first written beyond the tree before (companies' CUITs, RUTs, Thai tax numbers
    # and Israeli company numbers; a label's own words naming something else; "RUN" in a Dockerfile, "FIN", "TAJ";
    # a label ending its sentence; "PassWord: String[20];" and jokes in alternating case; copy targets such as
    # "deploy@web01.example.com:releases-v2.3"; "asiakassalaisuus"; help text after "Frasa pemulihan:"), none since.
    # The 164 left are what the tree before alters too.
    "s68b": (4056, 164, 3892),
    # Reviewer DB's readers attacked (stop 68): 1,790 ordinary lines, 545 altered by them as first written ("NI"
    # before Northern Ireland's and other codes, "RFC" before change requests and Mexico's generic RFCs, companies'
    # OIBs, phones after "NSS", other cards after Thai's "card number", HTML tables of toll-free numbers, "NAS number
    # is"), none since: those labels and the HTML cells dropped, two words only after a label of words. The 453 left
    # are what the tree before alters too.
    "db": (1790, 453, 1337),  # (one line holds a Steuer-ID, found since as a national identifier)
    # Stop 69's national numbers under a key, in a row of two cells and in a column, attacked: 646 ordinary lines, 632
    # altered as first written (a board's serial number after "bsn" in devices' logs, JSON, tables and SQL rows; sine
    # tables under "sin"; a network's storage under "nas"; toll-free numbers, resuscitation times, the NHS as a payer;
    # companies' SIRENs and banks' codes under "national_id"; companies' tax numbers), none since. The 69 left are
    # what the tree before alters too (phones and addresses).
    "s69": (646, 69, 577),
    # Stop 69's other forms attacked (six-digit backup and recovery codes, a code after a comma near a 2FA word, a
    # bank's own name before an account's label): 519 ordinary lines, 343 altered as first written (orders', parcels',
    # postal and tariff codes after a comma; backup jobs', devices', costs' and disaster recovery's codes; CRMs',
    # SaaS tenants', stadiums' and pharmacies' accounts after a bank's name), none since (the comma's form dropped;
    # backup codes six digits ending their clause with no job's or cost's word before; the bank's name right before
    # the label, no CRM's or ledger's word after). The 27 left are what the tree before alters too.
    "s69b2": (519, 27, 492),
}


def rows(name: str) -> list[dict[str, Any]]:
    path = DATA / f"ordinary_attack_{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_ordinary_text_keeps_what_it_should(name: str) -> None:
    # One test per round, every line read (4,800 tests of one line each cost the suite seconds of pytest's own work
    # per line); a failure lists each line that went wrong, with what was found and what should have been.
    wrong = [
        (row["text"][:80], found, row["values"])
        for row in rows(name)
        if not row["left"] and (found := found_values(row["text"])) != row["values"]
    ]
    assert wrong == []


@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_each_round_is_recorded_whole(name: str) -> None:
    lines, left, untouched = ROUNDS[name]
    recorded = rows(name)
    assert len(recorded) == lines and sum(row["left"] for row in recorded) == left
    if untouched is not None:
        assert sum(1 for row in recorded if not row["left"] and not row["values"]) == untouched


# The attackers' values the readers should find. Round BB's 116 (a PIN after an expiry, a glued label's value
# before a copula, backup codes, lockboxes' codes in compounds, login pairs in more languages...): 65 found as
# the readers were first written, 99 after its fixes, 95 once round BC's narrowed them. Round BC's 70: 9 as it
# came, 30 since. Left: UUIDs named an API key with no secret beside them (a key's id as often), passwords after
# five words or more or with a slash, bare mobiles after a name alone, an SSN's parts out of order. Round BD's 112
# (stop 47's readers' shapes in other spellings): 29 found by the tree before, 57 since; left: SSN fields in
# other orders and spellings, locks in other languages, keys in URL-safe base64 or with literal "\n", Indic
# scripts' words for a password.
# Round BE's 116 (BD's and BE's readers' shapes in other spellings): 38 found by the tree before, 53 since.
# Round BF's 92 (BF's readers' shapes in other spellings and forms): 23 found by the tree before, 87 since.
# Round BJ's 54 (BJ's readers' shapes in other spellings): 18 found by the tree before, 39 since.
# Round BK's 51 (split cells and CSV pairs in other layouts): 10 found by the tree before, 24 since.
# Round BL's 85 (BL's readers' shapes in other spellings): 3 found by the tree before, 15 by the readers as first
# written, 44 since.
# Round BM's 72 (other fillers and corrections, other words for "@" and ".", radio-alphabet local parts): 1 found by
# the tree before, 5 by the readers as first written, 2 since (the narrowing took three).
# Round BPA's 129 (BP's readers' shapes in other separators, languages, prompts and layouts): 40 found by the tree
# before, 54 by the readers as first written (9 of the tree before's lost: a CSV row's phone named in its own
# cells, a prose line with a comma above), 102 since.
# Round ST52's 122 (the narrowed readers' and BQ's shapes in other forms): 42 found by the tree before, 80 by the
# readers it attacked (6 of the tree before's lost: hosts after "schema", "SDK", "protocol", Danish numbers after
# "DK"), 89 since.
# Round BSA's 64 (BS's readers' shapes in other layouts and languages): 31 found by the tree before, 63 by the readers
# it attacked (none of the tree before's lost), 59 since (the narrowing took a postcode before a German number
# written with dashes and numbers a break cut after a bare label).
# Round BTA's 48 (BT's readers' shapes, and values beside them): 40 found by the tree before, 31 by the readers it
# attacked (17 of the tree before's lost), 45 since.
# Round BUA's 34 written whole in their texts (of 98: the rest are tokens wrapped over lines, checked by their parts in
# tests/test_pii_review_bu.py): found since, 29.
# Round BVA's 100 (BV's readers' shapes in other spellings and layouts): 7 found by the tree before, 59 by the readers
# it attacked (none of the tree before's lost), 58 since.
# Round BWA's 94 (BW's readers' shapes in other spellings, and values holding what they cut at): 32 found by the tree
# before, 48 by the readers it attacked (16 of the tree before's lost: Twitter's bearer tokens with an escaped "=",
# passwords holding ";x=", a Wi-Fi payload without its last ";", a Pix key of a wrong length), 66 since, none lost.
# Round BXA's 195 (BX's readers' shapes in other spellings): 67 found by the tree before, 134 by the readers it attacked
# (12 of the tree before's lost: German phones whose number after the slash reads as a year), 136 since, none lost.
# Round BYA's 323 (BY's readers' shapes, and secrets under key paths): 195 found by the tree before, 169 by the readers
# it attacked (76 of the tree before's lost: secrets under "run/deploy=" and other key paths), 221 since, none lost.
# Round BZA's 54 (BZ's readers' shapes in other layouts): 13 found by the tree before, 33 by the readers it attacked
# (3 of the tree before's lost: a password in a second CSV below a table told by its quotes, phones after "1,800."),
# 27 since, none lost.
# Round CAA's 54 (CA's readers' shapes, and PINs of one digit over and over): 16 found by the tree before, 31 by the
# readers it attacked (12 of the tree before's lost: "my ATM PIN 2222"), 25 since, none lost.
# Round CBA's 110 (helplines after health systems' words, Hindi's phones after acronyms, two-word passwords): 90 found
# by the tree before, 47 by the readers it attacked (54 of the tree before's lost: "the Medicare number is
# 1-800-633-4227", "मेरा WA नंबर 9876543210"), 90 since, none lost.
# Round CCA's 152 pieces (CC's and CD's readers' shapes in other chat exports, languages, separators and spellings; a
# value sent in pieces is one row per piece): 18 found by the tree before, 100 after its own fixes, 83 since round
# CDA's narrowing (chat pieces only from one stamped sender, after a payment card's phrase), none of the tree
# before's lost.
# Round CDA's 127 (the narrowed readers' shapes in other layouts and languages): 10 found by the tree before, 56 since,
# none lost.
# Round CFA's 189 (CF's and CG's readers' shapes in other layouts, languages and idioms; its keypairs are random bytes,
# not a seed and its key): 6 found by the tree before, 43 by the readers it attacked, 62 after its fixes,
# 66 since (Litecoin's, Dogecoin's and Dash's keys, multisig Uprv and Vprv).
# Round CHA's 73 (CH's readers' shapes: accounts beside banks' names and words, Czech, Thai and Vietnamese accounts,
# HTTPie, cards read out with wide gaps): 17 found by the tree before, 52 by the readers it attacked, 56 since. Left:
# a bank named only by its own name ("my Chase acct"), French, Spanish and Portuguese accounts beside a bank (their
# words are verbs too), a phone read out in groups of 4-4-3 with wide gaps, Dutch callers.
# Round CKLA's 133 (CK's and CL's readers' shapes in other spellings, written to be missed): 6 found by the tree
# before, 22 by the readers it attacked, 39 since (a phone in blank groups before "-wa2" again, msisdn's other
# fields, Kafka's user info in JSON, a variable and a Java call, Vodafone Cash, capitalised and French, Turkish spoken
# dots after an address's word). Left: wallets' names in other words, phone words of other scripts, Bengali's digit
# words in their own text, Kafka's librdkafka username.
# Round CIA's 97 (CI's readers' shapes: banks' names, Hungarian, Serbian and Norwegian accounts, spelt numbers after
# "my number is", said dots in emails): 18 found by the tree before, 69 by the readers it attacked, 67 since. Left:
# a beneficiary's account where no bank is named, "account number" after a bank's name, Serbian Latin without its
# marks, Hungarian accounts after "Számlaszám", Norway's account unpunctuated, "akaunti yangu ya benki".
FOUND = {
    "bb": (116, 95), "bc": (70, 30), "bd": (112, 65), "be": (116, 53), "bf": (92, 87), "bj": (54, 39), "bk": (51, 24),
    "bl": (85, 44), "bm": (72, 2), "bpa": (129, 102), "st52": (122, 89), "bsa": (64, 59),
    "bta": (48, 45), "bua": (34, 29), "bva": (100, 58), "bwa": (94, 66), "bxa": (195, 136), "bya": (323, 221),
    "bza": (54, 27), "caa": (54, 25), "cba": (110, 90), "cca": (152, 83),
    "cda": (127, 56),
    "cfa": (189, 66),
    "cha": (73, 56),
    "cia": (97, 67),
    "ckla": (133, 39),
    "cmla": (118, 75),  # reviewer CM's readers' shapes in other spacings and providers: 17 by the tree before, 68
    # by the readers as first mended, 74 with tabs and several blanks around a joint and heads of two characters
    "cnla": (84, 37),  # reviewer CN's readers' shapes in other words, scripts and spacings: 3 by the tree before, 24
    # by the readers as first mended, 37 with "ТОЧКА" in capitals, katakana's "ノ" and long mark between numerals, more
    # languages' bracketed words, "[ di ]" and asides in square brackets
    "cpa": (118, 68),  # reviewer CP's readers' shapes in other forms: 13 by the tree before, 57 by the readers as
    # first written, 68 since (a JSON list printed a string a line, two groups to a table's cell, a code span after a
    # dash or three digits, "č.ú." unspaced). Left: Turkish numbers read in hundreds and tens, French pairs with "et"
    # or after other words ("fixe", "natel"), lists as tuples or with the code apart, lower-case IBANs in cells
    "cqa": (118, 86),  # reviewer CQ's readers' shapes in other forms: 23 by the tree before, 43 by the readers as
    # first written, 86 since (more words for "reversed" and a card's word in their languages, an IBAN's groups
    # turned, a "+" after a turned phone; Hardhat's accounts quoted or on the next line, Truffle's privateKeys,
    # ethers' Wallet; CSV cells in small letters; code spans first or holding two groups; quoted-printable's "=2E"
    # and Latin-1 or "=3D" mail; "kontoen", "kontot"; Basque's "sakelakoa", "telefonoz"). Left: the radio alphabet
    # with "X-ray" or ICAO's "niner", letters said "A as in Alfa", keypairs in hex or with comments, undotted
    # Norwegian accounts, a soft line break in quoted-printable mail not named so, a card's word two lines above.
    "csa": (126, 67),  # reviewer CS's readers' shapes in other forms: 43 by the tree before, 72 by the readers as
    # first written, 58 since the narrowing, 62 once "the number" dictated and a dash said between commas were read
    # where the words around them allow (stop 63), 67 with "unseal" and "recovery" as a key's qualifiers (stop 68).
    # Left: other words before digits set apart by dots or dashes, other
    # calling verbs, Greek's colloquial digit words, "다시" unspaced, ordinals as "no. 2" or "[2]", code spans with two
    # blanks or commas between, a split Slack token, domains not listed in assignments whose key names no mail.
    "cta": (147, 62),  # stop 63's readers' shapes in other forms: 21 by the tree before, 88 by the readers as first
    # written, 61 since the narrowing, 62 with capitals side by side four times in short runs read as drawn at
    # random. Left: Google keys in blocks, letters drawn at random in parts under 12 letters, an address said with
    # "point", "punto", "Punkt" or after its name, kana glued to "は" or lengthened ("にー"), EDIFACT's "?+", two
    # numbers in a segment, "~" ends; a phone's word with other words before dotted digits.
    "cua": (220, 118),  # stop 64's readers' shapes in other forms: 52 by the tree before, 59 by the readers as first
    # written, 113 since (phones' compounds that start like a reference's, "PUK-Nr.", "NIP para portabilidad", hex
    # after "0x", a wallet and its key named in German or Chinese, other separators of a card's groups with a
    # payment named, counted keys on lines or from 0, slashed SSNs after more labels, any snake-case key ending in
    # "secret" or "token", asides up to 96 characters,
    # Russian's and Ukrainian's "control" and "secret word", Korean's and Turkish's private key, a word and a number as
    # a one-time password in more spellings, a seed's wallet named in more languages), 116 with stop 65's seeds joined
    # by commas after their label, hex bytes one by one and "PUK-код", 118 with stop 66's "Word 1:" and "1st:". Left:
    # BIP-39's other languages' lists, seeds joined by commas with no label right before, arrows, a card's groups in
    # a record of more fields or under XML keys, an SSN in a CSV's column.
    "cva": (110, 30),  # stop 65's readers' shapes in other forms: 15 by the tree before, 26 by the readers as first
    # written, 27 since, 30 with "PUK-код" and "of the SIM card" between it and the number and "ПУК" (stop 66). Left:
    # "PUK-кода" with other words before the number, other languages' PUK labels; a seed's
    # labels in other languages, a dash or "is" for the colon, other joints and quoted or JSON lists; Hungarian groups
    # joined by dots, slashes or blanks; "\x" and "0x" bytes, dashes, commas, xxd's and hexdump's layouts; a country's
    # code in other brackets, in small letters or written out.
    "cvb": (167, 58),  # reviewer CV's readers' shapes in other forms: 28 by the tree before (12 of them phones after
    # "incidencia" or "Zolltarif" that the readers as first written lost), 47 by the readers as first written, 38
    # since, 39 once a seed numbered from "01." is read, 58 with more systems' "_pass" and "_pw" (stop 66; "#1 word",
    # "(1) word" and "1. word |" with no wallet named are left: quizzes write them). Left: answers' labels in other
    # languages and keys, "PAN (1/4)", Swahili's and
    # Czech's other forms.
    "cwa": (70, 32),  # stop 66's readers' shapes in other forms: 1 by the tree before, 21 by the narrowed readers
    # ("PUK-код" after "от", "вашей", "від", "для сім-картки", "ПУК", "PUK1", groups of four; more systems' names and
    # "_pw", "_pwd", "_passwd"), 32 with seeds numbered "1/12", "Word 1:", "1st", "1 =", "1.)", in a markdown table,
    # quoted, pipes, slashes or blank lines between. Left: the lock's codes (its reader dropped), seeds in capitals or
    # after "test"; columns of other systems, of digits only, with a dot or blanks.
    "cwb": (45, 16),  # seeds numbered in more layouts: 8 by the tree before, 16 since. Left: two columns, capitals,
    # backticks and bullets, 0-indexed lists, CSV and JSON, other languages' "word", numbers in words.
    "cwc": (67, 27),  # reviewer CW's readers' shapes in other forms: 24 by the tree before, 30 by the readers as
    # first written, 27 since. Left: a sticker key after "(WPA2)" or "|", other languages' key names, HomeKit's code
    # before its name or in eight digits, JSON keys, other backup codes' labels, duress codes in Italian, Dutch,
    # French and Portuguese, the code's word before the room's.
    "cvc": (53, 9),  # the two readers' shapes in other forms: 4 by the tree before, 14 by the readers as first
    # written, 9 since (the dotted password dropped). Left: other parents' words and layouts, names in capitals or of
    # three parts.
    "db": (263, 18),  # reviewer DB's readers' forms: 6 by the tree before, 85 as first written, 18 since the
    # labels were dropped (the near forms of NI, NSS, RFC, OIB and Thai card numbers are left).
    "s69b2": (181, 50),  # backup codes, chat answers and accounts after a bank's name in other forms: 41 by the stop's
    # first tree, 66 as first written, 50 since the narrowing. Left: backup codes in other languages and JSON lists,
    # chat answers without "code", banks' names not in the list, a bank's name after the number.
    "s69": (258, 102),  # real national numbers under keys, in rows and in columns: 12 by the tree before, 38 as first
    # written, 96 since (a person's record around a key in small letters, HTML and definition lists' rows, more
    # persons before a key), 102 with one list of persons' words for keys and "whose" phrases. Left: keys in code and
    # queries' typed identifiers, rows of more cells, columns named
    # with an owner after them or in other languages, a value on the next line.
    "s68b": (272, 153),  # DA's readers' shapes in other forms: 20 by the tree before, 152 as first written, 143
    # since, 153 with keys and rows of two cells (stop 69). Left: small-letter acronyms ("rut", "cuit", "nric:",
    # "cpr:"), Danish's and Norwegian's "er", particles and
    # articles after a label ("주민번호는", "ist die"), "ID number:" for South Africa, joined Persian labels.
    "nid": (168, 103),  # real national numbers in other forms: 8 by the tree before, 28 by the reader as first
    # written, 100 since, 95 after the next round's narrowing (verbs, line breaks and keys before the number, more
    # labels and spellings, numbers after two labels), 103 with a table's or a CSV's column and keys in small
    # letters (stop 69). Left: numbers before their label, other inflections,
    # lower-case letters in lettered schemes, Israel's IDs without their leading zero, older Chinese IDs.
    "s68": (119, 58),  # stop 68's readers' shapes in other forms: 43 by the tree before, 62 by the readers as first
    # written, 58 since the narrowing. Left: "khoá"/"khoa API" and other languages' "API key", plural "keys", other
    # qualifiers (restore, escrow, unlock, backup, BitLocker), other languages' recovery keys, a value followed by an
    # aside or a dash after "password for the server:", labels of codes with other tails ("(root account)", "des").
    "cra": (155, 103),  # reviewer CR's readers' shapes in other forms: 65 by the tree before, 92 by the readers as
    # first written, 90 since (the narrowing took two), 97 by stop 67's end, 103 with "unseal" as a key's qualifier.
    # Left: other calling verbs ("Ara beni", "Τηλεφωνήστε μου"),
    # other separators ("•", "~", "_"), Korean's "영" and "다시", names in square brackets, key ordinals as "(1/5)" or
    # "no. 2", HL7 after "- " or a timestamp, the radio alphabet hyphenated or "M as in Mike", "Seed backup".
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(FOUND))
def test_the_attackers_values_are_found(name: str) -> None:
    from securemem.pii import detect

    path = DATA / f"positives_attack_{name}.jsonl"
    positives = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    found = 0
    for row in positives:
        text, value = row["text"], row["value"]
        at = text.index(value)
        found += any(f.start <= at and f.end >= at + len(value) - 1 for f in detect(text))
    total, at_least = FOUND[name]
    assert len(positives) == total and found >= at_least
