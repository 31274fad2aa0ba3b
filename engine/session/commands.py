"""The player's commands as data: one class each, and the registry every front end reads.

A command is a frozen dataclass holding its input, already validated (`from_said` builds it from
the one line a player typed or the key they pressed and refuses bad input in one line;
`from_record` rebuilds it from the run's inputs as recorded, for replay; `==`, `repr` and the hash
come from `worldforge_savedb.records.FrozenRecord`, as `@dataclass` would write them). Its class says:

- `name` (the capability the snapshot reports and the TUI's action rows name) and `cmd` (how the
  run's inputs record it; the name too, unless the class says otherwise);
- `phases` and `refusal`: where it may run and the one line a front end shows elsewhere
  (`extra` adds any further condition: a redo left, a standup or an event waiting);
- `check`: what a player's input must also pass before anything runs (a rejection reason the
  reader cannot place gets a question, and no redo is spent);
- `preview`: what it will do, in words, for the player to confirm first (an own answer's reading);
- `prepare`: its model work, run before the transaction (a worker's artifact, the standup), typed
  as the command's first parameter (`Command[P, R]`; `PlainCommand[R]` has none);
- `apply`: what it changes, inside the session's one transaction (an `engine.session.steps` or
  `engine.session.memory_commands` step), typed as its result `R`;
- `lead_in`: a command issued first (an unanswered event's default before a stage runs);
- `flag`: the `worldforge simulate` option that gives it in a headless venture, if any, and how
  its values read (the headless driver gives a command from the plan by its name; a player
  command without one is what the driver gives when the plan says nothing: run, approve);
- `finish`: what the session does after the commit (the redo after a rejection, the standup
  after a decision). Replay skips `check` and `finish`: each follow-up is a recorded step.

Defining a subclass with a `cmd` registers it (`REGISTRY`, in definition order), so a new command
is one class here and one action row in the TUI's table (worldforge_tui/actions.py): the
session's `execute` runs it, replay re-issues it from its record, the snapshot's `can` reports
it, the TUI's generic path gives it (its row's key, button and palette entry), `worldforge
simulate` grows its flag and the headless driver gives it where the plan says
(tests/tui/test_new_command.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from engine.errors import GameError, InputError, SaveError
from engine.game.economy import MAX_REDOS
from engine.language.text import MAX_REASON_CHARS, clean_text
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit.numbers import currency, money

if TYPE_CHECKING:
    from typing import Self

    from engine.game.models import Dilemma, GameState, Receipt, StageRun, StandupTurn, WorldEvent
    from engine.language.composition import Repair
    from engine.language.directions import Direction, Source
    from engine.language.steering import Amends, Read
    from engine.language.suggested import Suggestion
    from engine.routing import Router, RouteResult
    from engine.session.steps import MemoryNote, Step
    from engine.views.fork_words import OwnAnswerView
    from knowledge import Knowledge
    from memory.contract import MemoryBackend
    from memory.models import ConsolidationResult, ForgetReport, PruneReport

# This module is light (its steps, workers and memory commands load when a command runs), so a
# front end reads the command list before its first frame without loading the engine.

P = TypeVar("P")  # what a command's model work hands its transaction
R = TypeVar("R")  # what it gives back
R_co = TypeVar("R_co", covariant=True)
Record = dict[str, Any]  # a command as the run's inputs keep it (JSON)

# What to do first, by the phase a venture is in (the tail of a refusal's one line).
NEEDED = {
    "brief": "run the stage first",
    "gate": "approve or reject the artifact first",
    "fork": "choose at the fork first",
}
ENDED = "the venture has ended; start a new one with `n`"


def _ab(choice: object, what: str) -> str:
    """A or B from A/B/1/2, any case; anything else is one line ("choose A or B …")."""
    key = str(choice).strip().upper()
    key = {"1": "A", "2": "B"}.get(key, key)
    if key not in ("A", "B"):
        raise InputError(f"{what} A or B (or 1 or 2), not {str(choice)[:20]!r}")
    return key


def _said(text: str, field: str) -> str:
    return clean_text(text, field=field, max_chars=MAX_REASON_CHARS)


@dataclass(frozen=True, eq=False, repr=False)
class Flag(FrozenRecord):
    """The `worldforge simulate` option that gives a command in a headless venture, and how its
    values read (engine.play.headless.Plan.from_cli):

    - "text": repeatable STAGE:TEXT pairs, what the CEO says when the command's stage comes;
    - "choice": repeatable [STAGE:]A|B, a letter for that stage or (no stage) for every one;
    - "path": one value, a letter per fork in stage order (one letter for every fork), what the
      command says wherever nothing else is planned.
    """

    option: str  # "--reject"
    metavar: str
    help: str
    form: Literal["text", "choice", "path"] = "text"
    default: str | None = None  # a "path" option's value when it is not given
    most: int = 1  # how many values one stage may have

    @property
    def dest(self) -> str:
        """The option's attribute on parsed arguments ("--reject" -> "reject")."""
        return self.option.lstrip("-").replace("-", "_")


