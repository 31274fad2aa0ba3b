"""The Memory pane: the run's memories grouped by kind with counts, the store label, provisional and
binding badges, expiry; space marks notes for consolidation, p runs a prune dry run, f forgets
the run, d forgets the highlighted note, w shows what the work of each stage the highlighted note binds would be if it were forgotten
(the run is not changed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from worldforge_tui import actions
from worldforge_tui.text.safe_text import one_line
from worldforge_tui.widgets import shown

if TYPE_CHECKING:
    from engine.views.snapshot import Snapshot

Record = Mapping[str, object]  # one memory record as JSON data (MemoryRecord.to_dict), read by key
KIND_ORDER = ("procedural", "user_profile", "semantic", "chat_summary", "preference", "context")


def _kind_words(kind: object, many: bool = False) -> str:
    """A memory kind in the player's words (the memory package loads after the first frame)."""
    from memory.models import kind_words

    return kind_words(kind, many)


SHOWN_STATUSES = ("provisional", "active")


def expired(record: Record, today: int | None) -> bool:
    """Past its expiry day: recall leaves it out of every brief from that day on."""
    expires = record.get("expires_day")
    return isinstance(expires, int) and today is not None and expires <= today


def binds(record: Record, today: int | None = None) -> bool:
    """A note that binds the next worker: a binding decision holding directions, live and not
    expired (one whose words were read into nothing binds nothing, and says so by no badge)."""
    payload = record.get("payload")  # a stored note's; a receipt's row carries them as words
    directions = (
        payload.get("directions") if isinstance(payload, dict) else record.get("directions")
    )
    return (
        record.get("kind") == "procedural"
        and record.get("status") in SHOWN_STATUSES
        and bool(directions)
        and not expired(record, today)
    )


def record_prompt(record: Record, marked: bool, today: int | None = None) -> Content:
    """One memory row: mark, badges, text, day and expiry (as recall applies it on `today`)."""
    parts: list[str | tuple[str, str]] = [("■ " if marked else "  ", "$accent bold")]
    if binds(record, today):
        parts.append((" BINDING ", "$warning bold reverse"))
        parts.append(" ")
    if record.get("status") == "provisional":
        parts.append((" provisional ", "$accent reverse"))
        parts.append(" ")
    from engine.views.render import prose  # the engine loads after the first frame

    parts.append(one_line(prose(str(record.get("text") or "")), 240))
    meta = f"  day {record.get('game_day')}"
    if expired(record, today):
        meta += f" · expired day {record.get('expires_day')}, no longer in briefs"
    elif record.get("expires_day") is not None:
        meta += f" · expires day {record.get('expires_day')}"
    if record.get("reinforced"):
        meta += f" · reinforced ×{record.get('reinforced')}"
    parts.append((meta, "$foreground-muted"))
    if binds(record, today):
        parts.extend(chip_parts(record))
    return Content.assemble(*parts)


def chip_parts(record: Record) -> list[str | tuple[str, str]]:
    """A binding note's chips, one line under it: each direction it binds (axis · do / don't ·
    value) and the words it was read from ("← head chefs"), as the player confirmed them."""
    from engine.language.directions import Direction  # the engine loads after the first frame
    from worldforge_tui.chip_edits import label

    payload = record.get("payload")
    raw = payload.get("directions") if isinstance(payload, dict) else None
    out: list[str | tuple[str, str]] = []
    for item in raw if isinstance(raw, list) else []:
        try:
            d = Direction.from_dict(item)
        except ValueError:  # a payload another build wrote: shown as its words alone
            continue
        words = ""
        if d.start is not None and d.end is not None and 0 <= d.start < d.end <= len(d.said):
            words = f" ← “{one_line(d.said[d.start : d.end], 40)}”"
        out.append("\n    " if not out else "  ")
        out.append((f" {one_line(label(d), 60)} ", "$success" if d.do else "$error"))
        out.append((words, "$foreground-muted"))
    return out


def _day(record: Record) -> int:
    day = record.get("game_day")
    return day if isinstance(day, int) else 0


def group_records(records: list[Record]) -> list[tuple[str, list[Record]]]:
    """Live records (provisional, active) grouped by kind in display order, newest first."""
    groups: dict[str, list[Record]] = {}
    for record in records:
        if not isinstance(record, dict) or record.get("status") not in SHOWN_STATUSES:
            continue
        groups.setdefault(str(record.get("kind")), []).append(record)
    order = [k for k in KIND_ORDER if k in groups] + sorted(
        k for k in groups if k not in KIND_ORDER
    )
    return [
        (kind, sorted(groups[kind], key=lambda r: (-_day(r), str(r.get("id"))))) for kind in order
    ]


class MemoryList(OptionList):
    """The notes, wrapped again whenever the list's scrollbar comes or goes.

    Textual's OptionList wraps each option at the width the list has when the option is added,
    and wraps again only on a resize; a rebuilt list that grows a scrollbar is two cells narrower
    but not resized, so a long note's last line went missing (the board used to hide this by
    laying out once more while a step ran)."""

    def watch_show_vertical_scrollbar(self) -> None:
        # Replacing a prompt is Textual's public way to make the list wrap its options again.
        if self.option_count:
            self.replace_option_prompt_at_index(0, self.get_option_at_index(0).prompt)


