"""The suggestion call (engine.workers.suggest) against the REAL llama-cpp-python server: its
grammar takes the schema (enums, anyOf, const) and holds even a random-weight model to it, so
every placement is an axis of the list and words of the player's, and none is discarded.
Skipped, with one reason, where the wheel is not installed (`make llm-runtime`)."""

from __future__ import annotations

import pytest

from engine.language.reader.read import read_text
from engine.language.suggested import AXES, LEAVE_OUT
from engine.routing import Router
from engine.workers.suggest import offer
from tests.routing.helpers import local_settings

# Not a speed limit (see test_real_llama.py): the budget only bounds a wedged call.
CALL_BUDGET_S = 300.0


@pytest.mark.parametrize(
    "said",
    [
        "speak to law firms. keep away from the word revolutionary",
        "start with law firms and hire a barista for the launch",
        # a part the reader leaves unread, so there is something to suggest ("target
        # team-building budgets" is read now)
        "lean into the nostalgia, companies pay way more than hen dos",
    ],
)
def test_the_real_server_answers_the_constrained_choice_within_it(llama_server, said):
    router = Router(
        local_settings(
            llama_server.url,
            local_agent_model=llama_server.model,
            agent_request_timeout=CALL_BUDGET_S,
        ),
        caps_cache=None,
    )
    reading = read_text(said, source="rejection", period="month")
    got = offer(router, reading, role="strategist", call_key="suggest/real")
    assert got.line and not got.line.startswith("No suggestion"), got.line  # served locally
    assert "Discarded" not in got.line, got.line  # the grammar held every placement
    for s in got.suggestions:
        assert s.axis in AXES and s.by == f"local: {llama_server.model}"
        assert said[s.start : s.end] == s.value  # the player's own words
        assert s.do is False or s.axis not in LEAVE_OUT
