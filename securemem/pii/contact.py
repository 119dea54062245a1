"""Email addresses (plain and obfuscated) and phone numbers of any region."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain, pairwise

import phonenumbers

from securemem.pii.checksums import IBAN_LENGTHS, gs1_valid, isbn10_valid, luhn_valid, ssn_valid
from securemem.pii.normalize import normalise_text, unaccented, viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import COUNTED, WORD_AFTER, Scan, Span, by_first_letter, index_words, other_script

# ---------------------------------------------------------------- email

_LOCAL_PUNCTUATION = frozenset("._%+-'")
_LOCAL_MAX = 64  # RFC 5321; also bounds the backward walk from each '@'
# Letters and digits of any script (RFC 6531 addresses such as jürgen@bücher.example): a partial
# match would leave part of the address behind after scrubbing.
# An ASCII top-level label ends where letters of a script written without spaces start: Korean, Japanese, Chinese
# and Thai glue their particles to it ("seoyeon.lee@daum.net입니다", "taro@example.jpです": reviewer BP).
_DOMAIN = lazy_compile(
    r"(?:[^\W_](?:[^\W_]|-){0,61}\.){1,10}"
    r"(?:[A-Za-z]{2,63}(?=[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])|[^\W\d_]{2,63}(?![^\W_]|-))"
)
# "icon@2x.png", "logo@1.5x.webp": retina asset names, not addresses.
# ... with a variant and more suffixes after ("close@2x-dark.png", "icon@2x.png.meta", "sprite@2x.png.bak"),
# and a retina stylesheet, minified or not ("theme@2x.css": reviewer AK; "main@2x.min.css": an attacker's round).
_ASSET = lazy_compile(
    r"[0-9]+(?:\.[0-9]+)?x(?:[-_][A-Za-z0-9]+)?(?:\.min)?\.(?:png|jpe?g|gif|svg|webp|avif|bmp|ico|tiff?|heic|heif|jxl|psd|tga|pdf|eps|exr|hdr|dds|ktx2?|ai|xcf|sketch|json|plist|fnt|atlas|imageset|ttf|otf|css|scss|sass|less)"
    r"(?:\.[A-Za-z0-9]{1,8})*$",
    re.IGNORECASE,
)
# Words that end a URL authority's user part: "postgres://user:pw@db.example.com" holds no address.
_AUTHORITY_BREAK = frozenset(" \t\r\n/\"'<>()[]{},")  # a comma: the next cell of a CSV row
# ... but a password in a URL's user info may hold brackets ("mongodb+srv://reader:Z8xqyL]^3_Cn@host":
# reviewer AQ; its end was read as an address, "3_Cn@host", which hid the credentials around it).
_USERINFO_BREAK = _AUTHORITY_BREAK - frozenset("[]")


# RFC 5321 also allows a quoted local part ('"jane doe"@example.com') and an address literal for
# the domain ("jane@[192.168.1.1]", "jane@[IPv6:2001:db8::1]"): rare, and so a way past a filter.
# A quoted part may hold any character but a line break, "@" included, and escaped quotes.
_QUOTED_LOCAL = lazy_compile(r'"(?:[^"\\\r\n]|\\[^\r\n]){1,62}"$')
_LITERAL_DOMAIN = lazy_compile(
    r"\[[ \t]?(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|(?i:ipv6):[0-9A-Fa-f:.]{2,45}(?:%[\w.\-]{1,16})?)[ \t]?\]"
)


def find_emails(scan: Scan) -> Iterator[Span]:
    """Walk from each '@' instead of running one regex over the text: linear even on 'a@' * n."""
    text = scan.text
    at = text.find("@")
    while at != -1:
        start = _local_part_start(text, at)
        if (pix := max(text.rfind("BR.GOV.BCB.PIX01", start, at), text.rfind("br.gov.bcb.pix01", start, at))) != -1:
            start = min(at, pix + len("BR.GOV.BCB.PIX01") + 2)  # a Pix payload's key: after its field's length
        if start == at and at and text[at - 1] == '"':
            quoted = _QUOTED_LOCAL.search(text, max(0, at - 64), at)
            start = quoted.start() if quoted is not None else at
        domain = _DOMAIN.match(text, at + 1) if start < at else None
        if domain is not None:
            found = _is_address(text, start, at, domain.end())
        elif start < at and (domain := _LITERAL_DOMAIN.match(text, at + 1)) is not None:
            found = not _in_authority(text, start)
        if domain is not None and found:
            yield start, domain.end()
            at = text.find("@", domain.end())
        else:
            at = text.find("@", at + 1)


# A footnote's mark glued to an address ("bia.almeida@uol.com.br⁽¹⁾", "(1)" once the view folds it: reviewer BZ), then
# no call or name goes on.
_FOOTNOTE = lazy_compile(r"\((?:[0-9]{1,2}|\*)\)(?![\w.(])")
# Top-level domains that are also a source file's extension or a method's name in code ("handler@views.py(42)" in a
# log, "query@keys.to(1)" in a tensor's code: an attacker's round)
_CODE_TLDS = frozenset(("py", "js", "ts", "rb", "go", "rs", "sh", "pl", "cs", "mm", "to", "so", "do", "as", "is", "at"))


def _footnoted(text: str, start: int, at: int, end: int) -> bool:
    """A footnote's mark after an address whose domain ends in a known top-level domain, neither part a single
    letter, on a line that assigns nothing before it (not a method's call on a matrix product in code)."""
    if _FOOTNOTE.match(text, end) is None or at - start < 2 or text.find(".", at) - at < 3:
        return False
    line = text.rfind("\n", 0, start) + 1
    if "=" in text[max(line, start - _LINE_BACK) : start]:
        return False
    tld = text[text.rfind(".", at, end) + 1 : end].lower()
    return tld not in _CODE_TLDS and known_tld(tld)


# SSH's algorithms named by OpenSSH's and libssh's domains ("aes256-gcm@openssh.com", "curve25519-sha256@libssh.org"
# in a client's configuration: reviewer CD): names, made of words and numbers a dash joins; a person's address there
# ("djm@openssh.com", "damien-miller@openssh.com": an attacker's round) has no dash or no digit.
_SSH_ALGORITHM = lazy_compile(
    r"(?:(?=[^@]*[0-9])[a-z0-9]+(?:[\-.][a-z0-9]+)*-[a-z0-9.]+"
    # and OpenSSH's names of a compression and of extensions, which hold no digit ("zlib@openssh.com": an attacker's
    # round)
    r"|zlib|no-touch-required|verify-required|publickey-hostbound|hostkeys|hostkeys-prove|session-bind|limits)"
    r"@(?:openssh\.com|libssh\.org)",
    re.IGNORECASE,
)


def _is_address(text: str, start: int, at: int, end: int) -> bool:
    if _ASSET.match(text, at + 1, end) or _in_authority(text, start):
        return False
    if _SSH_ALGORITHM.fullmatch(text, start, end):
        return False
    if text[text.rfind(".", at, end) + 1 : end].lower() in _FILE_EXTENSIONS:
        return False  # "conditions_generales_v4@print.pdf", "report@final.docx": a file's name (reviewer BB)
    tld = text[text.rfind(".", at, end) + 1 : end].lower()
    if (
        end + 1 < len(text) and text[end] == "(" and text[end + 1].isascii() and not _footnoted(text, start, at, end)
    ) or text.startswith("self.", at + 1):
        return False  # "q@k.transpose(-2, -1)", "x@self.weight.T": a matrix product in code
    line = max(text.rfind("\n", max(0, start - _LINE_BACK), start) + 1, start - _LINE_BACK)
    # "preds = features@model.coef": an attribute after "@" in an assignment; not where the key names a mail
    # ("UNITY_EMAIL=chidi.eze@emberhollow.games": reviewer CS; "total = basket@catalog.money" is code: an attacker's)
    if (
        not known_tld(tld)
        and tld not in _SPECIAL_TLDS
        and "=" in text[max(line, 0) : start]
        and _MAIL_KEY.search(text, max(line, 0), start) is None
    ):
        return False
    # "git@github.com:org/repo.git" is an SSH remote: a host followed by ":" and a path. After a ":"
    # a port ("alerts@acme.io:587") or a password ("jane@gmail.com:Summer2024!", a leaked combo list)
    # leave it an address.
    if end + 1 < len(text) and text[end] == ":" and text[end + 1] not in " \t\r\n":
        after = _AFTER_COLON.match(text, end + 1)
        rest = after.group() if after is not None else ""
        return not ("/" in rest or rest.endswith(".git") or rest == "~" or text[start:at] == "git")
    if _message_id(text, start, at, end) or (
        _PLACEHOLDER_ATTRIBUTE.search(text, max(0, start - 16), start) and _RESERVED_DOMAIN.search(text, at, end)
    ):
        return False
    # "ssh deploy@prod.example.com", "ssh -p 2222 admin@bastion.example.org": the remote of an SSH
    # command has no ":" after the host, so the command before it tells. "mail jane@example.com" is
    # an address.
    return not _ssh_remote(text, start)


_MAIL_KEY = lazy_compile(r"(?i:e?mail|smtp_user|from_address|reply_to)[A-Za-z_]*[ \t]*[=:][ \t]*[\"']?$")


# A mail's identifiers, in angle brackets after the headers that carry them ("Message-ID:
# <20250314091244.48213@mailer.ward.internal>", "References: <a@x> <b@y>": reviewer AP): names of
# messages a mail server made, no one's address. Only a server's stamp: a date and a time ("20250314091244"),
# then a count of six digits at most. An address put there ("Message-ID: <jane.doe@gmail.com>",
# "<john.smith1985@gmail.com>", an SMS gateway's "<4155550132@vtext.com>") is still one, and so is a card, a
# phone or an SSN dressed as a stamp ("<4111111111111111.1@...>", "<123-45-6789-0001@...>"): two attackers'
# rounds.
_MESSAGE_ID_HEADER = lazy_compile(
    r"[ \t]*(?:message-id|in-reply-to|references|content-id|resent-message-id|x-message-id|original-message-id)"
    r"[ \t]*:(?:[ \t]*<[^<>\s]{1,256}>)*[ \t]*<$",
    re.IGNORECASE,
)
# A form field's placeholder at a domain kept for examples (RFC 2606, RFC 6761): the example a form shows
# in an empty field ('placeholder="you@example.com"'), which no mailbox can be.
_PLACEHOLDER_ATTRIBUTE = lazy_compile(r"placeholder=[\"']$", re.IGNORECASE)
_RESERVED_DOMAIN = lazy_compile(
    r"@(?:[^@\s]*\.)?example(?:\.(?:com|org|net))?$|\.(?:test|invalid|example)$", re.IGNORECASE
)
_STAMP = lazy_compile(r"(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[0-9]{0,8}(?:[.\-][0-9]{1,6})+")


def _message_id(text: str, start: int, at: int, end: int) -> bool:
    if start == 0 or text[start - 1] != "<" or text[end : end + 1] != ">":
        return False
    if _STAMP.fullmatch(text, start, at) is None:
        return False
    line = max(text.rfind("\n", 0, start) + 1, start - _LINE_BACK)
    return _MESSAGE_ID_HEADER.fullmatch(text, line, start) is not None


_LINE_BACK = 256  # how far back on its line an assignment's "=" is looked for
_AFTER_COLON = lazy_compile(r"[^\s\"'<>]*")
# The command, then its options: "-i key.pem", "-p2222", "-o StrictHostKeyChecking=no", "-J
# jump@bastion" (a remote as well), "-vA". An option letter in _SSH_VALUED takes the next word as its
# value; any other word ends the options ("ssh keys to jane@example.com" names no remote).
_SSH_COMMAND = lazy_compile(r"(?:^|(?<=[\s;&|(`$/]))(?:auto)?ssh(?:-copy-id)?$|(?:^|(?<=[\s;&|(`$/]))(?:sftp|mosh)$")
_SSH_VALUED = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
_SSH_LINE = 256  # how far back on its line an SSH command is looked for


def _ssh_remote(text: str, start: int) -> bool:
    """True when the local part at ``start`` is the user of an SSH command's remote."""
    if start < 4 or text[start - 1] not in " \t":
        return False
    floor = max(0, start - _SSH_LINE)
    newline = text.rfind("\n", floor, start)
    words = text[newline + 1 if newline != -1 else floor : start].split()  # a long line: its last 256 characters
    if newline == -1 and floor > 0 and not text[floor - 1].isspace() and words:
        words = words[1:]  # the window starts inside a word ("fake|ssh"): no word of the line
    valued = False  # the word before was an option that takes a value
    for index in range(len(words) - 1, -1, -1):
        word = words[index]
        if _SSH_COMMAND.search(word) is not None and not valued:
            return True
        if word.startswith("-") and len(word) > 1:
            valued = False
            continue
        # A value ("key.pem", "2222") only counts when the word before it is an option taking one.
        before = words[index - 1] if index else ""
        if not (before.startswith("-") and len(before) == 2 and before[1] in _SSH_VALUED):
            return False
        valued = True
    return False


def _local_part_start(text: str, at: int) -> int:
    """Start of the local part ending at ``at``; ``at`` itself when there is no usable one."""
    start = at
    floor = max(0, at - _LOCAL_MAX - 1)
    while start > floor and (text[start - 1].isalnum() or text[start - 1] in _LOCAL_PUNCTUATION):
        start -= 1
    if at - start > _LOCAL_MAX:
        return at  # longer than RFC allows: a blob, not an address
    if start < at and other_script(text[start]) and not other_script(text[at - 1]):
        # "邮箱lina99@163.com", "メールkenta@...": a label of another script glued to a Latin local
        # part is not part of it; a local part all of one script ("用户@例子.广告") stays whole.
        latin = at
        while latin > start and not other_script(text[latin - 1]):
            latin -= 1
        if latin < at and any(char.isascii() and char.isalpha() for char in text[latin:at]):
            start = latin  # not "иван.петров85@почта.рф": a local part of its script ending in digits
    while start < at and text[start] in ".'":
        start += 1
    if 0 < start < at and text[start - 1] in " \t])}>-" and text[start].isalnum():
        start = _defanged_local_start(text, start, max(0, start - _LOCAL_MAX))
    if start > 2 and text[start - 1] == "\n" and text[start - 2] == "-" and text[start - 3] in _LOCAL_CHARS:
        # Hyphenated at a line's end, as a PDF breaks a word ("j.vand-" then "enberg@hotmail.nl": reviewer V)
        first = start - 2
        while first > max(0, at - _LOCAL_MAX) and text[first - 1] in _LOCAL_CHARS:
            first -= 1
        start = first
    return start


_QUERY_IN = lazy_compile(r"\?[^=\s]*=")


def _in_authority(text: str, start: int) -> bool:
    """True when the local part sits in a URL's user info ("scheme://user:pw@host")."""
    floor = max(0, start - 256)
    index = start - 1
    while index >= floor and text[index] not in _USERINFO_BREAK:
        index -= 1
    # The characters before the user info are "://" exactly when the walk stopped on the last "/";
    # a query on the way ("https://example.com?email=jane@...") means the address is a parameter's value.
    return (
        index >= 2
        and text[index] == "/"
        and text[index - 2 : index + 1] == "://"
        and not _QUERY_IN.search(text, index, start)
    )


# "jane.doe [at] example [dot] com", "jane(at)example(dot)co(dot)uk", "jane[@]example[.]com", "jane -at-
# example -dot- com": written to dodge scrapers, and by a model told to keep an address out of a
# filter; also in the words of other languages ("(arroba)", "(ät)", "(punkt)", "(point)"). Brackets
# or dashes are required: "look at example dot com" in prose is read by the spoken-address finder.
_OPEN, _CLOSE = r"[\[({<]", r"[\])}>]"
# The words for "@" and "." of more languages, spelt as the view spells them (Cyrillic letters that
# look Latin are Latin there): Polish, Hungarian, Vietnamese, Russian, Hebrew, Chinese, Czech,
# Danish and Norwegian, Romanian (from reviewer H's blind round); Japanese, Korean and Indian
# English's "at the rate" (reviewer I's).
_FOREIGN_AT = tuple(
    normalise_text(word).lower()
    for word in (
        "małpa", "kukac", "a còng", "собака", "שטרודל", "艾特", "zavináč", "snabel-a", "arond",
        "アットマーク", "골뱅이", "at the rate",
        # Dutch writes the monkey's tail both ways; French may write "chez" ("pieter [apestaartje] example
        # [punt] nl", "m.girard chez example point fr": reviewer Y)
        "apestaartje", "chez",
        "παπάκι",  # Greek: the duckling ("maria.georgiou παπάκι gmail τελεία com": reviewer Z)
        "ät",  # German dictation without brackets ("sabine Punkt krueger ät web Punkt de": reviewer AR)
        "แอท",  # Thai's "at" ("somsak.j แอท gmail ดอท com": reviewer AY)
        # Ukrainian's snail, Bulgarian's little monkey, Norwegian's curly a, Catalan's (an attacker's round on reviewer
        # CN's readers)
        "равлик", "маймунка", "krøllalfa", "arrova",
    )
)  # fmt: skip
_FOREIGN_AT_ASCII = tuple(word for word in _FOREIGN_AT if word.isascii())  # all an ASCII text can hold
_FOREIGN_DOT = tuple(
    normalise_text(word).lower()
    for word in (
        "kropka",
        "pont",
        "chấm",
        "точка",
        "נקודה",
        "点",
        "tečka",
        "punct",
        "punktum",
        "ドット",
        "닷",
        "점",
        "nokta",
        "τελεία",
        "ดอท",  # Thai's "dot" (reviewer AY)
        "titik",  # Indonesian's and Malay's ("budi titik nugroho (at) yahoo titik co titik id": reviewer CK)
        "نقطة",  # Arabic's ("khalid.q [at] kahraba [نقطة] example [نقطة] sa": reviewer CN)
        # Persian's, Urdu's, Ukrainian's, Tagalog's and Swahili's (an attacker's round on reviewer CN's readers; not
        # Hindi's "डॉट", which widened a sports score's "3 डॉट 5 at match point" read as an address: an earlier round)
        "نقطه",
        "ڈاٹ",
        "крапка",
        "tuldok",
        "nukta",
    )
)
_AT_WORDS = "at|arroba|arobase|ät|chiocciola|apenstaartje|klammeraffe|" + "|".join(map(re.escape, _FOREIGN_AT))
# Words for "@" read only in brackets: Malay's and Indonesian's "di" ("hajar.yusof [di] kedaiubat [titik] example
# [titik] my": reviewer CN), a word of every sentence otherwise ("in", "at").
_BRACKETED_AT_WORDS = "di"
_DOT_WORDS = "dot|punto|ponto|point|punkt|punt|" + "|".join(map(re.escape, _FOREIGN_DOT))
# "[at]", "(at)", "[@]", " -at- " ... or an "@" with spaces around it ("jane @ example.com").
_AT = (
    rf"(?:[ \t]*{_OPEN}[ \t]*(?:(?i:{_AT_WORDS}|{_BRACKETED_AT_WORDS})|@)[ \t]*{_CLOSE}[ \t]*|[ \t]+-(?i:at)-[ \t]+"
    rf"|[ \t]+@[ \t]*|[ \t]*@[ \t]+)"
)
_DOT = (
    rf"(?:[ \t]*{_OPEN}[ \t]*(?:(?i:{_DOT_WORDS})|\.)[ \t]*{_CLOSE}[ \t]*|[ \t]*-(?i:dot)-[ \t]*"
    rf"|[ \t]+(?i:{_DOT_WORDS})[ \t]+|[ \t]*\.[ \t]*)"
)
# A dot in the local part written the way the domain's are bracketed ("jane[.]doe[@]example[.]com",
# "jane(dot)doe(at)...", "jane -dot- doe -at- ..."): without it the local part would start after the
# last mark, and "doe@example.com" (someone else's address and token) would be scrubbed with "jane[.]"
# left behind. Only bracketed or dashed forms: a bare " dot " or " . " before a word is prose too
# often ("see the file. jane [at] ..."), and "jane-dot-doe" without spaces is a plain local part.
_LOCAL_DOT = rf"[ \t]*{_OPEN}[ \t]*(?:(?i:{_DOT_WORDS})|\.)[ \t]*{_CLOSE}[ \t]*|[ \t]+-(?i:dot)-[ \t]+"
_LOCAL_DOT_MARK = lazy_compile(_LOCAL_DOT)
_LOCAL_DOT_BEFORE = lazy_compile(rf"(?:{_LOCAL_DOT})\Z")  # one ending where a local part's word starts
_DOT_WORD_ENDS = frozenset(word[-2:] for word in _DOT_WORDS.split("|"))  # "ot" of "dot", "to" of "punto"
_LOCAL_DOT_SPAN = 16  # the longest such mark looked for: " [ punkt ] " and a little room
_LOCAL_WORD_RE = r"[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}"
_LOCAL = rf"(?P<local>{_LOCAL_WORD_RE}(?:(?:{_LOCAL_DOT}){_LOCAL_WORD_RE}){{0,8}})"
# A bare "@" starts an obfuscated address too when a dot after it is spelt out ("lukas@gmx dot de").
_BARE_AT = lazy_compile(rf"{_LOCAL}@(?P<domain>[A-Za-z0-9\-]{{1,63}}(?:{_DOT}[A-Za-z0-9\-]{{1,63}}){{1,6}})")
_OBFUSCATED = lazy_compile(rf"{_LOCAL}{_AT}(?P<domain>[A-Za-z0-9\-]{{1,63}}(?:{_DOT}[A-Za-z0-9\-]{{1,63}}){{1,6}})")
_DOT_WORD = lazy_compile(_DOT)
# "[.]", "(.)": a dot in brackets, which the spelt-out words below do not cover ("jane.doe@example[.]com").
_BRACKETED_DOT = lazy_compile(rf"\s*{_OPEN}\s*\.\s*{_CLOSE}\s*")


def _defanged_local_start(text: str, start: int, floor: int) -> int:
    """Where the local part starts once the words before ``start`` joined by bracketed dots are
    counted ("jane[.]doe" before "[@]": "jane", not "doe"); ``start`` when there are none."""
    begin = start
    while begin > floor + 1:
        close = begin - 1
        while close > floor and text[close] in " \t":
            close -= 1
        if text[close] not in "])}>-":
            break  # the usual case ("a@b", "see jane@..."), settled without the pattern
        inner = close - 1
        while inner > floor and text[inner] in " \t":
            inner -= 1
        if text[inner] != "." and text[inner - 1 : inner + 1].lower() not in _DOT_WORD_ENDS:
            break  # "a [at] b [at] c": a bracketed "at", not a dot
        mark = _LOCAL_DOT_BEFORE.search(text, max(floor, begin - _LOCAL_DOT_SPAN), begin)
        if mark is None:
            break
        word = mark.start()
        while word > floor and text[word - 1] in _LOCAL_CHARS:
            word -= 1
        if word == mark.start() or not text[word].isalnum():
            break
        begin = word
    return begin


_COMMON_TLDS = frozenset(
    [
        "com",
        "org",
        "net",
        "edu",
        "gov",
        "mil",
        "int",
        "io",
        "co",
        "uk",
        "de",
        "fr",
        "in",
        "us",
        "ca",
        "au",
        "nz",
        "ie",
        "es",
        "it",
        "nl",
        "be",
        "ch",
        "at",
        "se",
        "no",
        "dk",
        "fi",
        "pl",
        "pt",
        "br",
        "mx",
        "ar",
        "jp",
        "cn",
        "kr",
        "sg",
        "hk",
        "tw",
        "ru",
        "za",
        "ng",
        "ke",
        "ae",
        "il",
        "tr",
        "eu",
        "info",
        "biz",
        "app",
        "dev",
        "ai",
        "me",
        "tv",
        "cc",
        "xyz",
        "online",
        "site",
        "tech",
        "store",
        "shop",
        "cloud",
        "email",
        "pro",
        "art",
        "blog",
        "agency",
        "digital",
        "global",
        "solutions",
    ]
)
# Two-letter country domains ("ro", "vn", "cz", "pe"): the regions libphonenumber knows, and "uk", "eu".
_COUNTRY_TLDS = frozenset(code.lower() for code in phonenumbers.SUPPORTED_REGIONS if len(code) == 2) | {"uk", "eu"}


# Names reserved for tests, documentation and private networks (RFC 2606, RFC 6761, RFC 6762, ICANN's
# .internal): a company's mail lives there too ("noreply@claims-intake.test", "ops@corp.internal"), and
# an assignment's "@" before one is an address, not code. Not for spelt-out "at": "replica at db.internal".
# File extensions that are no top-level domain (".zip", ".mov", ".app", ".md", ".py", ".sh" are, and stay
# addresses' endings): after "@" they end a file's name.
_FILE_EXTENSIONS = frozenset(
    {"pdf", "docx", "doc", "xlsx", "xls", "pptx", "ppt", "odt", "ods", "odp", "rtf", "txt", "csv", "tsv", "json",
     "yaml", "yml", "xml", "html", "htm", "png", "jpg", "jpeg", "gif", "svg", "webp", "tif", "tiff", "bmp", "heic",
     "log", "bak", "tmp", "sql", "ini", "cfg", "conf", "toml", "gz", "tgz", "xz", "rar", "exe", "dll", "msi",
     "dmg", "apk", "wav", "avi", "mkv", "flac", "epub", "psd", "eps", "pkl", "parquet", "ipynb", "whl", "jar"}
)  # fmt: skip
_SPECIAL_TLDS = frozenset({"test", "example", "invalid", "localhost", "local", "internal", "lan", "corp", "home"})


def known_tld(tld: str) -> bool:
    """A top-level domain addresses use (lower case): the common generic ones and the countries'."""
    return tld in _COMMON_TLDS or tld in _COUNTRY_TLDS


_AT_MARK = lazy_compile(
    rf"{_OPEN}[ \t]*(?:{_AT_WORDS}|{_BRACKETED_AT_WORDS}|@)[ \t]*{_CLOSE}|[ \t]@|@[ \t]|[ \t]-at-[ \t]"
)
_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")


def find_obfuscated_emails(scan: Scan, foreign: bool | None = None) -> Iterator[Span]:
    """One anchored match per "[at]": the local part is the word just before it (linear in the text)."""
    text = scan.text
    lower = scan.lower
    if not _has_obfuscation_mark(lower, foreign_at(lower) if foreign is None else foreign):
        return
    done = 0
    for hint in _AT_MARK.finditer(lower):
        end = hint.start()
        while end > done and text[end - 1] in " \t":
            end -= 1
        start = end
        while start > max(done, end - _LOCAL_MAX) and text[start - 1] in _LOCAL_CHARS:
            start -= 1
        start = _past_hebrew_prefix(text, start, end)
        if start == end or (start > 0 and text[start - 1].isalnum()):
            continue
        if hint.group().strip("[](){}<> \t") in _BRACKETED_AT_WORDS.split("|") and not any(
            char in ".-_+0123456789" for char in text[start:end]
        ):
            continue  # "ada [di] portal.kemdikbud.go.id", "Beli tiket (di) Tiket.com": "in" (an attacker's round)
        stop = min(len(text), hint.end() + 600)
        whole = _defanged_local_start(text, start, max(done, start - _LOCAL_MAX))
        match = _OBFUSCATED.match(text, whole, stop) if whole < start else None
        if match is None:
            match = _OBFUSCATED.match(text, start, stop)
        if match is None:
            continue
        tld = _DOT_WORD.split(match["domain"])[-1].rsplit(".", 1)[-1]
        end = match.end()
        loose = _LOOSE_LAST_DOT.search(match["domain"])
        if loose is not None and not known_tld(tld.lower()):
            # "jane [at] example [dot] com. Thanks": the full stop ends the sentence, not a label.
            end = match.start("domain") + loose.start()
            tld = _DOT_WORD.split(text[match.start("domain") : end])[-1].rsplit(".", 1)[-1]
        spaced_at = "@" in match.group()
        capitalised = tld[:1].isupper() and tld[1:].islower()
        if spaced_at and loose is not None and capitalised and tld.lower() not in _GENERIC_TLDS:
            # "ping @payments-oncall. No values here": a capitalised word after a stop opens a sentence
            # (reviewer BB); a country's domain is no such word ("No", "It", "De"), "Com" stays one
            continue
        local = _FIRST_WORD.match(text, match.start(), match.start("domain"))
        leading = (local.group().lower() if local is not None else "", _DOT_WORD.split(match["domain"].lower())[0])
        if "@" not in match.group() and _FUNCTION_WORDS.issuperset(leading):
            continue  # "Use the [at] and [dot] placeholders": a template's words (reviewer BT), no mailbox's
        # "h @ self.proj" is a matrix product: a spaced "@" needs a well-known top-level domain.
        if tld.isalpha() and len(tld) >= 2 and (not spaced_at or known_tld(tld.lower())):
            yield _local_start(text, match, done, spaced_at), end
            done = end


_GENERIC_TLDS = frozenset({"com", "net", "org", "edu", "gov", "info", "biz"})  # "Com" stays a domain's end
_FIRST_WORD = lazy_compile(r"[^\s\[\](){}<>@]+")
# English words that name no mailbox and no domain, read as both the local part and the first label of an address
# written with a word for "@" ("the [at] and [dot] ..."); one alone may be a name ("or [at] acme [dot] io": Or, a
# Hebrew name; "helpdesk [at] its [dot] uiowa [dot] edu": an attacker's round).
_FUNCTION_WORDS = frozenset({"the", "and", "or", "of", "to", "for", "with", "use", "both", "either", "its"})
# A plain dot with blanks after it before the domain's last label.
_LOOSE_LAST_DOT = lazy_compile(r"[ \t]*\.[ \t]+[A-Za-z0-9\-]{1,63}\Z")
# Where a local part's first word may start: after no character of a local part, or after a Hebrew letter and its
# hyphen (the maqaf), Hebrew's prepositions glued to a foreign word ("שלחו ל-ori נקודה biton48 שטרודל ...": "to
# ori...", reviewer CP), the preposition not the address's.
_LOCAL_WORD_START = r"(?:(?<![A-Za-z0-9._%+\-])|(?<=[\u05d0-\u05ea]-))"
_HEBREW_GLUED = lazy_compile(r"[\u05d0-\u05ea]-")


def _past_hebrew_prefix(text: str, start: int, end: int) -> int:
    """``start`` past the hyphen of a Hebrew preposition glued to the local part starting there ("ל-ori.biton48
    שטרודל ...": see _LOCAL_WORD_START)."""
    return start + 1 if start < end - 1 and _HEBREW_GLUED.match(text, start - 1) else start


_SPACED_LOCAL_WORD = lazy_compile(rf"{_LOCAL_WORD_START}{_LOCAL_WORD_RE} \. \Z")


def _local_start(text: str, match: re.Match[str], floor: int, spaced_at: bool) -> int:
    """Where the address ``match`` found starts, its local part's dots spaced or said as its domain's are (only where
    the domain ends in a known top-level domain: "beginnt punkt neun (at) Raum punkt drei" is a time and a room)."""
    if spaced_at and " . " in match["domain"]:
        return _spaced_local_start(text, match.start(), floor)
    said = _SAID_DOT.search(match["domain"])
    if said is not None and known_tld(_DOT_WORD.split(match["domain"])[-1].strip().lower()):
        return _said_local_start(text, match.start(), floor, said["word"])
    return match.start()


# A dot said as a word in the domain ("gmx punkt at"): the local part's dots said alike are its own ("jens punkt
# oberhuber (at) gmx punkt at": reviewer CI), not prose before it (which says no such word between two words).
_SAID_DOT = lazy_compile(rf"[ \t]+(?P<word>(?i:{_DOT_WORDS}))[ \t]+")


def _said_local_start(text: str, start: int, floor: int, word: str) -> int:
    """Where the local part starts when its dots are said as the domain's are: the words before ``start`` joined by
    that word."""
    before = re.compile(rf"{_LOCAL_WORD_START}{_LOCAL_WORD_RE}[ \t]+(?i:{re.escape(word)})[ \t]+\Z")
    return _words_before(text, start, floor, before, 4)


def _spaced_local_start(text: str, start: int, floor: int) -> int:
    """Where the local part starts when the address spaces every dot, its "@" and its domain's
    alike ("maria . lopez . reyes @ gmail . com"): the words before ``start`` joined by " . "."""
    return _words_before(text, start, floor, _SPACED_LOCAL_WORD, 8)


def _words_before(text: str, start: int, floor: int, word: re.Pattern[str], most: int) -> int:
    """``start`` moved back over at most ``most`` words that ``word`` finds ending there, each within 70 characters."""
    for _ in range(most):
        found = word.search(text, max(floor, start - 70), start)
        if found is None:
            break
        start = found.start()
    return start


_SPELT_DOTS = (
    *(f" {word} " for word in _DOT_WORDS.split("|")),
    *("[.]", "(.)", "-dot-", "[dot]", "(dot)", "{dot}", "<dot>"),
)


# An address whose "@" is a word glued between hyphens or underscores, its dots maybe too ("li.wei-at-uni-wien.ac.at",
# "li.wei_at_uni-wien.ac_dot_at": a probe of the ways an address is written to get past a filter). Where such an
# address sits is a host's name as often ("meet-at-noon.com", "build_at_night.example.org"): only after a mail's
# word, and with a domain whose last label addresses use.
# (the domain read whole first, then cut at its dots: a pattern of labels and spelt dots backtracked through every
# way of cutting a long run of "-dot-", an attacker's round)
_GLUED_AT = lazy_compile(
    r"(?<![\w.%+\-])(?P<local>[a-z0-9][a-z0-9._%+]{0,63}?)(?:-at-|_at_)(?P<domain>[a-z0-9][\w\-.]{0,253})"
)
_GLUED_LABEL = lazy_compile(r"[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?")
_GLUED_MOST_LABELS = 7
# The mail's word right before the address, a colon, quotes or blanks between only ("mail: jan_at_firma_dot_de",
# '"email": "anna_berg_at_outlook_dot_de"'); a word between names something else's host ("Mail relay:
# edge-at-fra1.mailgun.eu", "E-mail campaign landing page: work-at-home.com": an attacker's round).
_MAIL_WORD_BEFORE = lazy_compile(
    r"(?<![^\W\d_])(?:e-?mail|mail|correo|courriel|kontakt|contact|write to)[\"']?[ \t]*[:=]?[ \t]*[\"']?$"
)
_GLUED_DOT = lazy_compile(r"_dot_|-dot-|\.")
# (not a script's or a source file's name: "check-at-startup.sh")
_GLUED_FILE_ENDINGS = _FILE_EXTENSIONS | {"sh", "py", "md", "js", "ts", "rs", "go", "rb", "pl", "zip", "mov", "kt"}


def find_glued_at_emails(scan: Scan) -> Iterator[Span]:
    lower = scan.lower
    if "-at-" not in lower and "_at_" not in lower:
        return
    for match in _GLUED_AT.finditer(lower):
        domain = match["domain"].rstrip(".-_")  # not the sentence's stop or a dash after the address
        labels = _GLUED_DOT.split(domain)
        tld = labels[-1]
        if (
            not 2 <= len(labels) <= _GLUED_MOST_LABELS  # a name and its top-level domain at least
            or not all(_GLUED_LABEL.fullmatch(label) for label in labels)
            or not known_tld(tld)
            or tld in _GLUED_FILE_ENDINGS
            or not _MAIL_WORD_BEFORE.search(lower, max(0, match.start() - 24), match.start())
        ):
            continue
        yield match.start(), match.start("domain") + len(domain)


def find_bare_at_emails(scan: Scan) -> Iterator[Span]:
    """ "lukas@gmx dot de", "jane.doe＠example [.] com": a plain "@" with a dot spelt out after it."""
    lower = scan.lower
    if "@" not in lower or not any(dot in lower for dot in _SPELT_DOTS):
        return
    text = scan.text
    at = text.find("@")
    while at != -1:
        start = _local_part_start(text, at)
        match = _BARE_AT.match(text, start, min(len(text), at + 600)) if start < at else None
        if match is not None and any(dot.strip() != "." for dot in _DOT_WORD.findall(match["domain"])):
            tld = _DOT_WORD.split(match["domain"])[-1]
            if known_tld(tld.lower()):
                yield match.start(), match.end()
                at = text.find("@", match.end())
                continue
        at = text.find("@", at + 1)


def _has_obfuscation_mark(lower: str, foreign: bool) -> bool:
    """A cheap gate: a closing bracket (a memchr) before the few "at]"-like substrings, a spaced or
    bracketed "@", or " -at- "."""
    if "@" in lower and (
        " @" in lower
        or "@ " in lower
        or "\t@" in lower
        or "@\t" in lower
        or "@]" in lower
        or "@)" in lower
        or "@}" in lower
    ):
        return True
    if "-at-" in lower:
        return True
    for close in "])}>":
        if close in lower and (
            "at" + close in lower or "at " + close in lower or "di" + close in lower or "di " + close in lower
        ):
            return True
    # "(arroba)", "(arobase)", "[ät]": rarer words, looked for by the pattern itself.
    return (foreign or (not lower.isascii() and "ät" in lower)) and _AT_MARK.search(lower) is not None


_AT_ENDS = frozenset(_AT_WORDS.split("|"))


# ---------------------------------------------------------------- addresses spelt out in words

# "jane at example dot com", "jane dot doe AT mail DOT example DOT co DOT uk", "jane at example.com":
# no brackets, so prose has to be told apart. The domain must end in a well-known top-level domain,
# its labels follow each other with nothing but "dot" or "." between them ("meet at the cafe dot com
# event" has "the cafe" where a label should be), and a local part that is one plain word must not
# be a word that prose puts before "at" ("look at example dot com", "she works at example.org").
_SPOKEN_LABEL = r"[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?"
# Between labels: a spelt-out dot, a bracketed one ("[dot]", "(.)"), or a dot with or without spaces.
_SPOKEN_DOT = (
    rf"[ \t]+(?:{_DOT_WORDS})[ \t]+|[ \t]*[\[({{<][ \t]*(?:{_DOT_WORDS}|\.)[ \t]*[\])}}>][ \t]*|[ \t]+\.[ \t]+|\."
)
_SPOKEN_DOMAIN = lazy_compile(rf"{_SPOKEN_LABEL}(?:(?:{_SPOKEN_DOT}){_SPOKEN_LABEL}){{1,5}}(?![a-z0-9\-@]|\.[a-z0-9])")
_SPOKEN_SPLIT = lazy_compile(_SPOKEN_DOT)
_LOCAL_WORD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_%+-.")
_PROSE_BEFORE_AT = frozenset(
    """
    a an the and or but not no nor so if then than as is are was were be been being am it its this that these those
    i me my we us our you your he him his she her they them their who whom which what where when why how
    here there now only even just also both all any some each every most more less least much many few
    look looks looked looking meet meets met meeting work works worked working stay stays stayed staying
    live lives lived living arrive arrives arrived arriving sit sat stand stood wait waited waiting
    shop shops shopped buy buys bought sell sells sold eat ate dine dined play played study studied
    job jobs intern interned available found find finds seen see sees saw laugh laughed smile smiled
    stare stared point pointed aim aimed host hosts hosted held hold holds listed list lists posted post
    posts published publish launched launch start starts started begin began end ends ended open opens
    opened good great bad better best worse expert experts located based priced sale sales online
    today tonight tomorrow yesterday home office site news info information details visit visits visited
    visiting check checks checked go goes went gone going come comes came coming get gets got join joins
    joined hired employed team people folks someone anyone everyone nobody somebody thing things
    something anything everything nothing stuff deal deals party event events class school university
    college docs documentation code source download downloads files photos pictures images video
    videos slides results registration signup apply order orders store tickets prices offers careers
    blog live stream streaming watch read mail email write reach contact call text message dm ping
    engineer engineers scientist scientists designer developer developers manager director intern researcher
    analyst consultant lead head cto ceo cfo coo vp founder cofounder partner editor writer author professor
    student nurse doctor chef teacher architect design engineering marketing deployed mirrored stored
    running served cached indexed archived uploaded downloaded saved backed installed released tagged
    """.split()  # noqa: SIM905 - a word list reads better as words
)


# "jane arroba example punto com", "mario chiocciola libero punto it" (Italian), "jan apenstaartje
# voorbeeld punt nl" (Dutch), "klammeraffe" (German).
SPOKEN_ATS = (
    " at ",
    " arroba ",
    " arobase ",
    " chiocciola ",
    " apenstaartje ",
    " klammeraffe ",
    *(f" {word} " for word in _FOREIGN_AT),
)


def _turkish_spoken(lower: str) -> bool:
    """Turkish spells "@" "et" and "." "nokta" ("mehmet.sahin et saglik-sigorta nokta com nokta tr")."""
    return " et " in lower and " nokta " in lower


def foreign_at(lower: str) -> bool:
    """The text may spell "@" in another language (the spoken and bracketed finders then read those words)."""
    return _turkish_spoken(lower) or (
        "rob" in lower
        or "chiocciola" in lower
        or "apenstaartje" in lower
        or "klammeraffe" in lower
        or any(word in lower for word in (_FOREIGN_AT if not lower.isascii() else _FOREIGN_AT_ASCII))
    )


# Articles of the languages whose words for "@" are also words ("chiocciola" is a snail, "arroba" a
# weight): no mailbox is named "una" or "de".
_ARTICLES = frozenset(
    "un una uno unos unas el la lo los las il le gli les une des een de het der die das ein eine einen einem".split()  # noqa: SIM905
)


# Mailboxes named for a role: with the dot spelt out ("info at acme dot com") they are addresses.
_ROLE_LOCALS = frozenset(
    "info contact sales support admin office hello careers jobs press billing help team mail noreply news".split()  # noqa: SIM905
)


_LOCAL_DOTS = (".", "_", "punkt", " dot ")


def find_spoken_emails(scan: Scan, foreign: bool | None = None) -> Iterator[Span]:
    """One anchored domain match per " at " (str.find, no regex pass over the text); ``foreign``: the
    text holds "rob" (of "arroba", "arobase"), when the caller knows."""
    lower = scan.lower
    if foreign is None:
        foreign = foreign_at(lower)
    found: list[Span] = []
    words = SPOKEN_ATS if foreign else SPOKEN_ATS[:1]
    if _turkish_spoken(lower):
        # "@" said as "et" or as its sign's name ("zeynep89 et işareti yandex nokta com": reviewer CK)
        words = (*words, " et ", " et işareti ", " et isareti ")
    for word in words:
        at = lower.find(word)
        done = 0
        while at != -1:
            domain = _SPOKEN_DOMAIN.match(lower, at + len(word))
            spelt = domain is not None and " " in domain.group()
            start = _spoken_local_start(lower, at, done, spelt) if domain is not None else -1
            if domain is not None and start != -1 and _company_mention(scan.text, start, at, domain):
                start = -1  # "a data scientist at Booking.com": someone's employer, not an address
            if start != -1 and word != " at " and lower[start:at].strip() in _ARTICLES:
                start = -1  # "una chiocciola nel punto in cui ...": a snail at a point, in Italian
            if (
                word in (" chez ", " แอท ")
                and start != -1
                and not any(char in "._0123456789" for char in lower[start:at])
            ):
                # "je passe chez paul point de vente", "chez orange point com": a place, a site; Thai "ห้อง lab แอท
                # cmu.ac.th", "ดู film แอท netflix.com" (an attacker's round)
                start = -1
            if word == " ät " and start != -1 and not any(mark in lower[start:at] for mark in _LOCAL_DOTS):
                start = -1  # Swedish "ät" (eat): "Barnen ät lunch punkt nu"; German dictation spells its dot
            if word.startswith(" et ") and domain is not None and " nokta " not in domain.group():
                start = -1  # Turkish "et" (@) only with "nokta" (.): "Pierre et Marie point com" is French prose
            if domain is not None and domain.end() < len(lower) and lower[domain.end()] == "/":
                start = -1  # "Track at ups.com/track": a site's page, not an address (reviewer V)
            if domain is not None and start != -1 and _spoken_tld(domain.group(), documented=word != " at "):
                found.append((start, domain.end()))
                done = domain.end()
                at = lower.find(word, done)
            else:
                at = lower.find(word, at + len(word) - 1)
    return iter(sorted(found) if len(found) > 1 else found)


# The first label of a service's host name, and words prose puts before "at <host>" (not an address).
_SERVICE_HOSTS = frozenset(
    """
    www app api docs portal status login auth console dashboard admin kibana grafana jenkins prometheus
    sentry wiki confluence jira git gitlab github ci build mirror downloads download cdn static registry
    """.split()  # noqa: SIM905 - a word list reads better as words
)
_PROSE_BEFORE_AT_HOST = frozenset(
    """
    in on up errors issues traffic outage pricing questions announcements builds runbook mirror register
    status kibana grafana jenkins prometheus sentry dashboards logs metrics alerts docs signup
    """.split()  # noqa: SIM905 - a word list reads better as words
)
# Mail providers' domains: "mikesmith at Gmail.com" is an address, whatever the capital.
_MAIL_PROVIDERS = frozenset(
    """
    gmail googlemail outlook hotmail live msn yahoo ymail icloud me mac aol proton protonmail pm gmx web mail
    yandex zoho fastmail tutanota tuta posteo mailbox orange free laposte libero virgilio t-online freenet
    qq 163 126 naver daum rediffmail
    """.split()  # noqa: SIM905 - a word list reads better as words
)


def _company_mention(text: str, start: int, at: int, domain: re.Match[str]) -> bool:
    """A place named in prose, not an address, unless the domain is a mail provider's ("mikesmith at
    Gmail.com"): a service's host ("Kibana at kibana.example.com"), a word prose puts before "at"
    ("Sign in at portal.azure.com"), or a capitalised domain written with plain dots after one
    word ("engineer at Amazon.com")."""
    written = domain.group()
    first = written.split(".", 1)[0].lower()
    if first in _MAIL_PROVIDERS:
        return False
    local = text[start:at].lower()
    # A service's host ("kibana.example.com", "portal.azure.com") or a word prose puts before "at".
    if (first in _SERVICE_HOSTS and written.count(".") >= 2) or local in _PROSE_BEFORE_AT_HOST:
        return True
    return (
        text[domain.start()].isupper()
        and text[start:at].isalpha()
        and " " not in written
        and not any(mark in written for mark in "[({<")
    )


def _spoken_tld(domain: str, *, documented: bool = False) -> bool:
    """The domain ends in a known top-level domain; with ``documented``, also in "example", the one
    documentation reserves (RFC 2606), said after a word for "@" that is no English word ("c punto molina
    arroba pixelhaven punto example": reviewer CM)."""
    tld = _SPOKEN_SPLIT.split(domain)[-1].strip()
    return known_tld(tld) or (documented and tld == "example")


def _spoken_local_start(lower: str, at: int, floor: int, spelt: bool = False) -> int:
    """Start of the local part ending at ``at`` (words joined by "dot" or "."), or -1."""
    start = end = at
    parts = 0
    while True:
        low = max(floor, end - _LOCAL_MAX)
        start = end
        while start > low and lower[start - 1] in _LOCAL_WORD:
            start -= 1
        start = _past_hebrew_prefix(lower, start, end)
        if start == end or not lower[start].isalnum():
            return -1
        parts += 1
        joined = _spelt_dot_before(lower, start)
        if parts < 4 and joined and start - joined > floor and lower[start - joined - 1] in _LOCAL_WORD:
            end = start - joined  # "jane dot doe at ...", "davide punto rossi chiocciola ..."
            continue
        break
    # "jane [dot] doe at example dot com": the bracketed dots the other forms take.
    start = _defanged_local_start(lower, start, max(floor, start - _LOCAL_MAX))
    before = lower[start - 1] if start > 0 else " "
    if before.isalnum() or before in "'@" or (before == "\u2019"):
        return -1
    local = lower[start:at]
    if local.isalpha() and local in _PROSE_BEFORE_AT and not (spelt and local in _ROLE_LOCALS):
        return -1
    return start


# An underscore said too, between a local part's words ("owen underscore pritchard at example dot co dot
# uk": reviewer Y).
_SPELT_DOT_WORDS = (*(f" {word} " for word in _DOT_WORDS.replace("\\", "").split("|")), " underscore ")
_SPELT_UNDERSCORE = lazy_compile(r"[ \t]+underscore[ \t]+", re.IGNORECASE)


def _spelt_dot_before(lower: str, at: int) -> int:
    """The length of the spelt dot (" dot ", " punto ", " kropka ") ending at ``at``, or 0."""
    for word in _SPELT_DOT_WORDS:
        if lower.endswith(word, 0, at):
            return len(word)
    return 0


def deobfuscate_email(value: str) -> str:
    """The address an obfuscated form stands for (what its token is computed from)."""
    match = _OBFUSCATED.fullmatch(value)
    if match is not None:
        return f"{_LOCAL_DOT_MARK.sub('.', match['local'])}@{_DOT_WORD.sub('.', match['domain'])}"
    # Spelt out or spaced out: "jane at example dot com", "j a n e @ e x a m p l e . c o m"; a dot in
    # brackets too ("jane[.]doe@example[.]com"), so each form gets the plain address's token.
    spoken = _SPOKEN_WORD.sub(
        lambda found: "@" if found["word"].lower() in _AT_ENDS else ".", _SPELT_UNDERSCORE.sub("_", value)
    )
    return "".join(_BRACKETED_DOT.sub(".", spoken).split())


_SPOKEN_WORD = lazy_compile(rf"\s*[\[({{<\-]?\s*\b(?P<word>(?i:{_AT_WORDS}|{_DOT_WORDS}))\b\s*[\])}}>\-]?\s*")


# ---------------------------------------------------------------- phone

# A cheap candidate: optional international prefix ("+" or "00") and country code, optional
# bracketed trunk or area code, then digit groups with single separators (a space, or a dot, dash
# or slash with optional spaces). Groups have no length limit: "+49 30 12345678". Validation by
# phonenumbers decides; the regex only has to be generous and linear (a separator is required
# between groups and matches one way, so a digit run splits one way only).
_PHONE = lazy_compile(
    r"""
    (?=[+(0-9])                               # what every candidate starts with: tested first, it spares
                                              # the lookbehinds below at most positions of a window
    (?:(?<=[0-9])(?=\+)                       # "+44 ..." glued to a number before it starts anew
      |(?<=(?<![A-Za-z])(?i:tel|mob|fax))(?=\+)            # a label glued on: "Tel+44 ...",
      |(?<=(?<![A-Za-z])(?i:tel|mob|fax)[\-:_\#])(?=[0-9(])   # "Mob-0161 ...", "tel_0161 ..."
      |(?<=(?<![A-Za-z])(?i:ph)[\-_\#])(?=[0-9(])|(?<=(?<![A-Za-z])(?i:cell)[\-_\#])(?=[0-9(])   # "ph#415...",
      |(?<=(?<![A-Za-z])(?i:phone)[\-_\#])(?=[0-9(])|(?<=(?<![A-Za-z])(?i:mobile)[\-_\#])(?=[0-9(])  # "phone_415..."
      |(?<=[A-Za-z][\-_])(?=\+)                # "tel-+1 ...", "x-+1 ...": a "+" number glued to a word
      |(?<=[0-9][\-._/])(?=\+)                 # "...2671-+44 ...": glued to a number before it
      |(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]\)/)(?=\+)   # after a slash and a CJK word's closing
                                              # bracket ("（携帯）／+81 ...": reviewer BZ; not a sign's
                                              # "(−)/+12.345.678" or a ledger's "(out)/+61 234 567": an attacker's
                                              # round)
      |(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?=[0-9(+])   # glued to kana, kanji, hangul
                                              # ("番号は090-4821-7736です": reviewer Z)
      |(?<=(?<![\u05d0-\u05ea])[\u05dc\u05de]-)(?=[0-9(+])   # after Hebrew's "to" (or "from"), which a
                                              # hyphen joins to a number ("ל-059-305-7512": reviewer AB;
                                              # "התקשרה מ-058-...": reviewer CR); "ב-" (at) comes before times
      |(?<![\w+#$€£¥/\-])(?<![0-9.]\.)        # a label's dot may come before ("Tel.0171 ..."; see _phone_end)
       (?:(?=[+(])|(?<![0-9][ .\-/]))          # not the tail of "DE89 3704 0044 0532 0130 01"
       (?!(?<=[0-9],)[0-9]{3}[.,](?:[0-9]{2}|[0-9]{1,3}(?=\t))(?![0-9]|[.,][0-9]))  # nor an amount's tail
                                              # ("703,001.87": reviewer AS; a measure's "9,623.486" in a table's
                                              # cell: reviewer BZ)
    )
    (?:(?:\+|00)[ ]?[0-9]{1,3}(?:[ .\-\t/]|(?=\())?|\(\+[0-9]{1,3}\)[ ]?)?   # "+44 ", "0044-", "(+91) "
    (?:\(0\)[ ]?)?
    (?:\([ ]?[0-9]{1,5}[ ]?\)[ .\-]?)?            # a blank inside the brackets too: OCR's "( 617 ) 284 - 3916"
    [0-9]{1,15}(?:(?:[ ]?[.\-/][ ]?|[ ]{1,2}|\t)[0-9]{1,15}){0,7}   # tabs too: a table's cell
    (?:(?![\w]|[.\-/][0-9])|(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])|(?=x[0-9]{1,5}(?![\w]))|(?=_\+))
                                                               # then kana, kanji or hangul may follow ("...です"),
                                                               # an extension may be glued on ("...3608x12"),
                                                               # or the next "+" number ("..._+44...")
    """,
    re.X,
)
_LEAD = 12  # "+1 (" or "0044 (" before the digits
_TAIL = 2  # what the lookahead reads after the last digit
# A candidate that opens with a date or an IPv4 address is not a phone number, even when the
# digits would dial: "2024-01-01 00" reads as (202) 401-0100.
# A date or an address followed by more groups of its kind ("03.58.84.58.74", "09-44-61-98-84": French
# numbers in pairs) is neither.
_DATE_OR_IP = lazy_compile(
    r"[0-9]{4}[-./][0-9]{1,2}[-./][0-9]{1,2}(?![0-9])"  # a year first: "2024-03-14-01" is a changeset
    r"|(?:[0-9]{1,2}[-./][0-9]{1,2}[-./][0-9]{2,4}|[0-9]{1,3}(?:\.[0-9]{1,3}){3})(?![0-9]|[-./][0-9])"
    # a month and its year, then blanks ("scadenza 05/2027 — 24 confezioni": reviewer Z)
    r"|(?:0[1-9]|1[0-2])/20[0-9]{2}(?=[ \t])"
)
# Hebrew's words for a phone, a mobile, a fax and WhatsApp, and for calling and dialling ("נא להתקשר
# ל-059-305-7512": reviewer AB), with the one-letter words Hebrew writes glued before a word: "the", "to",
# "at", "from", "and" and "that" ("לנייד", "בטלפון", "והטלפון").
_HEBREW_PHONE_STEMS = (
    "טלפון", "נייד", "פלאפון", "סלולרי", "סלולר", "פקס", "וואטסאפ", "ווטסאפ", "להתקשר", "התקשר", "התקשרי",
    "התקשרו", "תתקשר", "תתקשרי", "תתקשרו", "חייג", "חייגי", "חייגו", "לחייג", "תחייג", "ווצאפ",
    # calling back ("מבקש שיחזרו אליו ל-+972 ...": reviewer BB), "him" or "her" between
    "יחזרו", "שיחזרו", "לחזור", "תחזרו", "חזרו", "אליו", "אליה", "אלי",
    # he, she and they called ("הלקוחה ... התקשרה מ-058-619-9710": reviewer CR)
    "התקשרה", "התקשרו", "צלצל", "צלצלה", "התקשרתי",
)  # fmt: skip
# Not "ב" (in, on): "דיברנו בטלפון" (we spoke on the phone), "בסלולר" (at the mobile operator) give no number.
_HEBREW_PREFIXES = ("", "ה", "ל", "מ", "ו", "ש", "לה", "וה", "מה", "שה", "ול", "ומ")
_HEBREW_PHONE_WORDS = frozenset(prefix + stem for stem in _HEBREW_PHONE_STEMS for prefix in _HEBREW_PREFIXES)
# An unformatted digit run is a phone number only when the text says so just before it; "Order
# 415-555-2671" or "account number is 4155552671" is a reference even if it would dial. Both are
# judged on the last few words before the candidate (a word list, not a regex over the context).
# Mobile money wallets, whose account is a phone number (the words as _WORDS reads them: "M-Pesa" is "m", "pesa")
_WALLETS = ("pesa", "mpesa", "gcash", "jazzcash", "easypaisa", "bkash", "nagad", "yape", "plin", "cash", "كاش", "کیش")
_WALLETS_SET = frozenset(_WALLETS)


def _wallet_shaped(scan: Scan, candidate: str, words: list[str], start: int) -> bool:
    """A number a wallet's name alone names is a mobile's as written: with its trunk "0", its "+", its country's code
    and no "+", or in groups ("Yape es 985 722 528"); not a bare run of digits that an amount, a count or Kish island's
    figures are (an attacker's round on reviewer CL's readers: "Nimetuma pesa 2500000", "GCash 8500000 users",
    "جزیره کیش 91000000"); "pesa" only as M-Pesa's."""
    if "pesa" in words[-2:] and not _M_PESA.search(scan.lower, max(0, start - 16), max(0, start)):
        return False
    compact = candidate.translate(_PHONE_PUNCTUATION)
    return compact.startswith(("0", "+")) or _international_unmarked(compact) or not candidate.isdigit()


_M_PESA = lazy_compile(r"(?<![^\W\d_])m[ \-]?pesa(?![^\W\d_])")

_PHONE_WORDS = frozenset(
    [
        "phone",
        "callerid",  # "Caller ID: 07812 088668" (see _last_words): the ID is a phone number
        # a record's field glued from its words ("<PhoneNum>6176671182</PhoneNum>" in an e-file: reviewer CD)
        "phonenum",
        "phonenumber",
        "phoneno",
        "tel",
        "telephone",
        "mobile",
        "mob",
        "cell",
        "cellphone",
        "fax",
        "call",
        "sms",
        "text",
        "whatsapp",
        "signal",
        "dial",
        "contact",
        "reach",
        "ring",
        "hotline",
        "landline",
        "number",
        "nr",
        "no",
        "ph",
        "tlf",
        "handy",
        "telefon",
        "hat",  # Turkish's "line": "sabit hat" (a landline), "cep hattı" (reviewer BF)
        "hattı",
        "hatti",
        "tél",
        "portable",
        "t",
        "m",
        "mobil",
        "mobilnummer",
        "handynummer",
        "rufnummer",
        "telefonnummer",
        "numéro",
        "téléphone",
        "telefono",
        "teléfono",
        "celular",
        "cel",
        "fon",
        # "reach me at", "call me on" in the configured regions' other languages ("vous pouvez me
        # joindre au 0612383903", from reviewer D's blind round).
        "joindre",
        "joignable",  # "Joignable au 0641512868" (reachable at: reviewer BX)
        "appeler",
        "appelez",
        "rappeler",
        "anrufen",
        "erreichen",
        "erreichbar",
        "llamar",
        "llámame",
        "llamame",
        # "that they call her (him, me)": "pide que la llamen al seis uno cinco, ..." (reviewer CQ; not "llamarla", a
        # function's call as often: an attacker's round); "call her (him)" said to someone
        "llamen",
        "llámenla",
        "llámenlo",
        "llamenla",
        "llamenlo",
        "chiamare",
        "chiamami",
        "bellen",
        # Catalan's telephone and mobile ("telèfon 93 828 00 83": reviewer CI)
        "telèfon",
        "mòbil",
        "rang",  # "Landlord rang from 0191491854" (reviewer E's blind round)
        # Polish's callback, verb and noun ("prosi o oddzwonienie na 604 561 739": reviewer BK)
        "oddzwonić",
        "oddzwonic",
        "oddzwonienie",
        "oddzwonienia",
        # Arabic: WhatsApp, phone, mobile (with and without the article), telephone, call (reviewer G).
        "واتساب",
        "هاتف",
        "الهاتف",
        "جوال",
        "الجوال",
        "موبايل",
        "موبائل",  # Urdu's ("موبائل نمبر: 0312-4496172": reviewer BQ)
        "تلفون",
        "اتصل",
        "phoned",
        # Portuguese, Italian, Spanish and Vietnamese words for a phone (reviewer R: "telefone do
        # porteiro 11961902487", "sđt anh Minh 0912227066").
        "telefone",
        "telemóvel",
        "cellulare",
        "móvil",
        "movil",
        "sđt",
        "sdt",
        "thoại",
        "thoai",  # as chat writes it, without Vietnamese's marks
        "رقمي",  # Arabic "my number" (reviewer W), "my mobile" (reviewer X)
        "جوالي",
        # Paid or reached by phone number in chats and classifieds (reviewer W): Spain's Bizum, Italy's
        # Satispay, Poland's BLIK transfer to a phone ("Blik na 698 214 370"), Portugal's "tlm"
        # (telemóvel), Brazil's "me chama no", "liga para" (call); only right before the number (see
        # _next_to_the_number). Not Brazil's "zap" (WhatsApp): Zapier's "Zap 612345678" is a workflow.
        "bizum",
        "satispay",
        "blik",
        "tlm",
        "chama",
        "liga",
        "ligue",
        # Vietnamese "call" ("gọi cho em 0985 271 433") and Zalo, the messenger Vietnamese numbers are
        # given for (reviewer AB)
        "gọi",
        "zalo",
        # Polish's cases of "telefon" and "komórka", Swahili's "simu" (phone): "Numer telefonu: 511 032 699",
        # "simu 0710 821391" (reviewer BA)
        "telefonu",
        "telefonem",
        "komórki",
        "simu",
        # Amharic's phone ("የደንበኛው ስልክ 0938291903": reviewer CL)
        "ስልክ",
        # mobile money: a wallet's account is its owner's phone number ("M-Pesa 254759867454", "GCash ko,
        # 09666485704", "Vodafone Cash 01225467837": reviewer CL); only right before the number (see _PAID_TO)
        *_WALLETS,
        *_HEBREW_PHONE_WORDS,
    ]
)
# Those name a phone only right before its number, maybe with a preposition ("Bizum al 634 902 117",
# "Blik na 698 214 370", "tlm 912 804 337"); further back they name a payment ("Pago con Bizum, pedido
# 612345678", "BLIK refund ref 612345678"). The verbs "liga", "ligue" and "chama" (call) need their
# preposition too: "Liga 1 2023/24" is a football league (an attacker's round).
_PAID_TO = frozenset(["bizum", "satispay", "blik", "tlm", *_WALLETS])
# "pediu retorno no (41) ...", "richiamato al 338-..." (a callback: reviewer BB; "Lotto richiamato 335 608 2671",
# a product recalled, is no call: an attacker's round)
_CALLED_ON = frozenset(["chama", "liga", "ligue", "retorno", "richiamato", "richiamata", "richiamare"])
_TO_THE_NUMBER = frozenset(
    ["al", "na", "no", "a", "to", "pro", "pra", "para", "per", "do", "da", "au", "me",
     # a wallet's "is", "my", "account" ("su Yape es 985 722 528", "sa GCash ko, 0966...", "جاز کیش اکاؤنٹ 0327...")
     "es", "ko", "ni", "account", "اکاؤنٹ"]
)  # fmt: skip
_PERSON_NOUNS = frozenset(["customer", "member", "employee", "client", "patient", "user", "subscriber"])
# Korean's words for a receipt, a specimen, an order, a waybill, a booking, a case, a ticket ("검체 접수 번호
# 260314-0417": reviewer CR): a reference's before its number, as words (_REFERENCE_WORDS) and as characters
# (_KOREAN_REFERENCE).
_KOREAN_REFERENCES = (
    "접수", "검체", "주문", "송장", "운송장", "예약", "사건", "티켓", "접수번호", "주문번호", "송장번호", "예약번호"
)  # fmt: skip
_REFERENCE_WORDS = frozenset(
    [
        "pn",  # a part number ("PN 0345-22-8136", reviewer Q)
        *_KOREAN_REFERENCES,
        "apn",  # an assessor's parcel number ("APN 4326-018-027 / Lot 14, Tract 30512": reviewer CD)
        "הזמנה",  # Hebrew: an order ("הזמנה 7731-2024-55", reviewer BB)
        "ماڈل",  # Urdu: a model's number ("موبائل ماڈل نمبر 03124496172": an attacker's round)
        "شناختی",  # Urdu: an identity card's ("شناختی کارڈ 42101-5962555-5", a CNIC: reviewer CL)
        "dosar",  # Romanian: a court's file ("Dosar nr. 1234/211/2023", reviewer BB)
        "dosarul",
        "duns",  # a company's D-U-N-S number ("DUNS number 08-146-6849", reviewer AL)
        "versioncode",  # an Android app's ("versionCode 520004187", reviewer AM)
        "reg",  # a company's registration ("Company reg. no. 04429183", reviewer T)
        "registration",
        "group",  # a health plan's group number
        "eref",  # SEPA's end-to-end and mandate references (reviewer V)
        "mref",
        "kref",
        "warennummer",  # a customs tariff's number
        "tariff",  # a commodity's customs code in other tariffs than Germany's ("HTS", "TARIC": reviewer CT's theme)
        "hts",
        "taric",
        "versicherungsschein",  # an insurance policy's
        "company",  # "Company No. 08812347"
        "takip",  # Turkish "Kargo Takip No" (tracking)
        "kargo",
        "sendungsnummer",
        "التذكرة",  # Arabic: the ticket, the booking
        "الحجز",
        "billete",  # a flight's ticket
        "bilet",  # Turkish and Polish ("bilet no 235 2148663917": reviewer X)
        "buchungsnummer",  # a booking's ("Buchungsnummer 74 2281 6395")
        "buchung",
        "reservierungsnummer",
        "zgłoszenie",
        "zamówienia",
        "sipariş",
        "cartão",
        "cartao",
        # An attacker's round: orders, deliveries, offers, consignments, invoices, tickets of other languages.
        "auftrag",
        "lieferschein",
        "angebot",
        "vorgang",
        "vorgangs",
        # A case's number in one word ("Vorgangsnummer 2024-04-0331": reviewer Y)
        "vorgangsnummer",
        "beställning",  # Swedish: an order's
        "beställningsnummer",
        "ondernemingsnummer",  # a Belgian company's (KBO) number
        "kbo",
        "sendung",
        "bestellung",
        "bestelling",
        "levering",
        "zaaknummer",
        "ärende",
        "leverans",
        "ordine",
        "faktury",
        "zlecenia",
        "fatura",
        "irsaliye",
        "dosya",
        "ders",
        "guía",
        "guia",
        "envío",
        "envio",
        "reclamación",
        "encomenda",
        "resi",
        "tiket",
        "pesanan",
        "faktur",
        "antrian",
        "bill",
        "challan",
        # a customs tariff's number in one word ("Zolltarifnummer 8504 40 30 90": reviewer CV; not "incidencia" or
        # "Zolltarif" alone, after which a phone's word names a phone: "Tel. incidencia: 912 345 678", an attacker's)
        "zolltarifnummer",
        "receipt",
        "voucher",
        "awb",
        "lr",
        "grn",
        "docket",
        "form",
        "complaint",
        "boleto",
        "protocolo",
        "ingresso",
        "artigo",
        "articolo",
        "artículo",
        "produto",
        "producto",
        "commande",
        "suivi",
        "série",
        "devis",
        "lote",
        "biglietto",
        "electrónico",
        "dossier",  # a file's, a claim's ("Numéro de dossier 2024/0482", "Belegnummer 2024-000381": reviewer U)
        "beleg",
        "belegnummer",
        "aktenzeichen",
        "expediente",
        "item",
        "article",
        "art",
        "contract",
        "project",
        "part",
        "model",
        "asset",
        "tag",
        "patent",
        "wo",
        "hts",
        "ndc",
        "commodity",
        "tariff",
        "hs",
        "changeset",
        "snapshot",
        "backup",
        "timecode",
        "coordinates",
        "lat",
        "latitude",
        "lon",
        "longitude",
        "pid",
        "order",
        "invoice",
        "ticket",
        "tracking",
        "ref",
        "reference",
        "case",
        "sku",
        "po",
        "serial",
        "batch",
        "lot",
        "account",
        "acct",
        "card",
        "routing",
        "policy",
        "confirmation",
        "claim",
        "booking",
        "reservation",
        "transaction",
        "registration",
        "license",
        "licence",
        "passport",
        "tax",
        "vat",
        "swift",
        "bic",
        "id",
        "isbn",
        "issn",
        "imei",
        "iccid",
        "build",
        "version",
        "port",
        "pid",
        # Medical billing codes, and the reference and company numbers of other languages' documents
        # (reviewer M's ordinary lines: "CPT 99213/99214", "Viitenumero: 11 84471 22093", "NIP
        # dostawcy: 525-24-18-830", "Monster 24-06-14-0071", "Numéro BCE : 0403.879.355").
        "cpt",
        "icd",
        "npi",
        "nip",
        "regon",
        "rma",  # a return's authorisation ("RMA 9270 118 275": reviewer CF's ordinary lines)
        "doi",
        "krs",
        "viitenumero",
        "viite",
        "bce",
        "kbo",
        "siren",
        "siret",
        "monster",
        "specimen",
        "sample",
        "aktenzeichen",
        "referenz",
        "referencia",
        "riferimento",
        "dossier",
        "facture",
        "factura",
        "fattura",
        "rechnung",
        "commande",
        "pedido",
        "zamówienie",
        "faktura",
    ]
)
# Words between a reference noun and its number: "order no. is 123", "account number: 123".
# Spanish and Portuguese "n.º" reads "n", "o" in the view.
# Hindi's "number", both spellings, as the view writes them
_HINDI_NUMBER = frozenset(viewed_words("नंबर", "नम्बर"))
_FILLER = frozenset(["no", "number", "num", "nr", "is", "was", "id", "code", "n", "o", "번호", *_HINDI_NUMBER])
# Latin (Vietnamese's "đ" and "ạ".."ỹ" too), and Arabic letters (its phone words)
# Latin Extended-A too, and Romanian's comma-below letters (ș, ț); Hebrew letters (its phone and call
# words: the view drops its vowel points)
_LETTERS = "a-z\u00e0-\u00ff\u0100-\u017f\u0218-\u021b\u1ea1-\u1ef9"
# Arabic's letters and Urdu's and Persian's own ("جاز کیش اکاؤنٹ": reviewer CL), Hebrew's, Ethiopic's ("ስልክ"),
# Hangul's ("검체 접수 번호": reviewer CR)
_OTHER_WORDS = r"[\u0621-\u064a\u0671-\u06d3]+|[\u05d0-\u05ea]+|[\u1200-\u135a]+|[\uac00-\ud7a3]+|#"
_WORDS = lazy_compile(rf"[{_LETTERS}]+|{_OTHER_WORDS}")
# Kana and CJK ideographs, which _WORDS does not read as words
_UNREAD_LETTERS = lazy_compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_CLAUSE_STOP = lazy_compile(r"[。．.;；!！?？]")


# A phone named in a context ("call", "mobile:", "tel"): what a run of single digits needs to be one.
PHONE_CONTEXT = lazy_compile(
    r"(?:^|[^a-z])(?:" + "|".join(sorted(_PHONE_WORDS, key=len, reverse=True)) + r")(?:[^a-z]|$)"
)


def _callback_named(before: str) -> str:
    """``before`` (lower case) with a callback number's label right before the number read as "phone"
    ("Ticket #77104 | callback number: 404.822.6364": reviewer AH; see _CALLBACK). A webhook's "callback"
    further back names none ("# card processor callback" then "- 188.83.76.4/32" on the next line)."""
    if "back" in before or "rückruf" in before:
        callback = _CALLBACK.search(before)
        if callback is not None:
            return before[: callback.start()] + " phone"
    return before


def _read_words(before: str) -> list[str]:
    """The words of ``before`` that _WORDS reads, none where a clause ends after them and words of a script not read
    here stand nearest the number ("患者ID 00482731。キーパーソン長男 090-4721-3386": reviewer CW; but "HS编码
    8471.30.0000" is one label)."""
    words = _WORDS.findall(before)
    tail = before[before.rfind(words[-1]) + len(words[-1]) :] if words else ""
    if _UNREAD_LETTERS.search(tail) is not None and _CLAUSE_STOP.search(tail) is not None:
        return []
    return words


def _last_words(scan: Scan, start: int) -> list[str]:
    before = scan.before(start, 40)
    row = before.rfind("\n")
    if row != -1:
        rest = scan.text[start : scan.text.find("\n", start) % (len(scan.text) + 1)]
        if "," in before[row:] or "\t" in before[row:] or "," in rest or "\t" in rest:
            before = _column_header(scan.text, start, before)
    if "caller" in before:  # "Caller ID: 07812 ..." names a phone; "caller 12345678" (code, logs) does not
        before = _CALLER_ID.sub("callerid", before)
    before = _callback_named(before)
    words = _read_words(before)
    if (
        words
        and words[-1] in _LABEL_REFERENCES
        and not any(char.isdigit() for char in before[before.rfind(words[-1]) :])
    ):
        words = [*words[:-1], "ref"]  # "Auftragsnummer: 8075-...", "processo 9182/780347": the label's own number
    if _HEBREW_WORD.search(before) is not None:
        words = _hebrew_read(words)
    words = words[-6:]
    words = _said_in_other_words(scan, start, before, words)
    if words[-1:] == ["no"] and _GLUED_NO.search(before):
        words = [*words[:-1], "ref"]  # "注文No. 7123456789": Japanese and Chinese write a reference's "No." glued
    if not _PAID_TO.isdisjoint(words) or not _CALLED_ON.isdisjoint(words):
        words = _next_to_the_number(words)
    if words:
        words = _nearest_names_the_number(words)
    if len(words) > 2:
        words = _whose_phone(words)
    if len(words) > 1 and _LETTER_LABELS.intersection(words[:-1]):
        # "T" and "M" name a phone only as its label ("M. 07700 900123"), not a few words back: in
        # "see 1M.\n_MAXLINE = 1000000" the "m" is a unit and the number a constant.
        words = [word for word in words[:-1] if word not in _LETTER_LABELS] + words[-1:]
    if words[-1:] and words[-1] in _LETTER_LABELS and before.rstrip(" \t").endswith("="):
        # ... and not as a key: "t=1726560000,v1=..." is a signature's time (reviewer AF)
        words = words[:-1]
    if words[-1:] and words[-1] in _LETTER_LABELS and _GLUED_LETTER.search(before):
        # ... nor glued to digits after it: ISO 8601's time ("2024-06-11T09:14:22.381+05:30, 1718097262":
        # reviewer BP), a size's or a model's letter
        words = words[:-1]
    return _with_my_number(before, _reached_on(scan, start, words))


def _reached_on(scan: Scan, start: int, words: list[str]) -> list[str]:
    """``words``, ending in "phone" where they say who is reached on the number ("customer on 07880179056", "reach me
    on ...": British English's, reviewer CH)."""
    dialled = _DIALLED_ON.match(scan.text, start)
    if len(words) > 1 and words[-1] == "on" and words[-2] in _REACHED_ON and dialled is not None:
        digits = "".join(char for char in dialled.group() if char.isdigit())
        if not any(run in digits for run in ("0123456", "1234567", "9876543")):  # a placeholder's digits
            return [*words[:-1], "phone"]
    return words


# Who is reached "on" a number ("ring her on", "customer on"), a number dialled with its trunk or international prefix
# and ten digits at least: not what is on a date or a page ("meeting on 2024...", "customer on 20240315").
_DIALLED_ON = lazy_compile(r"(?:\+|0)[0-9](?:[ \-.]?[0-9]){8}")
_REACHED_ON = frozenset(
    {"me", "him", "her", "them", "us", "customer", "client", "caller", "patient", "member", "tenant", "callback"}
)


def _with_my_number(before: str, words: list[str]) -> list[str]:
    """``words``, ending in "my number" where ``before`` says so in words _WORDS does not read (see
    _MY_NUMBER_PHRASES)."""
    return [*words[-4:], "my", "number"] if _MY_NUMBER_SAID.search(before) is not None else words


# Words that name a phone only in some company (reviewer BP, and an attacker's round on its first reading, which
# took counts, prices and serial numbers after them for phones):
# - Indonesian's telephone, mobile and handphone ("HP" right after "nomor" or "no"), where the number is written as
#   dialled: Indonesia's start with its trunk "0" or its code ("nomor HP saya 085336565259"; not "Penjualan ponsel
#   2023: 12.500.000 unit", "Nomor seri HP EliteBook 840: 5120034471");
# - Czech's phone and mobile as adjectives, with "číslo" (number) beside them ("moje telefonní číslo je 603 384
#   737"; not "Telefonní seznam obsahuje 1 204 556 záznamů", "Mobilní data: 15 360 000 kB");
# - a telephony log's keys for a call's numbers, right before the value ("dnis=08003457788", "msisdn: 4479...", "ani=";
#   not "msisdn_count=12845561", "DNIS pool size 1000000").
_DIALLED_AFTER = frozenset({"telepon", "ponsel", "handphone"})
_HP_AFTER = frozenset({"nomor", "no", "nmr"})
# ... not a product's code, serial, price or count ("Kode produk ponsel: 0213400567": an attacker's round)
_WHAT_ELSE = frozenset(
    {"kode", "produk", "seri", "harga", "jumlah", "model", "imei", "tipe", "stok", "pesanan", "invoice"}
)
_CZECH_PHONE = frozenset({"telefonní", "telefonni", "mobilní", "mobilni", "mobilu", "telefonu"})
_CZECH_NUMBER = frozenset({"číslo", "čísla", "číslem", "cislo", "cisla"})
# ("ani", "cli" and "dnis" as a key's name only: "cli: 1718097262 ms build time" is a command line's: an attacker)
_KEYED_PHONE = lazy_compile(
    r"(?<![a-z0-9_])(?:(?:msisdn|calling_?number|called_?number|a_number|b_number)[ \t]*[:=]|(?:dnis|ani|cli)=)"
    r"[ \t]*[\"']?$"
)


def _said_in_other_words(scan: Scan, start: int, before: str, words: list[str]) -> list[str]:
    if _KEYED_PHONE.search(before) is not None:
        return [*words, "phone"]
    for at, word in enumerate(words):
        # the adjective right beside "číslo" ("telefonní číslo", "číslo mobilu"; not "Číslo objednávky mobilní
        # aplikace", an order's number: an attacker's round)
        if word in _CZECH_PHONE and not _CZECH_NUMBER.isdisjoint(words[max(0, at - 1) : at + 2]):
            return [*words, "phone"]
    if (
        (_DIALLED_AFTER.isdisjoint(words) and "hp" not in words)
        or not scan.text.startswith(("0", "+"), start)
        or not _WHAT_ELSE.isdisjoint(words)
    ):
        return words
    return [
        "phone" if word in _DIALLED_AFTER or (word == "hp" and at and words[at - 1] in _HP_AFTER) else word
        for at, word in enumerate(words)
    ]


def _column_header(text: str, start: int, before: str) -> str:
    """For a number in a row of a table whose line above is its header, what names it: its column's header, when
    that names a phone and nothing else, then the row's cells before it (the header's other cells name the other
    columns: "Telepon,Jumlah\nSamsung,1200000" holds a count, "Harga Ponsel (Rp),Stok\n5999000,120" a price, an
    attacker's rounds; "cliente,prefijo,teléfono\nLucía,+34,612 345 678" and "name,type,value\nAna,mobile,9876
    5432" a phone). A line above with digits in it, or with no cells, is no header: ``before``, as it was."""
    line = text.rfind("\n", 0, start)
    cells = text[line + 1 : start]
    separator = "\t" if "\t" in cells else ","
    above = text.rfind("\n", 0, line)
    header_line = text[above + 1 : line]
    header = header_line.split(separator)
    if len(header) < 2 or any(char.isdigit() for char in header_line):
        return before
    column = cells.count(separator)
    name = header[column].strip().lower() if column < len(header) else ""
    if not set(_WORDS.findall(name)) <= _PHONE_COLUMN_WORDS:
        name = ""
    return f"{name}: {cells.lower()}" if name else cells.lower()


# What a header that names a phone's column holds ("Phone", "mobile_number", "Telefonnummer privat", "No. HP").
_PHONE_COLUMN_WORDS = frozenset(
    {"phone", "tel", "telephone", "mobile", "mob", "cell", "cellphone", "fax", "handy", "telefon", "telefono",
     "teléfono", "téléphone", "telefone", "celular", "móvil", "movil", "portable", "whatsapp", "landline", "gsm",
     "telepon", "ponsel", "hp", "handphone", "mobil", "telefonnummer", "handynummer", "mobilnummer", "rufnummer",
     "number", "no", "nr", "num", "nomor", "numero", "número", "numéro", "nummer", "numer", "of", "de", "contact",
     "primary", "secondary", "home", "work", "office", "private", "privat", "personal", "business", "alt",
     "alternate", "alternative", "emergency", "kontakt", "contacto", "msisdn", "prefijo", "prefix"}
)  # fmt: skip


_LETTER_LABELS = frozenset(["t", "m"])
_GLUED_LETTER = lazy_compile(r"(?<![^\W\d_])[tTmM][0-9][^A-Za-z]*$")
# Names of a customer's, an order's, an invoice's, a contract's or a case's number that name only the
# number right after them ("Auftragsnummer: 8075-2563-20", "processo 9182/780347": reviewer AR), not a
# phone a few words on ("Kundennummer fehlt, Rückfragen: 0171 2345678", "Bestellnummer 4711, Rückfragen:
# 030 12345678": an attacker's round).
_LABEL_REFERENCES = frozenset(
    ["kundennummer", "auftragsnummer", "bestellnummer", "rechnungsnummer", "vertragsnummer", "bestellung", "processo",
     "encomenda",
     # Arabic's order, invoice and shipment ("رقم الطلب 4471-2290": reviewer BP; not "... لتأكيد الطلب على الرقم
     # 0551234567", a phone a few words on: an attacker's round)
     "الطلب", "الفاتورة", "الشحنة"]
)  # fmt: skip


# Whose phone it is, between the phone's word and the number: Vietnamese "số điện thoại của em là 0985 271
# 433" (the phone number of mine is; reviewer AB), Hebrew "הנייד של דני הוא 052-..." (Dani's mobile is):
# a word that names a phone and nothing else, "of", one or two words, maybe "is". Not English "of":
# "the cell of row B is ..." names a table's cell.
# In Vietnamese the phone's number itself, not the phone: "số điện thoại", "sđt", "di động" ("Số IMEI
# điện thoại của tôi là ...", the phone's IMEI, "Doanh số điện thoại của quý là ...", the phones' sales).
# (Chat writes Vietnamese without its marks too: "sdt cua em la 0985 ...".)
_VIETNAMESE_NUMBER = lazy_compile(
    r"(?:^|\s)(?<!doanh )(?:số điện thoại|so dien thoai|sđt|sdt|số máy|so may|di động|di dong)$"  # not sales
)
_OF = frozenset({"của", "cua", "של"})
_IS_AFTER_WHOSE = frozenset({"là", "la", "הוא", "היא", "זה"})


_HEBREW_WORD = lazy_compile(r"[\u05d0-\u05ea]+")
_HEBREW_KEPT = frozenset({"של", "הוא", "היא", "זה"})


def _hebrew_read(words: list[str]) -> list[str]:
    """The Hebrew words that say whose phone it is kept, the others dropped: a name between the label
    and the number ("Phone for דני כהן 0521234567") must not push the label out of the words read. A
    phone's word after "של" (of) names what the number belongs to, not the number ("המספר הסידורי של
    הטלפון הוא ...", the phone's serial number is; a fresh attacker's round): it is read as "של" too."""
    kept: list[str] = []
    for index, word in enumerate(words):
        if _HEBREW_WORD.fullmatch(word) is None:
            kept.append(word)
        elif word in _HEBREW_PHONE_WORDS:
            owned = index and words[index - 1] == "של"
            kept.append(word if not owned and _whose_after(words[index + 1 :]) else "של")
        elif word in _HEBREW_KEPT:
            kept.append(word)
        elif word in _REFERENCE_WORDS:
            kept.append("ref")  # a reference's noun ("הזמנה 7731-2024-55": an order's, reviewer BB)
    return kept


_TO_WHOM = frozenset({"אליי", "אלי", "אלינו", "אליו", "אליה", "אלייך", "אליך", "אליכם"})


def _whose_after(after: list[str]) -> bool:
    """Between a Hebrew phone's word and the number only whose it is and "is" ("הנייד של דני הוא"), or
    "to" ("להתקשר ל-"): "הטלפון של דני נקנה ב-15 03 2024" (Dani's phone was bought on) gives a date."""
    if after[-1:] == ["ל"] or after[-1:] == ["מ"]:
        after = after[:-1]
        if after[-1:] and after[-1] in _TO_WHOM:
            after = after[:-1]  # "להתקשר אליי ל-...": call me at
    if after[-1:] and after[-1] in _IS_AFTER_WHOSE:
        after = after[:-1]
    return not after or (after[0] == "של" and 2 <= len(after) <= 3)


def _whose_phone(words: list[str]) -> list[str]:
    """``words`` up to the phone's word when only whose it is stands after it, else ``words``."""
    if words[-2:] == ["gọi", "là"]:
        return words[:-2]  # Vietnamese "được gọi là": is called
    rest = words[:-1] if words[-1] in _IS_AFTER_WHOSE else words
    for size in (1, 2):
        at = len(rest) - size - 1
        if (
            at >= 1
            and rest[at] in _OF
            and rest[at - 1] in _SAID_WORDS
            and _REFERENCE_WORDS.isdisjoint(rest[at:])
            and (rest[at] != "của" or _VIETNAMESE_NUMBER.search(" ".join(rest[max(0, at - 4) : at])))
        ):
            return rest[:at]
    return words


# "No" and "nr" name a number only right before it: Portuguese "no" is "in the" ("Pagamento no boleto
# 8123456789"). The word nearest the number names it: a reference noun there makes the phone words
# before it another thing's ("Numéro de commande 7123456789", "Tél. du standard sur le site ; numéro de
# commande ...", Polish "Cel przelewu: faktura ...": an attacker's round).
_ABBREVIATED = frozenset(["no", "nr"])
_IS_WORDS = frozenset(["is", "was", "es", "é", "ist", "est", "è"])
_GLUED_NO = lazy_compile(r"[\u3040-\u30ff\u3400-\u9fff]no\.?[ \t]*$")


def _nearest_names_the_number(words: list[str]) -> list[str]:
    words = [
        word
        for index, word in enumerate(words)
        if word not in _ABBREVIATED or _IS_WORDS.issuperset(words[index + 1 :])  # "my no. is 9812345670"
    ]
    for index in range(len(words) - 1, -1, -1):
        word = words[index]
        if word in _REFERENCE_WORDS:
            phones = [
                at
                for at, w in enumerate(words[:index])
                if w in _PHONE_WORDS and w not in _NUMBER_WORDS and w not in _FILLER
            ]
            ofs = [at for at, w in enumerate(words[:index]) if w in _OF_THE_REFERENCE]
            # "from" only after the phone's word: "text from his work phone later. Ticket 6727158" is a ticket's
            if phones and any(words[at] != "from" or phones[0] < at for at in ofs):
                return words  # "The phone for the booking is 07911 123456": the booking's phone
            return [word for word in words if word not in _PHONE_WORDS or word in _FILLER]
        if word in _PHONE_WORDS and word not in _FILLER and word not in _NUMBER_WORDS:
            break
    return words


# ... or the phone came from it ("Phone numbers from the signup form: 702.731.3468": reviewer AT).
_OF_THE_REFERENCE = frozenset(["for", "für", "pour", "para", "per", "from"])


def _next_to_the_number(words: list[str]) -> list[str]:
    """``words`` without the payment apps' names and calling verbs that are not right before the number."""
    if not _REFERENCE_WORDS.isdisjoint(words):
        return [word for word in words if word not in _PAID_TO and word not in _CALLED_ON]  # "Ticket about BLIK: ..."
    last = len(words) - 1
    if last >= 0 and words[last] in _TO_THE_NUMBER:
        last -= 1  # "Bizum al", "me chama no"
    kept = []
    for index, word in enumerate(words):
        if word in _PAID_TO and index != last and index != len(words) - 1:
            continue
        if word in _CALLED_ON and not (index == last and last < len(words) - 1):
            continue
        kept.append(word)
    return kept


_CALLER_ID = lazy_compile(r"caller[ _\-]?id\b")
# "Callback number", "call back on", "Rückruf unter": a callback alone names any callback ("onSuccess
# callback: 1048576 bytes", "status callback: 2024031510": a fresh attacker's round).
_CALLBACK = lazy_compile(
    r"(?<![^\W\d_])(?:call[ \-]?back[ \t]+(?:number|no\.?|nr\.?|#)[ \t]*:?|call[ \-]?back[ \t]+(?:on|at)|"
    r"rückruf(?:nummer[ \t]*:?|[ \t]+unter))[ \t]*$"
)


# A Germanic compound of "number" that names a business's reference ("Storingsnummer 240611-0087", an outage's:
# reviewer CU; "Ordernummer", "Ärendenumret"), by its first part: not a person's number ("Personnummer 710716-1320",
# "Fødselsnummer", "Burgerservicenummer" are national identities, kept found) nor a phone's.
_NUMBERED_ENDINGS = ("nummer", "nummern", "nummeret", "numret", "numren")
_REFERENCE_STEMS = (
    "storing", "order", "ordre", "bestel", "bestell", "factuur", "faktura", "rechnung", "ticket", "melding", "dossier",
    "referentie", "referenz", "contract", "vertrag", "kontrakt", "artikel", "auftrag", "vorgang", "sendung", "zending",
    "buchung", "boeking", "lieferschein", "levering", "zaak", "ärende", "arende", "sag", "serie", "serien", "onderdeel",
    "teil", "produkt", "product", "kvitto", "bon", "transactie", "transaktion", "track", "volg", "pakket", "paket",
    "aanvraag", "antrag", "klacht", "reklamation", "incident", "stör",
)  # fmt: skip


def _numbered_compound(word: str) -> bool:
    return (
        word.endswith(_NUMBERED_ENDINGS)
        and word.startswith(_REFERENCE_STEMS)
        and len(word) > len("nummer") + 2
        and not any(stem in word for stem in _PHONE_STEMS)
    )


# (a phone's compound that starts like a reference's: "Teilnehmernummer", a subscriber's, "Vertragsrufnummer",
# "Bestellertelefonnummer": the attacker's round)
_PHONE_STEMS = ("ruf", "telefon", "handy", "mobil", "fax", "teilnehmer", "anschluss", "kontakt", "gsm", "sms")


def _is_reference(words: list[str], bare: bool = True, candidate: str | None = None) -> bool:
    """A reference noun before the number ("order", "part number"); a person's noun ("customer
    number 2125550143") or a loan's ("Mortgage loan no. 7700412983") makes bare digits a reference, not a
    formatted number ("Customer: 0161 ...", "Loan officer: (415) 555-2671")."""
    return _named_by(words, _BARE_REFERENCES if bare else _REFERENCE_WORDS, candidate)


def _named_by(words: list[str], names: frozenset[str], candidate: str | None = None) -> bool:
    """A word of ``names`` is the nearest before the number, fillers ("no", "number", "#") apart; or a health
    system's word with "number" or "no" after it (_NUMBERED_ONLY), before a ``candidate`` shaped as its records'."""
    numbered = False
    for word in reversed(words):
        if word in names or (names is not _LOAN_WORDS and _numbered_compound(word)):
            return True
        if numbered and word in _NUMBERED_ONLY and candidate is not None and _RECORD_SHAPED.fullmatch(candidate):
            return True
        if word not in _FILLER and word != "#":
            return False
        numbered = numbered or word in _NUMBER_FILLERS
    return False


# A health system's numbers of a patient, a referral or a specimen, read as such with "number" or "no" after the word
# only ("NHS number 4145266773", "IPD नंबर 6816264": reviewer CB), not as its helpline's ("NHS 0300 311 2233",
# "Medicare 1-800-633-4227").
_NUMBERED_ONLY = frozenset(
    {"nhs", "chi", "mrn", "uhid", "ipd", "opd", "abha", "ubrn", "mbi", "medicare", "medicaid", "accession"}
)
_NUMBER_FILLERS = frozenset({"no", "number", "num", "nr", "#", *_HINDI_NUMBER})
# A record's number as health systems write it: bare digits with no trunk "0", or the NHS's 3-3-4 (not a helpline's
# "0300 311 2233", "1-800-633-4227", "(800) 541-2831", "800.633.4227": an attacker's round).
_RECORD_SHAPED = lazy_compile(r"[1-9][0-9]{5,11}|[1-9][0-9]{2} [0-9]{3} [0-9]{4}")


def _phone_all_the_same(scan: Scan, candidate: str, start: int, words: list[str]) -> bool:
    """Bare digits a reference's word comes before, that are a phone all the same: invisible characters
    between their groups ("Wire: 212\u00ad555\u00ad0143"), or, after a loan's word, a phone's word in
    brackets right after them ("Loan 4155552671 (cell)"): an attacker's round. After other references
    the reference wins ("SKU 671283946 (mobile)": a tally by channel, an earlier attacker's round)."""
    if start < 0 or not candidate.isdigit():
        return False
    end = start + len(candidate)
    return scan.hidden_break(start, end) or (_named_after(scan.text, end) and _named_by(words, _LOAN_WORDS))


# A loan's or a mortgage's words (reviewer AM: "Mortgage loan no. 7700412983", "Kredyt hipoteczny nr ...",
# "lening nr. ..."), a wire's ("ABA routing number 021000021 (wire) / 026009593": reviewer AO): bare digits
# after them are the loan's or the routing number; an officer's or a desk's phone is written grouped
# ("Wire: 020 7946 0958").
_LOAN_WORDS = frozenset(
    {"loan", "mortgage", "kredyt", "kredytu", "hipoteczny", "lening", "leningdeel", "hypotheek", "darlehen",
     "préstamo", "prestamo", "prestito", "empréstimo", "emprestimo", "prêt", "wire"}
)  # fmt: skip
_BARE_REFERENCES = _REFERENCE_WORDS | _PERSON_NOUNS | _LOAN_WORDS  # what makes bare digits a reference


# Numbers Ofcom reserves for drama: real UK formats that never connect, which libphonenumber calls
# invalid. Written into notes they are still phone numbers (and the usual UK examples).
_UK_DRAMA = lazy_compile(
    r"(?:7700900|11[3-8]4960|1[2-6]14960|1914980|20794600|2896496|8081570|9098790|3069990)[0-9]{3}"
)


@dataclass(frozen=True)
class _Region:
    """What validation needs of one region's libphonenumber metadata, compiled once."""

    code: str
    country_code: int
    trunk: str | None  # the national prefix ("0"), if the region has one
    trunk_required: bool  # national numbers are written with it (GB, DE, FR: yes; US, IN: no)
    simple: bool  # the trunk is stripped as is (no carrier codes or transform rules)
    lengths: frozenset[int]  # possible lengths of a national significant number
    pattern: re.Pattern[str] | None  # the general number pattern
    valid: re.Pattern[str] | None  # any number type's pattern: a match is a valid number
    mobile: re.Pattern[str] | None  # the mobile pattern
    toll_free: re.Pattern[str] | None  # the toll-free pattern ("1800 40 8139" in India: no trunk prefix)


# Regions whose national numbers are commonly written without their trunk prefix (NANP numbers
# have none in practice; Indian and Chinese mobiles are written bare).
_TRUNK_OPTIONAL = frozenset({"IN", "CN"})
_TYPE_DESCS = ("fixed_line", "mobile", "toll_free", "premium_rate", "shared_cost", "personal_number", "voip",
               "pager", "uan", "voicemail")  # fmt: skip


def _compiled(patterns: Iterable[str | None]) -> re.Pattern[str] | None:
    chosen = [pattern for pattern in patterns if pattern]
    return re.compile("(?:" + "|".join(f"(?:{pattern})" for pattern in chosen) + ")") if chosen else None


@lru_cache(maxsize=256)
def region_info(code: str) -> _Region:
    meta = phonenumbers.PhoneMetadata.metadata_for_region(code)
    if meta is None:
        raise ValueError(f"unknown phone region {code!r}: use an ISO 3166 code such as 'US' or 'GB'")
    trunk = meta.national_prefix or None
    general = meta.general_desc
    lengths = frozenset(general.possible_length or ()) if general is not None else frozenset()
    pattern = general.national_number_pattern if general is not None else None
    required = trunk is not None and meta.country_code != 1 and code not in _TRUNK_OPTIONAL
    parsing = meta.national_prefix_for_parsing
    simple = meta.national_prefix_transform_rule is None and (
        parsing is None or parsing == trunk or (trunk is not None and parsing.startswith(f"{trunk}|"))
    )
    descs = [getattr(meta, name, None) for name in _TYPE_DESCS]
    valid = _compiled(desc.national_number_pattern for desc in descs if desc is not None)
    mobile = _compiled([meta.mobile.national_number_pattern if meta.mobile is not None else None])
    toll_free = _compiled([meta.toll_free.national_number_pattern if meta.toll_free is not None else None])
    return _Region(
        code,
        meta.country_code or 0,
        trunk,
        required,
        simple,
        lengths,
        re.compile(pattern) if pattern else None,
        valid,
        mobile,
        toll_free,
    )


@lru_cache(maxsize=64)
def _regions(codes: tuple[str, ...]) -> tuple[_Region, ...]:
    return tuple(region_info(code) for code in codes)


@lru_cache(maxsize=64)
def _plan_siblings(codes: tuple[str, ...]) -> tuple[_Region, ...]:
    """The other regions of the North American plan when ``codes`` name one: a national number dialled
    in the US reaches Canada and the Caribbean ("called from 514-555-0163", "416-555-0159": reviewer Y)."""
    if not any(region_info(code).country_code == 1 for code in codes):
        return ()
    return tuple(
        region_info(code)
        for code in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[1]
        if code not in codes and code in phonenumbers.SUPPORTED_REGIONS
    )


# How the North American plan writes its numbers: 3, 3 and 4 digits joined by dashes or dots, or the
# area code in brackets ("(416) 555-0159", "514-555-0163", "1-514-555-0163"). Its other regions are read
# only in that shape: a waybill's "4417 8820 91", a traceroute's "3  65.4.51.247  9" and three numbers
# a space apart ("--sizes 250 500 1000": an attacker's round) are no Canadian numbers.
_PLAN_SHAPE = lazy_compile(r"(?:1[.\-])?(?:\([0-9]{3}\)[ ]?[0-9]{3}-|[0-9]{3}([.\-])[0-9]{3}\1)[0-9]{4}")


_SEPARATOR = lazy_compile(r"[^0-9]+")
_MIN_DIGITS = 7  # the shortest national numbers
PHONE_DIGITS = _MIN_DIGITS
_MAX_DIGITS = 17  # 15 (E.164) and an international prefix "00"
_DROP_DIGITS = str.maketrans("", "", "0123456789")


def _digits(value: str) -> int:
    return len(value) - len(value.translate(_DROP_DIGITS))


# An operator, a number and a space before a "+ ": an addition ("h * 69069 + 907133923"), no "+" number.
_SUM = lazy_compile(r"[=*/(+\-][ ]*[0-9][0-9.]*[ ]$")


def find_phones(scan: Scan) -> Iterator[Span]:
    text = scan.text
    done = 0
    split_to = 0  # runs of groups read for numbers written one after another end here (each read once)
    for low, high in scan.around(scan.long_numbers, _LEAD, _TAIL):
        match = _PHONE.search(text, max(low, done), high)
        while match is not None:
            if text.startswith("+ ", match.start()) and _SUM.search(text, max(0, match.start() - 40), match.start()):
                # "h * 69069 + 907133923", "3.14159 + 2.71828 - 5.0": a plus between two numbers adds
                match = _PHONE.search(text, match.start() + 1, high)
                continue
            end = _phone_end(scan, match)
            if match.start() >= split_to:
                run = _run(text, match, high)
                split_to = run[1][-1]
                # Numbers side by side ("415 555 2600 415 555 2601", "06 12 34 56 78 / 06 12 34 56 79"):
                # tried where the candidate is no number whole, or its run of groups goes on past it.
                if end != match.end() or split_to > match.end():
                    spans = _consecutive(scan, match, run)
                    if spans:
                        last_start, end = spans.pop()
                        yield from spans
                        extension = _EXTENSION.match(text, end)
                        yield last_start, extension.end() if extension is not None else end
                        done = extension.end() if extension is not None else end
                        match = _PHONE.search(text, done, high)
                        continue
            if not end:
                match, end = _after_short_number(scan, match, high)
            if end:
                extension = _EXTENSION.match(text, end)
                if extension is not None:
                    end = extension.end()  # "...3608x12": the extension goes with the number
                yield _with_trunk(text, match.start(), end), end
                done = end
                match = _PHONE.search(text, done, high)
            else:
                # A later start inside a rejected candidate needs a bracket or "+" to begin it.
                inner = match.group()[1:]
                retry = match.start() + 1 if ("(" in inner or "+" in inner) else match.end()
                match = _PHONE.search(text, retry, high)


def _with_trunk(text: str, start: int, end: int = -1) -> int:
    """``start``, or the trunk "0" written apart before the area code in brackets ("0 (505) 593 90 81",
    as Turkish numbers are written), which goes with the number (``end``: where the number ends, when known)."""
    if text.startswith(("0 (", "8 ("), start - 2) and (start == 2 or not text[start - 3].isalnum()):
        return start - 2  # Turkish "0 (505) ...", Russian "8 (949) ..."
    if text.startswith("06 (", start - 3) and (start == 3 or not text[start - 4].isalnum()):
        return start - 3  # Hungarian "06 (50) 347-4682": its trunk prefix is "06" (reviewer BC)
    if text.startswith("1 (", start - 2) and _NANP_TRUNK_AFTER.search(text, max(0, start - 24), start - 2):
        # North America's "Callback 1 (773) 950-1992" (reviewer BB); not a list's or a menu's number ("Step 1
        # (800) 555-0199", "Option 1 (212) ...": an attacker's round)
        return start - 2
    # a quoted value that is the number alone ("VALUES (..., '1 (646) 907-2855', ...)": reviewer BY)
    if (
        text.startswith("1 (", start - 2)
        and start >= 3
        and text[start - 3] in "'\""
        and end > 0
        and text.startswith(text[start - 3], end)
        and (start == 3 or not text[start - 4].isalnum())
    ):
        return start - 2
    return start


_NANP_TRUNK_AFTER = lazy_compile(
    r"(?:^|[:,;]|(?<![^\W\d_])(?i:callback|call|phone|tel|telephone|mobile|cell|fax|text|dial|or|at|on|to))[ \t]*$",
    re.MULTILINE,
)


# A group after a candidate's last, with a separator the candidate pattern takes: the candidate holds
# eight groups at most, two French numbers ten.
_MORE_GROUPS = lazy_compile(r"(?:(?:[ ]?[.\-/][ ]?|[ ]{1,2}|\t)[0-9]{1,15})+(?![\w]|[.\-/][0-9])")
_GROUP_DIGITS = lazy_compile(r"[0-9]+")
_BOUNDARY = lazy_compile(r"[ .\-/\t]+")  # a separator a number may end and the next start at
_PIECE_GROUPS = 8  # the groups of one number, as the candidate pattern takes them


def _run(text: str, match: re.Match[str], high: int) -> tuple[list[int], list[int]]:
    """The groups of the run of digit groups the candidate starts, its own and those after it: where
    a number may start at each, and where each ends (two lists of integers, which the garbage
    collector does not track: a run may be a megabyte long)."""
    starts = [match.start()]
    ends: list[int] = []
    for separator in _BOUNDARY.finditer(text, match.start(), match.end()):
        ends.append(separator.start())
        starts.append(separator.end())
    ends.append(match.end())
    more = _MORE_GROUPS.match(text, match.end(), high)
    if more is not None:
        # Separators and groups alternate: their lengths summed give the offsets (at C speed).
        chunk = more.group()
        lengths = chain.from_iterable(
            zip(map(len, _SEPARATOR.findall(chunk)), map(len, _GROUP_DIGITS.findall(chunk)), strict=True)
        )
        offsets = list(accumulate(lengths, initial=more.start()))
        starts += offsets[1::2]
        ends += offsets[2::2]
    return starts, ends


def _consecutive(scan: Scan, match: re.Match[str], groups: tuple[list[int], list[int]]) -> list[Span]:
    """The numbers a run of groups holds one after another, each with its own span (so each gets the
    token it gets alone), when the whole run splits into numbers at its group boundaries and is no
    one number; else [].

    Numbers written in a list are grouped alike: pieces of the same number of groups are tried first,
    the fewest pieces first, each size given up at its first piece that is no number (a few tries on
    a run of digits that holds none). A short run may hold numbers of two shapes ("415 555 2600 0171
    2345678"): the fewest and most even pieces over its group boundaries.
    """
    starts, ends = groups
    count = len(starts)
    if count < 2:
        return []
    words = _last_words(scan, match.start())
    for size in range(min(_PIECE_GROUPS, count // 2), 0, -1):
        if count % size == 0 and all(
            _piece(scan, starts[first], ends[first + size - 1], words) for first in range(0, count, size)
        ):
            return [(starts[first], ends[first + size - 1]) for first in range(0, count, size)]
    return _mixed_pieces(scan, starts, ends, words) if count <= _MIXED_GROUPS else []


_MIXED_GROUPS = 16  # the longest run read for numbers of two shapes (a bounded search)


def _piece(scan: Scan, start: int, end: int, words: list[str]) -> bool:
    """``text[start:end]`` is a phone number whole, read as a candidate of its own."""
    candidate = scan.text[start:end]
    if not _MIN_DIGITS <= _digits(candidate) <= _MAX_DIGITS:
        return False
    if (
        phone_e164(candidate, scan.phone_regions) is None
        and not candidate.startswith(("+", "(+"))
        and not (candidate.isdigit() and _said_of_phone(words))
    ):
        return False  # what _is_phone decides first, without the context's checks
    return _phone_end_at(scan, start, end, words) == end


def _mixed_pieces(scan: Scan, starts: list[int], ends: list[int], words: list[str]) -> list[Span]:
    """The fewest, then the most even, numbers that the groups split into whole, or []."""
    count = len(starts)
    best: list[tuple[int, int] | None] = [None] * (count + 1)
    best[0] = (0, 0)
    came_from = [0] * (count + 1)
    for first in range(count):
        reached = best[first]
        if reached is None:
            continue
        for last in range(first, min(count, first + _PIECE_GROUPS)):
            size = last + 1 - first
            cost = (reached[0] + 1, reached[1] + size * size)
            known = best[last + 1]
            if (known is None or cost < known) and _piece(scan, starts[first], ends[last], words):
                best[last + 1] = cost
                came_from[last + 1] = first
    if best[count] is None or came_from[count] == 0:
        return []  # no split, or the run is one number
    spans: list[Span] = []
    at = count
    while at:
        first = came_from[at]
        spans.append((starts[first], ends[at - 1]))
        at = first
    spans.reverse()
    return spans


# The candidate pattern without its first condition: where a rejected candidate opens with a short
# number ("Hotline 24/7 0800 123 4567", "Room 12 0161 496 0123", "Mo-Fr 9-17 030 2345678"), the
# number after it is tried on its own.
_PHONE_AFTER = lazy_compile(_PHONE.pattern[_PHONE.pattern.index("(?:(?:\\+|00)") :], re.X)
# Short numbers ("24/7", "9-17", "4.12", "12") and then a space: "2-07-040850-5" (an ISBN) is one number.
_SHORT_GROUP = lazy_compile(r"[0-9]{1,3}(?:[./\-][0-9]{1,3}){0,2}(?:[ ]{1,2}|$)")


_EXTENSION = lazy_compile(r"x[0-9]{1,5}(?![\w])")


def _after_short_number(scan: Scan, match: re.Match[str], high: int) -> tuple[re.Match[str], int]:
    """The phone number that starts after the short numbers opening a rejected candidate, if any."""
    text = scan.text
    at = match.start()
    for _ in range(3):
        short = _SHORT_GROUP.match(text, at, match.end())
        if short is None or short.end() >= match.end():
            break
        at = short.end()
        inner = _PHONE_AFTER.match(text, at, high)
        if inner is not None:
            end = _phone_end(scan, inner)
            if end:
                return inner, end
    # A longer number set apart by a blank, then a North American number in its own style, dashed or with its
    # area code in brackets ("Portland, OR 97205 · 602-631-0754": a postcode, then the phone; reviewer BS). Not
    # times, pairs or other countries' groups after a number ("Flight 4412 0830-1145", "Qty 1500 06-12-34-56-78",
    # "License key 48213 01522-63477": an attacker's round); a run of one style is never cut ("4889 0152 6347 7331").
    lead = _LEADING_GROUP.match(text, match.start(), match.end())
    if lead is not None:
        inner = _PHONE_AFTER.match(text, lead.end(), high)
        if inner is not None:
            end = _phone_end(scan, inner)
            if end and _NANP_STYLE.fullmatch(text, inner.start(), end) is not None:
                return inner, end
    return match, 0


_LEADING_GROUP = lazy_compile(r"[0-9]{4,6}(?:[ ]{1,2}|[ ]\.[ ])(?=[0-9(])")
_NANP_STYLE = lazy_compile(
    r"(?:\([2-9][0-9]{2}\)[ ]?|[2-9][0-9]{2}-)[2-9][0-9]{2}-[0-9]{4}|[2-9][0-9]{2}\.[2-9][0-9]{2}\.[0-9]{4}"
)


# "ל-" and "מ-": the only prefixes _PHONE starts after (to and from: "התקשרה מ-058-619-9710", reviewer CR)
_HEBREW_PREFIX = lazy_compile(r"(?<![\u05d0-\u05ea])[\u05dc\u05de]-$")


def _glued_wrongly(text: str, start: int, words: list[str], candidate: str, regions: tuple[str, ...]) -> bool:
    """Glued by a dot to a word that is not a phone label ("v.0171 ..."), or by a dash to a word and
    not written in groups (a phone glued to its label is: "Mob-0161 422 ..."; "TEL-20240115" is a tag),
    unless the word is a phone label and the digits a valid number ("Tel-4155552671")."""
    if text[start - 1] == ".":
        if candidate.startswith("+") and text[start - 2 : start - 1].isdigit():
            return False  # "+14155552671.+442079460958": numbers glued one after another
        return not (words and words[-1] in _PHONE_WORDS)
    if text[start - 1] == "-" and _HEBREW_PREFIX.search(text, max(0, start - 3), start):
        # "ל-0593057512": Hebrew's one-letter word "to" (or "from") before the number, not a glued label; a number only
        # after a Hebrew word for a phone or a call ("נא להתקשר ל-..."): after "ב-" (at, in) stand times,
        # dates and amounts ("הטיסה ב-08 30 17 30", a fresh attacker's round); "+" sums too ("הרווח עודכן
        # ל-+12 500 000 ₪": the attacker's round on reviewer BC's readers)
        # (nor a date in groups: "נקנה ל-15 03 2024", bought on, or "מ-", since; after "from" an Israeli number only,
        # whole: "התקשרה מ-050-2024 (מספר הזמנה)" gave an order's, an attacker's round)
        if text[start - 2] == "\u05de" and not _valid_in(candidate, ("IL",)):
            return True
        return _SPACED_DATE.fullmatch(candidate) is not None or not any(
            word in _HEBREW_PHONE_WORDS for word in words[-2:]
        )
    if text[start - 1] == "-" and text[start - 2 : start - 1].isalpha() and candidate.isdigit():
        return not (words and words[-1] in _PHONE_WORDS and phone_e164(candidate, regions) is not None)
    return False


def _table_cells(candidate: str, words: list[str]) -> bool:
    """Numbers in the columns of a table, joined by tabs: a phone only where it is international or
    the text calls it one ("tel:\t+44\t20\t7946\t0123")."""
    return "\t" in candidate and not (candidate.startswith("+") or _PHONE_WORDS.intersection(words[-3:]))


def _phone_end(scan: Scan, match: re.Match[str]) -> int:
    """End of the phone number the candidate starts, or 0.

    The candidate may run into a neighbour ("415-555-2671 10.0.0.1"): where the separator style
    changes, the part before is tried too. A run of groups with one separator style is never cut
    ("4889 0152 6347 7331" is one number, not a phone number and a tail).
    """
    return _phone_end_at(scan, match.start(), match.end())


# A time's minutes follow; not a label's index ("{{PHONE_1:+49 ...}}", "TEL1:...", "[PHONE 1:..."), which an
# upper-case name leads (a lower-case one is a row's or an episode's: "row_4:05 10 15 20 25 30", an attacker's round)
# FIX's and ISO 8601's basic timestamps, a date then a dash and the hour ("52=20240612-14:00:00.250": reviewer BN)
_DATE_DASH_HOUR = lazy_compile(r"(?:19|20)[0-9]{2}[01][0-9][0-3][0-9]-[0-2][0-9]")
# An identifier's last part glued on by a dash, letters and digits mixed, after digits the dash joins too: the digits
# before are part of the identifier ("cluster 0612-093012-abcd123", a Databricks cluster's id: reviewer CK). Letters
# alone are a word's ending (Hungarian's "06 30 123 4567-es számon"); after groups set apart by blanks the number ends
# before the dash ("Simu 0712 345 678-wa2": the attacker's round on CK's readers).
# Pakistan's identity card number, five digits, seven and one ("42101-5962555-5": reviewer CL), no phone's grouping
_CNIC = lazy_compile(r"[0-9]{5}-[0-9]{7}-[0-9]")
_ID_SUFFIX = lazy_compile(
    r"-(?!x[0-9]{1,6}(?![A-Za-z0-9])|ext)(?=[a-z]{0,15}[0-9])(?=[0-9]{0,15}[a-z])[a-z0-9]{2,16}(?![A-Za-z0-9])"
)
_TIME_BEFORE = lazy_compile(r"(?<![A-Z][A-Z][_\-. ])(?<![A-Z][A-Z])[0-9]:\Z")


def _phone_end_at(scan: Scan, start: int, end: int, words: list[str] | None = None) -> int:
    """_phone_end of the candidate ``text[start:end]``; ``words``: those before it, when known."""
    text = scan.text
    candidate = text[start:end]
    digits = _digits(candidate)
    # Not a date or an address, nor a time's minutes or seconds and more: "07:10:09 2024 -0500" (the
    # number after the time is tried alone: _after_short_number).
    if (
        digits < _MIN_DIGITS
        or _DATE_OR_IP.match(text, start, end)
        or _TIME_BEFORE.match(text, max(0, start - 2), start)
        or (_DATE_DASH_HOUR.fullmatch(candidate) and text.startswith(":", end))
        or (_ID_SUFFIX.match(text, end) and "-" in candidate and " " not in candidate)
        or _CNIC.fullmatch(candidate)
    ):
        return 0
    if digits > _MAX_DIGITS and _uniform(candidate):
        return 0  # one run of groups, too long for any number: nothing to cut
    if _amount_or_count(text, start, end, candidate):
        return 0
    words = _answering(text, start, _last_words(scan, start) if words is None else words)
    if (
        _SINGLE_DIGITS.fullmatch(candidate) or _SPACED_THOUSANDS.fullmatch(candidate)
    ) and not _PHONE_WORDS.intersection(words):
        return 0  # "6 0 3 5 7 6 9 8 8": a phone written a digit at a time only where the text says so
    if (
        (start and _glued_wrongly(text, start, words, candidate, scan.phone_regions))
        or _table_cells(candidate, words)
        or (_range(candidate) and not _PHONE_WORDS.intersection(words[-3:]))
    ):
        return 0
    # A reference noun before it ("order 4155552671") makes it a reference, unless the number is
    # international or the text calls it a phone ("The phone for the booking is 07911 123456").
    if (
        _is_reference(words, candidate.isdigit(), candidate)
        and not candidate.startswith(("+", "(+"))
        and not (candidate.startswith("(0") and words[-2:] == ["to", "port"])  # "threatened to port (01865) ..."
        and not _CALLING_WORDS.intersection(words)
        and not _FRENCH_PAIRS.fullmatch(candidate)
        and not _phone_all_the_same(scan, candidate, start, words)
        # whose number it is, a copula and a phone's word in brackets right after it ("backup is (303) 303-0344
        # (cell)": reviewer CY; not "Ticket 303-303-0344 (phone)" nor "Backup 303-303-0344 (mobile) completed": an
        # attacker's round)
        and not (
            len(words) >= 2
            and words[-2] in _WHOSE_NO
            and words[-1] == "is"
            and (bracket := _BRACKET_AFTER.match(text, end)) is not None
            and bracket["word"].lower() in _BRACKET_PHONE_WORDS
        )
    ):
        return 0
    if _not_dialled(text, start, candidate) or _referenced_by_label(scan, start, candidate):
        return 0
    whole = _before_hour(scan, start, end, words) or (end if _is_phone(scan, candidate, words, digits, start) else 0)
    if whole:
        return whole
    if _uniform(candidate):
        return 0
    # Cut where the separator style changes, longest first.
    ends = []
    for found in _SEPARATOR.finditer(text, start, end):
        ends.append((found.start(), found.group()))
    for (cut, separator), (_, previous) in zip(reversed(ends[1:]), reversed(ends[:-1]), strict=True):
        if separator != previous and _is_phone(scan, text[start:cut], words):
            return cut
    return 0


_HOUR_AFTER = lazy_compile(r"[ \t]+[0-2]?[0-9]:[0-5][0-9](?![0-9])")


def _before_hour(scan: Scan, start: int, end: int, words: list[str]) -> int:
    """Where an international number ends before the hour of a time the candidate took for its last
    group, its minutes after a colon ("SMS from +44 7712 384562 03:17: ...": reviewer AX), or 0. Not a
    national one: a timetable's or a log's row of numbers is cut to a valid-looking one as readily
    ("Train 9876 5432 10 12:30", "Job 0207 9460 958 09:30": an attacker's round)."""
    text = scan.text
    if not text.startswith(("+", "(+"), start):
        return 0
    hour = _HOUR_AFTER.search(text, start, end + 3)
    if hour is None or hour.start() <= start:
        return 0
    number = text[start : hour.start()]
    code = _WRITTEN_CODE.match(number)
    if code is not None and int(code["code"]) not in phonenumbers.COUNTRY_CODE_TO_REGION_CODE:
        return 0  # "Departures +5 0830 0900 09:30": no country's code in its own group
    if phone_e164(number, scan.phone_regions) is None or not _is_phone(scan, number, words):
        return 0
    return hour.start()


_WRITTEN_CODE = lazy_compile(r"\(?\+(?P<code>[0-9]{1,3})[ .\-)]")


_LABEL_BACK = 50  # characters read before a number for its line's label
_LABEL_MOST = 48  # a label's characters before its colon, at most


def _line_label(text: str, start: int) -> str | None:
    """The label a colon ends right before ``start`` (blanks between): the 1 to 48 characters before
    the colon back to the line's start or an earlier colon, within 50 characters; None if there is none.
    Read with two searches from the colon back, not with a pattern tried at each of 50 starts."""
    low = max(0, start - _LABEL_BACK)
    colon = len(text[low:start].rstrip(" \t")) + low - 1
    if colon <= low or text[colon] != ":":
        return None
    first = max(low, colon - _LABEL_MOST, text.rfind("\n", low, colon) + 1, text.rfind(":", low, colon) + 1)
    return text[first:colon] if first < colon else None


def _referenced_by_label(scan: Scan, start: int, candidate: str) -> bool:
    """A national number after a line's label that names a reference with words after it ("NIP
    dostawcy: 525-24-18-830", "Numéro BCE de l'assureur : 0403.879.355"), no phone word in it."""
    if candidate.startswith(("+", "(+")):
        return False
    label = _line_label(scan.text, start)
    if label is None:
        return False
    words = _WORDS.findall(_callback_named(label.lower()))
    named = [word for word in words if word not in _NUMBER_WORDS]
    # A reference noun last ("Booking: 01 23 47 17 37", "Caller ID: 07812 ...") is _is_reference's case.
    return (
        len(words) <= 6
        and not _REFERENCE_WORDS.isdisjoint(words[:-1])
        and _PHONE_WORDS.isdisjoint(named)
        and _SAID_WORDS.isdisjoint(named)
    )


_NUMBER_ONLY_ABBREVIATIONS = frozenset(["no", "nr", "num"])
# ... unless whose it is or which one comes before it ("my no. is ...", "Alternate no. 07001642067").
_WHOSE_NO = frozenset({"alternate", "alternative", "alt", "other", "second", "backup", "emergency"})


def _whose_no(words: list[str]) -> bool:
    return any(
        word in _PHONE_WORDS
        and word in _NUMBER_ONLY_ABBREVIATIONS
        and at
        and (words[at - 1] in _MY or words[at - 1] in _MY_ADJECTIVES or words[at - 1] in _WHOSE_NO)
        for at, word in enumerate(words)
    )


# A bracket of two digits glued to twelve or more: GS1's element strings on labels, never a phone's groups.
_GS1_ELEMENT = lazy_compile(r"\([0-9]{2}\)[0-9]{12,}")


# "Number" in a label names the reference beside it ("Numéro BCE", "Número de pedido"), not a phone.
_NUMBER_WORDS = frozenset(["number", "numéro", "número", "numero", "nummer", "numer", "no", "nr", "num"])


# "ZIP codes 60601–60699", "rooms 4410-4499": two numbers of one length, the second above the first and
# sharing its first half, are a range (reviewer P), not a number dialled in two groups.
_RANGE = lazy_compile(r"([0-9]{4,6})-([0-9]{4,6})")


def _range(candidate: str) -> bool:
    match = _RANGE.fullmatch(candidate)
    if match is None:
        return False
    low, high = match.groups()
    half = len(low) // 2
    return len(low) == len(high) and low < high and low[:half] == high[:half]


def _not_dialled(text: str, start: int, candidate: str) -> bool:
    """Coordinates or a measurement ("52.520008 13.404954"), or a US ZIP+4 code after its state
    ("Boston, MA 02110-1301 USA"), or a period whose second date's day was read with the first
    ("01.01.2025-31.12.2025")."""
    if _DECIMAL_START.match(candidate) or _DATE_RANGE.match(text, start) or _container(text, start, candidate):
        return True
    return (
        _ZIP_PLUS_4.fullmatch(candidate) is not None
        and _STATE_BEFORE.search(text, max(0, start - 8), start) is not None
    )


# A shipping container's number (ISO 6346): its owner's three letters and its kind's "U", "J" or "Z", six digits and
# a check digit ("container CMAU 053758 7": reviewer CP, a German number to the phone reader).
_CONTAINER_OWNER = lazy_compile(r"(?<![A-Za-z0-9])(?P<owner>[A-Z]{3}[UJZ])[ \t]{0,2}\Z")
_CONTAINER_DIGITS = lazy_compile(r"(?P<serial>[0-9]{3}[ \t]?[0-9]{3})[ \t]{0,2}[\-/]?[ \t]{0,2}(?P<check>[0-9])")
# (each letter's value: 10 on, skipping the multiples of eleven)
_CONTAINER_LETTERS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (n for n in range(10, 39) if n % 11), strict=False))


def _container(text: str, start: int, candidate: str) -> bool:
    digits = _CONTAINER_DIGITS.fullmatch(candidate)
    owner = _CONTAINER_OWNER.search(text, max(0, start - 7), start) if digits is not None else None
    if digits is None or owner is None:
        return False
    serial = [int(digit) for digit in digits["serial"] if digit.isdigit()]
    values = [_CONTAINER_LETTERS[letter] for letter in owner["owner"]] + serial
    return sum(value << at for at, value in enumerate(values)) % 11 % 10 == int(digits["check"])


_DATE_RANGE = lazy_compile(r"[0-9]{1,2}([./])[0-9]{1,2}\1[0-9]{4}[ ]?[-–][ ]?[0-9]{1,2}\1")
_ZIP_PLUS_4 = lazy_compile(r"[0-9]{5}-[0-9]{4}")
_STATE_BEFORE = lazy_compile(r"(?<![A-Za-z])[A-Z]{2}[ \t,]*(?:\r?\n[ \t]*(?:#|//|\*)?[ \t]*)?$")


# A number that answers a question for a phone on the line before ("Pouvez-vous confirmer votre numéro
# ?" then "Client : Oui, c'est le 0610363310.", from reviewer E's blind round; "What's your number?"
# then "07700900123"): the question ends in a word that names a phone (a "number" needs an owner:
# "your number", not "your order number"), and the number comes early on its own line.
_ANSWER_LEAD = 48  # how far into its line an answer's number may start
_QUESTION_BACK = 64  # how much of the question's line is read
_POLITE = frozenset(["please", "pls", "plz", "svp", "bitte", "favor", "plaît", "plait"])


def _answering(text: str, start: int, words: list[str]) -> list[str]:
    """``words`` with "phone" after them where the number answers a question for one, follows "call me
    back on", or follows a contact's address on its line ("Elsa <elsa90@tulip-flowers.nl> 070-170 68 74",
    "Please call me back on 0850022484": reviewer Q)."""
    if _PHONE_WORDS.intersection(words[-3:]) or _is_reference(words):
        return words
    if (
        _asked_for_phone(text, start)
        or _called_back(text, start)
        or (
            "@" in text[max(0, start - _ADDRESS_BACK) : start]  # first: the pattern's runs read back from each start
            and _AFTER_ADDRESS.search(text, max(0, start - _ADDRESS_BACK), start)
            and _CONTACT_SHAPED.match(text, start)
            and not _DATE_OR_HOURS.match(text, start)
            and not _in_columns(text, start)
        )
    ):
        return [*words, "phone"]
    return words


def _in_columns(text: str, start: int) -> bool:
    """What follows on the line is set out in columns (two blanks or a tab apart): a table's row, whose
    cells are read one by one, not a contact's line. Read up to _COLUMNS_AHEAD characters (a long
    line of addresses and numbers was read whole for each number: quadratic)."""
    end = text.find("\n", start, start + _COLUMNS_AHEAD)
    rest = text[start : min(len(text), start + _COLUMNS_AHEAD) if end == -1 else end]
    return "  " in rest or "\t" in rest or "\\n" in rest


_COLUMNS_AHEAD = 64


_CALL_ME = lazy_compile(r"(?i:\b(?:call|ring|text|reach|phone|whatsapp) me(?: back)?(?: on| at)?)[ \t]*\Z")
_CALL_ME_BACK = 32


def _called_back(text: str, start: int) -> bool:
    """ "call me back on" right before ``start`` (its " me" looked for first: the pattern is tried at each start)."""
    low = max(0, start - _CALL_ME_BACK)
    return " me" in text[low:start].lower() and _CALL_ME.search(text, low, start) is not None


_AFTER_ADDRESS = lazy_compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+>?[ \t]*[,;|/]?[ \t]*\Z")
_ADDRESS_BACK = 96
# After an address, only a number written as contacts write them: a trunk "0" or a bracket first, or
# three groups or more ("jane@example.com 20240115", "bob@corp.com 1700000000" are a date and a time).
_CONTACT_SHAPED = lazy_compile(r"[0(]|[0-9]{1,5}[ .\-][0-9]{1,5}[ .\-][0-9]")
# ... and not a date written with blanks ("2024 03 15", "03 15 2024") or opening hours ("0800 1200").
_DATE_OR_HOURS = lazy_compile(
    r"(?:(?:19|20)[0-9]{2} [01]?[0-9] [0-3]?[0-9]|[0-3]?[0-9] [0-3]?[0-9] (?:19|20)[0-9]{2}"
    r"|[0-2][0-9][0-5][0-9][ \-][0-2][0-9][0-5][0-9])(?![0-9])"
)


def _asked_for_phone(text: str, start: int) -> bool:
    line = text.rfind("\n", max(0, start - _ANSWER_LEAD), start)
    if line == -1:
        return False
    end = line
    while end and text[end - 1] in " \t\r":
        end -= 1
    if not end or text[end - 1] != "?":
        return False
    words = _WORDS.findall(text[max(0, end - _QUESTION_BACK) : end].rsplit("\n", 1)[-1].lower())
    while words and words[-1] in _POLITE:
        words.pop()
    return bool(words) and words[-1] in _PHONE_WORDS and _said_of_phone(words)


# Five pairs opened by a trunk "0" ("01 23 47 17 37", "02.08.52.61.97"): how French numbers are
# written, and no reference's grouping, so a booking or a reservation before one does not make it one.
_FRENCH_PAIRS = lazy_compile(r"0[1-9]([ .\-])[0-9]{2}(?:\1[0-9]{2}){3}")

_CURRENCIES = (
    r"€|\$|£|¥|₹|₽|₩|₺|zł|kč|kr|kz|đồng|руб|chf|eur|usd|gbp|sek|nok|dkk|pln|czk|huf|vnd|aoa|jpy|cny|rmb|inr|brl|"
    r"mxn|zar|aud|cad|nzd|rub|try|kroner|kronor|dollars?|euros?|francs?|pounds?|rupees?|yen|yuan|reais|pesos?|"
    r"pyб|"  # "руб." as the view reads it (Cyrillic р and у look Latin, see normalize.py)
    # Hindi's rupees, as the view writes them (its vowel signs dropped): "कीमत 09349430451 रुपये"
    + "|".join(re.escape(normalise_text(word)) for word in ("रुपये", "रुपए", "रुपया", "रु"))
)
_DECIMAL_START = lazy_compile(r"[0-9]{1,3}\.[0-9]{4,}")
_SPACED_THOUSANDS = lazy_compile(r"[0-9](?: [0-9]{3}){3}")  # "9 876 543 210": an amount more than a phone
_SINGLE_DIGITS = lazy_compile(r"\+?[0-9](?: {1,2}[0-9])+")
_THOUSANDS = lazy_compile(r"[0-9]{1,3}(?:[ .,\u00a0'][0-9]{3})+")  # groups of three, as amounts are written


def _amount_or_count(text: str, start: int, end: int, candidate: str) -> bool:
    """An amount in groups of three ("2 345 678 901 €", "9 876 543 210 CHF"), or a count in thousands after a phone's
    word, round or named by what it counts ("Cep telefonu ithalatı 2022: 12.450.000 adet", "phone sales: 14.200.000
    units": an attacker's round)."""
    if _THOUSANDS.fullmatch(candidate) and (
        CURRENCY_AFTER.match(text, end) or _CURRENCY_BEFORE.search(text, max(0, start - 5), start)
    ):
        return True
    return bool(_DOTTED_THOUSANDS.fullmatch(candidate)) and (
        candidate.endswith("000") or _COUNT_AFTER.match(text, end) is not None
    )


_DOTTED_THOUSANDS = lazy_compile(r"[0-9]{1,3}(?:([.,])[0-9]{3})(?:\1[0-9]{3})+")
_COUNT_AFTER = lazy_compile(
    r"[ \t]*(?:adet|adede|units?|pcs|pieces|stück|stk|unités|unidades|pezzi|sztuk|users|kullanıcı|abone|subscribers)"
    r"(?![^\W\d_])",
    re.IGNORECASE,
)
CURRENCY_AFTER = lazy_compile(rf"[ \u00a0]?(?:{_CURRENCIES})(?![a-z])", re.IGNORECASE)
_CURRENCY_BEFORE = lazy_compile(rf"(?:{_CURRENCIES})[ \u00a0]?$", re.IGNORECASE)


def _uniform(candidate: str) -> bool:
    """One separator style throughout (or none)."""
    return len(set(_SEPARATOR.findall(candidate))) <= 1


# A record's number and its year ("Číslo spisu 735758/2024", "Αρ. υπόθεσης 327994/2024": a case file's, reviewer BX);
# not an area code's "0" before the slash ("Ruf: 0228/2012" is a phone: an attacker's round)
_NUMBER_OF_YEAR = lazy_compile(r"[1-9][0-9]{2,7}/(?:19|20)[0-9]{2}")


def _is_phone(scan: Scan, candidate: str, words: list[str], digits: int | None = None, start: int = -1) -> bool:
    # Five digits, a dash and three: Brazil's postcode ("CEP 01310-100"), no country's phone; a GS1
    # application identifier glued to its element ("GTIN (02)14012345487524": reviewer AZ).
    if (
        not _MIN_DIGITS <= (_digits(candidate) if digits is None else digits) <= _MAX_DIGITS
        or _POSTCODE.fullmatch(candidate)
        or _GS1_ELEMENT.fullmatch(candidate)
        or _CHECKED_CODES.fullmatch(candidate)
        or _NUMBER_OF_YEAR.fullmatch(candidate)
        or (candidate.isdigit() and _another_kinds_number(scan, words, candidate, start))
        or _registry_number(scan.text, start, candidate)
        or (_WALLETS_SET.intersection(words[-2:]) and not _wallet_shaped(scan, candidate, words, start))
    ):
        return False
    # Bare digits are a phone only where the text says so, or where invisible characters kept its
    # groups apart ("07700\u00ad900\u00ad461": a number as a reader sees it, written to slip past).
    named_after = (
        start >= 0
        and _named_after(scan.text, start + len(candidate))
        and _EIGHT_DIGIT_DATE.fullmatch(candidate) is None
        and not _named_by(words[-3:], _REFERENCE_WORDS)
        and _TALLY_WORDS.isdisjoint(words[-4:])
        and not _tallies_after(scan.text, start + len(candidate))
    )
    said = (
        # "No." or "Nr." alone names any number ("Guia TISS nº 2024118734": reviewer AZ), a phone's only after
        # a phone's word ("Mob. No.", "contact no")
        not _NUMBER_ONLY_ABBREVIATIONS.issuperset(_PHONE_WORDS.intersection(words[-3:]))
        or _whose_no(words[-3:])
        or (start >= 0 and candidate.isdigit() and scan.hidden_break(start, start + len(candidate)))
        or _my_number(words)
        or named_after
        or _label_says_phone(scan.text, start, candidate)  # "Contacto familiar (hija): 696493711": an attacker's round
    )
    if candidate.isdigit() and not (said or words[-1:] == ["#"]):
        # a Chinese mobile's eleven digits, written bare as they are in a text about phones; a mobile of a
        # configured region written whole with its trunk "0" ("Driver Marcus Bell (truck 17), 07723922403")
        return _national_the_text_names(scan, candidate, start) or (
            _compact_cue(scan.text, start)
            and _compact_mobile(candidate, scan.phone_regions)
            and not _amount(scan, start, start + len(candidate))
            and not _article_number(candidate)
        )
    if _YEAR_SERIAL.fullmatch(candidate) and all(
        word in _NUMBER_WORDS or word not in _SAID_WORDS for word in words[-3:]
    ):
        return False  # "Numéro de dossier 2024/0482": "numéro" names a file's number too
    if (
        _DATES_APART.fullmatch(candidate)
        or (not said and _timed_reading(scan.text, candidate, start))
        or _inside_identifier(scan.text, start, start + len(candidate))
        or _in_hex_dump(scan.text, start, start + len(candidate))
        or _in_tracking_number(scan.text, start, start + len(candidate))
        or _form_number(scan.text, start, candidate)
        or (
            _SPACED_AREA.match(candidate)
            and not (_PHONE_WORDS.intersection(words[-3:]) or _line_says_phone(scan.text, start))
        )
        or (_THOUSANDS.fullmatch(candidate) is not None and not _AMOUNT_SAYERS.isdisjoint(words[-4:]))
    ):
        # "02/03  02/05": a statement's dates; "PH-2403-77182-LD": inside an identifier; "x = ( 617 ) 284 -
        # 3916": OCR spaces a phone's brackets so when a label names it, and a formula writes them so too
        return False
    if (_my_number(words) and _drawn(candidate)) or (
        not _DRAW_WORDS.isdisjoint(words[-3:]) and _PHONE_WORDS.isdisjoint(words) and _picked(candidate)
    ):
        # "my number is 17 23 31 42 45 49": a lottery's, a bingo's; "Lottery draw results: 04 11 23 35 42 +
        # 07": drawn numbers, not French pairs
        return False
    if not said and (
        _DOTTED_QUAD.fullmatch(candidate)
        or _isbn(candidate)
        or _DECIMALS.fullmatch(candidate)
        or _DATED_RELEASE.fullmatch(candidate)
    ):
        return False  # "VALUES ('22.87.231.0/24', ...)": a network; "('0-306-40615-2', 'Theory of Graphs')": a book
    if _held_valid(scan, candidate, said):
        return True
    if not candidate.startswith(("+", "(+")):
        if (
            _SAID_WORDS.intersection(words[-3:])
            or _my_number(words)
            or named_after
            or _line_says_phone(scan.text, start)
            or _label_says_phone(scan.text, start, candidate)
            or (_called_from(words, candidate) and _RANGE_AFTER.match(scan.text, start + len(candidate)) is None)
        ) and valid_where_said(candidate):
            return True
        if (
            _national_of_the_text(scan, candidate, start)
            or _national_the_text_names(scan, candidate, start)
            or _after_a_name(scan, candidate, start)
        ):
            return True
    if "US" in scan.phone_regions and _nanp_shaped(candidate):
        return True  # "(788) 339-9869": the North American plan's shape, written as one, area code in service or not
    # A number the metadata does not know (a range not yet allocated, a made-up one) is still a
    # phone number when it says so: a grouped "+" number of a length its country dials, or bare
    # digits the text calls a phone ("my number is 7590723412") that one of the regions could dial.
    # Other formatted national numbers stay with the metadata (and _nanp_shaped above): "Dial (555)
    # 123-4567", "000-000-0000".
    if candidate.startswith(("+", "(+")):
        # The trunk prefix some countries write in brackets after their code ("+33 (0)6 ...") is not dialled.
        compact = candidate.replace("(0)", "", 1).translate(_PHONE_PUNCTUATION)
        return _possible_international(compact[1:]) and (said or not candidate[1:].isdigit())
    dialled = _DIALLED_CODE.match(candidate)
    return (
        # where a phone's word says so (archives, lots and pallets number "0086 1234 5678": an attacker's round)
        said and _possible_dialled_out(candidate, dialled["code"])
        if dialled is not None
        else candidate.isdigit() and _said_of_phone(words) and _possible_national(candidate, scan.phone_regions)
    )


# ... or dialled out with "00", its country code a group of its own ("sabit hat 0090 519 145 7903": reviewer BF),
# read as a "+" number is
_DIALLED_CODE = lazy_compile(r"00[ .\-]?(?P<code>[1-9][0-9]{0,2})[ .\-](?=[0-9(])")


def _possible_dialled_out(candidate: str, code: str) -> bool:
    """No trunk "0" after the code but Italy's ("IBAN list: DE89 3704 / 0044 0532 0130 01" is no number)."""
    compact = candidate.translate(_PHONE_PUNCTUATION)  # "00 90 519 ...": the groups' blanks go too
    national = compact[2 + len(code) :]
    return (not national.startswith("0") or code == "39") and _possible_international(compact[2:], len(code))


# A North American number is written in groups of three, then four ("415 555 2671", "(415) 555-2671"),
# or whole, or after a "1": never led by a group of two or five digits, as a dated reference is ("24-0314-
# 0087", "24-074-00318", "24074-00318": a hospital stay's and a specimen's numbers, reviewer AM). Read so,
# such digits are a North American number only where the text says it is a phone.
_FIRST_GROUP = lazy_compile(r"[0-9]+(?=[ .\-/])")
_NANP_REGIONS = frozenset(phonenumbers.COUNTRY_CODE_TO_REGION_CODE[1])


def _nanp_grouped(candidate: str) -> bool:
    first = _FIRST_GROUP.match(candidate)
    return first is None or len(first.group()) not in (2, 5)


def _held_valid(scan: Scan, candidate: str, said: bool) -> bool:
    """A region of the scan's holds ``candidate`` valid; North America's only where it is grouped as one
    there, or the text says it is a phone."""
    found = phone_e164(candidate, scan.phone_regions)
    if found is None:
        return False
    if said or not found.startswith("1") or _nanp_grouped(candidate):
        return True
    if candidate[:2] in _MEXICAN_CITIES and _valid_in(candidate, ("MX",)):
        return True  # "consultorio 55 1234 5678": Mexico City's, as Mexico writes it (an attacker's round)
    return phone_e164(candidate, _outside_nanp(scan.phone_regions)) is not None  # another region's, too


_MEXICAN_CITIES = frozenset({"55", "56", "33", "81"})  # Mexico City, Guadalajara, Monterrey: two-digit areas


@lru_cache(maxsize=64)
def _outside_nanp(regions: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(region for region in regions if region not in _NANP_REGIONS)


# A phone's word in brackets right after the number, as contact lists write it ("Susan Pike 7132948170
# (landline)", "671 28 39 46 (móvil)", "(home phone)": reviewer AA): alone or after one word, never
# before another ("(mobile app)" names a product).
_BRACKET_AFTER = lazy_compile(r"[ \t]*\([ \t]*(?:[^\W\d_]+[ \t]+)?(?P<word>[^\W\d_]+)[ \t]*\)")
_BRACKET_PHONE_WORDS = frozenset(
    {"landline", "mobile", "cell", "cellphone", "phone", "tel", "telephone", "fax", "whatsapp", "mob", "handy",
     "mobil", "festnetz", "fixe", "portable", "móvil", "movil", "fijo", "celular", "cel", "telefone", "telemóvel",
     "cellulare", "fisso", "telefon", "téléphone", "teléfono", "telefono", "gsm", "komórka", "tlf", "mobiel"}
)  # fmt: skip


# What a number before a phone's word in brackets counts when it is no phone: a tally of calls, users,
# sales or sessions by channel ("Sessions last week 612 345 678 (mobile)", "Umsatz 612 345 678 (Handy)
# und 80 000 (Festnetz)"), a device's resolution or battery, a budget; the same words make a call's
# "from" a range's ("Call volume grew from 612 345 678 to 700 000 000"): a fresh attacker's round.
_TALLY_WORDS = frozenset(
    {"sessions", "session", "users", "user", "visitors", "visits", "views", "downloads", "installs", "conversions",
     "messages", "sent", "calls", "handled", "count", "counts", "counted", "step", "steps", "cells", "active",
     "total", "totals", "sum", "revenue", "sales", "budget", "cost", "costs", "price", "tarif", "tariff",
     "balance", "saldo", "amount", "volume", "traffic", "usage", "consumo", "resolution", "display", "screen",
     "battery", "subscribers", "abonnés", "abonnes", "clients", "clienti", "clientes", "customers", "kunden",
     "usuários", "usuarios", "utenti", "nutzer", "umsatz", "ventas", "vendas", "vendite", "presupuesto",
     "orçamento", "bilancio", "schaden", "schadens", "rose", "grew", "fell", "dropped", "units", "score"}
)  # fmt: skip
# A second tally after the first: "(mobile) vs 1 234 567 (desktop)", "(phone) and 1 200 300 (chat)",
# "(mobile) / web 12 345": a number of seven digits at most, which a second phone seldom is ("(mobile),
# 713 294 8165 (landline)" lists two phones).
_TALLIES_AFTER = lazy_compile(
    r"[ \t]*\([^)\n]{1,30}\)[ \t]*(?:vs\.?|/|,|and|et|und|y|e|or)[ \t]+(?:[^\W\d_]+[ \t]+)?"
    r"(?P<number>[0-9](?:[0-9]|[ .,](?=[0-9])){0,11})(?![0-9])",
    re.IGNORECASE,
)


def _tallies_after(text: str, end: int) -> bool:
    found = _TALLIES_AFTER.match(text, end)
    return found is not None and sum(char.isdigit() for char in found["number"]) <= 7


# "from A to B" with B a number: a range ("budget dal 347 123 4567 al 360 000 0000").
_RANGE_AFTER = lazy_compile(r"[ \t]+(?:to|a|al|à|au|bis|até|fino al?)[ \t]+[0-9]", re.IGNORECASE)
# A phone's area code in brackets with blanks inside, as OCR reads one ("( 617 ) 284 - 3916").
_SPACED_AREA = lazy_compile(r"\( |\([0-9]+ \)")


# Words of reviewer AB's round before a number that is an amount or a count when written in thousands
# ("Zalo đã có 75 000 000 người dùng", "מחיר הסלולרי הוא 1 299 000": a fresh attacker's round).
_AMOUNT_SAYERS = frozenset(
    {"zalo", "gọi", "của", "cua", "là", "thoại", "thoai", "sđt", "sdt", "הוא", "היא", "של", *_HEBREW_PHONE_WORDS}
)


def _named_after(text: str, end: int) -> bool:
    found = _BRACKET_AFTER.match(text, end)
    if found is not None:
        return found["word"].lower() in _BRACKET_PHONE_WORDS
    said = _OWNED_AFTER.match(text, end)
    if said is None:
        return False
    word = said["word"].lower()
    if said["then"] is not None:  # "mi número de celular", "my number for the cell"
        return word in _NUMBER_SAID and said["then"].lower() in _BRACKET_PHONE_WORDS
    return word in _NUMBER_SAID or word in _BRACKET_PHONE_WORDS or word in _PHONE_COMPOUNDS


# Whose phone it is, said right after the number ("4155552671 is my cell", "07700900123 - my mobile",
# "4155552671 ist meine Handynummer", "é o meu número", "is my husband's cell"): a copula or a dash, a
# possessive, a phone's word or "number", and there the clause ends. Not what the number was ("Am 20230115
# war mein Handy kaputt"), a label's colon before a sentence ("20240315: my phone fell in the pool"), nor a
# phone's word that goes on ("is my phone's password", "our mobile subscribers"): an attacker's round.
_OWNED_AFTER = lazy_compile(
    r"[ \t]*(?:[-\u2013\u2014,][ \t]*)?(?:(?:is|ist|est|c'est|es|é|è)[ \t]+)?(?:(?:o|a|il|la)[ \t]+)?"
    r"(?:my|our|his|her|their|your|mein|meine|seine|ihre|unsere|mon|ma|son|sa|notre|votre|mi|su|tu|nuestro"
    r"|meu|minha|seu|sua|mio|mia|suo|tuo)[ \t]+(?:[^\W\d_]+'s[ \t]+)?(?:(?:new|old|work|home|private|personal|direct"
    r"|current|neue|alte|aktuelle|nouveau|nouvelle|nuevo|nueva|novo|nova|nuovo)[ \t]+)?(?P<word>[^\W\d_]+)"
    r"(?:[ \t]+(?:de|di|do|da|of|for|für)[ \t]+(?:(?:the|la|el)[ \t]+)?(?P<then>[^\W\d_]+))?"
    r"[ \t]*(?=[.,;:!?)\]]|\r?\n|$)",
    re.IGNORECASE,
)
_NUMBER_SAID = frozenset({"number", "numéro", "numero", "número", "nummer"})
_PHONE_COMPOUNDS = frozenset({"handynummer", "telefonnummer", "mobilnummer", "rufnummer", "telephone", "cellphone"})
# Eight digits that read as a date ("20240315"): no number a phone's word after it makes a phone.
_EIGHT_DIGIT_DATE = lazy_compile(r"(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])")


# A call, then who made it, then "from the" and the number ("Llamada de Lucía Fernández desde el 671 28
# 39 46", "chamada da Ana do 912 345 678", "chiamata di Marco dal 347 123 4567": reviewer AA):
# the word for the call among the six before the number, the preposition right before it. A number in
# groups (bare digits are a phone only where a phone's word says so) that one of the regions where
# phones are said holds valid: "desde el 15 de marzo" and "from 2019 to 2023" have too few digits.
_CALL_WORDS = frozenset(
    {"llamada", "llamadas", "llamó", "llamo", "llamaron", "chamada", "ligação", "ligacao", "ligou", "ligaram",
     "chiamata", "chiamato", "telefonata", "appel", "appelé", "anruf", "angerufen", "rückruf", "call", "called",
     "phoned", "rang"}
)  # fmt: skip
_CALLED_FROM = frozenset({"desde", "de", "del", "al", "do", "da", "dal", "du", "von", "vom", "from"})
_THE = frozenset({"el", "la", "o", "a", "il", "le", "the"})


def _called_from(words: list[str], candidate: str) -> bool:
    """The call's word, then "from (the) (number)" right before the number; not a date written with
    blanks ("del 12 03 2024"), nor numbers drawn ("called from 12 34 56 78 places")."""
    rest = words[:-1] if words[-1:] and words[-1] in _NUMBER_WORDS else words  # "desde el número ..."
    if rest[-1:] and rest[-1] in _THE:
        rest = rest[:-1]  # "desde el"
    if not rest or rest[-1] not in _CALLED_FROM or _CALL_WORDS.isdisjoint(rest[:-1]):
        return False
    if not (_REFERENCE_WORDS.isdisjoint(rest) and _OTHER_NUMBERS.isdisjoint(rest) and _TALLY_WORDS.isdisjoint(rest)):
        return False  # "Llamada de seguimiento del pedido de 612 345 678": the order's number
    return _DATE_OR_HOURS.match(candidate) is None and not _drawn(candidate)


# What else a number after "de" or "do" may be in those languages: a contract's, a policy's, an account's,
# an amount, an identity document's.
_OTHER_NUMBERS = frozenset(
    {"contrato", "póliza", "poliza", "apólice", "apolice", "cuenta", "conta", "recibo", "importe", "valor",
     "nif", "dni", "cif", "nie", "cpf", "cnpj", "vertrag", "konto", "betrag", "contratto", "conto", "importo",
     "contrat", "compte", "montant"}
)  # fmt: skip


def _drawn(candidate: str) -> bool:
    """Numbers drawn or picked, not dialled: groups of one or two digits and no trunk "0", or groups that
    step by one amount ("10 20 30 40 50", "100 200 300")."""
    groups = [int(group) for group in _GROUP_DIGITS.findall(candidate)]
    if len(groups) < 3:
        return False
    if candidate[:1] != "0" and all(group < 100 for group in groups):
        return True
    return len({second - first for first, second in pairwise(groups)}) == 1


# A draw or the numbers it drew, named among the three words before them, in the languages of the regions
# whose numbers are written in pairs (reviewer AB's "Lottery draw results: 04 11 23 35 42 + 07"); not a
# lottery alone ("Lottery winner Marie: 06 12 34 56 78" gives her phone), nor after a phone's word.
_DRAW_WORDS = frozenset(
    {"draw", "drawn", "drawing", "tirage", "tirés", "gagnants", "sorteo", "sorteio", "ziehung", "lottozahlen",
     "gewinnzahlen", "estrazione", "estratti", "bingo", "keno"}
)  # fmt: skip


def _picked(candidate: str) -> bool:
    """Five numbers or more of one or two digits each, each greater than the last: how a draw's numbers
    are listed (a phone's pairs climb so only by chance, and the text must name a draw too)."""
    groups = _GROUP_DIGITS.findall(candidate)
    if len(groups) < 5 or any(len(group) > 2 for group in groups):
        return False
    numbers = [int(group) for group in groups]
    # Lotteries draw from 49 to 69 balls; a French phone's pairs climbing to 78 or 89 ("Gagnant du tirage :
    # 06 12 34 56 78", a winner's number: a fresh attacker's round) are no draw.
    return numbers[-1] <= _MOST_BALLS and all(first < second for first, second in pairwise(numbers))


_MOST_BALLS = 69


_REGISTRIES = ("огрн", "огрнип", "инн", "кпп", "бик", "окпо", "октмо", "снилс")  # (the view reads "ОГРН" as "OГPH")
# A company's registry numbers, named just before (reviewer CG's ordinary lines): Russia's ОГРН, ИНН, КПП, БИК and
# ОКПО ("ОГРН 1864960925120"), as the view writes them; Poland's NIP in its 3-3-2-2 groups, valid by its check digit,
# a word or two after its name ("NIP sprzedawcy 686-107-45-23", the seller's); a price glued to its currency's sign
# ("トヨタ（7203）2844円"); a DOI's suffix ("doi:10.1016/j.cell.2024.11.419": reviewer CF's).
_REGISTRY_BEFORE = lazy_compile(
    r"(?<![^\W\d_])(?:"
    + "|".join(
        sorted(
            {re.escape(normalise_text(form).lower()) for word in _REGISTRIES for form in (word, word.upper())},
            key=len,
            reverse=True,
        )
    )
    + r")[ \t:№#]*$"
)
# ... and a ledger's ("cost center 0812-354": reviewer CF's ordinary lines)
_LEDGER_BEFORE = lazy_compile(
    r"(?i)(?<![^\W\d_])(?:cost[ \t]+cent(?:er|re)|profit[ \t]+cent(?:er|re)|kostenstelle|centre[ \t]+de[ \t]+co[ûu]ts?"
    r"|centro[ \t]+de[ \t]+cost[oe]s?|g/?l[ \t]+account)[ \t]*(?:no\.?|#)?[ \t:#]*$"
)
_NIP_GROUPS = lazy_compile(r"[0-9]{3}-[0-9]{3}-[0-9]{2}-[0-9]{2}")
_NIP_WEIGHTS = (6, 5, 7, 2, 3, 4, 5, 6, 7)
_NIP_BEFORE = lazy_compile(r"(?<![^\W\d_])nip(?![^\W\d_])[^0-9\n]{0,24}$", re.IGNORECASE)
_NOT_A_NIP = lazy_compile(r"(?i)tel|fax|kom|phone|[/;|]")
_GLUED_CURRENCY = "円元圓원₩¥€£$"
_DOI_BEFORE = lazy_compile(r"(?<![0-9])10\.[0-9]{4,9}/[^\s\"'<>]*$")


def _registry_number(text: str, start: int, candidate: str) -> bool:
    if start < 0:
        return False
    end = start + len(candidate)
    if end < len(text) and text[end] in _GLUED_CURRENCY:
        return True
    before = text[max(0, start - 32) : start]
    if _REGISTRY_BEFORE.search(before.lower()) is not None or _LEDGER_BEFORE.search(before) is not None:
        return True
    if start > 0 and not text[start - 1].isspace() and _DOI_BEFORE.search(text, max(0, start - 128), start):
        return True
    if _NIP_GROUPS.fullmatch(candidate) and (named := _NIP_BEFORE.search(before)) is not None:
        if named.group().startswith("NIP") and _NOT_A_NIP.search(named.group()) is None:
            # "NIP spółki 525-628-60-68": its name in capitals, its check digit wrong or not (reviewer CP); not a phone
            # after its own word or another field ("NIP: PL; tel. 022-621-45-67": an attacker's round)
            return True
        digits = [int(char) for char in candidate if char.isdigit()]
        return sum(digit * weight for digit, weight in zip(digits, _NIP_WEIGHTS, strict=False)) % 11 == digits[-1]
    return False


def _inside_identifier(text: str, start: int, end: int) -> bool:
    """Letters and a dash before, a dash and a letter or digit after: "PH-2403-77182-LD" (reviewer V)."""
    return (
        start > 1
        and text[start - 1] == "-"
        and text[start - 2].isalpha()
        and end + 1 < len(text)
        and text[end] == "-"
        and text[end + 1].isalnum()
    )


def _in_hex_dump(text: str, start: int, end: int) -> bool:
    """Inside a run of bytes written in hex, two characters each, one of them a digit and a letter ("Hex dump: 4d 5a
    90 00 03 00 00 00 04 00 00 00 ff ff": reviewer BT; "03 00 00 00 04 00 00 00" is a valid German number)."""
    if start < 0 or not _HEX_PAIR_AT.match(text, start):
        return False
    low = max(text.rfind("\n", max(0, start - _HEX_REACH), start) + 1, start - _HEX_REACH)
    high = text.find("\n", end, end + _HEX_REACH)
    high = end + _HEX_REACH if high == -1 else high
    return any(
        run.start() <= start and run.end() >= end and _HEX_MIXED.search(run.group()) is not None
        for run in _HEX_RUN.finditer(text, low, high)
    )


_HEX_PAIR_AT = lazy_compile(r"[0-9]{2}[ \t]")
_HEX_RUN = lazy_compile(r"(?<![0-9A-Za-z])(?:[0-9a-fA-F]{2}[ \t]+){7,}[0-9a-fA-F]{2}(?![0-9A-Za-z])")
# A byte that mixes a digit and a letter ("4d", "5a"): no word of prose ("Tél. : 01 42 68 53 00 de 09 00": French's
# "de" is hex too; an attacker's round).
_HEX_MIXED = lazy_compile(r"(?<![0-9A-Za-z])(?:[0-9][a-fA-F]|[a-fA-F][0-9])(?![0-9A-Za-z])")
_HEX_REACH = 256


# A UPS tracking number: "1Z", the shipper's six characters, the service's two digits and the parcel's eight,
# printed in groups ("1Z 4E9 81W 03 9218 7342": reviewer BP; its tail reads as Melbourne's "03 9218 7342").
_UPS_TRACKING = lazy_compile(r"(?<![A-Za-z0-9])1Z(?:[ ]?[0-9A-Z]){16}(?![A-Za-z0-9])")


# An insurance form's number: its line's two capitals, then four pairs, its number and its edition ("HO 04 90 05 11",
# "CG 00 01 04 13": ISO's forms, reviewer BQ).
_FORM_PAIRS = lazy_compile(r"[0-9]{2}(?: [0-9]{2}){3}")
_FORM_LINE = lazy_compile(r"(?<![A-Za-z0-9])[A-Z]{2} \Z")


def _form_number(text: str, start: int, candidate: str) -> bool:
    """... on a line that names forms ("Hotline DK 70 12 34 56" is Denmark's: an attacker's round)."""
    if start < 3 or _FORM_PAIRS.fullmatch(candidate) is None or _FORM_LINE.search(text, start - 3, start) is None:
        return False
    line = text[text.rfind("\n", 0, start) + 1 : start].lower()
    return "form" in line or "endorsement" in line or "edition" in line


def _in_tracking_number(text: str, start: int, end: int) -> bool:
    if start < 0:
        return False
    for match in _UPS_TRACKING.finditer(text, max(0, start - 24), min(len(text), end + 2)):
        if match.start() < start and match.end() >= end:
            return True
    return False


# "02/03  02/05", "03.06. 03.06." (a German statement's booking and value dates, each ending in its dot: reviewer BP)
_DATES_APART = lazy_compile(r"[0-9]{2}[/.][0-9]{2}\.?(?:[ \t]+[0-9]{2}[/.][0-9]{2}\.?)+")


# Readings at times of day, listed ("Glucose POC 0730 187, 1130 212, 1630 164 mg/dL": reviewer AM): a
# time of four digits and a value of two or three, with another such pair before or after it.
_TIMED_READING = lazy_compile(r"(?:[01][0-9]|2[0-3])[0-5][0-9][ \t][0-9]{2,3}")
_NEXT_READING = lazy_compile(r"[ \t]*[,;][ \t]*(?:[01][0-9]|2[0-3])[0-5][0-9][ \t][0-9]{2,3}(?![0-9])")
_PREVIOUS_READING = lazy_compile(r"(?<![0-9])(?:[01][0-9]|2[0-3])[0-5][0-9][ \t][0-9]{2,3}[ \t]*[,;][ \t]*$")


def _timed_reading(text: str, candidate: str, start: int) -> bool:
    if start < 0 or _TIMED_READING.fullmatch(candidate) is None:
        return False
    end = start + len(candidate)
    return (
        _NEXT_READING.match(text, end) is not None
        or _PREVIOUS_READING.search(text, max(0, start - 16), start) is not None
    )


# A year and a serial ("2024-000381", "2024/0482"): a file's or a voucher's reference; "Nr. 2024-0817-33"
# too, and a year, its month and a serial ("kenmerk 2024-11-0387", "رقم الطلب 2024-03-1187": reviewer AL).
_YEAR_SERIAL = lazy_compile(
    # (a month between other separators too: "İrsaliye no 2024/12-0331", a waybill's number: reviewer BI)
    r"(?:19|20)[0-9]{2}(?:[\-/][0-9]{3,6}(?:[\-/][0-9]{1,6})?|[\-/](?:0[1-9]|1[0-2])[\-/][0-9]{3,6})"
)


# A North American number written in one of its usual shapes, "(NXX) NXX-XXXX", "NXX-NXX-XXXX",
# "NXX.NXX.XXXX": an area code or an exchange starting with 0 or 1 ("000-000-0000", "(555) 123-4567"),
# an N11 code, and the 555 exchange the films use are not numbers anyone is reached at.
_NANP = lazy_compile(r"\(([2-9][0-9]{2})\) ?([2-9][0-9]{2})-[0-9]{4}|([2-9][0-9]{2})([-.])([2-9][0-9]{2})\4[0-9]{4}")


def _nanp_shaped(candidate: str) -> bool:
    match = _NANP.fullmatch(candidate)
    if match is None:
        return False
    area, exchange = match[1] or match[3], match[2] or match[5]
    return area[1:] != "11" and exchange[1:] != "11" and exchange != "555" and area != "555"


# An IPv4 address or network in a phone's clothes ("22.87.231.0/24"), and an ISBN written with its
# hyphens (four groups, ten digits or 978/979 and thirteen, its check digit right).
_DOTTED_QUAD = lazy_compile(
    r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?:/[0-9]{1,2})?"
    # a release of four parts or more with a lone "0" ("WebView 122.0.6261.129": reviewer AQ)
    r"|(?=[0-9.]*\.0\.)[0-9]{1,4}(?:\.[0-9]{1,5}){3,5}"
)
# A row of a table of decimals ("mean   534.79  6.88  76.71", pandas' describe()): numbers with a
# fraction, set apart by white space, are no phone's groups.
# A build's or an image's release named by its date ("image 20241125.1.0": reviewer BG), not a number's groups
_DATED_RELEASE = lazy_compile(r"(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])(?:\.[0-9]{1,4}){1,3}")
_DECIMALS = lazy_compile(r"[0-9]+\.[0-9]+(?:[ \t]+[0-9]+(?:\.[0-9]+)?)+")
_ISBN_GROUPS = lazy_compile(r"(?:97[89]-)?[0-9]{1,5}-[0-9]{1,7}-[0-9]{1,7}-[0-9X]")


def _isbn(candidate: str) -> bool:
    if not _ISBN_GROUPS.fullmatch(candidate):
        return False
    digits = candidate.replace("-", "")
    if len(digits) == 10:
        return isbn10_valid(digits)
    return len(digits) == 13 and digits[-1] != "X" and gs1_valid(digits)


# Words that call the number after them a phone number (a "number" needs one of these too, or an
# owner: "my number is", "contact no.").
_CALLING_WORDS = _PHONE_WORDS - {"number", "nr", "no", "contact", "reach", "text", "signal", "ring"}
_OWNERS = frozenset(["my", "your", "his", "her", "our", "their", "contact", "phone", "mobile", "cell", "reach"])


def _said_of_phone(words: list[str]) -> bool:
    """The last words name a phone, not only a number ("my number is", "call", "mobile:")."""
    recent = words[-3:]
    if _CALLING_WORDS.intersection(recent):
        return True
    return any(
        word in ("number", "no", "nr") and index and recent[index - 1] in _OWNERS for index, word in enumerate(recent)
    )


def _possible_international(digits: str, code_size: int | None = None) -> bool:
    """A country code (of ``code_size`` digits, where the text sets it apart) followed by a national number of
    a length that country dials."""
    for size in (1, 2, 3) if code_size is None else (code_size,):
        codes = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(int(digits[:size]))
        if codes:
            national = digits[size:]
            return any(
                len(national) in region_info(code).lengths
                for code in codes
                if code != "001" and code in phonenumbers.SUPPORTED_REGIONS
            )
    return False


def _possible_national(compact: str, regions: tuple[str, ...]) -> bool:
    """A national number of a length and shape one of ``regions`` dials (its trunk prefix taken off)."""
    for region in _regions(regions):
        national = compact
        if region.country_code == 1 and len(compact) == 11 and compact.startswith("1"):
            national = compact[1:]
        elif region.trunk and compact.startswith(region.trunk):
            national = compact[len(region.trunk) :]
        if _plausible(region, national):
            return True
    return False


# What a phone candidate holds besides digits and "+" (the candidate regex admits nothing else).
_PHONE_PUNCTUATION = str.maketrans("", "", " ().-/\t")


# The other countries' international call prefixes, written as a group of their own ("001 82 10-4853-
# 1365" from Korea, "009 57 321 1359618" from Colombia or Nigeria, "0011 61 ..." from Australia, "011
# 44 ..." from North America, "810 49 ..." from Russia: reviewer Q).
_DIAL_OUT = lazy_compile(r"(?P<prefix>0011|0014|0015|001|002|005|006|007|008|009|011|810)[ .\-]")


def _dialled_out(candidate: str, compact: str) -> str | None:
    """The E.164 digits of a number dialled out of its country: "00", or another prefix of its own."""
    if compact.startswith("00"):
        found = _international(compact[2:], "(0)" in candidate)
        if found is not None:
            return found
    dial_out = _DIAL_OUT.match(candidate)
    return _international(compact[len(dial_out["prefix"]) :], False) if dial_out is not None else None


@lru_cache(maxsize=65536)
def phone_e164(candidate: str, regions: tuple[str, ...]) -> str | None:
    """The E.164 digits of ``candidate`` when it is a valid number, else None.

    "+..." and "00..." numbers are read in any region; a national number is tried in each of
    ``regions`` in order (the first where it is valid decides, so one spelling always gives one
    token). Validation uses libphonenumber's metadata (the phonenumbers package) compiled into one
    pattern per region: a number is valid when some number type's pattern matches it whole, as
    phonenumbers.is_valid_number decides, without its parser. Regions whose national prefix takes
    rules (carrier codes, transforms) go through phonenumbers.parse.
    """
    compact = candidate.translate(_PHONE_PUNCTUATION)
    if compact.startswith("+"):
        return _international(compact[1:], "(0)" in candidate)
    found = _dialled_out(candidate, compact)
    if found is not None or compact.startswith("00"):
        return found
    siblings = _plan_siblings(regions) if _PLAN_SHAPE.fullmatch(candidate) else ()
    for region in _regions(regions) + siblings:
        code = region.code
        national = compact
        if region.country_code == 1:
            if len(compact) == 11 and compact.startswith("1"):
                national = compact[1:]
        elif region.trunk and compact.startswith(region.trunk):
            national = compact[len(region.trunk) :]
        elif region.trunk_required:
            continue
        if not _plausible(region, national):
            continue
        # Without its trunk prefix a national number is a mobile, or a toll-free number of ten digits or
        # more, which is dialled so ("For queries call 1800 97 8520": India's, reviewer V).
        bare = (
            national == compact
            and region.trunk is not None
            and region.country_code != 1
            and not (len(national) >= _TOLL_FREE_DIGITS and region.toll_free and region.toll_free.fullmatch(national))
        )
        if not region.simple:
            found = _parse(candidate, code, mobile_only=bare)
        elif _valid(region, national, mobile_only=bare):
            found = f"{region.country_code}{national}"
        else:
            found = None
        if found is not None:
            return found
    return None


# Where a national number the text calls a phone ("Kontakt: 777 418 226", "Móvil: 622 418 903",
# "연락처: 010-4821-7736") is also read when the configured regions do not know it (reviewer M's
# blind round: Czech, Spanish, Brazilian, Korean, Chinese, Polish, Nordic numbers after their
# labels). The label says what the number is; the metadata of one of these regions must still hold
# it valid, its trunk prefix written or not.
_SAID_REGIONS = ("ES", "IT", "PT", "BR", "MX", "AR", "CO", "CL", "NL", "BE", "CH", "AT", "PL", "CZ", "SK", "HU",
                 "RO", "SE", "NO", "DK", "FI", "IE", "RU", "UA", "TR", "GR", "IL", "AE", "SA", "EG", "ZA", "NG",
                 "KE", "CN", "HK", "TW", "JP", "KR", "SG", "MY", "ID", "PH", "TH", "VN", "AU", "NZ", "PK",
                 # (mobile money's markets: reviewer CL)
                 "ET", "GH", "TZ", "UG", "RW", "PE", "BD", "NP", "SN", "CI", "MA", "CM")  # fmt: skip


# The words that name a phone and nothing else ("number", "no", "nr", "t", "text" name other things).
_SAID_WORDS = (_PHONE_WORDS - {"number", "nr", "no", "t", "m", "text", "signal", "ring", "reach", "call", "dial"}) | {
    "kontakt", "contacto", "móvil", "movil", "fijo", "komórka", "cep", "telemóvel", "telefone", "kontaktowy",
    "puhelin", "matkapuhelin", "mobiltelefon", "gsm", "телефон", "тел", "мобильный", "手机", "电话", "联系电话",
    "座机", "연락처", "전화", "휴대폰", "電話", "携帯",
    # "called from" in Portuguese and Spanish ("ligou de (11) 99022-3803", reviewer P); "call me" in
    # other languages ("llámenme al (2) 2103 6194", reviewer Q)
    "ligou", "ligue", "ligar", "llamó", "llamo", "llame", "llamar", "llámenme", "llámame", "llamenme", "llamame",
    "liguem", "ligue-me", "appelez-moi", "rappelez-moi", "chiamami", "richiamami", "zadzwoń", "zadzwon",
    "numerem", "الاتصال", "الرقم", "cellulare", "sđt", "sdt", "thoại", "thoai", "gọi", "zalo", *_HEBREW_PHONE_WORDS,
    # a callback asked for, in an insurer's claims notes (reviewer BB): "pediu retorno no (41) 9 8151-5972",
    # "chiede di essere richiamato al 338-5482513", "ønsker opkald på 69637021", "ber om å bli ringt opp på 48 33
    # 74 88", "syn volá z 259 954 997", "콜백 요청: 01060368797", "수신 번호 01023483301"
    "retorno", "richiamato", "richiamata", "richiamare", "opkald", "ringt", "volá", "volal", "volala", "콜백", "수신",
}  # fmt: skip
# "My number is" in other languages ("mi número nuevo es 612 58 46 18": reviewer R): a possessive, maybe
# a word ("nuevo", "new"), a word for a number, maybe a verb.
_MY = frozenset({"my", "mi", "meu", "minha", "mon", "ma", "mein", "meine", "mio", "mój", "moj", "moje", "benim"})
_MY_NUMBER = frozenset({"number", "número", "numero", "numéro", "nummer", "numer", "numaram"})


# What may stand between "my" and "number" and after it: "my new number is", "mi número nuevo es", "il
# mio numero è" (not "my student number", "mój numer klienta", a customer's number).
_MY_ADJECTIVES = frozenset(
    {"new", "old", "mobile", "cell", "phone", "home", "work", "personal", "private", "nuevo", "novo", "nouveau",
     "neue", "neuer", "nuovo", "nowy"}
)  # fmt: skip
_MY_VERBS = frozenset({"is", "es", "é", "est", "ist", "è", "to", "jest", "c", "nuevo", "novo", "now", "agora", "ahora"})


# "My number is" where the words are not ones _WORDS reads (Cyrillic, Indic, CJK, Urdu's letters), or where the
# number comes before its owner ("nomor saya", "số của tôi", "شماره من"), as the lower-cased view writes them,
# right before the number (reviewer BS: "मेरा नंबर है 8367370952").
_MY_NUMBER_PHRASES: tuple[str, ...] = (
    "мой номер", "мой новый номер", "мой номер телефона", "мой телефон", "мій номер", "мій номер телефону",
    "мой мобильный", "мій мобільний",
    "मेरा नंबर", "मेरा नंबर है", "मेरा मोबाइल नंबर", "मेरा मोबाइल नंबर है", "मेरा फोन नंबर", "मेरा फ़ोन नंबर है",
    "मेरा फोन नंबर है", "मेरा नया नंबर", "मेरा नया नंबर है",
    "میرا نمبر", "میرا نمبر ہے", "میرا موبائل نمبر", "میرا موبائل نمبر ہے", "میرا فون نمبر", "میرا فون نمبر ہے",
    "আমার নম্বর", "আমার নাম্বার", "আমার ফোন নম্বর", "আমার মোবাইল নম্বর",
    "我的号码", "我的号码是", "我的电话", "我的电话是", "我的电话号码", "我的电话号码是", "我的手机", "我的手机是",
    "我的新号码是", "我的號碼是", "我的電話是", "我的電話號碼是",
    "私の番号は", "私の電話番号は", "私の携帯番号は", "僕の番号は", "私の携帯は",
    "제 번호는", "내 번호는", "제 전화번호는", "내 전화번호는", "제 핸드폰 번호는", "제 휴대폰 번호는",
    "nomor saya", "nomor hp saya", "nomor telepon saya", "nomor saya adalah", "no hp saya", "nombor saya",
    "nombor telefon saya", "số của tôi", "số của tôi là", "số tôi là", "số điện thoại của tôi là",
    "شماره من", "شماره من است", "شماره تلفن من", "شماره موبایل من", "رقم هاتفي", "رقم جوالي",
    "o meu número é", "το τηλέφωνό μου", "ο αριθμός μου είναι", "το κινητό μου",
    "mijn nummer is", "mijn nummer", "mitt nummer är", "mitt nummer er", "mit nummer er", "moje číslo je",
    "moje číslo", "numărul meu este", "numărul meu", "benim numaram",
    # Turkish's mobile's number, whose ever it is ("Müşavirin cep numarası: sıfır beş beş iki, ...": reviewer CP;
    # "cep" alone is a pocket, "numarası" any number's)
    # (not "cep telefonu" alone, the device's name: "Cep telefonu ithalatı 2022: 12.450.000 adet", an attacker's round)
    "cep numarası", "cep numarasi", "cep numaram", "cep telefonum", "cep telefonu numarası", "cep telefonu numarasi",
)  # fmt: skip
# ... and capitalised, as a sentence starts (the view reads a Cyrillic capital that looks Latin as Latin: "Мой" is
# "Moй" to it, lower-cased "moй", where "мой" stays "мoй": a README check's round)
_MY_NUMBER_PHRASES = viewed_words(*(form for phrase in _MY_NUMBER_PHRASES for form in (phrase, phrase.capitalize())))
# (Not a possessive glued to its noun alone, "numaram", "számom": "Hesap numaram: 12345678" is an account's.)
# Whose or which phone line: a country's, a place's or a kind of phone's.
_LINES_OF = (
    "work", "home", "office", "direct", "private", "personal", "business", "mobile", "cell", "phone", "landline",
    "fixed", "main", "second", "other", "new", "old", "local", "dutch", "german", "french", "spanish", "italian",
    "uk", "us", "british", "american", "swiss", "belgian", "irish", "polish", "indian", "australian", "canadian",
    "mexican", "brazilian", "portuguese", "austrian", "swedish", "danish", "norwegian", "finnish", "japanese",
    "chinese", "korean", "turkish", "greek", "israeli", "singapore", "hk", "nl", "de", "fr", "es", "it",
)  # fmt: skip
_MY_NUMBER_SAID = lazy_compile(
    # "my Dutch line", "my work line" (reviewer BT); not "my bottom line", "my credit line", "my time line", "my line
    # 4823" of a log (an attacker's round)
    r"(?:^|(?<=[^\w]))(?:my[ \t]+(?:"
    + "|".join(_LINES_OF)
    + r")[ \t]+line(?:[ \t]+is)?|"
    + "|".join(
        re.escape(phrase).replace(r"\ ", r"[ \t]+") for phrase in sorted(_MY_NUMBER_PHRASES, key=len, reverse=True)
    )
    + r")[ \t]*[:：=]?[ \t]*$"
)


def _my_number(words: list[str]) -> bool:
    """The last words say whose number follows: "my number (is)", "mi número nuevo es"."""
    tail = words[-5:]
    for at, word in enumerate(tail):
        if word not in _MY:
            continue
        rest = tail[at + 1 :]
        if rest[:1] and rest[0] in _MY_ADJECTIVES:
            rest = rest[1:]
        if rest[:1] and rest[0] in _MY_NUMBER and _MY_VERBS.issuperset(rest[1:]):
            return True
    return False


def _another_kinds_number(scan: Scan, words: list[str], candidate: str, start: int) -> bool:
    """Bare digits that only a word for any number calls a phone ("my number", "мой номер", "nomor saya"), and that
    are another kind's: a bracket right after names what they are in a word or three ("мой номер 7707083893 (ИНН)",
    "my number is 20231456 (student id)"), or they are a date's eight digits ("我的号码是 20240611": an attacker's
    round). A phone's own word ("mobile", "tel") still says phone."""
    said = _PHONE_WORDS.intersection(words[-3:])
    if not said or not said <= _ANY_NUMBERS_WORDS:
        return False
    if start >= 0:
        bracket = _QUALIFIED_AFTER.match(scan.text, start + len(candidate))
        if bracket is not None and (_BRACKET_PHONE_WORDS | _PHONE_KINDS).isdisjoint(bracket["words"].lower().split()):
            return True
    return _EIGHT_DIGIT_DATE.fullmatch(candidate) is not None


# Which of someone's phones a bracket after the number says it is ("(home)", "(work)").
_PHONE_KINDS = frozenset(
    {"home", "work", "office", "personal", "private", "direct", "day", "daytime", "evening", "night", "main",
     "primary", "alt", "alternate", "backup", "emergency", "business", "new", "old", "casa", "trabajo", "maison",
     "bureau", "privat", "büro", "arbeit", "dienstlich", "ufficio", "escritório", "thuis", "werk"}
)  # fmt: skip
_ANY_NUMBERS_WORDS = frozenset(
    {"number", "numéro", "numero", "número", "nummer", "numer", "numaram", "no", "nr", "num"}
)
_QUALIFIED_AFTER = lazy_compile(r"[ \t]*\([ \t]*(?P<words>[^\W\d_][^\s()]*(?:[ \t]+[^\s()]+){0,2})[ \t]*\)")


# A mobile subscriber's number by the name networks and APIs give it, a field's or a column's
# ('"msisdn":"254774943714"', "msisdn=+233241234567": reviewer CL): always the whole international number, its "+"
# often left out; not a count of them ("msisdn_count=12845561").
_MSISDN = lazy_compile(
    # (a field named for it, a tag, a label with a blank only: "customer_msisdn=", "<msisdn>", "MSISDN 2547...",
    # "msisdnNumber:": an attacker's round)
    r"(?<![a-z0-9.])msisdn(?:_?(?:number|no|nr))?(?:[\"']?[ \t]*(?:[:=]|->)|>|[ \t])[ \t]*[\"']?"
    r"(?P<value>\+?[0-9]{10,15})(?![0-9])",
    re.IGNORECASE,
)


def find_msisdns(scan: Scan) -> Iterator[Span]:
    for match in _MSISDN.finditer(scan.text):
        value = match["value"]
        if value.startswith("+") or _international_unmarked(value):
            yield match.span("value")


def valid_where_said(candidate: str) -> bool:
    return _valid_in(candidate, _SAID_REGIONS) or _international_unmarked(candidate)


def _international_unmarked(candidate: str) -> bool:
    """An international number written without its "+" (as mobile money's APIs and logs write them:
    "M-Pesa 254759867454", "callback to 2348185941468": reviewer CL), valid with it; not North America's (a
    "1" then ten digits is any number of eleven digits)."""
    compact = candidate.translate(_PHONE_PUNCTUATION)
    if not (compact.isdigit() and _UNMARKED_DIGITS[0] <= len(compact) <= _UNMARKED_DIGITS[1]):
        return False
    return compact[0] not in "01" and phone_e164("+" + compact, ()) is not None


_UNMARKED_DIGITS = (12, 13)  # (not eleven: "HubSpot contact 79213456780" is a record's id: an attacker's round)


def _valid_in(candidate: str, codes: tuple[str, ...], trunk_written: bool = False) -> bool:
    """A national number one of ``codes`` holds valid, its trunk prefix written or not (``trunk_written``:
    written, where the region's numbers are written with it)."""
    if not codes or " / " in candidate:
        return False  # "655 20 41 87 / 91 412 77 30": two numbers, each read alone (_consecutive)
    compact = candidate.translate(_PHONE_PUNCTUATION)
    if not compact.isdigit():
        return False
    for region in _regions(codes):
        nationals = [] if trunk_written and region.trunk_required else [compact]
        if region.trunk and compact.startswith(region.trunk):
            nationals.insert(0, compact[len(region.trunk) :])
        for national in nationals:
            if _plausible(region, national) and region.valid is not None and region.valid.fullmatch(national):
                return True
    return False


def _national_of_the_text(scan: Scan, candidate: str, start: int) -> bool:
    """A national number of a country the text names: by its script (written with separators and its
    trunk prefix), or by a country's code leading its line or in a cell of its row (bare digits too,
    when they start with a trunk "0": "Budi,ID,0812572452")."""
    lead = _with_trunk(scan.text, start)  # "телефон 8 (495) 318-42-76": the trunk written apart (reviewer AP)
    if lead < start:
        candidate, start = scan.text[lead:start] + candidate, lead
    if _named_in_script(scan.text, start):
        return False
    if candidate.isdigit():
        return candidate.startswith("0") and _valid_in(candidate, _line_country(scan, start))
    shaped = _SCRIPT_SHAPED.fullmatch(candidate) is not None
    return (
        (shaped and _valid_in(candidate, _script_regions(scan), trunk_written=True))
        or _valid_in(candidate, _line_country(scan, start))
        or (shaped and _mail_national(scan.text, candidate, start, _mail_country(scan, start)))
    )


# When a mobile written whole, with no word for a phone, is one: after a name and a comma, a semicolon or a
# closing bracket ("Driver Marcus Bell (truck 17, reg KX71 RHE), 07723922403"); after "or", "alt", "au"
# ("M. Lambert au 0640099398.") where it ends its clause; before "or email ..." ("Use 07490737455 or his
# personal email"). Never in a list of such numbers, never after a label's colon or any other word: then it
# is that word's number ("Matricule : 0612345678", "Orders 07700900123 and 07700900124", "Retour au
# 0612345678 entrepôt", "Policy 07723922403": two attackers' rounds), and alone it is anything.
_COMPACT_AFTER_MARK = lazy_compile(r"[,;)][ \t]*$")
_NAME_PAIR = lazy_compile(r"(?<![^\W\d_])[A-Z][a-z]+[ \t]+[A-Z][a-z]+(?![^\W\d_])")
_COMPACT_AFTER_WORD = lazy_compile(r"(?<![^\W\d_])(?:or|alt|au|ou|oder)[ \t]+$", re.IGNORECASE)
_CLAUSE_ENDS = lazy_compile(r"[ \t]*(?:$|[.,;!?)\]\r\n])")
_COMPACT_BEFORE_WORD = lazy_compile(
    r"[ \t]+or[ \t]+(?:(?:his|her|their|my|the)[ \t]+(?:personal[ \t]+|work[ \t]+|private[ \t]+)?)?"
    r"(?:e-?mail|call|text|whatsapp|ring|message)(?![^\W\d_])",
    re.IGNORECASE,
)
# A person's name right before the number, the number ending its clause: "Thomas Girard 0758065964." (a list of
# contacts, each its name and its mobile: reviewer BD).
_NAME_RIGHT_BEFORE = lazy_compile(r"(?:^|[,;:(\n]|[ \t]-)[ \t]*[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){1,2}[ \t]+$")
_PHONES_LISTED = lazy_compile(r"(?<![\w+])\+[1-9][0-9]{0,2}[ .\-(]*[0-9]")


def _a_list_of_phones(text: str, start: int) -> bool:
    """The line before ``start`` lists phones: an international number before it ("Product Code 0612345678.",
    "Part numbers: Brake Pad 07700900123.", "Crop rotation: Field North 0612345678." have none: two attackers'
    rounds on BD's reader; words for numbers or contacts name parts, seats and relays as often)."""
    low = max(0, start - 300)
    line = text[max(text.rfind("\n", low, start) + 1, low) : start]
    return _PHONES_LISTED.search(line) is not None


_ANOTHER_RUN = lazy_compile(r"(?<![0-9\-])0[0-9]{8,}(?![0-9])")  # another number written so: a list of them


def _compact_cue(text: str, start: int) -> bool:
    end = start
    while end < len(text) and text[end].isdigit():
        end += 1
    before = text[max(0, start - 48) : start]
    if _ANOTHER_RUN.search(before):
        return False  # one of a list of numbers
    if _COMPACT_BEFORE_WORD.match(text, end):
        return True
    if _COMPACT_AFTER_WORD.search(before):
        return _CLAUSE_ENDS.match(text, end) is not None
    if _NAME_RIGHT_BEFORE.search(before) and _CLAUSE_ENDS.match(text, end) and _a_list_of_phones(text, start):
        return True  # "...; Camille Durand +33 (0)7 41 53 31 18; Thomas Girard 0758065964." (reviewer BD)
    return bool(_COMPACT_AFTER_MARK.search(before) and _NAME_PAIR.search(before))


def _article_number(digits: str) -> bool:
    """A product's number: a UPC-A's or an EAN-13's check digit holds, or an ISBN-10's ("UPC 016000275287",
    "0747532699": an attacker's round), which a phone's digits hold one time in ten or eleven."""
    if len(digits) in (12, 13):
        return gs1_valid(digits)
    return len(digits) == 10 and isbn10_valid(digits)


def _amount(scan: Scan, start: int, end: int) -> bool:
    """A currency or a count's unit written beside the number ("कीमत 09349430451 रुपये", "0612345678 EUR")."""
    text = scan.text
    return bool(
        start < 0
        or CURRENCY_AFTER.match(text, end)
        or _CURRENCY_BEFORE.search(text, max(0, start - 8), start)
        or COUNTED.match(text, end)
        or _PRICED.search(text, max(0, start - 24), start)
    )


# A price's or a sum's word just before ("Price check: 016200045678": an attacker's round).
_PRICED = lazy_compile(
    r"(?i)(?<![^\W\d_])(?:price|prices|prix|preis|precio|preço|prezzo|cost|amount|total|betrag|montant|importe|"
    r"kosten|bedrag|kwota|cena)(?![^\W\d_])[^0-9\n]{0,12}$"
)


@lru_cache(maxsize=4096)
def _compact_mobile(candidate: str, regions: tuple[str, ...]) -> bool:
    """A mobile number of one of ``regions`` written as one run of digits with its trunk prefix "0" and
    nothing else ("07723922403", "01712345678", "0612345678": reviewer BB's dispatchers' and recruiters'
    notes, with no word for a phone before them). Ten digits or more, a mobile's whole national length,
    as libphonenumber's metadata holds it valid and of the mobile type; never a fixed line, whose numbers
    an order's or a file's number may share (references are refused before this: _is_reference)."""
    if len(candidate) < 10 or not candidate.startswith("0") or candidate.startswith("00"):
        return False
    for code in regions:
        meta = phonenumbers.PhoneMetadata.metadata_for_region(code)
        if meta is None or meta.national_prefix != "0":
            continue
        try:
            number = phonenumbers.parse(candidate, code)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number_for_region(number, code) and phonenumbers.number_type(number) == (
            phonenumbers.PhoneNumberType.MOBILE
        ):
            return True
    return False


def _national_the_text_names(scan: Scan, candidate: str, start: int) -> bool:
    """A national number of a country the text itself names, right after a word that introduces a phone,
    in a text about phones (reviewer AV: a bank's and a telecom's notes in their customers' languages,
    "Cliente ... llama desde 650 773 803 ... ES10 2038 ...", "Przeniesienie numeru 550 151 923",
    "携号转网：用户18497278985申请转入").

    The countries: of a "+" number, an IBAN, an address's country domain anywhere in the text, or its
    language (a few words or letters only it writes); not the configured regions, which are read
    already. The number must be written with separators (or, in Chinese, be a mobile's eleven digits
    after a phone's or a porting's word) and be valid in one of those countries. The last word before
    it, prepositions and articles left out, is a phone's word or a call's verb ("llama desde", "dzwonił
    z", "Contato:"); a word for "number" only after "my", "old", "new" or a porting's word ("Stary numer:",
    "Przeniesienie numeru"); any word right after a porting's ("Portabilidad entrante del"). Not a
    count, an order's, an invoice's or a lottery's number after a word for calls, SIMs, operators or
    "number" (an attacker's round: "Llamadas recibidas: 912 345 678", "Pedido número 612 345 678")."""
    if start < 0:
        return False
    codes = _text_regions(scan)
    if not codes:
        return False
    if candidate.isdigit():
        before = scan.lower[max(0, start - _CN_BACK) : start]
        after = scan.text[start + len(candidate) : start + len(candidate) + 2].lstrip()
        return (
            "CN" in codes
            and _CN_MOBILE.fullmatch(candidate) is not None
            and any(word in before for word in _CN_PHONE_WORDS)
            and not after.startswith(_CN_UNITS)
            and not _named_in_script(scan.text, start)
            and _valid_in(candidate, ("CN",))
        )
    if (
        _SCRIPT_SHAPED.fullmatch(candidate) is None
        or _SPACED_DATE.fullmatch(candidate)
        or _POSTCODE.fullmatch(candidate)
        or _named_in_script(scan.text, start)
        or CURRENCY_AFTER.match(scan.text, start + len(candidate))
        or _CURRENCY_BEFORE.search(scan.text, max(0, start - 8), start)
    ):
        return False
    lower = scan.lower
    sentence = max(lower.rfind(stop, max(0, start - _SENTENCE_BACK), start) for stop in _SENTENCE_STOPS) + 1
    clause = lower[max(sentence, start - _SENTENCE_BACK) : start]
    words = [word for word in _WORDS.findall(clause) if word not in _LINKS]
    if not words:
        return False
    if _COPULA_AFTER.match(lower, start + len(candidate)):
        return False  # "Contato: 3003 4000 é o ramal interno": what the number is follows (an attacker's round)
    last, before = words[-1], words[-2] if len(words) >= 2 else ""
    named = (
        (last in _INTRODUCES_A_PHONE and last not in _NUMBER_ABBREVIATIONS)
        or (last in _NUMBER_ONLY and before in _NUMBER_QUALIFIERS)
        or (last in _NUMBER_ONLY and _AFTER_AN_EMAIL.search(lower, max(0, start - _SENTENCE_BACK - 80), start))
        # (a porting's word anywhere in the clause: "Portabilidade aberta para o número (61) 98713-1482": reviewer CU;
        # not a file's or a request's number, "Portabilidad: el folio número 712 345 678": an attacker's round)
        or (last in _NUMBER_ONLY and not _PORTING.isdisjoint(words) and before not in _PORTING_FILES)
        or before in _PORTING
        or (last in _LANDLINE and before in _LANDLINE_OF)
    )
    past = start + len(candidate)
    return named and _valid_in(candidate, codes) and _NUMBER_NAMED_AFTER.match(scan.text, past) is None


# A porting's file, request or order, whose number follows its word
_PORTING_FILES = frozenset(
    {"folio", "protocolo", "zgłoszenie", "zgloszenie", "zgłoszenia", "pedido", "orden", "order", "ticket", "solicitud",
     "solicitação", "solicitacao", "chamado", "caso", "expediente", "wniosek", "wniosku", "sprawa", "sprawy"}
)  # fmt: skip
# What the number is, said after it ("número 612 345 678 (nº de pedido)", "Nr. 0176 2345 678 ist die Auftragsnummer",
# "numer 600 123 456 to numer zamówienia": an attacker's round): no phone's.
_NUMBER_NAMED_AFTER = lazy_compile(
    r"[ \t]*(?:\(|—|-|,|is|ist|es|è|é|to|jest)?[^.!?\n]{0,24}?(?:[^\W\d_]*(?:nummer|numret)"
    r"|(?<![^\W\d_])(?:number|n[úu]mero|numéro|numer|nº|n°|pedido|zam[óo]wieni[^\W\d_]*|rechnung|factura|fattura|"
    r"invoice|order|ordine|sap|codice cliente)(?![^\W\d_]))",
    re.IGNORECASE,
)


# The words that introduce a phone: _SAID_WORDS (a phone's nouns and a call's verbs in many languages), the
# English phone nouns, and the calls' verbs the languages _LANGUAGES reads say (not "llamado", "llamadas",
# "operador", "SIM": an announcement, a count, a carrier, a card's batch).
_INTRODUCES_A_PHONE = _SAID_WORDS | {
    "phone", "tel", "telephone", "mobile", "mob", "cell", "cellphone", "fax", "whatsapp", "landline", "hotline",
    "callerid", "llama", "llaman", "dzwonił", "dzwoniła", "dzwonili", "dzwoni", "zadzwonił", "zadzwoniła",
    "oddzwonić", "oddzwonic", "contato", "chiamato", "chiamami", "richiamare", "chiamata", "llamada", "chamada",
    "ligação",
    # Polish's callback as a noun ("prosi o oddzwonienie na 604 561 739": reviewer BK)
    "oddzwonienie", "oddzwonienia", "oddzwonieniu",
}  # fmt: skip
# A landline in Italian, Spanish and Portuguese, after a number's or a telephone's word ("Numero fisso collegato 349 420
# 1381": reviewer CR; not a fixed fee's, rate's or price's: "Canone fisso", "Tasso fisso", an attacker's round).
_LANDLINE = frozenset({"fisso", "fijo", "fixo"})
_LANDLINE_OF = frozenset({"numero", "número", "telefono", "teléfono", "telefone", "tel", "linea", "línea", "linha"})
# A number's porting to another carrier: the number after it is a phone's.
_PORTING = frozenset({"portabilidad", "portabilidade", "przeniesienie", "przeniesienia", "portowanie", "portability"})
_NUMBER_QUALIFIERS = _MY | _MY_ADJECTIVES | _PORTING | {"stary", "nowy", "antiguo", "viejo", "velho", "vecchio"}
# A Chinese phone's or porting's word among the characters right before the number (no blanks between words).
_CN_PHONE_WORDS = ("手机", "电话", "联系", "来电", "來電", "携号转网", "致电", "拨打")
_CN_BACK = 8
# A unit or a range after the number: an amount, a count, a duration, a block of numbers ("15000000000 元",
# "13600000000 次", "15912345678 毫秒", "13800000000 至 ...": an attacker's round).
_CN_UNITS = (
    "元", "次", "部", "个", "人", "条", "分", "秒", "毫秒", "亿", "万", "台", "件", "张", "笔", "至", "到", "~", "-"
)  # fmt: skip
_COPULA_AFTER = lazy_compile(r"[ \t]+(?:é|es|is|ist|est|jest|è|era|was)(?![^\W\d_])")
# "no", "nr" ("№" reads "No"): any reference's number ("Заказ № 8 (495) 318-42-76" is an order's).
_NUMBER_ABBREVIATIONS = frozenset({"no", "nr", "n", "nº", "num"})


# Prepositions and articles between a phone's word and its number ("desde", "del", "z", "na").
_LINKS = frozenset(
    {"de", "del", "da", "do", "das", "dos", "desde", "al", "a", "para", "pra", "o", "el", "la", "los", "las", "il",
     "lo", "di", "della", "dello", "dal", "dalla", "alla", "z", "ze", "na", "od", "pod", "w", "we", "le", "les", "du",
     "des", "au", "aux", "van", "het", "een", "naar", "bij", "dari", "ke", "untuk", "dengan", "from", "to", "on",
     "at", "the", "of", "for", "em", "é", "es", "is", "ist", "è", "jest", "su", "sul", "ao",
     # and what a phone's word may be said to be before its number: linked, associated, registered (Italian's)
     "collegato", "collegata", "associato", "associata", "registrato", "registrata"}
)  # fmt: skip
# Words for "number" alone: a phone's only when the number follows them ("numer zamówienia 123 456 789" is an order's).
_NUMBER_ONLY = frozenset({"numer", "numeru", "numerem", "número", "numero", "nummer", "number", "nomor", "nr", "no"})
_POSTCODE = lazy_compile(r"[0-9]{5}-[0-9]{3}")  # Brazil's CEP ("01414-001")
# Codes that end in a check digit after a dash, two of them a slash apart: LOINC's ("LOINC 6690-2 / 3016-3":
# reviewer BO), a CAS number's; no phone ends each half in one digit.
_CHECKED_CODES = lazy_compile(r"[0-9]{3,7}-[0-9][ \t]*/[ \t]*[0-9]{3,7}-[0-9]")


# A number's word right after an address of mail and a comma, as contact details are listed ("email
# romano.giulia@libero.it, numero 393 826 7614": reviewer CS).
_AFTER_AN_EMAIL = lazy_compile(
    r"[a-z0-9]@[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,}[ \t]*[,;/][ \t]*[^\W\d_]{2,7}[ \t:.]*$"
)
_SENTENCE_STOPS = (". ", "; ", "! ", "? ", "\n", "。", "；")
_SENTENCE_BACK = 48  # characters read back for the sentence's words before a number


_CN_MOBILE = lazy_compile(r"1[3-9][0-9]{9}")


_TELECOM_WORDS = lazy_compile(
    r"(?<![^\W\d_])(?:llam[aóoe]\w*|portabilidad\w*|n[úu]mero|operador\w*|celular|contato|liga[rç]\w*|"
    r"numer\w*|dzwoni\w*|zadzwoni\w*|przeniesieni\w*|komórk\w*|"
    r"chiamat\w*|numero|cellulare|telefon\w*|arama\w*|nomor|ponsel|telepon)(?![^\W\d_])|\bsim\b|"
    r"携号转网|手机|电话|号码|來電|来电"  # no blanks between Chinese words: read anywhere
)
# Languages a few words or letters give away, and the countries whose numbers they write.
_LANGUAGES = (
    (re.compile(r"[ñ¿¡]|(?<![^\W\d_])(?:el|los|las|del|está|usted|llama|móvil)(?![^\W\d_])"),
     ("ES", "MX", "AR", "CO", "CL", "PE")),
    (re.compile(r"[ãõ]|(?<![^\W\d_])(?:não|você|contato|número|operadora|ligou)(?![^\W\d_])"), ("BR", "PT")),
    (re.compile(r"[łąęśżźń]|(?<![^\W\d_])(?:się|jest|numer|numeru|klientka)(?![^\W\d_])"), ("PL",)),
    (re.compile(r"(?<![^\W\d_])(?:della|dell|gli|è|cellulare|chiamata)(?![^\W\d_])"), ("IT",)),
    (re.compile(r"[ğış]"), ("TR",)),
    (re.compile(r"(?<![^\W\d_])(?:het|een|niet|bellen|nummer)(?![^\W\d_])"), ("NL", "BE")),
    (re.compile(r"(?<![^\W\d_])(?:dan|yang|dengan|nasabah|nomor|untuk)(?![^\W\d_])"), ("ID",)),
    (re.compile(r"[ơưđ]"), ("VN",)),
    # Swahili: "customer", "email", "phone" (reviewer BA: "Mteja Juma Otieno – simu 0710 821391")
    (re.compile(r"(?<![^\W\d_])(?:mteja|barua pepe|simu|tafadhali|asante)(?![^\W\d_])"), ("KE", "TZ")),
)  # fmt: skip
# Languages that the gate of _text_regions (a text about phones) does not need: read by _after_a_name only.
_NAMES_LANGUAGES = (
    *_LANGUAGES,
    # (Norwegian's and Danish's "called", "needs", their names: "Kunde ... ringte for sin ... som trenger norsk SIM")
    (re.compile(r"[æø]|(?<![^\W\d_])(?:ikke|etter|også|hvis|vakthavende|skiftleder|sjåfør|ringte|ringede|trenger|"
                r"norsk|dansk)(?![^\W\d_])"), ("NO", "DK")),
    (re.compile(r"(?<![^\W\d_])(?:och|inte|efter|också|förare)(?![^\W\d_])"), ("SE",)),
    (re.compile(r"[ěřůťďň]"), ("CZ", "SK")),
    (re.compile(r"[őű]|(?<![^\W\d_])(?:és|nem|holnap|sofőr)(?![^\W\d_])"), ("HU",)),
)  # fmt: skip
_PLUS_COUNTRY = lazy_compile(r"(?<![\w+])\+[ \t]?([0-9]{1,3})(?=[ \t\-.(]?[0-9])")
_IBAN_COUNTRY = lazy_compile(r"(?<![A-Za-z0-9])([A-Z]{2})[0-9]{2}(?:[ ]?[A-Z0-9]{4}){2}")
_TEXT_REGIONS_MOST = 200  # marks read per kind: a text of thousands of numbers names its countries early


def _dialled_countries(text: str) -> Iterator[str]:
    """The countries of the text's "+" numbers (the first region of each country code)."""
    for count, match in enumerate(_PLUS_COUNTRY.finditer(text)):
        if count == _TEXT_REGIONS_MOST:
            return
        region = _dialled_region(match.group(1))
        if region is not None:
            yield region


def _dialled_region(digits: str) -> str | None:
    """The first region of the country code that ``digits`` (dialled after "+") start with."""
    for size in range(1, len(digits) + 1):
        codes = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(int(digits[:size]))
        if codes:
            return codes[0]
    return None


def _named_countries(text: str, lower: str) -> Iterator[str]:
    """The countries of the text's IBANs and of its addresses' country domains."""
    for count, match in enumerate(_IBAN_COUNTRY.finditer(text)):
        if count == _TEXT_REGIONS_MOST:
            break
        if match.group(1) in IBAN_LENGTHS:
            yield match.group(1)
    if "@" in lower:
        for count, match in enumerate(_MAIL_COUNTRY.finditer(lower)):
            if count == _TEXT_REGIONS_MOST:
                break
            yield _TLD_REGIONS.get(match["tld"], match["tld"].upper())


def _text_regions(scan: Scan) -> tuple[str, ...]:
    """The regions the text names (see _national_the_text_names), but the configured ones; cached."""
    if scan.text_regions is None:
        text, lower = scan.text, scan.lower
        if PHONE_CONTEXT.search(lower) is None and _TELECOM_WORDS.search(lower) is None:
            scan.text_regions = ()  # a text that does not speak of phones names no phone's country
            return ()
        scan.text_regions = _countries_named(text, lower, _LANGUAGES, _script_regions(scan), scan.phone_regions)
    return scan.text_regions


def _countries_named(
    text: str,
    lower: str,
    languages: Sequence[tuple[re.Pattern[str], tuple[str, ...]]],
    more: Iterable[str],
    configured: tuple[str, ...],
) -> tuple[str, ...]:
    """The countries ``text`` names: of its "+" numbers, IBANs and addresses' domains, of the ``languages``
    whose words it holds, and ``more``; those phonenumbers knows, but the ``configured`` ones (read already)."""
    found = dict.fromkeys(chain(_dialled_countries(text), _named_countries(text, lower)))
    for language, codes in languages:
        if language.search(lower):
            found.update(dict.fromkeys(codes))
    found.update(dict.fromkeys(more))
    return tuple(code for code in found if code in phonenumbers.SUPPORTED_REGIONS and code not in configured)


# A person's name, after the word for their role, right before a number ("řidič Tomáš Svoboda 606 649 164",
# "Jefe de turno Javier Gil 617 14 91 68", "Vakthavende bioingeniør Kari Nordmann, 40 31 09 36": reviewer AZ),
# or "al" and "til" after a verb that calls or sends ("llamar al ...", "se avisó a la Dra. Paz al ...",
# "sendt til ..."). Two capitalised words after the role, a comma maybe; a heading, a company or a budget line
# is no person ("Importe Total", "Danske Bank", "Regione Lazio": an attacker's round).
_NAME_BEFORE = lazy_compile(
    r"(?<![^\W\d_])(?P<role>[^\W\d_]{2,24})[ \t]+(?P<first>[^\W\d_]{2,20})[ \t]+"
    r"(?P<last>[^\W\d_][^\W\d_'’\-]{1,24}),?[ \t]+$"
)
# A person's name, then the number in brackets: before their address ("Mette Sørensen (93 41 88 97, m.sorensen@...)":
# reviewer CR), or alone after their role's word ("Sjåfør Lars Haugen (493 02 110)"); not after a product's name
# ("Produktet Vask Pro (493 02 110)").
_NAME_IN_BRACKETS = lazy_compile(
    r"(?:(?<![^\W\d_])(?P<role>[^\W\d_]{2,24})[ \t]+)?(?<![^\W\d_])(?P<first>[^\W\d_]{2,20})[ \t]+"
    r"(?P<last>[^\W\d_][^\W\d_'’\-]{1,24})[ \t]*\($"
)
_BRACKET_ADDRESS = lazy_compile(r"[ \t]*,[ \t]*[^\s@,()]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}(?![\w.\-])")


def _named_in_brackets(text: str, before: str, end: int) -> bool:
    name = _NAME_IN_BRACKETS.search(before)
    if name is None or not name["first"].istitle() or not name["last"].istitle():
        return False
    if _BRACKET_ADDRESS.match(text, end) is not None:
        return True
    # (a customer's word before the name names a company as often: "Kunde Oslo Sykkel (97 30 44 18) har betalt", an
    # attacker's round)
    return (name["role"] or "").lower() in _ROLES and text.startswith(")", end)


_ROLES = frozenset(
    {"driver", "řidič", "řidička", "kierowca", "sofőr", "sjåfør", "förare", "chauffør", "fahrer", "fahrerin",
     "chauffeur", "conductor", "conductora", "motorista", "autista", "sopir", "şoför", "courier", "kurir", "kurier",
     "kurýr", "mensajero", "repartidor", "koerier", "bud", "turno", "jefe", "jefa", "encargado", "encargada",
     "supervisor", "supervisora", "skiftleder", "vaktleder", "vakthavende", "skiftledare", "kierownik", "vedoucí",
     "mistr", "műszakvezető", "schichtleiter", "schichtleiterin", "leiter", "leiterin", "chef", "capo",
     "responsabile", "responsable", "gerente", "manager", "lead", "coordinator", "koordinator", "koordinátor",
     "kontaktperson", "contact", "contacto", "contatto", "dr", "dra", "doctor", "doktor", "lékař", "lékařka",
     "lekarz", "orvos", "médico", "médica", "medico", "arts", "bioingeniør", "biomedicinsk", "nurse",
     "sestra", "enfermera", "enfermero", "infermiera", "infermiere", "pielęgniarka", "technician", "technik",
     "technikus", "técnico", "tecnico", "dispatcher", "dispečer", "dyspozytor", "agent", "agente", "kolega",
     "kollega", "collega", "colleague", "compañero", "compañera", "colega", "tutor", "guardia", "vakt", "portier"}
)  # fmt: skip
_CALL_AT = lazy_compile(
    r"(?<![0-9][ \t])(?<![^\W\d_])(?:al|til)[ \t]+$"
)  # not a range's end ("dal 347 ... al 360 ...")
_CALLS = lazy_compile(
    r"(?<![^\W\d_])(?:llam\w*|avis\w*|escrib\w*|envi\w*|mand\w*|contact\w*|respond\w*|rispond\w*|chiam\w*|"
    r"scriv\w*|sendt|send|sender|sendes|ring\w*|skriv\w*|sms)(?![^\W\d_])"
)
# After the number: a unit, a currency, a count, or the words that say what else it is.
_NOT_A_PHONE_AFTER = lazy_compile(
    r"[ \t]*(?:ft|huf|kr|nok|sek|dkk|eur|euro|euros|€|rupiah|rp|idr|tl|try|zł|zl|pln|usd|\$|enheter|units|stk|"
    r"point|points|poeng|redninger|mål|goals|mottakere|recipients|%)(?![^\W\d_])"
    r"|[^.!?\n]{0,40}(?:nummer|number|número|numero|numéro|nr|cvr|nif|nip|bsn|ordre|order|pedido|expediente|"
    r"catálogo|catalogo|cuenta|konto|faktura|factura|budget|presupuesto)",
    re.I,
)


# A traveller's, a guest's or a customer's name right after their word, then their country's code in brackets, then
# the number ("lead pax Mei Lin Tan (SG) 9431 9488": reviewer CU): a mobile of that country. The name's words each
# capitalised, nothing between it and the word (not a product's or a market's: "Returned by customer: Travel Adapter
# (SG) 8806 1234", "Patient monitor Philips (SG) 9101 2025", "Customer feedback by market: Malaysia (MY) ...": an
# attacker's round).
_REGION_CODED = lazy_compile(
    r"(?<![^\W\d_])(?i:pax|passengers?|guests?|travell?ers?|attendees?|customers?|clients?|patients?)[ \t]+"
    r"(?:[A-Z][a-z'’\-]+[ \t]+){1,3}\((?P<cc>[A-Z]{2})\)[ \t]*$"
)


# A person's name, then their word as a child's parent or guardian, at the line's start: a class's or a team's contact
# list (see _after_a_name).
_PARENT_AFTER_NAME = lazy_compile(
    r"^[ \t]*(?:[-*•][ \t]+)?(?P<first>[A-ZÀ-ÖØ-ÞĀ-Ž][^\W\d_]{1,20})[ \t]+(?P<last>[A-ZÀ-ÖØ-ÞĀ-Ž][^\W\d_'’\-]{1,24})"
    r"[ \t]*(?:[–—\-:,][ \t]*)?(?P<role>[^\W\d_]{2,12})[ \t]*:?[ \t]*$"
)
_PARENTS = frozenset(
    {"mama", "mamá", "mamã", "mãe", "mom", "mum", "mother", "tata", "tato", "father", "dad", "otec", "matka", "máma",
     "papa", "papá", "pai", "mère", "père", "vater", "mutter", "madre", "padre", "ojciec", "anya", "apa", "äiti", "isä",
     "mor", "far", "moeder", "vader", "mamma", "papà", "guardian", "opiekun", "opiekunka"}
)  # fmt: skip
# (not a date of a family tree, "Peder Jensen – far: 27 03 1875", "Jan Kowalski – ojciec: 789 12 1945": a group
# that reads as a year; nor amounts of which two are round, "Jan Nowak – tata: 500 250 100": an attacker's round)
_YEAR_GROUP = lazy_compile(r"1[5-9][0-9]{2}|20[0-9]{2}")
_GROUPS = lazy_compile(r"[0-9]+")
_ONE_JOINT = lazy_compile(r"[0-9]{2,4}(?:(?P<joint>[ \-])[0-9]{2,4})(?:(?P=joint)[0-9]{2,4}){1,2}")


def _after_a_name(scan: Scan, candidate: str, start: int) -> bool:
    """A mobile number in groups, with no trunk "0" and no country code, of a country the text's language
    or its addresses and IBANs name (not the configured regions: those read it already), after a person's
    name and their role, or "al" or "til" after a call's verb; no amount's zeros last, no unit after it."""
    if start < 0 or candidate.startswith(("+", "(", "0")):
        return False
    digits = candidate.translate(_PHONE_PUNCTUATION)
    end = start + len(candidate)
    if digits.endswith("000") or _NOT_A_PHONE_AFTER.match(scan.text, end) is not None:
        return False
    line_start = scan.text.rfind("\n", max(0, start - 56), start) + 1  # only 56 characters are read back
    before = scan.text[max(line_start, start - 56) : start]
    parent = _PARENT_AFTER_NAME.match(before)
    groups = _GROUPS.findall(candidate)
    if (
        parent is not None
        and parent["role"].lower() in _PARENTS
        and _ONE_JOINT.fullmatch(candidate)
        and not any(_YEAR_GROUP.fullmatch(group) for group in groups)
        and sum(group.endswith("0") for group in groups) < 2
    ):
        # a parent's mobile in a class's contact list, its groups joined by blanks or dashes ("Jan Kaczmarek – tata:
        # 790-398-088", "Matěj Dvořák: otec 605 540 831": reviewer CV), of a country the text names
        return any(_mobile_in(candidate, region) for region in _regions_near(scan, start))
    if " " not in candidate:
        return False
    coded = _REGION_CODED.search(before)
    if coded is not None and coded["cc"] in phonenumbers.SUPPORTED_REGIONS:
        return _mobile_in(candidate, coded["cc"])
    name = _NAME_BEFORE.search(before)
    named = (
        name is not None
        and name["role"].lower().rstrip(".") in _ROLES
        and name["first"].istitle()
        and name["last"].istitle()
    ) or _named_in_brackets(scan.text, before, end)
    called = (
        not named
        and _CALL_AT.search(before) is not None  # "al" in small letters: "Hamad Al ..." is a name's
        and _CALLS.search(scan.lower, max(line_start, start - 56), start) is not None
    )
    if not (named or called):
        return _beside_dialled_names(scan, before, candidate)
    return any(_mobile_in(candidate, region) for region in _regions_near(scan, start))


# A list of people and their numbers, one written with its country's code after a name ("Katarzyna Mazur +48 604 182
# 273, Tomasz Lewandowski 22 418 22 73", "Rocío Jiménez +34 644 81 27 39, Álvaro Ruiz 699 12 48 30": reviewer CW):
# a national number of that country after another name is one of the list's.
# (the blanks after the name possessive, a comma's or a colon's apart: two runs side by side were quadratic over a long
# run of blanks after two words)
_NAME_THEN = r"(?<![^\W\d_])([^\W\d_]{2,20})[ \t]++([^\W\d_][^\W\d_'’\-]{1,24})(?:[ \t]*+[,:][ \t]++|[ \t]++)"
_NAME_THEN_DIALLED = lazy_compile(_NAME_THEN + r"\+[ \t]?([0-9]{1,3})(?=[ \t\-.(]?[0-9])")
_LISTED_NAME = lazy_compile(_NAME_THEN + "$")
# A sum's or a document's words in title case ("Importo Totale 333 418 2273": an attacker of the README's promises)
_NOT_NAMES = frozenset(
    {"total", "totale", "importo", "importe", "summe", "gesamt", "subtotal", "betrag", "montant", "amount", "price",
     "prix", "preis", "prezzo", "precio", "invoice", "fattura", "factura", "rechnung", "facture", "order", "ordine",
     "pedido", "commande", "bestellung", "saldo", "balance", "number", "numero", "número", "nummer"}
)  # fmt: skip


def _beside_dialled_names(scan: Scan, before: str, candidate: str) -> bool:
    name = _LISTED_NAME.search(before)
    if name is None or not (name[1].istitle() and name[2].istitle()) or {name[1].lower(), name[2].lower()} & _NOT_NAMES:
        return False
    if scan.dialled_names is None:
        found: dict[str, None] = {}
        for count, dialled in enumerate(_NAME_THEN_DIALLED.finditer(scan.text)):
            if count == _TEXT_REGIONS_MOST:
                break
            region = _dialled_region(dialled[3])
            if dialled[1].istitle() and dialled[2].istitle() and region is not None:
                found[region] = None
        scan.dialled_names = tuple(code for code in found if code not in scan.phone_regions)
    return _valid_in(candidate, scan.dialled_names)


def _regions_near(scan: Scan, start: int) -> tuple[str, ...]:
    """The countries the stretch of text around ``start`` names (its "+" numbers, IBANs, addresses' domains and
    language), but the configured regions. Read by stretches of _NAME_REACH characters, each with its neighbours,
    and kept on the scan: a text of many names and numbers is read a few times over, not once per number."""
    stretch = start // _NAME_REACH
    regions = scan.regions_near.get(stretch)
    if regions is None:
        low, high = max(0, (stretch - 1) * _NAME_REACH), min(len(scan.text), (stretch + 2) * _NAME_REACH)
        text, lower = scan.text[low:high], scan.lower[low:high]
        regions = _countries_named(text, lower, _NAMES_LANGUAGES, (), scan.phone_regions)
        scan.regions_near[stretch] = regions
    return regions


_NAME_REACH = 1024


def _mobile_in(candidate: str, region: str) -> bool:
    try:
        number = phonenumbers.parse(candidate, region)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(number) and phonenumbers.number_type(number) in (
        phonenumbers.PhoneNumberType.MOBILE,
        phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,
    )


def _mail_national(text: str, candidate: str, start: int, codes: tuple[str, ...]) -> bool:
    """A number written as the country of an address on its row writes its own: with its trunk "0", or,
    where the country dials none, in groups alone in a cell of the row (Poland's "22 571 38 46" beside a
    ".pl" address: reviewer AP; not "NIF: 245 118 903" beside a ".pt" one, a tax number)."""
    if candidate.startswith("0"):
        return _valid_in(candidate, codes, trunk_written=True)
    if candidate.count(" ") + candidate.count("-") < 2 or not _alone_in_cell(text, start, start + len(candidate)):
        return False
    if _GROUPS_OF_THREE.fullmatch(candidate) or _SPACED_DATE.fullmatch(candidate):
        return False  # "7 700 000", "245 118 903", "21 03 1990": an amount, a tax number, a date (attackers' rounds)
    return _valid_in(candidate, tuple(code for code in codes if region_info(code).trunk is None))


_CELL_START = lazy_compile(r"""(?:^|[",;|\t])[ \t]*["']?$""")
_CELL_END = lazy_compile(r"""["']?[ \t]*(?:[",;|\t]|\r?$)""", re.MULTILINE)
_CELL_BACK = 8
_GROUPS_OF_THREE = lazy_compile(r"[0-9]{1,3}(?:[ \-][0-9]{3})+")
_SPACED_DATE = lazy_compile(
    r"[0-3]?[0-9][ \-][01]?[0-9][ \-](?:19|20)[0-9]{2}|(?:19|20)[0-9]{2}[ \-][01]?[0-9][ \-][0-3]?[0-9]"
)


def _alone_in_cell(text: str, start: int, end: int) -> bool:
    if start and _CELL_START.search(text, max(0, start - _CELL_BACK), start) is None:
        return False
    return _CELL_END.match(text, end) is not None


# An address's country domain on the number's line ("Oskar Nilsson, 070-174 06 19,
# oskar.nilsson@example.se": reviewer Y): a number written as that country writes its own (see
# _mail_national) is one of its phones.
_MAIL_COUNTRY = lazy_compile(r"@[a-z0-9](?:[a-z0-9.\-]{0,253})\.(?P<tld>[a-z]{2})(?![a-z0-9\-])")
_TLD_REGIONS = {"uk": "GB"}  # the one country domain that is not its ISO code


def _mail_country(scan: Scan, start: int) -> tuple[str, ...]:
    if start < 0:
        return ()
    lower = scan.lower
    reach = max(0, start - _ROW_REACH)
    line = max(reach, lower.rfind("\n", reach, start) + 1)
    end = lower.find("\n", start, start + _ROW_REACH)
    end = end if end != -1 else min(len(lower), start + _ROW_REACH)
    if lower.find("@", line, end) == -1:  # its row only: "@" in the whole text was looked for at each number
        return ()
    codes = {_TLD_REGIONS.get(found["tld"], found["tld"].upper()) for found in _MAIL_COUNTRY.finditer(lower, line, end)}
    return tuple(
        sorted(code for code in codes if code in phonenumbers.SUPPORTED_REGIONS and code not in scan.phone_regions)
    )


def _line_says_phone(text: str, start: int) -> bool:
    """The label that opens the number's line names a phone and an international number came first
    ("Телефон для связи: +7 (916) 482-73-19, доп. 8 495 631-20-44": the second number is the line's
    too; reviewer M). Not any number after such a label ("Mobile app release: build 3456-7890")."""
    if start < 0:
        return False
    line = _line_start(text, start)
    if line < 0:
        return False  # a line longer than _ROW_REACH before the number: its label is not read
    colon = text.find(":", line, start)
    if colon == -1 or colon - line > _LABEL_REACH or _INTERNATIONAL_BEFORE.search(text, colon, start) is None:
        return False
    words = _WORDS.findall(text[line:colon].lower())
    singulars = [word[:-1] for word in words if word[-1:] == "s"]  # "Phones:"
    return not _SAID_WORDS.isdisjoint(words) or not _SAID_WORDS.isdisjoint(singulars)


def _label_says_phone(text: str, start: int, candidate: str) -> bool:
    """The number's label, from its clause's start to the colon right before the number, is a word that
    names a phone, maybe one more word, and maybe whose it is in brackets ("Contacto familiar (hija,
    Lucía Martínez): 696 493 711": reviewer AM). Not a label that goes on about something else ("Mobile
    revenue (FY2023, USD): 612 345 678", "Contact centre volume (Q3, calls): ...": an attacker's round)."""
    if start < 2:
        return False
    colon = _COLON_BEFORE.search(text, max(0, start - 4), start)
    if colon is None:
        return False
    clause = _CLAUSE_START.search(text, max(0, colon.start() - _LABEL_REACH), colon.start())
    if clause is None:
        return False
    label = _PHONE_LABEL.fullmatch(text, clause.end(), colon.start())
    if label is None or label["first"].lower() not in _SAID_WORDS:
        return False
    if label["of"] is not None and _DIALLED.search(candidate) is None:
        return False  # "Mobile subscriptions in Germany: 107 412 000", "Liga de Fútbol: 1.234.567": counts
    words = _WORDS.findall(text[label.end("first") : colon.start()].lower())
    words += [word[:-1] for word in words if word.endswith("s")]  # "Phone orders from the web shop:"
    return _TALLY_WORDS.isdisjoint(words) and _REFERENCE_WORDS.isdisjoint(words)


# A word, maybe another, maybe whose or where it is in a few words led by a preposition ("WhatsApp do
# fornecedor em São Paulo:", "Phone numbers from the signup form:": reviewer AT), maybe brackets without digits.
_WHOSE_OR_WHERE = (
    "of|for|from|at|in|do|da|dos|das|de|del|della|di|du|des|van|von|vom|em|en|para|pour|per|für|bei|w|u|från|för|på|dla"
)
_PHONE_LABEL = lazy_compile(
    r"(?P<first>[^\W\d_]+)(?:[ \t]+[^\W\d_]+)?"
    rf"(?:[ \t]+(?P<of>(?i:{_WHOSE_OR_WHERE}))(?:[ \t]+[^\W\d_]+){{1,4}})?(?:[ \t]*\([^()0-9\n]{{1,40}}\))?[ \t]*"
)
# After such a longer label, only a number written as one dials it: a "+", an area code in brackets, a dash
# between digits ("(31) 93441-8762"); groups of three after a label that goes on are a count.
_DIALLED = lazy_compile(r"^\+|\([0-9]{1,5}\)|[0-9]-[0-9]")
_COLON_BEFORE = lazy_compile(r":[ \t]*$")
# Where a label's clause starts: a line, a sentence or a list item before it (the last one).
_CLAUSE_START = lazy_compile(r"(?:^|(?<=[.;!?\n])[ \t]*|(?<=\n))(?!.*[.;!?\n])", re.S)
_LABEL_REACH = 48
_INTERNATIONAL_BEFORE = lazy_compile(r"\+[ ]?\(?[0-9]")

# The regions a text's script names: a national number written in Korean text is read as Korea's
# ("담당자 이수진 010-7741-2093", reviewer M), in Japanese as Japan's, and so on. Only numbers written
# with separators and with their trunk prefix, as those countries write them, and valid there.
_SCRIPTS = (
    (re.compile("[\uac00-\ud7af]"), ("KR",)),
    (re.compile("[\u3040-\u30ff]"), ("JP",)),
    (re.compile("[\u4e00-\u9fff]"), ("CN", "TW", "HK")),
    (re.compile("[\u0400-\u04ff]"), ("RU", "UA", "BY", "KZ")),
    (re.compile("[\u0370-\u03ff]"), ("GR", "CY")),
    (re.compile("[\u0590-\u05ff]"), ("IL",)),
    (re.compile("[\u0600-\u06ff]"), ("SA", "AE", "EG", "MA", "QA", "KW", "BH", "OM", "JO")),
    (re.compile("[\u0e00-\u0e7f]"), ("TH",)),
)


# A line led by a country's code ("* TR — Elif Demir, 0501 758 55 93", "- BR: Camila ... (11)
# 99022-3803": a multinational team's list, reviewer P): that country's numbers written with
# separators, valid there. Not the codes that are also a label's word ("ID:", "NO:", "PS:").
_COUNTRY_LEAD = lazy_compile(r"[ \t]*(?:[-*•>]+[ \t]*)?(?:\*\*)?(?P<code>[A-Z]{2})(?:\*\*)?[ \t]*[-—–:|(]")
_LABEL_CODES = frozenset(
    ["ID", "NO", "IS", "IT", "AT", "BE", "TO", "AM", "PM", "OR", "ME", "MY", "AS", "BY", "SO", "DO", "GO", "UP",
     "OK", "HI", "PS", "CC", "TV", "RE", "NB", "AD", "AI", "BS", "CV", "DM", "GA", "LA", "MD", "NE", "PR", "SA"]
)  # fmt: skip


# Or a table's row with a cell that holds a country's code alone ("| Mads Jensen | DK | 34 41 80 01 |",
# "Budi,ID,0812572452": reviewer Q): a column of countries, where "ID" is Indonesia.
_COUNTRY_CELL = lazy_compile(r"(?:^|[|,;\t])[ \t]*(?P<code>[A-Z]{2})[ \t]*(?=[|,;\t])", re.M)


_ROW_REACH = 1024  # characters read back for a number's line start, and ahead for its end (else linear per number)


def _line_start(text: str, start: int) -> int:
    """Where ``start``'s line begins, if within _ROW_REACH characters; else -1."""
    low = max(0, start - _ROW_REACH)
    line = text.rfind("\n", low, start) + 1
    return line if line or low == 0 else -1


def _line_country(scan: Scan, start: int) -> tuple[str, ...]:
    if start < 0:
        return ()
    text = scan.text
    line = _line_start(text, start)
    lead = _COUNTRY_LEAD.match(text, line, start) if line >= 0 else None
    code = lead["code"] if lead is not None and lead["code"] not in _LABEL_CODES else ""
    if not code:
        end = text.find("\n", start, start + _ROW_REACH)
        row = text[line if line >= 0 else start - _ROW_REACH : min(len(text), start + _ROW_REACH) if end == -1 else end]
        if "|" in row or "," in row or "\t" in row:
            cell = _COUNTRY_CELL.search(row)
            code = cell["code"] if cell is not None else ""
    if not code or code in scan.phone_regions or code not in phonenumbers.SUPPORTED_REGIONS:
        return ()
    return (code,)


# Written as those countries write phone numbers: groups set apart by spaces, dashes or brackets
# ("Версия 8.495.631.20.44" is a version).
_SCRIPT_SHAPED = lazy_compile(r"[0-9()][0-9() \-]*[0-9]")
# A reference's name right before the number, in those scripts ("주문번호 010-1234-5678", "ИНН ...",
# "订单号 ..."), as the view writes them (Cyrillic letters that look Latin are Latin there).
_SCRIPT_REFERENCES = tuple(
    normalise_text(spelling).lower()
    for word in (
        "주문번호", "주문", "송장", "운송장", "사업자등록번호", "계좌", "품번", "회원번호", "注文番号", "注文", "伝票",
        "請求書", "会員番号", "価格", "金額", "予約番号", "予約", "部屋番号",
        # a specimen's, a test order's, a reception's, a patient's number (reviewer AM: "検体番号 24074-00318")
        "検体番号", "検査番号", "オーダー番号", "受付番号", "患者番号", "カルテ番号",
        "构建号", "版本号",  # a build's, a version's number ("内部构建号 240314-07": reviewer AO)
        "品番", "订单号", "订单", "单号", "运单", "编号", "发票",
        # a model's, a code's, a staff member's, a serial's, a transaction's, a card's number (an attacker's round)
        "型号", "编码", "工号", "序列号", "流水号", "卡号", "合同", "会员", "序号", "批次", "时间戳", "单据",
        "工单", "金额", "账单", "收入", "交易额", "规模", "出货量", "来电量", "时长", "次数", "号段", "总额",
        "инн", "огрн", "кпп", "артикул", "заказ", "заказа",
        "счет", "счёт", "договор", "версия", "код", "номер обращения", "накладная",
    )
    for spelling in (word, word.upper())  # "ИНН" reads "иhh" in the view, "инн" reads "инн"
)  # fmt: skip
_REFERENCE_BACK = 16  # characters before the number read for those names


def _named_in_script(text: str, start: int) -> bool:
    """A reference's name right before the number, with no other number between them ("版本号：5.2.1
    客服热线：138 0013 8000": the name is the version's; an attacker's round)."""
    if start < 0 or text.isascii():
        return False
    before = text[max(0, start - _REFERENCE_BACK) : start].lower()
    for word in _SCRIPT_REFERENCES:
        at = before.rfind(word)
        if at != -1 and not any(char.isdigit() for char in before[at + len(word) :]):
            return True
    return False


def _script_regions(scan: Scan) -> tuple[str, ...]:
    if scan.script_regions is None:
        found: list[str] = []
        if not scan.text.isascii():
            for script, codes in _SCRIPTS:
                if script.search(scan.text):
                    found.extend(code for code in codes if code not in scan.phone_regions)
        scan.script_regions = tuple(found)
    return scan.script_regions


_MOBILE_ONE = frozenset({52})


def _international(digits: str, trunk_in_brackets: bool) -> str | None:
    """E.164 digits of "+" followed by ``digits`` (country code and national number), if valid."""
    if not 7 <= len(digits) <= 15:
        return None
    for size in (1, 2, 3):
        country = int(digits[:size])
        codes = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(country)
        if not codes:
            continue
        national = digits[size:]
        if national.startswith("0") and (trunk_in_brackets or _international(digits[:size] + national[1:], False)):
            national = national[1:]  # "+44 (0)20 7946 0958", "+44 07911 123456": the trunk written too
        elif country in _MOBILE_ONE and len(national) == 11 and national.startswith("1"):
            # Mexico's mobiles as dialled before 2019 and still written ("+52 1 33 0824 8410"): the "1" dropped,
            # as the network now does (reviewer BO)
            national = national[1:]
        for code in codes:
            if code == "001" or code not in phonenumbers.SUPPORTED_REGIONS:
                continue
            region = region_info(code)
            if _plausible(region, national) and _valid(region, national):
                return f"{country}{national}"
        return None  # country codes are prefix-free: no longer code can match
    return None


def _plausible(region: _Region, national: str) -> bool:
    if region.code == "GB" and _UK_DRAMA.fullmatch(national):
        return True
    if region.lengths and len(national) not in region.lengths:
        return False
    return region.pattern is None or region.pattern.fullmatch(national) is not None


_TOLL_FREE_DIGITS = 10
_MOBILE = frozenset({phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE})


def _parse(candidate: str, region: str | None, *, mobile_only: bool = False) -> str | None:
    """E.164 digits through phonenumbers' parser (regions with national-prefix rules)."""
    try:
        number = phonenumbers.parse(candidate, region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    if mobile_only and phonenumbers.number_type(number) not in _MOBILE:
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164).lstrip("+")


def _valid(region: _Region, national: str, *, mobile_only: bool = False) -> bool:
    if region.code == "GB" and _UK_DRAMA.fullmatch(national):
        return True
    pattern = region.mobile if mobile_only else region.valid
    return pattern is not None and pattern.fullmatch(national) is not None


# A WhatsApp chat link ("wa.me/447700900123", "api.whatsapp.com/send?phone=447700900123"): the number
# in international form without its "+" (reviewer W); Telegram's link to a number ("t.me/+31689801025") and
# Android's intent to send to one ("intent://send/+46723551470#Intent;scheme=smsto;...": reviewer BW).
_WHATSAPP_LINK = lazy_compile(
    r"(?<![\w.])(?:wa\.me/|(?:api\.|web\.)?whatsapp\.com/send/?\?phone=|whatsapp://send/?\?phone=|t\.me/(?=\+)"
    r"|intent://send/)\+?(?P<number>[1-9][0-9]{6,14})(?![0-9A-Za-z_\-])"  # (a Telegram invite's hash may start
    # with digits: "t.me/+447548968931Kw5a", an attacker's round)
)


# A UPI payment link whose payee's address is a mobile number at a bank's handle ("upi://pay?pa=6848283569@ybl&pn=...":
# reviewer BW): India's ten digits, a mobile's.
_UPI_MOBILE = lazy_compile(
    r"upi://pay\?(?:[^\s#&]{0,200}&){0,8}pa=(?P<number>[6-9][0-9]{9})@[a-z][a-z0-9.\-]{1,30}(?![\w@])"
)


_FEW_DIGITS = 2
_COUNTED_DOWN = "98765432109876543210"


def find_whatsapp_links(scan: Scan) -> Iterator[Span]:
    lower = scan.lower
    if "upi://" in lower:
        for upi in _UPI_MOBILE.finditer(lower):
            number = upi["number"]
            # (not a documentation's "9999999999@upi" or "9876543210@ybl": an attacker's round)
            if (
                len(set(number)) > _FEW_DIGITS
                and number not in _COUNTED_DOWN
                and phone_e164("+91" + number, scan.phone_regions)
            ):
                yield upi.span("number")
    for match in _WHATSAPP_LINK.finditer(lower):
        if phone_e164("+" + match["number"], scan.phone_regions) is not None:
            start = match.start("number")
            yield (start - 1 if lower[start - 1] == "+" else start), match.end("number")  # its "+" too


# A Pix payment's QR payload, "copia e cola" (EMV's merchant-presented format, Brazil's central bank's GUI
# "BR.GOV.BCB.PIX" in field 26, then subfield 01 with its length: the payee's key): an address or a "+55" phone as its
# key is that person's, written without any blank before the next field ("...PIX0121j.carvalho@uol.com.br5204...":
# reviewer BW). A CPF or a random key as the key stays (a national id and a bank's opaque id).
_PIX_KEY = lazy_compile(r"(?i:BR\.GOV\.BCB\.PIX)01(?P<length>[0-9]{2})")  # (lower-case in many real payloads)
_PIX_EMAIL = lazy_compile(r"[^@\s]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})*\.[A-Za-z]{2,24}")
_NEXT_FIELD = lazy_compile(r"[0-9]{4}|[ \t\r\n]")  # the next field's id and length, or the payload's end


def find_pix_keys(scan: Scan) -> Iterator[tuple[str, int, int]]:
    text = scan.text
    for field in _PIX_KEY.finditer(text):
        start = field.end()
        end = start + int(field["length"])
        key = text[start:end]
        if end > len(text) or not key or any(char.isspace() for char in key):
            continue
        if _PIX_EMAIL.fullmatch(key) and (end == len(text) or _NEXT_FIELD.match(text, end)):
            yield "EMAIL", start, end
        elif key.startswith("+") and phone_e164(key, scan.phone_regions) is not None:
            yield "PHONE", start, end


def phone_e164_digits(value: str, regions: Sequence[str]) -> str:
    """The number's E.164 digits, so "(415) 555-2671" and "+1 415 555 2671" normalise alike; a number read out in
    words is read as its digits first ("zero seven nine one ..." as "0791..."), so it normalises as it does typed (its
    digits were '' once: every number read out shared one token, an attacker's round on the README's promises)."""
    if not any(char.isdigit() for char in value):
        value = spoken_digits(value) or value
    try:
        found = phone_e164(value, tuple(regions))
    except ValueError:  # a form the parser cannot read (marks left in it): its digits name it
        found = None
    return found if found is not None else "".join(char for char in value if char.isdigit())


def spoken_digits(value: str) -> str:
    """The digits a number read out in words says ("plus" as "+"), French pairs included; '' when none."""
    lower = value.lower()
    if any(word in lower for word in _FRENCH_TENS):
        pairs = "".join(_FRENCH_NUMBERS.get(_FRENCH_JOIN.sub("-", piece), "") for piece in _FRENCH_PIECE.findall(lower))
        if pairs:
            return pairs
    plus = "+" if re.match(rf"[ \t]*(?:{_PLUS_WORDS})(?![^\W\d_])", lower) is not None else ""
    digits = "".join(token if token[0].isdigit() else _spelt_digits(token) for token in _SPELT_TOKEN.findall(lower))
    return plus + digits if digits else ""


# ---- a phone as a record's object of its country's code and its subscriber's number

# EMV 3-D Secure's cardholder phones ("mobilePhone": {"cc": "44", "subscriber": "7790750126"}: reviewer BP), and any
# object named for a phone that holds a country code and a number apart.
_PHONE_OBJECT = lazy_compile(
    r"""(?<![A-Za-z0-9_])["']?(?:(?:mobile|home|work|cell|contact|primary|business|shipping|billing)_?)?"""
    r"""(?:phone|tel|mobile|msisdn)(?:_?number)?["']?[ \t]*:[ \t]*"""
    # a JSON object (one object nested in it at most), or YAML's block of indented keys
    r"""(?:\{(?P<body>(?:[^{}]|\{[^{}]{0,80}\}){0,200})\}|(?P<block>(?:\r?\n[ \t]+[^\n]{1,80}){2,6}))""",
    re.IGNORECASE,
)
_PHONE_OBJECT_CODE = lazy_compile(
    r"""["']?(?:cc|country_?code|countryCallingCode|calling_?code|dial_?code|prefix)["']?[ \t]*:[ \t]*["']?\+?"""
    r"(?P<cc>[0-9]{1,3})(?![0-9])",
    re.IGNORECASE,
)
_PHONE_OBJECT_NUMBER = lazy_compile(
    r"""["']?(?:subscriber|number|national_?number|phone_?number|local_?number|value)["']?[ \t]*:[ \t]*["']?"""
    r"(?P<number>[0-9][0-9 .\-]{3,16}[0-9])",
    re.IGNORECASE,
)
# ... not a device's record ("phone": {"model": "Pixel 8", "cc": 61, "number": ...}: an attacker's round)
_DEVICE_KEYS = lazy_compile(r"""["']?(?:model|imei|brand|make|serial|os|firmware)["']?[ \t]*:""", re.IGNORECASE)


def may_hold_phone_object(scan: Scan) -> bool:
    lower = scan.lower
    return ("{" in scan.text or ":\n" in scan.text) and ("phone" in lower or "tel" in lower or "mobile" in lower)


def find_phone_objects(scan: Scan) -> Iterator[Span]:
    text = scan.text
    for phone in _PHONE_OBJECT.finditer(text):
        low, high = phone.span("body" if phone["body"] is not None else "block")
        code = _PHONE_OBJECT_CODE.search(text, low, high)
        number = _PHONE_OBJECT_NUMBER.search(text, low, high)
        if code is None or number is None or _DEVICE_KEYS.search(text, low, high) is not None:
            continue
        if phone_e164(f"+{code['cc']}{number['number']}", scan.phone_regions) is not None:
            yield number.span("number")


# ---- phones labelled or glued in scripts without spaces between words

# A phone word of another script, or an office line's label, then the number: "電話：0746 599 8615",
# "मोबाइल नंबर 09349430451" (as the view reads it: combining marks dropped), "Office (Bengaluru): 0937...".
# Thai, Lao and Khmer write no space between words either: their words for a phone, a mobile, a phone's
# number, to call and to contact, then "back", "to", "at" or "is" ("โทร0811055775ค่ะ", "โทรกลับที่ 081 105
# 5775": reviewer AB), as the view writes them (their vowel signs and tone marks dropped). The words are
# found only right before the number: "โทรทัศน์" (television) is no call.
_SOUTHEAST_ASIAN_PHONE_LABELS = "|".join(
    sorted(
        {
            normalise_text(word)
            for word in (
                "โทรศัพท์มือถือ", "โทรศัพท์", "เบอร์โทรศัพท์", "เบอร์โทร", "เบอร์มือถือ", "มือถือ", "เบอร์", "โทร",
                "ติดต่อ", "ໂທລະສັບ", "ເບີໂທ", "ມືຖື", "ໂທ", "លេខទូរស័ព្ទ", "ទូរស័ព្ទ", "ទូរសព្ទ",
            )
        },
        key=len,
        reverse=True,
    )
)  # fmt: skip
# ... or whose it is: "เบอร์โทรของดิฉันคือ 0659095078" (my phone's number is: reviewer BP)
_TO_THE_NUMBER_WORDS = ("กลับ", "หา", "มาที่", "ที่", "ได้ที่", "คือ", "ຫາ", "ທີ່", "ของดิฉัน", "ของผม", "ของฉัน", "ของหนู",
                        "ของเรา", "ของคุณ", "ของลูกค้า", "ของพี่", "ของน้อง", "ของแม่", "ของพ่อ", "ของลูก", "ของสามี",
                        "ของภรรยา", "ของเขา", "ของเธอ")  # fmt: skip
_SOUTHEAST_ASIAN_TO_THE_NUMBER = "|".join(
    sorted({normalise_text(word) for word in _TO_THE_NUMBER_WORDS}, key=len, reverse=True)
)
# Bengali's mobile, phone and number, as the view writes them ("আমার মোবাইল নম্বর ০১৭৮০১৭৪৩৮৩": reviewer BP); Tamil's
# mobile and telephone ("கைபேசி 072 877 8016": reviewer CQ)
_DEVICE_WORDS = (
    "মোবাইল নম্বর", "ফোন নম্বর", "মোবাইল নাম্বার", "ফোন নাম্বার", "ফোন নং", "মোবাইল নং", "মোবাইল", "ফোন",
    "கைபேசி", "அலைபேசி", "தொலைபேசி",
)  # fmt: skip
_BENGALI_PHONE_LABELS = "|".join(sorted({normalise_text(word) for word in _DEVICE_WORDS}, key=len, reverse=True))
_FOREIGN_PHONE_LABEL = lazy_compile(
    # Korean's callback asked for and number it came to ("콜백 요청: 01060368797", "수신 번호 01023483301": reviewer BB)
    # Japanese "contact" too ("連絡先 09034973936": reviewer BC)
    r"(?:電話番号|電話|携帯番号|携帯|电话号码|电话|手机号码|手机|座机|固话|联系方式|電話號碼|전화번호|전화|휴대폰|연락처|連絡先"
    r"|콜백 요청|콜백|수신 번호|수신번호"
    # the device's words in Korean ("핸드폰 010-...", not "핸드폰 1350000원에": a price) and Bengali's labels: a number
    # after them only as dialled (its trunk "0" or a "+": an attacker's round)
    r"|(?P<device>휴대전화|핸드폰|" + _BENGALI_PHONE_LABELS + r")"
    r"|मोबाइल|फोन|नबर|नंबर|दूरभाष|(?i:office)(?:[ \t]\([^()\n]{1,32}\))?[ \t]*:"
    # Basque's telephone and mobile as a label ("Telefonoa: 944 685 723": reviewer CQ; not the device's word before any
    # figure, "Mugikorra 5G, ... 128 256 512 GB": an attacker's round)
    r"|(?i:telefonoa|mugikorra|sakelakoa|telefonoz)[ \t]*:"
    # Thai abbreviates with a stop ("โทร. 081 ..."), Khmer writes its own colon ("លេខទូរស័ព្ទ៖ 012 ...")
    rf"|(?P<sea>(?<![^\W\d_])(?:{_SOUTHEAST_ASIAN_PHONE_LABELS})(?:{_SOUTHEAST_ASIAN_TO_THE_NUMBER}){{0,2}}\.?))"
    # Korean's "number" after the phone's word ("제 휴대폰 번호는 01088690648이고": reviewer BP)
    r"(?:[ \t]?번호)?"
    r"[ \t]{0,3}[:：៖]?[ \t]{0,3}(?:は|是|为|:|는|은)?[ \t]{0,3}"
)
# After a Thai, Lao or Khmer label (its word for "contact" too) the number as a phone is written: nine to
# eleven digits (a trunk "0"
# and the subscriber's), or a "+" one; not hours ("ติดต่อ 9.00-18.00 น."), a price in thousands ("มือถือ
# 1 290 000 บาท"), digits one by one ("โทร 1 2 3 4 5 6 7 ตามลำดับ"), a date or a phone's IMEI (a fresh
# attacker's round; the labels start a word: "ไฟเบอร์", fibre, and "เมมเบอร์", member, end in "เบอร์").
_SEA_DIALLED = lazy_compile(r"\+[0-9][0-9 \-]{6,18}|0[0-9](?:[ \-]?[0-9]){7,9}")


def _dialled_as_written(number: str) -> bool:
    return _SEA_DIALLED.fullmatch(number) is not None and _SINGLE_DIGITS.fullmatch(number) is None


# A "+" number glued to CJK text on either side: "電話番号は+81 800-047-3016です"; to Thai's, Lao's or Khmer's,
# which write no blank between words either ("ประเสริฐที่เบอร์+66 94 010 5567ได้ตลอดวัน": reviewer BV).
_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_GLUED_PLUS = lazy_compile(rf"(?<=[{_CJK}\u0e00-\u0eff\u1780-\u17ff])\+(?=[0-9])")
# Glued to Thai, Lao or Khmer, a "+" number is a phone's only after a word for one ("...ที่เบอร์+66 94 ..."), not after a
# price's, a sum's or a count's ("ราคา+8562055551234", "จำนวนผู้ใช้เพิ่ม+33612345678คน": an attacker's round).
_SEA_LABEL_BEFORE = lazy_compile(
    rf"(?:{_SOUTHEAST_ASIAN_PHONE_LABELS})(?:{_SOUTHEAST_ASIAN_TO_THE_NUMBER}){{0,2}}[ \t:.]*$"
)
_SEA_LETTER = lazy_compile("[\u0e00-\u0eff\u1780-\u17ff]")
_SEA_LABEL_REACH = 32


def _glued_plus_named(text: str, at: int) -> bool:
    if not _SEA_LETTER.match(text, at - 1):
        return True  # glued to CJK text, as before
    return _SEA_LABEL_BEFORE.search(text, max(0, at - _SEA_LABEL_REACH), at) is not None


_LABELLED_NUMBER = lazy_compile(r"\+?[0-9](?:[ \-.]?[0-9]|[ ]?\([0-9]{1,4}\)[ ]?[0-9]){6,16}")


# The first characters of the labels above: text without any (most text that is not ASCII: an em
# dash, curly quotes, accents) holds no such label, and a glued "+" needs a CJK character anyway.
_FOREIGN_LABEL_HEADS = lazy_compile(
    "[電携电手휴핸연전콜수मफनद連মফகஅத"
    + "".join(sorted({word[0] for word in _SOUTHEAST_ASIAN_PHONE_LABELS.split("|")}))
    + "]"
)


def may_hold_labelled_phone(scan: Scan) -> bool:
    if any(word in scan.lower for word in _ASCII_LABEL_WORDS):
        return True
    if scan.text.isascii():
        return False
    return _FOREIGN_LABEL_HEADS.search(scan.text) is not None or (
        "+" in scan.text and _GLUED_PLUS.search(scan.text) is not None
    )


def _office_labels(scan: Scan) -> Iterator[re.Match[str]]:
    """_FOREIGN_PHONE_LABEL.finditer of ASCII text, the same matches: there only the office label and
    Basque's can match (the other labels are not ASCII), and only where one of their words starts (any
    case). The pattern is tried at those places alone instead of at every character (it has no literal
    prefix the engine could skip to: a 1 KB note took a tenth of a millisecond)."""
    text, lower = scan.text, scan.lower
    found: list[re.Match[str]] = []
    for word in _ASCII_LABEL_WORDS:
        at = lower.find(word)
        while at != -1:
            label = _FOREIGN_PHONE_LABEL.match(text, at)
            if label is not None:
                found.append(label)
                at = lower.find(word, label.end())
            else:
                at = lower.find(word, at + 1)
    return iter(sorted(found, key=lambda label: label.start()) if len(found) > 1 else found)


_ASCII_LABEL_WORDS = ("office", "telefonoa", "mugikorra", "sakelakoa", "telefonoz")


def find_labelled_phones(scan: Scan) -> Iterator[Span]:
    """Phone numbers the main pattern cannot start or end: after a phone word of a script that is
    not Latin (its words are not read as words there), after an office's label, and "+" numbers
    glued to CJK text (whose letters are word characters). Each is still validated as a phone."""
    text = scan.text
    labels = _office_labels(scan) if text.isascii() else _FOREIGN_PHONE_LABEL.finditer(text)
    starts = [
        (label.end(), ["phone"], label["sea"] is not None or label["device"] is not None)
        for label in labels
        if not _acronyms_number(text, label)
    ]
    if "+" in text:
        starts += [
            (plus.start(), [], False) for plus in _GLUED_PLUS.finditer(text) if _glued_plus_named(text, plus.start())
        ]
    for start, words, southeast_asian in starts:
        number = _LABELLED_NUMBER.match(text, start)
        if number is None or (southeast_asian and not _dialled_as_written(number.group())):
            continue
        after = text[number.end() : number.end() + 1]
        if _COMPACT_DATE.fullmatch(number.group()):
            continue  # "수신 번호 20240512": a date written whole (an attacker's round)
        if not (after.isascii() and after.isalnum()) and _is_phone(scan, number.group(), words):
            yield number.span()


_COMPACT_DATE = lazy_compile(r"(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])")
# Hindi's bare "number" after a record's acronym: a record's number ("IPD नंबर 6816264", "ABHA नंबर ...": reviewer
# CB), not a phone's ("मेरा नंबर", "मोबाइल नंबर", "WA नंबर", "BSNL नंबर": an attacker's round).
_ACRONYM_BEFORE = lazy_compile(r"(?<![A-Za-z])(?:IPD|OPD|UHID|ABHA|MRN|PNR|UTR|UAN|CRN|EPIC)[ \t]*$")


def _acronyms_number(text: str, label: re.Match[str]) -> bool:
    return label.group().strip(" \t:：") in _HINDI_NUMBER and (
        _ACRONYM_BEFORE.search(text, max(0, label.start() - 10), label.start()) is not None
    )


# ---------------------------------------------------------------- digits spelt out

# A number read out or dictated in words ("my number is four one four, seven zero one, eight zero
# seven zero"; "mi número: seis tres cero ocho ..."), from reviewer G's blind round: seven to fifteen
# digit words in a row, in English, Spanish, French or German, after words that name a phone.
_DIGIT_WORDS: dict[str, str] = {}
for _digits_of_language in (
    "zero one two three four five six seven eight nine",
    "cero uno dos tres cuatro cinco seis siete ocho nueve",
    "zéro un deux trois quatre cinq six sept huit neuf",
    "null eins zwei drei vier fünf sechs sieben acht neun",
    "zero uno due tre quattro cinque sei sette otto nove",
    "zero um dois três quatro cinco seis sete oito nove",
    "nul een twee drie vier vijf zes zeven acht negen",
    # Polish, and Hindi as written in Latin letters (reviewer T's call transcripts)
    "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć",
    "shunya ek do teen char paanch chhe saat aath nau",
    # Turkish, with its dotless "ı" and as the view writes it, "i" (reviewer Y's call notes)
    "sıfır bir iki üç dört beş altı yedi sekiz dokuz",
    "sifir bir iki üç dört beş alti yedi sekiz dokuz",
    # Swedish, Romanian with and without its comma-below letters (reviewer Z's voicemails)
    "noll ett två tre fyra fem sex sju åtta nio",
    "zero unu doi trei patru cinci șase șapte opt nouă",
    "zero unu doi trei patru cinci sase sapte opt noua",
):
    for _value, _word in enumerate(_digits_of_language.split()):
        _DIGIT_WORDS[_word] = str(_value)
# Indonesian and Malay; Russian and Hindi as the view writes them (Cyrillic letters that look Latin are
# Latin there, Devanagari's marks dropped): reviewer AJ's dictated numbers.
for _digits_of_language in (
    "nol satu dua tiga empat lima enam tujuh delapan sembilan",
    "ноль один два три четыре пять шесть семь восемь девять",
    "शून्य एक दो तीन चार पाँच छह सात आठ नौ",
    # Vietnamese, Swahili, Hungarian and Greek (reviewers BH and BI: "cộng tám tư, chín một hai, ...",
    # "jumlisha mbili tano nne, ...", "plusz harminchat ...", "ένα τέσσερα εννιά δύο")
    "không một hai ba bốn năm sáu bảy tám chín",
    "sifuri moja mbili tatu nne tano sita saba nane tisa",
    "nulla egy kettő három négy öt hat hét nyolc kilenc",
    "μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα",
    # Arabic (reviewer BM's call transcripts: "رقمي زائد تسعة ستة ستة, ...")
    "صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة",
    # Ukrainian, and Tagalog's digits (Spanish's, as Filipinos spell them): reviewers CC and CD
    "нуль один два три чотири п'ять шість сім вісім дев'ять",
    "sero uno dos tres kuwatro singko sais siyete otso nuwebe",
    # Hausa's, Amharic's and Bengali's (reviewer CL's mobile-money notes: "sifiri tara sifiri tara biyu ...", "ዜሮ ዘጠኝ
    # ሶስት ...", "বিকাশ নম্বর শূন্য এক সাত ...")
    "sifiri ɗaya biyu uku huɗu biyar shida bakwai takwas tara",
    "ዜሮ አንድ ሁለት ሶስት አራት አምስት ስድስት ሰባት ስምንት ዘጠኝ",
    "শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়",
    # Czech's and Hebrew's (reviewer CS: "šest nula nula, čtyři nula tři, ...", "אפס חמש שלוש, ...")
    "nula jedna dva tři čtyři pět šest sedm osm devět",
    "אפס אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע",
    # Japanese in kana, hiragana and katakana ("プラス・はち・いち、はち・ゼロ、...": reviewer CS); each read
    # whole, between "・", "、" or blanks, as every digit word is
    "ぜろ いち に さん よん ご ろく なな はち きゅう",
    "ゼロ イチ ニ サン ヨン ゴ ロク ナナ ハチ キュウ",
):
    for _value, _word in enumerate(_digits_of_language.split()):
        _DIGIT_WORDS[normalise_text(_word).lower()] = str(_value)
# Vietnamese's "tư" (four) and "lăm" (five) after a ten, Greek's "εννιά", "εφτά", "οχτώ"
for _word, _digit in (("tư", "4"), ("lăm", "5"), ("εννιά", "9"), ("εφτά", "7"), ("οχτώ", "8"), ("اثنين", "2")):
    _DIGIT_WORDS[normalise_text(_word).lower()] = _digit
# kana's other readings: "れい", "まる" (zero), "しち" (seven), "きゅー" (nine)
_DIGIT_WORDS.update({"れい": "0", "まる": "0", "しち": "7", "きゅー": "9", "キュー": "9", "レイ": "0"})
_DIGIT_WORDS.update({"oh": "0", "zwo": "2", "tres": "3", "uma": "1", "meia": "6", "chaar": "4", "panch": "5"})
# Tagalog's other spellings, and radio's "niner" ("your one-time code is niner-six-seven-...": reviewer CD)
_DIGIT_WORDS.update({"kwatro": "4", "sinko": "5", "syete": "7", "nuebe": "9", "niner": "9"})
# Malay's "kosong" (zero) and "lapan" (eight), Tagalog's own digit words and Finnish's (reviewer CK's guests'
# numbers written in words: "kosong satu dua, empat dua satu, ...", "sero siyam dalawa pito, ...", "nolla neljä yksi")
_DIGIT_WORDS.update({"kosong": "0", "lapan": "8"})
for _value, _word in enumerate("isa dalawa tatlo apat lima anim pito walo siyam".split(), 1):  # noqa: SIM905
    _DIGIT_WORDS[_word] = str(_value)
for _value, _word in enumerate("nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän".split()):  # noqa: SIM905
    _DIGIT_WORDS[_word] = str(_value)
DIGIT_WORDS = _DIGIT_WORDS  # every digit said as a word, as the view writes it (dictated.py reads them too)
# German says a pair of digits as one number: "null vier null zweiundvierzig dreiunddreißig ..." (reviewer BM's
# transcripts), "null eins siebzig, Moment, einundzwanzig ...": each such word stands for its two digits.
_GERMAN_TENS = {"zwanzig": 2, "dreißig": 3, "dreissig": 3, "vierzig": 4, "fünfzig": 5, "sechzig": 6, "siebzig": 7,
                "achtzig": 8, "neunzig": 9}  # fmt: skip
_GERMAN_UNITS = {"ein": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9}
for _ten_word, _ten in _GERMAN_TENS.items():
    _DIGIT_WORDS[_ten_word] = f"{_ten}0"
    for _unit_word, _unit in _GERMAN_UNITS.items():
        _DIGIT_WORDS[f"{_unit_word}und{_ten_word}"] = f"{_ten}{_unit}"
for _value, _word in enumerate(
    ["zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"], 10
):
    _DIGIT_WORDS[_word] = str(_value)
# "meia" (half a dozen) is how Brazilians say six on the phone.
# "double oh", "triple five": one word for a digit said twice or three times (British dictation).
_REPEATS = {"double": 2, "triple": 3}
# (joined by a hyphen too: "oh seven seven double-oh": reviewer CW)
_DIGIT_WORD = "(?:(?:double|triple)[ \t-]+)?(?:" + "|".join(sorted(_DIGIT_WORDS, key=len, reverse=True)) + ")"
# Between digit words: punctuation, blanks, or a separator said as a word ("five six one dash four one").
# A caller's filler between them too ("five four six six, uh one six six seven": reviewer AR); not "um",
# Portuguese for one.
_FILLERS = "uh|uhh|uhm|umm+|erm|er+|ehm|eh+|ah+|hmm+|mm+|äh|ähm|ääh|öhm|euh"
# A caller's pause said in words, or a correction (reviewer BM's transcripts: "hang on", "attendez", "pardon",
# "sorry scratch that", "nej förlåt", "quer dizer", "digo", "yani"): read as a filler between digit words; a
# correction then drops the group it corrects (see _corrected).
_CORRECTIONS = (
    "sorry|pardon|non|no|nee|nein|nej|förlåt|forlat|perdón|perdon|scusi|scusa|digo|yani|i mean|scratch that"
    "|quer dizer|o sea|cioè|cioe|bzw|beziehungsweise|nein warte"
)
_PAUSES = (
    "hang on|you know|let me see|attendez|alors|moment|vänta|vanta|tipo|aspetta|even kijken|saniye|bir saniye"
    "|hum|eee+|é|so"
)
_SAID_BETWEEN = rf"(?:{_FILLERS}|{_CORRECTIONS}|{_PAUSES})"
_WORD_GAP = (
    # a pause: "...", "…" (the view's "..."), a comma or a dash, and words said in it
    # (Arabic's comma and the ideographic one too: "زائد، تسعة ستة ستة، ...": reviewer CI)
    # (and Ethiopic's comma: "ዜሮ ዘጠኝ ሶስት ስምንት፣ ሁለት ዘጠኝ፣ ...": reviewer CL)
    # (or a pipe, as a note sets groups apart: "vier eins sechs sieben | sieben sechs ...": reviewer CR)
    rf"(?:(?:[ \t]*(?:\.\.\.|[,،、፣\-–—/.|])[ \t]*|[ \t]+)(?:{_SAID_BETWEEN}[ \t]*(?:\.\.\.|[,،、፣.])?[ \t]+){{1,3}}"
    r"|[ \t]*(?:\.\.\.|[,،、፣・\-–—/.|])[ \t]*|[ \t]+(?:(?:dash|hyphen|bindestrich|tiret|guion|guión|trattino)[ \t]+)?"
    # a dash said between commas ("seis cero uno, guion, cero uno, guion, ...": reviewer CS), read only where an SSN's
    # or a phone's own word names the number (see _COMMA_DASH)
    r"|,[ \t]*(?:dash|hyphen|bindestrich|tiret|guion|guión|trattino),[ \t]*"
    r")"
)
_COMMA_DASH = lazy_compile(r",[ \t]*(?:dash|hyphen|bindestrich|tiret|guion|guión|trattino),")


def _country_code_words() -> dict[str, str]:
    """A two-digit country code said as one number after "plus", as English, Spanish, Portuguese and
    Italian say it ("thirty-three", "treinta y cuatro", "trinta e um", "trentanove", "trentuno"):
    each form with its digits. Keys join their words with " " (the text may write "-")."""
    units = {
        "en": "one two three four five six seven eight nine",
        "es": "uno dos tres cuatro cinco seis siete ocho nueve",
        "pt": "um dois três quatro cinco seis sete oito nove",
        "it": "uno due tre quattro cinque sei sette otto nove",
    }
    tens = {
        "en": "twenty thirty forty fifty sixty seventy eighty ninety",
        "es": "veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa",
        "pt": "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa",
        "it": "venti trenta quaranta cinquanta sessanta settanta ottanta novanta",
    }
    joins = {"en": (" ",), "es": (" y ",), "pt": (" e ",), "it": ("",)}
    words: dict[str, str] = {}
    for language, names in tens.items():
        for ten, name in enumerate(names.split(), 2):
            words[name] = f"{ten}0"
            for unit, digit in enumerate(units[language].split(), 1):
                for join in joins[language]:
                    # Italian drops the ten's vowel before a vowel ("trentuno", "trentotto")
                    stem = name[:-1] if language == "it" and digit[0] in "uo" else name
                    words[f"{stem}{join}{digit}"] = f"{ten}{unit}"
    for unit, digit in enumerate(["uno", "dós", "trés", "cuatro", "cinco", "séis", "siete", "ocho", "nueve"], 1):
        words[f"veinti{digit}"] = f"2{unit}"  # Spanish glues its twenties, accents or not ("veintidós")
        words[f"veinti{unaccented(digit)}"] = f"2{unit}"
    return words


_COUNTRY_CODE_WORDS = _country_code_words()
_COUNTRY_CODE_WORD = "|".join(
    re.escape(word).replace("\\ ", "[ \\-]") for word in sorted(_COUNTRY_CODE_WORDS, key=len, reverse=True)
)
# A digit word, or digits as typed among them ("my card is 2309 eight five eight seven 1995 ...",
# "615 nine four six 60 five three": reviewer AR); a run needs three words at least (_SPELT_MIN_WORDS).
_DIGIT_TOKEN = rf"(?:{_DIGIT_WORD}|(?<![0-9])[0-9]{{1,4}}(?![0-9]))"
_SPELT_MIN_WORDS = 3
_MINE_DIGITS = 9  # digits of a number read out after "my number is" alone
_SPELT_MIN_TOKENS = 7  # ... and seven tokens, unless typed groups hold the rest of the digits
# "plus" in the languages read: Vietnamese "cộng", Swahili "jumlisha", Hungarian "plusz" (reviewers BH and BI)
_PLUS_WORDS = "|".join(
    re.escape(normalise_text(word).lower())
    for word in ("plus", "più", "más", "mais", "artı", "arti", "cộng", "jumlisha", "plusz", "плюс", "زائد", "プラス")
)
# "plus four four, seven nine one one, ...": an international number read out; its country code may be
# said as one number ("más treinta y cuatro, seis cuatro cuatro, ...": reviewer AR).
_SPELT_RUN = lazy_compile(
    # Turkish's "artı" ("artı dokuz sıfır, iki bir iki, ...": reviewer BF)
    # Japanese's "プラス" before its kana, "・" between (the view's ".": reviewer CS)
    rf"(?<![^\W\d_])(?:(?P<plus>{_PLUS_WORDS})(?:[,،]?[ \t]+|(?<=ス)\.)"
    rf"(?:(?P<country>{_COUNTRY_CODE_WORD}){_WORD_GAP})?)?"
    # five tokens at least: "six one seven, 384, 2719" (reviewer AX), the typed groups holding the rest
    # (not led by Vietnamese's "hai", two, which is Hindi's "is": "mera mobile hai nau chhe teen ...")
    rf"(?!hai(?![^\W\d_])){_DIGIT_TOKEN}(?:{_WORD_GAP}{_DIGIT_TOKEN}){{4,18}}(?![^\W\d_])"
)
# Each token whole: a filler holds a digit word's letters ("umm" is no "um", Portuguese for one).
_SPELT_TOKEN = lazy_compile(rf"(?<![^\W\d_]){_DIGIT_WORD}(?![^\W\d_])|(?<![0-9])[0-9]{{1,4}}(?![0-9])")
_SPOKEN_FILLER = lazy_compile(rf"(?<![^\W\d_])(?:{_SAID_BETWEEN})(?![^\W\d_])")
_DASH_WORD = lazy_compile(
    r"[ \t]*(?:-|(?<![^\W\d_])(?:dash|hyphen|bindestrich|tiret|guion|guión|trattino)(?![^\W\d_]))[ \t]*"
)
_SSN_GROUPS = (3, 2, 4)
# Words before a number read out in an SSN's groups that name another kind of number (an attacker's round:
# "the part number is one two three dash four five dash ...", "Gate combination two one one dash ...").
_NAMES_ANOTHER = frozenset(
    """part serial tracking ticket ref reference case id code combination lock order invoice confirmation gate pin
    number no account booking item sku model policy claim member""".split()  # noqa: SIM905 - a word list reads better as words
) | {
    # Swahili's ticket, order, receipt, invoice and transaction, Ukrainian's and Russian's order, as the view writes
    # them ("Namba ya tiketi yako ni sifuri saba ...", "Номер замовлення: один два ...": an attacker's round)
    "tiketi", "oda", "agizo", "risiti", "ankara", "muamala",
    "resibo", "tiket", "kontrata", "reserbasyon",  # Tagalog's receipt, ticket, contract, booking
    # Finnish's invoice, order, reference and booking, as they name a number ("Laskun numero: kaksi nolla ...": the
    # attacker's round on reviewer CK's readers)
    "lasku", "laskun", "tilaus", "tilauksen", "viite", "viitteen", "varaus", "varauksen",
    *(normalise_text(word).lower() for word in ("замовлення", "заказа", "заказ", "квитанції", "квитанции")),
    # Turkish's code and campaign, order and its count ("kampanya kodu: sıfır beş ...", "sipariş adedi": an attacker's)
    "kodu", "kampanya", "sipariş", "siparis", "adedi",
}  # fmt: skip
# Two digit words in a row after a blank: what a spelt-out number holds. Led by the blank, the pattern
# is tried at blanks only (a pattern led by the words is tried at nearly every letter: a fifth of the
# time of a scan of prose). Wider than the finder: the finder decides.
_DIGIT_WORD_STARTS = "|".join(
    [
        by_first_letter(sorted(word for word in _DIGIT_WORDS if word[0].isascii())),
        *sorted(word for word in _DIGIT_WORDS if not word[0].isascii()),  # Turkish "üç"
    ]
)
_OPENERS = " \t\n:("  # what _SPELT_START reads before a digit word ...
# ... and before a digit word in kana: "・" (the view's ".") or "、", as Japanese runs its words together
_KANA_OPENERS = ".、"
_KANA_DIGITS = frozenset(word for word in _DIGIT_WORDS if "\u3040" <= word[0] <= "\u30ff")
_SEPARATORS = " \t,،、፣・-–—/.|"  # ... and right after it
_SPELT_START = lazy_compile(
    rf"(?:[{re.escape(_OPENERS)}]|[{_KANA_OPENERS}](?=[\u3040-\u30ff]))"
    rf"(?:{_DIGIT_WORD_STARTS})(?=[{re.escape(_SEPARATORS)}])"
    # then another digit word, or a digit typed ("mobile: oh 7 nine 0 one 5 ...": reviewer BP)
    rf"[{re.escape(_SEPARATORS)}]{{1,3}}(?:{_DIGIT_WORD}(?![^\W\d_])|[0-9](?![0-9]{{4}}))"
)
_SPELT_CONTEXT = _PHONE_WORDS | {
    "número", "numero", "nummer", "numer", "numéro", "unter", "au", "rappelez", "rappeler", "móvil", "movil",
    "celular", "telemóvel", "cellulare", "handy", "mobiel", "portable", "telefoon",
    # German compounds, Turkish "call back" and "my number" ("Rückrufnummer laut Anruferin: null drei
    # null, ...", "geri dönüş numarası: sıfır beş üç iki, ...": reviewer Y)
    "rückrufnummer", "telefonnummer", "handynummer", "mobilnummer", "dönüş", "numaram",
    "numarayı", "numarayi",  # Turkish "the number" as an object ("numarayı sesli okudu: sıfır beş ...": reviewer AX)
    # "call me (back)" in Dutch, Italian, Polish, Romanian ("bel me terug op nul zes, ...", "richiamatemi al
    # tre tre nove, ...", "proszę oddzwonić na pięć zero jeden, ...", "sunați-mă la zero șapte ...": reviewer Z)
    "bel", "terug", "terugbellen", "richiamatemi", "chiamatemi", "chiamami", "oddzwonić", "oddzwonic",
    "zadzwonić", "sunați", "sunati",
    "appelle", "appelez", "joindre",  # French ("appelle-moi au zéro sept, quarante et un, ...")
    # Indonesian's "mobile", "call" and "telephone" (not "nomor" alone, any number: "Nomor resi: tujuh dua ...",
    # a parcel's, an attacker's round on reviewer BJ's readers)
    "ponsel", "hubungi", "telepon",
    "simu", "namba",  # Swahili's phone and number ("namba yangu ni sifuri saba ...": reviewer CC)
    "hp",  # Indonesian's "nomor HP" (handphone: reviewer AJ); Russian's and Hindi's number and phone, as viewed
    # Swahili's "call me" ("nipigie kwa sifuri saba ...": reviewer CI; not "piga", which does sums and votes too)
    "nipigie",
    # Hausa's "his (her) phone" ("lambar wayarsa ita ce sifiri tara ...": reviewer CL; not "waya" alone, Swahili's
    # wire; nor Turkish's "cep", a pocket, "line", a production's or a diff's, or "numarası", any number's: attackers'
    # rounds); a mobile wallet's account is its owner's phone number
    "wayarsa", "wayata", "ስልክ", "محفظة", "المحفظة", normalise_text("বিকাশ"),
    # Spanish's formal "call me (us)", Turkish's "call (polite)" and "from the number" ("Llámeme al cero uno uno, ...",
    # "Beni şu numaradan arayın: sıfır beş ...": reviewer CR)
    "llámeme", "llameme", "llámenos", "llamenos", "arayın", "arayin", "arayınız", "arayiniz", "numaradan",
    # Dutch's callback number (reviewer CS: "Terugbelnummer zoals uitgesproken: nul zes, ..."; not the generic words
    # for "number" of other languages, an order's and a serial's as often: an attacker's round)
    "terugbelnummer",
    *(
        normalise_text(form).lower()  # "Номер" reads "hoмep": its capital "Н" looks like "H"
        for word in ("номер", "телефон", "тел", "мобильный", "नंबर", "फोन", "मोबाइल",
                     # Russian's "call (me) back", "call" ("перезвоните на плюс, семь, ...": reviewer CI)
                     "перезвоните", "перезвонить", "позвоните", "позвонить", "звоните",
                     # Greek's "call (me)", "telephone" and "mobile" ("Καλέστε με στο έξι εννέα ...": reviewer CR)
                     "καλέστε", "καλεστε", "τηλέφωνο", "τηλέφωνό", "τηλεφωνο", "κινητό", "κινητο")
        for form in (word, word.capitalize(), word.upper())
    ),
}  # fmt: skip
# An SSN or a card read out (reviewer I: "my social is eight one three, three zero, ..."; "el número de
# la tarjeta es cuatro seis siete cuatro, ..."): named by these words, and valid as such a number.
_SPELT_SSN_CONTEXT = frozenset({"social", "ssn", "seguro"})
# ... and the card's number named in one word ("Die Kartennummer lautet fünf fünf neun acht, ...": reviewer AL)
_SPELT_CARD_CONTEXT = frozenset(
    {"card", "tarjeta", "carte", "karte", "kreditkarte", "visa", "mastercard", "amex", "kartennummer",
     "kreditkartennummer", "cartão", "carta", "kaart", "karta", "kart", "kortnummer", "kaartnummer"}
)  # fmt: skip
_PHONE_MOST_DIGITS = 15  # E.164
_LONG_SPELT = 10  # digits read out after a question for a phone: a whole number with its area code
_SPELT_ASKED = _SPELT_CONTEXT | {"callback", "number", "reach", "contact"}
# A code read out after what asks for it ("my PIN, so you know, is seven double three one", "the
# three-digit code? Caller: zero five three", "¿y el código que le ha llegado? Cliente: dos nueve tres,
# uno cero cuatro": reviewer T): three to eight digits, not counted up or down ("one two three").
_SPELT_CODE_RUN = lazy_compile(rf"(?<![^\W\d_]){_DIGIT_WORD}(?:{_WORD_GAP}{_DIGIT_WORD}){{1,7}}(?![^\W\d_])")
_SPELT_CODE_CONTEXT = frozenset(
    # Turkish "kodum" (my code); not "kodu" (its code: "Posta kodu: üç dört ...", a postcode); Turkish's (card's)
    # password, a PIN ("Kart şifresi yazıyla: yedi iki iki dokuz": reviewer CE)
    {"pin", "code", "cvv", "cvc", "otp", "passcode", "código", "codigo", "codice", "kod", "cryptogramme", "kodum"}
)  # fmt: skip
_SPELT_PIN_WORDS = frozenset({"şifre", "şifresi", "şifrem", "sifre", "sifresi"})
# Digit words that are also other words: a filler ("um", "oh"), a verb ("do"), an article ("un", "uma"),
# code's "null". A code read out holds three others at least ("Um, oh, one moment" is no code).
_AMBIGUOUS_DIGIT_WORDS = frozenset({"um", "uma", "oh", "do", "un", "null", "nul", "e", "ek", "char", "nau"})
_CODE_WORDS_MIN = 3
_CODE_DIGITS = (3, 8)
# (round past 9 or 0 too: "sıfır, bir, ... dokuz" on a keypad test, "nueve ocho siete, ..., cero, ¡despegue!", "three
# four five, six seven eight, nine zero one": an attacker's round)
_COUNTING_RUNS = frozenset(
    run[start:end] for run in ("01234567890123456789", "98765432109876543210") for start in range(10)
    for end in range(start + 3, start + 11)
)  # fmt: skip
COUNTING_RUNS = _COUNTING_RUNS  # digits counted up or down, wrapping past nine (edi.py reads them too)


def _spelt_digits(word: str) -> str:
    """The digits one digit word says ("seven" "7", "double oh" "00")."""
    repeat, _, digit = word.replace("-", " ").rpartition(" ")
    return _DIGIT_WORDS[digit.strip()] * _REPEATS.get(repeat.strip(), 1)


def _ssn_grouped(run: str) -> bool:
    """A run read out in an SSN's groups, three, two and four digits, with dashes said or written
    between them ("three six five dash one five dash seven five one two"): an SSN, named or not."""
    groups = _DASH_WORD.split(run)
    return len(groups) == len(_SSN_GROUPS) and all(
        sum(len(token if token[0].isdigit() else _spelt_digits(token)) for token in _SPELT_TOKEN.findall(group)) == size
        for group, size in zip(groups, _SSN_GROUPS, strict=True)
    )


# A North American number given in two parts, its area code said first and the rest further on ("Area
# code is 206. The rest I'll put in the next line to be safe:\n957 5589": reviewer AR). Both parts are
# found when the area code and the next seven-digit number make a valid number.
_AREA_CODE = lazy_compile(
    r"(?<![^\W\d_])area[ \t]+code(?:[ \t]+(?:is|was))?[ \t]*[:=]?[ \t]*\(?(?P<area>[2-9][0-9]{2})\)?(?![0-9])"
)
_LOCAL_SEVEN = lazy_compile(r"(?<![0-9+])(?P<exchange>[2-9][0-9]{2})[ \t.\-](?P<line>[0-9]{4})(?![0-9])")
# What names a number of seven digits as something else (an attacker's round: "Population 8700000",
# "build 7041223", "job id 550-1234").
_NOT_THE_REST = frozenset(
    "population residents people build job id account order invoice ticket case ref part serial version".split()  # noqa: SIM905
)
_AREA_REACH = 160  # characters after the area code read for the rest of the number


def find_split_area_codes(scan: Scan) -> Iterator[tuple[str, int, int]]:
    text = scan.text
    for area in _AREA_CODE.finditer(scan.lower):
        rest = _LOCAL_SEVEN.search(text, area.end(), area.end() + _AREA_REACH)
        if rest is None or any(char.isdigit() for char in text[area.end() : rest.start()]):
            continue  # the next number of seven digits, with no other number between
        if not _NOT_THE_REST.isdisjoint(_WORDS.findall(scan.lower[area.end() : rest.start()])[-3:]):
            continue
        digits = area["area"] + rest["exchange"] + rest["line"]
        if phone_e164(f"+1{digits}", ()) is None:
            continue
        yield "PHONE", area.start("area"), area.end("area")
        yield "PHONE", rest.start(), rest.end()


def may_hold_split_area_code(scan: Scan) -> bool:
    return "area" in scan.lower and _AREA_CODE.search(scan.lower) is not None


# Every opening of _SPELT_START (an opener, a digit word, a separator), among the gates' words: found, every place,
# in the one pass of the gates' automaton over the text that every scan makes (an automaton of their own cost a
# second pass over every text, the costliest of the gates).
_SPELT_OPENINGS = index_words(
    *(
        f"{opener}{word}{separator}"
        for word in _DIGIT_WORDS
        for opener in _OPENERS + (_KANA_OPENERS if word in _KANA_DIGITS else "")
        for separator in _SEPARATORS
    )
)


def may_hold_spelt_phone(scan: Scan) -> bool:
    """_SPELT_START is in the text, or at its start: tried only where the text holds one of its
    openings (a blank, a colon or a bracket, a digit word and a separator), found with the gates' words."""
    lower = scan.lower
    match = _SPELT_START.match
    words = scan.words
    # (an intersection reads the text's few words, not the openings)
    for opening in _SPELT_OPENINGS.intersection(words):
        for at in words[opening]:
            if match(lower, at) is not None:
                return True
    return match(" " + lower[:16]) is not None


def _french_numbers() -> dict[str, str]:
    """French words for 0 to 99, each as the digits it stands for ("zéro" "0", "six" "6", "quarante-deux"
    "42", "soixante et onze" "71", "quatre-vingt-dix-neuf" "99"; Belgium's and Switzerland's "septante",
    "huitante", "octante", "nonante" too): how France reads a phone number, in pairs. Keys join their
    words with "-", where the text may write a blank ("quarante et un", "quatre vingt deux")."""
    small = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
             "douze", "treize", "quatorze", "quinze", "seize"]  # fmt: skip
    words = {word: str(value) for value, word in enumerate(small)} | {"zero": "0", "une": "1"}
    for value in range(17, 20):
        words[f"dix-{small[value - 10]}"] = str(value)
    tens = {20: "vingt", 30: "trente", 40: "quarante", 50: "cinquante", 60: "soixante", 70: "septante",
            80: "huitante", 90: "nonante"}  # fmt: skip
    for ten, word in tens.items():
        words[word] = str(ten)
        words[f"{word}-et-un"] = str(ten + 1)
        for unit in range(2, 10):
            words[f"{word}-{small[unit]}"] = str(ten + unit)
    words["octante"] = "80"
    for unit in range(10, 20):  # soixante-dix ... soixante-dix-neuf, quatre-vingt-dix ...
        form = small[unit] if unit < 17 else f"dix-{small[unit - 10]}"
        words[f"soixante-{form}"] = str(60 + unit)
        words[f"quatre-vingt-{form}"] = str(80 + unit)
    words["soixante-et-onze"] = "71"
    words["quatre-vingts"] = words["quatre-vingt"] = "80"
    for unit in range(1, 10):
        words[f"quatre-vingt-{small[unit]}"] = str(80 + unit)
    return words


