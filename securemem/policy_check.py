"""``securemem policy check``: what a policy will really do, in plain words, and what looks wrong.

``load_policy`` refuses a policy that cannot mean what it says (a glob no path can match, two
rules with one glob, ``enabled = false`` beside PII actions, ``since`` where nothing expires, a
per-file quota above the total). What is valid but likely not what its author meant is reported
here as warnings, one line each: the policy still loads, and ``policy check`` prints them on
stderr so an operator sees them before deploying.
"""

from __future__ import annotations

from securemem.policy import Policy, Rule, format_duration

_WILDCARDS = ("**", "*", "?")


def policy_warnings(policy: Policy) -> list[str]:
    """Settings whose effect differs from what a reader of the file would expect."""
    found: list[str] = []
    found.extend(_pii_warnings(policy))
    found.extend(_ttl_warnings(policy))
    for index, rule in enumerate(policy.rules):
        found.extend(_rule_warnings(policy, index, rule))
    return found


def _pii_warnings(policy: Policy) -> list[str]:
    pii = policy.pii
    if not pii.enabled:
        unused = sorted({"phone_region", "refuse_paths"} & pii.model_fields_set)
        if unused:
            return [f"pii.{unused[0]} has no effect: PII scrubbing is off (set enabled = true or [pii.actions])"]
        return []
    if all(action == "allow" for action in pii.actions.values()):
        return ["pii: every action is 'allow', so nothing is scrubbed although [pii] is on"]
    return []


def _ttl_warnings(policy: Policy) -> list[str]:
    if not policy.has_expiry and "refresh_on_read" in policy.ttl.model_fields_set:
        return ["ttl.refresh_on_read has no effect: nothing expires (no expire_after in [ttl] or any rule)"]
    return []


def _rule_warnings(policy: Policy, index: int, rule: Rule) -> list[str]:
    name = f"rules.{index} ({rule.glob})"
    found: list[str] = []
    if rule.glob == "/memories":
        found.append(f"{name} matches only the root folder, no file in it; write '/memories/**' for every file")
    elif rule.glob.endswith("/*"):
        found.append(
            f"{name} covers only the files directly in {rule.glob[:-2]}/, not its subfolders; "
            f"write '{rule.glob}*' to cover them too"
        )
    if any(c in rule.glob for c in "[]{}"):
        found.append(f"{name}: '[', ']', '{{' and '}}' are literal characters here; only *, ** and ? are wildcards")
    inherited = policy.ttl.expire_after
    if rule.read_only and not rule.never_expire and rule.expire_after is None and inherited is not None:
        found.append(
            f"{name} is read-only, but its files still expire {format_duration(inherited)} after the last "
            f"{policy.ttl.since} (from [ttl]); add never_expire = true to keep them"
        )
    covered, shadowed = _shadowed(policy, rule)
    for other_index, other, lost in shadowed:
        found.append(
            f"{name} is more specific than rules.{other_index} ({other.glob}) and wins whole (rules inherit "
            f"nothing): {' and '.join(lost)}; repeat what is meant in rules.{index}"
        )
    if not covered and not _sets_anything(rule):
        found.append(f"{name} sets nothing (read_only, expire_after, since or never_expire), so it has no effect")
    return found


def _sets_anything(rule: Rule) -> bool:
    return rule.read_only or rule.never_expire or rule.expire_after is not None or rule.since is not None


def _sets_expiry(rule: Rule) -> bool:
    return rule.never_expire or rule.expire_after is not None or rule.since is not None


def _shadowed(policy: Policy, rule: Rule) -> tuple[bool, list[tuple[int, Rule, list[str]]]]:
    """Whether broader rules cover this rule's files, and which of their settings those files lose.

    Judged on one sample path of the rule's glob, where this rule is the one that applies.
    """
    sample = _sample(rule.glob)
    if policy.rule_for(sample) is not rule:
        return False, []
    covered = False
    out = []
    for index, other in enumerate(policy.rules):
        if other is rule or not other.matches(sample):
            continue
        covered = True
        lost = []
        # read_only = false written out says that a writable area inside a read-only one is meant.
        if other.read_only and "read_only" not in rule.model_fields_set:
            lost.append("its files are not read-only")
        if _sets_expiry(other) and not _sets_expiry(rule):
            lost.append("its files expire by [ttl], not by that rule")
        if lost:
            out.append((index, other, lost))
    return covered, out


