"""The core's records take `==`, `repr` and the hash from `worldforge_savedb.records.Record` (one copy, not
one `exec`-compiled set per class) and behave exactly as `@dataclass` would have written them: a
twin made by plain `@dataclass` from the same values shows, compares and hashes the same."""

from __future__ import annotations

import copy
import dataclasses
import importlib
from typing import Any

import pytest

import engine.game.models as game_models
import engine.session.commands as commands
import memory.lifecycle as lifecycle
import memory.models as memory_models
from tests.engine.test_state_codec import records
from worldforge_savedb.records import FrozenRecord, Record

MODULES = [game_models, commands, memory_models, lifecycle] + [
    importlib.import_module(name)
    for name in [
        "engine.config",
        "engine.game.adherence",
        "engine.game.antagonist",
        "engine.game.archetypes",
        "engine.game.artifacts",
        "engine.game.decision",
        "engine.game.dilemmas",
        "engine.game.endings",
        "engine.game.flaws",
        "engine.game.rules",
        "engine.game.world_events",
        "engine.language.directions",
        "engine.language.reader.figures",
        "engine.language.pitch",
        "engine.language.reader.pick",
        "engine.language.reader.reads",
        "engine.language.steering",
        "engine.language.reader.utterance",
        "engine.language.reader.vocab",
        "engine.play.headless",
        "engine.routing.errors",
        "engine.routing.extract",
        "engine.routing.health",
        "engine.routing.pace",
        "engine.routing.router",
        "engine.routing.target",
        "engine.routing.types",
        "engine.routing.window",
        "engine.session.checkpoint",
        "engine.session.events",
        "engine.session.founding",
        "engine.session.lease",
        "engine.session.savefile",
        "engine.session.saves",
        "engine.views.render",
        "engine.workers.agents",
        "knowledge.models",
        "knowledge.retrieval",
        "memory.guards",
        "memory.recall",
    ]
]
# Their own methods, kept: stream events (slots), contracts (compared by identity)
OWN = {"StreamEvent", "Contract"}


def record_classes() -> list[type]:
    return [
        cls
        for module in MODULES
        for cls in vars(module).values()
        if isinstance(cls, type)
        and dataclasses.is_dataclass(cls)
        and cls.__module__ == module.__name__
        and cls.__name__ not in OWN
    ]


def twin(record: Any) -> Any:
    """The same values in a class plain `@dataclass` makes (same name, fields, frozen-ness)."""
    names = [f.name for f in dataclasses.fields(record)]
    frozen = type(record).__dataclass_params__.frozen
    made = dataclasses.make_dataclass(type(record).__qualname__, names, frozen=frozen)
    return made(*(getattr(record, n) for n in names))


def test_every_record_inherits_them_and_none_is_generated() -> None:
    classes = record_classes()
    assert len(classes) > 80
    for cls in classes:
        assert issubclass(cls, Record), cls
        assert cls.__repr__ is Record.__repr__ and cls.__eq__ is Record.__eq__, cls
        frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert (cls.__hash__ is FrozenRecord.__hash__) if frozen else cls.__hash__ is None, cls


def test_a_played_state_shows_and_compares_as_plain_dataclasses_would(played) -> None:
    state = played(seed=3).state
    found = records(state)
    assert {type(r).__name__ for r in found} >= {"GameState", "Receipt", "Economics", "Stage"}
    for record in found:
        plain = twin(record)
        assert repr(record) == repr(plain)
        assert record == copy.deepcopy(record)
        assert record != plain  # another class: never equal, as between two dataclasses
        with pytest.raises(TypeError, match="unhashable"):
            hash(record)
    changed = copy.deepcopy(state)
    changed.receipts[-1].after.trust += 1
    assert changed != state and changed.receipts[0] == state.receipts[0]


def test_frozen_records_hash_and_refuse_changes_as_before() -> None:
    decide = commands.Decide("A")
    assert decide == commands.Decide("A") and decide != commands.Decide("B")
    assert hash(decide) == hash(twin(decide)) and repr(decide) == "Decide(choice='A')"
    assert repr(commands.Approve()) == "Approve()" and commands.Approve() == commands.Approve()
    assert commands.Approve() != commands.RunStage()  # two classes without fields
    assert len({commands.Approve(), commands.Approve(), decide}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        decide.choice = "B"  # type: ignore[misc]
    note = memory_models.NewNote("context", "a note", "worker", 3, source_ids=("m1",))
    assert hash(note) == hash(twin(note)) and repr(note) == repr(twin(note))


def test_a_record_that_holds_itself_shows_the_loop_as_dataclasses_do() -> None:
    report = memory_models.HardenReport()
    report.promoted.append(report)
    assert repr(report) == "HardenReport(promoted=[...], archived=[], superseded=[])"


def test_settings_show_as_before_and_never_show_a_key() -> None:
    from engine.config import Settings

    s = Settings(demo_mode="local", local_agent_api_key="sk-test-0123456789abcdef")
    assert repr(s) == repr(twin(s)) and "sk-test" not in repr(s)
    assert s == Settings(demo_mode="local", local_agent_api_key="sk-test-0123456789abcdef")
    assert s != Settings(demo_mode="local")


def test_every_record_says_what_it_holds_so_dataclass_never_writes_its_docstring() -> None:
    """A record with no docstring gets one from `@dataclass`, made by `inspect.signature` at
    import (24 records on the headless path paid that on every `worldforge simulate`)."""
    made = [
        cls.__qualname__
        for module in MODULES
        for cls in vars(module).values()
        if isinstance(cls, type)
        and dataclasses.is_dataclass(cls)
        and cls.__module__ == module.__name__
        and (cls.__doc__ or "").startswith(f"{cls.__name__}(")
    ]
    assert made == [], made
