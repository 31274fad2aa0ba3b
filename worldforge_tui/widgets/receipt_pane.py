"""The Decision receipt pane: 1 you decided, 2 consequence applied (every economics field before →
after, signed and coloured, plus the org delta), 3 workers learned, 4 next brief."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from worldforge_tui.text.formatting import (
    FIELD_INFO,
    TONE_STYLE,
    delta_text,
    delta_tone,
    value_text,
)
from worldforge_tui.text.safe_text import one_line
from worldforge_tui.widgets.content_pane import ContentPane

if TYPE_CHECKING:
    from engine.game.models import Economics, OrgDelta, Receipt
    from engine.views.snapshot import Snapshot

Part = str | tuple[str, str]

# How the decision was read, in words (the engine's `matched_by`, never shown as an id).
HOW_READ = {
    "option": "you picked the option",
    "keywords": "read from your words",
    "negation": "you ruled out the other",
    "later": "you put the other off for later",
    "not-yet": "read as not yet",
    "both": "both options",
    "custom": "your own answer, neither option",
}


def economics_rows(before: Economics, after: Economics) -> list[Part]:
    """One aligned row per economics field: label, before → after, signed delta in its tone."""
    old, new = before.shown(), after.shown()  # runway None while profitable
    parts: list[Part] = []
    for name in [*FIELD_INFO, *(k for k in new if k not in FIELD_INFO and k != "profitable")]:
        if name not in new:
            continue
        label = FIELD_INFO.get(name, (name, "meter", True))[0]
        tone = delta_tone(name, old.get(name), new.get(name))
        parts.append((f"  {one_line(label, 10):<10}", "$foreground-muted"))
        parts.append(f"{value_text(name, old.get(name)):>7} → {value_text(name, new.get(name)):>7}")
        parts.append((f"{delta_text(name, old.get(name), new.get(name)):>8}\n", TONE_STYLE[tone]))
    return parts


def _org(delta: OrgDelta) -> list[Part]:
    parts: list[Part] = []
    added = delta.added_role_title
    removed = delta.removed_role_title
    cost = delta.monthly_cost_usd or 0
    if added:
        parts.append(
            (
                f"  org: + {one_line(added, 60)} ({value_text('monthly_burn_usd', cost)}/mo)\n",
                "$success",
            )
        )
    if removed:
        parts.append((f"  org: − {one_line(removed, 60)}\n", "$warning"))
    if not parts:
        parts.append(("  org: no change\n", "$foreground-muted"))
    return parts


def receipt_content(receipt: Receipt | None, store: str = "local-sqlite") -> Content:
    """The four-part receipt of the latest decision (or a hint before the first one)."""
    if receipt is None:
        return Content.assemble(
            ("No decision yet.\n", "bold"),
            (
                (
                    "Approve an artifact, then choose at the fork: the receipt shows "
                    "what your decision changed and what the workers learned."
                ),
                "$foreground-muted",
            ),
        )
    parts: list[Part] = [
        ("1 ", "$accent bold"),
        ("You decided ", "bold"),
        f"“{one_line(receipt.decided, 300)}”\n",
        (
            (
                f"   {HOW_READ.get(receipt.matched_by, 'your words')}"
                f" · {one_line(receipt.principle, 60)}\n"
            ),
            "$foreground-muted",
        ),
        ("2 ", "$accent bold"),
        ("Consequence applied ", "bold"),
        one_line(receipt.summary, 300) + "\n",
    ]
    parts.extend(economics_rows(receipt.before, receipt.after))
    parts.extend(_org(receipt.org_delta))
    parts.extend([("3 ", "$accent bold"), ("Workers learned\n", "bold")])
    from engine.views.render import prose as render_clean  # loaded after the first frame
    from memory.models import kind_words
    from worldforge_tui.widgets.memory_pane import binds

    for memory in receipt.memory_written:  # the memory records as dicts (memory.models)
        binding = binds(memory)
        badge = " BINDING " if binding else f" {kind_words(memory.get('kind'))} "
        parts.append("   ")
        parts.append((badge, "$warning bold reverse" if binding else "reverse"))
        parts.append(" " + one_line(render_clean(str(memory.get("text") or "")), 300))
        where = memory.get("store") or memory.get("origin") or store
        parts.append((f"  [{one_line(where, 20)}]\n", "$foreground-muted"))
    parts.extend([("4 ", "$accent bold"), ("Next brief ", "bold")])
    nxt = receipt.next_brief
    if nxt:
        parts.append((one_line(nxt.get("worker"), 60), "$secondary bold"))
        beat = str(nxt.get("stage_id") or "").rsplit("_", 1)[-1].upper()
        parts.append((f" ({one_line(beat, 30)})\n", "$foreground-muted"))
        parts.append(
            ("   " + one_line(render_clean(str(nxt.get("binding") or "")), 400) + "\n", "$warning")
        )
    else:
        parts.append(("none — that was the last stage\n", "$foreground-muted"))
    return Content.assemble(*parts)


class ReceiptPane(ContentPane):
    """Scrollable receipt; `show(snapshot)` renders the snapshot's last receipt."""

    BODY_ID = "receipt-body"

    def initial_content(self) -> Content:
        return receipt_content(None)

    def show(self, snap: Snapshot | None) -> None:
        receipt = snap.last_receipt if snap is not None else None
        store = snap.memory_store if snap is not None else "local-sqlite"
        self.render_body(receipt_content(receipt, store))
