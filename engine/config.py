"""Settings for routing and storage: WORLDFORGE_-prefixed env names (the original's unprefixed
names read as aliases, with one warning line), a .env file, a settings file holding only what the
player chose, save/config/log directories, and the "Copy env" block. API keys never reach disk.

Settings is a plain dataclass fed by `load_settings` (lowest first: the settings file, ./.env or
--env FILE, the environment; names matched case-insensitively). Every field's rule is data on the
field (`_choice`, `_text`, `_url`, `_secret`, `_number`) and is checked on construction and on
assignment, so a bad value from any source is refused by one check in one line. pydantic did
this once but cost ~0.2 s of imports and class building on every `worldforge simulate`."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args
from urllib.parse import urlsplit, urlunsplit

from worldforge_savedb.records import Record

APP_NAME = "worldforge"
SETTINGS_FILENAME = "settings.json"
SCOPE_AI = "https://ai.azure.com/.default"
SCOPE_COGNITIVE = "https://cognitiveservices.azure.com/.default"

DemoMode = Literal["simulation", "local", "live"]
Routing = Literal["local_first", "cloud_first", "local_only", "cloud_only"]
RuntimeLabel = Literal["simulation", "local", "live", "hybrid"]

SECRET_FIELDS = ("local_agent_api_key", "foundry_api_key", "azure_cosmos_key")
URL_FIELDS = (
    "local_agent_base_url",
    "foundry_base_url",
    "foundry_project_endpoint",
    "foundry_iq_endpoint",
    "azure_cosmos_endpoint",
)
# Where a URL's user name or password belongs instead (the key settings live in memory only).
_KEY_FOR_URL = {
    "local_agent_base_url": "LOCAL_AGENT_API_KEY",
    "foundry_base_url": "FOUNDRY_API_KEY",
    "foundry_project_endpoint": "FOUNDRY_API_KEY",
    "azure_cosmos_endpoint": "AZURE_COSMOS_KEY",
}
MemoryBackend = Literal["local", "cosmos"]

# Default chains per role, as in the original: the first set name wins, then the tier default.
CLOUD_CHAINS: dict[str, tuple[str, ...]] = {
    "narrator": ("narrator_model",),
    "orgdesigner": ("org_designer_model", "narrator_model"),
    "antagonist": ("antagonist_model", "narrator_model"),
    "strategist": ("strategist_model",),
    "designer": ("designer_model",),
    "marketer": ("marketer_model",),
    "ops": ("ops_model", "marketer_model"),
    "npc": ("npc_model",),
}
LOCAL_CHAINS: dict[str, tuple[str, ...]] = {
    "narrator": ("local_narrator_model", "local_agent_model"),
    "orgdesigner": ("local_org_designer_model", "local_narrator_model", "local_agent_model"),
    "antagonist": ("local_antagonist_model", "local_narrator_model", "local_agent_model"),
    "strategist": ("local_strategist_model", "local_agent_model"),
    "designer": ("local_designer_model", "local_agent_model"),
    "marketer": ("local_marketer_model", "local_agent_model"),
    "ops": ("local_ops_model", "local_agent_model"),
    "npc": ("local_npc_model", "local_agent_model"),
}


def _home() -> Path | None:
    value = os.environ.get("WORLDFORGE_HOME", "").strip()
    return Path(value).expanduser() if value else None


def _platform_dir(kind: str) -> Path:
    """The user's platform directory for WorldForge (platformdirs is imported only when
    WORLDFORGE_HOME is not set: it is a tenth of the settings module's import)."""
    import platformdirs

    return Path(getattr(platformdirs, kind)(APP_NAME))


def config_dir() -> Path:
    """Where the settings file lives: WORLDFORGE_HOME when set, else the user config dir."""
    return _home() or _platform_dir("user_config_dir")


def save_dir() -> Path:
    """Where saves live: WORLDFORGE_HOME when set, else the user data dir."""
    return _home() or _platform_dir("user_data_dir")


