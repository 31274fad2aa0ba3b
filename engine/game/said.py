"""What the CEO says, read against the game: a rejection reason, a standup reply and an own answer
at a fork become typed directions (at the price in force, for the stage they brief), and a fork
decision's directions are composed from the chosen option and the CEO's own words.

Pure: nothing is written. The session's steps (engine/session/steps.py) bind what these read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NotRequired, TypedDict

from engine.game import rules
from engine.game.dilemmas import interpret, option_directions
from engine.game.models import Dilemma, Directive, GameState, Option
from engine.game.pricing import price_in_force
from engine.game.rules import Rule
from engine.language.composition import audiences, ceo_named, keep_named, restates
from engine.language.composition import slot as compose_slot
from engine.language.directions import Direction
from worldforge_textkit import clip, content_words, has_phrase, words

if TYPE_CHECKING:  # the readers load when a player's words are read, not in every venture
    from engine.language.reader.pick import Interpretation
    from engine.language.steering import Amends, Read
    from engine.language.suggested import Suggestion


class WordsRead(TypedDict):
    """How a rejection's or a standup reply's words read, as its event, the directive and the
    receipt show it."""

    says: str
    axes: list[str]
    unread: list[str]
    actionable: bool
    suggested: NotRequired[list[dict[str, object]]]


def how_it_reads(read: Read, suggested: Sequence[Suggestion] = ()) -> WordsRead:
    """The one reading of the words, in words: what binds, on which axes, what binds nothing,
    and a model's placements the CEO confirmed (in the recorded command: replay asks none)."""
    out: WordsRead = {
        "says": "; ".join(d.line() for d in read.directions) or _nothing(read.unread),
        "axes": sorted({d.axis for d in read.directions}),
        "unread": list(read.unread),
        "actionable": bool(read.directions),
    }
    if suggested:
        out["suggested"] = [x.to_dict() for x in suggested]
    return out


def _nothing(unread: Sequence[str]) -> str:
    """What words that bind nothing read as, naming them: "nothing the gate checks in “meh”"."""
    quoted = " / ".join(clip(" ".join(x.split()), 60) for x in unread[:2] if x.strip())
    return f"nothing the gate checks in “{quoted}”" if quoted else "nothing the gate checks"


def on_top(standing: Directive | None, new: Directive) -> Directive:
    """The directive new words make: on top of the standing fork decision, never instead of it
    (its rule id and words stay, the new words' keywords are added)."""
    if standing is None or standing.source == "founding" or not standing.rule_id:
        return new
    keywords = [
        *standing.keywords[:6],
        *(k for k in new.keywords if k not in standing.keywords),
    ]
    return replace(
        new,
        rule_id=standing.rule_id,
        standing_text=standing.standing_text or standing.text,
        keywords=keywords[:10],
    )


def decided(rule: Rule, text: str, *, memory_id: str, stage_id: str, day: int) -> Directive:
    """The directive a fork decision makes: its rule's keywords first, then the words' own."""
    keywords = list(rule.keywords) + [w for w in content_words(text) if w not in rule.keywords]
    return Directive(
        memory_id=memory_id,
        source="decision",
        rule_id=rule.id,
        text=text,
        keywords=keywords[:8],
        stage_id=stage_id,
        game_day=day,
    )


def replaced_lines(before: Sequence[Direction], new: Sequence[Direction]) -> list[str]:
    """For the receipt: which binding directions (`before`, recalled now) the new ones replace, on
    one slot or by restating the same people or thing (engine.language.composition)."""
    return [
        f"{d.line()} replaces {old.line()}"
        for d in new
        for old in before
        if (compose_slot(old) == compose_slot(d) or restates(d, old)) and old.line() != d.line()
    ]


# What a player calls the venture's rival without naming it ("dont mention the rival").
_THE_RIVAL = ("rival", "rivals", "competitor", "competitors", "competition")


def _as_named(st: GameState, read: Read) -> Read:
    """A value that is the rival's or the company's name, typed in another case, takes the name
    as the venture spells it ("dont mention pipeline partners": leave out Pipeline Partners), and
    the rival called so is the rival by name ("dont mention the rival": leave out Quota Holdings;
    the work names the rival, never the word)."""
    names = {n.lower(): n for n in (st.antagonist.name, st.founder.company) if n}
    if st.antagonist.name:
        names |= dict.fromkeys(_THE_RIVAL, st.antagonist.name)
    for d in read.directions:
        bare = d.value.lower().removeprefix("the ").removeprefix("our ")
        d.value = names.get(d.value.lower(), names.get(bare, d.value))
    return read


