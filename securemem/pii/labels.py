"""Provider tokens after a line's label in prose: "Azure DevOps PAT (Scope: Code read): <token>".

A keyed provider rule (catalogue.KEYED) reads a key name joined to its value ("AZURE_DEVOPS_PAT=...",
"okta_token: ..."). Notes write the same value after a label in words, in any language, often with a
parenthesis that holds colons of its own ("Zendesk APIトークン（support-bot@example.jp/token）：...",
"Cloudflare (clé API globale, compte infra@...) : ..."; reviewer M's blind round). Here the label is
the text from the line's start to its last colon before the value: when it names a provider and the
value has that provider's exact shape, the value is that provider's token.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import LineStarts, Scan
from securemem.pii.secrets import UUID, drawn_at_random, is_high_entropy, keyed_rules

Hit = tuple[str, int, int]

# A line's label: a list marker, then words and parentheses (colons allowed inside them), then a
# colon (ASCII or fullwidth), then the value, alone up to the line's end or a separator.
_LABELLED = lazy_compile(
    r"^[ \t]*+(?P<marker>[-*•#>]+[ \t]*+)?(?P<label>(?:[^\n:：(（]|[(（][^)）\n]{0,100}[)）]){2,120}?)[ \t]*[:：][ \t]*"
    r"[\"'`「]?(?P<value>[A-Za-z0-9_\-+/=.:]{16,128}?)[\"'`」]?[ \t]*+(?:$|[,;。、(（#/])",
    re.MULTILINE,
)


# A credential's own words (the first), and two that only say what it is for (an API's, an auth's).
_CREDENTIAL_WORDS = "key|token|secret|pat|password|passwort|credentials?|clé|cle|schlüssel|clave|chiave|chave"
_CREDENTIAL_SCRIPTS = "トークン|キー|密钥|令牌|토큰|키"
_CREDENTIAL = lazy_compile(rf"(?<![a-z])(?:{_CREDENTIAL_WORDS}|api|auth)|{_CREDENTIAL_SCRIPTS}")
_NOT_CREDENTIAL = lazy_compile(
    r"(?<![a-z])(?:commit|sha\d*|md5|checksum|hash|digest|revision|rev|uuid|id|ids|build|release|version|"
    r"fingerprint|request|trace|run|job|task|invite|project|workspace|zone|account|org|public|ticket|incident|"
    r"issue|pr|fix|fixed|rotation|setting|settings|group|permission|prefix|example|placeholder|masking|check|"
    r"upload)(?![a-z])"
)
_PAREN = lazy_compile(r"[(（][^)）]*[)）]")


def _named(label: str) -> str:
    """What the label names: its last two words outside brackets and its closing bracket's words
    ("Azure DevOps PAT (scope: ...)", "Cloudflare (clé API globale)"), before what it is for ("Azure
    DevOps PAT for the pipeline": reviewer AP); not a phrase that only mentions a key on the way ("Fix
    Datadog API key masking in agent logs")."""
    head = _PURPOSE.split(label, maxsplit=1)[0]
    if head != label and _CREDENTIAL_LAST.search(head):
        label = head  # not "Heroku API app for staging": an app's id (an attacker's round)
    words = _PAREN.sub(" ", label).split()
    brackets = _PAREN.findall(label)
    return " ".join(words[-2:] + brackets[-1:])


_CREDENTIAL_LAST = lazy_compile(rf"(?:(?<![a-z])(?:{_CREDENTIAL_WORDS})|{_CREDENTIAL_SCRIPTS})[ \t]*$")
_PURPOSE = lazy_compile(r"[ \t]+(?:for|für|pour|para|per|voor|dla)[ \t]+(?![^(（]*[)）])")


def _placeholder(value: str) -> bool:
    """A documentation's stand-in: one character most of it ("00xxxx..."), the alphabet in order, or
    a constant's name ("FASTLY_SERVICE_BACKEND_HOST_NAME")."""
    most = max(value.count(char) for char in set(value))
    return most * 2 >= len(value) or "abcdefgh" in value.lower() or (value.isupper() and "_" in value)


# A colon with a token-shaped value of 16 characters or more after it: where a labelled line may be.
_VALUE_AHEAD_AFTER = r"[ \t]*[\"'`「]?[A-Za-z0-9_\-+/=.:]{16}"
_VALUE_AHEAD = lazy_compile(r"[:：]" + _VALUE_AHEAD_AFTER)
# The same where the text has no fullwidth colon (most text): led by one literal character, the
# engine skips from colon to colon at C speed instead of testing a set at each character (a fifth of
# the time).
_VALUE_AHEAD_ASCII = lazy_compile(":" + _VALUE_AHEAD_AFTER)


def _labelled_lines(lower: str) -> Iterator[re.Match[str]]:
    """The labelled lines, each read once from its start, found from the colons a value follows."""
    done: set[int] = set()
    line_start = LineStarts(lower)
    for value in (_VALUE_AHEAD if "：" in lower else _VALUE_AHEAD_ASCII).finditer(lower):
        start = line_start(value.start())
        if start not in done:
            done.add(start)
            line = _LABELLED.match(lower, start)
            if line is not None:
                yield line


def may_hold_labelled_token(scan: Scan) -> bool:
    return ":" in scan.text or "：" in scan.text


def find_labelled_tokens(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    # Only the lines that hold a colon, each read once from its start; the providers' names only in
    # their labels (the alternation of every provider's name over the whole text cost ten times the
    # scan, and a pattern anchored at line starts is still tried at every character).
    for line in _labelled_lines(lower):
        label = line["label"]
        value = scan.text[line.start("value") : line.end("value")]
        if _placeholder(value) or _NOT_CREDENTIAL.search(label) is not None:
            continue
        # The label must name a credential as well as its provider, and no digest or id: "Datadog agent
        # commit: <sha>", "Snyk project ID: <uuid>" hold values of a provider's loose shape (hex, UUID).
        if _CREDENTIAL.search(_named(label)) is None and not _provider_shaped(label, value):
            # Or the list's heading names them: "Keys the user gave me today:" then "- Segment: z6PGV0zu...",
            # "- Railway: <uuid>" (reviewer AI): each item a provider's name and a value drawn at random. (A
            # map's keys indented under such a heading were tried: "Translation keys:" then "  welcome:
            # <uuid>", "Partition keys:", "SSH keys:" hold no secrets; an attacker's round.)
            if (
                _ITEM_MARKER.fullmatch(line["marker"] or "")
                and _PROVIDER_NAME.fullmatch(label.strip())
                and _random_key(value)
                and _heading_names_keys(lower, line.start())
            ):
                yield "GENERIC_SECRET", line.start("value"), line.end("value")
            continue
        for rule in keyed_rules(label):
            if rule.value.fullmatch(value):
                yield rule.type, line.start("value"), line.end("value")
                break


def _provider_shaped(label: str, value: str) -> bool:
    """The label is a provider's name alone and the value has that provider's exact shape, random
    ("GoCardless: live_GzJiGb...": reviewer AQ); a name and a value of a loose shape (hex, a UUID) say nothing."""
    name = label.strip()
    if _PROVIDER_NAME.fullmatch(name) is None or len(name.split()) > 2 or not _random_key(value):
        return False
    return any(rule.value.fullmatch(value) and _FIXED_START.match(rule.value.pattern) for rule in keyed_rules(name))


_FIXED_START = lazy_compile(r"[A-Za-z0-9]{2,}[_\-]")  # a literal prefix: "live_", "shpat_", "sk-"


_LIST_ITEM = lazy_compile(r"[ \t]*[-*•]")
_ITEM_MARKER = lazy_compile(r"[-*•][ \t]+")  # "- ", not curl's "-H"
_PROVIDER_NAME = lazy_compile(r"[^\W_][\w .&/\-]{0,40}")  # "Weights & Biases", "Fly.io", "Splunk HEC"
_HEADING_MOST, _ITEMS_BACK = 200, 24
# A heading that names keys, whole words only ("Key changes", "Keycloak", "Patch notes", "Authors" name none).
_KEYS_HEADING = lazy_compile(
    r"(?<![a-z])(?:(?:api )?keys?|tokens?|secrets?|credentials?|passwords?|clés?|claves?|chiavi|chaves?|schlüssel)"
    r"(?![a-z])|キー|トークン|密钥|令牌|토큰"
)
# ... and none that are public or no key at all: digests, commits, ids, addresses, a KMS's key ids.
_NOT_KEYS_HEADING = lazy_compile(
    r"(?<![a-z])(?:commits?|sha\d*|md5|checksums?|hash(?:es)?|digests?|revisions?|builds?|releases?|versions?|"
    r"fingerprints?|requests?|ids?|uuids?|public|primary|foreign|rows?|objects?|addresses|contracts?|kms|"
    r"rotat\w*|expired|revoked|key changes|artifacts?|examples?|placeholders?)(?![a-z])"
)


def _random_key(value: str) -> bool:
    """A value drawn at random: a UUID, a long random token, hex of 24 digits or more with a letter."""
    if "=" in value.rstrip("="):
        return False  # a key and its value ("PHPSESSID=yn3s9qqj..."), not a value alone
    if value.lower().startswith("0x"):
        return False  # an address on a chain, public
    if UUID.fullmatch(value) or is_high_entropy(value) or (len(value) >= 20 and drawn_at_random(value)):
        return True
    # hex of a key's length, not a commit's (40) or a SHA-256 digest's (64)
    hexadecimal = all(char in "0123456789abcdef" for char in value.lower())
    return len(value) >= 24 and len(value) not in (40, 64) and hexadecimal and not value.isdigit()


def _heading_names_keys(lower: str, start: int) -> bool:
    """The line before a list's items ("Claves que me pasó el usuario hoy:", "ユーザーから今日受け取ったキー：")
    names keys, tokens or credentials, and no digest or id."""
    for _ in range(_ITEMS_BACK):
        if start == 0:
            return False
        previous = lower.rfind("\n", 0, start - 1) + 1
        line = lower[previous : start - 1]
        if not _LIST_ITEM.match(line):
            return (
                len(line) <= _HEADING_MOST
                and line.rstrip(" \t\r").endswith((":", "："))
                and _KEYS_HEADING.search(line) is not None
                and _NOT_KEYS_HEADING.search(line) is None
            )
        start = previous
    return False
