"""IPv4 and IPv6 addresses."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from itertools import chain

from securemem.pii.normalize import as_viewed
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, Span, accepted, index_words

# Not glued to a word or to more dotted numbers: "1.2.3.4.5" (a version) holds no address.
# An underscore may join it to a name ("backup_192.168.1.10.tar.gz"), an ellipsis to what comes before
# ("established between 85.103.124.133[...]...62.71.152.105[...]", strongSwan's log), not a range
# of versions ("1.2...1.2.3.4").
_IPV4 = lazy_compile(
    r"[0-9](?<![A-Za-z0-9][0-9])(?<![^.]\.[0-9])(?<![0-9]\.\.[0-9])(?<![0-9]\.\.\.[0-9])[0-9]{0,2}"
    r"(?:\.[0-9]{1,3}){3}(?![A-Za-z0-9]|\.[0-9])"
)
# "version 10.0.0.1" and "build 1.2.3.4" are release numbers that happen to have four parts.
# The word may end a name, and a quote or a bracket may follow it: 'AssemblyVersion("1.0.0.0")'.
_OID_LINE = lazy_compile(r"\boids?\b|object identifier|\basn\.1\b", re.IGNORECASE)
# SNMP's words name the arcs under ISO's identified organisations ("The SNMP subtree 1.3.6.1 covers the
# internet branch": reviewer AB); only those, which no host's address starts with in practice: "SNMP agent
# at 10.0.0.5" and "SNMP trap from 2.16.5.10" keep theirs.
_SNMP_LINE = lazy_compile(r"\b(?:snmp(?:v[123]c?)?|mibs?|subtrees?|oid[ _\-]?tree)\b", re.IGNORECASE)
_CLAUSE_START = lazy_compile(r"(?:^|\n)[ \t]*[0-9](?:\.[0-9]){3}\.?[ \t]+[A-Z(]", re.MULTILINE)
# "Version" in the most used languages, as the view writes it (Cyrillic and Greek letters that look Latin
# are Latin there, marks dropped): Chinese, Japanese, Korean, Hindi, Bengali, Spanish, Portuguese, Italian,
# Russian, Ukrainian, Polish, Czech, Dutch, Turkish, Indonesian, Vietnamese, Arabic and Persian (the
# article or a preposition glued on: "الإصدار", "للإصدار"), Greek ("έκδοσης 2.0.1.5": reviewer AB), Hebrew,
# Thai, Urdu.
_VERSION_OF_LANGUAGES = as_viewed(
    (
        "versión", "versão", "versione", "versie", "versiyon", "sürüm", "sürümü", "versi", "wersja", "wersji",
        "verze", "verzi", "phiên bản", "版本", "バージョン", "버전", "संस्करण", "সংস্করণ", "версия", "версии",
        "версию", "версія", "версії", "إصدار", "اصدار", "ورژن", "έκδοση", "έκδοσης", "έκδοσή", "εκδόσεις",
        "גרסה", "גרסת", "גירסה", "เวอร์ชัน",
        # Russian's "firmware" ("Версия прошивки 4.10.2.17": reviewer AK)
        "прошивка", "прошивки", "прошивку", "прошивкой",
        # English's plurals, read as these are, one digit first ("Crash only on builds 5.13.0.6 and 5.13.1.6": reviewer
        # CL; "Nightly builds 10.20.30.40 ran out of disk" names hosts: an attacker's round)
        "builds", "releases",
        # a build's number in Dutch, Russian and Ukrainian ("Bouwnummer 1.8.4.2 van de kassa-software", "Сборка 5.4.1.2
        # установлена": reviewer CX); not "сборки" or "збірки", "of the build", which name its hosts too ("Сервер
        # сборки 8.8.8.8": an attacker's round)
        "bouwnummer", "bouwversie", "сборка", "збірка",
    )
)  # fmt: skip
# What a release is of, in those languages: an application, a firmware, a system, a program.
_RELEASE_OF = as_viewed(
    (
        "aplikace", "aplikacji", "aplicación", "aplicacion", "aplicativo", "aplicação", "aplicacao", "applicazione",
        "app", "firmware", "software", "sistema", "systemu", "systému", "programu", "programa", "programma",
        "uygulama", "uygulamanın", "приложения", "прошивки", "системы", "программы", "アプリ", "ソフト", "앱",
        "펌웨어", "固件", "软件",
    )
)  # fmt: skip
_VERSION_WORDS = lazy_compile(
    r"(?:version(?:[_\-]?(?:name|code|string|number|info))?|framework|\b(?:ver|rev|revision|release|build|firmware|v|sections?|"
    r"clauses?|chapters?|figure|fig|requirements?|paragraphs?|appendix|annex|articles?|oid|abschnitt|kapitel|ziffer|absatz|"
    r"chapitre|sección|seccion|capítulo|capitulo|apartado|timecode|refer to|see|oracle|patch(?: set)?|windows|"
    r"fixed in(?: [a-z]{1,12})?|kernel|taxonomy|(?:updated|upgraded|downgraded)(?: from(?: v?[0-9][0-9.]{2,20} to)?)?|"
    # (a dependency pinned to a release: see "more" below)
    # "check image tag 2.14.0.3" (reviewer AQ), as the other languages' words: see _is_ipv4
    r"(?P<tag>(?:image|docker|container|helm|chart|release|git) tag))"
    # reviewer AB's, tried after the words above (_is_ipv4 reads a release after them only when it starts
    # with one digit): "version" in other languages, and what a release is shipped as ("the firmware bundle
    # 2.4.0.12", "driver package", "service pack")
    # (and what the release is of after them: "Verze aplikace 5.4.0.12", "Версия прошивки 4.10.2.17":
    # reviewers AK, AL; not any word, "versión en 3.121.45.200" names a host: an attacker's round)
    rf"|(?P<more>(?<![a-z])(?:{_VERSION_OF_LANGUAGES})(?:[ \t]+(?:{_RELEASE_OF}))?|"
    # a compatibility list's protocol, schema, SDK or spec ("protocol 1.2.0.4 (legacy)": reviewer BQ; not "kafka
    # schema 10.0.4.17 timed out", "Device SDK 10.0.12.5 connected", a host's: an attacker's round)
    r"\b(?:protocol|schema|sdk|spec)|"
    # a dependency pinned or bumped to a release ("Pinned libgeo to 1.2.3.4 until the upstream fix lands":
    # reviewer BF), its name between; not a server's, a user's or a customer's ("Pin nameserver to 185.23.44.10",
    # "Pinned alice to 77.88.55.60": an attacker's round)
    r"\b(?:pinned|pin|bumped|bump) (?!(?:dns|resolver|server|nameserver|host|ip|address|gateway|proxy|route|vpn|"
    r"endpoint|client|user|customer)\b)[a-z0-9_.@/\-]{1,40} to|"
    # ... or bumped from one release to the next ("Bumped libfoo from 1.2.3.4 to 1.2.3.5": reviewer BJ)
    # (not a name that says it is a host, a resolver's, a peer's or a mirror's: "bumps upstream from 8.8.8.8 to
    # 1.1.1.1", "Bumped quad9 from 9.9.9.9 to ...", "Bumped dns1 from ...": attackers' rounds)
    r"\b(?:bumped|bumps|bump) (?!(?:ips?|hosts?)\b)"
    r"(?![a-z0-9_.@/\-]*(?:dns|resolv|server|addr|gateway|proxy|route|vpn|endpoint|client|user|customer|upstream|peer|ntp|relay|mirror|backend|origin|target|node|attacker|source|forward|stun|"
    r"turn|quad9|cloudflare|google|level3|cdn|lb|nat|dhcp|edge|bastion|firewall|fw))"
    r"[a-z0-9_.@/\-]{1,40} from(?: v?[0-9][0-9.]{2,20} to)?|"
    r"\b(?:firmware|software|driver|bios|os|kernel|service|security|system)[ \t]+(?:bundle|image|package|pack|"
    r"release|build|update|revision)))"
    r"(?:[^0-9a-z\n@]{0,5}| to | is | of )$"  # not "-v@10.20.4.18": a password's end, then the host
    r"|§\s*$"
)

# Two colons at most five characters apart: every IPv6 address with two groups has this, and a
# literal ':' lets the engine skip most of the text.
_IPV6_HINT = lazy_compile(r":[0-9A-Fa-f]{0,4}:")
# A link-local address's zone: the interface ("%eth0", "%en0", "%wlan0.100") or its number ("%5"), not
# "%off" or "%CPU" after something with colons (a fresh attacker's round).
_ZONE = r"(?:%(?:25)?(?:[0-9]{1,3}|[A-Za-z]{1,15}[0-9]{1,4}(?:\.[0-9]{1,4})?)(?![\w.\-]))?"  # "%25": in a URL
_IPV6 = lazy_compile(
    r"""
    (?<![\w.])                 # a colon may come before: a key's ("addr:fe80::1ff:..."); ipaddress decides
    (?:[0-9A-Fa-f]{0,4}:){2,7}
    (?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f]{1,4})?
    """
    + _ZONE
    + r"""
    (?![\w:]|\.[0-9])
    """,
    re.X,
)
_MAC_GROUP = lazy_compile(r"[0-9A-Fa-f]{2}")


def find_ipv4(scan: Scan) -> Iterator[Span]:
    dotted = [(start, end) for start, end in scan.numbers if scan.text.count(".", start, end) >= 3]
    windows = scan.around(dotted, 0, 2)  # 2: what the lookahead reads after the last digit
    return accepted(_IPV4, scan.text, windows, lambda match: _is_ipv4(scan, match))


def _is_ipv4(scan: Scan, match: re.Match[str]) -> bool:
    octets = match.group().split(".")
    # Leading zeros are refused: "01.02.03.04" reads as a date or a code, and ipaddress agrees.
    if any(int(octet) > 255 or (len(octet) > 1 and octet[0] == "0") for octet in octets):
        return False
    before = scan.before(match.start(), 40)  # "updated from 3.10.2.15 to " is the longest reach
    named = _VERSION_WORDS.search(before)
    # After reviewer AB's words (other languages' "version", "firmware bundle", "system image") only
    # four numbers that start with one digit are a release: "Push the firmware bundle to 10.20.30.40",
    # "Servidor versión: 10.0.0.5", "Send the OS image to 52.14.22.9" name hosts (a fresh attacker's round).
    named_release = named is not None and (
        (named["more"] is None and named["tag"] is None)
        or (len(octets[0]) == 1 and scan.text[match.end() : match.end() + 1] not in (":", "/"))
    )  # after a tag's word, not "docker tag 10.0.4.17:5000/api": a registry's host (an attacker's round)
    if (named_release and not _address_after_version_word(scan, match, octets)) or (_PRODUCT_SLASH.search(before)):
        return False  # "version 10.0.0.1", "Chrome/122.0.0.0"
    if _path_component(scan.text, match.start(), match.end()) and not _address_shaped(octets):
        return False  # "C:\Program Files\Acme\9.3.69.3\bin": a release's folder ("/geo/81.2.69.160/" stays)
    if all(len(octet) == 1 for octet in octets) and _RELEASE_LINE.search(scan.line_before(match.start(), _LINE_BACK)):
        return False  # "firmware to version 10.0.0.1; rollback image is 9.8.3.2": releases, one digit each
    if _release_or_clause(scan, match, octets):
        return False  # "Upgraded switch firmware from 4.1.12.7 to 4.1.13.0": a release's path
    if len(octets[0]) == 1 and not _address_shaped(octets) and _numbered_sibling(scan, match, octets):
        return False  # "Contract clause 2.4.1.3 supersedes 1.9.2.10": a clause's number beside another's
    if _object_identifier(scan, match, octets):
        return False
    if all(len(octet) == 1 for octet in octets) and _CLAUSE_START.search(
        scan.text, max(0, match.start() - 8), match.end() + 3
    ):
        return False  # "4.2.1.3  The Processor shall ...": a clause's number at the start of its line
    if match.group() in _MASKS and _MASK_WORDS.search(scan.before(match.start(), 24)):
        return False  # "subnet mask 255.255.255.0": a netmask, not a host
    if octets[0] == "0" or match.group() in _NO_ONES:
        # "0.0.0.255": a wildcard mask (no host has a first octet 0); "0.0.0.0": no address at all;
        # "255.255.255.255": every host of the link at once (the limited broadcast), none in particular;
        # "169.254.169.254": the cloud's instance metadata endpoint, every instance's (reviewer AM)
        return False
    value = int.from_bytes(bytes(map(int, octets)), "big")
    longest = _IPV4_HOSTS if value in _PRIVATE_BASES or _private(value) else _IPV4_PROVIDER
    if _network(value, 32, longest, scan.text, match.end()):
        return False  # "ip route add 10.0.0.0/8 via ...", "prefix 104.16.0.0/13": a network, no host
    if octets[0] == "127" and (_local_endpoint(scan, match) or _PREFIX.match(scan.text, match.end())):
        # "bind 127.0.0.1 port 6379", "127.0.0.1:8080": this machine's service, anyone's; "127.0.0.1/32"
        # in a list of networks allowed: every machine's loopback
        return False
    # "Table 4.1.2.3", "REQ 3.1.4.1": words that number sections, when every part is one digit (an
    # address after them, "ARP table: 192.168.1.10", has bigger parts).
    return not (all(len(octet) == 1 for octet in octets) and _SECTION_WORDS.search(before))


def _object_identifier(scan: Scan, match: re.Match[str], octets: list[str]) -> bool:
    """ "OIDs in the cert profile: 2.5.4.3 (commonName)", a table headed "OID": an object identifier's arcs;
    "The SNMP subtree 1.3.6.1": ISO's identified organisations, an OID's first arcs."""
    if octets[0] not in ("0", "1", "2"):
        return False
    low = max(0, match.start() - 400)
    if _OID_LINE.search(scan.text, low, match.start()):
        return True
    # The internet's arc alone (1.3.6.1, under which every SNMP object sits) and on the same line as the
    # word: "SNMP agent at 1.3.45.67", "snmp-server host 1.3.45.67", an address a line after "MIB" keep
    # theirs (a fresh attacker's round; the line alone also keeps a long text of OIDs linear).
    return octets == ["1", "3", "6", "1"] and _SNMP_LINE.search(scan.line_before(match.start(), _LINE_BACK)) is not None


# A network in CIDR notation ("10.0.0.0/8"): an address whose host bits are all zero, with its prefix
# length after it. Short prefixes name a provider's or an organisation's block, no one (an IPv4 /15
# holds 131,072 addresses, an IPv6 /32 is what a provider is given); a longer one narrows to one
# site ("route add 192.168.50.0/24 via ...", which the reviewers label an address) and is read as
# an address. /31 and /32 (and IPv6 /127, /128) name hosts.
_PREFIX = lazy_compile(r"/([0-9]{1,3})(?![0-9]|\.[0-9])")  # a full stop may end the sentence ("... except 10.0.0.0/8.")
_IPV4_PROVIDER = 15
_IPV4_HOSTS = 30  # /31 and /32 name hosts
_IPV6_PROVIDER = 32


def _network(value: int, width: int, longest: int, text: str, end: int) -> bool:
    """The address ``value`` (of ``width`` bits) ending at ``end`` is a network of a prefix up to ``longest``."""
    prefix = _PREFIX.match(text, end)
    if prefix is None:
        return False
    bits = int(prefix[1])
    return bits <= longest and value & ((1 << (width - bits)) - 1) == 0


# The bases of the RFC 1918 blocks, with a prefix after them: every private network's configuration
# repeats them ("subnet 10.0.0.0/16", "192.168.0.0/24").
_PRIVATE_BASES = frozenset({10 << 24, (172 << 24) | (16 << 16), (192 << 24) | (168 << 16)})


def _private(value: int) -> bool:
    """In an RFC 1918 block: a private network of any size ("cidr = 10.118.0.0/16", "route add
    192.168.100.0/24 gw ...") is one of millions like it, reachable from no one's internet, so its
    prefix names no one (a host in it still is an address: "inet 10.1.2.3/24" has host bits)."""
    return value >> 24 == 10 or value >> 20 == (172 << 4) | 1 or value >> 16 == (192 << 8) | 168


# A loopback address with a port after it, or after a word that binds a service to it.
_PORT_AFTER = lazy_compile(r":[0-9]{1,5}(?![0-9])")
_LISTEN_WORDS = lazy_compile(r"\b(?:bind|binds|bound|listen|listens|listening)(?:[ \t]+(?:on|to|at))?[ \t:=\"']{1,3}$")


def _local_endpoint(scan: Scan, match: re.Match[str]) -> bool:
    if _PORT_AFTER.match(scan.text, match.end()):
        return True
    return _LISTEN_WORDS.search(scan.before(match.start(), 24)) is not None


# The line names an address before the number ("build agent ip -> build: 10.1.2.3").
_ADDRESS_WORDS = lazy_compile(r"\b(?:ip|ipv4|ip[ _\-]?addr(?:ess)?|addr|address)\b")


def _release_or_clause(scan: Scan, match: re.Match[str], octets: list[str]) -> bool:
    """A release's path (_release_path), a release beside its sibling ("Версия прошивки 4.10.2.17 ...,
    откат на 4.10.1.9": the rollback's release), a clause's number as Japanese and Korean write it
    ("本書の第2.1.3.4項", "약관 제3.2.1.4조")."""
    if all(len(octet) <= 2 for octet in octets) and _numbered_in_cjk(scan.text, match.start(), match.end()):
        return True
    # A release's middle parts count up from small numbers ("4.10.1.9"); "3.121.45.200" is a host's.
    sibling = len(octets[0]) == 1 and len(octets[1]) <= 2 and _release_sibling(scan, match, octets)
    return (sibling or _release_path(scan, match)) and not _address_after_version_word(scan, match, octets)


_NO_ONES = frozenset({"255.255.255.255", "169.254.169.254"})


def _numbered_in_cjk(text: str, start: int, end: int) -> bool:
    """A clause's number: "第" or "제" (the ordinal's sign) before it, or a clause's, a chapter's or an
    article's counter after it."""
    return (start > 0 and text[start - 1] in "第제") or text[end : end + 1] in _CJK_COUNTERS


