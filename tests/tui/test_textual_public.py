"""The front end reaches Textual through its public API: no module of `worldforge_tui` reads or
calls a `_name` it does not define itself (the board's breakpoint class and the memory list's
re-wrap once called Textual's private `_get_breakpoint_classes` and `_clear_caches`), and the
theme is set the public way (`App.theme`), not by writing the reactive's state past its watcher."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.engine.test_private_members import _defined, _private

TUI = Path(__file__).resolve().parents[2] / "worldforge_tui"
# argparse's documented return type of add_subparsers (the standard library spells it so)
STANDARD = {"_SubParsersAction"}


def borrowed(path: Path) -> list[str]:
    """Each `x._name` (`self._name` included: a Textual subclass inherits Textual's privates) whose
    name this module does not define."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _defined(tree) | STANDARD
    return [
        f"line {node.lineno}: .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own
    ]


def test_no_front_end_module_uses_a_private_member_it_does_not_define():
    found = {}
    for path in TUI.rglob("*.py"):
        if hits := borrowed(path):
            found[str(path.relative_to(TUI))] = hits
    assert found == {}


def test_the_check_sees_a_textual_private_reached_through_self(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "class L:\n    def watch_x(self):\n        self._clear_caches()\n", encoding="utf-8"
    )
    assert borrowed(bad) == ["line 3: ._clear_caches"]


def test_the_theme_is_set_through_the_public_reactive():
    source = (TUI / "app.py").read_text(encoding="utf-8")
    assert "set_reactive(App.theme" not in source
    assert "self.theme = self.requested_theme or DEFAULT_THEME" in source
