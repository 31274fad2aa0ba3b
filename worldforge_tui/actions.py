"""The action registry: every key the game answers, in one table.

Each row says its binding id (what `keymap.json` rebinds), default key, the Textual action it runs
and where (its scope), a short label, a description, and, for a player command, which command it
gives: the command (engine.session.commands) says the phase it belongs to, and the snapshot's
`can` whether it may run now. The bindings, the action-bar buttons, the hint line, the footer, the
command palette and the help screen are all built from this table, so a rebind shows everywhere.
A new command is one class there and one `command_row` here.

Pure data and functions (no textual import at module level, and only the light command list from
the engine), so what each phase allows is tested without a screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.binding import BindingType

# Scopes: who owns the binding. "app" = the App (board-level, works from the board), "board" = the
# main screen, "memory" = the memory pane, "log" = the replay log; the rest are one screen each.
BOARD_SCOPES = ("app", "board", "memory", "log")


@dataclass(frozen=True, slots=True)
class Prompt:
    """The line of text a command row asks for before it gives its command."""

    title: str
    placeholder: str = ""
    submit: str = "OK"
    # words that bind: with a model tier configured, the parts the game could not read are
    # offered to the model first; this names the handler (`worldforge_tui.reports`) that takes
    # its suggestions to the confirm ("" never asks)
    suggested: str = ""


@dataclass(frozen=True, slots=True)
class GameAction:
    """One key the player can press: id, default key, action, label, and when it applies."""

    id: str
    key: str
    action: str
    label: str
    description: str
    scope: str
    group: str = ""
    command: str | None = None  # the player command it gives (engine.session.commands)
    hint: str = ""  # the hint line's words after the key ("approve", "choose an option")
    button: str | None = None  # the action-bar button id that mirrors it
    show: bool = True  # in the footer (phase actions are not: the action bar shows them)
    priority: bool = False
    palette: str = ""  # the command palette's title ("" = not in the palette)
    needs_venture: bool = False  # board-level actions that need an open venture
    # A command row: what the player says with the command ("A" for option 1), or the prompt
    # that asks for it; the thinking line while it runs: the stage worker's verb ("is redoing"),
    # or words of its own.
    said: str = ""
    prompt: Prompt | None = None
    working: str = ""
    busy: str = ""
    # What reports the command's result: a handler's name in `worldforge_tui.reports` ("" for
    # none: the board shows the result).
    report: str = ""

    @property
    def phase(self) -> str | None:
        """The phase its command belongs to (shown greyed there when the engine would refuse)."""
        if not self.command:
            return None
        from engine.session.commands import phase_of  # the engine loads after the first frame

        return phase_of(self.command)


DECIDING = "consequence applied · rival moves · the team meets for a standup…"


def command_row(
    id: str,
    key: str,
    label: str,
    description: str,
    command: str,
    *,
    hint: str = "",
    button: str | None = None,
    palette: str = "",
    said: str = "",
    prompt: Prompt | None = None,
    working: str = "",
    busy: str = "",
) -> GameAction:
    """A board row that gives a player command: its action is the one generic `give(id)`, shown
    only in its command's phase (the action bar, not the footer, shows it)."""
    return GameAction(
        id,
        key,
        f"give({id!r})",
        label,
        description,
        "board",
        "Gate and fork",
        command=command,
        hint=hint,
        button=button,
        show=False,
        palette=palette,
        said=said,
        prompt=prompt,
        working=working,
        busy=busy,
    )


# One maker a section: the scope that owns its keys and the group help lists them under.
_app = partial(GameAction, scope="app", group="Board")
_pane = partial(GameAction, scope="board", group="Panes", show=False)
_memory = partial(GameAction, scope="memory", group="Memory pane")
_log = partial(GameAction, scope="log", group="Replay log")
_settings = partial(GameAction, scope="settings", group="Settings")
_dialog = partial(GameAction, group="Dialogs")  # the dialog's own scope comes sixth
# The chip keys of a prompt whose words bind (a reason, a standup reply, an own answer): the
# field keeps every printable key, so these are keys a line of text never types.
_reading = partial(GameAction, scope="prompt", group="Reading what you type")

