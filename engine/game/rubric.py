"""Validators with real floors and the rubric, including adherence to every recalled direction.

A score is earned: junk that does not fit the role's contract scores 0, and an artifact that breaks
a binding direction recalled for its brief is flagged DRIFT, naming the direction and what the
artifact did instead (engine.game.adherence.check), and capped below a pass.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.game import artifacts
from engine.game.adherence import CITES, gate
from engine.game.flaws import PENALTY, find_flaws
from engine.game.models import Rubric
from engine.language.artifact_text import strings
from engine.language.composition import audiences, conflicts
from engine.language.directions import Binding
from worldforge_textkit import content_words, has_phrase, words

WEIGHTS = {
    "relevance": 25,
    "completeness": 25,
    "actionability": 20,
    "clarity": 10,
    "compliance": 20,
}
DRIFT_BELOW = 60
DRIFT_CAP = 60
_URL = re.compile(r"^https://[a-z0-9-]+(\.[a-z0-9-]+)+(/[\w\-./]*)?$", re.IGNORECASE)
_PLACEHOLDER_HOSTS = ("example.com", "example.org", "localhost")
_CTA = ("[cta]", "[link]", "http", "sign up", "book a", "reply", "join", "start")


def _as_dollars(dumped: str) -> str:
    """JSON text with its £ and € escapes written as $ (one character, no digits)."""
    return dumped.replace("\\u00a3", "$").replace("\\u20ac", "$")


# What a failed check means, in plain words (the player never sees a check's id).
CHECK_NOTES = {
    "target_audience_specific": "the audience is too vague",
    "core_problem_specific": "the problem is too vague",
    "value_proposition_specific": "the value is too vague",
    "primary_benefit_specific": "the benefit is too vague",
    "org_chart_has_roles": "the org chart has fewer than two roles",
    "org_chart_has_founder": "the org chart has no founder",
    "okrs_present": "there are no OKRs",
    "okrs_measurable": "the key results have no numbers",
    "headline_specific": "the headline is too short to say anything",
    "cta_present": "there is no call to action",
    "url_real": "the page address is a placeholder",
    "features_listed": "fewer than three features",
    "subject_specific": "the subject line is vague",
    "body_substantial": "the email is too short",
    "body_has_cta": "the email asks for nothing",
    "mrr_monotonic": "the revenue targets fall or stop",
    "breakeven_plausible": "the breakeven month is implausible",
    "burn_stated": "the burn is missing",
    "churn_target_sane": "the churn target is implausible",
    "channels_costed": "the channels are not costed",
    "retention_loops": "fewer than two retention loops",
    "churn_drivers": "fewer than two churn drivers",
    "nps_plan": "no plan to ask customers",
    "support_workflow": "the support workflow has fewer than three steps",
}


def _text(v: object, n: int = 10) -> bool:
    return isinstance(v, str) and len(v.strip()) > n and len(words(v)) >= 3


def _list(v: object, n: int) -> bool:
    return isinstance(v, list) and len(v) >= n


def _items(v: object) -> list[object]:
    """A JSON list's items; nothing for anything else."""
    return v if isinstance(v, list) else []


def _positioning(a: Mapping[str, object]) -> dict[str, bool]:
    return {
        f"{k}_specific": _text(a.get(k))
        for k in ("target_audience", "core_problem", "value_proposition", "primary_benefit")
    }


def _org_chart(a: Mapping[str, object]) -> dict[str, bool]:
    chart, okrs = _items(a.get("org_chart")), _items(a.get("okrs_q1"))
    return {
        "org_chart_has_roles": _list(chart, 2),
        "org_chart_has_founder": any(
            "founder" in str(r.get("role", "")).lower() for r in chart if isinstance(r, dict)
        ),
        "okrs_present": _list(okrs, 1),
        "okrs_measurable": any(
            isinstance(o, dict)
            and _list(o.get("key_results"), 2)
            and any(re.search(r"\d", str(k)) for k in o["key_results"])
            for o in okrs
        ),
    }


