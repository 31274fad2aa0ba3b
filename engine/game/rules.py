"""The consequence rules as data, and the one function that applies a rule to the company.

A rule is a row: adding a rule is adding a row (and a test). An effect is a base amount per field
plus scalings on the company's state (breadth pays when trust is high and hurts when it is thin),
then the founder archetype's factor. Fields: the meters (proof, trust, velocity, burn_pressure,
autonomy, threat), `revenue` ($/month, booked as market share), `cash` ($ once) and `overhead`
($/month of non-payroll cost). A rule may add a role (burn rises by its cost) and may retire an
earlier decision's role (burn falls by its cost). What the option shows before the choice is
computed by applying the rule to a copy of the company, so it is exactly what the receipt applies.

A rule is one record: besides its effects, the row holds the fork option that offers it (text,
trade-off, the dilemma variants it is offered in: engine.game.dilemmas), the directions the option
binds, the verb phrase the simulated worker writes, the receipt's words for the decision, and its
roles in the ending (who owns the company) and the revenue plan (how fast customers grow). The
records are data, in rules.json beside this file (JSON: they load and are checked in about a
millisecond; parsing them as TOML took about 20), and a rule id is named there and nowhere else
in the product.

A record's parts: id, axis, keywords (comma-separated: what an own answer that names it says),
summary, principle, effects ({field: base amount}), scales (Scale: effect[field] += per x
(state[metric] - pivot), kept within [lo, hi]), role (Role: the one it adds), retires, threat
(how hard the rival answers it; 4 unless said), tags (space-separated: what the rival may
punish), flag, archetype (the only founder it is offered to); then option and tradeoff (the fork
option's words: templates whose slots, checked as the rules load, name this venture and the
option's own previewed numbers: engine.game.fork_slots), offered ([variant, side] or [variant, side, that variant's own trade-off]),
binds (Bind), verb (the simulated worker's phrase), decided (the receipt's), ownership (who owns
the company after it), growth (how fast a revenue plan's customers grow), own_answer; later
({field: amount} that lands later_in stages after the fork, shown pending: engine.game.pending);
after (After: effects added when an earlier decision chose the named rule, with the words
that say why: what you chose before changes what this option does, in its preview too).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from engine.game.archetypes import ARCHETYPE_RULES, effect_factor
from engine.game.economy import (
    METER_NAMES,
    METERS,
    ROLE_COST_BY_LIFECYCLE,
    bump,
    meter_shown,
    org_burn,
    recompute,
)
from engine.game.fork_slots import OPTION_SLOTS, check
from engine.game.models import Economics, GameState, Hint, OrgDelta, Worker, WorkerKind
from engine.language.directions import AXES, OPS, Axis, Op
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import slug
from worldforge_textkit.numbers import money, months_said

EFFECT_FIELDS = (*METERS, "revenue", "cash", "overhead")
LABEL = {k: name.capitalize() for k, name in METER_NAMES.items()}  # one name per meter


@dataclass(frozen=True, eq=False, repr=False)
class Scale(FrozenRecord):
    """effect[field] += per x (state[metric] - pivot), kept within [lo, hi]."""

    field: str
    metric: str
    pivot: float
    per: float
    lo: float
    hi: float

    def amount(self, econ: Economics) -> float:
        return min(
            self.hi, max(self.lo, self.per * (float(getattr(econ, self.metric)) - self.pivot))
        )

    def hint(self) -> str:
        """How state sizes the effect, in words: "more revenue when trust is above 40, less below"."""
        what = "strain" if self.field == "burn_pressure" else self.field.replace("_", " ")
        metric = {
            "paying_customers": "paying customers",
            "runway_months": "runway",
            "burn_pressure": "strain",
            "market_share": "market share",
            "monthly_burn_usd": "monthly burn",
        }.get(self.metric, self.metric)
        pivot = {
            "runway_months": f"{self.pivot:g} months",
            "market_share": f"{self.pivot:g}%",
            "monthly_burn_usd": money(self.pivot),
        }.get(self.metric, f"{self.pivot:g}")
        if self.pivot == 0:  # no pivot to cross: the effect just follows the metric
            return f"{'more' if self.per > 0 else 'less'} {what} the higher the {metric}"
        side, other = ("above", "below") if self.per > 0 else ("below", "above")
        verb = "are" if metric.endswith("customers") else "is"
        return f"more {what} when {metric} {verb} {side} {pivot}, less {other}"


@dataclass(frozen=True, eq=False, repr=False)
class Role(FrozenRecord):
    """A role a rule's decision adds to the org (a row of the rules data)."""

    title: str
    lifecycle: str
    hint: Hint = "fast"
    kind: WorkerKind = "digital_worker"


