"""What the settings screen edits: field lists, form values → a validated `Settings`, status pills.

Pure (no textual), so the mapping between form and settings is tested without a screen.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from engine.config import (
    CLOUD_CHAINS,
    LOCAL_CHAINS,
    SETTING_NAMES,
    URL_FIELDS,
    Secret,
    Settings,
    changed_fields,
    check_choices,
)
from engine.routing.types import ProbeRow, Tier
from worldforge_tui.text.safe_text import one_line

MODE_OPTIONS: tuple[tuple[str, str], ...] = (
    ("Offline — seeded simulation", "simulation"),
    ("Local model (OpenAI-compatible)", "local"),
    ("Live — local and Azure AI Foundry", "live"),
)
ROUTING_OPTIONS: tuple[tuple[str, str], ...] = (
    ("Local first, cloud fallback", "local_first"),
    ("Cloud first, local fallback", "cloud_first"),
    ("Local only", "local_only"),
    ("Cloud only", "cloud_only"),
)
MEMORY_OPTIONS: tuple[tuple[str, str], ...] = (
    ("Local save file (SQLite)", "local"),
    ("Azure Cosmos DB for NoSQL", "cosmos"),
)
# (field, label, secret?) for the plain inputs, in screen order.
TEXT_FIELDS: tuple[tuple[str, str, bool], ...] = (
    ("local_agent_base_url", "Local base URL", False),
    ("local_agent_model", "Local model", False),
    ("local_agent_api_key", "Local API key", True),
    ("foundry_project_endpoint", "Foundry endpoint", False),
    ("foundry_fallback_model", "Foundry model", False),
    ("azure_cosmos_endpoint", "Cosmos endpoint", False),
    ("azure_cosmos_key", "Cosmos key", True),
)
SECRET_FIELDS = frozenset(name for name, _, secret in TEXT_FIELDS if secret)


def role_fields(role: str) -> tuple[str, str]:
    """The (local, cloud) settings fields that override one role's model."""
    return LOCAL_CHAINS[role][0], CLOUD_CHAINS[role][0]


def masked_url(url: str) -> str:
    """A URL as the screen shows it: a password in it (from the environment) as ****."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    userinfo, _, host = parts.netloc.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:****@{host}"))


def field_text(settings: Settings, name: str) -> str:
    """The current value of a field as form text (secrets shown as empty: the input is masked;
    a password inside a URL as ****)."""
    value = getattr(settings, name, None)
    if value is None or isinstance(value, Secret):
        return ""
    if name in URL_FIELDS:
        value = masked_url(value)
    return one_line(value, 500)  # a hand-edited settings file may hold escapes: never echo them


def build_settings(
    base: Settings, values: dict[str, str], keep_blank: frozenset[str] = frozenset()
) -> Settings:
    """A new validated Settings: `base` with the form's values; an empty secret keeps the old key,
    as does an empty field named in `keep_blank` (a URL a web visitor is not shown).

    Raises `ValueError` with one readable line when a value is refused.
    """
    data: dict[str, Any] = {name: getattr(base, name) for name in SETTING_NAMES}
    for name, raw in values.items():
        if name not in data:
            continue
        text = raw.strip() if isinstance(raw, str) else raw
        if (name in SECRET_FIELDS or name in keep_blank) and not text:
            continue  # masked input left blank: keep the key already held in memory
        if name in URL_FIELDS and text and text == field_text(base, name):
            continue  # the URL as shown (its password masked): unchanged
        data[name] = text or None
    candidate = Settings.from_values(data)  # BadSetting (a ValueError): "FIELD: why", one line
    check_choices(changed_fields(base, candidate))  # a URL with a password is refused: one line
    return candidate


def inherited_hint(settings: Settings, role: str, tier: str) -> str:
    """Placeholder for a role's model input: what it inherits when left blank."""
    model = settings.local_model_for(role) if tier == "local" else settings.cloud_model_for(role)
    return f"inherits default ({model})" if model else "inherits default"


def pills(settings: Settings, probe: list[ProbeRow] | None = None) -> list[tuple[str, str]]:
    """Status pills (text, tone): runtime, routing, each model tier (not set, connected, its
    error, or untested / off / active / standby before a test), the memory backend."""
    out = [
        (f"runtime: {settings.runtime_label()}", "accent"),
        (f"routing: {settings.agent_routing}", "muted"),
    ]
    results = {row["tier"]: row for row in probe or ()}
    local = "untested" if settings.local_ready() else "off"
    foundry = "active" if settings.cloud_ready() else "standby"
    tiers: tuple[tuple[Tier, bool, str], ...] = (  # (tier, configured, its pill before a test)
        ("local", bool(settings.local_agent_base_url), local),
        ("foundry", settings.foundry_openai_url() is not None, foundry),
    )
    for tier, configured, untested in tiers:
        row = results.get(tier)
        if not configured:
            out.append((f"{tier}: not set", "muted"))
        elif row is None:
            out.append((f"{tier}: {untested}", "muted"))
        elif row["ok"]:
            out.append((f"{tier}: connected", "good"))
        else:
            out.append((f"{tier}: {str(row['error'] or 'down')[:40]}", "bad"))
    tone = "accent" if settings.memory_backend == "cosmos" else "muted"
    out.append((f"memory: {settings.memory_backend}", tone))
    return out
