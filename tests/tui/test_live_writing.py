"""Live writing: the story pane shows a worker's artifact as it streams, the progress line names who
writes and how fast, renders are batched, and Esc cancels the call with nothing half-written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.config import Settings
from engine.routing import Router
from tests.servers.fixtures import MODEL_PITCH, MODEL_SEED
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.live_writing import LiveFeed
from worldforge_tui.widgets.action_bar import ActionBar
from worldforge_tui.widgets.live_section import LiveSection
from worldforge_tui.widgets.story_pane import StoryPane

PITCH, SEED = MODEL_PITCH, MODEL_SEED  # the venture whose first artifact the server writes


def _router(server) -> Router:
    return Router(
        Settings.from_values(
            {
                "demo_mode": "local",
                "local_agent_base_url": server.url,
                "local_agent_model": "qwen2.5",
                "agent_request_timeout": 60,
            }
        )
    )


async def _wait_for(pilot, predicate, rounds: int = 600) -> None:
    for _ in range(rounds):
        if predicate():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition never held")


async def test_artifact_fields_appear_while_the_worker_writes(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=6, stream_delay=0.01
    )
    router = _router(server)
    deltas: list[Any] = []
    router.watch(lambda e: deltas.append(e) if e.kind == "delta" else None)
    renders = []  # what the live section drew, frame by frame
    original = LiveFeed._draw

    def draw(self):
        drawn = original(self)
        renders.append(drawn.plain)
        return drawn

    monkeypatch.setattr(LiveFeed, "_draw", draw)
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: "tok/s" in (app.main.query_one(ActionBar).thinking or ""))
        line = app.main.query_one(ActionBar).thinking
        assert line.startswith("strategist writing · local: qwen2.5 · ")
        assert "esc cancels" in line
        await _wait_for(pilot, lambda: "Summary: " in text_of(app, "#story-live"))
        assert "✎ Being written" in text_of(app, "#story-live")
        assert app.main.query_one("#story-live").display
        story = app.main.query_one(StoryPane)
        assert story.following  # follows the writing to its last line
        await settle(app, pilot)
        assert not story.following and story.scroll_y == 0  # the shipped artifact, from the top
        assert app.snap.current.served_by == "local"
        assert not app.main.query_one("#story-live").display  # the shipped artifact now
        assert "✎ Being written" not in text_of(app, "#story-live")
        assert "Summary: " in text_of(app, "#story-body")
    assert renders and any("Summary: " in r for r in renders)
    written = [r for r in renders if "Being written" in r]
    assert len({len(r) for r in written}) > 2  # the section grew as fields completed
    # measured for bench.tui_stream: every piece, from its arrival to the frame that shows it
    # whole, or counted as never shown live (the last ones of a call that ends first)
    assert len(app.live.latencies) + app.live.unshown == len(deltas)
    assert len(app.live.latencies) >= len(deltas) - 3


async def test_escape_cancels_cleanly_and_the_stage_runs_again(
    tmp_path, fake_openai_factory, first_artifact
):
    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=2, stream_delay=0.05
    )
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=_router(server))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _wait_for(pilot, lambda: "tok/s" in (app.main.query_one(ActionBar).thinking or ""))
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.snap.phase == "brief" and app.snap.current is None
        assert app.snap.can.get("run_stage")
        assert not [e for e in app.session.events() if e.type == "STAGE_EXECUTED"]
        notes = " ".join(str(n.message) for n in app._notifications)
        assert "cancelled" in notes
        assert not app.main.query_one("#story-live").display
        server.state.stream_delay = 0.0
        await pilot.press("g")
        await settle(app, pilot)
        assert app.snap.phase == "gate" and app.snap.current is not None
        assert app.snap.current.served_by == "local"


@pytest.mark.parametrize("width", [100, 120, 140, 160])
async def test_status_pill_is_never_cut(tmp_path, width):
    from textual.widgets import Static

    from worldforge_tui.widgets.status_bar import StatusBar

    pill = "fallback: simulation (context_window)"
    app = WorldForgeApp(save_dir=tmp_path, router=Router(Settings()))
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(app, pilot)  # booted: its refresh would set the pill back meanwhile
        bar = app.main.query_one(StatusBar)
        bar.set_pill(pill)
        long_model = "local: qwen2.5-coder:32b-instruct-q4_K_M"
        for text in (pill, long_model):
            bar.set_pill(text)
            await pilot.pause()
            widget = bar.query_one("#status-pill", Static)
            assert widget.content_region.width >= len(text) + 2, (width, text)
            assert text in app.export_screenshot() or text in str(widget.render())


async def test_saving_settings_that_fail_their_test_asks_first(tmp_path):
    from textual.widgets import Input, Select

    from engine.config import settings_path
    from tests.servers.openai_server import refused_url

    router = Router(Settings())
    app = WorldForgeApp(save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.screen.__class__.__name__ != "MainScreen":
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert screen.__class__.__name__ == "SettingsScreen"
        screen.query_one("#set-demo_mode", Select).value = "local"
        screen.query_one("#set-local_agent_base_url", Input).value = refused_url()
        screen.query_one("#set-local_agent_model", Input).value = "qwen2.5"
        await pilot.press("ctrl+s")
        await _wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        assert "connection test failed" in text_of(app, ".dialog-title")
        await pilot.press("n")  # not kept: back on the form, nothing saved
        await pilot.pause()
        assert app.screen is screen and router.settings.demo_mode == "simulation"
        saved = settings_path().read_text(encoding="utf-8") if settings_path().exists() else ""
        assert "LOCAL_AGENT_MODEL" not in saved
        await pilot.press("ctrl+s")
        await _wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen")
        await pilot.press("y")
        await _wait_for(pilot, lambda: app.screen.__class__.__name__ == "MainScreen")
        assert router.settings.demo_mode == "local"
        assert "LOCAL_AGENT_MODEL" in settings_path().read_text(encoding="utf-8")


async def test_pieces_that_come_faster_than_frames_are_drawn_together(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    """The feed builds the live section once for all the pieces queued since its last turn: pieces
    that arrive while the screen is busy are drawn together, not one build a piece. (So this
    stream comes in a burst, faster than a build.)"""
    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=6, stream_delay=0.0005
    )
    router = _router(server)
    deltas: list[Any] = []
    router.watch(lambda e: deltas.append(e) if e.kind == "delta" else None)
    renders = []
    original = LiveFeed._draw

    def draw(self):
        drawn = original(self)
        renders.append(drawn.plain)
        return drawn

    monkeypatch.setattr(LiveFeed, "_draw", draw)
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: app.snap is not None and app.snap.current is not None)
        await settle(app, pilot)
    assert len(deltas) > 100 and renders
    assert len(renders) < len(deltas)  # batched: a build a turn of the feed, not one a piece


async def _live_section_shown(app, pilot) -> tuple[StoryPane, LiveSection, list[tuple[bool, str]]]:
    """The story's live section following a text, laid out and painted; and what each frame that
    paints its new lines shows ((painted, the section's text) each time it says so)."""
    from textual.content import Content

    await settle(app, pilot)
    story = app.main.query_one(StoryPane)
    live = story.query_one(LiveSection)
    heard: list[tuple[bool, str]] = []
    story.show_live(lambda: Content("  Summary: the first words\n"), lambda painted: None)
    await pilot.pause()
    await pilot.pause()
    assert "first words" in text_of(app, "#story-live")
    return story, live, heard


async def test_pieces_built_before_a_frame_are_all_painted_by_that_frame(tmp_path):
    """Issue 46: pieces that came while the lines of a build still waited for their frame were
    built only after that frame (an after-refresh callback), so they waited a frame more: on the
    real llama.cpp server a burst of tokens had its first piece painted and the rest a frame
    later. They are built at once, and the frame that is due paints all of them: the first frame
    after two turns of the feed shows the second turn's text."""
    from textual.content import Content

    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        story, live, heard = await _live_section_shown(app, pilot)

        def follow(text: str) -> None:  # a turn of the feed: the text so far, built
            story.show_live(lambda: Content(text), lambda p: heard.append((p, live.render().plain)))

        follow("  Summary: the first words and more\n")
        follow("  Summary: the first words and more\n  Audience: nurses\n")  # no frame between
        assert "Audience: nurses" in live.render().plain  # built now, not after the next frame
        await pilot.pause()
        await pilot.pause()
        assert heard and heard[0] == (
            True,
            "  Summary: the first words and more\n  Audience: nurses\n",
        )
        assert "Audience: nurses" in text_of(app, "#story-live")


async def test_a_piece_that_changes_nothing_drawn_paints_nothing_and_is_shown_at_once(tmp_path):
    """A piece whose text draws the same lines as before (one more letter of a word still held
    back, a standup line not yet begun) marks no line for repaint and is counted shown at once
    (the screen already shows it); a piece that changes a line is shown by its frame."""
    from textual.content import Content

    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        story, live, heard = await _live_section_shown(app, pilot)
        before = live.repainted
        same = "  Summary: the first words\n"
        story.show_live(lambda: Content(same), lambda p: heard.append((p, live.render().plain)))
        assert heard == [(False, same)] and live.repainted == before  # at once, nothing marked
        more = "  Summary: the first words, more\n"
        story.show_live(lambda: Content(more), lambda p: heard.append((p, live.render().plain)))
        assert heard == [(False, same)] and live.repainted == before + 1  # its line, for a frame
        await pilot.pause()
        await pilot.pause()
        assert heard == [(False, same), (True, more)]


async def test_a_new_line_scrolls_the_story_and_lays_the_screen_out_only_now_and_then(
    tmp_path, fake_openai_factory, first_artifact
):
    """Each new line of the text being written used to lay the whole screen out again (~25 times
    an artifact, each a re-arrangement and redraw of the board: the most of token -> story on a
    busy machine); the section now reserves lines ahead and the pane scrolls to the last line."""
    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=6, stream_delay=0.01
    )
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=_router(server))
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: app.main.query_one("#story-live").display)
        story = app.main.query_one(StoryPane)
        live = app.main.query_one("#story-live")
        heights: set[int] = set()  # each new height is a layout of the whole screen
        lines: set[int] = set()
        in_view: list[bool] = []
        while app.busy is not None:  # sampled while the section shows (a retried attempt may
            if not live.display:  # hide it for a moment between the two)
                await pilot.pause(0.02)
                continue
            written = len(text_of(app, "#story-live").splitlines())
            lines.add(written)
            heights.add(live.size.height)
            if written and getattr(story, "following", True):
                shown = getattr(live, "lines", live.size.height)  # wrapped lines written
                last = live.region.y + shown - 1  # the last written line, on the screen
                view = story.scrollable_content_region
                in_view.append(view.y <= last < view.bottom)
            await pilot.pause(0.02)
        await settle(app, pilot)
    assert len(lines) > 8  # the artifact grew line by line
    heights.discard(0)  # not laid out yet
    assert len(heights) <= max(3, len(lines) // 3)  # not a layout a line
    assert in_view and sum(in_view) >= 0.8 * len(in_view)  # the last line is on screen


async def test_the_progress_figures_follow_the_spinner_not_every_piece(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    """Every streamed piece used to repaint the progress line (its token count and rate), so each
    frame redrew the action bar as well as the text; the figures now follow the spinner's tick,
    and a new call or its first token is drawn at once."""
    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=3, stream_delay=0.005
    )
    drawn: list[str | None] = []
    real = ActionBar._render_thinking

    def render(self) -> None:
        drawn.append(self.thinking)
        real(self)

    monkeypatch.setattr(ActionBar, "_render_thinking", render)
    ticks = [0]
    real_tick = LiveFeed.tick

    def tick(self) -> None:
        ticks[0] += 1
        real_tick(self)

    monkeypatch.setattr(LiveFeed, "tick", tick)
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=_router(server))
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: "tok/s" in (app.main.query_one(ActionBar).thinking or ""))
        await settle(app, pilot)
    writing = [d for d in drawn if d is not None and " writing · " in d]
    assert writing and ticks[0] > 30  # the figures were drawn, from many streamed ticks
    assert len(writing) < ticks[0] / 3  # at the spinner's pace, not a repaint a tick
    assert any(d is not None and "waiting for the first token" in d for d in drawn)