@dataclass(frozen=True, eq=False, repr=False)
class Offer(FrozenRecord):
    """Where the fork offers a rule: a dilemma variant (engine.game.dilemmas) and its side, with
    the variant's own wording of the trade-off where it differs from the rule's."""

    variant: str
    key: Literal["A", "B"]
    tradeoff: str | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Bind(FrozenRecord):
    """One direction a fork option binds, resolved from the company when it is chosen
    (engine.game.dilemmas.option_directions). A price is the price in force times `scale`, to the
    nearest $5 (at least `floor`), times `times`, per `period` (its own period has no unit); a
    keyed number binds `amount` by `op`; any other value may name {customer}, {rival},
    {busiest} (the customer's busiest), {flanked} (the corner the rival ignores), {broad} (the
    customer and others like them)."""

    axis: Axis
    value: str = ""
    scale: float = 0.0
    floor: float = 0.0
    times: float = 1.0
    period: str | None = None
    key: str | None = None
    amount: float | None = None
    op: Op = "eq"


@dataclass(frozen=True, eq=False, repr=False)
class After(FrozenRecord):
    """An effect that depends on what the CEO chose before: when the earlier decision `rule` is
    on the record, this rule's effect also moves by `effects` (before the founder's factor), and
    the option says `why` in its hint, so the preview and the receipt both carry it."""

    rule: str
    effects: tuple[tuple[str, float], ...]
    why: str


@dataclass(frozen=True, eq=False, repr=False)
class Rule(FrozenRecord):
    """One consequence rule, a row of the rules table: effects, texts, bindings."""

    id: str
    axis: str
    keywords: tuple[str, ...]
    summary: str
    principle: str
    effects: tuple[tuple[str, float], ...]
    scales: tuple[Scale, ...] = ()
    role: Role | None = None
    retires: bool = False  # retire the oldest active role an earlier decision added
    threat: float = 4  # how hard the rival answers it
    tags: tuple[str, ...] = ()  # what the rival may punish (engine/game/antagonist.py)
    flag: str | None = None
    archetype: str | None = None  # only this founder archetype is offered the rule
    option: str = ""  # the fork option's text, a template (engine.game.fork_slots)
    tradeoff: str = ""  # what the option costs, in words: a template naming its own numbers
    offered: tuple[Offer, ...] = ()  # the dilemma variants that offer it
    binds: tuple[Bind, ...] = ()  # the content of its own the option binds the next worker to
    verb: str = ""  # the simulated worker's verb phrase ("Because you chose to …")
    decided: str = ""  # the decision in words, for receipts, reports and standups
    ownership: Literal["insiders", "outsiders"] | None = None  # who owns the company after it
    growth: Literal["volume", "steady"] = "steady"  # how fast a revenue plan's customers grow
    own_answer: bool = False  # the rule an own answer that fits no option is
    later: tuple[tuple[str, float], ...] = ()  # effects that land `later_in` stages on
    later_in: int = 2  # how many stages after the fork its later effects land (engine.game.pending)
    after: tuple[After, ...] = ()  # effects that depend on an earlier decision
    playbook: str = ""  # the playbook section ("Doc / Heading") the standup cites for it


def make_rule(id: str, effects: dict[str, float], *scales: Scale, retires: bool = False) -> Rule:
    """A rule made in code (a world event's effect, engine.game.world_events): no fork offers it."""
    return Rule(id, "event", ("",), "", "", tuple(effects.items()), scales, retires=retires)


