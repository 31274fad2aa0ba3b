"""What the player does at the gate, the fork, the standup and the memory pane, as session commands.

Mixed into the app: each action checks the engine allows it now, asks for text where needed, then
hands one command to the app's session worker (`command`), which reports back by message.
"""

from __future__ import annotations

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

    def gate_reject(self) -> None:
        if not self.can("reject"):
            return

        def done(reason: str | None) -> None:
            if reason:
                self.command(
                    "reject",
                    lambda s: s.reject(reason),
                    thinking_text("is redoing", self.snap, self.router),
                )

        self.push_screen(
            TextPromptScreen(
                "Why reject it? The worker redoes the stage with your reason as binding direction.",
                "e.g. name the customer and cut the jargon",
                submit_label="Reject",
            ),
            done,
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

    def gate_own_answer(self) -> None:
        if not self.can("decide_own"):
            return

        def done(text: str | None) -> None:
            if not text or self.session is None:
                return
            try:  # the reading is shown before it commits (pure: nothing is written)
                view = self.session.interpret_own(text)
            except GameError as err:  # bad input: one clear line, the fork stays open
                self.notify(str(err).splitlines()[0][:200], severity="warning")
                return

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.command(
                        "decide_own",
                        lambda s: s.decide_own(text),
                        "consequence applied · rival moves · the team meets for a standup…",
                    )

            fatal = self.snap.fatal_options.get(view.get("option") or "") if self.snap else None
            warning = f"\n✖ {fatal_text(fatal)}." if fatal else ""
            self.push_screen(
                ConfirmScreen(
                    f"{view['says']}\nWill change: {view['will_change']}.{warning}\n"
                    "Decide this way?",
                    yes_label="Decide",
                ),
                confirmed,
            )

        self.push_screen(
            TextPromptScreen(
                "Your own answer at the fork (read as you mean it; you confirm the reading next):",
                "e.g. partner with local co-ops before raising",
                submit_label="Read it",
            ),
            done,
        )

    def gate_standup_reply(self) -> None:
        if not self.can("standup_reply"):
            return

        def done(text: str | None) -> None:
            if text:
                self.command("standup_reply", lambda s: s.standup_reply(text))

        self.push_screen(
            TextPromptScreen(
                "Reply to the standup (binding for the next brief):", submit_label="Reply"
            ),
            done,
        )

    # ---- memory pane requests ------------------------------------------------------------
    def on_memory_pane_action_requested(self, message: MemoryPane.ActionRequested) -> None:
        if self.session is None:
            self.notify("No venture open.", severity="warning")
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
                ),
                confirmed,
            )

    def _consolidate(self, ids: list[str]) -> None:
        if len(ids) < 2:
            self.notify("Mark at least two notes with space, then press c.", severity="warning")
            return

        def done(summary: str | None) -> None:
            if summary:
                self.command(
                    "consolidate", lambda s: s.consolidate(ids, summary=summary, reviewer="ceo")
                )

        self.push_screen(
            TextPromptScreen(
                f"One reviewed note replacing {len(ids)} notes:", submit_label="Consolidate"
            ),
            done,
        )