ACTIONS: tuple[GameAction, ...] = (
    # ---- board (app scope): work only while the board is the active screen ------------------
    _app("app.help", "question_mark", "help", "Help", "How to play, and every key", palette="Help"),
    _app(
        "app.settings",
        "s",
        "settings",
        "Settings",
        "Settings: routing mode, local and Foundry models, test connection, save",
        palette="Settings",
    ),
    _app(
        "app.new",
        "n",
        "new_venture",
        "New",
        "Found a new company (or resume the last)",
        palette="New venture",
    ),
    _app("app.load", "l", "load", "Load", "Open a saved venture", palette="Load venture"),
    _app(
        "app.export",
        "e",
        "export",
        "Export",
        "Write the venture's report (Markdown)",
        palette="Export report",
        needs_venture=True,
        report="exported",
    ),
    _app(
        "app.cancel_call",
        "escape",
        "cancel_call",
        "Cancel call",
        "Cancel the model call in flight (nothing is recorded; the step can run again)",
        show=False,
    ),
    _app(
        "app.quit",
        "ctrl+q",
        "quit",
        "Quit",
        "Quit (the venture is saved after every step)",
        priority=True,
    ),
    # ---- the gate, the fork, the standup (main screen): one row a key, each giving a command ----
    command_row(
        "gate.approve",
        "a",
        "Approve",
        "Approve the artifact at the gate",
        "approve",
        hint="approve",
        button="btn-approve",
        palette="Approve artifact",
        busy="the narrator poses the fork…",
    ),
    command_row(
        "gate.reject",
        "r",
        "Reject…",
        "Reject with a reason: the worker redoes the stage with it as binding direction",
        "reject",
        hint="reject with a reason",
        button="btn-reject",
        palette="Reject artifact…",
        prompt=Prompt(
            "Why reject it? The worker redoes the stage with your reason as binding direction.",
            "e.g. name the customer and cut the jargon",
            "Reject",
            suggested="suggested",
        ),
        working="is redoing",
    ),
    command_row(
        "fork.option_a",
        "1",
        "Option 1",
        "Choose the fork's option 1",
        "decide",
        said="A",
        hint="option 1",
        button="btn-option-a",
        palette="Choose option 1",
        busy=DECIDING,
    ),
    command_row(
        "fork.option_b",
        "2",
        "Option 2",
        "Choose the fork's option 2",
        "decide",
        said="B",
        hint="option 2",
        button="btn-option-b",
        palette="Choose option 2",
        busy=DECIDING,
    ),
    command_row(
        "fork.own",
        "o",
        "Own answer…",
        "Answer the fork in your own words (keywords pick a rule)",
        "decide_own",
        hint="write your own answer",
        button="btn-own",
        palette="Own answer…",
        prompt=Prompt(
            "Your own answer at the fork (read as you mean it; you confirm the reading next):",
            "e.g. partner with local co-ops before raising",
            "Read it",
            suggested="suggested",
        ),
        busy=DECIDING,
    ),
    command_row(
        "standup.reply",
        "t",
        "Reply…",
        "Reply to the standup (becomes binding direction for the next brief)",
        "standup_reply",
        hint="reply (binding)",
        button="btn-reply",
        palette="Reply to the standup…",
        prompt=Prompt(
            "Reply to the standup (binding for the next brief):",
            submit="Reply",
            suggested="suggested",
        ),
    ),
    command_row(
        "event.option_a",
        "1",
        "Event option 1",
        "Answer the waiting event's small choice with its option 1",
        "answer_event",
        said="A",
        button="btn-event-a",
        palette="Answer the event: option 1",
    ),
    command_row(
        "event.option_b",
        "2",
        "Event option 2",
        "Answer the waiting event's small choice with its option 2",
        "answer_event",
        said="B",
        button="btn-event-b",
        palette="Answer the event: option 2",
    ),
    command_row(
        "stage.run",
        "g",
        "Run stage",
        "Run the next stage's worker",
        "run_stage",
        hint="run the next stage",
        button="btn-run",
        palette="Run the stage",
        working="is working on",
    ),
    # ---- panes (main screen): show and focus ------------------------------------------------
    _pane("pane.story", "f1", "pane('story')", "Story", "Show and focus the Story pane"),
    _pane(
        "pane.receipt", "f2", "pane('receipt')", "Receipt", "Show and focus the Decision receipt"
    ),
    _pane("pane.memory", "f3", "pane('memory')", "Memory", "Show and focus the Memory pane"),
    _pane("pane.log", "f4", "pane('log')", "Log", "Show and focus the Replay log"),
    _pane(
        "replay.filter",
        "slash",
        "focus_filter",
        "Filter log",
        "Filter the replay log (Enter returns to the log, Escape clears)",
        palette="Filter the replay log",
    ),
    # ---- memory pane (when it has focus) ----------------------------------------------------
    _memory("memory.mark", "space", "toggle_mark", "Mark", "Mark a note for consolidation"),
    _memory(
        "memory.consolidate",
        "c",
        "request('consolidate')",
        "Consolidate",
        "Fold the marked notes into one reviewed note",
        report="consolidated",
    ),
    _memory(
        "memory.prune",
        "p",
        "request('prune')",
        "Prune (dry run)",
        "List the notes a prune would delete (nothing is deleted)",
        report="pruned",
    ),
    _memory(
        "memory.forget",
        "f",
        "request('forget')",
        "Forget memories",
        "Forget every memory of this venture; the venture and its log stay (asks first)",
        report="forgot_memories",
    ),
    _memory(
        "memory.forget_note",
        "d",
        "note('forget_note', 'Forget note')",
        "Forget note",
        "Forget the highlighted note: the next brief drops exactly its directions (asks first)",
        report="forgot_note",
    ),
    _memory(
        "memory.what_if",
        "w",
        "note('what_if', 'What if')",
        "What if?",
        "What if they forgot this? Each stage this note binds, re-derived in the simulator "
        "without it: brief, work, score and DRIFT side by side (the run is not changed)",
        report="what_if",
    ),
    # ---- replay log (when it has focus) -----------------------------------------------------
    _log("replay.inspect", "enter", "inspect", "Inspect", "Inspect the row's full payload"),
    _log("replay.up", "up", "cursor(-1)", "Up", "Previous row", show=False),
    _log("replay.down", "down", "cursor(1)", "Down", "Next row", show=False),
    _log("replay.pageup", "pageup", "page(-1)", "Page up", "A page up", show=False),
    _log("replay.pagedown", "pagedown", "page(1)", "Page down", "A page down", show=False),
    _log("replay.first", "home", "first", "First", "First row", show=False),
    _log(
        "replay.last", "end", "last", "Last (follow)", "Last row, and follow new ones", show=False
    ),
    _log(
        "replay.clear",
        "escape",
        "clear_filter",
        "Clear filter",
        "Clear the log's filter (while one is set)",
        show=False,
    ),
    GameAction(  # the filter's own Escape: help lists it once, as the log's
        "filter.clear",
        "escape",
        "clear_filter",
        "Clear",
        "Clear the filter and return to the log",
        "filter",
        "",
        show=False,
    ),
    # ---- other screens ----------------------------------------------------------------------
    _settings("settings.close", "escape", "close", "Back", "Leave settings without saving"),
    _settings("settings.save", "ctrl+s", "save", "Save", "Save and apply to the next call"),
    _settings("settings.test", "ctrl+t", "test", "Test connection", "Probe each configured tier"),
    _dialog("help.close", "escape,q,question_mark", "close", "Close", "Close the help", "help"),
    _dialog("load.cancel", "escape", "cancel", "Cancel", "Close the load dialog", "load"),
    _dialog("new.cancel", "escape", "cancel", "Cancel", "Close the new-venture form", "new"),
    _dialog("end.export", "e", "choose('export')", "Export report", "Export the report", "end"),
    _dialog("end.new", "n", "choose('new')", "New venture", "Found a new company", "end"),
    _dialog("end.close", "escape", "choose(None)", "Board", "Back to the board", "end"),
    _dialog("dialog.cancel", "escape", "cancel", "Cancel", "Cancel the prompt", "prompt"),
    _reading("reading.prev", "up", "chip('prev')", "Previous chip", "Select the previous chip"),
    _reading("reading.next", "down", "chip('next')", "Next chip", "Select the next chip"),
    _reading(
        "reading.axis",
        "ctrl+t",
        "chip('axis')",
        "Axis",
        "Change the selected chip's axis (through the axes its value could take)",
    ),
    _reading(
        "reading.flip",
        "ctrl+f",
        "chip('flip')",
        "Do/don't",
        "Flip the selected chip: a thing to do becomes one to leave out, and back",
    ),
    _reading(
        "reading.drop",
        "ctrl+r",
        "chip('drop')",
        "Drop",
        "Drop the selected chip so it binds nothing (again: bring it back)",
    ),
    _dialog("confirm.yes", "y", "answer(True)", "Yes", "Confirm", "confirm"),
    _dialog("confirm.no", "n,escape", "answer(False)", "No", "Decline", "confirm"),
    _dialog(
        "inspector.close", "escape,q,enter", "close", "Close", "Close the inspector", "inspector"
    ),
)
BY_ID: dict[str, GameAction] = {a.id: a for a in ACTIONS}
PHASE_TITLES = {"gate": "Gate", "fork": "Fork", "brief": "Standup", "ended": "Ended"}


