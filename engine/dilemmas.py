"""Forks: one dilemma template per owner role and one for the final stage, each option naming its rule."""

from __future__ import annotations

from engine.antagonist import ACTIONS
from engine.economy import arc_stage
from engine.models import Dilemma, GameState, Option, Stage
from engine.rules import RULES, RULES_BY_ROLE, effect_line

TEMPLATES: dict[str, tuple[str, str, str, tuple[str, str], tuple[str, str]]] = {
    # key: (title, axis, question, (A text, A trade-off), (B text, B trade-off))
    "strategist": ("Depth or breadth?", "depth_vs_breadth",
                   "Do we own one {customer} niche or map the adjacent ones?",
                   ("Depth: own one {customer} niche end to end", "a stable loop, slower reach"),
                   ("Breadth: reach several adjacent segments fast", "wider reach, thinner proof")),
    "designer": ("Ship or polish?", "speed_vs_quality", "The MVP is at 70 percent. Do we launch it?",
                 ("Ship the 70 percent loop this week and learn from real users", "faster learning, rough edges"),
                 ("Polish to 95 percent: three more weeks of quality work", "a stronger promise, slower start")),
    "marketer": ("Adoption or runway?", "volume_vs_value", "Which customers do we chase first?",
                 ("Low price for grassroots adoption volume", "many users, thin margins"),
                 ("Fewer, bigger enterprise accounts for runway", "cash sooner, narrower reach")),
    "ops": ("Automate or steward?", "leverage_vs_trust", "Support load is climbing. Who answers customers?",
            ("Automate the support path to protect margin", "cheaper, colder"),
            ("Keep a human in the loop to protect the promise", "warmer, costlier")),
    "final": ("Shareholders or cooperative?", "ownership", "Who should own {company} from here?",
              ("Take shareholder capital and blitzscale", "speed and a board to answer to"),
              ("Form a worker-owned cooperative built on mutual aid", "trust and slower growth")),
}


def template_key(stage: Stage) -> str:
    return "final" if stage.id == "stage_8_change" else stage.owner_role


def pose(state: GameState, stage: Stage) -> Dilemma:
    key = template_key(stage)
    title, axis, question, a, b = TEMPLATES[key]
    fill = {"customer": state.founder.customer, "company": state.founder.company}
    threat = state.economics.threat
    pressure = f"{state.antagonist.name} {ACTIONS[arc_stage(threat)]} (threat {threat:.0f}/100)."
    options = [Option(key=k, text=t.format(**fill), tradeoff=tr, rule_id=rid, effect_line=effect_line(RULES[rid]))
               for k, (t, tr), rid in zip(("A", "B"), (a, b), RULES_BY_ROLE[key], strict=True)]
    return Dilemma(stage_id=stage.id, title=title, axis=axis,
                   prompt=f"{question.format(**fill)} {pressure}", options=options)
