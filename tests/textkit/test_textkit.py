"""The shared text toolkit: Unicode-aware cleaning, folding, terms, stems and slugs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import worldforge_textkit


def test_accented_names_slug_to_their_letters() -> None:
    assert worldforge_textkit.slug("Café Ñandú") == "cafe-nandu"
    assert worldforge_textkit.slug("Zoë's Crème Brûlée Co.") == "zoes-creme-brulee-co"
    assert (
        worldforge_textkit.slug("Łódź Østby") == "łodz-østby"
    )  # letters without a decomposition stay
    assert (
        worldforge_textkit.slug("東京 Robotics") == "東京-robotics"
    )  # no decomposition: letters kept
    assert worldforge_textkit.slug("!!!", default="venture") == "venture"
    assert (
        worldforge_textkit.slug("Café Ñandú Cooperative", 15, ascii_only=True) == "cafe-nandu-coop"
    )
    assert worldforge_textkit.slug("Thé 東京 Łódź", ascii_only=True) == "the-odz"
    assert (
        worldforge_textkit.slug("東京", default="venture", ascii_only=True) == "venture"
    )  # ids stay ASCII


def test_accented_and_plain_spellings_meet_on_one_term() -> None:
    assert worldforge_textkit.terms("Café naïve") == worldforge_textkit.terms("cafe NAIVE")
    assert worldforge_textkit.normalise("Crème  BRÛLÉE!") == "creme brulee"


def test_clean_drops_controls_and_invisible_format_characters() -> None:
    hostile = "pay\u202eroll\x00 on\u200b time\x1b[31m \t\n done"
    assert worldforge_textkit.clean(hostile) == "payroll on time [31m done"
    assert worldforge_textkit.clean("a" * 50, 10) == "a" * 10
    assert worldforge_textkit.clean(12) == "12"


def test_stemming_meets_inflections() -> None:
    for group in (
        ("ship", "shipping", "shipped", "ships"),
        ("plan", "planned", "planning"),
        ("churn", "churned", "churning", "churns"),
        ("price", "pricing", "priced"),
        ("guarantee", "guaranteed", "guarantees"),  # "drop the guarantee" meets "guaranteed"
        ("agree", "agreed", "agrees"),
    ):
        assert len({worldforge_textkit.stem(w) for w in group}) == 1, group


def test_terms_drop_stopwords_and_join_compounds() -> None:
    assert worldforge_textkit.terms("The churned customers are churning") == [
        "churn",
        "customer",
        "churn",
    ]
    assert worldforge_textkit.query_terms("trade-off") == [
        worldforge_textkit.stem("trade"),
        "tradeoff",
    ]
    assert worldforge_textkit.query_terms("a b c d e f g h", limit=3) == []
    assert worldforge_textkit.query_terms("clinic payroll farmers pricing", limit=2) == [
        "clinic",
        "payroll",
    ]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_clean_terms_and_slugs(text: str) -> None:
    for term in worldforge_textkit.terms(text):
        assert term and term.isalnum() and " " not in term
    s = worldforge_textkit.slug(text, 40)
    assert len(s) <= 40 and not s.startswith("-") and not s.endswith("-")
    cleaned = worldforge_textkit.clean(text)
    assert cleaned == cleaned.strip() and "  " not in cleaned
    assert all(ch.isprintable() for ch in cleaned)


def test_one_tokenizer_keeps_contractions_and_compounds_whole() -> None:
    said = "Don't trade-off the rival’s Café; 犬のトリミング"
    assert worldforge_textkit.words(said) == [
        "don't",
        "trade-off",
        "the",
        "rival's",
        "café",
        "犬",
        "トリミング",
    ]
    assert worldforge_textkit.content_words("We won't sell to the dog owners, les clients") == [
        "sell",
        "dog",
        "owners",
        "clients",
    ]
    assert worldforge_textkit.has_phrase(said, "don't") and not worldforge_textkit.has_phrase(
        said, "don"
    )
    assert worldforge_textkit.has_phrase("a cat-sitting app", "cat-sitting")
    assert not worldforge_textkit.has_phrase("a cat-sitting app", "cat")
    # a phrase whose first word is there, but not the rest after it; and one at the very end
    assert not worldforge_textkit.has_phrase("walk the dog, then cut prices", "walk prices")
    assert worldforge_textkit.has_phrase(["we", "cut", "prices"], "cut prices")


def test_words_are_the_same_remembered_or_split_and_a_caller_cannot_change_them() -> None:
    """Short texts' words are remembered per process: every call still gets its own list, and a
    long text (split each time) or a CJK one splits as a short one does."""
    short = "Don't sell to the rival’s clinics; 犬のトリミング"
    first = worldforge_textkit.words(short)
    first.append("poisoned")
    first[0] = "do"
    assert worldforge_textkit.words(short) == [
        "don't",
        "sell",
        "to",
        "the",
        "rival's",
        "clinics",
        "犬",
        "トリミング",
    ]
    long = " ".join([short] * 40)  # past the memo's length: split, not remembered
    assert (
        len(long) > 400 and worldforge_textkit.words(long) == worldforge_textkit.words(short) * 40
    )
    assert worldforge_textkit.words("犬のトリミング") == ["犬", "トリミング"]
    assert worldforge_textkit.words("no cjk here, o'clock") == ["no", "cjk", "here", "o'clock"]


def test_engine_and_memory_share_one_stopword_list() -> None:
    import engine.language.text as engine_text
    from engine.language import pitch, steering
    from engine.language.reader import pick as reading

    assert not hasattr(engine_text, "STOPWORDS") and not hasattr(engine_text, "words")
    for module in (pitch, reading):
        assert module.STOPWORDS is worldforge_textkit.STOPWORDS
    # the direction reader keeps no word list of its own: its words are data (language/vocab)
    assert not hasattr(steering, "STOPWORDS")


def test_index_terms_are_single_fts5_tokens() -> None:
    """`terms` cut words where SQLite's unicode61 tokenizer does, so each term the index stores
    is one FTS5 token and a quoted query term finds it."""
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 0')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
    text = "Don't trade-off the rival's naïve Café-owners; O'Brien’s 24/7 shop"
    found = worldforge_textkit.terms(text)
    conn.execute("INSERT INTO t (x) VALUES (?)", (" ".join(found),))
    assert {r[0] for r in conn.execute("SELECT term FROM v")} == set(found)
    assert "don" in found and "tradeoff" in found and "obrien" not in found


def test_notes_that_differ_by_a_number_are_not_near_duplicates() -> None:
    from memory.guards import NEAR_DUPLICATE, similarity

    assert similarity("Price it at $25 a month", "Price it at $30 a month") < NEAR_DUPLICATE
    assert similarity("Don't pitch dog owners", "don’t PITCH dog owners") == 1.0


def test_clean_walks_no_character_of_printable_non_ascii_text(monkeypatch) -> None:
    """Prose with a dash or an accent and line breaks has no control or format character in its
    words: it is cleaned (NFC, whitespace folded) without asking the category of each of its characters, and gives the same
    text as the walk would."""
    import unicodedata

    asked: list[str] = []
    real = unicodedata.category

    def category(ch: str) -> str:
        asked.append(ch)
        return real(ch)

    monkeypatch.setattr(unicodedata, "category", category)
    text = "Cafe\u0301 crème —\na  “fair”\tprice for Łódź\r\n"
    assert worldforge_textkit.clean(text) == "Café crème — a “fair” price for Łódź"
    assert asked == []
    assert worldforge_textkit.clean("pay\u202eroll\u00a0now") == "payroll now"  # still walked
    assert asked


@settings(max_examples=500, deadline=None)
@given(
    st.text()
    | st.lists(
        st.sampled_from(
            ["a", "é", " ", "\n", "\t", "\x00", "\x1b", "\u200b", "\u00a0", "\u2028", "\x85"]
        )
    ).map("".join)
)
def test_clean_is_the_character_walk(text: str) -> None:
    """Whatever the text, `clean` gives what walking every character's category gives."""
    import unicodedata

    walked = "".join(
        " " if unicodedata.category(ch) == "Cc" else ch
        for ch in unicodedata.normalize("NFC", text)
        if not unicodedata.category(ch).startswith(("Cf", "Cs", "Co", "Cn"))
    )
    assert worldforge_textkit.clean(text) == " ".join(walked.split())
