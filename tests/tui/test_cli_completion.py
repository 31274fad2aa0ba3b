"""`worldforge completion SHELL` prints a script that completes the CLI's own commands."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from worldforge_tui.cli import main


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_a_script_naming_every_command(shell, capsys):
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    for command in ("play", "simulate", "balance", "replay", "runs", "memory", "completion"):
        assert command in script, (shell, command)


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completes_a_command_and_an_option(tmp_path):
    script = tmp_path / "worldforge.bash"
    script.write_text(
        subprocess.run(
            [sys.executable, "-m", "worldforge_tui", "completion", "bash"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
    )
    probe = (
        f"source {script}\n"
        "COMP_WORDS=(worldforge sim); COMP_CWORD=1; COMP_LINE='worldforge sim'; COMP_POINT=14\n"
        '_shtab_worldforge; echo "${COMPREPLY[@]}"\n'
        "COMP_WORDS=(worldforge simulate --arch); COMP_CWORD=2\n"
        "COMP_LINE='worldforge simulate --arch'; COMP_POINT=26\n"
        '_shtab_worldforge; echo "${COMPREPLY[@]}"\n'
    )
    out = subprocess.run(
        ["bash", "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    assert out[0].split() == ["simulate"]
    assert out[1].split() == ["--archetype"]


def test_python_dash_m_runs_the_cli():
    out = subprocess.run(
        [sys.executable, "-m", "worldforge_tui", "--version"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and out.stdout.startswith("worldforge ")