def log_dir() -> Path:
    """Where logs go: WORLDFORGE_HOME/logs when set, else the user log dir."""
    home = _home()
    return home / "logs" if home else _platform_dir("user_log_dir")


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILENAME


class Secret:
    """An API key held in memory only: `repr`/`str` show asterisks, `get_secret_value()` the key."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    def __str__(self) -> str:
        return "**********"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


class BadSetting(ValueError):
    """One field's value refused: which field, the value as given and what is allowed. Its text
    is `FIELD: what is allowed`; `load_settings` says where the value came from instead."""

    def __init__(self, name: str, value: object, reason: str) -> None:
        super().__init__(f"{name.upper()}: {reason}")
        self.name, self.value, self.reason = name, value, reason


_N = TypeVar("_N", int, float)  # a number field's type: its default's


# A field's rule, as dataclass field metadata: kind (choice, text, url, secret, float, int) and
# its limits; `aliases` are other names it is read under (the original's NPC_FAST_MODEL).
def _choice(options: tuple[str, ...]) -> dict[str, object]:
    return {"kind": "choice", "options": options}


SECRET: dict[str, object] = {"kind": "secret"}


def _text(
    *, max_length: int | None = 200, pattern: str | None = None, aliases: tuple[str, ...] = ()
) -> str | None:  # unset by default
    rule = {"kind": "text", "max_length": max_length, "pattern": pattern, "aliases": aliases}
    return field(default=None, metadata=rule)


def _url(*, aliases: tuple[str, ...] = ()) -> str | None:  # unset by default
    return field(default=None, metadata={"kind": "url", "aliases": aliases})


def _number(default: _N, kind: str = "float", **limits: float) -> _N:
    return field(default=default, metadata={"kind": kind, **limits})


def _as_number(value: object, kind: str) -> float:
    """A float or int field's value: numbers and numeric text (env and .env give text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"must be a valid {'integer' if kind == 'int' else 'number'}")
    if kind == "float":
        try:
            number = float(value)
        except ValueError:
            raise ValueError("must be a valid number, unable to parse string as a number") from None
        if math.isnan(number):
            raise ValueError("must be a valid number")
        return number
    try:
        whole = int(value) if not isinstance(value, float) else value
    except ValueError:
        raise ValueError("must be a valid integer, unable to parse string as an integer") from None
    if isinstance(whole, float):
        if not whole.is_integer():
            raise ValueError("must be a valid integer, got a number with a fractional part")
        whole = int(whole)
    return whole


def _within(number: float, rule: Mapping[str, object]) -> None:
    """Refuse a number outside the field's limits (`gt`, `ge`, `le`, numbers when present)."""
    gt, ge, le = rule.get("gt"), rule.get("ge"), rule.get("le")
    if isinstance(gt, int | float) and not number > gt:
        raise ValueError(f"must be greater than {gt}")
    if isinstance(ge, int | float) and not number >= ge:
        raise ValueError(f"must be greater than or equal to {ge}")
    if isinstance(le, int | float) and not number <= le:
        raise ValueError(f"must be less than or equal to {le}")


# Control characters (C0, DEL, C1) and bidirectional overrides: no setting needs one, and an
# escape sequence in a value (an OSC 52 clipboard write in a model name) would reach the terminal
# of every screen that shows it. Refused in every value, from every source, by the one check.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _no_controls(value: str) -> None:
    found = _CONTROL.search(value)
    if found is not None:
        raise ValueError(
            f"must not hold control characters (U+{ord(found.group()):04X} at character "
            f"{found.start() + 1})"
        )


def _checked(f: Field[object], value: object) -> object:
    """A field's value after its rule: text stripped (blank means unset), control characters
    refused, choices lower-cased, numbers parsed and bounded, URLs http(s) with a host, keys
    wrapped in `Secret`. Raises `BadSetting` naming the field."""
    rule = f.metadata
    if isinstance(value, str):
        value = value.strip() or None
        if value is not None:
            try:
                _no_controls(value)
            except ValueError as err:
                raise BadSetting(f.name, _CONTROL.sub("?", value), str(err)) from None
    if value is None:
        if f.default is None:
            return None
        value = ""  # a required field left blank is refused below, like any other bad value
    try:
        return _by_kind(rule, value)
    except ValueError as err:
        raise BadSetting(f.name, value, str(err)) from None