_CJK_COUNTERS = frozenset("項条章節款조항장절")


# Four numbers of a release, and what comes before them on their line.
_RELEASE_BEFORE = lazy_compile(r"(?<![0-9.])(?P<head>[0-9]\.[0-9]{1,3})\.[0-9]{1,3}\.[0-9]{1,3}(?![0-9.])")


def _release_sibling(scan: Scan, match: re.Match[str], octets: list[str]) -> bool:
    """Earlier on the line, four numbers with the same first two parts are a release its version word
    names ("Версия прошивки 4.10.2.17 установлена ..., откат на 4.10.1.9": reviewer AK): these are the
    same product's release too, unless the line names an address ("IP 4.10.1.9")."""
    # Its line, back 512 characters at most (a sentence may name the release well before its sibling: an
    # attacker's round); not back to the text's start, which a long line of releases made quadratic.
    reach = max(0, match.start() - 512)
    line = max(reach, scan.text.rfind("\n", reach, match.start()) + 1)
    head = f"{octets[0]}.{octets[1]}"
    for earlier in _RELEASE_BEFORE.finditer(scan.text, line, match.start()):
        if earlier["head"] == head and _VERSION_WORDS.search(scan.before(earlier.start(), 40)):
            return True
    return False


def _address_after_version_word(scan: Scan, match: re.Match[str], octets: list[str]) -> bool:
    """A version word before four numbers that are an address all the same: the line names an
    address, or the numbers are no version ("v 81.2.69.160": a first part of two digits and a part
    of three; releases count up from small numbers)."""
    line_start = scan.text.rfind("\n", max(0, match.start() - 64), match.start()) + 1
    if _ADDRESS_WORDS.search(scan.lower, max(line_start, match.start() - 64), match.start()):
        return True
    return _address_shaped(octets)