async def test_a_streamed_piece_repaints_only_the_lines_it_changed(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    """Each build of the text being written used to repaint the whole section (every line of the
    artifact so far, a frame's worth of terminal output a piece); it now marks only the lines that
    differ from what the screen shows, so a piece repaints its own line (two when it wraps) and
    the screen is laid out only when the section outgrows the lines reserved for it."""
    from textual.geometry import Region

    from worldforge_tui.widgets.live_section import LiveSection

    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=6, stream_delay=0.01
    )
    marked: list[int | None] = []  # lines each repaint asked for (None: the whole section)
    layouts = [0]
    real = LiveSection.refresh

    def refresh(self, *regions: Region, **kw: Any):
        if self.id == "story-live" and self.lines > 8:  # once the text has many lines
            if kw.get("layout"):
                layouts[0] += 1
            elif kw.get("repaint", True):
                marked.append(sum(r.height for r in regions) if regions else None)
        return real(self, *regions, **kw)

    monkeypatch.setattr(LiveSection, "refresh", refresh)
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=_router(server))
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: app.snap is not None and app.snap.current is not None)
        await settle(app, pilot)
    assert len(marked) > 20  # many pieces came after the text passed eight lines
    assert marked.count(None) == 0  # never the whole section for a piece
    lines = sorted(n for n in marked if n is not None)
    assert lines[len(lines) // 2] <= 2  # most pieces: their own line, two when it wraps
    assert layouts[0] <= 3  # the lines reserved ahead, not a layout a line


async def test_a_word_is_drawn_while_the_model_is_still_writing_it(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    """Issue 46: a model that writes a character at a time (the real llama.cpp server with the tiny
    model) has its words drawn as they grow, not each held until it ends; the words are ordinary
    prose, so nothing redacted can grow from them."""
    answer = json.dumps(first_artifact)
    server = fake_openai_factory("ollama", payload=answer, stream_piece=1, stream_delay=0.002)
    router = _router(server)
    drawn: list[tuple[str, str]] = []  # (the text streamed so far, what the section drew of it)
    original = LiveFeed._draw

    def draw(self):
        content = original(self)
        current = self._view.current
        if current is not None and current.kind == "delta":
            drawn.append((current.text, content.plain))
        return content

    monkeypatch.setattr(LiveFeed, "_draw", draw)
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40)) as pilot:
        done = lambda: app.snap is not None and app.snap.current is not None  # noqa: E731
        await _wait_for(pilot, done, rounds=12000)
        await settle(app, pilot)
    mid_word = []
    for text, plain in drawn:
        word = text[len(text.rstrip("abcdefghijklmnopqrstuvwxyz")) :]
        follows = answer[len(text) : len(text) + 1]
        if len(word) >= 3 and follows.isalpha() and answer.startswith(text):
            mid_word.append(any(line.rstrip().endswith(word) for line in plain.splitlines()))
    assert mid_word and any(mid_word)  # a half-written word was on screen, ending its line