def _by_kind(rule: Mapping[str, Any], value: object) -> object:
    kind = rule["kind"]
    if kind in ("float", "int"):
        number = _as_number(value, kind)
        _within(number, rule)
        return number
    if kind == "secret" and isinstance(value, Secret):
        return value
    if kind == "choice":
        low = value.lower() if isinstance(value, str) else value
        if low not in rule["options"]:
            *head, last = (repr(o) for o in rule["options"])
            raise ValueError(f"must be {', '.join(head)} or {last}")
        return low
    if not isinstance(value, str):
        raise ValueError("must be a valid string")
    if kind == "secret":
        return Secret(value)
    if kind == "url":
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"must be an http(s) URL, got {_scrubbed(value)[:80]!r}")
        return value.rstrip("/")
    limit, pattern = rule.get("max_length"), rule.get("pattern")
    if limit is not None and len(value) > limit:
        raise ValueError(f"must have at most {limit} characters")
    if pattern is not None and not re.fullmatch(pattern, value):
        raise ValueError(f"must match the pattern {pattern!r}")
    return value


DEMO_MODES: tuple[str, ...] = get_args(DemoMode)
ROUTINGS: tuple[str, ...] = get_args(Routing)
MEMORY_BACKENDS: tuple[str, ...] = get_args(MemoryBackend)


