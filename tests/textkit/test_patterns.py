"""worldforge_textkit.patterns.Pattern: a module-level regex compiled on first use, answering as re.compile's."""

from __future__ import annotations

import re

from worldforge_textkit.patterns import Pattern


def test_a_pattern_compiles_on_first_use_and_answers_as_re_does():
    source, flags = r"\b(price|cost)s?\b", re.IGNORECASE
    lazy, eager = Pattern(source, flags), re.compile(source, flags)
    assert lazy._compiled is None  # importing a module that holds one compiles nothing
    text = "Prices rose; the COST of a price is costs."
    assert lazy.search(text).span() == eager.search(text).span()
    assert lazy.match(text).group(1) == eager.match(text).group(1)
    assert lazy.fullmatch("cost") is not None and lazy.fullmatch("costly") is None
    assert lazy.findall(text) == eager.findall(text)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert lazy.sub("X", text) == eager.sub("X", text)
    assert lazy.sub(lambda m: m.group(1).upper(), text, 1) == eager.sub(
        lambda m: m.group(1).upper(), text, 1
    )
    assert lazy.split(text, 1) == eager.split(text, 1)
    assert lazy.compiled is lazy.compiled  # compiled once, then shared
    assert (lazy.pattern, lazy.compiled.flags) == (eager.pattern, eager.flags)