async def test_a_frame_that_lays_the_live_text_out_shows_its_last_line(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    """Issue 46: when the live section was shown (each call's first line) or outgrew the lines
    reserved for it, the frame that laid it out drew its new line below the view, and the pane
    scrolled to it only after that frame (a frame and a layout late on the real llama.cpp
    server). The pane now scrolls as it is laid out: each composed frame that lays the section out
    anew (its first, and each with more lines reserved) while the pane follows it has the text's
    last line in view."""
    from worldforge_tui.widgets.live_section import LiveSection

    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=6, stream_delay=0.01
    )
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=_router(server))
    frames: list[bool] = []  # per frame laying the live text out anew: its last line in view
    reserved: list[int] = []  # the section's lines reserved, in the frames drawing it
    async with app.run_test(size=(100, 16)) as pilot:
        story = app.main.query_one(StoryPane)
        live = app.main.query_one(LiveSection)
        display = app._display  # where a composed frame goes to the terminal (as bench.tui_keys)

        def watched(screen: Any, renderable: Any) -> None:
            if renderable is not None and live.display and live.lines and story.following:
                last = live.region.y + live.lines - 1
                view = story.scrollable_content_region
                if not reserved or reserved[-1] != live.rows:
                    frames.append(view.y <= last < view.bottom)
                reserved.append(live.rows)
            display(screen, renderable)

        monkeypatch.setattr(app, "_display", watched)
        await _wait_for(pilot, lambda: app.snap is not None and app.snap.current is not None)
        await settle(app, pilot)
    # followed over many frames, from its first line (below the story's end in a 16-row
    # terminal) through at least one time it outgrew the lines reserved
    assert len(reserved) > 10 and len(frames) >= 2
    assert all(frames), f"{frames.count(False)} of {len(frames)} layouts drew it out of view"


