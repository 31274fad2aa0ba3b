"""A change of shape names the customer as every other line does (the niche the CEO narrowed to),
with its verb agreeing: played, "TAKE skipped: … busy nurses carry Dog Walkin Co past the
operating toll" beside "the busiest nurses" in every other line."""

from __future__ import annotations

from engine.game import shape


def test_the_skip_names_the_niche_and_agrees_with_it(new_session):
    s = new_session(seed=7)
    st = s.state
    kind = shape.KIND_BY_ID["traction"]
    nxt = st.stages[-1]
    st.niche = "the busiest nurses"
    said = shape._why(st, kind, nxt)
    assert "the busiest nurses carry " in said, said
    st.niche = "the council"
    assert "the council carries " in shape._why(st, kind, nxt)