def _address_shaped(octets: list[str]) -> bool:
    return int(octets[0]) >= 11 and any(len(octet) == 3 for octet in octets[1:])


def _colon_pair(text: str) -> int:
    """Where two colons stand at most five characters apart (every IPv6 address has such a pair), or -1."""
    previous = -10
    at = text.find(":")
    while at != -1:
        if at - previous <= 5:
            return previous
        previous = at
        at = text.find(":", at + 1)
    return -1


def find_ipv6(scan: Scan) -> Iterator[Span]:
    pair = _colon_pair(scan.text)
    if pair == -1:
        return iter(())
    hint = _IPV6_HINT.search(scan.text, pair)
    if hint is None:
        return iter(())
    # An address can start up to 39 characters before its first pair of colons.
    windows = [(max(0, hint.start() - 40), len(scan.text))]
    found = accepted(_IPV6, scan.text, windows, _is_ipv6)
    if ": " not in scan.text and not scan.text.endswith(":"):
        return found
    return chain(found, accepted(_IPV6_LABEL, scan.text, windows, _is_ipv6))


# An address followed by a label's colon: ping's "64 bytes from 2a02:...:ed37: icmp_seq=1", a log's
# "peer fe80::1: connection reset". The colon is not the address's: it ends the field.
_IPV6_LABEL = lazy_compile(r"(?<![\w.:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{1,4}" + _ZONE + r"(?=:(?:[ \t\r\n]|$))")


