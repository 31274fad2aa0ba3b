"""Live writing: a worker's model call shown as it streams, and Esc to cancel it.

The router calls its watcher on the session's worker thread for every streamed piece. The watcher
only queues the event and, when none is pending, posts one `LiveTick` message; the UI thread folds
everything queued into the live view and the story's live section builds its text once for all of
it, repainting only the lines that changed (pieces that come while the screen is busy cost one
build together), so a piece waits for no timer but the next frame and never lays the board out.
The app owns one `LiveFeed` and hands it each `LiveTick`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textual.content import Content
from textual.message import Message

from worldforge_textkit.scrub import may_show_open_word, scrub
from worldforge_tui.text.safe_text import one_line
from worldforge_tui.widgets.action_bar import ActionBar
from worldforge_tui.widgets.story_pane import Part, StoryPane, artifact_parts

if TYPE_CHECKING:
    from engine.routing import Router
    from engine.routing.types import StreamEvent
    from worldforge_tui.app import WorldForgeApp

LATENCY_SAMPLES = 2000
HOLD_LIMIT = 0.25  # seconds a finished command's result waits at most for the live text's frame


class LiveTick(Message):
    """Streamed text is waiting to be shown (posted at most once until it is rendered)."""


@dataclass
class LiveView:
    """What the live section shows: calls finished in this command, and the one being written."""

    done: list[StreamEvent] = field(default_factory=list)  # the last event of each ended call
    current: StreamEvent | None = None
    reach: int = 0  # characters of the current call's text the last drawn section shows

    def apply(self, event: StreamEvent) -> None:
        if event.kind == "start" or event.kind == "delta":
            self.current = event
        elif event.kind == "end":
            if event.model != "cancelled" and _is_standup(event):
                self.done.append(event)
                self.current = None
            elif _served_by_model(event):  # shown whole until the step's result replaces it
                self.current = event
            else:
                self.current = None

    def drawn_from(self) -> tuple[object, ...]:
        """What the section's text is drawn from: a piece that changes none of it (one more letter
        of a word still held back) needs no build."""
        cur = self.current
        if cur is None:
            return (len(self.done),)
        cut = _word_cut(cur.text or "", final=cur.kind == "end")
        return (len(self.done), cur.call_key, cur.kind, cur.tier, cur.model, cut)

    def clear(self) -> None:
        self.done.clear()
        self.current = None
        self.reach = 0


_WORD_ENDS = ' \n\t\r",{}[]'  # whitespace and JSON's own punctuation end a word


def _shown(text: str, *, final: bool) -> str:
    """Streamed text as it may be drawn (and sent by `serve`): scrubbed of secrets (an echoed key,
    a URL's credentials), and while the call streams, without an unfinished last word that could
    still turn out to be (or hold) a secret, so a secret is never drawn half-way before the
    scrubber can recognise it (issue 26). A word ends at whitespace or at JSON's punctuation, so
    compact JSON with no spaces (a grammar-bound model) still shows each field as it closes."""
    return scrub(text[: _shown_cut(text, final=final)])


def _word_cut(text: str, *, final: bool) -> int:
    """Where the drawable text may end, judged cheaply: all of it once final; else all of it when
    its unfinished last word is a few letters nothing redacted can grow from
    (`may_show_open_word`), else its last word end."""
    if final:
        return len(text)
    cut = max(text.rfind(c) for c in _WORD_ENDS) + 1
    if cut < len(text) and may_show_open_word(text[:cut], text[cut:]):
        return len(text)
    return cut


def _shown_cut(text: str, *, final: bool) -> int:
    """How much of streamed text may be drawn: `_word_cut`, where an unfinished word it lets
    through must also come out of the scrubber as it went in (the text before it scrubs the same
    with it as without it), else the text stops before that word (issue 46: a model writing a
    character at a time had each word held until it ended, a p95 of 119 ms on the real server)."""
    cut = _word_cut(text, final=final)
    if final or cut < len(text):
        return cut
    start = max(text.rfind(c) for c in _WORD_ENDS) + 1  # the unfinished word let through
    if start < cut and scrub(text) != scrub(text[:start]) + text[start:]:
        return start
    return cut


def _served_by_model(event: StreamEvent) -> bool:
    """A call's end with a model's answer (not cancelled, not the simulation's or a replay's)."""
    return event.model != "cancelled" and event.tier not in ("simulation", "replay")


def _is_standup(event: StreamEvent) -> bool:
    return "/standup-" in event.call_key


def _is_suggestion(event: StreamEvent) -> bool:
    """A model asked to place the words the game could not read (engine.workers.suggest): no
    work to draw, and the action bar already says who is asked."""
    return event.call_key.endswith("/suggest")


def _reached(text: str, *, final: bool) -> tuple[object, int]:
    """What a call's text shows so far (`partial_reach` of its drawable part) and how many of its
    characters that is: a piece beyond it (an unfinished word, key or number) is not drawn yet."""
    from engine.routing.partial import partial_reach

    cut = _shown_cut(text, final=final)
    value, reach = partial_reach(_shown(text, final=final))
    return value, min(cut, reach)


def _standup_line(event: StreamEvent, cursor: bool, view: LiveView | None = None) -> list[Part]:
    value, reach = _reached(event.text or "", final=not cursor)
    if view is not None:
        view.reach = reach
    line = value.get("line", "") if isinstance(value, dict) else ""
    parts: list[Part] = [
        (f"  {one_line(event.role, 20)}: ", "$secondary bold"),
        one_line(line, 400),
    ]
    if cursor:
        parts.append(("▌", "$accent"))
    parts.append("\n")
    return parts


def live_content(view: LiveView) -> Content | None:
    """The live section under the story: standup lines so far, or the artifact being written
    (`view.reach` notes how much of the current call's text it shows)."""
    cur = view.current
    if cur is None and not view.done:
        return None
    parts: list[Part] = []
    if view.done or (cur is not None and _is_standup(cur)):
        parts.append(("\nStandup (live)\n", "bold underline"))
        for event in view.done:
            parts.extend(_standup_line(event, cursor=False))
        if cur is not None and _is_standup(cur):
            parts.extend(_standup_line(cur, cursor=True, view=view))
    elif cur is not None:
        ended = cur.kind == "end"  # the whole answer: drawn whole while the game checks it
        parts.append(("\n✓ Written" if ended else "\n✎ Being written", "bold underline"))
        parts.append(
            (
                f"  {one_line(cur.role, 20)} · {cur.tier}: {one_line(cur.model, 60)}\n",
                "$foreground-muted",
            )
        )
        value, view.reach = _reached(cur.text or "", final=ended)
        if isinstance(value, dict) and value:
            parts.extend(artifact_parts(value))
        elif not ended:
            parts.append(("  (waiting for the first field)\n", "$foreground-muted"))
        if not ended:
            parts.append(("  ▌\n", "$accent"))
    return Content.assemble(*parts)


def progress_line(event: StreamEvent) -> str:
    """'strategist writing · local: qwen2.5 · 212 tok · 48 tok/s · 4.4 s · esc cancels'; before
    the first token 'strategist · local: qwen2.5 · waiting for the first token' (the action bar
    adds the seconds waited, live)."""
    if not event.tokens:
        return one_line(
            f"{event.role} · {event.tier}: {event.model} · waiting for the first token · "
            "esc cancels",
            200,
        )
    rate = event.tokens_per_s
    return one_line(
        f"{event.role} writing · {event.tier}: {event.model} · {event.tokens} tok · "
        f"{rate:.0f} tok/s · {event.elapsed_s:.1f} s · esc cancels",
        200,
    )


def _call_of(line: str) -> str:
    """What a progress line says that is not a figure: who writes, on which tier and model, and
    whether the first token came ('strategist writing · local: qwen2.5')."""
    return " · ".join(line.split(" · ")[:2])


class LiveFeed:
    """The live section of the story pane and the progress line, fed by the router's watcher."""

    def __init__(self, app: WorldForgeApp) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._queue: list[StreamEvent] = []
        self._posted = False
        # pieces of the current call not drawn yet: (its text's length with it, arrival)
        self._pieces: deque[tuple[int, float]] = deque()
        self._drawn: list[float] = []  # arrivals of pieces in the text being drawn
        self._view = LiveView()
        self._drawn_from: tuple[object, ...] | None = None  # what the last build was drawn from
        self._router: Router | None = None
        self._unwatch: Callable[[], None] | None = None
        # For bench.tui_stream: each piece's arrival, when it reached the screen, and whether
        # that is the first frame from then on (perf_counter; the bench reads the frames' times; a
        # piece in a word, key or number that may not be drawn yet waits for the frame that shows
        # it; the last of an artifact, for the frame that paints it whole as its call ends, which
        # the step's result waits for: `hold`), and how many pieces
        # were never shown (an attempt given up on).
        self.latencies: deque[tuple[float, float, bool]] = deque(maxlen=LATENCY_SAMPLES)
        self.unshown = 0
        self._held: Callable[[], None] | None = None  # a finished command's result, held

    def attach(self, router: Router | None) -> None:
        """Watch the router's streamed calls (once per router)."""
        if router is None or router is self._router:
            return
        if self._unwatch is not None:
            self._unwatch()
        self._router = router
        self._unwatch = router.watch(self._event)

    def _event(self, event: StreamEvent) -> None:
        """Called on the worker thread: queue, and post one tick if none is pending."""
        if _is_suggestion(event):
            return
        with self._lock:
            self._queue.append(event)
            if self._posted:
                return
            self._posted = True
        self.app.post_message(LiveTick())

    def tick(self) -> None:
        """On the UI thread: fold what was queued into the live view and the progress line."""
        with self._lock:
            events, self._queue = self._queue, []
            self._posted = False
        if not events:
            return
        view = self._view
        for event in events:
            view.apply(event)
            self.track(event)
        if self.app.busy is None:  # the command already finished: its result is on screen
            view.clear()
            self._drawn_from = None
            return
        main = self.app.main
        if view.current is not None or view.done:
            story = main.query_one(StoryPane)
            drawn_from = view.drawn_from()
            if drawn_from != self._drawn_from or not story.live_shown:
                self._drawn_from = drawn_from
                story.show_live(self._draw, self._shown)
        last = events[-1]
        if last.kind != "end":
            waiting = not last.tokens
            bar = main.query_one(ActionBar)
            line = progress_line(last)
            # A new call or its first token redraws the line at once; the figures of a call
            # writing (tokens, rate, seconds) follow at the spinner's pace, not a repaint a piece.
            same = bar.thinking is not None and _call_of(bar.thinking) == _call_of(line)
            bar.set_thinking(line, clock=waiting and bar.clock_start is None, redraw=not same)

    def track(self, event: StreamEvent) -> None:
        """Note each streamed piece's arrival until a frame shows it: the rest of a call a model
        served (a standup line, or an artifact) is drawn whole at the next frame, not held for the
        step's result; an attempt given up on (a new one starts, or the call is cancelled or
        served by the simulation) is never shown, and counted so."""
        pieces = self._pieces
        if event.kind == "delta":
            pieces.append((len(event.text or ""), event.at))
            return
        if event.kind == "end" and _served_by_model(event):
            self._pieces = deque((0, at) for _, at in pieces)
            return
        self.unshown += len(pieces)
        pieces.clear()

    def _draw(self) -> Content:
        """The live section's text, built once a tick (all the pieces queued since the last)."""
        content = live_content(self._view) or Content("")
        reach, pieces = self._view.reach, self._pieces
        while pieces and pieces[0][0] <= reach:
            self._drawn.append(pieces.popleft()[1])
        return content

    def _shown(self, painted: bool = True) -> None:
        """The text last built is being painted (or the screen already showed it): its pieces are
        stamped, and a result held for them (`hold`) is handled once this frame is out."""
        shown, self._drawn = self._drawn, []
        self._stamp(shown, frame=painted)
        if self._held is not None and not self._pieces:
            self.app.call_later(self._release)

    def hold(self, finish: Callable[[], None]) -> bool:
        """A command finished while the last pieces of its call wait for their frame (the ended
        call's last word or field, built and not yet painted): keep `finish` (handling its result)
        until the frame that paints those lines is out, so they are drawn by a frame of their own
        lines, not by the result's re-render of the whole board (issue 46: 96-151 ms on the real
        llama.cpp server). Only while the story shows and follows the live text (else no frame
        would paint them), and `HOLD_LIMIT` at most. False when nothing waits: finish now."""
        if self._held is not None or not (self._drawn or self._pieces):
            return False
        app = self.app
        story = app.main.query_one(StoryPane)
        if app.screen is not app.main or not (
            story.live_shown and story.following and story.region.area
        ):
            return False
        self._held = finish
        app.set_timer(HOLD_LIMIT, self._release)
        return True

    def _release(self) -> None:
        finish, self._held = self._held, None
        if finish is not None:
            finish()

    def _stamp(self, arrivals: list[float], *, frame: bool) -> None:
        """Note when `arrivals` reach the screen: now, or (`frame`) the first frame from now on
        (the one being composed as a live line is painted; the next one for the pieces a result
        shows that was not held for them).
        An after-refresh callback asked for during a frame runs only after the next frame while
        pieces keep the screen busy, a frame late (measured: 30-70 ms on the real server)."""
        if arrivals:
            at = time.perf_counter()
            self.latencies.extend((a, at, frame) for a in arrivals)

    def reset(self) -> None:
        """A command finished: the next one starts a fresh live section. The story draws the whole
        result now, so pieces not yet in a frame are stamped with the frame that shows it."""
        self._view.clear()
        self._drawn_from = None
        pending = [*self._drawn, *(at for _, at in self._pieces)]
        self._pieces.clear()
        self._drawn = []
        self._stamp(pending, frame=True)
