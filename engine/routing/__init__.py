"""The hybrid router: simulation floor, local OpenAI-compatible server, Azure AI Foundry, replay."""

from engine.routing.router import Router
from engine.routing.types import ROLES, Role, RouteRequest, RouteResult

__all__ = ["ROLES", "Role", "RouteRequest", "RouteResult", "Router"]
