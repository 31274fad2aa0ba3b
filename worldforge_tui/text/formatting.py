"""Number formatting for the panes: fields, meters and signed deltas (pure, no textual); the money
and months themselves come from `worldforge_textkit.numbers`."""

from __future__ import annotations

from datetime import datetime, timedelta

from engine.game.economy import METER_NAMES, meter_shown
from worldforge_textkit.numbers import money_short as money
from worldforge_textkit.numbers import number, runway_short

# Economics fields shown in the status bar and the receipt: (field, short label, kind, good-when-up).
FIELDS: tuple[tuple[str, str, str, bool], ...] = (
    ("treasury_usd", "treasury", "money", True),
    ("runway_months", "runway", "months", True),
    ("monthly_burn_usd", "burn", "money", False),
    ("monthly_revenue_usd", "revenue", "money", True),
    ("paying_customers", "customers", "count", True),
    ("market_share", "share", "percent", True),
    ("proof", "proof", "meter", True),
    ("trust", "trust", "meter", True),
    ("velocity", "velocity", "meter", True),
    ("burn_pressure", METER_NAMES["burn_pressure"], "meter", False),
    ("autonomy", "autonomy", "meter", True),
    ("threat", "threat", "meter", False),
    ("addressable_market_usd", "market", "money", True),
    ("arpu_usd", "ARPU", "money", True),
    ("overhead_usd", "overhead", "money", False),
)
FIELD_INFO = {name: (label, kind, up_good) for name, label, kind, up_good in FIELDS}


def value_text(field: str, value: object) -> str:
    """Format one economics field for display according to its kind: the values of
    `Economics.shown()`, where a profitable company's runway is None (shown ∞)."""
    kind = FIELD_INFO.get(field, (field, "meter", True))[1]
    amount = number(value)
    if kind == "money":
        return money(amount)
    if kind == "months":
        return runway_short(None if value is None else amount)
    if kind == "percent":
        return f"{amount:.1f}%"  # the engine keeps shares in percent already
    if kind == "count":
        return f"{amount:,.0f}"  # "13,440", as the receipt's words write it
    return str(meter_shown(field, amount))  # never rounded across a defeat line


def delta_text(field: str, before: object, after: object) -> str:
    """Signed change between two values (`+$12k`, `-3`, `±0`): a meter's from the numbers shown
    (so `98 → 99` says `+1`), a runway's `profit` / `loss` as it crosses into or out of profit."""
    kind = FIELD_INFO.get(field, (field, "meter", True))[1]
    if kind == "months":
        was, now = (v is None for v in (before, after))  # None: profitable
        if was != now:  # no month count crosses into or out of profit
            return "profit" if now else "loss"
    if kind == "meter":
        steps = meter_shown(field, number(after)) - meter_shown(field, number(before))
        return f"{steps:+d}" if steps else "±0"
    change = number(after) - number(before)
    if abs(change) < 1e-9:
        return "±0"
    sign = "+" if change > 0 else "-"
    return sign + value_text(field, abs(change)).lstrip("-")


def delta_tone(field: str, before: object, after: object) -> str:
    """`good`, `bad` or `flat` for a change, knowing which direction is good for the field."""
    if FIELD_INFO.get(field, (field, "", True))[1] == "months" and (before is None) != (
        after is None
    ):
        return "good" if after is None else "bad"  # into profit, or out of it
    change = number(after) - number(before)
    if abs(change) < 1e-9:
        return "flat"
    up_good = FIELD_INFO.get(field, (field, "meter", True))[2]
    return "good" if (change > 0) == up_good else "bad"


def meter_tone(field: str, value: object) -> str:
    """`good`, `warn` or `bad` for a meter's level (what the status bar colours)."""
    amount = number(value)
    if field in ("threat", "burn_pressure"):
        return "bad" if amount >= 70 else "warn" if amount >= 45 else "good"
    if field == "runway_months":  # None: profitable
        return (
            "good" if value is None else "bad" if amount < 3 else "warn" if amount < 6 else "good"
        )
    if field == "treasury_usd":
        return "bad" if amount <= 0 else "good"
    if field in ("proof", "trust", "velocity", "autonomy"):
        return "bad" if amount <= 20 else "warn" if amount < 40 else "good"
    return "good"


TONE_STYLE = {
    "good": "$success",
    "warn": "$warning",
    "bad": "$error bold",
    "flat": "$foreground-muted",
}


def human_time(stamp: object, now: datetime | None = None) -> str:
    """An ISO timestamp in local time, as people say it: `today 14:03`, `yesterday 09:12`,
    `Mon 3 Nov 14:03` (this year) or `3 Nov 2025`; text that is not a timestamp comes back cut."""
    text = str(stamp or "").strip()
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return text[:25]
    local = when.astimezone() if when.tzinfo is not None else when
    today = (now or datetime.now().astimezone()).date()
    clock = local.strftime("%H:%M")
    if local.date() == today:
        return f"today {clock}"
    if local.date() == today - timedelta(days=1):
        return f"yesterday {clock}"
    if local.year == today.year:
        return f"{local.strftime('%a')} {local.day} {local.strftime('%b')} {clock}"
    return f"{local.day} {local.strftime('%b %Y')}"
