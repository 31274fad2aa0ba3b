"""What a fork says in words to the CEO: what an option's card replaces of what the CEO named,
what an own answer will do before and after it commits, and the receipt's next-brief line.

Words for people, never ids; the directions themselves are read in engine/game/said.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

from engine.game import rules
from engine.game.models import Dilemma, GameState
from engine.game.said import fork_directions
from engine.language.composition import replaces_named
from engine.language.directions import Direction, price_words
from engine.language.grammar import join_prose, possessive
from engine.writing.outcomes import both_summary
from worldforge_textkit import clip

if TYPE_CHECKING:  # the readers load when a player's words are read, not in every venture
    from engine.language.reader.pick import Interpretation

_NAMED_THING = ("audience", "scope", "place", "channel", "name")


class OwnAnswerView(TypedDict):
    """What an own answer will do, in words (the TUI's confirm, `simulate --json`)."""

    rule_id: str
    option: str | None
    matched_by: str
    niche: str | None
    dropped: str | None
    says: str
    will_change: str
    binding: NotRequired[list[str]]  # the direction lines it will bind (before it commits)


# How a card and the next brief say a direction in this venture's words (its own line otherwise):
# "launch Acme by week 2", not the "launch by week 2" every venture's card said.
_IN_WORDS = {
    "timeline": "launch {company} {bound} week {amount}",
    "scope": "centre {company_s} work on {value}",
    "channel": "reach {customer} through {value}",
    "exclusion": "leave {value} out of {company_s} plans",
    "tone": "write {company_s} copy in a {value} tone",
    "number": "{company_s} {line}",
    "price": "price the {offering} {bound}{price}",
}
_BOUNDS = {
    "timeline": {"eq": "in", "max": "by", "min": "no sooner than"},
    "price": {"eq": "at ", "max": "under ", "min": "at least "},
}


def in_words(d: Direction, st: GameState) -> str:
    """One direction a fork option binds as a card and the next brief say it, naming this
    venture's company, customer or offering; the same content as its line
    (engine.language.directions). What the CEO's own words bind is said as it was read."""
    template = _IN_WORDS.get(d.axis) if d.do or d.axis == "exclusion" else None
    if template is None or d.source != "decision":
        return d.line()
    founder = st.founder
    return template.format(
        company=founder.company,
        company_s=possessive(founder.company),
        customer=st.niche or founder.customer,
        offering=founder.reading().offering or "offering",
        value=d.value,
        line=d.line(),
        amount=f"{d.amount or 0:.0f}",
        price=price_words(d),
        bound=_BOUNDS.get(d.axis, {}).get(d.op, ""),
    )


def bound_words(st: GameState, directions: list[Direction]) -> str:
    """What directions bind, in this venture's words, as one line ("launch Acme by week 2; …")."""
    return "; ".join(in_words(d, st) for d in directions)


def mark_cards(st: GameState, posed: Dilemma, stage_id: str, now: list[Direction]) -> None:
    """Each option's card says what it binds, the same content the decision will bind
    (engine/game/said.py fork_directions), and what it replaces of what the CEO named."""
    for opt in posed.options:
        bound = fork_directions(st, posed, stage_id, opt.rule_id, None, None, now)
        opt.binds = bound_words(st, bound)
        replaces = replaces_on_card(bound, now)
        if replaces:
            opt.binds += f" ({replaces})"


def replaces_on_card(bound: list[Direction], now: list[Direction]) -> str:
    """What an option's card says it replaces of what the CEO named, before it is chosen:
    "replaces your “flower sellers”" (empty when it replaces nothing the CEO named)."""
    said = [
        f"“{old.value}”" if old.axis in _NAMED_THING else f"“{old.line()}”"
        for old, _new in replaces_named(bound, now)
    ]
    return f"replaces your {join_prose(said)}" if said else ""


def binding_words(
    directions: list[Direction], rule_id: str, text: str, st: GameState | None = None
) -> str:
    """The receipt's next-brief line: what binds the next worker, in words (no ids); given the
    venture, in its words (`in_words`)."""
    if directions:
        lines = [in_words(d, st) if st is not None else d.line() for d in directions]
        return "Binding: " + "; ".join(lines)
    return f"Binding: {rules.decided_words(rule_id) or clip(text, 120)}"


def decision_summary(rule_id: str, dilemma: Dilemma, reading: Interpretation | None) -> str:
    """What the decision note and the receipt say was decided: the rule's summary, or both
    options' when the CEO's words chose both (the note says both, not option A)."""
    if reading is not None and reading.matched_by == "both":
        return both_summary([rules.RULES[o.rule_id].summary for o in dilemma.options])
    return rules.RULES[rule_id].summary


def next_brief(
    st: GameState, directions: list[Direction], rule_id: str, text: str, replaced: list[str]
) -> dict[str, str] | None:
    """The receipt's word on the next stage: who works next and what binds them (None after the
    last fork)."""
    if st.stage_index + 1 >= len(st.stages):
        return None
    nxt = st.stages[st.stage_index + 1]
    return {
        "stage_id": nxt.id,
        "worker": nxt.worker_title,
        "binding": binding_words(directions, rule_id, text, st),
        "replaced": "; ".join(replaced),
    }


def own_answer_view(
    reading: Interpretation, dilemma: Dilemma, text: str = "", *, costed_as: str | None = None
) -> OwnAnswerView:
    """What an own answer will do, in words, before (TUI confirm) and after (--json) it commits.
    An answer that picks neither option is costed like `costed_as` (the dearer option). An option
    is named by its words, never by its internal key: the TUI shows the options as [1]/[2] and
    the CLI as A/B, so "option B" would lie on one of them."""
    rule = rules.RULES.get(reading.rule_id)
    opt = next((o for o in dilemma.options if o.key == reading.option), None)
    costed = next((o for o in dilemma.options if o.rule_id == costed_as), None)
    if opt is not None:
        says = f"Reads as “{opt.text}”."
        if reading.matched_by == "negation":
            says = f"Reads as “{opt.text}” (you ruled out the other)."
        elif reading.matched_by == "later":
            says = f"Reads as “{opt.text}” (you put the other off for later)."
        elif reading.matched_by == "not-yet":
            says = f"Reads as “not yet”, so “{opt.text}”."
        change = opt.effect_line or (rule.summary if rule else "")
    else:
        said = clip(text, 80)
        both = reading.matched_by == "both"
        says = (
            f"“{said}” reads as both options: the work carries both."
            if both
            else (f"“{said}” matches neither option.")
        )
        change = "small shifts in proof and trust; no one is hired"
        if costed is not None:  # never free: costed as the dearer option (and, for words that
            how = "costed like" if both else "read and costed as"  # fit neither, bound as it)
            says += f" It is {how} “{costed.text}”."
            change = costed.effect_line or change
    if reading.niche:
        says += f" The customer narrows to {reading.niche}."
    if reading.dropped:
        says += f" Leaves out {reading.dropped}."
    return {
        "rule_id": costed_as or reading.rule_id,
        "option": reading.option,
        "matched_by": reading.matched_by,
        "niche": reading.niche,
        "dropped": reading.dropped,
        "says": says,
        "will_change": change,
    }


def own_answer_binds(
    view: OwnAnswerView, binds: list[Direction], st: GameState | None = None
) -> OwnAnswerView:
    """The view with what the next worker is held to, the words' own price or scope included;
    given the venture, in its words (a model's suggestion keeps its "suggested by" note)."""
    from engine.language.suggested import line_of  # with the readers: when words are read

    def said(d: Direction) -> str:
        line = line_of(d)
        return in_words(d, st) if st is not None and line == d.line() else line

    if binds:
        view["says"] += " Binds the next work: " + "; ".join(said(d) for d in binds) + "."
    return view
