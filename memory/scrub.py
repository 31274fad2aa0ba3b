"""Secret scrubbing for every text that reaches disk: memories, event payloads, saved settings.

Precision first: only shapes that are unmistakably credentials (or values explicitly labelled as
secrets) are replaced with ``[redacted]``, so ordinary prose about tokens, keys and passwords survives.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

REDACTED = "[redacted]"

# Free-standing credential shapes: recognisable wherever they appear.
_SHAPES: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.DOTALL
    ),
    re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
    re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])"),
    re.compile(r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,}"),
    re.compile(r"(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{22,}"),
    re.compile(r"(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9\-]{10,}"),
    re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_\-]{35}"),
    re.compile(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_\-]{20,}"),
    re.compile(r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
)

# "Bearer <token>" / "Basic <b64>" in headers or prose; the scheme word is kept.
_AUTH_SCHEME = re.compile(r"\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/\-]{16,}=*)", re.IGNORECASE)

# scheme://user:password@host -> scheme://[redacted]@host
_URL_CREDS = re.compile(r"\b([a-z][a-z0-9+.\-]*://)([^\s/@:]+):([^\s/@]+)@", re.IGNORECASE)

_SECRET_NAMES = (
    r"api[_\-]?key|apikey|api[_\-]?token|secret[_\-]?key|client[_\-]?secret|secret|"
    r"password|passwd|passphrase|pwd|access[_\-]?token|refresh[_\-]?token|auth[_\-]?token|"
    r"id[_\-]?token|session[_\-]?token|bearer[_\-]?token|token|private[_\-]?key|"
    r"account[_\-]?key|subscription[_\-]?key|ocp-apim-subscription-key|connection[_\-]?string|"
    r"sig|signature|credentials?"
)
# name=value or name: value (optionally quoted, JSON-ish); name may carry a prefix (OPENAI_API_KEY).
_KEY_VALUE = re.compile(
    r"(?<![A-Za-z0-9])((?:[A-Za-z0-9]+[_\-])*(?:" + _SECRET_NAMES + r"))"
    r"([\"']?[ \t]*)([:=])([ \t]*)([\"']?)([^\s\"',;&<>]+)",
    re.IGNORECASE,
)
_ALWAYS_SECRET = re.compile(r"(password|passwd|passphrase|pwd|private[_\-]?key)$", re.IGNORECASE)
_TOKENISH = re.compile(r"^(?=.*[0-9])[A-Za-z0-9_\-./+=~]{8,}$|^[A-Za-z0-9_\-./+=~]{20,}$")

# Azure-style keys (32 hex / 84 base64-ish) only when a label precedes them.
_AZURE_LABELLED = re.compile(
    r"((?:azure|openai|foundry|cognitive|search|speech)[\w\- ]{0,24}?key[\"']?[ \t]*[:=]?[ \t]*[\"']?)"
    r"([A-Za-z0-9]{32}|[A-Za-z0-9+/]{84}(?:==)?)(?![A-Za-z0-9])",
    re.IGNORECASE,
)

# Prose forms: "my password is hunter2", "the token X9f…", and long hex/base64 runs right after a
# key word ("Incorrect API key provided: 0123…"). A password-like word takes any value that is not
# an ordinary word about it; token/key/secret words take only token-shaped values.
_PROSE_PASSWORD = re.compile(
    r"\b(password|passwd|passphrase|pwd|passcode)(\s+(?:is|was|reads|=|:)\s+[\"'`]?)"
    r"([^\s\"'`,;]{3,})",
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
_PROSE_TOKEN = re.compile(
    r"\b((?:api[ _\-]?)?(?:token|key|secret|credential|apikey)s?)(\s+(?:is\s+|was\s+|=\s*|:\s*)?[\"'`]?)"
    r"((?=[A-Za-z0-9._~+/=\-]*[0-9])(?=[A-Za-z0-9._~+/=\-]*[A-Za-z])[A-Za-z0-9._~+/=\-]{8,}"
    r"|[A-Za-z0-9._~+/=\-]{24,})",
    re.IGNORECASE,
)
_NEAR_KEYWORD_RUN = re.compile(
    r"(\b(?:key|token|secret|password|credential|auth\w*|signature|sig)\b[^\n]{0,40}?)"
    r"(?<![A-Za-z0-9+/_\-])([A-Fa-f0-9]{24,}|[A-Za-z0-9+/_\-]{32,}={0,2})(?![A-Za-z0-9+/_\-])",
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


def _redact_configured(text: str) -> str:
    for value in sorted(_configured, key=len, reverse=True):
        if value in text:
            text = text.replace(value, REDACTED)
    return text


_SECRET_FIELD = re.compile(
    r"(?:^|[_\-])(?:" + _SECRET_NAMES + r")$|^authorization$|^x-api-key$|^cookie$", re.IGNORECASE
)


def _key_value(match: re.Match[str]) -> str:
    name, pre, sep, post, quote, value = match.groups()
    if value.startswith("[redacted"):
        return match.group(0)
    if sep == "=" or _ALWAYS_SECRET.search(name) or quote:
        if len(value) < 3 and not _ALWAYS_SECRET.search(name):
            return match.group(0)
    elif not _TOKENISH.match(value):
        return match.group(0)
    return f"{name}{pre}{sep}{post}{quote}{REDACTED}"


_STEPS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (_URL_CREDS, r"\1" + REDACTED + "@"),
    (_AUTH_SCHEME, r"\1\2" + REDACTED),
    (_AZURE_LABELLED, r"\1" + REDACTED),
    *((shape, REDACTED) for shape in _SHAPES),
    (_KEY_VALUE, _key_value),
    (_PROSE_PASSWORD, _prose_password),
    (_PROSE_TOKEN, _prose_token),
    (_NEAR_KEYWORD_RUN, r"\1" + REDACTED),
)


# Every pattern above needs one of these fragments (case-insensitively) to match, so text without
# any is returned as is: a superset check that only decides whether the full passes run. URL
# credentials need "@"; name=value secrets need a secret name, each of which holds one of
# key/secret/pass/pwd/token/sig/credential/connection. Matching lower-cased text beats an IGNORECASE regex.
_TRIGGERS = (
    "@",
    "sk-",
    "akia",
    "asia",
    "gho_",
    "ghp_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "xox",
    "aiza",
    "glpat-",
    "eyj",
    "bearer",
    "basic",
    "begin",
    "key",
    "secret",
    "pass",
    "pwd",
    "token",
    "sig",
    "credential",
    "connection",
    "auth",
)


_SHORTEST_SECRET = 5  # "pwd=x" is the shortest text any pattern above redacts


def _maybe_secret(text: str) -> bool:
    # Plain substring tests beat one regex alternation of the fragments (no literal-set engine).
    low = text.lower()
    for fragment in _TRIGGERS:
        if fragment in low:
            return True
    return False


def scrub(text: str) -> str:
    """Return `text` with credentials replaced by ``[redacted]``; non-str input is stringified."""
    if not isinstance(text, str):
        text = str(text)
    if _configured:
        text = _redact_configured(text)
    if len(text) < _SHORTEST_SECRET or not _maybe_secret(text):
        return text
    for pattern, repl in _STEPS:
        text = pattern.sub(repl, text)
    return text


@lru_cache(maxsize=4096)
def is_secret_field(name: str) -> bool:
    """True when a mapping key names a credential (its whole string value is then redacted)."""
    return bool(_SECRET_FIELD.search(name.strip()))


def scrub_obj(obj: Any) -> Any:
    """Return a scrubbed copy of JSON-like data: every str scrubbed, secret-named fields redacted."""
    if isinstance(obj, str):
        return scrub(obj)
    if isinstance(obj, dict):
        out: dict[Any, Any] = {}
        for key, value in obj.items():
            if isinstance(key, str) and isinstance(value, str) and value and is_secret_field(key):
                out[key] = REDACTED
            else:
                out[key] = scrub_obj(value)
        return out
    if isinstance(obj, list | tuple):
        items = [scrub_obj(v) for v in obj]
        return items if isinstance(obj, list) else tuple(items)
    return obj