@dataclass(frozen=True, eq=False, repr=False)
class Preview(FrozenRecord):
    """What a command will do, in words, shown for the player to confirm before it commits."""

    verb: str  # what confirming does ("decide")
    says: str
    will_change: str
    option: str | None = None  # the fork option it reads as (the option card marks a fatal one)
    unread: tuple[str, ...] = ()  # the parts of what was said that bind nothing, as said
    why: tuple[str, ...] = ()  # each unread part's teach-back (why it binds nothing), "" if none


class Host(Protocol):
    """What a command uses of the session that runs it (engine.session.api.GameSession is one):
    the commands sit below the session that executes them, never beside it in a circle."""

    state: GameState
    router: Router
    memory: MemoryBackend
    knowledge: Knowledge
    explore: bool

    def execute(self, command: Command[P, R], *, replaying: bool = False) -> R: ...


class Issued(Protocol[R_co]):
    """Any command, built: what a lead-in, a replayed record and a front end hold."""

    @property
    def name(self) -> str: ...

    def record(self) -> Record: ...

    def preview(self, state: GameState) -> Preview | None: ...

    def issue(self, session: Host, *, replaying: bool = False) -> R_co: ...


class Kind(Protocol[R_co]):
    """A command class as the registry lists it (what the snapshot, the CLI and the TUI read)."""

    @property
    def name(self) -> str: ...

    @property
    def cmd(self) -> str: ...

    @property
    def phases(self) -> tuple[str, ...] | None: ...

    @property
    def flag(self) -> Flag | None: ...

    def allowed(self, state: GameState) -> bool: ...

    def refuse(self, state: GameState) -> None: ...

    def from_said(self, said: str) -> Issued[R_co]: ...

    def from_record(self, record: Record) -> Issued[R_co]: ...


# Every command class by `cmd`, in the order the classes are defined (simulate's --help lists
# their options in it). Filled by `Command.__init_subclass__`.
REGISTRY: dict[str, Kind[object]] = {}


@dataclass(frozen=True, eq=False, repr=False)
class Command(FrozenRecord, ABC, Generic[P, R]):
    """One player command (subclasses set the class variables, `prepare` and `apply`)."""

    name: ClassVar[str]  # unset: the same as `cmd`
    cmd: ClassVar[str]
    verb: ClassVar[str] = ""  # "cannot {verb} now: …"
    phases: ClassVar[tuple[str, ...] | None] = None  # None: any phase, the ended one too
    flag: ClassVar[Flag | None] = None
    # The one line, in any phase, of a command that answers something waiting (a standup, an
    # event) when nothing is waiting for it; None: the phase's own line
    nothing_waiting: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "cmd" in cls.__dict__:  # a concrete command (the abstract bases name none)
            cls.name = cls.__dict__.get("name", cls.cmd)
            REGISTRY[cls.cmd] = cls

    @classmethod
    def extra(cls, state: GameState) -> bool:
        """A condition beyond the phase (a redo left, something waiting for an answer)."""
        return True

    @classmethod
    def refusal(cls, state: GameState) -> str:
        """The line when `extra` fails."""
        return f"cannot {cls.verb} now"

    @classmethod
    def allowed(cls, state: GameState) -> bool:
        """Whether the command may run now: what the snapshot's `can` reports."""
        return (cls.phases is None or state.phase in cls.phases) and cls.extra(state)

    @classmethod
    def refuse(cls, state: GameState) -> None:
        """Raise the one line a front end shows when the command may not run now."""
        if cls.nothing_waiting is not None and not cls.allowed(state):
            raise GameError(cls.nothing_waiting)
        if cls.phases is not None and state.phase not in cls.phases:
            if state.phase == "ended":
                raise GameError(ENDED)
            raise GameError(f"cannot {cls.verb} now: {NEEDED.get(state.phase, state.phase)}")
        if not cls.extra(state):
            raise GameError(cls.refusal(state))

    @classmethod
    def from_said(cls, said: str) -> Self:
        """The command from the one line a player typed or the key they pressed ("" for none);
        a command that takes no input ignores it. Bad input is one line (InputError)."""
        return cls()

    @classmethod
    def from_record(cls, record: Record) -> Self:
        return cls(**{k: v for k, v in record.items() if k != "cmd"})

    def lead_in(self, state: GameState) -> Issued[object] | None:
        return None

    def when_ended(self) -> R:
        """Its result when its lead-in ended the venture (a command with a lead-in says it)."""
        raise GameError(ENDED)

    def check(self, state: GameState) -> None:
        """Refuse a player's input that passes the phase but cannot be carried out (live only)."""

    def preview(self, state: GameState) -> Preview | None:
        """What it will do, for the player to confirm first (None: nothing to confirm)."""
        return None

    @abstractmethod
    def prepare(self, session: Host) -> P:
        """The model work, before the transaction."""

    @abstractmethod
    def apply(self, step: Step, prepared: P) -> R:
        """What the command changes, inside the transaction (every command says its own)."""

    def finish(self, session: Host, result: R) -> R:
        """After the commit (live only): a follow-up command, or tidying; returns the result."""
        return result

    def record(self) -> Record:
        """The command as the run's inputs keep it (and as replay re-issues it)."""
        return {"cmd": self.cmd, **asdict(self)}

    def issue(self, session: Host, *, replaying: bool = False) -> R:
        """Run it on the session (`GameSession.execute`)."""
        return session.execute(self, replaying=replaying)


