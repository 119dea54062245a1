"""The middleware chain: assembled from a policy, with the path guard always outermost."""

from __future__ import annotations

from collections.abc import Sequence

from securemem.middleware.access import Access
from securemem.middleware.base import AuditFacts, Call, Check, Handler, Middleware, ViewLimit, chain
from securemem.middleware.pathguard import PathGuard
from securemem.middleware.pii import PIIScrub
from securemem.middleware.quota import Quota
from securemem.middleware.transaction import Transaction
from securemem.middleware.truncate import ViewTruncate
from securemem.middleware.ttl import TTL
from securemem.mounts import MountTable
from securemem.policy import Policy

__all__ = [
    "TTL",
    "Access",
    "AuditFacts",
    "Call",
    "Check",
    "Handler",
    "Middleware",
    "PIIScrub",
    "PathGuard",
    "Quota",
    "Transaction",
    "ViewLimit",
    "ViewTruncate",
    "build_layers",
    "chain",
    "policy_layers",
]


def policy_layers(
    policy: Policy, token_key: bytes, *, admin: bool = False, mounts: MountTable | None = None
) -> list[Middleware]:
    """The layers a policy asks for, outermost first, all of them outside the store transaction.

    PathGuard comes first whatever the policy says: every later layer, and the store, may rely on
    canonical paths inside /memories (inside a mount, in a session with several stores). PIIScrub
    comes next, before any layer whose message could echo a path or a value. Quota's checks are
    registered last, so they count the bytes that will really be stored (after the PII net and
    TTL have had their say). The admin surface (``admin``) runs every layer but Access: an
    operator seeds the read-only reference material.
    """
    mounts = mounts or MountTable()
    layers: list[Middleware] = [PathGuard(mounts)]
    if policy.pii.enabled:
        layers.append(PIIScrub(policy, token_key))
    if not admin and (any(rule.read_only for rule in policy.rules) or any(m.read_only for m in mounts.mounts)):
        layers.append(Access(policy, mounts))
    if policy.has_expiry:
        layers.append(TTL(policy, mounts))
    if any(value is not None for value in policy.quota.model_dump().values()):
        layers.append(Quota(policy, mounts))
    layers.append(ViewTruncate(policy.view.max_chars))
    return layers


def build_layers(policy: Policy, transaction: Transaction, extra: Sequence[Middleware] = ()) -> list[Middleware]:
    """The whole chain in front of the dispatcher: the policy's layers, the transaction, your own.

    A deployment's own layers run inside the transaction, after the policy's layers, so they see
    input that is already guarded and scrubbed, and may read the store through ``call.txn``.
    """
    store = transaction.store
    return [*policy_layers(policy, store.token_key, mounts=transaction.mounts), transaction, *extra]
