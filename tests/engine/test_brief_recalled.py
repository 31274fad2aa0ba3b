"""The brief's lines a small context window can do without, least important first: the playbook
hits (the weaker first), then the recalled notes that bind nothing (the lowest ranked first); a
binding decision is never among them (engine.routing.window.budget leaves them out in this order)."""

from __future__ import annotations

from engine.language.directions import Binding
from engine.workers.agents import WorkerContext, recalled_lines


def test_recalled_lines_are_the_weakest_first_and_never_a_binding_decision():
    lines = [
        "<campaign_memory>",
        "- [m1] day 2, procedural (binding): keep the price at 12",
        "- [m2] day 3, episodic: the pilot ran in two wards",
        "- [m3] day 4, semantic: nurses eat at 3 a.m.",
        "</campaign_memory>",
    ]
    ctx = WorkerContext(
        memory_block="\n".join(lines),
        memory_injected=[
            {"id": "m1", "kind": "procedural", "status": "active"},
            {"id": "m2", "kind": "episodic", "status": "active"},
            {"id": "m3", "kind": "semantic", "status": "active"},
        ],
        knowledge_hits=[
            {"source": "pricing.md", "text": "Price to the value."},
            {"source": "pilots.md", "text": "Pilot small."},
        ],
        burn_line="",
        tools=[],
        binding=Binding(),
    )
    assert recalled_lines(ctx) == (
        "- [pilots.md] Pilot small.",
        "- [pricing.md] Price to the value.",
        "- [m3] day 4, semantic: nurses eat at 3 a.m.",
        "- [m2] day 3, episodic: the pilot ran in two wards",
    )
