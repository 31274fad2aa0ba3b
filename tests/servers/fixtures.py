"""Pytest fixtures for the loopback servers; import them into a suite's conftest to reuse them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.config import Settings
from engine.routing import Router
from tests.servers.artifacts import stage_one_artifact
from tests.servers.openai_server import FakeOpenAI

# The venture of the tests that serve a worker's work from a loopback model (`first_artifact`).
MODEL_PITCH = "Meal kits for night-shift nurses"
MODEL_SEED = 3


@pytest.fixture(scope="module")
def first_artifact(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The first stage's artifact of MODEL_PITCH as the simulation writes it: what a loopback
    model serves the worker, so a venture played on the local tier has real work to judge."""
    return stage_one_artifact(
        tmp_path_factory.mktemp("sim"),
        pitch=MODEL_PITCH,
        seed=MODEL_SEED,
        router=Router(Settings()),
    )


@pytest.fixture
def fake_openai_factory() -> Iterator[Callable[..., FakeOpenAI]]:
    """Start any number of FakeOpenAI servers (kwargs as FakeOpenAI); all stop at teardown."""
    started: list[FakeOpenAI] = []

    def _make(flavour: str = "ollama", **kwargs: Any) -> FakeOpenAI:
        server = FakeOpenAI(flavour, **kwargs).start()
        started.append(server)
        return server

    yield _make
    for server in started:
        server.stop()


@pytest.fixture
def fake_openai(fake_openai_factory: Callable[..., FakeOpenAI]) -> FakeOpenAI:
    """One Ollama-flavoured server on 127.0.0.1 (port 0)."""
    return fake_openai_factory("ollama")


def _real_llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.servers.llama_real import running_server, unavailable_reason

    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    with running_server(tmp_path_factory.mktemp("llama")) as server:
        yield server


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The real llama-cpp-python server with the tiny model, once per session (skipped, with the
    one reason, where the wheel is not installed: `make llm-runtime` installs it)."""
    yield from _real_llama(tmp_path_factory)


@pytest.fixture
def fresh_llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real server of the test's own: the tiny model samples from the server's generator, so
    whatever earlier tests asked would change what it writes for a whole venture."""
    yield from _real_llama(tmp_path_factory)
