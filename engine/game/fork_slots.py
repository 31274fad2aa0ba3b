"""The named slots a fork's words may name, and their values for one venture now.

An option's text and trade-off (engine/game/rules.json) and a dilemma's title and question
(engine/game/dilemmas.py) are templates, so a card speaks of this venture, not of every venture:

- the venture: {company}, {company_s} (its possessive: "Acme's"), {customer} (the customer the
  CEO narrowed to, else the pitch's: a whole noun phrase, so nothing stands before it),
  {rival}, {offering};
- the company now: {runway_now} ("3 months", or "no limit (profitable)");
- the option's own preview (the copy of the company `rules.preview_after` makes, exactly what the
  receipt applies), each a phrase that says its own direction, so a number never reads the wrong
  way round: {cash} ("€12,000 more cash", "€7,000 less cash"), {burn} ("€1,400/mo more
  burn"), {revenue} ("€384/mo less revenue"), {runway} ("3 months of runway", or "still
  profitable"), {retired} ("retire the Support Specialist", or "keep every role (none is free
  to retire)").

A verb written <trusts> agrees with the customer. A template naming any other slot fails as the
rules load (`check`), so a typo in a card is a failing test, never a card with braces in it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import Formatter

from engine.game.models import Economics, GameState, OrgDelta
from engine.language.grammar import agree, is_plural, possessive
from worldforge_textkit.numbers import money, months_said

VENTURE = frozenset({"company", "company_s", "customer", "rival", "offering", "runway_now"})
PREVIEW = frozenset({"cash", "burn", "revenue", "runway", "retired"})
QUESTION_SLOTS = VENTURE  # a dilemma's title and question: the same for both options
OPTION_SLOTS = VENTURE | PREVIEW  # an option's text and trade-off: its own numbers too
_VERB = re.compile(r"<([a-z]+)>")


def named(template: str) -> set[str]:
    """The slots a template names ("{cash} now" → {"cash"}); a malformed brace raises."""
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def check(template: str, allowed: frozenset[str]) -> None:
    """Raise ValueError when a template names a slot it may not, or a slot with a format spec or
    an index ("{cash:>8}", "{customer[0]}"): a card names its slots by name only."""
    try:
        parts = list(Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(f"a broken slot in {template!r}: {exc}") from None
    for _, name, spec, conv in parts:
        if name is None:
            continue
        if name not in allowed or spec or conv:
            raise ValueError(f"no such slot {{{name}}} in {template!r}")


def venture_words(state: GameState) -> dict[str, str]:
    """The venture's words every fork template may name (engine.game.dilemmas.pose)."""
    founder = state.founder
    offering = founder.reading().offering or "offering"
    econ = state.economics
    return {
        # a noun phrase as the CEO named it ("the busiest nurses", "busy parents"): a template
        # puts no article or number before it ("fewer {customer}" would say "fewer the busiest")
        "customer": state.niche or founder.customer,
        "company": founder.company,
        "company_s": possessive(founder.company),
        "rival": state.antagonist.name,
        "offering": offering,
        "runway_now": "no limit (profitable)"
        if econ.profitable
        else months_said(econ.runway_months),
    }


def _moved(amount: float, what: str, per_month: bool) -> str:
    """'€1,400/mo more burn', '€7,000 less cash', 'no change in cash'."""
    if not amount:
        return f"no change in {what}"
    month = "/mo" if per_month else ""  # as the effect line and the meters write it
    return f"{money(abs(amount))}{month} {'more' if amount > 0 else 'less'} {what}"


def preview_words(before: Economics, after: Economics, delta: OrgDelta) -> dict[str, str]:
    """An option's own numbers in words, from the same before and after its effect line shows
    (engine.game.rules.effect_line), rounded as it rounds them."""
    if after.profitable:
        left = "still profitable"
    else:
        left = f"{months_said(after.runway_months)} of runway"
    retired = "keep every role (none is free to retire)"
    if delta.removed_role_title:
        retired = f"retire the {delta.removed_role_title}"
    return {
        "cash": _moved(round(after.treasury_usd - before.treasury_usd), "cash", False),
        "burn": _moved(round(after.monthly_burn_usd - before.monthly_burn_usd), "burn", True),
        "revenue": _moved(
            round(after.monthly_revenue_usd - before.monthly_revenue_usd), "revenue", True
        ),
        "runway": left,
        "retired": retired,
    }


def fill(template: str, words: Mapping[str, str]) -> str:
    """A template with its slots filled and its marked verbs agreeing with the customer."""
    plural = is_plural(words.get("customer", ""))
    text = _VERB.sub(lambda m: agree(m.group(1), plural), template)
    return text.format_map(words)
