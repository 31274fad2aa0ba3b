"""Standing orders: a standup reply with teeth. "Freeze hiring and cut burn" becomes an order the
next fork's consequence obeys (the hire is blocked, with a receipt line saying so). Rules as data:
an order is a row.
"""

from __future__ import annotations

from typing import Any

from engine.game.economy import recompute, sync_burn
from engine.game.models import GameState, OrgDelta
from worldforge_textkit import has_phrase, words
from worldforge_textkit.numbers import money

# kind, phrases that give it (whole words), what it blocks, the receipt's words
ORDERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "freeze_hiring",
        (
            "freeze hiring",
            "hiring freeze",
            "no new hires",
            "stop hiring",
            "don't hire",
            "do not hire",
            "no hiring",
            "pause hiring",
            "no more hires",
            "freeze headcount",
            "no new roles",
            "hire nobody",
            "hire no one",
        ),
        "Hiring freeze (your standup reply)",
    ),
    (
        "cut_burn",
        (
            "cut burn",
            "cut the burn",
            "cut costs",
            "cut spending",
            "reduce burn",
            "lower burn",
            "lower the burn",
            "save cash",
            "spend less",
            "conserve cash",
            "tighten the budget",
            "cut burn now",
            "reduce costs",
            "stop spending",
        ),
        "Cut burn (your standup reply)",
    ),
)


def read_orders(text: str) -> list[dict[str, Any]]:
    """The standing orders a reply gives (none for a reply that only gives direction)."""
    toks = words(text)
    return [
        {"kind": kind, "label": label}
        for kind, phrases, label in ORDERS
        if any(has_phrase(toks, p) for p in phrases)
    ]


def govern_hire(state: GameState, org_delta: OrgDelta) -> list[str]:
    """After a rule fired: undo its hire when a standing order forbids it. Orders bind one fork,
    then lapse. Returns the receipt lines."""
    orders, state.orders = state.orders, []
    blocker = next((o for o in orders if o["kind"] in ("freeze_hiring", "cut_burn")), None)
    if not org_delta.added_role_id or blocker is None:
        return []
    title = org_delta.added_role_title or "the new role"
    state.org = [w for w in state.org if w.id != org_delta.added_role_id]
    before = state.economics.monthly_burn_usd
    sync_burn(state)
    recompute(state.economics)
    saved = before - state.economics.monthly_burn_usd
    org_delta.added_role_id = None
    org_delta.added_role_title = None
    org_delta.monthly_cost_usd = 0.0
    kept = (
        f" Burn stays {money(state.economics.monthly_burn_usd)} a month "
        f"({money(saved)} a month not spent)."
        if saved > 0
        else ""
    )
    return [f"{blocker['label']}: the {title} was not hired.{kept}"]
