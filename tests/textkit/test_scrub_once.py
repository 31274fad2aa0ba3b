"""Scrubbing pays once: short texts are remembered per process, patterns compile on first need, and
the results are exactly those of running every pass over every text (the pre-check and the memo
only skip work)."""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from worldforge_textkit import scrub as scrubbing
from worldforge_textkit.scrub import REDACTED, is_secret_field, register_secret, scrub, scrub_obj

# Pieces that make the passes fire or nearly fire, mixed with ordinary game prose.
PIECES = [
    "sk-",
    "sk-proj-",
    "abcdefghijklmnopqrstuvwxyz012345",
    "AKIA",
    "IOSFODNN7EXAMPLE",
    "ghp_",
    "github_pat_",
    "xoxb-",
    "AIza",
    "glpat-",
    "eyJ",
    ".eyJ",
    "Bearer ",
    "basic ",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "://",
    "user:",
    "pw@",
    "host",
    "api_key",
    "OPENAI_API_KEY",
    "password",
    "passcode",
    "token",
    "secret",
    "signature",
    "sig",
    "credential",
    "connection_string",
    "auth",
    "author",
    "design",
    "key",
    "apikey",
    "id_token",
    "connection_string",
    "x-api-key",
    "Passphrase",
    "PWD",
    "task-",
    "Asia",
    "search key ",
    "speech",
    "research",
    "SPEECH-KEY",
    "Signature",
    "credentials",
    "\t",
    "paſsword",
    "\u212aey",
    "İd_token",
    "credentıal",
    "=",
    " is ",
    "=",
    ": ",
    '"',
    "'",
    "0123456789abcdef0123456789abcdef",
    "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6",
    "hunter2",
    "required",
    "azure openai key ",
    " ",
    "\n",
    ".",
    ",",
    "the rival cut prices",
    "farmers",
    "[redacted]",
]


def every_pass(text: str) -> str:
    """The scrubber without its shortcuts: configured values, then every pass in order."""
    text = scrubbing._redact_configured(text)
    for spec, repl, _fragments, _gate in scrubbing._PASSES:
        text = re.compile(*spec).sub(repl, text)
    return text


texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=12), max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_the_shortcuts_change_no_result(text):
    first = scrub(text)
    assert first == every_pass(text)
    assert scrub(text) == first  # the remembered result is the same


@settings(max_examples=60, deadline=None)
@given(texts)
def test_long_texts_scrub_the_same_without_the_memo(text):
    long = text + " filler" * 200
    assert len(long) > scrubbing._MEMO_CHARS
    assert scrub(long) == every_pass(long)


def test_a_secret_registered_later_is_redacted_from_a_remembered_text():
    text = "the vendor gave us Zq7-unusual-value-991 last week"
    assert scrub(text) == text  # remembered as clean
    register_secret("Zq7-unusual-value-991")
    try:
        assert scrub(text) == f"the vendor gave us {REDACTED} last week"
    finally:
        scrubbing._configured.clear()
        scrubbing._by_length.cache_clear()
        scrubbing._scrub_short.cache_clear()


def test_importing_the_scrubber_compiles_nothing():
    code = (
        "import worldforge_textkit.scrub as s; assert s._rx.cache_info().currsize == 0; "
        "assert s.scrub('plain prose about farmers') == 'plain prose about farmers'; "
        "assert s._rx.cache_info().currsize == 0, 'a clean text compiled the passes'; "
        "assert s.scrub('the designer keeps a key customer') == 'the designer keeps a key customer'; "
        "assert s._rx.cache_info().currsize < len(s._PASSES), 'a gate let every pass run'; "
        "assert s.scrub('password: hunter22') == 'password: [redacted]'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def scrub_obj_reference(obj):
    """scrub_obj as first written: one call per node."""
    if isinstance(obj, str):
        return scrub(obj)
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            if isinstance(key, str) and isinstance(value, str) and value and is_secret_field(key):
                out[key] = REDACTED
            else:
                out[key] = scrub_obj_reference(value)
        return out
    if isinstance(obj, list | tuple):
        items = [scrub_obj_reference(v) for v in obj]
        return items if isinstance(obj, list) else tuple(items)
    return obj


leaves = texts | st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none()
keys = st.sampled_from(["api_key", "password", "name", "reason", "token", "x"]) | st.text(
    max_size=6
)
payloads = st.recursive(
    leaves,
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.lists(kids, max_size=3).map(tuple)
        | st.dictionaries(keys, kids, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(payloads)
def test_scrub_obj_gives_what_one_call_per_node_gave(obj):
    assert scrub_obj(obj) == scrub_obj_reference(obj)


field_names = st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=4).map("".join)


@settings(max_examples=600, deadline=None)
@given(field_names)
def test_the_field_name_shortcut_changes_no_result(name):
    is_secret_field.cache_clear()
    assert is_secret_field(name) == bool(re.compile(*scrubbing._SECRET_FIELD).search(name.strip()))