RECORDS = Path(__file__).with_name("rules.json")
_TEXTS = ("id", "axis", "summary", "principle", "playbook", "option", "tradeoff", "verb", "decided")
_CHOICES: dict[str, tuple[object, ...]] = {
    "ownership": (None, "insiders", "outsiders"),
    "growth": ("volume", "steady"),
}


def load_rules(path: Path = RECORDS) -> dict[str, Rule]:
    """The rules data file, checked as it loads: every key a part of a rule, every part of its
    kind (a bad row names its rule and what is wrong, and nothing loads)."""
    out: dict[str, Rule] = {}
    for row in json.loads(path.read_text(encoding="utf-8")):
        try:
            rule = _record(row)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{path.name}: rule {row.get('id', '?')}: {exc}") from None
        if rule.id in out:
            raise ValueError(f"{path.name}: rule {rule.id} is there twice")
        out[rule.id] = rule
    for rule in out.values():
        if unknown := [a.rule for a in rule.after if a.rule not in out or a.rule == rule.id]:
            raise ValueError(f"{path.name}: rule {rule.id}: after no such earlier rule {unknown}")
    return out


def _record(row: dict[str, Any]) -> Rule:
    if unknown := set(row) - set(Rule.__dataclass_fields__):
        raise ValueError(f"no such part {sorted(unknown)}")
    parts = {
        **row,
        "keywords": tuple(k.strip() for k in row["keywords"].split(",")),
        "tags": tuple(row.get("tags", "").split()),
        "effects": tuple(row["effects"].items()),
        "later": tuple(row.get("later", {}).items()),
        "scales": tuple(Scale(**x) for x in row.get("scales", ())),
        "role": Role(**row["role"]) if "role" in row else None,
        "offered": tuple(Offer(*x) for x in row.get("offered", ())),
        "binds": tuple(Bind(**x) for x in row.get("binds", ())),
        "after": tuple(
            After(**{**x, "effects": tuple(x["effects"].items())}) for x in row.get("after", ())
        ),
    }
    rule = Rule(**parts)
    combos = [kv for a in rule.after for kv in a.effects]
    fields = [k for k, _ in (*rule.effects, *rule.later, *combos)]
    fields += [sc.field for sc in rule.scales]
    numbers = [v for _, v in (*rule.effects, *rule.later, *combos)] + [
        getattr(sc, n) for sc in rule.scales for n in ("pivot", "per", "lo", "hi")
    ]
    if bad := [k for k in fields if k not in EFFECT_FIELDS]:
        raise ValueError(f"no such effect {bad}")
    if any(isinstance(v, bool) or not isinstance(v, int | float) for v in numbers):
        raise ValueError("an effect or a scale that is not a number")
    if rule.later and (not isinstance(rule.later_in, int) or rule.later_in < 1):
        raise ValueError("later_in is not a whole number of stages of at least 1")
    if bad_text := [f for f in _TEXTS if not isinstance(getattr(rule, f), str)]:
        raise ValueError(f"not words: {bad_text}")
    for card in (rule.option, rule.tradeoff, *(o.tradeoff or "" for o in rule.offered)):
        check(card, OPTION_SLOTS)  # a card's words name only slots engine.game.fork_slots fills
    if [a for a in rule.after if not isinstance(a.why, str) or not a.why.strip()]:
        raise ValueError("an effect after an earlier decision without its why")
    checks = [(f, getattr(rule, f), c) for f, c in _CHOICES.items()]
    checks += [("offered", o.key, ("A", "B")) for o in rule.offered]
    checks += [("binds", b.axis, AXES) for b in rule.binds]
    checks += [("binds", b.op, OPS) for b in rule.binds]
    if bad_choice := [(f, v) for f, v, c in checks if v not in c]:
        raise ValueError(f"not one of its choices: {bad_choice}")
    return rule


RULES: dict[str, Rule] = load_rules()
OWN_ANSWER = next(r for r in RULES.values() if r.own_answer)


def decided_words(rule_id: str | None) -> str:
    """The receipt's words for a decision ("go deep on one niche …"), "" for an own answer or an
    unknown id (the caller then quotes what the CEO said)."""
    rule = RULES.get(rule_id or "")
    return rule.decided if rule is not None else ""


