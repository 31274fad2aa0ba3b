"""Secret scrubbing for every text that reaches disk or a screen: memories, event payloads, saved
settings, log lines, CLI output and the TUI's streamed text. Every layer scrubs (config, logs,
routing errors, events, workers, the front ends), so it lives in the toolkit, not in `memory`.

Precision first: only shapes that are unmistakably credentials (or values explicitly labelled as
secrets) are replaced with ``[redacted]``, so ordinary prose about tokens, keys and passwords survives.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import fields
from functools import cache, lru_cache
from typing import Any

REDACTED = "[redacted]"

# Every pattern is written here as (source, flags) and compiled on the first text that needs the
# full passes (`_steps`), not at import: the TUI imports this module before its first frame and most
# processes scrub only texts the pre-check lets through untouched.

# Free-standing credential shapes: recognisable wherever they appear.
_SHAPES: tuple[tuple[str, int], ...] = (
    (r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.DOTALL),
    (r"(?<![A-Za-z0-9])sk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}", 0),
    (r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])", 0),
    (r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,}", 0),
    (r"(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{22,}", 0),
    (r"(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9\-]{10,}", 0),
    (r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_\-]{35}", 0),
    (r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_\-]{20,}", 0),
    (r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", 0),
)

# "Bearer <token>" / "Basic <b64>" in headers or prose; the scheme word is kept.
_AUTH_SCHEME = (r"\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/\-]{16,}=*)", re.IGNORECASE)

# scheme://user:password@host -> scheme://[redacted]@host
_URL_CREDS = (r"\b([a-z][a-z0-9+.\-]*://)([^\s/@:]+):([^\s/@]+)@", re.IGNORECASE)

_SECRET_NAMES = (
    r"api[_\-]?key|apikey|api[_\-]?token|secret[_\-]?key|client[_\-]?secret|secret|"
    r"password|passwd|passphrase|pwd|access[_\-]?token|refresh[_\-]?token|auth[_\-]?token|"
    r"id[_\-]?token|session[_\-]?token|bearer[_\-]?token|token|private[_\-]?key|"
    r"account[_\-]?key|subscription[_\-]?key|ocp-apim-subscription-key|connection[_\-]?string|"
    r"sig|signature|credentials?"
)
# name=value or name: value (optionally quoted, JSON-ish); name may carry a prefix (OPENAI_API_KEY).
_KEY_VALUE = (
    r"(?<![A-Za-z0-9])((?:[A-Za-z0-9]+[_\-])*(?:" + _SECRET_NAMES + r"))"
    r"([\"']?[ \t]*)([:=])([ \t]*)([\"']?)([^\s\"',;&<>]+)",
    re.IGNORECASE,
)

_ALWAYS_SECRET = (r"(password|passwd|passphrase|pwd|private[_\-]?key)$", re.IGNORECASE)
_TOKENISH = (r"^(?=.*[0-9])[A-Za-z0-9_\-./+=~]{8,}$|^[A-Za-z0-9_\-./+=~]{20,}$", 0)

# Azure-style keys (32 hex / 84 base64-ish) only when a label precedes them.
_AZURE_LABELLED = (
    (
        r"((?:azure|openai|foundry|cognitive|search|speech)[\w\- ]{0,24}?key[\"']?[ \t]*[:=]?[ \t]*[\"']?)"
        r"([A-Za-z0-9]{32}|[A-Za-z0-9+/]{84}(?:==)?)(?![A-Za-z0-9])"
    ),
    re.IGNORECASE,
)


# Prose forms: "my password is hunter2", "the token X9f…", and long hex/base64 runs right after a
# key word ("Incorrect API key provided: 0123…"). A password-like word takes any value that is not
# an ordinary word about it; token/key/secret words take only token-shaped values.
_PROSE_PASSWORD = (
    (
        r"\b(password|passwd|passphrase|pwd|passcode)(\s+(?:is|was|reads|=|:)\s+[\"'`]?)"
        r"([^\s\"'`,;]{3,})"
    ),
    re.IGNORECASE,
)

_ORDINARY = frozenset(
    [
        "required",
        "incorrect",
        "wrong",
        "invalid",
        "missing",
        "not",
        "too",
        "the",
        "a",
        "an",
        "set",
        "empty",
        "expired",
        "rotated",
        "being",
        "should",
        "must",
        "unknown",
        "changed",
        "reset",
        "correct",
        "weak",
        "strong",
        "short",
        "long",
        "needed",
    ]
)
_PROSE_TOKEN = (
    (
        r"\b((?:api[ _\-]?)?(?:token|key|secret|credential|apikey)s?)(\s+(?:is\s+|was\s+|=\s*|:\s*)?[\"'`]?)"
        r"((?=[A-Za-z0-9._~+/=\-]*[0-9])(?=[A-Za-z0-9._~+/=\-]*[A-Za-z])[A-Za-z0-9._~+/=\-]{8,}"
        r"|[A-Za-z0-9._~+/=\-]{24,})"
    ),
    re.IGNORECASE,
)

_NEAR_KEYWORD_RUN = (
    (
        r"(\b(?:key|token|secret|password|credential|auth\w*|signature|sig)\b[^\n]{0,40}?)"
        r"(?<![A-Za-z0-9+/_\-])([A-Fa-f0-9]{24,}|[A-Za-z0-9+/_\-]{32,}={0,2})(?![A-Za-z0-9+/_\-])"
    ),
    re.IGNORECASE,
)


def _prose_password(match: re.Match[str]) -> str:
    word, sep, value = match.groups()
    if value.lower().strip(".!?") in _ORDINARY or value.startswith("[redacted"):
        return match.group(0)
    return f"{word}{sep}{REDACTED}"


def _prose_token(match: re.Match[str]) -> str:
    word, sep, value = match.groups()
    if value.startswith("[redacted") or value.lower().startswith(("http", "www.")):
        return match.group(0)
    return f"{word}{sep}{REDACTED}"


# Configured secret values (API keys from settings and the environment): redacted by value, in
# any text, whatever their shape; registered when settings load.
_configured: set[str] = set()
MIN_CONFIGURED = 6


def register_secret(value: object) -> None:
    """Redact this exact value (and its URL-encoded form) from every text scrubbed from now on."""
    raw = value.get_secret_value() if hasattr(value, "get_secret_value") else value
    if not isinstance(raw, str) or len(raw.strip()) < MIN_CONFIGURED:
        return
    from urllib.parse import quote

    _configured.add(raw.strip())
    _configured.add(quote(raw.strip(), safe=""))
    _by_length.cache_clear()
    _scrub_short.cache_clear()  # remembered results predate this value


@lru_cache(maxsize=1)
def _by_length() -> tuple[str, ...]:
    return tuple(sorted(_configured, key=len, reverse=True))


def _redact_configured(text: str) -> str:
    for value in _by_length():
        if value in text:
            text = text.replace(value, REDACTED)
    return text


_SECRET_FIELD = (
    r"(?:^|[_\-])(?:" + _SECRET_NAMES + r")$|^authorization$|^x-api-key$|^cookie$",
    re.IGNORECASE,
)


# The last word of every secret name above (a field named for a secret ends with one).
_NAME_ENDS = (
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "string",
    "sig",
    "signature",
    "credential",
    "credentials",
)


def _key_value(match: re.Match[str]) -> str:
    name, pre, sep, post, quote, value = match.groups()
    if value.startswith("[redacted"):
        return match.group(0)
    if sep == "=" or _rx(_ALWAYS_SECRET).search(name) or quote:
        if len(value) < 3 and not _rx(_ALWAYS_SECRET).search(name):
            return match.group(0)
    elif not _rx(_TOKENISH).match(value):
        return match.group(0)
    return f"{name}{pre}{sep}{post}{quote}{REDACTED}"


Replacement = str | Callable[[re.Match[str]], str]

# Cheap patterns (searched in the lower-cased text, no IGNORECASE) that every match of a pass
# also matches, for the passes whose fragments ordinary prose is full of ("key", "design").
# A labelled Azure key: the label, at most 24 characters (48 once lower-cased), then "key".
_LABEL_BEFORE_KEY = (r"(?:azure|openai|foundry|cognitive|search|speech).{0,48}?key", 0)
# name=value: the name ends in one of these words right before its ":" or "=".
_NAME_BEFORE_SEP = (
    (
        r"(?:key|token|secret|passw(?:or)?d|passphrase|pwd|string|sig|signature|credentials?)"
        r"[\"']?[ \t]*[:=]"
    ),
    0,
)
# A token after a key word: the word, its separator, then a run with a digit (or 24 long).
_WORD_BEFORE_TOKEN = (
    (
        r"(?:token|key|secret|credential)s?\s+(?:is\s+|was\s+|=\s*|:\s*)?[\"'`]?"
        r"(?:[a-z0-9._~+/=\-]*[0-9]|[a-z0-9._~+/=\-]{24})"
    ),
    0,
)
# A long hex or base64 run near a key word: a run of 24 such characters somewhere.
_LONG_RUN = (r"[0-9a-z+/_\-]{24}", 0)

# The passes in order (each sees the previous one's output), each with its gate: the fragments
# (in the lower-cased text) one of which every match of the pass holds, and where those are
# common, one of the patterns above. A pass whose gate finds nothing cannot match, so it is
# skipped (and never compiled): the result is that of running every pass. Replacing a match with
# "[redacted]" never creates a fragment, so one lower-cased copy (`_lowered`) serves every gate.
_PASSES: tuple[
    tuple[tuple[str, int], Replacement, tuple[str, ...], tuple[str, int] | None], ...
] = (
    (_URL_CREDS, r"\1" + REDACTED + "@", ("@",), None),
    (_AUTH_SCHEME, r"\1\2" + REDACTED, ("bearer", "basic"), None),
    (_AZURE_LABELLED, r"\1" + REDACTED, ("key",), _LABEL_BEFORE_KEY),
    (_SHAPES[0], REDACTED, ("-----begin",), None),
    (_SHAPES[1], REDACTED, ("sk-",), None),
    (_SHAPES[2], REDACTED, ("akia", "asia"), None),
    (_SHAPES[3], REDACTED, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), None),
    (_SHAPES[4], REDACTED, ("github_pat_",), None),
    (_SHAPES[5], REDACTED, ("xox",), None),
    (_SHAPES[6], REDACTED, ("aiza",), None),
    (_SHAPES[7], REDACTED, ("glpat-",), None),
    (_SHAPES[8], REDACTED, ("eyj",), None),
    (
        _KEY_VALUE,
        _key_value,
        ("key", "token", "secret", "pass", "pwd", "string", "sig", "credential"),
        _NAME_BEFORE_SEP,
    ),
    (_PROSE_PASSWORD, _prose_password, ("pass", "pwd"), None),
    (_PROSE_TOKEN, _prose_token, ("token", "key", "secret", "credential"), _WORD_BEFORE_TOKEN),
    (
        _NEAR_KEYWORD_RUN,
        r"\1" + REDACTED,
        ("key", "token", "secret", "password", "credential", "auth", "sig"),
        _LONG_RUN,
    ),
)


@cache
def _rx(spec: tuple[str, int]) -> re.Pattern[str]:
    """One pattern, compiled once per process on first use."""
    return re.compile(*spec)


# The union of every pass's fragments: a text without any is returned as is before anything else.
_TRIGGERS = tuple(sorted({fragment for *_, fragments, _gate in _PASSES for fragment in fragments}))
_SHORTEST_SECRET = 5  # "pwd=x" is the shortest text any pass redacts


# The four non-ASCII letters IGNORECASE matches to ASCII ones ("ſ" is an "s", the Kelvin sign a
# "k"), spelled the ASCII way before the gates look, so a secret word written with them is found.
_ASCII_FOLDS = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def _lowered(text: str) -> str:
    """`text` lower-cased for the gates, as long as `text` (each letter IGNORECASE would read as an
    ASCII one is that letter)."""
    return (text if text.isascii() else text.translate(_ASCII_FOLDS)).lower()


def _maybe_secret(low: str) -> bool:
    # Plain substring tests beat one regex alternation of the fragments (no literal-set engine).
    for fragment in _TRIGGERS:  # noqa: SIM110 - a plain loop beats any() on this hot path
        if fragment in low:
            return True
    return False


def _scrub(text: str) -> str:
    if _configured:
        text = _redact_configured(text)
    if len(text) < _SHORTEST_SECRET:
        return text
    low = _lowered(text)
    if not _maybe_secret(low):
        return text
    for spec, repl, fragments, gate in _PASSES:
        if any(fragment in low for fragment in fragments) and (
            gate is None or _rx(gate).search(low)
        ):
            text = _rx(spec).sub(repl, text)
    return text


# A venture scrubs the same short texts over and over (labels, names, reasons in every event:
# ~1,400 distinct of ~1,850 a venture), so short texts are scrubbed once per process and the result
# remembered; registering a secret forgets the remembered results. Long texts (artifacts) are
# scrubbed each time, so the memo stays small (at most _MEMO_SIZE x _MEMO_CHARS characters).
_MEMO_CHARS = 1024
_MEMO_SIZE = 4096
_scrub_short = lru_cache(maxsize=_MEMO_SIZE)(_scrub)


# A word a model is still writing may be drawn before it ends only when nothing redacted could grow
# out of it (issue 46): a few letters and nothing else (every credential shape above is longer, or
# holds a digit or punctuation), not the start of a shape's prefix ("sk-", "akia", "eyj"…), with no
# trigger fragment in it or in the text close before it (the value after a secret's name, a key word
# or "Bearer"), and no configured secret starting inside it.
OPEN_WORD_MAX = 12  # letters: below the shortest run any pass takes as a value on its own (16)
_OPEN_WORD_CONTEXT = 80  # characters before it: a key word and the 40 that may follow it, and more
_OPEN_WORD = re.compile(rf"[A-Za-z]{{1,{OPEN_WORD_MAX}}}\Z")


def may_show_open_word(before: str, word: str) -> bool:
    """True when `word`, the unfinished last word of a streamed text after `before`, can be drawn
    now: however the text goes on, the scrubber will not redact any of its letters. Callers still
    draw it only where scrubbing the text with it gives the text without it plus the word."""
    if not _OPEN_WORD.match(word):
        return False
    low = _lowered(word)
    near = _lowered(before[-_OPEN_WORD_CONTEXT:]) + low
    for fragment in _TRIGGERS:
        if fragment.startswith(low) or fragment in near:
            return False
    for value in _configured:  # a configured secret may start anywhere, in any shape
        for i in range(len(word)):
            if value.startswith(word[i:]):
                return False
    return True


def scrub(text: str) -> str:
    """Return `text` with credentials replaced by ``[redacted]``; non-str input is stringified."""
    if not isinstance(text, str):
        text = str(text)
    if len(text) <= _MEMO_CHARS:
        return _scrub_short(text)
    return _scrub(text)


@lru_cache(maxsize=4096)
def is_secret_field(name: str) -> bool:
    """True when a mapping key names a credential (its whole string value is then redacted)."""
    name = name.strip()
    low = _lowered(name)
    if not low.endswith(_NAME_ENDS) and low not in ("authorization", "cookie"):
        return False  # the pattern below would not match: it is not compiled
    return bool(_rx(_SECRET_FIELD).search(name))


_ATOMS = (int, float, bool, type(None))  # leaves that hold no text: returned as they are


def scrub_obj(obj: Any) -> Any:
    """Return a scrubbed copy of JSON-like data: every str scrubbed, secret-named fields redacted.
    A dataclass record is copied as the dict of its fields, as `dataclasses.asdict` copies it (an
    event payload given as a record is copied once, here, not once by asdict and again here).

    Leaves are handled in the loop (a venture's event payloads hold ~25 leaves each), so only
    nested containers cost a call."""
    if isinstance(obj, str):
        return scrub(obj)
    if isinstance(obj, dict):
        return _scrub_items(obj.items())
    if hasattr(type(obj), "__dataclass_fields__"):
        return _scrub_items((f.name, getattr(obj, f.name)) for f in fields(obj))
    if isinstance(obj, list | tuple):
        items = [
            scrub(v) if type(v) is str else v if type(v) in _ATOMS else scrub_obj(v) for v in obj
        ]
        return items if isinstance(obj, list) else tuple(items)
    return obj


def _scrub_items(items: Iterable[tuple[object, object]]) -> dict[object, object]:
    out: dict[object, object] = {}
    for key, value in items:
        if isinstance(value, str):
            secret = value and isinstance(key, str) and is_secret_field(key)
            out[key] = REDACTED if secret else scrub(value)
        elif type(value) in _ATOMS:
            out[key] = value
        else:
            out[key] = scrub_obj(value)
    return out