@dataclass(frozen=True, eq=False, repr=False)
class PlainCommand(Command[None, R]):
    """A command without model work: all it does is inside the transaction."""

    def prepare(self, session: Host) -> None:
        return None


@dataclass(frozen=True, eq=False, repr=False)
class Worded(PlainCommand[R]):
    """A command of words that bind (a rejection reason, an own answer, a standup reply): what
    they read as is shown first, and what binds is the reading as the player amended it
    (engine.language.steering.Amends), recorded with the command so replay binds the same
    without asking anyone:
    - `suggested`: with a model tier configured, a model's placements of the words' unread parts
      (`suggest`, engine.workers.suggest), shown in the preview marked with the model and bound
      only when the player confirms the command;
    - `confirmed`: the directions the player confirmed after correcting the reading (a chip's
      axis changed, its do / don't flipped, one dropped); they bind instead of the reading's
      (None: the reading binds as read).
    Recorded as before when it carries neither."""

    suggested: tuple[Suggestion, ...] = field(default=(), kw_only=True)
    confirmed: list[dict[str, Any]] | None = field(default=None, kw_only=True)
    source: ClassVar[Source]

    @property
    @abstractmethod
    def said(self) -> str:
        """The player's words."""

    @property
    def amends(self) -> Amends:
        """What the player added to the reading: confirmed suggestions, corrections."""
        from engine.language.steering import Amends

        return Amends(suggested=self.suggested, confirmed=self.confirmed)

    @abstractmethod
    def read(self, state: GameState) -> Read:
        """The words read into the directions they bind now (as amended)."""

    def corrected(self, directions: list[Direction]) -> Self:
        """The same words with the directions the player confirmed (one line if one is bad)."""
        from engine.language.steering import checked

        raw = [d.to_dict(leave_out=("source", "stage", "said", "memory_id")) for d in directions]
        checked(raw)
        return replace(self, confirmed=raw)

    def suggest(self, session: Host) -> tuple[Self, str]:
        """The command with a model's suggestions for its unread parts, and the one line that
        says what was suggested or why nothing was ("" when no model was asked)."""
        from engine.language.reader.read import read_text
        from engine.workers.suggest import offer

        stage = session.state.stage
        got = offer(
            session.router,
            read_text(self.said, source=self.source, period="month"),
            role=stage.owner_role if stage is not None else "strategist",
            call_key=f"{stage.id if stage is not None else 'venture'}/suggest",
            placed=self.placed,
        )
        return replace(self, suggested=got.suggestions), got.line

    def placed(self, words: str) -> bool:
        """Whether something besides the reader places these unread words (never offered)."""
        return False

    @classmethod
    def from_record(cls, record: Record) -> Self:
        from engine.language.suggested import Suggestion

        raw = record.get("suggested") or []
        try:
            suggested = tuple(Suggestion.from_dict(x) for x in raw)
        except ValueError as err:
            raise SaveError(f"a recorded {cls.cmd}: {err}") from None
        rest = {k: v for k, v in record.items() if k not in ("cmd", "suggested")}
        return cls(**rest, suggested=suggested)

    def record(self) -> Record:
        amended = ("suggested", "confirmed")
        out = {"cmd": self.cmd, **{k: v for k, v in asdict(self).items() if k not in amended}}
        if self.suggested:
            out["suggested"] = [x.to_dict() for x in self.suggested]
        if self.confirmed is not None:
            out["confirmed"] = self.confirmed
        return out


