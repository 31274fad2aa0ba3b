"""Settings: env names, default chains, file ⟵ env precedence, keys never on disk, one-line errors."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from engine.config import (
    Settings,
    SettingsError,
    changed_fields,
    config_dir,
    env_block,
    load_settings,
    log_dir,
    save_choices,
    save_dir,
    settings_path,
)


def test_dirs_live_under_worldforge_home(isolated_home):
    assert config_dir() == isolated_home
    assert save_dir() == isolated_home
    assert log_dir() == isolated_home / "logs"


def test_env_names_are_the_originals(monkeypatch):
    monkeypatch.setenv("DEMO_MODE", "LIVE")
    monkeypatch.setenv("AGENT_ROUTING", "cloud_first")
    monkeypatch.setenv("LOCAL_AGENT_BASE_URL", "http://localhost:11434/v1/")
    monkeypatch.setenv("LOCAL_AGENT_MODEL", "qwen2.5")
    monkeypatch.setenv("NARRATOR_MODEL", "gpt-4.1")
    monkeypatch.setenv("MARKETER_MODEL", "gpt-4.1-mini")
    monkeypatch.setenv("NPC_FAST_MODEL", "gpt-4.1-nano")
    monkeypatch.setenv("LOCAL_NARRATOR_MODEL", "llama3.2")
    monkeypatch.setenv("FOUNDRY_BASE_URL", "https://acct.openai.azure.com/openai/v1/")
    monkeypatch.setenv("AGENT_REQUEST_TIMEOUT", "12")
    s = load_settings()
    assert s.demo_mode == "live" and s.agent_routing == "cloud_first"
    assert s.local_agent_base_url == "http://localhost:11434/v1"
    assert s.cloud_model_for("orgdesigner") == "gpt-4.1"  # ORG_DESIGNER_MODEL → NARRATOR_MODEL
    assert s.cloud_model_for("ops") == "gpt-4.1-mini"  # OPS_MODEL → MARKETER_MODEL
    assert s.cloud_model_for("npc") == "gpt-4.1-nano"
    assert s.cloud_model_for("strategist") is None
    assert s.local_model_for("antagonist") == "llama3.2"  # → LOCAL_NARRATOR_MODEL
    assert s.local_model_for("designer") == "qwen2.5"  # → LOCAL_AGENT_MODEL
    assert s.agent_request_timeout == 12
    assert s.runtime_label() == "hybrid"


def test_fallback_model_is_the_cloud_default():
    s = Settings(foundry_fallback_model="gpt-4.1-mini", designer_model="gpt-5")
    assert s.cloud_model_for("strategist") == "gpt-4.1-mini"
    assert s.cloud_model_for("designer") == "gpt-5"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("demo_mode", "turbo"),
        ("agent_routing", "random"),
        ("local_agent_base_url", "ftp://host/v1"),
        ("local_agent_base_url", "localhost:11434"),
        ("agent_request_timeout", -1),
        ("agent_request_timeout", 0),
        ("agent_max_retries", -2),
    ],
)
def test_bad_values_raise_validation_error(field, value):
    with pytest.raises(ValueError, match=field.upper()):
        Settings(**{field: value})


def test_bad_env_value_raises_on_load(monkeypatch):
    monkeypatch.setenv("WORLDFORGE_DEMO_MODE", "bogus")  # an old name would be ignored
    with pytest.raises(SettingsError, match="WORLDFORGE_DEMO_MODE='bogus' in the environment"):
        load_settings()


def test_save_never_writes_keys_and_env_overrides_file(monkeypatch):
    s = Settings(
        demo_mode="local",
        local_agent_base_url="http://127.0.0.1:8080/v1",
        local_agent_model="phi4",
        local_agent_api_key="sk-local-secret-123456789012345",
        foundry_api_key="azure-secret-value",
        foundry_fallback_model="gpt-4.1-mini",
    )
    path = save_choices(changed_fields(Settings(), s))
    text = path.read_text()
    assert "secret" not in text
    assert json.loads(text)["LOCAL_AGENT_MODEL"] == "phi4"
    assert list(path.parent.glob(".settings-*")) == []  # atomic: no temp file left behind
    loaded = load_settings()
    assert loaded.local_agent_model == "phi4" and loaded.local_agent_api_key is None
    monkeypatch.setenv("LOCAL_AGENT_MODEL", "qwen2.5")
    monkeypatch.setenv("FOUNDRY_API_KEY", "from-env")
    again = load_settings()
    assert again.local_agent_model == "qwen2.5"
    assert again.demo_mode == "local"
    assert again.foundry_api_key.get_secret_value() == "from-env"


def test_save_refuses_credentials_in_urls_in_one_line():
    url = "http://user:hunter2pass@127.0.0.1:8080/v1"
    with pytest.raises(SettingsError) as caught:
        save_choices({"local_agent_base_url": url, "local_agent_model": "phi4"})
    assert "hunter2pass" not in str(caught.value) and "\n" not in str(caught.value)
    assert "LOCAL_AGENT_BASE_URL" in str(caught.value) and "LOCAL_AGENT_API_KEY" in str(
        caught.value
    )
    assert not settings_path().exists()  # nothing half-written


def test_unreadable_settings_file_is_a_value_error():
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text("[1, 2]")
    with pytest.raises(ValueError, match="does not hold an object"):
        load_settings()


def test_env_block_masks_keys_unless_revealed():
    s = Settings(
        demo_mode="live",
        foundry_api_key="azure-secret-value",
        foundry_base_url="https://a.openai.azure.com/openai/v1",
    )
    block = env_block(s)
    assert "DEMO_MODE=live" in block
    assert "FOUNDRY_BASE_URL=https://a.openai.azure.com/openai/v1" in block
    assert "azure-secret-value" not in block and "FOUNDRY_API_KEY=********" in block
    assert "FOUNDRY_API_KEY=azure-secret-value" in env_block(s, reveal_keys=True)


def test_secrets_hidden_in_repr():
    s = Settings(foundry_api_key="azure-secret-value")
    assert "azure-secret-value" not in repr(s)
    assert "azure-secret-value" not in json.dumps(asdict(s), default=str)


def test_env_names_match_case_blind_and_own_name_beats_alias(monkeypatch):
    said = {"npc_fast_model": "alias", "NPC_MODEL": "own", "Demo_Mode": "local"}
    for name, value in {**said, "LOCAL_AGENT_MODEL": "  "}.items():
        monkeypatch.setenv(name, value)
    s = load_settings()
    assert (s.npc_model, s.demo_mode, s.local_agent_model) == ("own", "local", None)
    monkeypatch.delenv("NPC_MODEL")
    assert load_settings().npc_model == "alias"


def test_blank_env_leaves_the_file_value(monkeypatch):
    save_choices({"local_agent_model": "phi4"})
    monkeypatch.setenv("LOCAL_AGENT_MODEL", "")
    assert load_settings().local_agent_model == "phi4"
