"""Numbers as every layer writes them: dollars, months of runway, meters. One definition each.

- `usd`: the full amount for prose, briefs, reports and receipts ("$12,000").
- `usd_short`: the compact amount for a status bar or a delta ("$12k", "$1.2M", "-$3k").
- `runway` / `runway_short`: months of runway, where None means profitable (revenue covers burn,
  so there is no runway to count down): "runway 4.5 months" / "profitable", "4.5mo" / "∞".
- `number`: a finite float from anything a front end might hold (junk and NaN become 0).

Pure functions, free of any game import, so the engine, memory and the front ends share them.
"""

from __future__ import annotations

import math


def number(value: object) -> float:
    """A finite float from anything (junk and NaN become 0)."""
    if not isinstance(value, int | float | str):
        return 0.0
    try:
        result = float(value)
    except ValueError:
        return 0.0
    return result if math.isfinite(result) else 0.0


def usd(value: float) -> str:
    """$12,000: whole dollars with thousands separators."""
    return f"${value:,.0f}"


def usd_short(value: object) -> str:
    """$412k, $1.2M, -$3k: short enough for a status bar."""
    amount = number(value)
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if amount >= 1_000_000:
        return f"{sign}${amount / 1_000_000:.1f}M"
    if amount >= 10_000:
        return f"{sign}${amount / 1000:.0f}k"
    if amount >= 1000:
        return f"{sign}${amount / 1000:.1f}k"
    return f"{sign}${amount:.0f}"


def months_said(months: float) -> str:
    """`4.5 months`; two years and more in whole years (`68 years`, never `824.5 months`)."""
    return f"{months:.1f} months" if months < 24 else f"{months / 12:.0f} years"


def runway(months: float | None) -> str:
    """`runway 4.5 months`, or `profitable` for None (no runway to count down)."""
    return "profitable" if months is None else f"runway {months_said(months)}"


def runway_short(months: float | None) -> str:
    """`4.5mo`; two years and more in whole years (`55y`, as `months_said`); `∞` for None
    (profitable: there is no runway to count down)."""
    if months is None:
        return "∞"
    return f"{months:.1f}mo" if months < 24 else f"{months / 12:.0f}y"
