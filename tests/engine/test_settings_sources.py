"""Where settings come from: WORLDFORGE_-prefixed names (any case) with the old unprefixed names
as aliases and one warning line, a .env (./.env or --env FILE) read above the settings file and
below the environment, and a bad value named with the file it came from."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import config
from engine.config import env_block, load_settings, old_names_line, save_choices
from worldforge_tui.cli import main

PITCH = "Meal kits for night-shift nurses"


def test_the_prefixed_name_beats_a_foreign_old_one(monkeypatch):
    monkeypatch.setenv("DEMO_MODE", "true")  # another tool's variable
    monkeypatch.setenv("worldforge_demo_mode", "local")
    assert load_settings().demo_mode == "local"
    assert old_names_line() is None


def test_old_names_are_aliases_with_one_warning_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LOCAL_AGENT_MODEL", "qwen2.5")
    monkeypatch.setenv("NPC_FAST_MODEL", "nano")
    assert load_settings().local_agent_model == "qwen2.5"
    args = ["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path), "--json"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["run_id"]
    assert err.splitlines() == [
        (
            "worldforge: warning: old setting names read as aliases: LOCAL_AGENT_MODEL → "
            "WORLDFORGE_LOCAL_AGENT_MODEL, NPC_FAST_MODEL → WORLDFORGE_NPC_MODEL (rename them "
            "to silence this)"
        )
    ]
    monkeypatch.delenv("LOCAL_AGENT_MODEL")
    monkeypatch.delenv("NPC_FAST_MODEL")
    monkeypatch.setenv("WORLDFORGE_LOCAL_AGENT_MODEL", "qwen2.5")
    assert main(args) == 0
    assert capsys.readouterr().err == ""


@pytest.fixture
def in_project(tmp_path, monkeypatch):
    """A working directory whose ./.env is read (the suite ignores a developer's own)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(config, "DOTENV_NAME", ".env")
    return tmp_path


def test_dotenv_sits_between_the_settings_file_and_the_environment(in_project, monkeypatch):
    save_choices({"local_agent_model": "from-file", "agent_request_timeout": 9})
    (in_project / ".env").write_text(
        "# local set-up\n"
        "export WORLDFORGE_DEMO_MODE=local\n"
        "WORLDFORGE_LOCAL_AGENT_MODEL='from-dotenv'\n"
        'WORLDFORGE_LOCAL_AGENT_BASE_URL="http://127.0.0.1:9/v1"\n'
        "WORLDFORGE_LOCAL_AGENT_API_KEY=sk-dotenv-key-0123456789\n"
        "UNRELATED=1\n",
        encoding="utf-8",
    )
    s = load_settings()
    assert (s.demo_mode, s.local_agent_model, s.agent_request_timeout) == (
        "local",
        "from-dotenv",
        9,
    )
    assert s.local_agent_api_key.get_secret_value() == "sk-dotenv-key-0123456789"
    monkeypatch.setenv("WORLDFORGE_LOCAL_AGENT_MODEL", "from-env")
    assert load_settings().local_agent_model == "from-env"
    save_choices({"tui_theme": "nord"})  # the .env's values never reach the settings file
    saved = json.loads(config.settings_path().read_text())
    assert saved == {
        "AGENT_REQUEST_TIMEOUT": 9.0,
        "LOCAL_AGENT_MODEL": "from-file",
        "TUI_THEME": "nord",
    }


def test_a_bad_dotenv_value_names_the_file(in_project, capsys):
    (in_project / ".env").write_text("WORLDFORGE_DEMO_MODE=true\n", encoding="utf-8")
    assert main(["routing", "status", "--no-probe"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"worldforge: error: WORLDFORGE_DEMO_MODE='true' in {in_project / '.env'}: "
        "must be 'simulation', 'local' or 'live'"
    )


def test_env_flag_reads_that_file_instead(in_project, tmp_path, capsys):
    (in_project / ".env").write_text("WORLDFORGE_DEMO_MODE=true\n", encoding="utf-8")  # skipped
    other = tmp_path / "team.env"
    other.write_text("WORLDFORGE_AGENT_ROUTING=local_only\n", encoding="utf-8")
    assert main(["--env", str(other), "routing", "status", "--no-probe", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["routing"] == "local_only" and data["demo_mode"] == "simulation"
    assert main(["--env", str(tmp_path / "missing.env"), "routing", "status"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "missing.env" in line and "no such file" in line


def test_copy_env_block_uses_the_prefixed_names():
    block = env_block(config.Settings(demo_mode="local", local_agent_model="m"))
    assert "WORLDFORGE_DEMO_MODE=local\n" in block and "WORLDFORGE_LOCAL_AGENT_MODEL=m\n" in block


def test_a_dotenv_value_reads_as_python_dotenv_reads_it(in_project):
    """Quotes, a trailing comment after them, escapes in double quotes, `export`."""
    (in_project / ".env").write_text(
        'WORLDFORGE_AGENT_REQUEST_TIMEOUT="45" # seconds\n'
        "export WORLDFORGE_LOCAL_AGENT_MODEL='qwen2.5' # the small one\n"
        "WORLDFORGE_AGENT_MAX_RETRIES=2 # at most\n"
        "WORLDFORGE_DEMO_MODE\n",  # a name without a value: not set
        encoding="utf-8",
    )
    s = load_settings()
    assert (s.agent_request_timeout, s.local_agent_model, s.agent_max_retries) == (45, "qwen2.5", 2)
    assert s.demo_mode == "simulation"


@pytest.mark.parametrize("name", ["DEMO_MODE", "AGENT_REQUEST_TIMEOUT", "LOCAL_AGENT_BASE_URL"])
def test_an_old_name_with_a_value_not_ours_is_ignored_with_a_warning(
    name, monkeypatch, capsys, tmp_path
):
    """Another tool's DEMO_MODE=true (or TIMEOUT=slow, a URL that is not one) never stops a
    command: the old name is read only when its value is valid, else one warning line says so."""
    monkeypatch.setenv(name, {"DEMO_MODE": "true"}.get(name, "not-a-number-or-url"))
    monkeypatch.setenv("LOCAL_AGENT_MODEL", "qwen2.5")  # a valid old name: still read
    assert load_settings().local_agent_model == "qwen2.5"
    args = ["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path), "--json"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["run_id"]
    (line,) = err.splitlines()
    assert line.startswith("worldforge: warning: old setting names read as aliases: LOCAL_AGENT")
    assert f"ignored, not WorldForge values: {name} (must be" in line
    assert main(["routing", "status", "--no-probe"]) == 0


OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # a clipboard write
CONTROLS = [OSC52, "\x1b[2J", "a\rb", "a\nb", "\x00", "\x9b31m", "\u202e", "\x7f"]
TEXT_VALUES = {
    "choice": "local",
    "text": "qwen2.5",
    "url": "http://127.0.0.1:9/v1",
    "secret": "sk-test-0123456789",
}


def _fields_with_text():
    for f in dataclasses.fields(config.Settings):
        kind = f.metadata["kind"]
        if kind in TEXT_VALUES and f.name != "tui_theme":
            yield f.name, TEXT_VALUES[kind]


@pytest.mark.parametrize("control", CONTROLS)
def test_a_control_character_is_refused_in_every_value_from_every_source(
    control, in_project, monkeypatch
):
    """Every text setting, given a control character in the environment, a .env, the settings
    file or the settings screen (`from_values`), is refused in one line that holds none."""
    from engine.config import BadSetting, SettingsError

    names = list(_fields_with_text())
    assert len(names) > 30
    for name, good in names:
        bad = good[:3] + control + good[3:]
        with pytest.raises(BadSetting) as refused:
            config.Settings.from_values({name: bad})
        assert not config._CONTROL.search(str(refused.value))
        for source in ("env", "dotenv", "file"):
            env = config.env_name(name)
            if source == "env":
                if "\x00" in bad:
                    continue  # no environment can hold a NUL
                monkeypatch.setenv(env, bad)
            elif source == "dotenv":
                quoted = bad.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                (in_project / ".env").write_text(f'{env}="{quoted}"\n', encoding="utf-8")
            else:
                if name in config.SECRET_FIELDS:
                    continue  # never read from the file
                path = config.settings_path()
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps({name.upper(): bad}), encoding="utf-8")
            with pytest.raises(SettingsError) as line:
                load_settings()
            text = str(line.value)
            assert "control characters" in text and not config._CONTROL.search(text), text
            monkeypatch.delenv(env, raising=False)
            (in_project / ".env").unlink(missing_ok=True)
            config.settings_path().unlink(missing_ok=True)


def test_an_osc52_model_name_stops_at_the_cli_in_one_clean_line(in_project, capsys):
    (in_project / ".env").write_text(
        f"WORLDFORGE_LOCAL_AGENT_MODEL=tiny{OSC52}\n", encoding="utf-8"
    )
    assert main(["routing", "status", "--no-probe"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "WORLDFORGE_LOCAL_AGENT_MODEL" in line and "control characters" in line
    assert "\x1b" not in line and "\x07" not in line


def test_an_azure_tier_without_the_azure_extra_gets_one_hint(monkeypatch, capsys):
    """azure-identity is the `azure` extra: an Azure tier that signs in with Entra ID (no key)
    chosen without it says so in one line, and runs on (its calls fall back)."""
    import sys

    monkeypatch.setenv("WORLDFORGE_DEMO_MODE", "live")
    monkeypatch.setenv("WORLDFORGE_FOUNDRY_BASE_URL", "http://127.0.0.1:9/openai/v1")
    monkeypatch.setenv("WORLDFORGE_FOUNDRY_FALLBACK_MODEL", "gpt-4o-mini")
    assert main(["routing", "status", "--no-probe"]) == 0
    assert "azure" not in capsys.readouterr().err  # installed (the test group has it): no hint
    monkeypatch.setitem(sys.modules, "azure.identity", None)  # as if the extra were missing
    assert main(["routing", "status", "--no-probe"]) == 0
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        "worldforge: warning: Azure sign-in needs the azure extra: pip install "
        "'worldforge-tui[azure]' (or give WORLDFORGE_FOUNDRY_API_KEY)"
    )
    monkeypatch.setenv("WORLDFORGE_FOUNDRY_API_KEY", "sk-foundry-0123456789")
    assert main(["routing", "status", "--no-probe"]) == 0
    assert capsys.readouterr().err == ""  # a key needs no sign-in
