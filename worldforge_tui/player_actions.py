"""What the player does at the gate, the fork, the standup and the memory pane, as session commands.

Mixed into the app: each action checks the engine allows it now, asks for text where needed, then
hands one command to the app's session worker (`command`), which reports back by message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import GameError
from worldforge_tui.glossary import fatal_text
from worldforge_tui.host import AppHost
from worldforge_tui.screens.dialogs import ConfirmScreen, TextPromptScreen
from worldforge_tui.widgets.action_bar import thinking_text
from worldforge_tui.widgets.memory_pane import MemoryPane


class PlayerActions(AppHost):
    """Gate, fork, standup and memory actions, each one session command."""

    def gate_run_stage(self) -> None:
        if self.can("run_stage"):
            self.command(
                "run_stage",
                lambda s: s.run_stage(),
                thinking_text("is working on", self.snap, self.router),
            )

    def gate_approve(self) -> None:
        if self.can("approve"):
            self.command("approve", lambda s: s.approve(), "the narrator poses the fork…")

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

        self.push_screen(
            TextPromptScreen(
                title, placeholder, submit_label=submit_label, initial=initial, error=error
            ),
            done,
        )

    def gate_reject(self, initial: str = "", error: str = "") -> None:
        if not self.can("reject"):
            return

        def send(reason: str) -> None:
            self.command(
                "reject",
                lambda s: s.reject(reason),
                thinking_text("is redoing", self.snap, self.router),
                on_refused=lambda why: self.gate_reject(reason, why),  # the reason comes back
            )

        self.ask(
            "Why reject it? The worker redoes the stage with your reason as binding direction.",
            send,
            placeholder="e.g. name the customer and cut the jargon",
            submit_label="Reject",
            initial=initial,
            error=error,
        )

    def gate_decide(self, key: str) -> None:
        if self.can("decide"):
            self.command(
                "decide",
                lambda s: s.decide(key),
                "consequence applied · rival moves · the team meets for a standup…",
            )

    def gate_answer_event(self, key: str) -> None:
        if self.can("answer_event"):
            self.command("answer_event", lambda s: s.answer_event(key))

    def gate_own_answer(self, initial: str = "", error: str = "") -> None:
        if not self.can("decide_own"):
            return

        def read(text: str) -> None:
            if self.session is None:
                return
            try:  # the reading is shown before it commits (pure: nothing is written)
                view = self.session.interpret_own(text)
            except GameError as err:  # bad input: one clear line, the text comes back
                self.gate_own_answer(text, str(err).splitlines()[0][:200])
                return

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.command(
                        "decide_own",
                        lambda s: s.decide_own(text),
                        "consequence applied · rival moves · the team meets for a standup…",
                        on_refused=lambda why: self.gate_own_answer(text, why),
                    )
                else:  # "no" goes back to the words, to change them
                    self.gate_own_answer(text)

            fatal = self.snap.fatal_options.get(view.get("option") or "") if self.snap else None
            warning = f"\n✖ {fatal_text(fatal)}." if fatal else ""
            self.push_screen(
                ConfirmScreen(
                    f"{view['says']}\nWill change: {view['will_change']}.{warning}\n"
                    "Decide this way?",
                    yes_label="Decide",
                    default=not fatal,  # Enter decides, unless the reading ends the run
                    key_of=self.key_of,
                ),
                confirmed,
            )

        self.ask(
            "Your own answer at the fork (read as you mean it; you confirm the reading next):",
            read,
            placeholder="e.g. partner with local co-ops before raising",
            submit_label="Read it",
            initial=initial,
            error=error,
        )

    def gate_standup_reply(self, initial: str = "", error: str = "") -> None:
        if not self.can("standup_reply"):
            return

        def send(text: str) -> None:
            self.command(
                "standup_reply",
                lambda s: s.standup_reply(text),
                on_refused=lambda why: self.gate_standup_reply(text, why),
            )

        self.ask(
            "Reply to the standup (binding for the next brief):",
            send,
            submit_label="Reply",
            initial=initial,
            error=error,
        )

    # ---- memory pane requests ------------------------------------------------------------
    def on_memory_pane_action_requested(self, message: MemoryPane.ActionRequested) -> None:
        if self.session is None:
            self.notify("No venture open.", severity="warning")
            return
        if message.action == "what_if":  # only reads the save: a watching window may ask too
            self._what_if(message.ids[0])
            return
        if self.session.read_only:
            self.notify(
                "This window is watching the venture (read-only): memory commands are made in "
                "the window that holds it.",
                severity="warning",
                markup=False,
            )
            return
        if message.action == "prune":
            self.command("prune", lambda s: s.memory.prune(game_day=s.state.day, dry_run=True))
        elif message.action == "consolidate":
            self._consolidate(message.ids)
        elif message.action == "forget":

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.command("forget", lambda s: s.forget_memories())

            self.push_screen(
                ConfirmScreen(
                    "Forget every memory of this venture? Workers lose "
                    "all binding direction. This cannot be undone. The venture, its pitch "
                    "and its log stay: `worldforge memory forget --run ID` deletes the whole run.",
                    yes_label="Forget",
                    key_of=self.key_of,
                ),
                confirmed,
            )

    def _what_if(self, note_id: str) -> None:
        """Re-derive each stage the note binds without it (engine.session.without, as `replay
        --without NOTE --stage N` does for one): the result shows in a dialog; nothing is
        recorded."""

        def derive(s: Any) -> Any:
            from engine.session.without import without_each

            return without_each(s.conn, s.state.run_id, note_id)

        self.command("what_if", derive, "re-deriving the work without this note…")

    def _consolidate(self, ids: list[str], initial: str = "", error: str = "") -> None:
        if len(ids) < 2:
            mark, fold = self.key_of("memory.mark"), self.key_of("memory.consolidate")
            self.notify(
                f"Mark at least two notes with {mark}, then press {fold}.",
                severity="warning",
                markup=False,
            )
            return

        def send(summary: str) -> None:
            self.command(
                "consolidate",
                lambda s: s.consolidate(ids, summary=summary, reviewer="ceo"),
                on_refused=lambda why: self._consolidate(ids, summary, why),
            )

        self.ask(
            f"One reviewed note replacing {len(ids)} notes:",
            send,
            submit_label="Consolidate",
            initial=initial,
            error=error,
        )
