"""What each worker role ships: one pydantic contract per role (the JSON Schema models are asked for)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

MAX_MEMORY_WRITES = 6


class FollowsDecision(BaseModel):
    rule_id: str = Field(
        description="the binding decision's rule id (or the memory id of a "
        "rejection or standup direction), or 'none'"
    )
    how: str = Field(description="one sentence on how the artifact follows it")


class ArtifactBase(BaseModel):
    model_config = ConfigDict(extra="ignore")
    summary: str = Field(description="two sentences on what this artifact is")
    follows_decision: FollowsDecision
    memory_writes: list[dict[str, Any]] = Field(
        default_factory=list,
        max_length=MAX_MEMORY_WRITES,
        description="optional notes to remember: [{kind: preference|context, text, importance}]",
    )


class OrgRole(BaseModel):
    role: str
    reports_to: str | None = None
    responsibility: str = ""


class OKR(BaseModel):
    objective: str
    key_results: list[str]


class StrategistArtifact(ArtifactBase):
    target_audience: str
    core_problem: str
    value_proposition: str
    primary_benefit: str
    org_chart: list[OrgRole]
    okrs_q1: list[OKR]


class DesignerArtifact(ArtifactBase):
    hero_headline: str
    cta_text: str
    url: str
    features: list[str]
    integrations: list[str] = Field(default_factory=list)
    wireframe_notes: str = ""


class Channel(BaseModel):
    channel: str
    expected_cac_usd: float
    weekly_hours: float


class FinancialPlan(BaseModel):
    """Six months of revenue targets; the simulation tier states the price a customer pays a
    month and the paying customers behind each target (engine.writing.plan), a model may not."""

    price_usd_per_month: float | None = None
    paying_customers_m1_to_m6: list[int] = Field(default_factory=list)
    target_mrr_usd_m1_to_m6: list[float]
    burn_usd_per_month: float
    breakeven_month: int
    churn_target_pct: float


class MarketerArtifact(ArtifactBase):
    subject: str
    body: str
    gtm_channels: list[Channel]
    financial_plan: FinancialPlan


class OpsArtifact(ArtifactBase):
    retention_loops: list[str]
    churn_drivers: list[str]
    nps_plan: str
    support_workflow: list[str]
    financial_plan: FinancialPlan


ARTIFACT_MODELS: dict[str, type[ArtifactBase]] = {
    "strategist": StrategistArtifact,
    "designer": DesignerArtifact,
    "marketer": MarketerArtifact,
    "ops": OpsArtifact,
}
