"""What the player does at the gate, the fork, the standup and the memory pane, as session commands.

The app owns one `PlayerActions`: every command row of the action table takes one path (`give`):
it checks the engine allows the command now, asks for text where the row says, asks a configured
model about the words the game could not read (on the session worker; the row's prompt names the
report that goes on), shows the command's preview for the player to confirm where it has one, then
hands the command to the app's session worker (`WorldForgeApp.command`), which reports back by
message to the handler the row names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import GameError
from worldforge_tui import actions
from worldforge_tui.boot import log
from worldforge_tui.chip_edits import Chips
from worldforge_tui.glossary import fatal_text
from worldforge_tui.text.safe_text import first_line
from worldforge_tui.widgets.action_bar import thinking_text
from worldforge_tui.widgets.memory_pane import MemoryPane

if TYPE_CHECKING:
    from engine.language.directions import Direction
    from engine.language.steering import Read
    from engine.session.api import GameSession
    from engine.session.commands import Issued, Worded
    from worldforge_tui.app import WorldForgeApp


@dataclass(frozen=True, slots=True)
class Asked:
    """What a model said about a command's unread words (the session worker's result): the
    command to confirm (with its suggestions, if any), the one line, and whether the player
    cancelled the call (Esc: the words go back to their prompt)."""

    row_id: str
    said: str
    command: Issued[object]
    line: str = ""
    cancelled: bool = False


class PlayerActions:
    """Gate, fork, standup and memory actions, each one session command."""

    def __init__(self, app: WorldForgeApp) -> None:
        self.app = app
        # the chips of the words last sent from a reading prompt, by row: when the player goes
        # back to the words (a "no" at the confirm, a refusal), their corrections still stand
        self._chips: dict[str, Chips] = {}

    def give(
        self,
        row_id: str,
        said: str = "",
        confirmed: list[Direction] | None = None,
    ) -> None:
        """The one path for every command row (worldforge_tui.actions): if the engine allows the
        command now, ask for its text when the row has a prompt (words that bind are read as
        they are typed, and the player may correct the reading: `confirmed`); words the game
        could not read go to a configured model first (`_suggest`); then `confirm`. A refusal
        reopens the prompt with the typed text and the engine's one line."""
        from engine.session import commands

        row = actions.BY_ID[row_id]
        command = self._command(row, said, confirmed)
        if command is None:
            return
        if isinstance(command, commands.Worded) and (
            model := self._model_to_ask(row, command, confirmed)
        ):
            self._suggest(row, said, command, model)
        else:
            self.confirm(row, said, command)

    def _command(
        self,
        row: actions.GameAction,
        said: str,
        confirmed: list[Direction] | None,
    ) -> Issued[object] | None:
        """The row's command from what the player said, as corrected; None when there is none to
        give now (the engine refuses it, an event waits, its prompt opened, the words are bad)."""
        from engine.session import commands

        kind = commands.named(row.command or "")
        if kind is None or not self.app.can(kind.name):
            return None
        if row.command == "run_stage" and self.app.snap is not None and self.app.snap.pending_event:
            one, two = self.app.key_of("event.option_a"), self.app.key_of("event.option_b")
            self.app.notify(  # running the stage would answer it with its default, for the player
                f"An event waits for your answer: {one} or {two} first.",
                title="Event",
                markup=False,
            )
            return None
        if row.prompt is not None and not said:
            self._ask_again(row, said)
            return None
        try:
            command = kind.from_said(said or row.said)
            if confirmed is not None and isinstance(command, commands.Worded):
                command = command.corrected(confirmed)  # what binds is what the player confirmed
        except GameError as err:  # bad input: one clear line, the text comes back
            self._refused(row, said, first_line(err))
            return None
        return command

    def confirm(
        self, row: actions.GameAction, said: str, command: Issued[object], line: str = ""
    ) -> None:
        """Show what the command will do when it previews itself (with `line`, what a model said
        when it suggested nothing) and run it on the session worker if the player confirms; a
        command without a preview runs at once. "No" goes back to the words."""
        again = (lambda why: self._ask_again(row, said, why)) if row.prompt else None
        try:
            preview = (
                command.preview(self.app.session.state) if self.app.session is not None else None
            )
        except GameError as err:  # bad input: one clear line, the text comes back
            self._refused(row, said, first_line(err))
            return
        if preview is None:
            if line:
                self.app.notify(line, title="Reading", markup=False)
            self.issue(command, self._thinking(row), report=row.report, on_refused=again)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.issue(command, self._thinking(row), report=row.report, on_refused=again)
            elif row.prompt is not None:  # "no" goes back to the words, to change them
                self._ask_again(row, said)

        fatal = self.app.snap.fatal_options.get(preview.option or "") if self.app.snap else None
        warning = f"\n✖ {fatal_text(fatal)}." if fatal else ""
        from engine.session import commands
        from worldforge_tui.screens.dialogs import ConfirmScreen

        # a suggestion is in the preview, marked with its model; nothing suggested: why not
        shown = isinstance(command, commands.Worded) and bool(command.suggested)
        unsuggested = f"\n{line}" if line and not shown else ""

        self.app.push_screen(
            ConfirmScreen(
                f"{preview.says}{unsuggested}\nWill change: {preview.will_change}.{warning}\n"
                f"{preview.verb.capitalize()} this way?",
                yes_label=preview.verb.capitalize(),
                default=not fatal,  # Enter goes on, unless what it reads as ends the run
            ),
            answered,
        )

    # ---- a model asked about the words the game could not read ---------------------------
    def _model_to_ask(
        self, row: actions.GameAction, command: Worded[Any], confirmed: list[Direction] | None
    ) -> str:
        """The model the command's unread words go to ("" when none is asked: the row never
        asks, the player corrected the reading, every word was read, or no model tier is
        configured: the simulation never needs one)."""
        session, router = self.app.session, self.app.router
        if (
            row.prompt is None
            or not row.prompt.suggested
            or confirmed is not None
            or session is None
            or router is None
            or router.runtime_label() in ("simulation", "replay")
            or not command.read(session.state).unread
        ):
            return ""
        stage = session.state.stage  # the role GameSession.suggest asks as
        targets = router.plan(stage.owner_role if stage is not None else "strategist")
        return str(targets[0].model) if targets else ""

    def _suggest(
        self, row: actions.GameAction, said: str, command: Worded[Any], model: str
    ) -> None:
        """Ask the model on the session worker (GameSession.suggest: a constrained choice that
        writes nothing); its report (`worldforge_tui.reports.suggested`) goes on to the confirm
        with what came back. Esc cancels the call and the words come back unchanged; a call that
        fails or times out leaves the reading as read, with its one line."""
        assert row.prompt is not None

        def ask(session: GameSession) -> Asked:
            ended: list[str] = []  # the router ends a call the player cancelled as "cancelled"
            unwatch = session.router.watch(
                lambda event: ended.append(event.model) if event.kind == "end" else None
            )
            try:
                with_suggestions, line = session.suggest(command)
            except Exception as exc:  # noqa: BLE001 - a failed call: the reading as read goes on
                log.exception("asking %s about unread words failed", model)
                with_suggestions = command
                line = f"No suggestion ({first_line(exc, 120)}): the words read as typed."
            finally:
                unwatch()
            return Asked(row.id, said, with_suggestions, line, cancelled="cancelled" in ended)

        self.app.command(
            "suggest",
            ask,
            f"Asking {model} about the words it could not read… "
            f"({self.app.key_of('app.cancel_call')} cancels)",
            report=row.prompt.suggested,
        )

    def suggested(self, asked: Asked) -> None:
        """What the model said came back: the confirm, with it (Esc: back to the words)."""
        row = actions.BY_ID[asked.row_id]
        if asked.cancelled:
            self._ask_again(row, asked.said)
        else:
            self.confirm(row, asked.said, asked.command, asked.line)

    def _ask_again(self, row: actions.GameAction, said: str, error: str = "") -> None:
        """Reopen a row's prompt with what was typed (and why it was refused)."""
        if row.prompt is not None and self._reads(row):
            self._ask_reading(row, said, error)
        elif row.prompt is not None:
            self.ask(
                row.prompt.title,
                lambda text: self.give(row.id, text),
                placeholder=row.prompt.placeholder,
                submit_label=row.prompt.submit,
                initial=said,
                error=error,
            )

    def _reads(self, row: actions.GameAction) -> bool:
        """Whether the row's words bind (a rejection reason, a standup reply, an own answer)."""
        from engine.session import commands

        kind = commands.named(row.command or "")
        return (
            isinstance(kind, type)
            and issubclass(kind, commands.Worded)
            and self.app.session is not None
        )

    def _ask_reading(self, row: actions.GameAction, said: str, error: str) -> None:
        """The row's prompt with the reading shown as chips while the words are typed; what the
        player confirmed there (a chip's axis changed, flipped, dropped) is what binds."""
        from engine.session import commands
        from worldforge_tui.screens.dialogs import TextPromptScreen

        session, kind, prompt = self.app.session, commands.named(row.command or ""), row.prompt
        assert session is not None and kind is not None and prompt is not None

        def reader(text: str) -> Read:
            command = kind.from_said(text)
            assert isinstance(command, commands.Worded)
            return command.read(session.state)

        chips = self._chips.pop(row.id, None) if said else None
        screen = TextPromptScreen(
            prompt.title,
            prompt.placeholder,
            submit_label=prompt.submit,
            initial=said,
            error=error,
            reader=reader,
            chips=chips,
        )

        def done(text: str | None) -> None:
            if text:
                self._chips[row.id] = screen.chips()
                self.give(row.id, text, confirmed=screen.confirmed())

        self.app.push_screen(screen, done)

    def _refused(self, row: actions.GameAction, said: str, why: str) -> None:
        if row.prompt is not None:
            self._ask_again(row, said, why)
        else:
            self.app.notify(why, title="Not done", severity="error", markup=False)

    def _thinking(self, row: actions.GameAction) -> str | None:
        """The thinking line while the row's command runs."""
        if row.working:
            return thinking_text(row.working, self.app.snap, self.app.router)
        return row.busy or None

    def issue(
        self,
        command: Issued[object],
        thinking: str | None = None,
        *,
        report: str = "",
        on_refused: Callable[[str], None] | None = None,
    ) -> bool:
        """Run any built command on the session worker, labelled by its name; `report` names the
        handler of its result (`worldforge_tui.reports`)."""
        return self.app.command(
            command.name, command.issue, thinking, report=report, on_refused=on_refused
        )

    def ask(
        self,
        title: str,
        then: Callable[[str], None],
        *,
        placeholder: str = "",
        submit_label: str = "OK",
        initial: str = "",
        error: str = "",
    ) -> None:
        """Ask for a line of text and hand it to `then`; nothing happens on cancel."""

        def done(text: str | None) -> None:
            if text:
                then(text)

        from worldforge_tui.screens.dialogs import TextPromptScreen

        self.app.push_screen(
            TextPromptScreen(
                title, placeholder, submit_label=submit_label, initial=initial, error=error
            ),
            done,
        )

    # ---- memory pane requests ------------------------------------------------------------
    def memory_request(self, message: MemoryPane.ActionRequested) -> None:
        """A memory pane key: its row's command, asked about first where it cannot be undone."""
        from engine.session import commands

        if self.app.session is None:
            self.app.notify("No venture open.", severity="warning")
            return
        if message.action == "what_if":  # only reads the save: a watching window may ask too
            self._what_if(message.ids[0])
            return
        if self.app.session.read_only:
            self.app.notify(
                "This window is watching the venture (read-only): memory commands are made in "
                "the window that holds it.",
                severity="warning",
                markup=False,
            )
            return
        if message.action == "prune":
            self.app.command(
                "prune",
                lambda s: s.memory.prune(game_day=s.state.day, dry_run=True),
                report=actions.BY_ID["memory.prune"].report,
            )
        elif message.action == "consolidate":
            self._consolidate(message.ids)
        elif message.action == "forget_note":
            note = message.ids[0]
            self._forget_if_confirmed(
                f"Forget note {note}? The next brief drops exactly the directions it binds; "
                "every other note stands. This cannot be undone.",
                lambda: commands.ForgetNote.typed(note),
                "memory.forget_note",
            )
        elif message.action == "forget":
            self._forget_if_confirmed(
                "Forget every memory of this venture? Workers lose "
                "all binding direction. This cannot be undone. The venture, its pitch "
                "and its log stay: `worldforge memory forget --run ID` deletes the whole run.",
                commands.ForgetMemories,
                "memory.forget",
            )

    def _forget_if_confirmed(
        self, question: str, command: Callable[[], Issued[object]], row_id: str
    ) -> None:
        """Ask first (a forget cannot be undone; No is the default); on Forget, issue the command
        built then, reported by the handler its row names."""
        from worldforge_tui.screens.dialogs import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.issue(command(), report=actions.BY_ID[row_id].report)

        confirm = ConfirmScreen(question, yes_label="Forget")
        self.app.push_screen(confirm, answered)

    def _what_if(self, note_id: str) -> None:
        """Re-derive each stage the note binds without it (engine.session.without, as `replay
        --without NOTE --stage N` does for one): the result shows in a dialog; nothing is
        recorded."""

        def derive(s: GameSession) -> object:
            from engine.session.without import without_each

            return without_each(s.conn, s.state.run_id, note_id)

        self.app.command(
            "what_if",
            derive,
            "re-deriving the work without this note…",
            report=actions.BY_ID["memory.what_if"].report,
        )

    def _consolidate(self, ids: list[str], initial: str = "", error: str = "") -> None:
        from engine.session import commands

        if len(ids) < 2:
            mark, fold = self.app.key_of("memory.mark"), self.app.key_of("memory.consolidate")
            self.app.notify(
                f"Mark at least two notes with {mark}, then press {fold}.",
                severity="warning",
                markup=False,
            )
            return

        def send(summary: str) -> None:
            try:
                command = commands.Consolidate.typed(ids, summary, "ceo")
            except GameError as err:  # bad input: one clear line, the summary comes back
                self._consolidate(ids, summary, first_line(err))
                return
            self.issue(
                command,
                report=actions.BY_ID["memory.consolidate"].report,
                on_refused=lambda why: self._consolidate(ids, summary, why),
            )

        self.ask(
            f"One reviewed note replacing {len(ids)} notes:",
            send,
            submit_label="Consolidate",
            initial=initial,
            error=error,
        )