@dataclass(kw_only=True, eq=False, repr=False)
class Settings(Record):
    """Every routing knob; field names are the env names in lower case (DEMO_MODE → demo_mode).
    Constructing one reads nothing: `load_settings()` is the one place env and file come in.
    Each value is checked as it is set (`BadSetting` on a bad one), on construction and after."""

    demo_mode: DemoMode = field(default="simulation", metadata=_choice(DEMO_MODES))
    agent_routing: Routing = field(default="local_first", metadata=_choice(ROUTINGS))

    local_agent_base_url: str | None = _url()
    local_agent_api_key: Secret | None = field(default=None, metadata=SECRET)
    local_agent_model: str | None = _text()

    narrator_model: str | None = _text()
    org_designer_model: str | None = _text()
    antagonist_model: str | None = _text()
    strategist_model: str | None = _text()
    designer_model: str | None = _text()
    marketer_model: str | None = _text()
    ops_model: str | None = _text()
    npc_model: str | None = _text(aliases=("npc_fast_model",))

    local_narrator_model: str | None = _text()
    local_org_designer_model: str | None = _text()
    local_antagonist_model: str | None = _text()
    local_strategist_model: str | None = _text()
    local_designer_model: str | None = _text()
    local_marketer_model: str | None = _text()
    local_ops_model: str | None = _text()
    local_npc_model: str | None = _text(aliases=("local_npc_fast_model",))

    foundry_project_endpoint: str | None = _url()
    foundry_base_url: str | None = _url()
    foundry_api_key: Secret | None = field(default=None, metadata=SECRET)
    foundry_fallback_model: str | None = _text()
    foundry_memory_store: str | None = _text()
    foundry_iq_knowledge_base: str | None = _text()
    # Foundry IQ knowledge bases live on the Azure AI Search service, not the Foundry project.
    foundry_iq_endpoint: str | None = _url(aliases=("azure_search_endpoint",))
    foundry_token_scope: str | None = _text(max_length=None)

    # Where binding memory lives: the local SQLite save (default) or Azure Cosmos DB for NoSQL.
    memory_backend: MemoryBackend = field(default="local", metadata=_choice(MEMORY_BACKENDS))
    azure_cosmos_endpoint: str | None = _url()
    azure_cosmos_key: Secret | None = field(
        default=None, metadata=SECRET
    )  # only when set; else DefaultAzureCredential
    azure_cosmos_database: str | None = _text()  # unset: worldforge
    azure_cosmos_memory_container: str | None = _text()  # unset: memories
    azure_cosmos_audit_container: str | None = _text()  # unset: memory-audit
    azure_cosmos_embedding_deployment: str | None = _text()

    # The TUI's look, kept with the other preferences so one file holds them (TUI_THEME in env).
    tui_theme: str | None = _text(max_length=60, pattern=r"[A-Za-z0-9_.-]+")

    agent_request_timeout: float = _number(45.0, gt=0, le=3600)
    agent_max_retries: int = _number(1, "int", ge=0, le=5)
    agent_cooldown_seconds: float = _number(30.0, ge=0, le=86_400)
    # The breaker also half-opens once this many calls have skipped a resting tier (0: time only),
    # so a script's back-to-back calls probe again instead of all going to the floor.
    agent_breaker_skips: int = _number(3, "int", ge=0, le=1000)
    agent_temperature: float = _number(0.7, ge=0, le=2)
    # Per-attempt limits inside the total deadline: a server that sends no first token (or goes
    # silent mid-stream) this long is abandoned for the next tier, labelled "silent" / "stalled".
    agent_first_token_timeout: float = _number(10.0, gt=0, le=3600)
    agent_stream_idle_timeout: float = _number(10.0, gt=0, le=3600)
    # A model answer longer than this (UTF-8 bytes) is cut off and refused before parsing.
    agent_max_answer_bytes: int = _number(262_144, "int", ge=1024, le=64 * 1024 * 1024)
    # Where a prompt overflows a model's context, the router steps to this one (same endpoint).
    local_large_context_model: str | None = _text()
    # The local model's context window in tokens, where its server does not say (0: ask it).
    local_context_window: int = _number(0, "int", ge=0, le=10_000_000)
    foundry_large_context_model: str | None = _text()

    def __setattr__(self, name: str, value: object) -> None:
        """Check the value by its field's rule; every configured key (and any password in a
        base URL) is redacted by value from all text scrubbed from now on: error bodies that
        echo it, logs, events, the screen."""
        f = _FIELDS.get(name)
        if f is not None:
            value = _checked(f, value)
            if value is not None and (name in SECRET_FIELDS or name in URL_FIELDS):
                from worldforge_textkit.scrub import register_secret

                register_secret(value if name in SECRET_FIELDS else urlsplit(str(value)).password)
        object.__setattr__(self, name, value)

    @classmethod
    def from_values(cls, values: Mapping[str, object]) -> Settings:
        """Settings from named values (field names or their aliases, any case; a field's own
        name beats its alias; unknown names ignored). Raises `BadSetting` on a refused value."""
        names = _input_names()
        chosen: dict[str, tuple[bool, Any]] = {}  # each value is checked as `Settings` sets it
        for key, value in values.items():
            field_name = names.get(key.lower()) if isinstance(key, str) else None
            if field_name is None:
                continue
            own = key.lower() == field_name
            if own or field_name not in chosen or not chosen[field_name][0]:
                chosen[field_name] = (own, value)
        return cls(**{name: value for name, (_, value) in chosen.items()})

    # --- derived views -------------------------------------------------------------------------

    def local_model_for(self, role: str) -> str | None:
        """The local model for a role after its default chain (LOCAL_<ROLE>_MODEL → … → LOCAL_AGENT_MODEL)."""
        return next((getattr(self, f) for f in LOCAL_CHAINS[role] if getattr(self, f)), None)

    def cloud_model_for(self, role: str) -> str | None:
        """The Foundry deployment for a role after its chain, else FOUNDRY_FALLBACK_MODEL."""
        named = next((getattr(self, f) for f in CLOUD_CHAINS[role] if getattr(self, f)), None)
        return named or self.foundry_fallback_model

    def foundry_openai_url(self) -> str | None:
        """The Foundry `/openai/v1` base: FOUNDRY_BASE_URL, else the project endpoint + /openai/v1."""
        if self.foundry_base_url:
            return self.foundry_base_url
        if self.foundry_project_endpoint:
            return self.foundry_project_endpoint + "/openai/v1"
        return None

    def token_scope(self) -> str:
        """Entra scope: the configured one, else chosen from the endpoint's shape."""
        if self.foundry_token_scope:
            return self.foundry_token_scope
        host = urlsplit(self.foundry_openai_url() or "").hostname or ""
        if host.endswith((".openai.azure.com", ".cognitiveservices.azure.com")):
            return SCOPE_COGNITIVE
        return SCOPE_AI

    def local_ready(self) -> bool:
        return (
            self.demo_mode in ("local", "live")
            and self.agent_routing != "cloud_only"
            and bool(self.local_agent_base_url)
            and bool(self.local_agent_model or any(self.local_model_for(r) for r in LOCAL_CHAINS))
        )

    def cloud_ready(self) -> bool:
        return (
            self.demo_mode == "live"
            and self.agent_routing != "local_only"
            and self.foundry_openai_url() is not None
        )

    def runtime_label(self) -> RuntimeLabel:
        """simulation | local | live | hybrid, as the original's runtime_mode()."""
        local, cloud = self.local_ready(), self.cloud_ready()
        if local and cloud:
            return "hybrid"
        if local:
            return "local"
        if cloud:
            return "live"
        return "simulation"