_FRENCH_NUMBERS = _french_numbers()
# Grouped by first letter (see by_first_letter): a search tries one group per position, not 130 words.
_FRENCH_NUMBER = by_first_letter(
    re.escape(word).replace("\\-", "[ \\-]") for word in sorted(_FRENCH_NUMBERS, key=len, reverse=True)
)
_FRENCH_PIECE = lazy_compile(rf"(?:{_FRENCH_NUMBER})(?![^\W\d_])")
_FRENCH_JOIN = lazy_compile(r"[ \-]")
# A French number read out in pairs: "zéro six, quarante-deux, dix-huit, soixante-treize, zéro cinq"
# (reviewers W and Z), its pairs a dash apart too ("zéro six - zéro neuf - trente-cinq - ...": reviewer CH).
_FRENCH_RUN = lazy_compile(
    rf"(?<![^\W\d_])(?:{_FRENCH_NUMBER})(?:[ \t]*[,\-–—]?[ \t]+(?:{_FRENCH_NUMBER})){{3,9}}(?![^\W\d_])"
)
_FRENCH_TENS = ("vingt", "trente", "quarante", "cinquante", "soixante", "dix", "onze", "douze", "treize",
                "quatorze", "quinze", "seize", "septante", "nonante")  # fmt: skip


def _french_phones(lower: str) -> Iterator[tuple[str, int, int]]:
    """A French number read in pairs after words that name a phone: ten digits from "0"."""
    for match in _FRENCH_RUN.finditer(lower):
        number = "".join(
            _FRENCH_NUMBERS[_FRENCH_JOIN.sub("-", piece)] for piece in _FRENCH_PIECE.findall(match.group())
        )
        words = _WORDS.findall(lower[max(0, match.start() - 48) : match.start()])[-4:]
        if _SPELT_CONTEXT.isdisjoint(words) and _FRENCH_GIVEN.search(lower, max(0, match.start() - 4), match.start()):
            # given after a colon, the phone's word may be eight words back in its sentence ("Son portable, je te
            # l'écris en lettres : zéro sept, soixante-cinq, ...": reviewer CP); not without one ("Sur mon portable,
            # le chronomètre affichait zéro six, ...", "Au téléphone, ... les parcelles zéro trois, ...": an
            # attacker's round)
            low = max(0, match.start() - _FRENCH_REACH)
            low = max([low] + [lower.rfind(end, low, match.start()) + 1 for end in _SENTENCE_ENDS])
            # (a phone's own word: not "numéro", any number's, "Le numéro de commande, je te le lis : ...")
            words = [word for word in _WORDS.findall(lower[low : match.start()])[-8:] if word not in _ANY_NUMBER]
        if len(number) == _LONG_SPELT and number.startswith("0") and _SPELT_CONTEXT.intersection(words):
            yield "PHONE", *match.span()


