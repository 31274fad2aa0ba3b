"""One simulated venture in a fresh process imports no pydantic: every record on the headless path
(settings, directions, readings, events, saves, artifacts, router, memory, knowledge) is a plain
dataclass, and a model's answer is validated by pydantic classes built only when a model answers.
pydantic's import and class building were ~0.2 s of each `worldforge simulate`. Nor does it load
what only another path needs: importlib.metadata, importlib.resources (zipfile), the email package
(an HTTP date in a model tier's retry-after), the OpenAI SDK, Rich or Textual, nor what only a model
call or a run's deletion uses (concurrent.futures: a thread's future; glob: a report's name; the
checkpoint a cancellable model call takes), nor
the reader of a player's words nor the picker of an own answer (a scripted venture's plan gives
none: only the currency of its pitch is read, with the reader's vocabulary and figures)."""

from __future__ import annotations

import json
import subprocess
import sys

PITCH = "A solar microgrid cooperative for rural farmers"
NOT_ON_THE_PATH = (
    "importlib.metadata",
    "importlib.resources",
    "zipfile",
    "email",
    "openai",
    "rich",
    "textual",
    "concurrent.futures",
    "glob",
    "engine.session.checkpoint",
    "engine.language.reader.read",
    "engine.language.reader.clause",
    "engine.language.steering",
    "engine.language.reader.pick",
    "engine.language.reader.reads",
)


def test_a_simulated_venture_imports_no_pydantic_nor_what_other_paths_need(tmp_path):
    code = (
        "import json, sys; from worldforge_tui.cli import main; "
        f"rc = main(['simulate', '--pitch', {PITCH!r}, '--json', '--save-dir', {str(tmp_path)!r}]); "
        "assert rc == 0, rc\n"
        "built = set()\n"
        "if 'pydantic' in sys.modules:\n"
        "    from pydantic import BaseModel\n"
        "    todo = list(BaseModel.__subclasses__())\n"
        "    while todo:\n"
        "        c = todo.pop(); built.add(c.__module__); todo.extend(c.__subclasses__())\n"
        f"loaded = sorted(m for m in {NOT_ON_THE_PATH!r} if m in sys.modules)\n"
        "print(json.dumps({'pydantic': 'pydantic' in sys.modules, 'built': sorted(built), "
        "'loaded': loaded}), file=sys.stderr)"
    )
    seen = _last_line(code)
    assert seen == {"pydantic": False, "built": [], "loaded": []}, seen


def test_no_collection_runs_while_simulate_loads_the_engine(tmp_path):
    """What `simulate` imports lives to the end of the process: a cyclic collection while it loads
    walks all of it and frees nothing (19M instructions of each run), so none runs then."""
    code = (
        "import gc, json, sys; from worldforge_tui.cli import main\n"
        "during = []\n"
        "def seen(phase, info):\n"
        "    loading = 'engine.play.headless' in sys.modules and 'engine.views.served' not in sys.modules\n"
        "    if phase == 'start' and loading: during.append(info['generation'])\n"
        "gc.callbacks.append(seen)\n"
        f"rc = main(['simulate', '--pitch', {PITCH!r}, '--json', '--save-dir', {str(tmp_path)!r}])\n"
        "assert rc == 0, rc\n"
        "print(json.dumps({'during': during, 'enabled': gc.isenabled()}), file=sys.stderr)"
    )
    seen = _last_line(code)
    assert seen == {"during": [], "enabled": True}, seen


def _last_line(code: str) -> object:
    """Run `code` in a child Python and read the JSON its last line of stderr says."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stderr[-800:]
    return json.loads(done.stderr.strip().splitlines()[-1])
