"""The middleware chain: assembled from a policy, with the path guard always outermost."""

from __future__ import annotations

from collections.abc import Sequence

from securemem.middleware.access import Access
from securemem.middleware.base import Call, Handler, Middleware, chain
from securemem.middleware.pathguard import PathGuard
from securemem.middleware.pii import PIIScrub
from securemem.middleware.quota import Quota
from securemem.middleware.truncate import ViewTruncate
from securemem.middleware.ttl import TTL
from securemem.policy import Policy

__all__ = [
    "TTL",
    "Access",
    "Call",
    "Handler",
    "Middleware",
    "PIIScrub",
    "PathGuard",
    "Quota",
    "ViewTruncate",
    "build_layers",
    "chain",
]


def build_layers(policy: Policy, token_key: bytes, extra: Sequence[Middleware] = ()) -> list[Middleware]:
    """The layers a policy asks for, outermost first.

    PathGuard comes first whatever the policy says: every later layer, and the store, may rely on
    canonical paths inside /memories. PIIScrub comes next, before any layer whose message could
    echo a path or a value. Quota is the innermost policy layer, so it checks the bytes that will
    really be stored. A deployment's own layers run after the policy's layers, so they see input
    that is already guarded and scrubbed, and before the view cap.
    """
    layers: list[Middleware] = [PathGuard()]
    if policy.pii.enabled:
        layers.append(PIIScrub(policy, token_key))
    if any(rule.read_only for rule in policy.rules):
        layers.append(Access(policy))
    if policy.has_expiry:
        layers.append(TTL(policy))
    if any(value is not None for value in policy.quota.model_dump().values()):
        layers.append(Quota(policy))
    layers.extend(extra)
    layers.append(ViewTruncate(policy.view.max_chars))
    return layers
