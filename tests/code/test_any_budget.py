"""`Any` in product code only goes down: the lines of engine, memory and the worldforge_* packages
that say `Any` outside import statements (`python -m tests.code.any_count`) stay within BUDGET.

The issue's target is 250. The count was 329 on main when this test was written and 304 after the
Cosmos documents, audit rows and query parameters became TypedDicts; 206 after settings values
became `object`, the OTLP export took its SDK's types and a Protocol for the events, and the JSON
objects read by key (artifacts, JSON Schemas, request bodies) were named `JsonObject`, once
(worldforge_textkit/json_types.py); 199 after headless typed what it tells a script. But a
`JsonObject` is `dict[str, Any]` under a name, so its lines now count as `Any` lines too: 289 on
the merged tree, counted that way; 238 after real types replaced them in the TUI's memory rows,
log payloads and the snapshot's memory (Mapping or dict[str, object]), the views' event
payloads, a pitch's reading (TypedDicts), steering's span, the Azure credential (a Protocol),
the suggestion schema and a suggestion as data (dict[str, object]) and values only passed along
(object). Lower BUDGET as real types replace more."""

from __future__ import annotations

from tests.code.any_count import count, counts

TARGET = 250  # the issue's
BUDGET = 244  # today's count: a new `Any` fails this test


def test_product_code_says_any_no_more_than_the_budget():
    total = sum(counts().values())
    assert total <= BUDGET, f"{total} lines say `Any` (budget {BUDGET}): {counts().most_common(5)}"


def test_the_budget_never_rises_above_what_was_counted_on_main():
    assert BUDGET <= TARGET <= 329  # the target is met: the budget never rises back above it


def test_the_count_skips_import_lines_and_counts_each_line_that_says_any():
    source = (
        "from typing import (\n    Any,\n    cast,\n)\n"
        "x: dict[str, Any] = {}\n"
        "def f(a: Any) -> list[Any]: ...\n"
        "# Anything and AnyStr are other words\n"
    )
    assert count(source) == 2  # two lines (the second says it twice)
    assert count("JsonObject = dict[str, Any]\ny: JsonObject = {}\n") == 2  # a name is no type
