"""How much product code says `Any`, counted as the issue counts it: the lines of the .py files
of `engine`, `memory` and the `worldforge_*` packages that hold the word `Any` (what
`grep -rw Any` lists), outside import statements. A line that says `JsonObject` counts too: it
is `dict[str, Any]` under a name (worldforge_textkit/json_types.py), so naming an `Any` never
lowers the count; only a real type does.

Run: `.venv/bin/python -m tests.code.any_count` (one JSON object: the total and the ten files that
say it most). `tests/code/test_any_budget.py` fails when the total is above the budget.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"\b(Any|JsonObject)\b")


def product_files(root: Path = ROOT) -> list[Path]:
    """The product's Python files: engine, memory and every worldforge_* package."""
    packages = [root / "engine", root / "memory", *sorted(root.glob("worldforge_*"))]
    return sorted(p for package in packages for p in package.rglob("*.py"))


def count(source: str) -> int:
    """Lines of the source that say `Any`, not counting the lines of its import statements."""
    imports: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            end = node.end_lineno or node.lineno
            imports.update(range(node.lineno, end + 1))
    return sum(
        1
        for number, line in enumerate(source.splitlines(), start=1)
        if number not in imports and WORD.search(line)
    )


def counts(root: Path = ROOT) -> Counter[str]:
    return Counter(
        {
            str(path.relative_to(root)): n
            for path in product_files(root)
            if (n := count(path.read_text(encoding="utf-8")))
        }
    )


def main() -> None:
    found = counts()
    print(json.dumps({"any_outside_imports": sum(found.values()), "most": found.most_common(10)}))


if __name__ == "__main__":
    main()
