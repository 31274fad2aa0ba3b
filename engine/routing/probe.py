"""What `routing test` asks each model endpoint beyond listing its models: a one-token completion
(the tier really answers, not only lists), and whether it *enforces* a JSON schema or only accepts
one. The schema asks for a value no model writes by chance (an enum of one odd token), with a prompt
that never mentions it: an endpoint that returns it is enforcing the schema; one that answers with
anything else took the schema and ignored it ("schema advisory": its output is validated here, as
every answer is, with one re-ask)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from engine.routing.errors import Failure, classify
from engine.routing.extract import json_candidates
from engine.routing.health import LADDER, Capabilities, DeploymentCaps
from engine.routing.target import Target

if TYPE_CHECKING:
    from engine.routing.openai_tier import Limits

PROBE_TOKEN = "kestrel-7741-umber"
PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"wf_probe": {"type": "string", "enum": [PROBE_TOKEN]}},
    "required": ["wf_probe"],
    "additionalProperties": False,
}
PROBE_PROMPT = "Greet a new colleague in one short sentence."
MAX_RUNGS = len(LADDER)


def _limits(timeout: float) -> Limits:
    from engine.routing.openai_tier import Limits

    return Limits(total=timeout, first_token=timeout, idle=timeout, max_bytes=65_536)


async def one_token(
    target: Target, caps: DeploymentCaps, timeout: float, prompt: str = "Say OK."
) -> dict[str, Any]:
    """A one-token completion (no response_format), timed; the error in the player's words."""
    from engine.routing.openai_tier import Ask, chat

    plain = DeploymentCaps(
        send_temperature=caps.send_temperature,
        token_param=caps.token_param,
        json_mode="none",
        stream_usage=caps.stream_usage,
    )
    started = time.perf_counter()
    try:
        ask = Ask([{"role": "user", "content": prompt}], "probe", {}, 1, 0.0)
        comp = await chat(target, ask, caps=plain, limits=_limits(timeout))
    except Exception as exc:  # noqa: BLE001 - reported, never raised
        failure = classify(exc)
        return _row(target, started, ok=False, error=failure.reason)
    return _row(
        target,
        started,
        ok=True,
        tokens=comp.tokens_out,
        first_token_ms=round(comp.first_token_ms, 1) if comp.first_token_ms else None,
    )


def _row(target: Target, started: float, **extra: Any) -> dict[str, Any]:
    return {
        "tier": target.tier,
        "endpoint": target.endpoint,
        "model": target.model,
        "ms": round((time.perf_counter() - started) * 1000, 1),
        **extra,
    }


def _matches(text: str | None) -> bool:
    if not text:
        return False
    values, _ = json_candidates(text)
    return any(isinstance(v, dict) and v.get("wf_probe") == PROBE_TOKEN for v in values)


async def schema_enforcement(
    target: Target, caps_store: Capabilities, timeout: float
) -> dict[str, Any]:
    """Ask for PROBE_SCHEMA on the rung the deployment uses (stepping down where the endpoint
    refuses a rung, as a call would) and record whether the answer held to it."""
    from engine.routing.errors import format_failure
    from engine.routing.health import next_json_mode
    from engine.routing.openai_tier import Ask, chat

    caps = caps_store.for_deployment(target.endpoint, target.model, target.default_token_param)
    started = time.perf_counter()
    failure: Failure | None = None
    answer = ""  # what the endpoint said on the rung it took ("": no rung constrains it)
    for _ in range(MAX_RUNGS):
        if caps.json_mode == "none":
            break  # prompt-only: nothing constrains the output, so nothing is enforced
        try:
            ask = Ask(
                [{"role": "user", "content": PROBE_PROMPT}], "wf_probe", PROBE_SCHEMA, 40, 0.0
            )
            comp = await chat(target, ask, caps=caps, limits=_limits(timeout))
        except Exception as exc:  # noqa: BLE001 - reported, never raised
            import openai

            fmt = format_failure(exc) if isinstance(exc, openai.APIStatusError) else None
            nxt = next_json_mode(caps.json_mode) if fmt is not None else None
            if nxt is not None:
                caps.json_mode = nxt  # the endpoint refused this rung: the next one down
                continue
            failure = classify(exc)
            break
        answer = comp.text or ""
        break
    if failure is not None:
        return _row(target, started, ok=False, mode=caps.json_mode, error=failure.reason)
    caps.schema_enforced = _matches(answer)
    caps_store.learn(target.endpoint, target.model, caps)
    return _row(
        target,
        started,
        ok=True,
        mode=caps.json_mode,
        enforced=caps.schema_enforced,
        answer=answer[:80],
    )


def describe(row: dict[str, Any]) -> str:
    """One line for `routing test`: enforced, advisory, or why it could not be told."""
    if not row.get("ok"):
        return f"schema    could not probe ({row.get('error')})"
    if row.get("enforced"):
        return f"schema    enforced ({row['mode']})"
    return (
        f"schema    advisory ({row['mode']}: the endpoint accepts a schema and does not hold to "
        "it; answers are validated here, with one re-ask)"
    )


__all__ = ["PROBE_SCHEMA", "describe", "one_token", "schema_enforcement"]
