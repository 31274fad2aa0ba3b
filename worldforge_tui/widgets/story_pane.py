"""The Story pane: the venture, the stage chain, the shipped artifact with its score, rubric and DRIFT
flag, the fork's options, the standup, and the ending. Every model/player string is shown literally."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget

from engine.views.render import render_artifact
from worldforge_tui.safe_text import clean, one_line
from worldforge_tui.widgets.content_pane import ContentPane

if TYPE_CHECKING:
    from engine.game.models import Dilemma, Rubric, Stage, StageRun, StandupTurn
    from engine.views.snapshot import Snapshot

Part = str | tuple[str, str]
STATUS_MARK = {
    "decided": ("✓", "$success"),
    "approved": ("◐", "$secondary"),
    "active": ("●", "$accent bold"),
    "pending": ("○", "$foreground-muted"),
}
PHASE_LABEL = {
    "brief": "worker at work",
    "gate": "gate: approve or reject",
    "fork": "fork: choose",
    "ended": "ended",
}
RUBRIC_ORDER = ("relevance", "completeness", "actionability", "clarity", "compliance")


def artifact_parts(artifact: Any, indent: str = "  ") -> list[Part]:
    """Readable lines for any artifact (engine.views.render: labels, bullets, formatted numbers)."""
    if not isinstance(artifact, dict):
        return [indent, clean(artifact, 2000), "\n"]
    parts: list[Part] = []
    for block in render_artifact(artifact):
        parts.append((f"{indent}{one_line(block.label, 60)}: ", "$secondary bold"))
        if block.bullets:
            parts.append("\n")
            for line in block.lines:
                sub = line.startswith("  ")
                parts.append((f"{indent}{'    ◦ ' if sub else '  • '}", "$foreground-muted"))
                parts.append(one_line(line.strip(), 300) + "\n")
        else:
            parts.append(clean(" ".join(block.lines), 2000) + "\n")
    return parts


def _chain(stages: list[Stage], index: int) -> list[Part]:
    parts: list[Part] = []
    for i, stage in enumerate(stages):
        mark, style = STATUS_MARK.get(stage.status, ("○", "$foreground-muted"))
        if i == index and stage.status == "pending":
            mark, style = STATUS_MARK["active"]
        parts.append((f"{mark}{one_line(stage.beat, 12)}", style))
        if stage.drift:
            parts.append(("!", "$error bold"))
        parts.append(" ")
    return parts


def _rubric(rubric: Rubric) -> list[Part]:
    final = rubric.final
    drift = bool(rubric.drift)
    parts: list[Part] = [("Score ", "bold"), (f"{final}/100", "$accent bold")]
    checks = rubric.checks
    if checks:
        passed = sum(1 for ok in checks.values() if ok)
        parts.append((f"  checks passed {passed} of {len(checks)}", "$foreground-muted"))
    if drift:
        parts.append(("  ⚠ DRIFT ", "$error bold reverse"))
        parts.append((" did not follow the binding decision", "$error"))
    flaws = [f for f in rubric.flaws if f.get("kind") != "ignores_decision"]
    if flaws:
        parts.append(
            (f"  ⚠ {len(flaws)} FLAW{'S' if len(flaws) > 1 else ''} ", "$warning bold reverse")
        )
    parts.append("\n")
    dims = rubric.dimensions
    row = [f"{name} {dims[name]}" for name in RUBRIC_ORDER if name in dims]
    row += [f"{k} {v}" for k, v in dims.items() if k not in RUBRIC_ORDER]
    parts.append(("  " + " · ".join(one_line(x, 40) for x in row) + "\n", "$foreground-muted"))
    for note in rubric.notes[:4]:
        parts.append(("  – " + one_line(note, 200) + "\n", "$foreground-muted"))
    return parts


def _run(run: StageRun) -> list[Part]:
    role = one_line(run.role, 20)
    served = one_line(run.served_by, 20)
    model = one_line(run.model, 60)
    parts: list[Part] = [
        (one_line(run.worker_title, 60), "$secondary bold"),
        f" ({role}) shipped attempt {run.attempt} · served by ",
        (served if model in ("", served) else f"{served}: {model}", "$accent"),
        "\n",
    ]
    reason = run.fallback_reason
    if reason:
        parts.append(("  fallback: " + one_line(reason, 200) + "\n", "$warning"))
    parts.extend(_rubric(run.rubric))
    artifact = run.artifact
    follows = artifact.get("follows_decision")
    if isinstance(follows, dict):
        rule = str(follows.get("rule_id") or "")
        parts.append(("Follows", "bold"))
        if rule and rule != "none":
            parts.append((" " + one_line(rule, 60), "$accent"))
        parts.append(": " + one_line(follows.get("how"), 400) + "\n")
    changed = run.changes
    if changed:
        parts.append(("What changed since the last attempt\n", "bold underline"))
        for line in changed[:8]:
            parts.append(("  ↻ " + one_line(line, 300) + "\n", "$secondary"))
    parts.append(("Artifact\n", "bold underline"))
    parts.extend(artifact_parts(artifact))
    parts.extend(_proof_points(run))
    return parts


def _proof_points(run: StageRun) -> list[Part]:
    """What the worker was given and did: memory injected, tools called, knowledge hits."""
    injected = run.memory_injected
    hits = run.knowledge_hits
    tools = run.tools_called
    provisional = sum(1 for m in injected if m.get("status") == "provisional")
    parts: list[Part] = [
        ("Proof points\n", "bold underline"),
        (
            f"  memory injected {len(injected)}"
            + (f" ({provisional} provisional)" if provisional else "")
            + f" · knowledge hits {len(hits)} · tools {len(tools)}\n",
            "$foreground-muted",
        ),
    ]
    for tool in tools[:6]:
        parts.append(
            (
                (f"  ⚙ {one_line(tool.get('tool'), 30)}: {one_line(tool.get('result'), 160)}\n"),
                "$foreground-muted",
            )
        )
    for hit in hits[:3]:
        parts.append(
            (
                (f"  ✦ {one_line(hit.get('source'), 80)} ({one_line(hit.get('origin'), 20)})\n"),
                "$foreground-muted",
            )
        )
    return parts


def _dilemma(dilemma: Dilemma) -> list[Part]:
    parts: list[Part] = [
        ("\nFork: ", "bold"),
        (one_line(dilemma.title, 120), "$accent bold"),
        "\n",
        clean(dilemma.prompt, 1500),
        "\n",
    ]
    for i, option in enumerate(dilemma.options, start=1):
        parts.append((f" [{i}] ", "$accent bold reverse"))
        parts.append((" " + one_line(option.text, 300), "bold"))
        parts.append((f"  ({one_line(option.rule_id, 40)})\n", "$foreground-muted"))
        tradeoff = option.tradeoff
        if tradeoff:
            parts.append("     " + one_line(tradeoff, 300) + "\n")
        effect = option.effect_line
        if effect:
            parts.append(("     → " + one_line(effect, 300) + "\n", "$secondary"))
        hint = option.hint
        if hint:
            parts.append(("       size: " + one_line(hint, 200) + "\n", "$foreground-muted"))
        if option.archetype:
            only = one_line(option.archetype, 20)
            parts.append((f"       only a {only} founder gets this option\n", "$warning"))
    parts.append((" [o] ", "$accent bold reverse"))
    parts.append(" your own answer (read as you mean it; you confirm the reading first)\n")
    return parts


def _world_event(snap: Snapshot) -> list[Part]:
    """The event between stages: waiting for a small choice, or the latest one and its effect."""
    pending = snap.pending_event
    if pending is not None:
        parts: list[Part] = [
            ("\nEvent: ", "$warning bold"),
            (one_line(pending.title, 120), "bold"),
            " — ",
            one_line(pending.text, 300),
            "\n",
        ]
        for i, option in enumerate(pending.options, start=1):
            parts.append((f" [{i}] ", "$accent bold reverse"))
            parts.append(" " + one_line(option.text, 200))
            parts.append(("  → " + one_line(option.effect_line, 200) + "\n", "$secondary"))
        default = "1" if pending.default == "A" else "2"
        parts.append((f"  1 / 2 answer · g runs the stage with option {default}\n", "$accent"))
        return parts
    events = snap.world_events
    if not events:
        return []
    last = events[-1]
    return [
        ("\nEvent: ", "$warning bold"),
        (one_line(last.title, 120), "bold"),
        " — ",
        one_line(last.text, 300),
        ("  → " + one_line(last.effect_line, 200) + "\n", "$secondary"),
    ]


def _standup(turns: list[StandupTurn], open_for_reply: bool) -> list[Part]:
    parts: list[Part] = [("\nStandup\n", "bold underline")]
    for turn in turns:
        parts.append((f"  {one_line(turn.speaker, 40)}", "$secondary bold"))
        parts.append((f" ({one_line(turn.role, 20)}): ", "$foreground-muted"))
        parts.append(one_line(turn.line, 400))
        tool = turn.tool
        if tool:
            parts.append(
                (f"  [{one_line(tool, 30)}: {one_line(turn.tool_result, 80)}]", "$foreground-muted")
            )
        parts.append("\n")
    if open_for_reply:
        parts.append(("  t reply (becomes binding memory) · g run the next stage\n", "$accent"))
    return parts


def story_content(snap: Snapshot | None, narration: str | None = None) -> Content:
    """Everything the Story pane shows for a snapshot (or a hint when no venture is open);
    `narration` is the latest narrator or rival line from the event log."""
    if snap is None:
        return Content.assemble(
            ("No venture open.\n\n", "bold"),
            "n  start a new venture\nl  load a saved one\n?  how to play\n",
        )
    founder = snap.founder
    stages = snap.stages
    index = snap.stage_index
    phase = snap.phase
    parts: list[Part] = [
        (one_line(founder.company, 60), "$primary bold"),
        " — ",
        (one_line(founder.pitch, 300), "italic"),
        "\n",
    ]
    rival = snap.antagonist
    parts.append(
        (
            (f"Rival {one_line(rival.name, 60)} · threat arc {one_line(snap.threat_arc, 30)}\n"),
            "$foreground-muted",
        )
    )
    if narration:
        parts.append(("❝ " + one_line(narration, 300) + "\n", "italic $secondary"))
    parts.extend(_chain(stages, index))
    parts.append("\n")
    stage = stages[index] if 0 <= index < len(stages) else None
    if stage is not None and phase != "ended":
        parts.append(
            (
                (f"Day {snap.day} · Stage {stage.number}/{len(stages)} {one_line(stage.beat, 12)}"),
                "bold",
            )
        )
        parts.append(" — " + one_line(stage.title, 120))
        parts.append((f" · {PHASE_LABEL.get(phase, phase)}\n", "$accent"))
        parts.append(
            (
                (
                    f"{one_line(stage.worker_title, 60)} ({stage.owner_role})"
                    f" · redos {stage.redos}/{snap.max_redos}\n"
                ),
                "$foreground-muted",
            )
        )
        parts.append(("Goal: ", "bold"))
        parts.append(one_line(stage.goal, 500) + "\n")
    directive = snap.directive
    if directive is not None and phase != "ended":
        rule = directive.rule_id or directive.source
        parts.append(("Binding: ", "$warning bold"))
        parts.append(one_line(directive.text, 300))
        parts.append((f" ({one_line(rule, 40)})\n", "$foreground-muted"))
    dilemma = snap.dilemma
    if dilemma is not None and phase == "fork":  # the choice first; the shipped work below it
        parts.extend(_dilemma(dilemma))
    current = snap.current
    if current is not None and phase in ("gate", "fork"):
        parts.append("\n")
        parts.extend(_run(current))
    if phase == "brief":
        parts.extend(_world_event(snap))
    standup = snap.standup
    if standup:
        parts.extend(_standup(standup, snap.standup_open))
    outcome = snap.outcome
    if outcome is not None:
        result = outcome.result.upper()
        style = "$success bold reverse" if result == "VICTORY" else "$error bold reverse"
        parts.extend(
            [
                "\n",
                (f" {result} ", style),
                " " + one_line(outcome.reason, 300),
                f" (day {outcome.day})\n",
            ]
        )
        if outcome.grade:
            parts.append(
                (
                    (
                        f" Score {outcome.score}/100 ({outcome.grade}) · "
                        f"{one_line(outcome.title, 60)}\n"
                    ),
                    "bold",
                )
            )
    return Content.assemble(*parts)


class LiveSection(Widget):
    """The call being written, under the story. It asks its source for the text only when the
    screen paints, so however many pieces stream in between two frames, they cost one render."""

    DEFAULT_CSS = "LiveSection { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._source: Callable[[], Content] | None = None
        self._drawn = Content("")
        self._stale = False

    def follow(self, source: Callable[[], Content]) -> None:
        """New text is waiting: draw it from `source` at the next frame."""
        self._source = source
        self._stale = True
        self.refresh(layout=True)

    def stop(self) -> None:
        self._source = None
        self._drawn = Content("")
        self._stale = False
        self.refresh(layout=True)

    def render(self) -> Content:
        if self._stale and self._source is not None:
            self._stale = False
            self._drawn = self._source()
        return self._drawn


class StoryPane(ContentPane):
    """Scrollable story; `show(snapshot)` re-renders it, `show_live(source)` follows a call."""

    BODY_ID = "story-body"

    def initial_content(self) -> Content:
        return story_content(None)

    def compose(self) -> ComposeResult:
        yield from super().compose()
        live = LiveSection(id="story-live", classes="pane-body")
        live.display = False
        yield live

    def show(self, snap: Snapshot | None, narration: str | None = None) -> None:
        live = self.query_one(LiveSection)
        if live.display:
            live.stop()
            live.display = False
            self.anchor(False)
        if self.render_body(story_content(snap, narration)):
            self.scroll_home(animate=False)

    def show_live(self, source: Callable[[], Content]) -> None:
        """A call's text being written, under the story (only this part re-renders). The pane
        follows it to the end, in the same frame, until the player scrolls away."""
        live = self.query_one(LiveSection)
        if not live.display:
            live.display = True
            self.anchor()
        live.follow(source)
