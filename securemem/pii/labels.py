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

from securemem.pii.catalogue import KEYED
from securemem.pii.scan import Scan

Hit = tuple[str, int, int]

_ANY_PROVIDER = re.compile("|".join(f"(?:{rule.key.pattern})" for rule in KEYED))
# A line's label: a list marker, then words and parentheses (colons allowed inside them), then a
# colon (ASCII or fullwidth), then the value, alone up to the line's end or a separator.
_LABELLED = re.compile(
    r"^[ \t]*(?:[-*•#>]+[ \t]*)?(?P<label>(?:[^\n:：(（]|[(（][^)）\n]{0,100}[)）]){2,120}?)[ \t]*[:：][ \t]*"
    r"[\"'`「]?(?P<value>[A-Za-z0-9_\-+/=.:]{16,128}?)[\"'`」]?[ \t]*(?:$|[ \t]*[,;。、(（#/])",
    re.MULTILINE,
)


def may_hold_labelled_token(scan: Scan) -> bool:
    return ":" in scan.text or "：" in scan.text


def find_labelled_tokens(scan: Scan) -> Iterator[Hit]:
    lower = scan.lower
    if _ANY_PROVIDER.search(lower) is None:
        return
    for line in _LABELLED.finditer(lower):
        label = line["label"]
        if _ANY_PROVIDER.search(label) is None:
            continue
        value = scan.text[line.start("value") : line.end("value")]
        for rule in KEYED:
            if rule.key.search(label) and rule.value.fullmatch(value):
                yield rule.type, line.start("value"), line.end("value")
                break