_FIELDS: dict[str, Field[object]] = {f.name: f for f in fields(Settings)}
SETTING_NAMES: tuple[str, ...] = tuple(_FIELDS)  # every field, in declaration order

ENV_PREFIX = "WORLDFORGE_"
DOTENV_NAME = ".env"


def _env_name(field: str) -> str:
    """A field's key in the settings file and its old env name (demo_mode → DEMO_MODE)."""
    return field.upper()


def env_name(field: str) -> str:
    """A field's env name (demo_mode → WORLDFORGE_DEMO_MODE); the old unprefixed one is an alias."""
    return ENV_PREFIX + field.upper()


class SettingsError(ValueError):
    """Settings that cannot be used, as one line naming the setting, where it came from and what
    is allowed. Every front end shows this line as it is: the CLI exits 2, the TUI notifies."""


class SettingsFileError(SettingsError):
    """The settings file exists but cannot be used."""


def _file_values() -> dict[str, object]:
    path = settings_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        reason = " ".join(str(exc).split())[:120]
        raise SettingsFileError(f"settings file {path} is unreadable: {reason}") from exc
    if not isinstance(data, dict):
        raise SettingsFileError(f"settings file {path} does not hold an object")
    known = set(SETTING_NAMES) - set(SECRET_FIELDS)
    return {k.lower(): v for k, v in data.items() if isinstance(k, str) and k.lower() in known}


def _input_names() -> dict[str, str]:
    """Every lower-case name Settings accepts, mapped to its field (npc_fast_model → npc_model)."""
    names = {alias: f.name for f in _FIELDS.values() for alias in f.metadata.get("aliases", ())}
    return {**names, **{name: name for name in SETTING_NAMES}}


# field -> (the variable's name as spelled, its value, where it came from)
Entries = dict[str, tuple[str, str, str]]


def _env_entries(
    environ: Mapping[str, str] | None = None, where: str = "the environment"
) -> Entries:
    """The settings among `environ`'s variables, names matched in any case. A blank value means
    unset; WORLDFORGE_<NAME> beats the old unprefixed <NAME>, and a field's own name beats its
    alias (NPC_MODEL over NPC_FAST_MODEL)."""
    names = _input_names()
    source = os.environ if environ is None else environ
    ranked: list[tuple[int, str, str, str]] = []
    for key, value in source.items():
        if not value.strip():
            continue
        low = key.lower()
        prefixed = low.startswith(ENV_PREFIX.lower()) and low[len(ENV_PREFIX) :] in names
        name = low[len(ENV_PREFIX) :] if prefixed else low
        if name not in names:
            continue
        field = names[name]
        ranked.append((2 * prefixed + (name == field), field, key, value))
    ranked.sort(key=lambda item: item[0])  # weaker names first, so stronger ones overwrite them
    return {field: (key, value, where) for _, field, key, value in ranked}


