"""Secret scrubbing: every common credential shape goes, ordinary prose stays."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from worldforge_textkit.scrub import REDACTED, scrub, scrub_obj

SECRETS = [
    ("openai", "use sk-abcdefghijklmnopqrstuvwxyz0123456789 for calls", "sk-abcdefghijklmnop"),
    ("openai-proj", "key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx_yz-123456", "AbCdEfGhIjKlMnOp"),
    ("aws", "creds AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),
    ("github", "token ghp_" + "A1b2C3d4E5" * 4 + " ok", "A1b2C3d4E5A1b2C3"),
    ("github-pat", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "11ABCDEFG0123456789"),
    ("slack", "slack xoxb-123456789012-abcdefghijkl", "123456789012-abcdef"),
    ("google", "maps AIzaSyA1234567890abcdefghijklmnopqrstuv", "SyA1234567890abcdef"),
    ("bearer", "Authorization: Bearer abc.def-ghi_jkl.mnopqrstuvwxyz", "abc.def-ghi_jkl"),
    (
        "jwt",
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0",
        "dozjgNryP4J3jVmNHl0w5N",
    ),
    ("url", "db at postgres://admin:s3cr3tpw@db.example.com:5432/x", "s3cr3tpw"),
    ("kv-eq", "OPENAI_API_KEY=plainvalue42", "plainvalue42"),
    ("kv-colon", "password: correct-horse", "correct-horse"),
    ("kv-json", '{"client_secret": "zzTopSecretValue"}', "zzTopSecretValue"),
    ("kv-token", "access_token=ya29.a0AfH6SMBx1234", "ya29.a0AfH6SMBx1234"),
    (
        "azure-labelled",
        "azure openai key: 0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef",
    ),
    (
        "private-key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA",
    ),
]

PROSE = [
    "The token budget is 700 tokens; key insight: depth beats breadth.",
    "Our secret: we ship before the rival does.",
    "Passwords should be rotated quarterly, says the ops checklist.",
    "Bearer bonds are not part of the treasury plan.",
    "Farmers in the valley pay invoices 45 days late; offer a discount.",
    "Skip the 32-character hex dump 0123456789abcdef0123456789abcdef in the report.",
    "Visit https://example.com/pricing?plan=pro for details.",
    "CEO chose depth over breadth on day 12 (rule depth.focus).",
]


@pytest.mark.parametrize(("name", "text", "canary"), SECRETS, ids=[s[0] for s in SECRETS])
def test_secret_shapes_are_redacted(name: str, text: str, canary: str) -> None:
    out = scrub(text)
    assert canary not in out
    assert REDACTED in out


@pytest.mark.parametrize("text", PROSE)
def test_ordinary_prose_survives(text: str) -> None:
    assert scrub(text) == text


def test_scrub_obj_recurses_and_redacts_secret_fields() -> None:
    data = {
        "api_key": "short",
        "nested": [{"note": "pw is sk-" + "x" * 30}],
        "usage": {"max_tokens": 12, "prompt_tokens": 3},
        "tags": ("AKIAIOSFODNN7EXAMPLE",),
    }
    out = scrub_obj(data)
    assert out["api_key"] == REDACTED
    assert "x" * 30 not in out["nested"][0]["note"]
    assert out["usage"] == {"max_tokens": 12, "prompt_tokens": 3}
    assert out["tags"] == (REDACTED,)
    assert data["api_key"] == "short"  # a new object; the input is untouched


@dataclasses.dataclass
class _Leaf:
    note: str
    tags: tuple[str, ...] = ()


@dataclasses.dataclass
class _Payload:
    api_key: str
    leaves: list[_Leaf]
    usage: dict[str, int]
    day: int = 3
    ignored: ClassVar[str] = "not a field"


def test_a_record_is_scrubbed_as_the_dict_asdict_makes_of_it() -> None:
    """An event payload given as a record: one copy, the same data asdict then scrub_obj gave."""
    rec = _Payload("short", [_Leaf("pw is sk-" + "x" * 30, ("AKIAIOSFODNN7EXAMPLE",))], {"n": 1})
    out = scrub_obj(rec)
    assert out == scrub_obj(dataclasses.asdict(rec))
    assert type(out) is dict and type(out["leaves"][0]) is dict
    assert list(out) == ["api_key", "leaves", "usage", "day"]
    assert out["api_key"] == REDACTED and out["leaves"][0]["tags"] == (REDACTED,)
    assert rec.api_key == "short" and out["usage"] is not rec.usage  # a copy; the record untouched
    assert scrub_obj(_Payload) is _Payload  # a record's class is not a record


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_scrub_never_crashes_and_is_idempotent(text: str) -> None:
    once = scrub(text)
    assert scrub(once) == once


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz .,", max_size=200))
def test_lowercase_prose_is_untouched(text: str) -> None:
    assert scrub(text) == text
