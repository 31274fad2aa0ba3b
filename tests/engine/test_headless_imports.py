"""What one simulated venture builds of pydantic, in a fresh process: the records that still are
pydantic classes on the headless path, named, so none is added unseen (the artifact contracts,
the router's records, memory's and knowledge's are plain; pydantic's ~0.2 s import goes once the
list below is empty)."""

from __future__ import annotations

import subprocess
import sys

# Modules on the simulate path whose records are still pydantic classes (shrink it, never grow it).
STILL_PYDANTIC = {
    "engine.config",
    "engine.game.directions",
    "engine.language.pitch",
    "engine.language.reading",
    "engine.session.events",
    "engine.session.savefile",
    "engine.session.saves",
}
PITCH = "A solar microgrid cooperative for rural farmers"


def test_a_simulated_venture_builds_pydantic_classes_only_where_listed(tmp_path):
    code = (
        "import sys; from worldforge_tui.cli import main; "
        f"rc = main(['simulate', '--pitch', {PITCH!r}, '--json', '--save-dir', {str(tmp_path)!r}]); "
        "assert rc == 0, rc\n"
        "built = set()\n"
        "if 'pydantic' in sys.modules:\n"
        "    from pydantic import BaseModel\n"
        "    todo = list(BaseModel.__subclasses__())\n"
        "    while todo:\n"
        "        c = todo.pop(); built.add(c.__module__); todo.extend(c.__subclasses__())\n"
        "print(sorted(built), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stderr[-800:]
    built = set(eval(done.stderr.strip().splitlines()[-1]))
    assert built <= STILL_PYDANTIC, sorted(built - STILL_PYDANTIC)