_RELEASE_LINE = lazy_compile(r"\b(?:version|firmware|release|build|image|rollback|upgrade[ds]?|patch)\b")


# A release upgraded from one number to another: "Upgraded switch firmware from 4.1.12.7 to 4.1.13.0"
# (reviewer AA), "updated the kernel on db-2 from 5.15.0.1 to 6.1.0.2". The verb and what is upgraded
# say so (a few words may come between: whose, where), and so does the pair: "updated the software from
# 10.0.0.5" may name the server it came from. "updated the DNS record from 1.1.1.1 to 8.8.8.8" names no
# release and keeps its addresses, and so does "pushed firmware 4.1.12.7 to 10.0.0.5".
_RELEASE_PATH = lazy_compile(
    r"\b(?:upgrad|updat|downgrad|roll(?:ed|ing)? back|revert|flash|bump|patch)[a-z]*(?:[ \t]+[a-z][a-z\-]*){0,3}?"
    r"(?:[ \t]+(?:firmware|software|bios|kernel|os|release|version|driver)s?"
    r"(?:[ \t]+(?:on|at|in|for)[ \t]+[^\s;,]{1,40})?[ \t]+from"  # "firmware on 10.0.0.5 from ..."
    r"|[ \t]+from[ \t]+(?:firmware|software|bios|kernel|os|release|version|driver)s?)"
    r"[ \t]+(?:v?(?P<old>[0-9]+)(?:\.[0-9]+){1,3}[ \t]+(?:to|->|→)[ \t]+)?$"
)
_TO_NEW = lazy_compile(r"[ \t]+(?:to|->|→)[ \t]+v?(?P<new>[0-9]+)(?:\.[0-9]+){1,3}(?![0-9.])")