_FRENCH_REACH = 80
_FRENCH_GIVEN = lazy_compile(r":[ \t]*$")
_SENTENCE_ENDS = ("\n", ". ", "! ", "? ", "; ")


# The words around a number read out: those of _WORDS, and Cyrillic (mixed with the Latin letters the view
# writes for its look-alikes: "нoмep") and Devanagari ones ("नबर": its marks dropped).
# Greek's too, Latin where its letters look Latin ("Καλέστε" reads "kaλέσte": reviewer CR)
_SPELT_WORDS = lazy_compile(rf"[{_LETTERS}\u0370-\u03ff\u0400-\u04ff]+|[\u0900-\u0963\u0966-\u097f]+|{_OTHER_WORDS}")


# A phone's label in Chinese or Japanese right before digits read out ("電話番号は ぜろ・きゅう・...", "电话：seven").
_CJK_PHONE_BEFORE = lazy_compile(
    r"(?:電話番号|電話|携帯番号|携帯|連絡先|电话号码|电话|手机号码|手机)(?:は|是|为)?:?[ \t]{0,2}$"
)


def _unread_form(scan: Scan, match: re.Match[str], rest: str, tokens: list[str], read: str) -> bool:
    """A dash said between commas with no SSN's name before it, or kana digits that dial no number."""
    if _commas_around_a_dash(rest, scan.lower, match.start()):
        return True
    return not _KANA_DIGITS.isdisjoint(tokens) and not _kana_phone(read, match["plus"] is not None, scan)