def in_scope(scope: str) -> tuple[GameAction, ...]:
    """The registry rows one scope owns, in table order."""
    return tuple(a for a in ACTIONS if a.scope == scope)


def bindings(scope: str) -> list[BindingType]:
    """Textual `Binding`s for one scope (ids from the registry, so `keymap.json` reaches them)."""
    from textual.binding import Binding

    return [
        Binding(
            a.key,
            a.action,
            a.label,
            show=a.show,
            priority=a.priority,
            id=a.id,
            tooltip=a.description,
        )
        for a in in_scope(scope)
    ]


def by_action(scope: str, action: str, parameters: tuple[object, ...] = ()) -> GameAction | None:
    """The row that runs `action` in `scope`; a command row's parameter (its id) picks it among
    the rows that share the generic `give`."""
    name = action.split("(", 1)[0]
    for row in in_scope(scope):
        if row.command is not None:
            if name == "give" and parameters[:1] == (row.id,):
                return row
        elif row.action.split("(", 1)[0] == name:
            return row
    return None


def button_rows() -> tuple[GameAction, ...]:
    """The rows the action bar mirrors with a button, in table order."""
    return tuple(row for row in ACTIONS if row.button is not None)


def state_of(
    row: GameAction, phase: str | None, can: Mapping[str, bool], busy: bool = False
) -> bool | None:
    """Textual's `check_action` answer: True enabled, None shown greyed, False hidden.

    A phase action is hidden outside its phase and greyed in it when the engine would refuse it
    (no redos left) or a worker is still at work.
    """
    if row.command is None:
        return True
    if phase is None or phase != row.phase:  # no venture: every command row is of a phase
        return False
    return (bool(can.get(row.command)) and not busy) or None