def _release_path(scan: Scan, match: re.Match[str]) -> bool:
    """The four numbers are the old or the new release of _RELEASE_PATH, and the other one is of one
    release with them: their first parts are small and near ("from 4.1.12.7 to 4.1.13.0", "from 5.15.0.1
    to 6.1.0.2"). "Upgraded firmware from 4.1.12.7 to 10.0.0.5" names the host it went to, "from 10.0.0.5
    to 10.0.0.6" may be two hosts (a fresh attacker's round): they stay addresses."""
    first = match.group().split(".", 1)[0]
    path = _RELEASE_PATH.search(scan.line_before(match.start(), _LINE_BACK)) if len(first) == 1 else None
    if path is None:
        return False
    other = path["old"]
    if other is None:
        new = _TO_NEW.match(scan.text, match.end())
        other = None if new is None else new["new"]
    return other is not None and abs(int(other) - int(first)) <= 2


def _numbered_sibling(scan: Scan, match: re.Match[str], octets: list[str]) -> bool:
    """The four numbers follow a clause's number of three parts or more in a list of such (_NUMBERED_LIST),
    and start within two of it ("clause 2.4.1.3 supersedes 1.9.2.10"); "sections 4.1.2.3 and 8.8.8.8" and
    "rule 4.1 to 8.8.8.8" name a host (a fresh attacker's round)."""
    listed = _NUMBERED_LIST.search(scan.before(match.start(), 64))
    return listed is not None and abs(int(listed["first"]) - int(octets[0])) <= 2