# ---------------------------------------------------------------------------- the stage
@dataclass(frozen=True, eq=False, repr=False)
class RunStage(Command["tuple[StageRun, RouteResult]", "StageRun | None"]):
    """The stage's worker runs: its model call first, then one transaction to keep the work (None
    when the waiting event's default, taken first, ended the venture)."""

    cmd: ClassVar[str] = "run_stage"
    verb: ClassVar[str] = "run the stage"
    phases: ClassVar[tuple[str, ...] | None] = ("brief",)

    def lead_in(self, state: GameState) -> Issued[object] | None:
        ev = state.pending_event
        return AnswerEvent(ev.default or "A", by_default=True) if ev is not None else None

    def when_ended(self) -> None:
        return None

    def prepare(self, session: Host) -> tuple[StageRun, RouteResult]:
        from engine.workers.agents import run_worker

        st = session.state
        stage = st.stage
        assert stage is not None
        return run_worker(
            st,
            stage,
            attempt=stage.redos + 1,
            router=session.router,
            memory=session.memory,
            knowledge=session.knowledge,
            directive=st.directive,
        )

    def apply(self, step: Step, prepared: tuple[StageRun, RouteResult]) -> StageRun:
        from engine.session import steps

        run, result = prepared
        return steps.record_run(step, run, result)


@dataclass(frozen=True, eq=False, repr=False)
class Approve(PlainCommand["Dilemma"]):
    """The CEO approves the artifact at the gate; the fork opens."""

    cmd: ClassVar[str] = "approve"
    verb: ClassVar[str] = "approve"
    phases: ClassVar[tuple[str, ...] | None] = ("gate",)

    def apply(self, step: Step, prepared: None) -> Dilemma:
        from engine.session import steps

        return steps.approve(step)


# ---------------------------------------------------------------------------- the fork
@dataclass(frozen=True, eq=False, repr=False)
class Decide(PlainCommand["Receipt"]):
    """One of the fork's two options; the standup follows."""

    choice: str
    cmd: ClassVar[str] = "decide"
    verb: ClassVar[str] = "decide"
    phases: ClassVar[tuple[str, ...] | None] = ("fork",)
    flag: ClassVar[Flag | None] = Flag(
        "--choose",
        "PATH",
        "A/B per fork in stage order (one letter = every fork)",
        form="path",
        default="A",
    )

    @classmethod
    def from_said(cls, said: str) -> Self:
        return cls(_ab(said, "choose"))

    def apply(self, step: Step, prepared: None) -> Receipt:
        from engine.session import steps

        return steps.decide(step, self.choice, None)

    def finish(self, session: Host, result: Receipt) -> Receipt:
        return _standup_after(session, result)


@dataclass(frozen=True, eq=False, repr=False)
class Reject(Worded["StageRun | None"]):
    """A rejection with a reason: binding memory, and the worker redoes the stage at once (its
    result is the redo's work, None when the redo's days ended the venture)."""

    reason: str
    cmd: ClassVar[str] = "reject"
    verb: ClassVar[str] = "reject"
    source: ClassVar[Source] = "rejection"
    phases: ClassVar[tuple[str, ...] | None] = ("gate",)
    flag: ClassVar[Flag | None] = Flag(
        "--reject",
        "STAGE:REASON",
        "reject a stage's artifact with a reason (repeatable)",
        most=MAX_REDOS,
    )

    @classmethod
    def from_said(cls, said: str) -> Self:
        return cls(reason=_said(said, "reason"))

    def read(self, state: GameState) -> Read:
        from engine.game.said import read_rejection

        return read_rejection(state, self.reason, self.amends)

    @classmethod
    def extra(cls, state: GameState) -> bool:
        return state.stage is not None and state.stage.redos < MAX_REDOS

    @classmethod
    def refusal(cls, state: GameState) -> str:
        beat = state.stage.beat if state.stage is not None else "this stage"
        return f"no redos left for {beat} ({MAX_REDOS} used): approve it to go on"

    @property
    def said(self) -> str:
        return self.reason

    def check(self, state: GameState) -> None:
        read = self.read(state)
        if not read.directions or "price_amount" in read.unclear:  # one honest question; no
            assert state.stage is not None  # redo is spent (a price it cannot read: never guessed)
            raise InputError(question(read, state.stage.owner_role, state.stage.beat))
        refuse_free_price(read)

    def preview(self, state: GameState) -> Preview | None:
        """Confirmed first only when part of the reason binds nothing ("… and hire a barista"):
        the player sees what binds and what does not, and can say it again (None otherwise)."""
        self.check(state)
        read = self.read(state)
        return unread_preview(
            state, self.verb, read.unread, _binds(read.directions), self.suggested, _why(read)
        ) or conflict_preview(state, self.verb, read.directions)

    def apply(self, step: Step, prepared: None) -> None:
        from engine.session import steps

        steps.reject(step, self.reason, self.amends)

    def finish(self, session: Host, result: StageRun | None) -> StageRun | None:
        if session.state.phase == "ended":  # the redo's days can end the venture (a defeat)
            return None
        return session.execute(RunStage())