def _kana_phone(read: str, plus: bool, scan: Scan) -> bool:
    """Digits read in kana make a number as dialled: a "+" number, or a Japanese one from its trunk "0", valid
    ("電話：いち、さん、ご、なな、..." is a menu's order of buttons, "電話：イチ・ニ・サン・...・ゼロ" a keypad's test:
    an attacker's round)."""
    if plus:
        return phone_e164("+" + read, scan.phone_regions) is not None
    regions = ("JP", *scan.phone_regions)
    return read.startswith("0") and read not in _COUNTING_RUNS and phone_e164(read, regions) is not None


def _said_words_before(lower: str, start: int) -> list[str]:
    """The last words before a number read out at ``start``; "phone" after a Chinese or Japanese phone's label
    ("電話番号：プラス・はち・いち、...": reviewer CS), whose words are not _SPELT_WORDS'."""
    words = _SPELT_WORDS.findall(lower[max(0, start - 48) : start])[-4:]
    if _CJK_PHONE_BEFORE.search(lower, max(0, start - 12), start) or _WHATSAPP_NUMBER.search(
        lower, max(0, start - 32), start
    ):
        words.append("phone")
    return words


# WhatsApp's number as Indonesians and Malays write it ("Nomor WA saya plus enam dua, ...": reviewer CT); not "wa"
# alone, Swahili's "of" ("Msimbo wa bidhaa ni tano nne ...") nor a service or a group on WhatsApp ("layanan WA", "grup
# WA": an attacker's round).
_WHATSAPP_NUMBER = lazy_compile(r"(?<![^\W\d_])(?:nomor|nombor|no\.?)[ \t]+wa(?:[ \t]+saya)?[ \t]*:?[ \t]*$")