def is_old_name(name: str) -> bool:
    """An unprefixed setting name (DEMO_MODE), read as an alias of WORLDFORGE_DEMO_MODE."""
    return not name.lower().startswith(ENV_PREFIX.lower())


_env_file: Path | None = None  # --env FILE; None: a .env in the working directory, if any
_old_names: dict[str, str] = {}  # old name as spelled -> its WORLDFORGE_ name, seen this process
_old_ignored: dict[str, str] = {}  # old name as spelled -> why its value was not used


def use_env_file(path: str | Path | None) -> None:
    """Read settings from this .env-style file instead of ./.env (`worldforge --env FILE`)."""
    global _env_file
    _env_file = Path(path).expanduser() if path is not None else None


def parse_dotenv(text: str) -> dict[str, str]:
    """A .env file's KEY=VALUE pairs as python-dotenv reads them (the de facto format: `export`,
    quotes, escapes in double quotes, a trailing `# comment` after a quoted value, ${VAR}); a
    name without a value is skipped, and so is a line it cannot parse."""
    import io
    import logging

    from dotenv import dotenv_values

    # It logs a line it cannot parse; with no handler of ours that reached the terminal raw.
    logging.getLogger("dotenv").addHandler(logging.NullHandler())
    parsed = dotenv_values(stream=io.StringIO(text))
    return {key: value for key, value in parsed.items() if value is not None}


def dotenv_path() -> Path | None:
    """The .env file settings are read from: --env FILE, else ./.env when there is one."""
    if _env_file is not None:
        return _env_file
    local = Path.cwd() / DOTENV_NAME
    return local if local.is_file() else None


