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
    home = tmp_path / "wf-home"
    monkeypatch.setenv("WORLDFORGE_HOME", str(home))
    return home


# ---------------------------------------------------------------------------- scheduling
# `make test` spreads the suite test by test over the xdist workers (`--dist loadgroup`), so the
# last minutes are not one big module on one worker while the other idles. Two kinds of tests
# stay together, as one unit on one worker: the tests of a module that share a module- or
# class-scoped fixture (a balance sweep, forking game launchers: built once), and the users of a
# session fixture worth one instance a run (`SHARED`: the real llama.cpp server). Long tests (a
# test's own `slow` mark), then those units, then slow modules go first: longest-first keeps the
# tail short (`--no-loadscope-reorder` keeps this order). Order changes nothing else.
SHARED = frozenset({"llama_server"})


def _unit(item: pytest.Item) -> str | None:
    """The xdist group an item must share (None: it can run on any worker)."""
    module = item.nodeid.split("::", 1)[0]
    info = getattr(item, "_fixtureinfo", None)  # pytest's fixture closure; absent: keep modules
    if info is None:
        return module
    # the definition that applies to this item is the last one (a module's own overrides)
    scopes = {name: defs[-1].scope for name, defs in info.name2fixturedefs.items() if defs}
    for name in sorted(SHARED):
        if scopes.get(name) == "session":
            return f"shared-{name}"
    if any(scope in ("module", "class", "package") for scope in scopes.values()):
        return module
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank: dict[str, int] = {}
    for item in items:
        unit = _unit(item)
        if unit is not None:
            item.add_marker(pytest.mark.xdist_group(unit))
        own_slow = any(m.name == "slow" for m in item.own_markers)  # one long test
        rank[item.nodeid] = (
            0 if own_slow else 1 if unit else 2 if item.get_closest_marker("slow") else 3
        )
    items.sort(key=lambda i: rank[i.nodeid])  # stable: collection order within each rank