@dataclass(frozen=True, eq=False, repr=False)
class DecideOwn(Worded["Receipt"]):
    """The fork answered in the CEO's own words (read as a person means them)."""

    text: str
    cmd: ClassVar[str] = "decide_own"
    verb: ClassVar[str] = "decide"
    source: ClassVar[Source] = "own"
    phases: ClassVar[tuple[str, ...] | None] = ("fork",)
    flag: ClassVar[Flag | None] = Flag(
        "--own", "STAGE:TEXT", "answer a stage's fork in your own words"
    )

    @classmethod
    def from_said(cls, said: str) -> Self:
        return cls(text=_said(said, "own answer"))

    def read(self, state: GameState) -> Read:
        """The words' own directions (what the chips show; they override the option's content),
        and what is unread of them, read once against the fork: "go with the 2nd one" picks an
        option, so it is no unread part."""
        from engine.game.said import own_directions

        return own_directions(state, self.text, self.amends)

    def reading(self, state: GameState) -> OwnAnswerView:
        """How the words read (rule, niche, what they will change, the binding lines), without
        deciding: pure, nothing is written."""
        return self._reading(state)[0]

    def _reading(self, state: GameState) -> tuple[OwnAnswerView, list[Direction]]:
        from engine.session import steps

        _reading, _rule_id, view, binds = steps.read_own_answer(state, self.text, self.amends)
        view["binding"] = _binds(binds)
        return view, binds

    @property
    def said(self) -> str:
        return self.text

    def check(self, state: GameState) -> None:
        ask_unread_price(state, self.text, "own")
        refuse_free_price(self.read(state))

    def preview(self, state: GameState) -> Preview | None:
        """How the words read and what they will change (with what a model suggested, when one
        did); and, as at the reject and standup confirms, what they would conflict with across
        axes in what binds now, with the smallest fix (engine.language.composition), before
        anything binds."""
        from engine.language.suggested import confirm_line

        self.check(state)  # asked before the reading is shown, not after it is confirmed
        view, binds = self._reading(state)
        says = f"{view['says']} {confirm_line(self.suggested)}" if self.suggested else view["says"]
        fix = binding_conflicts(state, binds)
        says = f"{says}\n⚠ {fix.line}" if fix.conflicts else says
        return Preview(self.verb, says, view["will_change"], view["option"])

    def apply(self, step: Step, prepared: None) -> Receipt:
        from engine.session import steps

        return steps.decide(step, "own", self.text, self.amends)

    def finish(self, session: Host, result: Receipt) -> Receipt:
        return _standup_after(session, result)


def _standup_after(session: Host, receipt: Receipt) -> Receipt:
    """After a decision the standup runs (unless the decision ended the venture). An exploring
    session (balance) skips it: nothing the outcome reads comes from the standup's lines."""
    if Standup.allowed(session.state) and not session.explore:
        session.execute(Standup())
    return receipt


