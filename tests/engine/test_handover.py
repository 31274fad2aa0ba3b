"""Ventures differ in shape (engine.game.world.HANDOVERS): in some, one stage's usual worker is gone
and another role's worker ships it, drawn from the seed and the founder archetype, shown on the
board from day 0 with the reason, and played with that role's contract and weight."""

from __future__ import annotations

from engine.game.economy import founding_org
from engine.game.world import HANDOVERS, OWNER_WORKER, STAGE_TABLE, build_stages, handover_for

USUAL = {row[0]: row[5] for row in STAGE_TABLE}
TUNE = [(s, a) for s in [*range(7, 15), *range(101, 111)] for a in ("builder", "seller")]


def _with_handover() -> tuple[int, str]:
    return next((s, a) for s, a in TUNE if handover_for(s, a) is not None)


def test_the_handover_is_drawn_from_seed_and_archetype_and_varies():
    drawn = [handover_for(s, a) for s, a in TUNE]
    assert drawn == [handover_for(s, a) for s, a in TUNE]  # the same inputs, the same shape
    assert any(h is None for h in drawn)  # most ventures keep the usual shape or close to it
    assert len({h.stage_id for h in drawn if h is not None}) >= 3
    # the archetype is one of the inputs: some seed draws a different shape for another founder
    assert any(handover_for(s, "builder") != handover_for(s, "operator") for s, _ in TUNE)


def test_every_handover_moves_a_stage_to_a_role_that_does_not_usually_ship_it():
    for h in HANDOVERS:
        assert h.stage_id in USUAL and h.role != USUAL[h.stage_id]
        assert h.why


def test_the_stage_is_shipped_by_the_other_roles_worker_with_its_reason():
    org = founding_org()
    titles = {w.id: w.title for w in org}
    for h in HANDOVERS:
        stages = {s.id: s for s in build_stages(org, h)}
        moved = stages[h.stage_id]
        assert moved.owner_role == h.role
        assert moved.worker_id == OWNER_WORKER[h.role]
        assert moved.worker_title == titles[OWNER_WORKER[h.role]]
        assert moved.handover == h.why
        others = [s for s in stages.values() if s.id != h.stage_id]
        assert all(s.owner_role == USUAL[s.id] and not s.handover for s in others)
    assert [s.owner_role for s in build_stages(org)] == [row[5] for row in STAGE_TABLE]


def test_a_venture_with_a_handover_shows_it_on_the_board_and_plays_it(new_session):
    seed, archetype = _with_handover()
    h = handover_for(seed, archetype)
    assert h is not None
    s = new_session(seed=seed, archetype=archetype)
    moved = next(st for st in s.state.stages if st.id == h.stage_id)
    assert moved.owner_role == h.role and moved.handover == h.why
    board = s.snapshot().handovers
    assert board == [
        f"stage {moved.number} ({moved.beat}) shipped by {moved.worker_title}: {h.why}"
    ]


def test_a_venture_without_one_keeps_every_usual_worker(new_session):
    seed, archetype = next((s, a) for s, a in TUNE if handover_for(s, a) is None)
    s = new_session(seed=seed, archetype=archetype)
    assert [st.owner_role for st in s.state.stages] == [row[5] for row in STAGE_TABLE]
    assert s.snapshot().handovers == []
