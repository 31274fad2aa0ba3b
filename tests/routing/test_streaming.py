"""Streamed calls: watchers see the text grow, partial JSON reads, and a cancel ends a call cleanly."""

from __future__ import annotations

import dataclasses
import json
import threading
import time

import pytest

from engine.errors import GameError
from engine.routing import Router
from engine.routing.partial import partial_reach
from engine.routing.types import CallCancelled, StreamEvent
from tests.routing.artifacts import GOOD, simulate
from tests.routing.helpers import local_router, local_settings, req

NESTED = {
    "title": 'Plan "A" \\ now ☃',
    "steps": ["one", "two"],
    "n": -12.5,
    "ok": True,
    "none": None,
    "sub": {"a": [1, {"b": "x"}], "c": []},
}


def partial_json(text: str) -> object:
    """The object as far as it is written (what a streamed answer shows so far)."""
    return partial_reach(text)[0]


def test_every_prefix_reads_as_the_fields_written_so_far():
    text = json.dumps(NESTED, ensure_ascii=False)
    seen_title: list[str] = []
    for cut in range(len(text) + 1):
        value = partial_json("noise before " + text[:cut])
        if value is None:
            assert "{" not in text[:cut]
            continue
        assert isinstance(value, dict) and set(value) <= set(NESTED)
        for key, got in value.items():
            want = NESTED[key]
            if isinstance(want, str):
                assert want.startswith(got)
            elif not isinstance(want, dict | list):
                assert got == want  # numbers and literals appear only once complete
        if "title" in value:
            seen_title.append(value["title"])
    assert partial_json(text) == NESTED
    assert len(set(seen_title)) > 5  # the string value grew while it was being written


def test_unfinished_escapes_are_held_back():
    assert partial_json('{"a": "x\\') == {"a": "x"}
    assert partial_json('{"a": "x\\u00') == {"a": "x"}
    assert partial_json('{"a": "x\\u0041y') == {"a": "xAy"}
    assert partial_json('{"a": 1') == {}
    assert partial_json('{"a": 1,') == {"a": 1}
    assert partial_json("no json here") is None


def test_watchers_see_each_piece_and_the_end(fake_openai_factory):
    server = fake_openai_factory("ollama", payload=GOOD, stream_piece=3)
    router = Router(local_settings(server.url))
    events: list[StreamEvent] = []
    router.watch(events.append)
    result = router.call(req(), simulate)
    deltas = [e for e in events if e.kind == "delta"]
    assert events[0].kind == "start" and events[-1].kind == "end"
    assert len(deltas) == -(-len(result.raw_text) // 3)
    assert deltas[-1].text == result.raw_text
    middle = partial_json(deltas[len(deltas) // 2].text)
    assert isinstance(middle, dict) and set(middle) <= set(GOOD)
    assert result.usage.tokens_out == len(result.raw_text) // 4  # the server's usage chunk
    assert server.chat_requests[0].body["stream_options"] == {"include_usage": True}


def test_no_watcher_no_events_and_the_same_answer(fake_openai):
    router = local_router(fake_openai)
    assert router.call(req(), simulate).output == GOOD


def _cancel_on_first_delta(router: Router) -> list[StreamEvent]:
    events: list[StreamEvent] = []

    def watcher(event: StreamEvent) -> None:
        events.append(event)
        if event.kind == "delta" and len(events) == 2:
            router.cancel()

    router.watch(watcher)
    return events


def test_cancel_mid_stream_raises_and_the_next_call_serves(fake_openai_factory):
    server = fake_openai_factory("ollama", payload=GOOD, stream_piece=2, stream_delay=0.05)
    router = Router(local_settings(server.url, agent_request_timeout=30.0))
    events = _cancel_on_first_delta(router)
    with pytest.raises(CallCancelled) as info:
        router.call(req(), simulate)
    assert isinstance(info.value, GameError)  # front ends show it as one line
    assert events[-1].kind == "end" and events[-1].model == "cancelled"
    assert router.status()["cooldowns"] == {}  # a cancel is not the server's fault
    assert router.status()["served"] == {}
    assert router.call(req(), simulate).served_by == "local"


def test_cancel_before_the_first_token(fake_openai):
    router = local_router(fake_openai, "hang", agent_request_timeout=20.0)
    threading.Timer(0.2, router.cancel).start()
    started = time.perf_counter()
    with pytest.raises(CallCancelled):
        router.call(req(), simulate)
    assert time.perf_counter() - started < 10  # not the 20 s budget, not the 30 s hang


def test_cancel_can_serve_the_floor_labelled(fake_openai_factory):
    server = fake_openai_factory("ollama", payload=GOOD, stream_piece=2, stream_delay=0.05)
    router = Router(local_settings(server.url, agent_request_timeout=30.0))
    _cancel_on_first_delta(router)
    result = router.call(dataclasses.replace(req(), on_cancel="floor"), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason == "local: cancelled (by the player)"


def test_partial_reach_says_how_much_of_the_text_the_value_shows():
    assert partial_reach('noise {"a": "hel') == ({"a": "hel"}, len('noise {"a": "hel'))
    text = '{"a": "hello", "b'
    assert partial_reach(text) == ({"a": "hello"}, text.index(', "b'))
    assert partial_reach('{"a": 12') == ({}, 1)  # a number is shown once a delimiter ends it
    assert partial_reach('{"a": 12,')[1] == len('{"a": 12')
    assert partial_reach('{"a": 1}') == ({"a": 1}, 8)
    assert partial_reach("no object") == (None, 0)
