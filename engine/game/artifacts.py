"""What each worker role ships: one contract per role, written as data.

A contract serves two readers. The simulation tier's artifacts are the engine's own output, so
`shaped` brings them to the contract's form (fields in order, defaults filled, numbers typed, other
keys dropped) with no validation and no pydantic import. A model's answer is untrusted: `model(role)`
builds the contract's pydantic class (on first use, once per process) that the router validates it
against and whose JSON Schema the model is asked for.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from worldforge_savedb.records import FrozenRecord

if TYPE_CHECKING:
    from pydantic import BaseModel

MAX_MEMORY_WRITES = 6
REQUIRED: object = ...  # a field without a default
Kind: TypeAlias = "type | Contract"  # what a field holds (list: `of` names the item's kind)


@dataclass(frozen=True, eq=False, repr=False)
class Field(FrozenRecord):
    """One field: its type (str, int, float, dict for any JSON object, a Contract, or list with
    `of` naming the item type), its default (None: the field may be null) and what it means."""

    name: str
    type: Kind
    default: object = REQUIRED
    of: Kind | None = None
    description: str | None = None
    max_items: int | None = None


@dataclass(frozen=True, eq=False)  # one object per contract: cached by identity
class Contract:
    """A named record of fields (the base's first), as the JSON Schema names it."""

    name: str
    fields: tuple[Field, ...]
    base: Contract | None = None
    doc: str | None = None

    def all_fields(self) -> tuple[Field, ...]:
        return (self.base.all_fields() if self.base else ()) + self.fields


FOLLOWS_DECISION = Contract(
    "FollowsDecision",
    (
        Field(
            "rule_id",
            str,
            description="the binding decision's rule id (or the memory id of a "
            "rejection or standup direction), or 'none'",
        ),
        Field("how", str, description="one sentence on how the artifact follows it"),
    ),
)
CITE = Contract(
    "Cite",
    (
        Field("field", str, description="a field of this artifact a binding direction shaped"),
        Field(
            "notes",
            list,
            of=str,
            description="the memory note ids (or short labels) of the directions that shaped it",
        ),
    ),
)
ARTIFACT_BASE = Contract(
    "ArtifactBase",
    (
        Field("summary", str, description="two sentences on what this artifact is"),
        Field("follows_decision", FOLLOWS_DECISION),
        Field(
            "memory_writes",
            list,
            default=[],
            of=dict,
            max_items=MAX_MEMORY_WRITES,
            description="optional notes to remember: [{kind: preference|context, text, importance}]",
        ),
        Field(
            "cites",
            list,
            default=[],
            of=CITE,
            description="each field a binding direction shaped, with the notes it came from",
        ),
    ),
)
ORG_ROLE = Contract(
    "OrgRole",
    (Field("role", str), Field("reports_to", str, default=None), Field("responsibility", str, "")),
)
OKR = Contract("OKR", (Field("objective", str), Field("key_results", list, of=str)))
CHANNEL = Contract(
    "Channel",
    (Field("channel", str), Field("expected_cac_usd", float), Field("weekly_hours", float)),
)
FINANCIAL_PLAN = Contract(
    "FinancialPlan",
    (
        Field("price_usd_per_month", float, default=None),
        Field("price_per", str, default=None),
        Field("paying_customers_m1_to_m6", list, default=[], of=int),
        Field("target_mrr_usd_m1_to_m6", list, of=float),
        Field("burn_usd_per_month", float),
        Field("breakeven_month", int),
        Field("churn_target_pct", float),
    ),
    doc="Six months of revenue targets; the simulation tier states the price a customer pays a\n"
    "    month and the paying customers behind each target (engine.writing.plan), a model may not.\n"
    "    `price_per` names the thing one price buys when the CEO priced per thing ('repair'): the\n"
    "    plan then counts one a month per paying customer, and the price reads '$29 a repair'.",
)
CONTRACTS: dict[str, Contract] = {
    "strategist": Contract(
        "StrategistArtifact",
        (
            Field("target_audience", str),
            Field("core_problem", str),
            Field("value_proposition", str),
            Field("primary_benefit", str),
            Field("org_chart", list, of=ORG_ROLE),
            Field("okrs_q1", list, of=OKR),
        ),
        base=ARTIFACT_BASE,
    ),
    "designer": Contract(
        "DesignerArtifact",
        (
            Field("hero_headline", str),
            Field("cta_text", str),
            Field("url", str),
            Field("features", list, of=str),
            Field("integrations", list, default=[], of=str),
            Field("wireframe_notes", str, ""),
        ),
        base=ARTIFACT_BASE,
    ),
    "marketer": Contract(
        "MarketerArtifact",
        (
            Field("subject", str),
            Field("body", str),
            Field("gtm_channels", list, of=CHANNEL),
            Field("financial_plan", FINANCIAL_PLAN),
        ),
        base=ARTIFACT_BASE,
    ),
    "ops": Contract(
        "OpsArtifact",
        (
            Field("retention_loops", list, of=str),
            Field("churn_drivers", list, of=str),
            Field("nps_plan", str),
            Field("support_workflow", list, of=str),
            Field("financial_plan", FINANCIAL_PLAN),
        ),
        base=ARTIFACT_BASE,
    ),
}


# Every artifact field's place, in its contract's order (the base's first): how every view lists
# an artifact's fields, whatever order a stored payload kept them in (the save sorts its keys).
FIELD_ORDER: dict[str, int] = {}
for _contract in CONTRACTS.values():
    for _field in _contract.all_fields():
        FIELD_ORDER.setdefault(_field.name, len(FIELD_ORDER))


def in_field_order(artifact: dict[str, Any]) -> list[tuple[str, Any]]:
    """An artifact's fields in contract order; a field no contract names keeps its place after."""
    return sorted(artifact.items(), key=lambda item: FIELD_ORDER.get(item[0], len(FIELD_ORDER)))


def _value(kind: Kind | None, value: object) -> object:
    if isinstance(kind, Contract):
        return _record(kind, value)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def _record(contract: Contract, value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise TypeError(f"{contract.name} is not an object")
    out: dict[str, object] = {}
    for f in contract.all_fields():
        if f.name in value:
            v = value[f.name]
        elif f.default is REQUIRED:
            raise KeyError(f"{contract.name}.{f.name} is missing")
        else:
            v = copy.copy(f.default)
        if isinstance(v, list) and f.type is list:
            v = [_value(f.of, item) for item in v]
        elif v is not None:
            v = _value(f.type, v)
        out[f.name] = v
    return out


def shaped(role: str, artifact: dict[str, Any]) -> dict[str, Any]:
    """The engine's own artifact in its contract's JSON form: what validating it with `model(role)`
    and dumping it as JSON gives (a test holds the two equal), without building the model."""
    return _record(CONTRACTS[role], artifact)


@functools.cache
def _pydantic(contract: Contract) -> type[BaseModel]:
    from pydantic import ConfigDict, create_model
    from pydantic import Field as PydanticField

    def annotation(kind: Kind | None) -> Any:  # a type expression, built at run time
        return _pydantic(kind) if isinstance(kind, Contract) else kind

    fields: dict[str, Any] = {}
    for f in contract.fields:
        kind = list[annotation(f.of)] if f.type is list else annotation(f.type)  # type: ignore[misc]
        if f.default is None:
            kind = kind | None
        extra: dict[str, Any] = {}
        if f.description is not None:
            extra["description"] = f.description
        if f.max_items is not None:
            extra["max_length"] = f.max_items
        if isinstance(f.default, list):
            extra["default_factory"] = list
        else:
            extra["default"] = f.default
        fields[f.name] = (kind, PydanticField(**extra))
    if contract.base is not None:
        base = _pydantic(contract.base)
        return create_model(contract.name, __base__=base, __doc__=contract.doc, **fields)
    config = ConfigDict(extra="ignore") if contract is ARTIFACT_BASE else None
    return create_model(contract.name, __config__=config, __doc__=contract.doc, **fields)


def model(role: str) -> type[BaseModel]:
    """The role's contract as a pydantic class, built on first use: what a model's answer is
    validated against and whose JSON Schema the model is asked for."""
    return _pydantic(CONTRACTS[role])


def contract_errors(role: str, value: object) -> int:
    """How many ways `value` breaks the role's contract (0: it fits), by its pydantic class."""
    from pydantic import ValidationError

    try:
        model(role).model_validate(value)
    except ValidationError as err:
        return err.error_count()
    return 0


ROLES: tuple[str, ...] = tuple(CONTRACTS)
