"""The Story pane: the venture, the stage chain, the shipped artifact with its score, rubric and DRIFT
flag, the fork's options, the standup, and the ending. Every model/player string is shown literally."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.content import Content
from textual.geometry import Size
from textual.layout import DockArrangeResult
from textual.scrollbar import ScrollBar

from worldforge_tui.actions import default_key
from worldforge_tui.consequences import Consequence
from worldforge_tui.glossary import fatal_text
from worldforge_tui.text.safe_text import clean, one_line
from worldforge_tui.widgets.content_pane import ContentPane
from worldforge_tui.widgets.live_section import LiveSection

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
    "gate": "gate: approve or reject",
    "fork": "fork: choose",
    "ended": "ended",
}
FORK_IDS = ("fork.option_a", "fork.option_b")
EVENT_IDS = ("event.option_a", "event.option_b")
KeyOf = Callable[[str], str]


def phase_label(snap: Snapshot, busy: bool, key_of: KeyOf) -> str:
    """What the stage waits for: "worker at work" only while a worker works; otherwise what the
    game waits for from the CEO, with the live key."""
    if busy:
        return "worker at work"
    if snap.phase != "brief":
        return PHASE_LABEL.get(snap.phase, snap.phase)
    if snap.pending_event is not None:
        return "an event waits for your answer"
    if snap.standup_open:
        return (
            f"standup: reply ({key_of('standup.reply')}) or run the stage ({key_of('stage.run')})"
        )
    return f"waiting for you: {key_of('stage.run')} runs the stage"


RUBRIC_ORDER = ("relevance", "completeness", "actionability", "clarity", "compliance")


def artifact_parts(artifact: object) -> list[Part]:
    """Readable lines for any artifact (engine.views.render: labels, bullets, formatted numbers)."""
    if not isinstance(artifact, dict):
        return ["  ", clean(artifact, 2000), "\n"]
    from engine.views.render import render_artifact  # the engine loads after the first frame

    parts: list[Part] = []
    for block in render_artifact(artifact):
        parts.append((f"  {one_line(block.label, 60)}: ", "$secondary bold"))
        if block.bullets:
            parts.append("\n")
            for line in block.lines:
                sub = line.startswith("  ")
                parts.append(("      ◦ " if sub else "    • ", "$foreground-muted"))
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


def _binding(recalled: Sequence[object]) -> list[Part]:
    """What bound this artifact: the directions recalled from memory for its brief, in words (a
    forgotten or withheld note is not among them, so nothing it said shows as binding)."""
    from engine.language.directions import Direction

    if not recalled:
        return [
            ("Binding: ", "$warning bold"),
            ("none recalled from memory\n", "$foreground-muted"),
        ]
    lines = [one_line(Direction.from_dict(raw).shown(), 120) for raw in recalled]
    return [("Binding: ", "$warning bold"), _whole_lines(lines, BINDING_SHOWN) + "\n"]


BINDING_SHOWN = 300  # characters of the binding line; past them, whole directions are counted


def _whole_lines(lines: Sequence[str], limit: int) -> str:
    """Directions joined while they fit in `limit`, then how many more: never one cut mid-word
    (played: "… leave out deal desk hire; reach custom…")."""
    shown: list[str] = []
    for line in lines:
        if shown and len("; ".join([*shown, line])) > limit:
            break
        shown.append(line)
    more = len(lines) - len(shown)
    return "; ".join(shown) + (f"; and {more} more (Memory pane)" if more else "")


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
        from engine.views.render import prose as render_clean

        how = one_line(render_clean(str(follows.get("how") or "")), 400)
        if run.rubric.drift:
            # The worker's own claim, next to a gate that found otherwise: say whose words these are.
            parts.append(("The worker says", "bold"))
            parts.append(": " + how + " ")
            parts.append(("The gate found it did not (DRIFT above).\n", "$error"))
        else:
            parts.append(("Follows", "bold"))
            parts.append(": " + how + "\n")
    changed = run.changes
    if changed:
        parts.append(("What changed since the last attempt\n", "bold underline"))
        for line in changed[:8]:
            parts.append(("  ↻ " + one_line(line, 300) + "\n", "$secondary"))
    parts.append(("Artifact\n", "bold underline"))
    parts.extend(artifact_parts(artifact))
    parts.extend(_proof_points(run))
    return parts


# What a worker's tool did, in words (the tool names are ids: recall_memory).
TOOL_WORDS = {
    "recall_memory": "memory recalled",
    "search_knowledge": "playbooks searched",
    "watch_burn": "burn watched",
    "run_validators": "checks run",
}


def tool_words(tool: object) -> str:
    """A tool call as the board names it ("memory recalled"); an unknown tool by its words."""
    name = one_line(tool, 30)
    return TOOL_WORDS.get(name, name.replace("_", " "))


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
                (f"  ⚙ {tool_words(tool.get('tool'))}: {one_line(tool.get('result'), 160)}\n"),
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


def _fatal(kind: str | None) -> list[Part]:
    if not kind:
        return []
    return [("     ✖ ", "$error bold"), (fatal_text(kind) + "\n", "$error bold")]


def _dilemma(dilemma: Dilemma, key_of: KeyOf, fatal: Mapping[str, str]) -> list[Part]:
    parts: list[Part] = [
        ("\nFork: ", "bold"),
        (one_line(dilemma.title, 120), "$accent bold"),
        "\n",
        clean(dilemma.prompt, 1500),
        "\n",
    ]
    for option_id, option in zip(FORK_IDS, dilemma.options, strict=False):
        parts.append((f" [{key_of(option_id)}] ", "$accent bold reverse"))
        parts.append((" " + one_line(option.text, 300), "bold"))
        parts.append("\n")
        tradeoff = option.tradeoff
        if tradeoff:
            parts.append("     " + one_line(tradeoff, 300) + "\n")
        effect = option.effect_line
        if effect:
            parts.append(("     → " + one_line(effect, 300) + "\n", "$secondary"))
        if option.later:
            parts.append(("     ⧗ later " + one_line(option.later, 300) + "\n", "$warning"))
        if option.ahead:
            parts.append(("     ↦ " + one_line(option.ahead, 300) + "\n", "$warning"))
        parts.extend(_fatal(fatal.get(option.key)))
        hint = option.hint
        if hint:
            parts.append(("       size: " + one_line(hint, 200) + "\n", "$foreground-muted"))
        if option.binds:
            parts.append(
                ("       binds: " + one_line(option.binds, 200) + "\n", "$foreground-muted")
            )
        if option.archetype:
            from engine.language.grammar import with_article  # loaded after the first frame

            only = with_article(one_line(option.archetype, 20))
            parts.append((f"       only {only} founder gets this option\n", "$warning"))
    parts.append((f" [{key_of('fork.own')}] ", "$accent bold reverse"))
    parts.append(" your own answer (read as you mean it; you confirm the reading first)\n")
    return parts


def _pending_event(snap: Snapshot, key_of: KeyOf) -> list[Part]:
    """The event waiting for a small choice: its options, their numbers, the live keys."""
    pending = snap.pending_event
    if pending is None:
        return []
    parts: list[Part] = [
        (f"\nEvent · day {pending.day}: ", "$warning bold"),
        (one_line(pending.title, 120), "bold"),
        " — ",
        one_line(pending.text, 300),
        "\n",
    ]
    for option_id, option in zip(EVENT_IDS, pending.options, strict=False):
        parts.append((f" [{key_of(option_id)}] ", "$accent bold reverse"))
        parts.append(" " + one_line(option.text, 200))
        parts.append(("  → " + one_line(option.effect_line, 200) + "\n", "$secondary"))
        parts.extend(_fatal(snap.fatal_events.get(option.key)))
    keys = f"{key_of(EVENT_IDS[0])} / {key_of(EVENT_IDS[1])}"
    run = key_of("stage.run")
    # the board never answers an event for the player: the run key waits for the answer (it
    # read "g runs the stage with option 1", and g said "An event waits for your answer")
    parts.append((f"  {keys} answer · then {run} runs the stage\n", "$accent"))
    return parts


CONSEQUENCE_MARK = {"rival": "⚔", "event": "✦", "flaw": "⚠", "order": "§", "later": "⧗"}


def _consequences(found: Sequence[Consequence]) -> list[Part]:
    """What happened since the last decision, dated, with its numbers."""
    if not found:
        return []
    parts: list[Part] = [("\nSince your last decision\n", "bold underline")]
    for one in found:
        parts.append((f"  day {one.day:<3} {CONSEQUENCE_MARK.get(one.kind, '•')} ", "$warning"))
        parts.append(one_line(one.text, 400) + "\n")
    return parts


def _standup(turns: list[StandupTurn], open_for_reply: bool, key_of: KeyOf) -> list[Part]:
    parts: list[Part] = [("\nStandup\n", "bold underline")]
    for turn in turns:
        speaker = one_line(turn.speaker, 40)
        parts.append((f"  {speaker}", "$secondary bold"))
        role = one_line(turn.role, 20).replace("_", " ")  # a role id: strategy_lead
        if role and not set(role.lower().split()) <= set(speaker.lower().split()):
            parts.append((f" ({role})", "$foreground-muted"))
        parts.append((": ", "$foreground-muted"))
        parts.append(one_line(turn.line, 400))
        tool = turn.tool
        if tool:
            parts.append(
                (f"  [{tool_words(tool)}: {one_line(turn.tool_result, 80)}]", "$foreground-muted")
            )
        parts.append("\n")
    if open_for_reply:
        reply, run = key_of("standup.reply"), key_of("stage.run")
        line = f"  {reply} reply (becomes binding memory) · {run} run the next stage\n"
        parts.append((line, "$accent"))
    return parts


def _ahead(snap: Snapshot) -> list[Part]:
    """What the venture's shape holds: stages added or skipped and why, who ships what is to
    come, and the decisions' effects still to land."""
    parts: list[Part] = []
    blocks = [("How this venture changed shape", "↷", snap.reshaped)]
    if snap.outcome is None:
        blocks += [
            ("Who ships it this venture", "⇄", snap.handovers),
            ("Pending from your decisions", "⧗", snap.pending),
        ]
    for title, mark, lines in blocks:
        if lines:
            parts.append((f"\n{title}\n", "bold underline"))
            for line in lines:
                parts.append((f"  {mark} " + one_line(line, 300) + "\n", "$warning"))
    return parts