# A clause's, a section's or a table's number, then others joined to it ("clause 2.4.1.3 supersedes
# 1.9.2.10", "sections 4.1.2.3 and 4.1.2.5", "Table 3.1.2.1 to 3.1.2.4", reviewer AA): of one kind
# with the first, which its word names.
_NUMBERED_LIST = lazy_compile(
    r"(?:\b(?:sections?|clauses?|chapters?|articles?|annex(?:es)?|appendix|appendices|paragraphs?|para|"
    r"requirements?|tables?|items?|steps?|rules?|controls?|abschnitt|kapitel|ziffer|absatz|artikel|chapitre|"
    r"sección|seccion|capítulo|capitulo|apartado|artículo|articolo|cláusula|clausula|clausola)|§)[ \t.]{0,3}"
    r"(?P<first>[0-9]{1,3})(?:\.[0-9]{1,3}){2,5}"
    r"(?:[ \t]*(?:,|;|&|\b(?:and|or|to|through|thru|vs\.?|supersedes|superseded by|replaces|replaced by|amends|"
    r"amended by|overrides|und|oder|bis|et|ou|y|o|e)\b)[ \t]*(?:[0-9]{1,3}(?:\.[0-9]{1,3}){1,5})?){1,8}[ \t]*$"
)


_LINE_BACK = 160  # characters of a number's line read back for the words that name it


def _path_component(text: str, start: int, end: int) -> bool:
    """Four numbers between two separators of a path ("\\Acme\\9.3.69.3\\bin", "/opt/app/1.2.3.4/lib"),
    not a host after "//" or "\\\\" (a URL's, a UNC path's)."""
    if start < 1 or end >= len(text) or text[start - 1] not in "\\/" or text[end] not in "\\/":
        return False
    return text[start - 2 : start] not in ("//", "\\\\")


# "Chrome/122.0.0.0 Safari/537.36": a product's version, after a name of letters; not a host's address after a
# node's name ("Node: node-pool-y14h/192.168.129.211", kubectl's: reviewer BM)
_PRODUCT_SLASH = lazy_compile(r"(?<![a-z0-9_\-])[a-z]+/$")
# Netmasks: contiguous ones from the left ("255.255.255.0", "255.255.240.0"), /8 to /31
# (255.255.255.255 is an address too).
_MASK_WORDS = lazy_compile(r"(?:mask|netmask|subnet)[^0-9\n]{0,12}$")
_MASKS = frozenset(
    ".".join(str((((1 << 32) - (1 << (32 - bits))) >> shift) & 255) for shift in (24, 16, 8, 0))
    for bits in range(8, 32)
)
_SECTION_WORDS = lazy_compile(r"\b(?:table|tab|req|item|step|rule|control|ctrl|criterion|§)[^0-9a-z\n]{0,3}$")
_SLICE = lazy_compile(r"[0-9]+::[0-9]+")


def _is_ipv6(match: re.Match[str]) -> bool:
    # The zone goes with the address ("ping fe80::1c4b:2ff:fe9a:41b2%eth0": reviewer AB); the checks read
    # the address alone.
    candidate = match.group().split("%", 1)[0]
    if not any(char.isdigit() for char in candidate):
        return False  # "Add::add", "Dead::beef()": a path in code, all letters
    if _SLICE.fullmatch(candidate):
        return False  # "values[100::200]": a slice
    groups = [group for group in candidate.split(":") if group]
    if candidate.startswith("::") and _ADDRESS_KEY.search(match.string, max(0, match.start() - 24), match.start()):
        groups = ["0", *groups]  # "X-Forwarded-For: ::1", "remote_addr=::ffff:a00:1": a key names an address
    # "values[1::2]" is a slice: an address has two groups and four hex digits at least.
    elif len(groups) < 2 or sum(map(len, groups)) < 4 or _looks_like_mac(candidate, groups):
        return False
    try:
        address = ipaddress.IPv6Address(candidate)
    except ValueError:
        return False
    if _piece_of_a_network(match):
        return False
    # "2001:db8::/32": a provider's network, no host; a unique local one (fd00::/8) of any size, as
    # an RFC 1918 block ("fd12:3456:789a::/48 (ULA), split into /64 per VLAN").
    longest = 126 if address in _UNIQUE_LOCAL else _IPV6_PROVIDER
    return not _network(int(address), 128, longest, match.string, match.end())


_UNIQUE_LOCAL = ipaddress.IPv6Network("fc00::/7")
_HEX = frozenset("0123456789abcdefABCDEF")


def _piece_of_a_network(match: re.Match[str]) -> bool:
    """A candidate that starts inside a longer address with a prefix after it ("3456:789a::" of
    "fd12:3456:789a::/48"): the whole was read first, and refused as a network."""
    text, start = match.string, match.start()
    if start < 2 or text[start - 1] != ":" or text[start - 2] not in _HEX or _PREFIX.match(text, match.end()) is None:
        return False
    begin = start - 1
    while begin > max(0, start - 40) and (text[begin - 1] in _HEX or text[begin - 1] == ":"):
        begin -= 1
    try:
        ipaddress.IPv6Address(text[begin : match.end()])
    except ValueError:
        return False
    return True


