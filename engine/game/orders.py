"""Standing orders: a standup reply with teeth. "Freeze hiring and cut burn" becomes an order the
next fork's consequence obeys (the hire is blocked, with a receipt line saying so); an own answer
that matched no rule hires no one either. Rules as data: an order is a row.
"""

from __future__ import annotations

from typing import Any

from engine.game.economy import recompute, sync_burn
from engine.game.models import GameState, OrgDelta
from textkit import has_phrase, words
from textkit.numbers import usd

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


def govern_hire(state: GameState, org_delta: OrgDelta, *, custom: bool) -> list[str]:
    """After a rule fired: undo its hire when a standing order forbids it or when the answer
    matched no rule. Orders bind one fork, then lapse. Returns the receipt lines."""
    lines: list[str] = []
    orders = state.orders
    state.orders = []
    if not org_delta.added_role_id:
        return lines
    title = org_delta.added_role_title or "the new role"
    blocker = next((o for o in orders if o["kind"] in ("freeze_hiring", "cut_burn")), None)
    if custom:
        why = f"Your own answer matched no rule, so no one was hired ({title} not added)."
    elif blocker:
        why = f"{blocker['label']}: the {title} was not hired."
    else:
        return lines
    state.org = [w for w in state.org if w.id != org_delta.added_role_id]
    before = state.economics.monthly_burn_usd
    sync_burn(state)
    recompute(state.economics)
    saved = before - state.economics.monthly_burn_usd
    org_delta.added_role_id = None
    org_delta.added_role_title = None
    org_delta.monthly_cost_usd = 0.0
    lines.append(
        why
        + (
            f" Burn stays {usd(state.economics.monthly_burn_usd)} a month "
            f"({usd(saved)} a month not spent)."
            if saved > 0
            else ""
        )
    )
    return lines