@dataclass(frozen=True, eq=False, repr=False)
class StandupReply(Worded["MemoryNote"]):
    """The CEO's reply at the standup: it binds the next stage's work."""

    text: str
    cmd: ClassVar[str] = "standup_reply"
    source: ClassVar[Source] = "standup"
    phases: ClassVar[tuple[str, ...] | None] = ("brief",)
    flag: ClassVar[Flag | None] = Flag(
        "--reply",
        "STAGE:TEXT",
        "reply at the standup after STAGE's fork (binds the next stage's work)",
    )

    @classmethod
    def from_said(cls, said: str) -> Self:
        return cls(text=_said(said, "reply"))

    def read(self, state: GameState) -> Read:
        from engine.game.said import read_reply

        return read_reply(state, self.text, self.amends)

    nothing_waiting: ClassVar[str | None] = "there is no standup waiting for a reply"

    @classmethod
    def extra(cls, state: GameState) -> bool:
        return bool(state.standup) and not state.standup_answered

    @property
    def said(self) -> str:
        return self.text

    def placed(self, words: str) -> bool:
        """A standing order ("freeze hiring") binds as an order: never offered to a model."""
        from engine.game.orders import read_orders

        return bool(read_orders(words))

    def check(self, state: GameState) -> None:
        ask_unread_price(state, self.text, "standup")
        refuse_free_price(self.read(state))

    def preview(self, state: GameState) -> Preview | None:
        """Confirmed first only when part of the reply binds nothing (a direction or a standing
        order: "freeze hiring") or a model suggested a placement; None otherwise."""
        from engine.game.orders import read_orders

        self.check(state)
        read = self.read(state)
        binds = _binds(read.directions) + [
            f"{o['label'].split(' (')[0].lower()} at the next fork" for o in read_orders(self.text)
        ]
        missed = [part for part in read.unread if not read_orders(part)]  # "freeze hiring" binds
        return unread_preview(
            state, "reply", missed, binds, self.suggested, _why(read)
        ) or conflict_preview(state, "reply", read.directions)

    def apply(self, step: Step, prepared: None) -> MemoryNote:
        from engine.session import steps

        return steps.standup_reply(step, self.text, self.amends)


@dataclass(frozen=True, eq=False, repr=False)
class AnswerEvent(PlainCommand["WorldEvent"]):
    """The small choice of the event waiting between stages (A/B or 1/2)."""

    choice: str
    by_default: bool = False
    name: ClassVar[str] = "answer_event"
    cmd: ClassVar[str] = "event"
    phases: ClassVar[tuple[str, ...] | None] = ("brief",)
    flag: ClassVar[Flag | None] = Flag(
        "--event",
        "[STAGE:]A|B",
        "answer the small choice of the event after STAGE (or of every event); "
        "unanswered events take their default",
        form="choice",
    )

    @classmethod
    def from_said(cls, said: str) -> Self:
        return cls(_ab(said, "answer the event with"))

    nothing_waiting: ClassVar[str | None] = "there is no event waiting for an answer"

    @classmethod
    def extra(cls, state: GameState) -> bool:
        return state.pending_event is not None

    def apply(self, step: Step, prepared: None) -> WorldEvent:
        from engine.session import steps

        return steps.answer_event(step, self.choice, by_default=self.by_default)


@dataclass(frozen=True, eq=False, repr=False)
class Standup(Command["tuple[list[StandupTurn], list[RouteResult]]", None]):
    """Three workers react to the decision (their own model calls), then it is kept."""

    cmd: ClassVar[str] = "standup"
    verb: ClassVar[str] = "hold the standup"

    @classmethod
    def extra(cls, state: GameState) -> bool:
        return state.phase != "ended" and bool(state.receipts)

    def prepare(self, session: Host) -> tuple[list[StandupTurn], list[RouteResult]]:
        from engine.workers.standup import run_standup

        return run_standup(
            session.state,
            session.state.receipts[-1],
            router=session.router,
            memory=session.memory,
            knowledge=session.knowledge,
        )

    def apply(self, step: Step, prepared: tuple[list[StandupTurn], list[RouteResult]]) -> None:
        from engine.session import steps

        turns, results = prepared
        steps.record_standup(step, turns, results)


@dataclass(frozen=True, eq=False, repr=False)
class RoutingChanged(PlainCommand[None]):
    """A routing change, noted in the run's log (modes and labels only, never a secret). Not a
    player command of the game (it has no phase): the settings screen gives it after the router
    took the new settings, so replay shows where each later call was sent."""

    demo_mode: str
    agent_routing: str
    runtime: str
    pill: str
    cmd: ClassVar[str] = "settings"

    @classmethod
    def of(cls, router: Router) -> Self:
        """The change as `router` routes now (after `Router.update_settings`)."""
        s = router.settings
        return cls(s.demo_mode, s.agent_routing, router.runtime_label(), router.pill())

    def apply(self, step: Step, prepared: None) -> None:
        from engine.session import steps

        steps.settings_changed(step, asdict(self))


