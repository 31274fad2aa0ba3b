"""The report card: a Markdown export of decisions, receipts, final economics and the memory trail."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.game.economy import METER_NAMES, meter_shown
from engine.version import version
from engine.views.render import artifact_markdown, decision_words, economics_label, prose, shipped
from memory.models import kind_words
from worldforge_textkit.numbers import money
from worldforge_textkit.patterns import CONTROLS
from worldforge_textkit.scrub import scrub

if TYPE_CHECKING:
    from engine.views.read_model import ReadModel


def _md(text: str) -> str:
    """Neutralise Markdown/HTML control characters in untrusted text."""
    return "".join("\\" + c if c in "\\`*_[]<>#|" else c for c in text.replace("\n", " "))


def _num(field: str, v: float | bool | None) -> str:
    if field == "runway_months" and v is None:
        return "none needed (profitable)"
    if isinstance(v, bool):
        return "yes" if v else "no"
    assert v is not None
    if field in METER_NAMES:  # as the board shows it: never rounded across a defeat line
        return str(meter_shown(field, v))
    return money(v) if field.endswith("_usd") else f"{v:g}"


def _served(view: ReadModel) -> str:
    """What served the run's worker calls (stages and standups, from its event log), not the
    settings' label: a local run that fell back says so."""
    from engine.routing.types import served_line

    pairs = [
        (str(e.payload.get("served_by")), str(e.payload.get("model") or ""))
        for e in view.events()
        if e.type in ("STAGE_EXECUTED", "AGENT_STANDUP") and e.payload.get("served_by")
    ]
    return served_line(pairs)


def render_report(view: ReadModel) -> str:
    st = view.state
    f = st.founder
    out = [
        f"# {_md(f.company)}: report card",
        "",
        f"- Pitch: {_md(f.pitch)}",
        f"- Founder archetype: {f.archetype}; seed {st.seed}; run `{st.run_id}`",
        f"- Rival: {_md(st.antagonist.name)}",
        f"- Day {st.day}; runtime {_md(_served(view))}",
        f"- Written by WorldForge {version()}",
    ]
    if st.outcome:
        out.append(f"- **Outcome: {st.outcome.result}** — {_md(st.outcome.reason)}")
        out.append(
            f"- **Score: {st.outcome.score}/100 ({st.outcome.grade})** — ending: "
            f"{_md(st.outcome.title)}"
        )
    out += [
        "",
        "## Stages",
        "",
        "| # | beat | worker | score | drift | redos | decision |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in st.stages:
        dec = _md(prose(s.decision.text)) if s.decision else ""
        out.append(
            f"| {s.number} | {s.beat} | {_md(s.worker_title)} | {s.score if s.score is not None else ''} "
            f"| {'DRIFT' if s.drift else ''} | {s.redos} | {dec} |"
        )
    out += ["", "## Shipped work", ""]
    for sid, p in shipped(view.events()).items():
        stage = next((s for s in st.stages if s.id == sid), None)
        out.append(
            f"### {stage.beat if stage else _md(sid)}: "
            f"shipped by {_md(stage.worker_title) if stage else 'a worker'}, score {p.get('score')}"
        )
        rubric = p.get("rubric") or {}
        found = rubric.get("flaws") if isinstance(rubric, dict) else None
        flaws = [f.get("note", "") for f in found or []]
        out += [f"- **Flaw:** {_md(n)}" for n in flaws]
        out += [
            _md(line)
            if not line.lstrip().startswith("- ")
            else line[: len(line) - len(line.lstrip())] + "- " + _md(line.lstrip()[2:])
            for line in artifact_markdown(p.get("artifact") or {})
        ]
        out.append("")
    out += ["", "## Decisions and receipts", ""]
    beats = {s.id: s.beat for s in st.stages}
    for r in st.receipts:
        out.append(f"### {beats.get(r.stage_id, 'A stage')}: {_md(prose(r.decided))}")
        out.append(f"We {_md(decision_words(r.rule_id, r.decided))}. {_md(prose(r.summary))}")
        out.append(f"Principle: {_md(prose(r.principle))}.")
        out.append("")
        out.append("| field | before | after |")
        out.append("|---|---|---|")
        for k, v in r.before.shown().items():
            a = r.after.shown()[k]
            if a != v:
                out.append(f"| {economics_label(k)} | {_num(k, v)} | {_num(k, a)} |")
        added, gone = r.org_delta.added_role_title, r.org_delta.removed_role_title
        if added:
            out.append(f"\nOrg: +{_md(added)}" + (f", −{_md(gone)}" if gone else ""))
        out.append("")
    out += ["## Final economics", ""]
    out += [f"- {economics_label(k)}: {_num(k, v)}" for k, v in st.economics.shown().items()]
    out += ["", "## Memory trail", ""]
    for m in view.memory:
        kind = kind_words(m.kind)
        out.append(f"- day {m.game_day} · {kind} · {m.status} · {m.origin}: {_md(prose(m.text))}")
    return scrub("\n".join(out)) + "\n"


def write_report(view: ReadModel, save_dir: Path, path: str | Path | None = None) -> Path:
    """Write the report atomically: to a new temporary file beside the target (created, never
    opened through an existing name or symlink), then renamed over it. The default place, the save
    dir's reports/, is refused when a symlink leads it out of the save dir (issue 26)."""
    import os
    import tempfile

    from engine.errors import SaveError
    from worldforge_savedb.db import inside

    target = (
        Path(path) if path else save_dir / "reports" / f"{view.state.run_id}-day{view.state.day}.md"
    )
    if not path and not inside(save_dir, target):
        raise SaveError(
            f"{target.parent} leads outside the save dir {save_dir} (a symlink): "
            "no report was written there; export with an explicit path instead"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    # Text a model or player wrote reaches the file without controls (ESC, C1, NUL, bidi overrides):
    # a report opened with `cat` must not drive the terminal.
    text = CONTROLS.sub("", render_report(view))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)  # a rename replaces a symlink at the target, never follows it
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