def describe(policy: Policy) -> list[str]:
    """What the policy does, in plain words: scrubbing per entity type, expiry, rules, quotas."""
    return [*_describe_pii(policy), *_describe_expiry(policy), *_describe_history(policy), *_describe_quota(policy)]


def _describe_history(policy: Policy) -> list[str]:
    history = policy.history
    if not history.versions:
        return ["history: none; no version is recorded (no audit trail, no restore)"]
    if history.content == "metadata":
        kept = "who changed which path when, and the content hash; no text (replaced text is erased)"
    elif history.keep_content_for is None:
        kept = "who changed what when, with each version's text, until an operator redacts it"
    else:
        kept = (
            f"who changed what when; each version's text for {format_duration(history.keep_content_for)}, "
            "then a sweep redacts it"
        )
    lines = [f"history: every change is a version, hash-chained: {kept}"]
    if history.redact_expired:
        lines.append("  what expires is redacted from the history too (nothing expired is readable there either)")
    else:
        lines.append("  expired memories keep their versions (the history outlives expiry: review this for PII)")
    return lines


def _describe_pii(policy: Policy) -> list[str]:
    pii = policy.pii
    if not pii.enabled:
        return ["PII: nothing is scrubbed; every value is stored as written ([pii] is off)"]
    regions = ", ".join(pii.phone_regions)
    lines = [f"PII, before anything is stored (national phone numbers are read as {regions}; '+' numbers anywhere):"]
    described = pii.describe_actions()
    width = max(len(entity) for entity, _ in described)
    lines += [f"  {entity:<{width}}  {words}" for entity, words in described]
    if pii.refuse_paths:
        lines.append("  a path carrying any scanned type is refused")
    return lines


def _describe_expiry(policy: Policy) -> list[str]:
    ttl = policy.ttl
    if ttl.expire_after is None:
        lines = ["expiry: files are kept until deleted"]
    else:
        refresh = " (a view pushes it back)" if ttl.since == "access" and ttl.refresh_on_read else ""
        lines = [f"expiry: files expire {_after(ttl.expire_after, ttl.since)}{refresh}"]
    if policy.rules:
        lines.append("rules (the most specific glob wins; what a rule leaves unset comes from [ttl]):")
        width = max(len(rule.glob) for rule in policy.rules)
        for rule in policy.rules:
            lines.append(f"  {rule.glob:<{width}}  {_rule_words(policy, rule)}")
    return lines


def _after(seconds: float, since: str) -> str:
    return f"{format_duration(seconds)} after the last {'access' if since == 'access' else 'write'}"


def _rule_words(policy: Policy, rule: Rule) -> str:
    parts = ["read-only"] if rule.read_only else []
    after = rule.expire_after or policy.ttl.expire_after
    if rule.never_expire or (_sets_expiry(rule) and after is None):
        parts.append("never expires")
    elif _sets_expiry(rule) and after is not None:
        parts.append(f"expires {_after(after, rule.since or policy.ttl.since)}")
    else:
        parts.append("expiry from [ttl]")
    return "; ".join(parts)


def _describe_quota(policy: Policy) -> list[str]:
    quota = policy.quota
    per_file = _limits((quota.max_file_bytes, "bytes"), (quota.max_file_lines, "lines"))
    total = _limits((quota.max_total_bytes, "bytes"), (quota.max_files, "files"))
    parts = [f"{per_file} per file" if per_file else "", f"{total} per namespace" if total else ""]
    return [f"quota: {'; '.join(part for part in parts if part) or 'none'}"]


def _limits(*limits: tuple[int | None, str]) -> str:
    return " and ".join(f"{value:,} {unit}" for value, unit in limits if value is not None)


def _sample(glob: str) -> str:
    """A path the glob matches: each wildcard stands for one name."""
    for wildcard in _WILDCARDS:
        glob = glob.replace(wildcard, "x")
    return glob