def _landing(a: Mapping[str, object]) -> dict[str, bool]:
    url, cta = str(a.get("url", "")), a.get("cta_text")
    return {
        "headline_specific": _text(a.get("hero_headline"), 15),
        "cta_present": isinstance(cta, str) and len(cta.strip()) >= 3,
        "url_real": bool(_URL.match(url)) and not any(h in url for h in _PLACEHOLDER_HOSTS),
        "features_listed": _list(a.get("features"), 3),
    }


def _email(a: Mapping[str, object]) -> dict[str, bool]:
    body = str(a.get("body", ""))
    return {
        "subject_specific": _text(a.get("subject"), 10),
        "body_substantial": len(body) >= 100,
        "body_has_cta": any(c in body.lower() for c in _CTA),
    }


def _financial(a: Mapping[str, object]) -> dict[str, bool]:
    ch, fp = a.get("gtm_channels"), a.get("financial_plan")
    fp = fp if isinstance(fp, dict) else {}
    mrr = fp.get("target_mrr_usd_m1_to_m6") or []
    checks = {
        "mrr_monotonic": _list(mrr, 4)
        and all(isinstance(x, int | float) for x in mrr)
        and all(b >= a for a, b in itertools.pairwise(mrr))
        and mrr[-1] > 0,
        "breakeven_plausible": isinstance(fp.get("breakeven_month"), int)
        and 1 <= fp["breakeven_month"] <= 24,
        "burn_stated": isinstance(fp.get("burn_usd_per_month"), int | float)
        and fp["burn_usd_per_month"] >= 0,
        "churn_target_sane": isinstance(fp.get("churn_target_pct"), int | float)
        and 0 < fp["churn_target_pct"] < 20,
    }
    if ch is not None:
        checks["channels_costed"] = (
            isinstance(ch, list)
            and len(ch) >= 3
            and all(
                isinstance(c, dict)
                and c.get("weekly_hours", 0) > 0
                and c.get("expected_cac_usd", -1) >= 0
                for c in ch
            )
        )
    return checks


def _retention(a: Mapping[str, object]) -> dict[str, bool]:
    return {
        "retention_loops": _list(a.get("retention_loops"), 2),
        "churn_drivers": _list(a.get("churn_drivers"), 2),
        "nps_plan": _text(a.get("nps_plan")),
        "support_workflow": _list(a.get("support_workflow"), 3),
    }


VALIDATORS: dict[str, list[Callable[[Mapping[str, object]], dict[str, bool]]]] = {
    "strategist": [_positioning, _org_chart],
    "designer": [_landing],
    "marketer": [_email, _financial],
    "ops": [_retention, _financial],
}


def artifact_text(artifact: Mapping[str, object]) -> str:
    """All of an artifact's prose except its own claim of compliance and its memory notes."""
    body = {k: v for k, v in artifact.items() if k not in ("follows_decision", "memory_writes")}
    return " ".join(strings(body))


def adherence(
    role: str, artifact: dict[str, Any], binding: Binding, rivals: tuple[str, ...] = ()
) -> tuple[int, list[str], list[dict[str, Any]]]:
    """Each recalled direction checked against the artifact's fields, with its citations and its
    customer copy (engine.game.adherence.gate): 100 when every one holds, 0 on any violation
    (DRIFT, naming the direction and what the artifact did instead)."""
    notes: list[str] = []
    claimed = str((artifact.get("follows_decision") or {}).get("rule_id", ""))
    if binding.rule_id and claimed not in ("", "none", binding.rule_id):
        notes.append("names a different decision than the binding one")
    found = gate(role, artifact, binding.directions, rivals=rivals)
    violations = [{**v.to_dict(), "line": v.line} for v in found]
    return (0 if violations else 100), notes, violations


def _is_named_audience(value: object, binding: Binding | None) -> bool:
    """Whether the audience field is exactly the audience a recalled direction names (what the
    model tiers' schema holds a model to: an enum), which no floor may call vague."""
    said = str(value or "").strip().lower()
    named = binding.directions if binding else []
    return bool(said) and (
        any(d.axis == "audience" and d.value.strip().lower() == said for d in named)
        or audiences(named).strip().lower() == said  # several audiences, side by side
    )