_ADDRESS_KEY = lazy_compile(
    r"(?i:\b(?:ip|ipv6|addr|address|forwarded(?:-for)?|x-real-ip|remote[_\-]?addr|client[_\-]?ip|peer|from|src|dst))"
    r"[\"']?[ \t]*[:=][ \t]*[\"']?$"
)


def _looks_like_mac(candidate: str, groups: list[str]) -> bool:
    """An EUI-64 "00:11:22:33:44:55:66:77" parses as IPv6 but is a hardware address."""
    return "::" not in candidate and all(_MAC_GROUP.fullmatch(group) for group in groups)


# What every IPv4 address holds: four groups of digits joined by dots ("2.168.1.1" of "192.168.1.10").
# A search of the text, which spares listing its numbers (find_ipv4 lists them when this is found).
# Led by the literal dot, the digit before it in a lookbehind: the engine skips from dot to dot,
# five to nine times faster than a pattern led by a digit class.
_DOTTED_QUAD = lazy_compile(r"\.(?<=[0-9]\.)[0-9]{1,3}\.[0-9]{1,3}\.[0-9]")
_QUAD_DIGITS = 4


def may_hold_ip_address(scan: Scan) -> bool:
    """A cheap gate, what the finders need first: four dotted groups of digits (every match of
    _IPV4 holds them), or two colons close together followed by the IPv6 hint (find_ipv6 stops
    without). Prose with two colons ("Note: ... Budget: ...") has neither."""
    text = scan.text
    # (a dotted quad holds four ASCII digits: text with fewer, most prose, skips the pattern)
    if scan.digit_count >= _QUAD_DIGITS and "." in text and _DOTTED_QUAD.search(text) is not None:
        return True
    if ":" not in text:
        return False
    pair = _colon_pair(text)
    return pair != -1 and _IPV6_HINT.search(text, pair) is not None


def find_ip_addresses(scan: Scan) -> Iterator[Span]:
    yield from find_ipv4(scan)
    yield from find_ipv6(scan)


# -- an address said in words --------------------------------------------------------------------

# "sixty-two dot two hundred nine dot two hundred thirteen dot two hundred thirty-eight", "one nine two dot one six
# eight dot zero dot one", "one ninety-two point one sixty-eight ..." (reviewer CS: a player read his address over voice
# chat): four numbers said in English, each 0-255, three "dot"s or "point"s between them, after a word that names an
# address ("IP", "server", "host", ...) in the 80 characters before. Not four numbers alone ("two point five,
# one point two ..."), nor a version's ("version two dot one dot three dot four"), nor five or more said so.
_ONES_WORDS = "zero one two three four five six seven eight nine"
_TEENS_WORDS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
_TENS_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety"
_UNITS = {word: value for value, word in enumerate(_ONES_WORDS.split())} | {"oh": 0}
_TEENS = {word: value for value, word in enumerate(_TEENS_WORDS.split(), 10)}
_TENS = {word: value * 10 for value, word in enumerate(_TENS_WORDS.split(), 2)}
_SAID_NUMBER_WORDS = frozenset({*_UNITS, *_TEENS, *_TENS, "hundred", "and"})
_SAID_DOT = lazy_compile(r"(?<![a-z])dot(?![a-z])")
_SAID_WORD = lazy_compile(r"[a-z]+")
_SAID_BETWEEN_DOTS = lazy_compile(r"[ \t]+[a-z]+(?:[ \t\-]+[a-z]+){0,4}[ \t]+")
_SAID_GAP = lazy_compile(r"[ \t\-]+")
_ADDRESS_SAID = lazy_compile(r"(?<![a-z])(?:ip|ipv4|ip address|address|addr)(?![a-z])")
_ADDRESS_REACH = 80
_RELEASE_SAID = lazy_compile(
    r"(?<![a-z])(?:version|release|firmware|build|update|upgrade|upgraded|kernel|runtime|v|section|clause|chapter|rfc)"
    r"(?![a-z])[^.\n]{0,24}$"
)
_OCTET_MOST_WORDS = 5


_DOT_WORD = " dot "
index_words(_DOT_WORD)  # among the gates' words: text without it (most) is not counted through


def may_hold_said_ip(scan: Scan) -> bool:
    lower = scan.lower
    return _DOT_WORD in scan.words and lower.count(_DOT_WORD) >= 3 and _ADDRESS_SAID.search(lower) is not None


