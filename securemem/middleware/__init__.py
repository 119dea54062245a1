"""The middleware chain: assembled from a policy, with the path guard always outermost."""

from __future__ import annotations

from collections.abc import Sequence

from securemem.middleware.base import Call, Handler, Middleware, chain
from securemem.middleware.pathguard import PathGuard
from securemem.middleware.truncate import ViewTruncate
from securemem.policy import Policy

__all__ = ["Call", "Handler", "Middleware", "PathGuard", "ViewTruncate", "build_layers", "chain"]


def build_layers(policy: Policy, extra: Sequence[Middleware] = ()) -> list[Middleware]:
    """The layers a policy asks for, outermost first.

    PathGuard comes first whatever the policy says: every later layer, and the store, may rely on
    canonical paths inside /memories. A deployment's own layers run after the policy's layers, so
    they see input that is already guarded and scrubbed, and before the view cap.
    """
    layers: list[Middleware] = [PathGuard()]
    layers.extend(extra)
    layers.append(ViewTruncate(policy.view.max_chars))
    return layers