# ---------------------------------------------------------------------------- memory
@dataclass(frozen=True, eq=False, repr=False)
class Consolidate(PlainCommand["ConsolidationResult"]):
    """Fold notes into one reviewed semantic note."""

    sources: list[str]
    summary: str
    reviewer: str
    cmd: ClassVar[str] = "consolidate"

    @classmethod
    def typed(cls, source_ids: list[str], summary: str, reviewer: str) -> Consolidate:
        return cls(
            sorted(set(source_ids)),
            _said(summary, "summary"),
            clean_text(reviewer, field="reviewer", max_chars=64),
        )

    def apply(self, step: Step, prepared: None) -> ConsolidationResult:
        from engine.session import memory_commands

        return memory_commands.consolidate(step, list(self.sources), self.summary, self.reviewer)


@dataclass(frozen=True, eq=False, repr=False)
class Prune(PlainCommand["PruneReport"]):
    """Apply the retention rule at today's game date."""

    cmd: ClassVar[str] = "prune"

    def apply(self, step: Step, prepared: None) -> PruneReport:
        from engine.session import memory_commands

        return memory_commands.prune(step)


@dataclass(frozen=True, eq=False, repr=False)
class ForgetMemories(PlainCommand["ForgetReport"]):
    """Delete every memory of the run; the game goes on without its binding direction."""

    cmd: ClassVar[str] = "forget_memories"

    def apply(self, step: Step, prepared: None) -> ForgetReport:
        from engine.session import memory_commands

        return memory_commands.forget_memories(step)

    def finish(self, session: Host, result: ForgetReport) -> ForgetReport:
        result.compacted = session.memory.compact()
        return result


@dataclass(frozen=True, eq=False, repr=False)
class ForgetNote(PlainCommand["ForgetReport"]):
    """Delete one note of the run; the next brief drops exactly its directions."""

    memory_id: str
    cmd: ClassVar[str] = "forget_note"

    @classmethod
    def typed(cls, memory_id: str) -> ForgetNote:
        return cls(clean_text(memory_id, field="note id", max_chars=64))

    def apply(self, step: Step, prepared: None) -> ForgetReport:
        from engine.session import memory_commands

        return memory_commands.forget_note(step, self.memory_id)

    def finish(self, session: Host, result: ForgetReport) -> ForgetReport:
        result.compacted = session.memory.compact()
        return result


def player() -> tuple[Kind[object], ...]:
    """The commands a player gives at the gate, the fork and between stages, each in one phase:
    the snapshot reports whether each may run now, and the TUI's action rows name one each."""
    return tuple(c for c in REGISTRY.values() if c.phases is not None)


def flags() -> dict[str, Flag]:
    """The `worldforge simulate` options, by the name of the player command each gives."""
    return {c.name: c.flag for c in player() if c.flag is not None}


def named(name: str) -> Kind[object] | None:
    """The command class called `name` (the snapshot's and the action rows' word), if any."""
    return next((c for c in REGISTRY.values() if c.name == name), None)


def phase_of(name: str) -> str | None:
    """The phase a player command belongs to (None for any other name)."""
    kind = named(name)
    return kind.phases[0] if kind is not None and kind.phases else None


def from_record(record: Record) -> Issued[object]:
    """The recorded command, rebuilt for replay (one line for a command this build does not know)."""
    kind = REGISTRY.get(str(record.get("cmd")))
    if kind is None:
        raise SaveError(f"unknown recorded command {str(record.get('cmd'))[:40]!r}")
    return kind.from_record(record)


def can(state: GameState, name: str) -> bool:
    """Whether the command called `name` may run now (False for a name that is not a command)."""
    kind = named(name)
    return kind is not None and kind.allowed(state)


def unread_preview(
    state: GameState,
    verb: str,
    missed: list[str],
    binds: list[str],
    suggested: tuple[Suggestion, ...] = (),
    why: Mapping[str, str] | None = None,
) -> Preview | None:
    """The confirmation of words part of which binds nothing (the reading's unread parts), or
    part of which a model suggested placing: what binds (a suggestion marked with its model,
    bound only if the player confirms) and what does not, with why each part binds nothing (its
    teach-back, from `why` by its words), and what the stage's work can be told instead (None:
    all of it binds as the reader read it)."""
    from engine.language.grammar import join_prose
    from worldforge_textkit import clip

    if not (missed or suggested) or state.stage is None:
        return None
    from engine.language.suggested import confirm_line

    says = [confirm_line(suggested)] if suggested else []
    if missed:
        quoted = join_prose([f"“{clip(m, 80)}”" for m in missed[:3]])
        says.append(
            f"Binds nothing: {quoted}. The gate checks only what binds; the "
            f"{state.stage.beat} work can change {can_change(state.stage.owner_role)}."
        )
    return Preview(
        verb,
        " ".join(says),
        "; ".join(binds) or "nothing the gate checks",
        unread=tuple(missed),
        why=tuple((why or {}).get(m, "") for m in missed),
    )