def phase_rows(phase: str | None) -> tuple[GameAction, ...]:
    """The phase's own actions (the ones with buttons and hint words)."""
    return tuple(a for a in ACTIONS if a.phase is not None and a.phase == phase)


def hint_line(
    phase: str | None,
    can: Mapping[str, bool],
    key_of: Callable[[str], str],
    redos_left: int | None = None,
    *,
    terse: bool = False,
) -> str:
    """One line saying what the player can do now, with the live keys.

    `terse` (narrow terminals, where the buttons already name each key) keeps only what the buttons
    cannot say: the redos left.
    """
    if terse and phase in ("gate", "fork", "brief"):
        if phase == "brief" and can.get("answer_event"):  # its text may be in a hidden pane
            return (
                f"{key_of('event.option_a')} / {key_of('event.option_b')} answer the waiting "
                f"event ({key_of('pane.story')} shows it)"
            )
        if phase == "gate" and redos_left is not None:
            return (
                f"{redos_left} redo{'s' * (redos_left != 1)} left"
                if can.get("reject")
                else "no redos left"
            )
        return ""
    if phase is None:
        return " · ".join(
            f"{key_of(i)} {w}"
            for i, w in (
                ("app.new", "new venture"),
                ("app.load", "load"),
                ("app.settings", "settings"),
                ("app.help", "help"),
            )
        )
    if phase == "ended":
        return (
            f"The venture has ended · {key_of('app.export')} export the report · "
            f"{key_of('app.new')} new venture"
        )
    words = []
    event_waits = phase == "brief" and bool(can.get("answer_event"))
    for row in phase_rows(phase):
        if not can.get(row.command or ""):
            continue
        if row.id in ("fork.option_b", "event.option_b"):
            continue  # "1 / 2 choose an option" reads better as one item
        if row.id == "stage.run" and event_waits:
            continue  # refused until the event is answered: the board never answers it
        if row.id == "event.option_a":
            words.append(
                f"{key_of('event.option_a')} / {key_of('event.option_b')} answer the event "
                f"(then {key_of('stage.run')} runs the stage)"
            )
            continue
        if row.id == "fork.option_a":
            words.append(f"{key_of('fork.option_a')} / {key_of('fork.option_b')} choose an option")
            continue
        text = f"{key_of(row.id)} {row.hint}"
        if row.id == "gate.reject" and redos_left is not None:
            text += f" ({redos_left} redo{'s' * (redos_left != 1)} left)"
        words.append(text)
    if phase == "gate" and not can.get("reject"):
        words.append("no redos left: approve or take the hit")
    if not words:
        return ""
    return f"{PHASE_TITLES.get(phase, phase.capitalize())}: " + " · ".join(words)