def story_content(
    snap: Snapshot | None,
    found: Sequence[Consequence] = (),
    key_of: KeyOf = default_key,
    *,
    busy: bool = False,
) -> Content:
    """Everything the Story pane shows for a snapshot (or the welcome before a venture opens);
    `found` is what happened since the last decision (from the event log), `key_of` the live
    key of a registry action."""
    if snap is None:
        return Content.assemble(
            ("WorldForge\n", "$primary bold"),
            "You are the CEO of a company of AI workers whose memory binds them.\n\n",
            f"{key_of('app.new')}  found a company (or resume the last)\n"
            f"{key_of('app.load')}  load a saved venture\n"
            f"{key_of('app.help')}  how to play, the meters, how a run is won and lost\n",
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
        parts.append((f" · {phase_label(snap, busy, key_of)}\n", "$accent"))
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
    if snap.current is not None and phase in ("gate", "fork"):
        parts.extend(_binding(snap.current.binding))
    dilemma = snap.dilemma
    if dilemma is not None and phase == "fork":  # the choice first; the shipped work below it
        parts.extend(_dilemma(dilemma, key_of, snap.fatal_options))
    current = snap.current
    if current is not None and phase in ("gate", "fork"):
        parts.append("\n")
        parts.extend(_run(current))
    parts.extend(_consequences(found))
    parts.extend(_ahead(snap))
    if phase == "brief":
        parts.extend(_pending_event(snap, key_of))
    standup = snap.standup
    if standup:
        parts.extend(_standup(standup, snap.standup_open, key_of))
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


class StoryPane(ContentPane):
    """Scrollable story; `show(snapshot)` re-renders it, `show_live(source)` follows a call."""

    BODY_ID = "story-body"
    _follow_y: int | None = None  # where following the live text last scrolled (None: not)
    _follow_on_layout = False  # the live text's new lines are laid out next: scroll as they are

    def initial_content(self) -> Content:
        return story_content(None)

    def compose(self) -> ComposeResult:
        yield from super().compose()
        live = LiveSection(id="story-live", classes="pane-body")
        live.display = False
        live.on_grow = self._live_grew
        yield live

    def _live_grew(self, laid_out: bool) -> None:
        """The live text has a new line: follow it (as the pane is laid out when its lines were
        reserved anew, or the section is shown: `arrange`)."""
        if laid_out:
            # now, as laid out (a frame composed before the layout shows the last line: it fills
            # the line left spare), and again as the layout arranges the pane
            self.follow_live(laid_out=True)
            self._follow_on_layout = True
            self.call_after_refresh(self.follow_live)  # a layout that did not arrange the pane
        else:
            self.follow_live()

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """Lay the pane out; when the live text's new lines are laid out, scroll it to their last
        line in this same layout, so the frame that draws them shows them (issue 46: a standup's
        first line, and a line that outgrew the lines reserved, were drawn below the view and
        scrolled to a frame and a layout later). Textual's own anchor does the same, to the very
        end: here the lines reserved below the text stay out of view."""
        result = super().arrange(size, optimal)
        live = self.query_one(LiveSection)
        if not self._follow_on_layout or not live.display:
            return result
        self._follow_on_layout = False
        if not self.following:
            return result
        blank = max(0, live.rows - live.lines)
        y = max(0, result.total_region.bottom - size.height - blank)
        self._follow_y = y
        if y != round(self.scroll_y):  # set as the compositor places the children with it
            self.set_reactive(StoryPane.scroll_y, float(y))
            self.set_reactive(StoryPane.scroll_target_y, float(y))
            self.vertical_scrollbar.set_reactive(ScrollBar.position, float(y))
        return result

    def show(
        self,
        snap: Snapshot | None,
        found: Sequence[Consequence] = (),
        key_of: KeyOf = default_key,
        *,
        busy: bool = False,
    ) -> None:
        live = self.query_one(LiveSection)
        was_live = bool(live.display)
        if busy and was_live:  # the busy view while a call is written: its live text stays
            self.render_body(story_content(snap, found, key_of, busy=busy))
            self._live_grew(True)  # the story above it may have changed height: follow it
            return
        self._follow_y = None
        self._follow_on_layout = False
        if was_live:
            live.stop()
            live.display = False
        # After a streamed call the pane was scrolled to the live text's end: start from the top
        # of what it became, never on the blank lines the live section left behind. At once: a
        # scroll deferred past the next frame would undo the follow of a call shown meanwhile.
        if self.render_body(story_content(snap, found, key_of, busy=busy)) or was_live:
            self.scroll_home(animate=False, immediate=True)

    def show_live(
        self, source: Callable[[], Content], on_shown: Callable[[bool], None] | None = None
    ) -> None:
        """A call's text being written, under the story (only this part re-renders). The pane
        follows its last line, in the same frame, until the player scrolls away."""
        live = self.query_one(LiveSection)
        if not live.display:
            live.display = True
            self._follow_y = 0
        live.follow(source, on_shown)

    @property
    def live_shown(self) -> bool:
        """The live section is under the story (a call's text is being followed)."""
        return bool(self.query_one(LiveSection).display)

    @property
    def following(self) -> bool:
        """The pane keeps the live text's last line in view (the player has not scrolled up)."""
        return self._follow_y is not None and self.scroll_y >= self._follow_y

    def follow_live(self, laid_out: bool = False) -> None:
        """Scroll so the live text's last line is the view's last (the lines reserved below it
        stay out of view), unless the player scrolled away from it; `laid_out`: in the layout it
        has now (lines reserved anew wait for the next)."""
        live = self.query_one(LiveSection)
        if not self.following or not live.display:
            return
        blank = max(0, (live.size.height if laid_out else live.rows) - live.lines)
        self._follow_y = max(0, round(self.max_scroll_y) - blank)
        if self.scroll_y != self._follow_y:
            self.scroll_to(y=self._follow_y, animate=False, immediate=True)