def _why(read: Read) -> dict[str, str]:
    """Each unread part's teach-back by its words (the reading's typed reason, in words)."""
    return {p.words: p.teach_back for p in read.parts if p.teach_back}


def _binds(directions: list[Direction]) -> list[str]:
    """What directions bind, in words; one a model suggested says so ("… (suggested by …)")."""
    from engine.language.suggested import line_of

    return [line_of(d) for d in directions]


def binding_conflicts(state: GameState, new: list[Direction]) -> Repair:
    """What `new` words would conflict with across axes in what binds now (an audience that is
    also left out, a channel an exclusion names, a price under a floor the CEO set), each as its
    minimal conflicting set, with the smallest fix for them all (engine.language.composition)."""
    from engine.language.composition import Repair, repair
    from engine.language.directions import Direction

    bound = [Direction.from_dict(x) for x in (state.current.binding if state.current else [])]
    whole = repair([*bound, *new])
    said = {d.line() for d in new}
    found = tuple(c for c in whole.conflicts if said & set(c.directions))
    if not found:
        return Repair(conflicts=(), drop=())
    return repair([d for d in [*bound, *new] if any(d.line() in c.directions for c in found)])


def conflict_preview(state: GameState, verb: str, new: list[Direction]) -> Preview | None:
    """The confirmation of words that conflict across axes with what binds now: each minimal
    conflicting set with its fix, and the smallest fix for all of them; None when there is none."""
    fix = binding_conflicts(state, new)
    if not fix.conflicts:
        return None
    return Preview(verb, fix.line, "; ".join(d.line() for d in new))


def ask_unread_price(state: GameState, text: str, source: Source) -> None:
    """A standup reply or an own answer that names money the reader cannot parse ("twelve-ish
    dollars") is asked about, never guessed and never dropped: one question, nothing recorded."""
    from engine.language.steering import read_directions

    read = read_directions(text, source=source)
    if "price_amount" in read.unclear and state.stage is not None:
        raise InputError(question(read, state.stage.owner_role, state.stage.beat))


def refuse_free_price(read: Read) -> None:
    """A price the books cannot charge ("£0 a month", free, under the lowest a month) is refused
    in one line before it binds, nothing recorded: revenue comes from market share and the price
    divides it into paying customers, so a free price is no price the work or the books can hold
    (the economy never charges it, and work stating it would plan revenue it cannot have)."""
    from engine.game.pricing import PRICE, charge

    lowest = PRICE["lowest"]
    for d in read.directions:
        if d.axis == "price" and d.do and d.amount is not None and charge(d) < lowest:
            raise InputError(
                f"“{d.line()}” cannot bind: customers pay at least {money(lowest)} a month in "
                f"these books, so the work keeps the price in force; name {money(lowest)} or more"
            )


# What each role's work can be told to change (a question names it; so does a preview), its
# example prices written in the books' currency when asked.
CAN_CHANGE = {
    "strategist": "its price (“{p29} a month”), audience (“speak to …”), a channel, the "
    "launch week, a name, claims to drop, the tone",
    "designer": "its price (“{p29} a month”), audience, launch week, features in scope, "
    "a name, claims to drop, the tone",
    "marketer": "its price, audience, channels, launch week, a number such as the churn "
    "target or burn, claims to drop, the tone",
    "ops": "its price, the support channel, the launch week, a number such as the churn "
    "target or breakeven month, claims to drop",
}


def question(read: Read, role: str, beat: str) -> str:
    """The one question a rejection the reader cannot place gets (nothing is spent)."""
    if read.in_books:
        return (
            f"Which price should the {beat} work state? The books are kept in "
            f"{currency().name}: say “{read.in_books}”."
        )
    if "price_amount" in read.unclear:
        return (
            f"Which price should the {beat} work state? The reader cannot tell an amount from "
            f"that: write it with figures, e.g. “{money(12)} a meal” or “under {money(30)} a month”."
        )
    if "price" in read.unclear:
        return (
            f"Which price should the {beat} work state? Name it, e.g. “{money(29)} a month” or "
            f"“under {money(30)} a month”, or say “lower the price”."
        )
    return (
        f"What should change? The {beat} work can change {can_change(role)}. Say which, concretely."
    )


def can_change(role: str) -> str:
    """What `role`'s work can be told to change, its example price in the books' currency."""
    return CAN_CHANGE[role].format(p29=money(29))
