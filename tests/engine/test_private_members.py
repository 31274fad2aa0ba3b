"""No module of the engine or memory reaches into another's private members: a `_name` is imported only
where it is defined, and `x._name` is read or set only in the module that defines `_name` (as a
function, a class member or an attribute it sets). Balance once saved and restored the session's
`_next_id` from outside; the session now offers `mark()`. The Cosmos store's lifecycle and recall
steps once called eight of its private members; they now use the run's partition
(`memory.cosmos.partition`) through its public methods."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "memory")
PUBLIC_ANYWAY = {"_replace", "_asdict", "_fields", "_make"}  # a named tuple's public API
# logs.py marks an exception it has logged with a name of its own (set and read only there)
OWN_MARKS = {"logs.py": {"_worldforge_logged"}}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_ANYWAY


def _defined(tree: ast.Module) -> set[str]:
    """The private names this module defines: functions, classes, assigned names and attributes."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                out.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return {n for n in out if _private(n)}


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")


def reaches(path: Path, marks: set[str] | frozenset[str] = frozenset()) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _defined(tree) | marks
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"imports {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            found += [] if _on_self(node) else [f"line {node.lineno}: .{node.attr}"]
    return found


def test_no_engine_or_memory_module_uses_another_modules_private_members():
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = str(path.relative_to(ROOT / package))
            if hits := reaches(path, OWN_MARKS.get(name, set()) if package == "engine" else set()):
                found[f"{package}/{name}"] = hits
    assert found == {}


def test_the_check_sees_a_reach_into_the_session(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def keep(session):\n    return session._next_id\n", encoding="utf-8")
    assert reaches(bad) == ["line 2: ._next_id"]
