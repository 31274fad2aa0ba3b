"""The hybrid router: simulation floor, local OpenAI-compatible server, Azure AI Foundry, replay."""

from engine.routing.router import Router
from engine.routing.types import (
    ROLES,
    Attempt,
    Fallback,
    Role,
    RouteRequest,
    RouteResult,
    Tier,
    Usage,
)

__all__ = [
    "ROLES",
    "Attempt",
    "Fallback",
    "Role",
    "RouteRequest",
    "RouteResult",
    "Router",
    "Tier",
    "Usage",
]