def _commas_around_a_dash(rest: str, lower: str, start: int) -> bool:
    """A dash said between commas where no SSN's full name comes in the 60 characters before ("Referencia del
    pedido: dos cero dos, guion, ...", "Estoy seguro de que el pedido es ...", "Social club locker combination: ...",
    "Teléfono de soporte: extensión dos dos siete, guion, ...": an order's, a combination's, an extension's; the
    attacker's rounds): read only as an SSN, in its groups."""
    return _COMMA_DASH.search(rest) is not None and _SSN_SAID.search(lower, max(0, start - 60), start) is None


# An SSN's full name ("Social Security", "Seguro Social", "SSN"), then only what says its number follows.
_SSN_SAID = lazy_compile(
    r"(?<![^\W\d_])(?:ssn|social[ \t]+security|seguro[ \t]+social)(?![^\W\d_])"
    r"(?:[ \t]*+(?:number|no\.?|#|is|was|es|era|said|aloud|read|out|dictated|dict[oó]|:))*+[ \t]*+$"
)


def find_spelt_numbers(scan: Scan) -> Iterator[tuple[str, int, int]]:
    """Phones, SSNs and cards read out digit by digit, named by the words before them."""
    lower = scan.lower
    if any(word in lower for word in _FRENCH_TENS):
        yield from _french_phones(lower)
    for match in _SPELT_RUN.finditer(lower):
        words = _said_words_before(lower, match.start())
        # What a caller answers names it a few lines up ("your Social Security number?\nCaller: Sure, it's ...").
        asked = _SPELT_WORDS.findall(lower[max(0, match.start() - 160) : match.start()])[-16:]
        country = match["country"]
        rest = match.group() if country is None else lower[match.end("country") : match.end()]
        tokens = _SPELT_TOKEN.findall(rest)
        if sum(not token[0].isdigit() for token in tokens) < _SPELT_MIN_WORDS:
            continue  # digits as typed: the numeric finders' (which check their shapes)
        if len(tokens) < _SPELT_MIN_TOKENS and (
            all(not token[0].isdigit() for token in tokens) or WORD_AFTER.match(lower, match.end())
        ):
            # Five or six words alone are a code's or a count's ("siete siete uno dos cero cuatro"); five or six
            # tokens with typed groups end their clause ("two, one, two, 555, 1234 across the venue", "...
            # 2719 calls" are counts: an attacker's round).
            continue
        read = "".join(token if token[0].isdigit() else _spelt_digits(token) for token in tokens)
        if _unread_form(scan, match, rest, tokens, read):
            continue
        if len(read) >= _MINE_DIGITS and _MY_NUMBER_SAID.search(lower, max(0, match.start() - 48), match.start()):
            # "số của tôi là không ba bốn ...": "my number is" in the caller's language (reviewer CH), a phone's nine
            # digits at least ("我的号码是 seven two nine ... — my bingo card": the attacker's round)
            words = [*words, "phone"]
        # Read as said, fillers and all; then, where the caller corrected a group ("quatre trois euh non quatre
        # quatre", "three eight one six sorry scratch that one eight one six": reviewer BM), without the
        # groups corrected.
        readings = [read]
        if _CORRECTION.search(rest) is not None:
            corrected = _corrected(rest)
            if corrected and corrected != read:
                readings.append(corrected)
        if (
            _PAUSED.search(rest) is not None
            and not _paused_number_said(lower, match, words, asked)
            and not _card_said(words)
        ):
            # groups a pause or a correction joins: only where a phone is named (see _paused_number_said) or a card
            # ("the card number is four double six seven, uh, eight four two oh... two five ...": reviewer BV),
            # whose reading must then pass a card's checks
            continue
        for number in readings:
            kind = _spelt_kind(
                scan, match, number, lower=lower, country=country, tokens=tokens, rest=rest, words=words, asked=asked
            )
            if kind is not None:
                yield kind, *match.span()
                break
    if any(word in lower for word in _SPELT_CODE_CONTEXT) or any(word in lower for word in _SPELT_PIN_WORDS):
        yield from _spelt_codes(lower)


