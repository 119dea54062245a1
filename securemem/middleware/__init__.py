"""The middleware chain: assembled from a policy, with the path guard always outermost."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from securemem.middleware.access import Access
from securemem.middleware.base import AuditFacts, Call, Check, Handler, Middleware, ViewLimit, chain
from securemem.middleware.pathguard import PathGuard
from securemem.middleware.pii import PIIScrub
from securemem.middleware.quota import Quota
from securemem.middleware.transaction import Transaction
from securemem.middleware.truncate import ViewTruncate
from securemem.middleware.ttl import TTL
from securemem.policy import Policy
from securemem.store.base import Actor, Clock, Store

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


def policy_layers(policy: Policy, token_key: bytes, *, admin: bool = False) -> list[Middleware]:
    """The layers a policy asks for, outermost first, all of them outside the store transaction.

    PathGuard comes first whatever the policy says: every later layer, and the store, may rely on
    canonical paths inside /memories. PIIScrub comes next, before any layer whose message could
    echo a path or a value. Quota's checks are registered last, so they count the bytes that will
    really be stored (after the PII net and TTL have had their say). The admin surface (``admin``)
    runs every layer but Access: an operator seeds the read-only reference material.
    """
    layers: list[Middleware] = [PathGuard()]
    if policy.pii.enabled:
        layers.append(PIIScrub(policy, token_key))
    if not admin and any(rule.read_only for rule in policy.rules):
        layers.append(Access(policy))
    if policy.has_expiry:
        layers.append(TTL(policy))
    if any(value is not None for value in policy.quota.model_dump().values()):
        layers.append(Quota(policy))
    layers.append(ViewTruncate(policy.view.max_chars))
    return layers


def build_layers(
    policy: Policy,
    store: Store,
    namespace: str,
    clock: Clock,
    extra: Sequence[Middleware] = (),
    *,
    check: Callable[[], None] | None = None,
    actor: Actor | None = None,
) -> list[Middleware]:
    """The whole chain in front of the dispatcher: the policy's layers, the transaction, your own.

    A deployment's own layers run inside the transaction, after the policy's layers, so they see
    input that is already guarded and scrubbed, and may read the store through ``call.txn``.
    """
    return [*policy_layers(policy, store.token_key), Transaction(store, namespace, clock, check, actor), *extra]
