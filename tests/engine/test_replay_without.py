"""`worldforge replay RUN --without NOTE_ID [--stage N] [--json]`: a stage re-derived in the
simulator with one note withheld, its difference printed; the run itself never changes."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sqlite3
import subprocess
import sys

import pytest

from worldforge_tui.cli import main

PITCH = "Mobile grooming for dogs, for solo groomers who work from a van"
REJECT = "Price it at 25 dollars a month per groomer."
REPLY = "Focus on solo groomers who work from a van; leave salons alone."


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One venture: a standup reply after stage 1, a price rejection at FIND (stage 6: its
    runway adds BRIDGE after SEARCH)."""
    save = tmp_path_factory.mktemp("without") / "saves"
    args = ["simulate", "--save-dir", str(save), "--pitch", PITCH, "--seed", "31", "--json"]
    with contextlib.redirect_stdout(io.StringIO()):
        rc = main([*args, "--reject", f"find:{REJECT}", "--reply", f"1:{REPLY}"])
    assert rc == 0
    con = sqlite3.connect(save / "worldforge.db")
    run_id = con.execute("SELECT run_id FROM runs").fetchone()[0]
    notes = dict(con.execute("SELECT text, id FROM memories WHERE kind = 'procedural'").fetchall())
    con.close()
    reject = next(i for t, i in notes.items() if REJECT in t)
    reply = next(i for t, i in notes.items() if REPLY in t)
    return save, run_id, reject, reply


def _replay(capsys, save, *args):
    rc = main(["replay", "--save-dir", str(save), *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def _fingerprint(save, run_id):
    db = save / "worldforge.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    rows = con.execute("SELECT * FROM events WHERE run_id = ?", (run_id,)).fetchall()
    state = con.execute("SELECT state, inputs FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    con.close()
    return hashlib.sha256(db.read_bytes()).hexdigest(), rows, state


def test_withholding_the_price_rejection_takes_its_price_out_of_the_brief_and_the_work(run, capsys):
    save, run_id, reject, _reply = run
    before = _fingerprint(save, run_id)
    rc, out, err = _replay(capsys, save, run_id, "--without", reject, "--json")
    assert rc == 0, err
    r = json.loads(out)
    assert r["stage"] == 6 and r["attempt"] == 2 and r["reached_brief"]  # the redo it bound
    assert any("price $25 a month" in x for x in r["brief_gone"])
    assert not any("$25" in x for x in r["without_note"]["binding"])
    plan = r["with_note"]["artifact"]["financial_plan"]
    assert plan["price_usd_per_month"] == 25
    assert r["without_note"]["artifact"]["financial_plan"]["price_usd_per_month"] != 25
    assert "The numbers" in {f["field"] for f in r["fields"]}
    assert r["with_note"]["score"] != r["without_note"]["score"] or r["fields"]
    assert _fingerprint(save, run_id) == before  # the save's bytes, events and state
    rc, out, _ = _replay(capsys, save, run_id, "--verify")
    assert rc == 0 and ": OK" in out


def test_the_text_report_names_what_goes_and_what_the_work_says_instead(run, capsys):
    save, run_id, _reject, reply = run
    rc, out, _ = _replay(capsys, save, run_id, "--without", reply)
    assert rc == 0
    assert "Stage 2 NEED" in out  # the first brief the reply reached
    assert "− speak to solo groomers who work from a van" in out
    assert "− leave out salons" in out
    assert "Score: " in out and "Gate: " in out
    assert "Who it is for:" in out
    assert "The run itself is unchanged" in out


def test_a_later_stage_can_be_named(run, capsys):
    save, run_id, _reject, reply = run
    rc, out, _ = _replay(capsys, save, run_id, "--without", reply, "--stage", "4", "--json")
    assert rc == 0
    r = json.loads(out)
    assert r["stage"] == 4 and r["attempt"] == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["run-0000000000000000", "--without", "mem-00001"], "no run"),
        (["{run}", "--without", "mem-99999"], "no note"),
        (["{run}", "--without", "\x1b[31m[bold]x[/]"], "no note"),
        (["{run}", "--without", "{reject}", "--stage", "10"], "no stage 10"),
        (["{run}", "--without", "{reject}", "--stage", "2"], "not live when stage 2 ran"),
        (["{run}", "--without", "{reject}", "--stage", "abc"], "invalid int"),
        (["{run}", "--stage", "2"], "--without"),
        (["{run}", "--without", "{reject}", "--verify"], "--verify"),
    ],
)
def test_bad_input_is_one_line_exit_2(run, capsys, args, says):
    save, run_id, reject, _reply = run
    args = [a.format(run=run_id, reject=reject) if a.startswith("{") else a for a in args]
    rc, _out, err = _replay(capsys, save, *args)
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("worldforge: error: ") and says in lines[0]
    assert "Traceback" not in err and "\x1b" not in err


def test_replay_without_loads_no_textual(run):
    save, run_id, reject, _reply = run
    code = (
        "import sys; from worldforge_tui.cli import main; "
        f"rc = main(['replay', '--save-dir', {str(save)!r}, {run_id!r}, '--without', {reject!r}]); "
        "assert rc == 0, rc; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'textual']"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120, capture_output=True)


def test_the_what_if_key_re_derives_every_stage_the_note_binds(run):
    """The memory pane's key (engine.session.without.without_each): one derivation per stage the
    note's directions bind, each the same as `--without NOTE --stage N`; it used to show only the
    first stage the note reached."""
    from engine.session.without import without, without_each
    from worldforge_savedb.db import connect

    save, run_id, _reject, reply = run
    conn = connect(save / "worldforge.db")
    try:
        each = without_each(conn, run_id, reply)
        stages = [r.stage for r in each.reports]
        assert each.bound and len(stages) >= 3 and stages == sorted(set(stages)), stages
        assert f"This note binds {len(stages)} stages: 2 NEED" in each.lines()[0]
        for r in each.reports:
            assert r.reached_brief and any("salons" in x for x in r.brief_gone), r.stage
            one = without(conn, run_id, reply, stage=r.stage)
            assert one.lines() == r.lines()
    finally:
        conn.close()


def test_a_seeded_mistake_stays_on_its_direction_when_another_note_is_withheld(tmp_path, capsys):
    """Seed 755: the stage's seeded DRIFT broke the withheld note's price. The counterfactual drew
    its mistake again among what was left and broke the audience ("Also for chains"), so the diff
    showed a field the note never shaped. Now the mistake stays on the direction the run broke
    (none, when that is the withheld note's): only the price and channel fields change."""
    save = tmp_path / "saves"
    args = ["simulate", "--save-dir", str(save), "--pitch", "Bookkeeping for hair salons"]
    plan = [
        "--reject",
        "1:Speak to independent hair salons, not chains; leave out franchises",
        "--own",
        "1:Go all in, full time, and launch by week 3",
        "--reply",
        "1:Price it at $25 a month and sell through partner referrals",
    ]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*args, "--seed", "755", "--json", *plan]) == 0
    con = sqlite3.connect(save / "worldforge.db")
    run_id = con.execute("SELECT run_id FROM runs").fetchone()[0]
    note = con.execute(
        "SELECT id FROM memories WHERE kind = 'procedural' AND text LIKE '%partner referrals%'"
    ).fetchone()[0]
    con.close()
    rc, out, err = _replay(capsys, save, run_id, "--without", note, "--json")
    assert rc == 0, err
    report = json.loads(out)
    assert report["stage_id"] == "stage_2_need"
    assert [f["field"] for f in report["fields"]] == ["The promise", "Goals for the first quarter"]