class MemoryPane(Vertical):
    """Header (store, counts) plus the grouped list; actions are requested from the app by message."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("memory")
    DEFAULT_CSS = """
    MemoryPane { height: 1fr; }
    MemoryPane > #memory-head { height: auto; max-height: 2; padding: 0 1;
                                color: $foreground-muted; }
    MemoryPane > #memory-list { height: 1fr; border: none; }
    """

    class ActionRequested(Message):
        """The player asked for consolidate / prune / forget with these marked ids."""

        def __init__(self, action: str, ids: list[str]) -> None:
            super().__init__()
            self.action = action
            self.ids = ids

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.records: dict[str, Record] = {}
        self.marked: set[str] = set()
        self._head = "no venture"
        self._signature: tuple[object, ...] | None = None
        self._today: int | None = None

    def compose(self) -> ComposeResult:
        yield Label("no memories yet", id="memory-head", markup=False)
        yield MemoryList(id="memory-list")

    def show(self, snap: Snapshot | None) -> None:
        """Rebuild the list from the snapshot's memory records, keeping marks and the highlight."""
        records = list(snap.memory) if snap is not None else []
        counts = snap.memory_counts if snap is not None else {}
        store = snap.memory_store if snap is not None else ""
        signature = (
            tuple(
                (r.get("id"), r.get("status"), r.get("text"), r.get("reinforced")) for r in records
            ),
            str(counts),
            str(store),
            snap.day if snap is not None else None,
        )
        if signature == self._signature:
            return  # nothing changed: keep the list (and its highlight) as it is
        self._signature = signature
        self._today = snap.day if snap is not None else None
        self.records = {str(r.get("id")): r for r in records}
        self.marked &= set(self.records)
        live = sum(counts.values())
        self._head = (
            f"{live} live · store {one_line(store, 30)}" if snap is not None else "no venture"
        )
        self._show_head()
        self._rebuild(counts)

    def _rebuild(self, counts: Mapping[str, int]) -> None:
        option_list = self.query_one(OptionList)
        highlighted = option_list.highlighted_option
        keep = highlighted.id if highlighted is not None else None
        options: list[Option | None] = []
        for kind, rows in group_records(list(self.records.values())):
            label = _kind_words(kind, many=True)
            count = counts.get(kind, len(rows))
            options.append(
                Option(
                    Content.assemble((label, "bold"), f" ({count})"),
                    id=f"head:{kind}",
                    disabled=True,
                )
            )
            options.extend(
                Option(
                    record_prompt(r, str(r.get("id")) in self.marked, self._today),
                    id=f"mem:{r.get('id')}",
                )
                for r in rows
            )
        option_list.clear_options()
        option_list.add_options(options)
        if keep is not None:
            try:
                option_list.highlighted = option_list.get_option_index(keep)
            except Exception:  # noqa: BLE001 - the option vanished (pruned or forgotten)
                option_list.highlighted = None

    def selected_id(self) -> str | None:
        option = self.query_one(OptionList).highlighted_option
        if option is None or not option.id or not option.id.startswith("mem:"):
            return None
        return option.id.removeprefix("mem:")

    def action_toggle_mark(self) -> None:
        memory_id = self.selected_id()
        if memory_id is None:
            return
        from memory.lifecycle import EPISODIC_KINDS  # what the store will fold (its own rule)

        record = self.records[memory_id]
        if memory_id not in self.marked and record.get("kind") not in EPISODIC_KINDS:
            kinds = ", ".join(_kind_words(k, many=True) for k in KIND_ORDER if k in EPISODIC_KINDS)
            self.app.notify(
                f"Only {kinds} can be consolidated; this is one of the "
                f"{_kind_words(record.get('kind'), many=True)}.",
                title="Not marked",
                severity="warning",
                markup=False,
            )
            return
        self.marked ^= {memory_id}
        self.query_one(OptionList).replace_option_prompt(
            f"mem:{memory_id}",
            record_prompt(self.records[memory_id], memory_id in self.marked, self._today),
        )
        self._show_head()

    def _show_head(self) -> None:
        marks = (
            f" · {len(self.marked)} marked: {actions.live_key(self.app, 'memory.consolidate')} consolidates"
            if self.marked
            else ""
        )
        shown.update(self.query_one("#memory-head", Label), self._head + marks)

    def action_request(self, action: str) -> None:
        ids = sorted(self.marked) if self.marked else ([x] if (x := self.selected_id()) else [])
        self.post_message(self.ActionRequested(action, ids))

    def action_note(self, action: str, title: str) -> None:
        """An action on the selected note, never the marks: forget it (after the player confirms),
        or what the work would be without it; `title` heads the line when none is selected."""
        memory_id = self.selected_id()
        if memory_id is None:
            self.app.notify("Highlight a note first.", title=title, markup=False)
            return
        self.post_message(self.ActionRequested(action, [memory_id]))

    def clear_marks(self) -> None:
        self.marked.clear()
        self._show_head()