async def test_an_artifacts_last_pieces_are_painted_before_its_result_replaces_them(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    """Issue 46: on the real llama.cpp server an artifact's last pieces came in one burst with the
    call's end and the stage's result right after, before the next frame, so they were first shown
    by the result's frame (the whole board re-rendered). The result now waits for the frame that
    paints those lines. Here that order is made certain: once most of the answer has streamed, the
    screen thread waits until the command has posted its result, then takes the rest of the
    pieces and the end in one tick."""
    import threading

    from worldforge_tui.messages import CommandFinished

    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=6, stream_delay=0.005
    )
    answer = len(json.dumps(first_artifact))
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=_router(server))
    posted = threading.Event()
    post = app.post_message

    def post_message(message: Any) -> bool:
        if isinstance(message, CommandFinished):
            posted.set()
        return post(message)

    monkeypatch.setattr(app, "post_message", post_message)
    real_tick = LiveFeed.tick

    def tick(self: LiveFeed) -> None:
        with self._lock:
            near = any(e.kind == "delta" and len(e.text) > 0.8 * answer for e in self._queue)
        if near and not posted.is_set():  # the rest, the end and the result come together
            posted.wait(10)
        real_tick(self)

    monkeypatch.setattr(LiveFeed, "tick", tick)
    at_result: list[int] = []  # the call's pieces no frame had painted when its result showed
    painted_written: list[int] = []  # pieces stamped by a frame of the section's 'Written' text
    real_reset, real_shown = LiveFeed.reset, LiveFeed._shown

    def reset(self: LiveFeed) -> None:
        at_result.append(len(self._drawn) + len(self._pieces))
        real_reset(self)

    def shown(self: LiveFeed, painted: bool = True) -> None:
        written = "✓ Written" in self.app.main.query_one("#story-live").render().plain
        if painted and written:
            painted_written.append(len(self._drawn))
        real_shown(self, painted)

    monkeypatch.setattr(LiveFeed, "reset", reset)
    monkeypatch.setattr(LiveFeed, "_shown", shown)
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: app.snap is not None and app.snap.current is not None)
        await settle(app, pilot)
        assert app.snap.current.served_by == "local"
        assert "Summary: " in text_of(app, "#story-body")  # the result, whole
        assert not app.main.query_one("#story-live").display
    assert posted.is_set() and at_result
    assert at_result[-1] == 0  # every piece was painted before the result replaced the section
    assert sum(painted_written) > 0  # the last ones by a frame of the 'Written' text


