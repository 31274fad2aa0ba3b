"""Shared test set-up: every test gets its own WORLDFORGE_HOME and a clean routing environment."""

from __future__ import annotations

import os

import pytest

pytest_plugins = ["tests.netguard"]

_ROUTING_ENV_PREFIXES = ("DEMO_MODE", "AGENT_", "LOCAL_", "FOUNDRY_", "AZURE_")
_ROLE_MODEL_SUFFIX = "_MODEL"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """Point saves, settings and logs at a temp dir and drop any model-routing env vars."""
    for key in list(os.environ):
        if (
            key.startswith(_ROUTING_ENV_PREFIXES)
            or key.endswith(_ROLE_MODEL_SUFFIX)
            or (key.upper().startswith("WORLDFORGE_") and key.upper() != "WORLDFORGE_HOME")
        ):
            monkeypatch.delenv(key, raising=False)
    import engine.config

    # No --env file from an earlier test, and no developer's ./.env: tests that read a .env
    # set these back themselves.
    monkeypatch.setattr(engine.config, "_env_file", None)
    monkeypatch.setattr(engine.config, "DOTENV_NAME", ".env (ignored in tests)")
    # old setting names seen by an earlier test's settings read would warn in this one's CLI run
    monkeypatch.setattr(engine.config, "_old_names", {})
    home = tmp_path / "wf-home"
    monkeypatch.setenv("WORLDFORGE_HOME", str(home))
    return home


def pytest_collection_finish(session: pytest.Session) -> None:
    """No test module imports `bench` in the test process: importing it moves HOME and the XDG
    directories to a temporary home (bench/__init__.py), and every later test on that worker
    looks there (the Cosmos DB server's install was then "not installed": 30 tests skipped).
    Run a bench's code in a child process instead (tests/bench_child.py)."""
    import sys

    if "bench" in sys.modules:
        raise pytest.UsageError(
            "a test module imported `bench` at collection: its temporary home would leak into "
            "the other tests; run the bench code in a child process"
        )


# ---------------------------------------------------------------------------- scheduling
# `make test` hands whole modules to the xdist workers (`--dist loadscope`: a module's tests run in
# their own order on one worker, so its module-scoped fixtures are built once) in the order set
# here, not xdist's default of the most tests first, which started the longest single tests (the
# model-fault soak, the stress run) last and left one worker busy for minutes while the other
# idled. Modules holding a test marked `slow` of its own go first, then modules with a
# module-scoped fixture to build, then modules marked slow as a whole, then the rest; within a
# module the order is untouched. Order changes nothing else.


def _rank(item: pytest.Item) -> int:
    if any(m.name == "slow" for m in item.own_markers):
        return 0
    info = getattr(item, "_fixtureinfo", None)  # pytest's fixture closure, when it has one
    if info is not None and any(
        defs and defs[-1].scope in ("module", "class", "package")
        for defs in info.name2fixturedefs.values()
    ):
        return 1
    return 2 if item.get_closest_marker("slow") else 3


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    module_rank: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        module_rank[module] = min(module_rank.get(module, 3), _rank(item))
    items.sort(key=lambda i: module_rank[i.nodeid.split("::", 1)[0]])  # stable: modules whole
