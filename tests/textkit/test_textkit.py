"""The shared text toolkit: Unicode-aware cleaning, folding, terms, stems and slugs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import textkit
from engine.language.text import slug as engine_slug


def test_accented_names_slug_to_their_letters() -> None:
    assert textkit.slug("Café Ñandú") == "cafe-nandu"
    assert textkit.slug("Zoë's Crème Brûlée Co.") == "zoes-creme-brulee-co"
    assert textkit.slug("Łódź Østby") == "łodz-østby"  # letters without a decomposition stay
    assert textkit.slug("東京 Robotics") == "東京-robotics"  # no decomposition: letters kept
    assert textkit.slug("!!!", default="venture") == "venture"
    assert engine_slug("Café Ñandú Cooperative", 15) == "cafe-nandu-coop"
    assert textkit.slug("Thé 東京 Łódź", ascii_only=True) == "the-odz"
    assert engine_slug("東京") == "venture"  # ids and URLs stay ASCII


def test_accented_and_plain_spellings_meet_on_one_term() -> None:
    assert textkit.terms("Café naïve") == textkit.terms("cafe NAIVE")
    assert textkit.normalise("Crème  BRÛLÉE!") == "creme brulee"


def test_clean_drops_controls_and_invisible_format_characters() -> None:
    hostile = "pay\u202eroll\x00 on\u200b time\x1b[31m \t\n done"
    assert textkit.clean(hostile) == "payroll on time [31m done"
    assert textkit.clean("a" * 50, 10) == "a" * 10
    assert textkit.clean(12) == "12"


def test_stemming_meets_inflections() -> None:
    for group in (
        ("ship", "shipping", "shipped", "ships"),
        ("plan", "planned", "planning"),
        ("churn", "churned", "churning", "churns"),
        ("price", "pricing", "priced"),
    ):
        assert len({textkit.stem(w) for w in group}) == 1, group


def test_terms_drop_stopwords_and_join_compounds() -> None:
    assert textkit.terms("The churned customers are churning") == ["churn", "customer", "churn"]
    assert textkit.query_terms("trade-off") == [textkit.stem("trade"), "tradeoff"]
    assert textkit.query_terms("a b c d e f g h", limit=3) == []
    assert textkit.query_terms("clinic payroll farmers pricing", limit=2) == ["clinic", "payroll"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_clean_terms_and_slugs(text: str) -> None:
    for term in textkit.terms(text):
        assert term and term.isalnum() and " " not in term
    s = textkit.slug(text, 40)
    assert len(s) <= 40 and not s.startswith("-") and not s.endswith("-")
    cleaned = textkit.clean(text)
    assert cleaned == cleaned.strip() and "  " not in cleaned
    assert all(ch.isprintable() for ch in cleaned)