def _said_octet(words: list[str]) -> int | None:
    """The number 0-255 that ``words`` say ("two hundred and nine", "one ninety-two", "one nine two"), or None."""
    if not words or len(words) > _OCTET_MOST_WORDS:
        return None
    if all(word in _UNITS for word in words):
        if len(words) > 3 or (len(words) > 1 and _UNITS[words[0]] == 0):
            return None
        value = int("".join(str(_UNITS[word]) for word in words))
        return value if value <= 255 else None
    value, rest = 0, words
    if len(rest) >= 2 and rest[0] in _UNITS and _UNITS[rest[0]] > 0:
        if rest[1] == "hundred":
            value, rest = _UNITS[rest[0]] * 100, rest[2:]
            rest = rest[1:] if rest[:1] == ["and"] else rest
        elif rest[1] in _TENS or rest[1] in _TEENS:
            value, rest = _UNITS[rest[0]] * 100, rest[1:]  # "one ninety-two"
    if rest and rest[0] in _TENS:
        value, rest = value + _TENS[rest[0]], rest[1:]
        if rest and rest[0] in _UNITS and _UNITS[rest[0]] > 0:
            value, rest = value + _UNITS[rest[0]], rest[1:]
    elif rest and rest[0] in _TEENS:
        value, rest = value + _TEENS[rest[0]], rest[1:]
    elif rest and rest[0] in _UNITS and (value == 0 or _UNITS[rest[0]] > 0):
        value, rest = value + _UNITS[rest[0]], rest[1:]
    if rest or value > 255:
        return None
    return value


def _said_words(lower: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """The words of ``lower[start:end]`` with their offsets, from its start, while blanks or hyphens join them."""
    found: list[tuple[str, int, int]] = []
    at = start
    while at < end:
        word = _SAID_WORD.match(lower, at, end)
        if word is None:
            break
        found.append((word.group(), word.start(), word.end()))
        gap = _SAID_GAP.match(lower, word.end(), end)
        if gap is None:
            break
        at = gap.end()
    return found


def _first_octet(lower: str, dot: int) -> tuple[int, int] | None:
    """Where the number said right before the "dot" at ``dot`` starts, and its value."""
    low = max(0, dot - 64)
    words = [(word, start) for word, start, _ in _said_words_back(lower, low, dot)]
    best: tuple[int, int] | None = None
    for take in range(1, min(len(words), _OCTET_MOST_WORDS) + 1):
        part = words[-take:]
        if part[0][0] not in _SAID_NUMBER_WORDS or part[0][0] == "and":
            break
        value = _said_octet([word for word, _ in part])
        if value is not None:
            best = (part[0][1], value)
    return best


def _said_words_back(lower: str, low: int, end: int) -> list[tuple[str, int, int]]:
    """The words joined by blanks or hyphens that end right before ``end`` (one blank or more before it)."""
    found: list[tuple[str, int, int]] = []
    at = end
    while at > low and lower[at - 1] in " \t-":
        at -= 1
    while at > low:
        start = at
        while start > low and "a" <= lower[start - 1] <= "z":
            start -= 1
        if start == at or (start > low and (lower[start - 1].isalnum() or lower[start - 1] == "_")):
            break
        found.append((lower[start:at], start, at))
        gap = start
        while gap > low and lower[gap - 1] in " \t-":
            gap -= 1
        if gap == start or len(found) > _OCTET_MOST_WORDS:
            break
        at = gap
    found.reverse()
    return found


def _last_octet(lower: str, after: int) -> tuple[int, int] | None:
    """Where the number said right after a "dot" ending at ``after`` ends, and its value (the longest that reads)."""
    gap = _SAID_GAP.match(lower, after)
    if gap is None:
        return None
    words = _said_words(lower, gap.end(), min(len(lower), gap.end() + 64))
    best: tuple[int, int] | None = None
    for take in range(1, min(len(words), _OCTET_MOST_WORDS) + 1):
        if words[take - 1][0] not in _SAID_NUMBER_WORDS:
            break
        value = _said_octet([word for word, _, _ in words[:take]])
        if value is not None:
            best = (words[take - 1][2], value)
    return best


def _between_dots(lower: str, start: int, end: int) -> int | None:
    """The number (0-255) said between two "dot"s, if that is all that lies there."""
    if _SAID_BETWEEN_DOTS.fullmatch(lower, start, end) is None:
        return None
    return _said_octet(_SAID_WORD.findall(lower, start, end))


def find_said_ipv4(scan: Scan) -> Iterator[Span]:
    lower = scan.lower
    dots = list(_SAID_DOT.finditer(lower))
    at = 0
    while at < len(dots):
        first_dot, between = dots[at], []
        while at + 1 < len(dots) and (said := _between_dots(lower, dots[at].end(), dots[at + 1].start())) is not None:
            between.append(said)
            at += 1
        last_dot = dots[at]
        at += 1
        if len(between) != 2:  # three dots: four numbers, no more
            continue
        first = _first_octet(lower, first_dot.start())
        end = _last_octet(lower, last_dot.end())
        if first is None or end is None:
            continue
        if (
            _ADDRESS_SAID.search(lower, max(0, first[0] - _ADDRESS_REACH), first[0]) is None
            or _RELEASE_SAID.search(lower, max(0, first[0] - 40), first[0]) is not None
        ):
            continue  # no address named before it, or a release's ("the IP phone's firmware two dot one dot ...")
        # as the address typed would be found (not a loopback's, a mask's: the typed reader's rules)
        typed = "IP " + ".".join(str(octet) for octet in (first[1], *between, end[1]))
        if next(find_ipv4(Scan(typed, scan.phone_regions)), None) is not None:
            yield first[0], end[0]
