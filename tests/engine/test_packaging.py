"""Packaging tells the truth: py.typed in every package it claims is typed, classifiers for the
Pythons it supports, no invented project URLs, dev tools only in PEP 735 groups, every runtime
dependency bounded at both ends, one HTTP stack, and a README that renders on PyPI (no image
from a relative path, and the log file it names is the one the game writes)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from engine.logs import LOG_FILENAME

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGES = (
    "engine",
    "memory",
    "knowledge",
    "worldforge_textkit",
    "worldforge_azurehttp",
    "worldforge_tui",
)


def test_every_package_ships_py_typed():
    project = PROJECT["project"]
    assert "Typing :: Typed" in project["classifiers"]
    assert all((ROOT / name / "py.typed").is_file() for name in PACKAGES)
    data = PROJECT["tool"]["setuptools"]["package-data"]
    assert all("py.typed" in data.get(name, data.get("*", [])) for name in PACKAGES)


def test_classifiers_name_each_supported_python_and_no_urls_are_invented():
    project = PROJECT["project"]
    assert project["requires-python"] == ">=3.11"
    versions = {c.rsplit(" ", 1)[-1] for c in project["classifiers"] if re.search(r"3\.\d+$", c)}
    assert versions == {"3.11", "3.12", "3.13"}
    assert "urls" not in project  # no repository or homepage exists to name


def test_dev_tools_are_dependency_groups_not_a_public_extra():
    extras = PROJECT["project"]["optional-dependencies"]
    assert set(extras) == {"azure", "cosmos", "serve", "otlp"}  # features, not dev tools
    groups = PROJECT["dependency-groups"]
    assert {"include-group": "test"} in groups["dev"] and {"include-group": "lint"} in groups["dev"]
    assert any(r.startswith("pytest>=") for r in groups["test"])
    assert "--group dev" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_runtime_dependencies_are_bounded_at_both_ends_on_one_http_stack():
    for requirement in PROJECT["project"]["dependencies"]:
        name = re.split(r"[<>=!~ ]", requirement, maxsplit=1)[0]
        assert "==" in requirement or (">=" in requirement and "<" in requirement), requirement
        assert name != "httpx", "openai 3.x speaks httpx2: a second HTTP stack is not needed"


def test_readme_renders_on_pypi_and_names_the_real_log_file():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)", readme) + re.findall(
        r"<img[^>]+src=\"([^\"]+)\"", readme
    ):
        assert target.startswith("https://"), f"{target}: a relative image breaks on PyPI"
    assert f"`{LOG_FILENAME}`" in readme and "tui.log" not in readme


def test_the_game_runs_beside_pypi_packages_named_like_its_old_folders(tmp_path):
    """PyPI has packages called textkit, savedb and azurehttp: installed beside the game (here:
    first on the path, each refusing to import) they shadow nothing of ours, because ours live
    under the worldforge_ prefix; `--version` and a headless venture still run."""
    import subprocess
    import sys

    shadow = tmp_path / "site"
    for name in ("textkit", "savedb", "azurehttp"):
        (shadow / name).mkdir(parents=True)
        (shadow / name / "__init__.py").write_text(f"raise ImportError('PyPI {name}, not ours')\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(shadow)}
    game = [
        sys.executable,
        "-c",
        "import sys; from worldforge_tui.cli import main; sys.exit(main())",
    ]
    version = subprocess.run(
        [*game, "--version"], check=False, env=env, capture_output=True, text=True
    )
    assert version.returncode == 0, version.stderr
    assert "worldforge" in version.stdout.lower()
    played = subprocess.run(
        [
            *game,
            "simulate",
            "--pitch",
            "Bike repair for couriers",
            "--save-dir",
            str(tmp_path / "s"),
        ],
        env={**env, "WORLDFORGE_DEMO_MODE": "simulation"},
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr[-400:]