# What may follow a card's word before its digits are read out ("the card number is", "het kaartnummer is", "the card
# number\n[caller]:"), where a pause joins its groups: not "the card game scores: four five three two … so …" (an
# attacker's round on reviewer BM's readers).
_AFTER_CARD_WORD = frozenset(
    {"number", "no", "nr", "is", "nummer", "numero", "número", "numéro", "es", "ist", "est", "lautet", "caller",
     "customer", "client"}
)  # fmt: skip


def _card_said(words: list[str]) -> bool:
    for at, word in enumerate(words):
        if word in _SPELT_CARD_CONTEXT:
            return all(after in _AFTER_CARD_WORD for after in words[at + 1 :])
    return False


_OTHER_NUMBERS_SAID = _NAMES_ANOTHER - {"number", "no", "member"}
# "number" and "phone" in the languages read, inflected ("номеру", "numarası", "telefonnummer"), as the view writes them
_NUMBER_STEMS = tuple(
    normalise_text(stem).lower()
    for stem in ("number", "numer", "numar", "nummer", "número", "numero", "numéro", "номер", "телефон", "phone",
                 "telefon", "tel", "رقم", "نمبر", "नंबर", "电话", "番号", "번호")
)  # fmt: skip
# What joins digit groups since reviewer BM: an ellipsis, a pause or a correction said between them.
_PAUSED = lazy_compile(rf"\.\.\.|(?<![^\W\d_])(?:{_CORRECTIONS}|{_PAUSES})(?![^\W\d_])")
# Words that name any number: not enough to read groups a pause joins as a phone ("the number of the invoice at the
# top? three zero three ... er ...", "Number of page views yesterday: seven one three ... so ...": an attacker's round)
_ANY_NUMBER = frozenset(
    {
        "number",
        "número",
        "numero",
        "nummer",
        "numer",
        "numéro",
        "no",
        "nr",
        "au",
        "unter",
        "bel",
        "terug",
        "hp",
        "namba",
    }
)
# An operand before "plus" makes it arithmetic ("Call it y plus three three six ...")
_OPERAND_BEFORE = lazy_compile(r"(?:^|[^\w])(?:[a-z]|[0-9]+|\))[ \t]+$")