def _unfit(check: str, note: str) -> Rubric:
    """The score of an answer that is not work of its kind: the one check it failed, all zero."""
    return Rubric(
        dimensions={k: 0 for k in WEIGHTS},
        checks={check: False},
        floor=0,
        compliance=0,
        drift=True,
        final=0,
        notes=[note],
    )


def evaluate(
    role: str,
    artifact: object,
    *,
    goal: str,
    founder_keywords: list[str],
    customer: str | None = None,
    binding: Binding | None = None,
    validated: bool = False,
    rivals: tuple[str, ...] = (),
) -> Rubric:
    """Score an artifact (dict or JSON text) for a role. Contract violations floor it at 0;
    `validated`: it is known to fit (a model's answer the router validated, or the simulation's,
    the engine's own), so the contract's pydantic class is not built to check it again.

    Compliance is the adherence check of every recalled direction (`binding`, folded from the
    brief's recalled memory): a broken direction is DRIFT, named, and caps the score below a pass."""
    if isinstance(artifact, str):
        try:
            artifact = json.loads(artifact)
        except ValueError:
            artifact = None
    if not isinstance(artifact, dict):
        return _unfit("is_json_object", "not a JSON object")
    errors = 0 if validated else artifacts.contract_errors(role, artifact)
    if errors:
        return _unfit("fits_contract", f"does not fit the {role} contract ({errors} errors)")
    checks: dict[str, bool] = {}
    for validator in VALIDATORS[role]:
        checks.update(validator(artifact))
    if role == "strategist" and _is_named_audience(artifact.get("target_audience"), binding):
        checks["target_audience_specific"] = True  # the CEO named it: as specific as it gets
    floor = round(100 * sum(checks.values()) / len(checks))
    work = {k: v for k, v in artifact.items() if k != CITES}  # the citations are no content
    text = words(artifact_text(work))
    targets = (founder_keywords[:5] + content_words(goal)[:5]) or ["customer"]
    relevance = round(
        100 * min(1.0, sum(has_phrase(text, t) for t in targets) / max(1, len(targets) * 0.6))
    )
    # a £ or € counts as the $ does (json escapes them as \u00a3, \u20ac: no digits of the work)
    numbers = len(re.findall(r"\d", _as_dollars(json.dumps(work))))
    actionability = min(100, 40 + 4 * numbers)
    fields = [s for s in strings(work) if s.strip()]
    distinct = len(set(fields)) / max(1, len(fields))
    clarity = round(100 * distinct) if all(len(s) <= 1500 for s in fields) else 50
    comp, notes, violations = adherence(role, artifact, binding or Binding(), rivals)
    dims = {
        "relevance": relevance,
        "completeness": floor,
        "actionability": actionability,
        "clarity": clarity,
        "compliance": comp,
    }
    final = round(sum(dims[k] * w for k, w in WEIGHTS.items()) / sum(WEIGHTS.values()))
    drift = comp < DRIFT_BELOW
    drift_note = violations[0]["direction"] if violations else None
    flaws = find_flaws(role, artifact, customer=customer or "", drift_note=drift_note)
    final = max(0, final - PENALTY * sum(1 for f in flaws if f["kind"] != "ignores_decision"))
    if drift:
        final = min(final, DRIFT_CAP)
    notes = (
        [v["line"] for v in violations]
        + [
            f["note"][:1].upper() + f["note"][1:]
            for f in flaws
            if f["kind"] != "ignores_decision" or not violations
        ]
        + (notes if not drift else [])
    )
    notes += [CHECK_NOTES.get(k, k.replace("_", " ")) for k, ok in checks.items() if not ok]
    notes += [c.line for c in conflicts(binding.directions if binding else [])]
    return Rubric(
        dimensions=dims,
        checks=checks,
        floor=floor,
        compliance=comp,
        drift=drift,
        final=final,
        notes=notes,
        flaws=flaws,
        violations=violations,
    )