def verb_phrase(rule_id: str | None) -> str:
    """The simulated worker's verb phrase for a decision, "" where it has none."""
    rule = RULES.get(rule_id or "")
    return rule.verb if rule is not None else ""


def made(state: GameState) -> frozenset[str]:
    """The rules the CEO's decisions so far chose (what a rule's `after` effects read)."""
    return frozenset(s.decision.rule_id for s in state.stages if s.decision)


def combos(rule: Rule, chosen: frozenset[str]) -> list[After]:
    """The rule's effects that apply after the decisions made so far."""
    return [a for a in rule.after if a.rule in chosen]


def resolve(
    rule: Rule, econ: Economics, archetype: str, chosen: frozenset[str] = frozenset()
) -> dict[str, float]:
    """The rule's effect on this company now: base + what earlier decisions add (`chosen`: the
    rules decided so far) + the founder's extra for its kind of move + state scalings, times the
    archetype's factor."""
    eff = {k: 0.0 for k in EFFECT_FIELDS}
    for k, v in (*rule.effects, *(kv for a in combos(rule, chosen) for kv in a.effects)):
        eff[k] += v
    extra = ARCHETYPE_RULES[archetype].tag_effects  # the founder's own kind of move pays extra
    for k, v in (kv for tag in rule.tags for kv in extra.get(tag, {}).items()):
        eff[k] += v
    for sc in rule.scales:
        eff[sc.field] += sc.amount(econ)
    out = {}
    for k, raw in eff.items():
        if raw:
            v = raw * effect_factor(archetype, k, raw)
            out[k] = float(round(v)) if k in ("revenue", "cash", "overhead") else round(v, 1)
    return {k: v for k, v in out.items() if v}


def metric_now(metric: str, econ: Economics) -> str:
    """Where this company stands on a metric a scale reads, as the hint's pivot is written."""
    value = float(getattr(econ, metric))
    if metric in METERS:
        return str(meter_shown(metric, value))
    if metric == "runway_months":
        return "profitable" if econ.profitable else months_said(value)
    if metric == "market_share":
        return f"{value:.1f}%"
    if metric == "monthly_burn_usd":
        return money(value)
    return f"{value:,.0f}"


def hints(
    rule: Rule,
    econ: Economics | None = None,
    chosen: frozenset[str] = frozenset(),
    company: str = "",
) -> str:
    """How state sizes the rule's effects; given the company's numbers, each metric the hints
    read is followed by where this company stands on it ("…, less below (now 37 at Acme)"),
    once; then why an earlier decision moves it (`chosen`: the rules decided so far)."""
    said = [sc.hint() for sc in rule.scales]
    at = f" at {company}" if company else ""
    if econ is not None:
        for i, sc in enumerate(rule.scales):
            if all(later.metric != sc.metric for later in rule.scales[i + 1 :]):
                said[i] += f" (now {metric_now(sc.metric, econ)}{at})"
    said += [a.why for a in combos(rule, chosen)]
    return "; ".join(said)


def role_cost(rule: Rule, archetype: str) -> float:
    assert rule.role is not None
    return float(
        round(ROLE_COST_BY_LIFECYCLE[rule.role.lifecycle] * ARCHETYPE_RULES[archetype].role_cost)
    )