def read_rejection(st: GameState, reason: str, amends: Amends | None = None) -> Read:
    """A rejection reason read into directions, a relative one resolved against the artifact it
    rejects; "this ignores the decision" names the directions the attempt was briefed with (the
    session asks a question instead of spending a redo when nothing is placed). `amends`: what
    the player added to the reading before it bound (engine.language.steering.Amends)."""
    from engine.language.steering import DECISION_CUES, read_directions

    stage = st.stage
    assert stage is not None
    read = read_directions(
        reason,
        source="rejection",
        stage=stage.id,
        current=st.current.artifact if st.current else None,
        base_price=price_in_force(st).amount,
        customer=st.founder.customer,
        amends=amends,
    )
    toks = words(reason)
    corrected = amends is not None and amends.confirmed is not None
    if (
        not corrected
        and not read.directions
        and st.current
        and any(has_phrase(toks, c) for c in DECISION_CUES)
    ):
        for raw in st.current.binding:
            d = Direction.from_dict(raw)
            d.source, d.stage, d.said, d.memory_id, d.replaced = (
                "rejection",
                stage.id,
                clip(reason, 160),
                None,
                None,
            )
            read.directions.append(d)
    return _as_named(st, read)


def read_reply(st: GameState, text: str, amends: Amends | None = None) -> Read:
    """A standup reply read into directions (for the stage it briefs, at the price in force), as
    the player amended the reading (`amends`)."""
    from engine.language.steering import read_directions

    stage = st.stage
    read = read_directions(
        text,
        source="standup",
        stage=stage.id if stage else None,
        base_price=price_in_force(st).amount if stage else None,
        amends=amends,
    )
    return _as_named(st, read)


def read_own_answer(
    st: GameState, text: str, amends: Amends | None = None
) -> tuple[Interpretation, str, list[Direction]]:
    """How an own answer at the fork reads and what the decision applies: the reading, the rule
    it is costed as ("both", "neither", no fit: the dearer option's), and the directions it
    binds."""
    dilemma, stage = st.dilemma, st.stage
    assert dilemma is not None and stage is not None
    reading = interpret(text, dilemma, rules.RULES)
    rule_id = reading.rule_id
    if reading.option is None:
        rule_id = costlier_option(st, dilemma, stage.id).rule_id
    own = own_directions(st, text, amends).directions
    binds = fork_directions(st, dilemma, stage.id, rule_id, own, reading)
    # the customer it narrows to and what it leaves out are the words' one reading, as bound
    # (the picker's own guess at them read "just mates - the dog park crowd" as a customer)
    niche = next((d.value for d in own if d.axis == "audience" and d.do), None)
    dropped = next((d.value for d in own if d.axis == "exclusion"), None)
    return replace(reading, niche=niche, dropped=dropped), rule_id, binds


def costlier_option(st: GameState, dilemma: Dilemma, stage_id: str) -> Option:
    """The option an own answer that picks neither is costed like: the one that costs more cash
    and burn now (never a free third way out of a dilemma)."""

    def cost(opt: Option) -> tuple[float, str]:
        after, _org = rules.preview_after(st, opt.rule_id, stage_id)
        before = st.economics
        spent = (before.treasury_usd - after.treasury_usd) + 6 * (
            after.monthly_burn_usd - before.monthly_burn_usd
        )
        return spent, opt.key

    return max(dilemma.options, key=cost)


def fork_directions(
    st: GameState,
    dilemma: Dilemma,
    stage_id: str,
    rule_id: str,
    own: Sequence[Direction] | None,
    reading: Interpretation | None,
    bound: Sequence[Direction] = (),
) -> list[Direction]:
    """What a fork decision binds: the chosen option's content of its own, overridden on any slot
    by what the CEO's own words name (`own`: their reading, `own_directions`); "both" binds both options' content (the dearer one's where
    they clash); words that fit neither bind the option they are costed as (`rule_id`). An
    option keeps what the CEO named on an axis it may not replace (engine.language.composition):
    its audience is composed around the CEO's ("the busiest flower sellers"), never another's."""
    stage = st.stage
    assert stage is not None
    base = price_in_force(st)
    named = [d for d in bound if d.axis == "audience" and ceo_named(d)]
    customer = audiences(named) or st.niche or st.founder.customer

    def content(rid: str) -> list[Direction]:
        made = option_directions(rid, base=base, customer=customer, stage=stage_id)
        return keep_named(made, list(bound))

    out: dict[str, Direction] = {}
    if reading is not None and reading.option is None and reading.matched_by == "both":
        for opt in sorted(dilemma.options, key=lambda o: o.rule_id == rule_id):
            out.update({d.slot: d for d in content(opt.rule_id)})
    else:  # the chosen option; words that pick neither are read and costed as the dearer one,
        out = {d.slot: d for d in content(rule_id)}  # whose content they bind (never nothing)
    for d in own or ():
        out[d.slot] = d
    return list(out.values())


def own_directions(st: GameState, text: str, amends: Amends | None = None) -> Read:
    """An own answer's words read into directions (for the stage whose fork it answers, at the
    price in force), as the player amended the reading (`amends`). They override the chosen
    option's content slot by slot (`fork_directions`)."""
    from engine.language.steering import read_directions

    stage, dilemma = st.stage, st.dilemma
    read = read_directions(
        text,
        source="own",
        stage=stage.id if stage else None,
        base_price=price_in_force(st).amount,
        amends=amends,
        fork={str(o.key): o.text for o in dilemma.options} if dilemma else None,
    )
    return _as_named(st, read)