def _active_together(a: GameAction, b: GameAction) -> bool:
    """True if both keys can be live at once: same scope, or a board scope under the board's
    own (app, board); two phase actions of different phases never are (1 is a fork option and
    an event answer)."""
    if a.phase is not None and b.phase is not None and a.phase != b.phase:
        return False
    if a.scope == b.scope:
        return True
    outer = ("app", "board")
    return (a.scope in outer and b.scope in BOARD_SCOPES) or (
        b.scope in outer and a.scope in BOARD_SCOPES
    )


KEY_NAMES = {"?": "question_mark", "/": "slash", " ": "space", "esc": "escape"}


def _keys(value: str) -> set[str]:
    return {KEY_NAMES.get(k.strip(), k.strip()) for k in value.split(",") if k.strip()}


def conflicts(keymap: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """(overridden id, id it collides with, key) for each override that would take a key another
    live action answers (after every override applies); those overrides are refused, the later
    id of two overrides that clash with each other."""
    live = {**default_keys(), **{k: v for k, v in keymap.items() if k in BY_ID}}
    found: list[tuple[str, str, str]] = []
    for binding_id in sorted(k for k in keymap if k in BY_ID):
        row = BY_ID[binding_id]
        wanted = _keys(live[binding_id])
        if wanted == _keys(row.key):
            continue  # the default itself: nothing changes
        clash = next(
            (
                (other.id, key)
                for other in ACTIONS
                if other.id != binding_id and _active_together(row, other)
                for key in sorted(wanted & _keys(live[other.id]))
            ),
            None,
        )
        if clash is not None:
            found.append((binding_id, clash[0], clash[1]))
            live[binding_id] = row.key  # refused: the default stays
    return found


def default_key(action_id: str) -> str:
    """The default key of an action as shown (`?`, `esc`, `a`): the first of its keys."""
    first = BY_ID[action_id].key.split(",")[0]
    return {"question_mark": "?", "escape": "esc"}.get(first, first)


def live_key(app: object, action_id: str) -> str:
    """The live key of an action as the app shows it (its `key_of`), else the default key."""
    key_of = getattr(app, "key_of", None)
    return str(key_of(action_id)) if callable(key_of) else default_key(action_id)


def unknown_ids(keymap: Iterable[str]) -> list[str]:
    """Binding ids in a user keymap that no action has (reported once at start-up)."""
    return sorted(k for k in keymap if k not in BY_ID)


def default_keys() -> dict[str, str]:
    """Binding id → default key string, for the whole registry."""
    return {a.id: a.key for a in ACTIONS}