def _dotenv_entries() -> Entries:
    path = dotenv_path()
    if path is None:
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SettingsError(f"env file {path} is unreadable: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SettingsError(f"env file {path} is not UTF-8 text") from None
    return _env_entries(parse_dotenv(text), where=str(path))


def old_names_line() -> str | None:
    """The one warning line for old setting names read this process (and those ignored because
    their value would be refused: another tool's DEMO_MODE=true), or None."""
    lines = []
    if _old_names:
        pairs = [f"{old} → {new}" for old, new in sorted(_old_names.items())]
        shown = ", ".join(pairs[:4]) + (f" and {len(pairs) - 4} more" if len(pairs) > 4 else "")
        lines.append(f"old setting names read as aliases: {shown} (rename them to silence this)")
    if _old_ignored:
        pairs = [f"{old} ({why})" for old, why in sorted(_old_ignored.items())]
        shown = ", ".join(pairs[:3]) + (f" and {len(pairs) - 3} more" if len(pairs) > 3 else "")
        lines.append(f"ignored, not WorldForge values: {shown}")
    return "; ".join(lines) or None


def _validated(
    values: Mapping[str, object], source: str, spelled: Entries | None = None
) -> Settings:
    """`Settings` from values, or `SettingsError` naming the first refused one: the variable as
    spelled and where it came from (`spelled`'s entry for it, else `source`)."""
    try:
        return Settings.from_values(values)
    except BadSetting as exc:
        raise SettingsError(_refusal(exc, source, spelled or {})) from None


def _refusal(exc: BadSetting, source: str, spelled: Entries) -> str:
    """One line for a refused value: NAME='value' in where: what is allowed (a key's value is
    never shown)."""
    name, _, where = spelled.get(exc.name, (_env_name(exc.name), "", source))
    if exc.name in SECRET_FIELDS:
        shown = ""
    else:
        raw = exc.value
        text = raw if isinstance(raw, str) else json.dumps(raw, default=str)
        shown = "=" + repr(" ".join(_scrubbed(text).split())[:60])
    return f"{name}{shown} in {where}: {exc.reason}"


def load_settings() -> Settings:
    """Settings from, lowest first: the settings file, the .env file (./.env or --env FILE), the
    environment. A value that cannot be used raises `SettingsError`: one line naming it and
    where it came from. Old unprefixed names are read as aliases and noted for one warning; one
    whose value the field would refuse is ignored (noted in the same warning), never fatal."""
    _old_names.clear()
    _old_ignored.clear()
    file = _file_values()
    entries = {**_dotenv_entries(), **_env_entries()}
    for key, (name, value, _) in list(entries.items()):
        if not is_old_name(name):
            continue
        try:  # an unprefixed name may be another tool's: read only a value the field takes
            _checked(_FIELDS[key], value)
        except BadSetting as exc:
            del entries[key]
            _old_ignored[name] = exc.reason
            continue
        _old_names[name] = env_name(key)
    values = {**file, **{field: value for field, (_, value, _) in entries.items()}}
    global _last_loaded
    _last_loaded = _validated(
        values, source=f"the settings file {settings_path()}", spelled=entries
    )
    return _last_loaded


_last_loaded: Settings | None = None  # what load_settings gave last (the CLI's closing hints)


def azure_hint(settings: Settings | None = None) -> str | None:
    """One line when the settings (by default the last loaded) choose an Azure tier that signs in
    with Entra ID (no key given) and the `azure` extra that does the signing in is missing."""
    s = settings if settings is not None else _last_loaded
    if s is None:
        return None
    keys = []
    if s.cloud_ready() and s.foundry_api_key is None:
        keys.append(env_name("foundry_api_key"))
    if s.memory_backend == "cosmos" and s.azure_cosmos_key is None:
        keys.append(env_name("azure_cosmos_key"))
    if not keys:
        return None
    import importlib.util

    try:
        if importlib.util.find_spec("azure.identity") is not None:
            return None
    except (ImportError, ValueError):  # no azure namespace at all
        pass
    return (
        "Azure sign-in needs the azure extra: pip install 'worldforge-tui[azure]' "
        f"(or give {' / '.join(keys)})"
    )


def _scrubbed(value: str) -> str:
    from worldforge_textkit.scrub import scrub

    return scrub(value)


def url_without_userinfo(url: str) -> str:
    """The URL with any `user:password@` taken out: what caches and files may key or store."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def changed_fields(before: Settings, after: Settings) -> dict[str, object]:
    """What the player changed between two settings (None: cleared); keys are never included,
    and nothing that merely came from the environment or the defaults."""
    return {
        name: getattr(after, name)
        for name in SETTING_NAMES
        if name not in SECRET_FIELDS and getattr(before, name) != getattr(after, name)
    }


def check_choices(changes: Mapping[str, object]) -> None:
    """Refuse, in one line, a choice that must not reach the settings file: a URL with a user
    name or password in it (the password would sit on disk in clear)."""
    for name in URL_FIELDS:
        value = changes.get(name)
        if isinstance(value, str) and url_without_userinfo(value) != value:
            key = _KEY_FOR_URL.get(name)
            key = key and ENV_PREFIX + key
            instead = f"; give the key as {key} instead" if key else ""
            raise SettingsError(
                f"{_env_name(name)}: a URL with a user name or password is never saved{instead}"
            )


def save_choices(changes: Mapping[str, object]) -> Path:
    """Write the player's changes (field -> value, None clears it) into the settings file,
    atomically, keeping what the file already held: the file records only what the player
    set, never values from the environment or defaults (which would freeze them). Keys are
    never written; a URL with user-info is refused (`SettingsError`)."""
    check_choices(changes)
    values = _file_values()
    for name, value in changes.items():
        if name not in _FIELDS or name in SECRET_FIELDS:
            continue
        if value is None:
            values.pop(name, None)
        else:
            values[name] = value
    validated = _validated(values, source="the settings file")
    data = {_env_name(name): getattr(validated, name) for name in sorted(values)}
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only a settings save needs it

    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2, sort_keys=True)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def env_block(settings: Settings, *, reveal_keys: bool = False) -> str:
    """The .env lines for "Copy env": every set value, API keys masked unless reveal_keys."""
    lines: list[str] = []
    for name in SETTING_NAMES:
        value = getattr(settings, name)
        if value is None:
            continue
        if isinstance(value, Secret):
            shown = value.get_secret_value() if reveal_keys else "********"
        else:
            shown = str(value)
        lines.append(f"{env_name(name)}={shown}")
    return "\n".join(lines) + "\n"
