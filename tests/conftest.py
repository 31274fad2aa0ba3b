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
