"""How long a model may take to start answering, from what it has shown: a slow model is not a
silent one.

Each deployment keeps the time to its first token (DeploymentCaps.first_token_s, blended over its
answers and kept in the capability cache). The first-token limit is the larger of the setting and
SLOW_MARGIN times that time, never past what is left of the call's budget. With only the
simulation behind it, a server that has not even sent its headers within the setting is silent;
one that has (it took the request and is reading the prompt, or loading the model) is given the
rest of the budget: the simulation is no better answer than a late one, and a loaded CPU can make
a first token many times slower than the model's usual.
"""

from __future__ import annotations

from dataclasses import dataclass

from worldforge_savedb.records import FrozenRecord

SLOW_MARGIN = 1.5  # a model is silent only past this multiple of the first-token time it has shown
BLEND = 0.5  # weight of an older measurement when a faster answer comes in (a slower one wins)


@dataclass(frozen=True, eq=False, repr=False)
class FirstToken(FrozenRecord):
    """One attempt's clocks before its first token: `headers` for the response to start at all,
    `token` for the first token (both from the send, both within the attempt's budget)."""

    headers: float
    token: float


def learned(old: float | None, seen_s: float) -> float:
    """The blended first-token time after an answer whose first token came after `seen_s`: a
    slower answer is taken at once (the next call must wait for it), a faster one halfway."""
    seen = max(0.0, seen_s)
    if old is None or seen >= old:
        return round(seen, 2)
    return round(BLEND * old + (1 - BLEND) * seen, 2)


def expected(first_token_s: float | None, tokens_per_s: float | None, prompt: int) -> float | None:
    """The first-token time to expect for a prompt of `prompt` (estimated) tokens: what the model
    has shown, or the time it takes to read this prompt at the rate its probe measured, whichever
    is longer (a model that read a short probe fast may take long over a stage's brief)."""
    reading = prompt / tokens_per_s if tokens_per_s else None
    if reading is None or (first_token_s is not None and first_token_s >= reading):
        return first_token_s
    return round(reading, 2)


def limit(setting: float, known: float | None, remaining: float) -> float:
    """The first-token limit for a deployment whose first token has taken `known` seconds."""
    want = setting if known is None else max(setting, SLOW_MARGIN * known)
    return max(0.0, min(want, remaining))


def first_token(
    setting: float, known: float | None, remaining: float, has_next: bool
) -> FirstToken:
    """The clocks for one attempt. With another model behind it, both are the learned limit (the
    attempt is watched past it to learn, `Router._attempt`). With nothing behind it but the
    simulation, a server without headers by the learned limit is silent, and one that has
    answered is given the rest of the budget."""
    bounded = limit(setting, known, remaining)
    return FirstToken(bounded, bounded if has_next else remaining)


def is_slow(first_token_ms: float | None, setting: float) -> bool:
    """An answer whose first token came later than the setting's limit: served, and labelled slow."""
    return first_token_ms is not None and first_token_ms / 1000 > setting


def slow_words(first_token_ms: float) -> str:
    """ "slow (first token in 19 s)", as the pill and the log say it."""
    return f"slow (first token in {first_token_ms / 1000:.0f} s)"