def _paused_number_said(lower: str, match: re.Match[str], words: list[str], asked: list[str]) -> bool:
    """Digit groups joined by pauses or corrections are a phone only where a phone (not any number) is named right
    before them ("reach me on", "call me back at", "mon portable c'est le", "Handynummer ist") or asked for, no
    reference's number is named in the question, no word of a count follows, and a "plus" before them is no
    sum's (an attacker's round: "Give me a ring when the bids reach nine four five ... hang on ...", "the phone
    survey gave us ... responses")."""
    if match["plus"] is not None and _OPERAND_BEFORE.search(lower, max(0, match.start() - 12), match.start()):
        return False
    phone_words = _SPELT_CONTEXT - _ANY_NUMBER
    # a phone's noun right before ("mon portable c'est le", "Handynummer ist"), not a letter's abbreviation ("don't
    # know" holds a "t") nor a verb alone ("on the call, six one seven ..."): "call me on" is said by _ME_BEFORE
    nouns = [word for word in words[-2:] if len(word) > _SHORTEST_NOUN and word not in _CALL_VERBS]
    named = (
        bool(phone_words.intersection(nouns))
        or _ME_BEFORE.search(lower, max(0, match.start() - 32), match.start()) is not None
        or _phone_then_copula(words[-4:], phone_words)
        # "[user] call oh seven one ...": the verb said to the number itself, not "on the call, six one seven"
        or (words[-1:] in (["call"], ["dial"], ["ring"]) and words[-2:-1] not in (["the"], ["a"], ["this"], ["that"]))
    )
    # asked for: a question naming a phone on a line before ("What's the best number to reach you on?\nCALLER: ...")
    question = lower.rfind("?", max(0, match.start() - _ASKED_BACK_CHARS), match.start())
    asked_line = lower[lower.rfind("\n", 0, question) + 1 : question] if question != -1 else ""
    asked_for = (
        question != -1
        and "\n" in lower[question : match.start()]
        and (
            any(
                len(word) > _SHORTEST_NOUN and word not in _CALL_VERBS and word in phone_words
                for word in _SPELT_WORDS.findall(asked_line)
            )
            or _YOU_REACHED.search(asked_line) is not None  # "the best number to reach you on?"
        )
    )
    if not (named or asked_for or match["plus"] is not None):
        return False
    if _OTHER_NUMBERS_SAID.intersection(asked) and not _PHONE_WORDS.intersection(asked):
        return False
    after = _WORD_AFTER_RUN.match(lower, match.end())
    return after is None or after["word"] in _TALK_AFTER


