"""A small artifact model and payloads the routing tests route (stand-ins for the role contracts)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Pitch(BaseModel):
    """A tiny artifact with a floor: the router must validate, not just parse."""

    title: str = Field(min_length=3)
    steps: list[str] = Field(min_length=1)
    confidence: int = Field(ge=0, le=100)


GOOD = {"title": "Dockside pilot", "steps": ["call ten shops", "ship a demo"], "confidence": 70}
SIMULATED = {"title": "Simulated plan", "steps": ["seeded step"], "confidence": 50}


def simulate() -> dict[str, Any]:
    """The floor the engine would pass in: its own answer, as JSON."""
    return SIMULATED
