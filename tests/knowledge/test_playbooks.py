"""The shipped playbooks: enough of them, sized and shaped for section retrieval, packaged."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

REQUIRED_TOPICS = {
    "discovery.md",
    "positioning.md",
    "mvp.md",
    "go-to-market.md",
    "finance.md",
    "operations-retention.md",
    "org-design.md",
    "governance.md",
}
BANNED_VOCABULARY = ("villain", "hero's journey", "quest", "episode", "protagonist", "cliffhanger")


def _playbooks() -> dict[str, str]:
    root = resources.files("knowledge") / "playbooks"
    return {p.name: p.read_text(encoding="utf-8") for p in root.iterdir() if p.name.endswith(".md")}


def test_every_required_topic_ships_as_a_playbook():
    books = _playbooks()
    assert set(books) >= REQUIRED_TOPICS
    assert len(books) >= 8


def test_each_playbook_is_2_to_5_kb_with_a_title_and_sections():
    for name, text in _playbooks().items():
        size = len(text.encode("utf-8"))
        assert 2000 <= size <= 5000, (name, size)
        lines = text.splitlines()
        assert lines[0].startswith("# "), name
        assert sum(line.startswith("## ") for line in lines) >= 4, name


def test_playbooks_avoid_story_vocabulary():
    for name, text in _playbooks().items():
        for word in BANNED_VOCABULARY:
            assert not re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE), (name, word)


def test_pyproject_ships_playbooks_as_package_data():
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    assert "playbooks/*.md" in data["tool"]["setuptools"]["package-data"]["knowledge"]