_ASKED_BACK_CHARS = 160
_SHORTEST_NOUN = 2
_CALL_VERBS = frozenset({"call", "text", "ring", "contact", "dial", "reach", "bel", "liga", "ligue", "chama", "sms"})
# "reach me on", "call me back at", "a call back at", "erreichen mich unter", "rappelez-moi au": a phone named by
# who is reached, right before the digits
_ME_BEFORE = lazy_compile(
    r"(?:(?<![^\W\d_])(?:reach|call|ring|text|phone|contact)(?:[ \t]+(?:me|us))?(?:[ \t]+back)?[ \t]+(?:on|at)"
    r"|erreichen[ \t]+(?:mich|uns)[ \t]+unter|(?:rappelez|appelez|rappelle|appelle)[ \t\-]*(?:moi|nous)[ \t]+au"
    r"|ll[aá]m[ae]me[ \t]+al|ligue[ \t]+para[ \t]+mim[ \t]+no|chiamami[ \t]+al)[ \t,:]*$"
)
_YOU_REACHED = lazy_compile(r"(?<![^\W\d_])(?:reach|call|ring|text|contact)[ \t]+(?:you|u)(?![^\W\d_])")
_COPULAS = frozenset({"is", "ist", "es", "est", "é", "è", "lautet", "to", "är", "er", "on", "le", "el", "o"})


def _phone_then_copula(words: list[str], phone_words: frozenset[str]) -> bool:
    """A phone's noun, then a copula before the digits ("mon portable c'est le zéro sept, ...", "my mobile is")."""
    for at, word in enumerate(words):
        if len(word) > _SHORTEST_NOUN and word not in _CALL_VERBS and word in phone_words:
            return any(later in _COPULAS for later in words[at + 1 :])
    return False


_WORD_AFTER_RUN = lazy_compile(r"[ \t]+(?P<word>[^\W\d_][^\W\d_']*(?:'[^\W\d_]+)?)")
# What a caller says after a number given: talk, not the count's noun ("... one eight one six I'm in all afternoon")
_TALK_AFTER = frozenset(
    {"i", "i'm", "im", "and", "or", "please", "thanks", "thank", "cheers", "ok", "okay", "again", "that's", "thats",
     "after", "before", "if", "is", "was", "yes", "no", "right", "correct", "bye", "y", "e", "et", "und", "o", "ou",
     "oder"}
)  # fmt: skip


# "The customer dictated the number: ..." in languages whose word for "number" names any number, and whose qualifier
# follows it ("αριθμό σειράς", a serial's; "číslo objednávky", an order's: an attacker's round on reviewer CS's
# readers): the number's word read only as the last word before the digits, or followed by words that say how it was
# given ("číslo nadiktované slovy:", "המספר במילים:"). Each word with its language's region: without a word that says it
# was dictated, the digits must make a valid number there or in the deployment's regions (reviewer CS).
_NUMBER_NAMED_IN: dict[str, str] = {}
for _region, _number_words in (
    ("GR", "αριθμός αριθμό αριθμού νούμερο"),
    ("CZ", "číslo čísla číslem"),
    ("SK", "číslo čísla číslom"),
    ("FI", "numero numeron numeroa numeroni"),
    ("SE", "numret numren"),
    ("NO", "nummeret"),
    ("DK", "nummeret"),
    ("IL", "המספר מספר מספרו מספרה"),
    ("HU", "szám számot számát számom"),
    ("PL", "numer numeru"),
):
    for _word in _number_words.split():
        _NUMBER_NAMED_IN.setdefault(normalise_text(_word).lower(), _region)
_DICTATED_WORDS = frozenset(
    viewed_words(
        *(  # noqa: SIM905 - a word list reads better as words
            "υπαγόρευσε υπαγόρευσαν διάβασε ολογράφως λέξεις "
            "nadiktoval nadiktovala nadiktované nadiktovaný diktoval diktovala přečetl přečetla slovy slovami "
            "luetteli saneli sanoi luki sanoin "
            "läste dikterade upp leste læste dikterte dikterede ord "
            "הכתיב הכתיבה הקריא הקריאה במילים "
            "diktálta betűvel szóban podyktował podyktowała słownie"
        ).split()
    )
)
# What may come between the number's word and the digits besides those: "is", "the", "of the customer".
_NUMBER_NAMED_THEN = _DICTATED_WORDS | set(
    viewed_words(
        *"είναι του πελάτη je zákazníka on asiakkaan är kundens er kundens הוא של הלקוח az ügyfél to klienta".split()  # noqa: SIM905
    )
)


def _number_named(words: list[str], number: str, dialled: str, scan: Scan, *, start: int) -> bool:
    """A phone's digits after "the number" in a language whose word for it names any number (see _NUMBER_NAMED_IN),
    where the customer or the caller gave it ("Ο πελάτης υπαγόρευσε τον αριθμό:", "Kunden läste upp numret:") or it
    was given in words ("Číslo nadiktované slovy:"): a warehouse's worker reads a serial's number as often ("Skladník
    ... přečetl číslo:", "truckföraren läste upp numret:", "Sériové číslo je ...": an attacker's round)."""
    lower = scan.lower
    for at in range(len(words) - 1, -1, -1):
        region = _NUMBER_NAMED_IN.get(words[at])
        if region is None:
            continue
        if not _NUMBER_NAMED_THEN.issuperset(words[at + 1 :]) or len(number) < _MINE_DIGITS:
            return False
        if at and words[at - 1] in _NUMBER_QUALIFIED:
            return False  # "Sériové číslo", "Ο σειριακός αριθμός", "a rendelés számát"
        sentence = max(0, start - _GIVER_REACH)
        sentence = max([sentence] + [lower.rfind(end, sentence, start) + 1 for end in _SENTENCE_ENDS])
        given = not _IN_WORDS.isdisjoint(words[at + 1 :]) or not _GIVERS.isdisjoint(
            _SPELT_WORDS.findall(lower, sentence, start)
        )
        if not given:
            return False
        if not _DICTATED_WORDS.isdisjoint(words):
            return True
        return phone_e164(dialled, (region, *scan.phone_regions)) is not None
    return False


# Who gives a number: the customer, the client, the caller (as the view writes them), and "in words" right after it.
_GIVERS = frozenset(
    viewed_words(
        *(  # noqa: SIM905 - a word list reads better as words
            "πελάτης πελάτισσα πελάτη καλών zákazník zákaznice zákazníka klient klientka volající volajúci asiakas "
            "asiakkaan soittaja kunden kund kunde kundens uppringaren הלקוח הלקוחה המתקשר המתקשרת ügyfél ügyfelünk "
            "hívó klienta dzwoniący dzwonąca"
        ).split()
    )
)
_IN_WORDS = frozenset(viewed_words(*"slovy slovami sanoin במילים ολογράφως λέξεις słownie betűvel szóban".split()))  # noqa: SIM905
# The words that qualify "the number" as another kind's right before it (a serial's, a product's, an order's).
_NUMBER_QUALIFIED = frozenset(
    viewed_words(
        *(  # noqa: SIM905 - a word list reads better as words
            "sériové sériové výrobní výrobné evidenční inventární kontrolní objednací σειριακός σειριακό τελικός "
            "rendelés csomag számla sarja tilaus"
        ).split()
    )
)
_GIVER_REACH = 120


def _spelt_kind(
    scan: Scan,
    match: re.Match[str],
    number: str,
    *,
    lower: str,
    country: str | None,
    tokens: list[str],
    rest: str,
    words: list[str],
    asked: list[str],
) -> str | None:
    """The type of the number ``number`` read out at ``match``, or None (see find_spelt_numbers)."""
    # "my number is" said (find_spelt_numbers adds "phone" for its forms in other languages), or "phone" right before
    mine = words[-1:] == ["phone"] or _my_number(words)
    if country is not None:
        number = _COUNTRY_CODE_WORDS[re.sub("[ \\-]+", " ", country)] + number
    # Read with this release's wider forms (a country code said as one number, digits typed among the
    # words, a filler between them): a phone only where the number is a valid one (an attacker's round:
    # "plus twenty, one two three ...", "one two four 60 three 90 two" in a call centre's counts).
    checked = (
        country is not None or any(token[0].isdigit() for token in tokens) or _SPOKEN_FILLER.search(rest) is not None
    )
    # "plus" said before the digits makes them an international number, its code said digit by digit too
    # ("más tres cuatro, seis dos siete ...": reviewer BM)
    dialled = ("+" if country is not None or match["plus"] is not None else "") + number
    # Three digits or more: "phone = [null, null, null, ...]" is a list of code, not a number read out.
    if len(set(number)) < 3:
        return None
    # An SSN first where the text names one (its "number" names a phone too).
    if (
        len(number) == 9
        and (
            _SPELT_SSN_CONTEXT.intersection(asked)
            # read out in its groups, with nothing before it that names another kind of number
            or (_ssn_grouped(rest) and not checked and _NAMES_ANOTHER.isdisjoint(words))
        )
        and ssn_valid(number[:3], number[3:5], number[5:])
    ):
        return "US_SSN"
    # A phone named just before, or asked for a line or two up ("a good callback number?\nCALLER: Sure,
    # it's five one two, ..."): ten digits then, a number with its area code.
    # The words of the number's own line, where a phone was asked for on a line before: the question's other
    # words are not the answer's label ("can you confirm the mobile number on the account\nspeaker_1 (customer):
    # oh double seven ...": reviewer BP, whose "account" named no number of its own).
    if (_SPELT_CONTEXT - _ANY_NUMBER).intersection(asked):
        line = lower.rfind("\n", max(0, match.start() - 48), match.start())
        if line != -1:
            words = _SPELT_WORDS.findall(lower[line + 1 : match.start()])[-4:]
    if (
        len(number) <= _PHONE_MOST_DIGITS
        and (not checked or phone_e164(dialled, scan.phone_regions) is not None)
        # a count's unit after it ("... siete nueve unidades", "... iki dokuz koli": an attacker's round)
        and _UNITS_AFTER.match(lower, match.end()) is None
        # "your case number is four nine two five, ...": a case's, an order's, a ticket's (reviewer BM); letters said
        # before the digits are the reference's too ("my claim number is C L M, two zero two four, dash, ...")
        and _OTHER_NUMBERS_SAID.isdisjoint(words[-3:])
        and _OTHER_NUMBERS_SAID.isdisjoint(_words_past_letters(lower, match.start()))
        # "een twee drie vier vijf zes zeven keer": counted, not dialled (all ten digits too, a keypad's test, unless
        # "my number is" said them)
        and (number not in _COUNTING_RUNS or (mine and len(number) >= _LONG_SPELT))
        and (
            _SPELT_CONTEXT.intersection(words)
            # asked for, unless a reference's name comes just before ("Sipariş numarası bir iki üç ...": an
            # order's number; an attacker's round)
            or _number_named(words, number, dialled, scan, start=match.start())
            or (
                len(number) >= _LONG_SPELT
                and _SPELT_ASKED.intersection(asked)
                and not _REFERENCE_WORDS.intersection(words)
            )
            # or named right after: "..., five three six, that's my mobile" (not counted up or down)
            or (
                number not in _COUNTING_RUNS
                and _SAID_WORDS.intersection(_SPELT_WORDS.findall(lower[match.end() : match.end() + 32])[:4])
            )
            # or "plus" said before a valid international number a line or two after a number was asked for ("По
            # какому номеру с вами связаться? ... плюс семь, 9 один 3, ...": reviewer BM), not a game's score
            # ("Oyun skoru yazıyla: artı dokuz sıfır, ...") nor a sum's
            or (
                match["plus"] is not None
                and phone_e164(dialled, scan.phone_regions) is not None
                and any(word.startswith(_NUMBER_STEMS) for word in asked)
                and not _OPERAND_BEFORE.search(lower, max(0, match.start() - 12), match.start())
            )
        )
    ):
        return "PHONE"
    if 13 <= len(number) <= 19 and _SPELT_CARD_CONTEXT.intersection(asked) and luhn_valid(number):
        return "CREDIT_CARD"
    if _ACCOUNT_SAID <= len(number) <= _ACCOUNT_MOST and _account_said(words) and number not in _COUNTING_RUNS:
        return "BANK_ACCOUNT"
    return None


def _words_past_letters(lower: str, start: int) -> list[str]:
    """The last three words before ``start`` on its line that are not single letters (a reference's letters said one by
    one)."""
    low = max(lower.rfind("\n", max(0, start - 64), start) + 1, start - 64)  # (bounded: read back 64 at most)
    return [word for word in _SPELT_WORDS.findall(lower[low:start]) if len(word) > 1][-3:]


# Units and pieces after digits read out: a count's, not a phone's (in the languages read, Greek as the view writes it).
# Not COUNTED (scan.py), whose nouns name calls and people too: "... eight three zero zero call after 5" is a phone.
_UNITS_AFTER = lazy_compile(
    r"[ \t]*(?:unidades|unidad|units?|pieces|pcs|items|boxes|adet|koli|tane|piezas|pezzi|peças|sztuk|szt|stk|stück|"
    r"teμάxia|koμμάtia|개)(?![^\W\d_])"
)


# A bank account's number read out after its name: "account number eight seven one - zero eight four - ..." (reviewer
# CR), "Kontonummer null vier ...", "número de cuenta ...": the account's word and its number's, last before it.
_ACCOUNT_WORDS = frozenset(
    {"account", "acct", "a/c", "konto", "kontonummer", "cuenta", "compte", "conto", "conta", "rekening",
     "rekeningnummer", "kontonr"}
)  # fmt: skip
_ACCOUNT_NUMBER_WORDS = frozenset(
    {"number", "no", "nr", "num", "nummer", "número", "numero", "numéro", "de", "is", "lautet", "ist", "es", "est"}
)
_ACCOUNT_SAID, _ACCOUNT_MOST = 6, 17  # digits of a bank account's number (the US's 4 to 17; most have 6 or more)


def _account_said(words: list[str]) -> bool:
    """The words before a number read out end with an account's word, and then only its number's words."""
    for at in range(len(words) - 1, -1, -1):
        if words[at] in _ACCOUNT_WORDS:
            return all(word in _ACCOUNT_NUMBER_WORDS for word in words[at + 1 :])
        if words[at] not in _ACCOUNT_NUMBER_WORDS:
            return False
    return False


_CORRECTION = lazy_compile(rf"(?<![^\W\d_])(?:{_CORRECTIONS})(?![^\W\d_])")
_SPELT_PIECE = lazy_compile(
    rf"(?P<fix>(?<![^\W\d_])(?:{_CORRECTIONS})(?![^\W\d_]))|(?P<gap>\.\.\.|[,\-–—/.])"
    rf"|(?P<token>{_SPELT_TOKEN.pattern})"
)


def _corrected(rest: str) -> str:
    """The digits read out in ``rest`` with each group a correction follows dropped (the group being said when
    it came, or the last one said)."""
    groups: list[list[str]] = [[]]
    fixed = False  # a correction said in several words ("sorry, scratch that", "nej förlåt") drops one group
    for piece in _SPELT_PIECE.finditer(rest):
        if piece["token"] is not None:
            token = piece["token"]
            groups[-1].append(token if token[0].isdigit() else _spelt_digits(token))
            fixed = False
        elif piece["gap"] is not None:
            if groups[-1]:
                groups.append([])
        elif not fixed:
            fixed = True
            if groups[-1]:
                groups[-1] = []
            elif len(groups) > 1:
                groups.pop()
                groups[-1] = []
    return "".join("".join(group) for group in groups)


def _spelt_codes(lower: str) -> Iterator[tuple[str, int, int]]:
    for match in _SPELT_CODE_RUN.finditer(lower):
        words = re.findall(_DIGIT_WORD, match.group())
        number = "".join(_spelt_digits(word) for word in words)
        if not _CODE_DIGITS[0] <= len(number) <= _CODE_DIGITS[1] or number in _COUNTING_RUNS:
            continue
        if sum(word.rpartition(" ")[2] not in _AMBIGUOUS_DIGIT_WORDS for word in words) < _CODE_WORDS_MIN:
            continue
        if not _SAID_AS_A_CODE.search(lower, max(0, match.start() - 24), match.start()):
            continue  # "rule one, three, five", "allows four, six, eight": not said as the code
        if _WORD_AFTER_CODE.match(lower, match.end()):
            continue  # "one, two, four, or eight lanes", "cinq points": a list or a count
        words = _WORDS.findall(lower[max(0, match.start() - 100) : match.start()])[-12:]
        # (Turkish's word for a password names a PIN right before it: "Kart şifresi yazıyla: yedi ...", not a room's
        # number a sentence later, "Wi-Fi şifresi değişti, ... Oda: iki sıfır yedi": an attacker's round)
        if _SPELT_CODE_CONTEXT.intersection(words) or _SPELT_PIN_WORDS.intersection(words[-3:]):
            yield "GENERIC_SECRET", *match.span()


# What a code read out follows: a verb ("is", "es", "c'est", "to"), a colon (a speaker's, a label's),
# the start of a line; and what may follow it: punctuation, the line's end, a few words of talk.
_SAID_AS_A_CODE = lazy_compile(
    # ("read out the verification code as "three eight six ...": reviewer CC, the quote opened before it)
    r"(?:(?<![^\W\d_])(?:is|was|es|est|é|ist|era|it's|its|are|jest|to|hai|c'est|son|sind|lautet|dash|hyphen|as"
    # or the code's own word right before, after an article or what the code is for ("el cliente dictó el
    # código uno dos uno uno cinco tres", Turkish "Onay kodum bir altı sıfır dört iki dört": reviewer AN; not
    # "Posta kodum ...", a postcode: an attacker's round)
    r"|(?:el|mi|su|tu|onay|doğrulama|dogrulama|güvenlik|guvenlik|giriş|giris)[ \t]+(?:código|codigo|kodum))"
    r"|[:\n])[ \t,]*[\"“]?\Z"
)
_WORD_AFTER_CODE = lazy_compile(
    r"[ \t]*(?!(?:that's|thats|ok|okay|thanks|please|right|and|then|y|e|et|und|i|por|per|grazie|gracias|merci|danke|"
    # a relative clause only where it says the code came ("... que recibió por SMS": reviewer AN; not "... which
    # covers San Francisco", "... qui est Paris": an attacker's round)
    r"que (?:le |me |te |se |lo )?(?:recibi|lleg|envi|mand)\w*|which (?:i|you|he|she|they|we) (?:got|received))"
    r"(?![^\W\d_]))[^\W\d_]"
)


# A Korean number written in Sino-Korean digit syllables, each group one word ("공일공 이사육육 구칠사일 이에요",
# "연락처: 공일공 오팔공육 사일공일": reviewers CC and CD): read as digits, it must be a valid number of Korea's plan
# from its trunk "0". Words of these syllables alone are rare, and three of them grouped as a phone's groups rarer.
_KOREAN_DIGITS = {"공": "0", "영": "0", "일": "1", "이": "2", "삼": "3", "사": "4", "오": "5", "육": "6", "칠": "7",
                  "팔": "8", "구": "9"}  # fmt: skip
_KOREAN_DIGIT = "[" + "".join(_KOREAN_DIGITS) + "]"
# The trunk "0" said "공" (a name's "영이" starts no number: an attacker's round), the last group four digits, then no
# more Hangul but a copula or a particle ("... 구칠사일이에요", "공이 사오일 사이사이로 전화 주세요").
_KOREAN_END = r"(?:(?![\uac00-\ud7a3])|(?=이에요|입니다|이고|이요|예요|이야|으로|로|요))"
# (or "에", the dash said: "공일공에 팔이이구에 팔육육삼", reviewer CR)
_KOREAN_GAP = r"(?:에?[ \-]|,[ \t]?|에|[ \t]다시[ \t])"  # ("다시", again, as a dash said: reviewer CS)
_KOREAN_PHONE = lazy_compile(
    rf"(?<![\uac00-\ud7a3])공{_KOREAN_DIGIT}{{1,2}}{_KOREAN_GAP}{_KOREAN_DIGIT}{{3,4}}{_KOREAN_GAP}"
    rf"{_KOREAN_DIGIT}{{4}}{_KOREAN_END}"
)


def may_hold_korean_phone(scan: Scan) -> bool:
    return "공" in scan.text


# A mobile's "010" to "019" said first, or a phone's word just before ("연락처", "전화", "번호", "휴대폰": "공이 사오일
# 사이사이로 굴러갔다" is a ball, "공", that rolled: an attacker's round)
_KOREAN_PHONE_WORD = lazy_compile(r"(?:연락처|전화|번호|휴대폰|핸드폰|폰|사무실|tel|phone)[^\n]{0,12}$", re.IGNORECASE)


def find_korean_phones(scan: Scan) -> Iterator[Span]:
    text = scan.text
    for match in _KOREAN_PHONE.finditer(text):
        digits = "".join(_KOREAN_DIGITS.get(char, "") for char in match.group())
        named = _KOREAN_PHONE_WORD.search(text, max(0, match.start() - 24), match.start()) is not None
        if not (digits.startswith("01") or named) or ("다시" in match.group() and not named):
            continue  # ("다시", again, a dash only after a phone's word: "다시 한번 공일공 다시 ...", an attacker's)
        if _KOREAN_COUNTER.match(text, match.end()):
            continue  # a count's counter after it ("재고 수량 공일공에 ... 팔육육삼 개": an attacker's round)
        if _KOREAN_REFERENCE.search(text, max(0, match.start() - 16), match.start()):
            continue  # an order's, a waybill's, a booking's number ("주문 번호는 공이 다시 삼삼삼": an attacker's)
        if _valid_in(digits, ("KR",), trunk_written=True):
            yield match.span()


_KOREAN_REFERENCE = lazy_compile("|".join(_KOREAN_REFERENCES))
_KOREAN_COUNTER = lazy_compile(r"[ \t]*(?:개|명|건|회|원|장|대|통|권|병|박스)")