def _apply(state: GameState, rule: Rule, stage_id: str) -> OrgDelta:
    """Apply a rule to the state's numbers, org and flags in place (the real ones or a preview's
    copies). A retirement takes the oldest role an earlier decision added, else a founding worker
    whose stages are all done (never one who owns the current stage or a later one)."""
    econ, org, archetype = state.economics, state.org, state.founder.archetype
    keep = {s.worker_id for s in state.stages[state.stage_index :]}
    eff = resolve(rule, econ, archetype, made(state))
    org_delta = OrgDelta()
    if rule.retires:
        spawned = [w for w in org if w.active and w.spawned_by]
        idle = [
            w
            for w in org
            if w.active and w.kind != "human" and not w.spawned_by and w.id not in keep
        ]
        if spawned or idle:
            retired = (spawned or idle)[0]
            retired.active = False
            org_delta.removed_role_id, org_delta.removed_role_title = retired.id, retired.title
    if rule.role is not None:
        cost = role_cost(rule, archetype)
        boss = next((s.worker_id for s in state.stages if s.id == stage_id), "operator")
        role_id = f"role_{slug(stage_id, 20, ascii_only=True)}_{slug(rule.id, 30, ascii_only=True)}".replace(
            "-", "_"
        )
        org.append(
            Worker(
                id=role_id,
                title=rule.role.title,
                kind=rule.role.kind,
                lifecycle=rule.role.lifecycle,
                hint=rule.role.hint,
                monthly_cost_usd=cost,
                reports_to=boss,
                spawned_by=rule.id,
            )
        )
        org_delta.added_role_id, org_delta.added_role_title = role_id, rule.role.title
        org_delta.monthly_cost_usd = cost
    for k in METERS:
        if k in eff:
            bump(econ, k, eff[k])
    econ.treasury_usd = float(round(econ.treasury_usd + eff.get("cash", 0.0)))
    econ.overhead_usd = float(max(0.0, round(econ.overhead_usd + eff.get("overhead", 0.0))))
    # revenue is booked as market share (`recompute` clamps it to 0-100 and rounds it)
    econ.market_share += eff.get("revenue", 0.0) / econ.addressable_market_usd * 100
    if rule.flag and rule.flag not in state.flags:
        state.flags.append(rule.flag)
    econ.monthly_burn_usd = org_burn(org, econ.overhead_usd)
    recompute(econ)
    return org_delta


def effect_line(before: Economics, after: Economics, org_delta: OrgDelta) -> str:
    """What a rule did (or will do), from the numbers before and after: meters, money, roles."""
    parts = []
    for k in METERS:
        d = round(getattr(after, k) - getattr(before, k), 1)
        if d:
            parts.append(f"{LABEL[k]} {d:+g}")
    money_fields = (
        ("monthly_revenue_usd", "revenue {}/mo"),
        ("treasury_usd", "cash {}"),
        ("monthly_burn_usd", "burn {}/mo"),
    )
    for fld, fmt in money_fields:
        d = round(getattr(after, fld) - getattr(before, fld))
        if d:
            parts.append(fmt.format(("+" if d > 0 else "-") + money(abs(d))))
    roles = []
    if org_delta.added_role_title:
        roles.append(f"adds {org_delta.added_role_title} ({money(org_delta.monthly_cost_usd)}/mo)")
    if org_delta.removed_role_title:
        roles.append(f"retires {org_delta.removed_role_title}")
    if roles:
        parts.append("; ".join(roles))
    return ", ".join(parts) or "no change"


def preview_after(state: GameState, rule: Rule | str, stage_id: str) -> tuple[Economics, OrgDelta]:
    """The numbers and org change of a rule applied now, on a copy: exactly what `apply_rule` does."""
    rule = RULES[rule] if isinstance(rule, str) else rule
    probe = copy.copy(state)  # shares what no rule changes
    probe.economics = copy.copy(state.economics)
    probe.org = [copy.copy(w) for w in state.org]
    probe.flags = list(state.flags)
    return probe.economics, _apply(probe, rule, stage_id)


def preview(state: GameState, rule: Rule | str, stage_id: str) -> str:
    """The effect line of a rule applied now (what the option shows, what the receipt applies)."""
    econ, delta = preview_after(state, rule, stage_id)
    return effect_line(state.economics, econ, delta)


def apply_rule(
    state: GameState, rule: Rule | str, stage_id: str
) -> tuple[Economics, Economics, OrgDelta, dict[str, float]]:
    """Apply one rule (a decision's, or a world event's) to the company in place; return before,
    after, org delta and the resolved effect (base + scalings + archetype factor)."""
    rule = RULES[rule] if isinstance(rule, str) else rule
    before = copy.copy(state.economics)
    effect = resolve(rule, before, state.founder.archetype, made(state))
    org_delta = _apply(state, rule, stage_id)
    return before, copy.copy(state.economics), org_delta, effect
