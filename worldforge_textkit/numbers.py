"""Numbers as every layer writes them: money, months of runway, meters. One definition each.

- `money`: the full amount for prose, briefs, reports and receipts ("$12,000", "£12,000").
- `money_short`: the compact amount for a status bar or a delta ("$12k", "£1.2M", "-€3k").
- `CURRENCIES` / `books`: a venture keeps its books in one currency (USD, GBP or EUR), its
  founder's. Money is written in the currency in force: the one `books(code)` holds (a session
  holds its venture's while it runs a command or builds a view; `set_books` for a front end's
  open venture), else US dollars. No conversion: only the unit changes, never the figure
  (`in_books` writes a text's dollar amounts, a playbook's, in the books' currency).
- `runway` / `runway_short`: months of runway, where None means profitable (revenue covers burn,
  so there is no runway to count down): "runway 4.5 months" / "profitable", "4.5mo" / "∞".
- `number`: a finite float from anything a front end might hold (junk and NaN become 0).

Pure functions, free of any game import, so the engine, memory and the front ends share them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple


class Currency(NamedTuple):
    """A currency the books can be kept in: its code, its symbol and its name in words (a named
    tuple: the CLI's --help loads this module and no dataclass machinery)."""

    code: str
    symbol: str
    name: str  # the plural a sentence says ("the books are kept in pounds")


CURRENCIES = {
    "USD": Currency("USD", "$", "dollars"),
    "GBP": Currency("GBP", "£", "pounds"),
    "EUR": Currency("EUR", "€", "euros"),
}
BY_SYMBOL = {c.symbol: c for c in CURRENCIES.values()}
# The currency money is written in now: one per process, as one venture is played at a time.
_IN_FORCE = [CURRENCIES["USD"]]


def currency(code: str | None = None) -> Currency:
    """The currency of `code` ("GBP"), or the one in force for None; an unknown code is USD."""
    if code is None:
        return _IN_FORCE[0]
    return CURRENCIES.get(code.upper(), CURRENCIES["USD"])


def set_books(code: str) -> None:
    """Write money in `code`'s currency from now on (a front end's open venture)."""
    _IN_FORCE[0] = currency(code)


@contextmanager
def books(code: str) -> Iterator[Currency]:
    """Write money in `code`'s currency inside the block, then as before."""
    before = _IN_FORCE[0]
    _IN_FORCE[0] = currency(code)
    try:
        yield _IN_FORCE[0]
    finally:
        _IN_FORCE[0] = before


def number(value: object) -> float:
    """A finite float from anything (junk and NaN become 0)."""
    if not isinstance(value, int | float | str):
        return 0.0
    try:
        result = float(value)
    except ValueError:
        return 0.0
    return result if math.isfinite(result) else 0.0


_DOLLAR_AMOUNT = re.compile(r"\$(?=\d)")


def in_books(text: str) -> str:
    """Amounts a text writes in dollars ("under about $10": a playbook's) in the books' currency:
    the unit changes, never the figure."""
    symbol = currency().symbol
    return text if symbol == "$" else _DOLLAR_AMOUNT.sub(symbol, text)


def money(value: float, code: str | None = None) -> str:
    """$12,000 / £12,000: whole units with thousands separators, in the books' currency."""
    return f"{currency(code).symbol}{value:,.0f}"


def money_short(value: object, code: str | None = None) -> str:
    """$412k, £1.2M, -€3k: short enough for a status bar."""
    s = currency(code).symbol
    amount = number(value)
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if amount >= 1_000_000:
        return f"{sign}{s}{amount / 1_000_000:.1f}M"
    if amount >= 10_000:
        return f"{sign}{s}{amount / 1000:.0f}k"
    if amount >= 1000:
        return f"{sign}{s}{amount / 1000:.1f}k"
    return f"{sign}{s}{amount:.0f}"


def months_said(months: float) -> str:
    """`4.5 months`, `3 months` (never `3.0 months`), `1 month`; two years and more in whole
    years (`68 years`, never `824.5 months`)."""
    if months >= 24:
        return f"{months / 12:.0f} years"
    shown = f"{months:.1f}".removesuffix(".0")
    return f"{shown} month" if shown == "1" else f"{shown} months"


def runway(months: float | None) -> str:
    """`runway 4.5 months`, or `profitable` for None (no runway to count down)."""
    return "profitable" if months is None else f"runway {months_said(months)}"


def runway_short(months: float | None) -> str:
    """`4.5mo`; two years and more in whole years (`55y`, as `months_said`); `∞` for None
    (profitable: there is no runway to count down)."""
    if months is None:
        return "∞"
    return f"{months:.1f}mo" if months < 24 else f"{months / 12:.0f}y"
