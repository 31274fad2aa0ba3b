"""Entra ID bearer tokens for the Foundry tier, built lazily so offline play never touches Azure."""

from __future__ import annotations

import threading
from collections.abc import Callable


class AuthUnavailable(RuntimeError):
    """No way to get a token (azure-identity missing); classified as `auth` like a credential error."""


def azure_token_provider(scope: str) -> Callable[[], str]:
    """A token callable for `scope`; DefaultAzureCredential is built on the first token request.

    The router calls it in a daemon thread under the call deadline, so a slow credential chain
    (developer CLIs, the managed-identity probe) cannot stretch a call past its budget.
    """
    lock = threading.Lock()
    holder: dict[str, Callable[[], str]] = {}

    def provider() -> str:
        with lock:
            fn = holder.get("fn")
            if fn is None:
                try:
                    from azure.identity import DefaultAzureCredential, get_bearer_token_provider
                except ImportError as exc:
                    raise AuthUnavailable("azure-identity is not installed") from exc
                credential = DefaultAzureCredential(exclude_interactive_browser_credential=True)
                fn = get_bearer_token_provider(credential, scope)
                holder["fn"] = fn
        return fn()

    return provider