async def test_the_busy_view_keeps_the_text_being_written(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    """Issue 46: the busy view (the board redrawn 0.1 s into a command) hid the live section and
    the next piece showed it again, so a call that started within 0.1 s (the first standup after
    a decision) had its first pieces wait for the board's frame, a layout and the section's
    first build again (142-150 ms on the real llama.cpp server). The live text now stays, and is
    followed, while the rest of the board is redrawn."""
    from worldforge_tui.widgets.live_section import LiveSection

    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=4, stream_delay=0.01
    )
    app = WorldForgeApp(pitch=PITCH, seed=SEED, save_dir=tmp_path, router=_router(server))
    async with app.run_test(size=(100, 16)) as pilot:
        live = app.main.query_one(LiveSection)
        story = app.main.query_one(StoryPane)
        await _wait_for(pilot, lambda: live.display and live.lines > 6)
        assert app.busy is not None
        hidden: list[bool] = []
        stop = live.stop

        def stopped() -> None:
            hidden.append(True)
            stop()

        monkeypatch.setattr(live, "stop", stopped)
        app._show_busy(None)  # the busy view, now that the call is being written
        assert live.display and not hidden
        await pilot.pause()
        last = live.region.y + live.lines - 1
        view = story.scrollable_content_region
        assert story.following and view.y <= last < view.bottom
        await settle(app, pilot)
        assert not live.display  # the result replaced it
