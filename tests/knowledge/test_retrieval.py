"""BM25 section retrieval over the shipped playbooks: ranking, no-match, determinism, hostile input."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knowledge import KnowledgeHit, KnowledgeIndex, retrieval, search
from knowledge.models import HIT_TEXT_LIMIT
from knowledge.retrieval import default_index, split_sections
from worldforge_textkit import clip, query_terms, stem
from worldforge_textkit import slug as slugify
from worldforge_textkit import terms as tokenize


@pytest.mark.parametrize(
    ("query", "expected_file"),
    [
        ("burn runway breakeven monthly recurring revenue", "playbooks/finance.md"),
        ("why do customers churn and how do we keep them", "playbooks/operations-retention.md"),
        ("net promoter score detractors", "playbooks/operations-retention.md"),
        ("problem interviews willingness to pay", "playbooks/discovery.md"),
        ("ICP wedge value proposition", "playbooks/positioning.md"),
        ("landing page call to action ship or polish", "playbooks/mvp.md"),
        ("acquisition channels CAC launch sequence", "playbooks/go-to-market.md"),
        ("pods span of control digital workers", "playbooks/org-design.md"),
        ("cooperative ownership versus shareholder capital", "playbooks/governance.md"),
        ("rival price cut feature copying", "playbooks/rivals.md"),
    ],
)
def test_topic_queries_rank_their_playbook_first(query, expected_file):
    hits = search(query, top_k=2)
    assert hits, query
    assert hits[0].source.split("#")[0] == expected_file


def test_hits_point_at_a_specific_section():
    hits = search("net burn runway months", top_k=1)
    assert hits[0].source == "playbooks/finance.md#burn-and-runway"
    assert hits[0].title.endswith("/ Burn and runway")
    assert hits[0].origin == "local-knowledge"
    assert "net burn" in hits[0].text.lower()


def test_stage_goals_find_relevant_sections():
    take = search("Account for burn, support, rivalry. Runway and support plan keeping trust >80%")
    assert {h.source.split("#")[0] for h in take} <= {
        "playbooks/finance.md",
        "playbooks/operations-retention.md",
        "playbooks/rivals.md",
    }
    change = search("Lock shareholder growth vs cooperative equilibrium")
    assert change[0].source.startswith("playbooks/governance.md")


@pytest.mark.parametrize(
    "query", ["", "   ", "zxqv blorp", "the and of to with", "!!! ??? ...", "a b c"]
)
def test_query_without_matching_terms_returns_nothing(query):
    assert search(query) == []


def test_top_k_bounds_and_ordering():
    hits = search("customers revenue churn pricing", top_k=5)
    assert len(hits) == 5
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert search("customers", top_k=0) == []
    assert search("customers", top_k=-3) == []
    assert len(search("customers", top_k=10_000)) <= 20


def test_results_are_deterministic_across_fresh_indexes():
    query = "pricing churn runway governance channels"
    first = search(query, top_k=6)
    rebuilt = KnowledgeIndex.from_package().search(query, top_k=6)
    assert first == rebuilt


def test_equal_scores_break_ties_on_source_path():
    body = "## Alpha\nshared widget words here\n"
    index = KnowledgeIndex.from_texts(
        {"playbooks/b.md": "# B\n" + body, "playbooks/a.md": "# A\n" + body}
    )
    hits = index.search("widget", top_k=2)
    assert [h.source for h in hits] == ["playbooks/a.md#alpha", "playbooks/b.md#alpha"]
    assert hits[0].score == hits[1].score


def test_rare_terms_outweigh_common_ones():
    index = KnowledgeIndex.from_texts(
        {
            "p/x.md": "# X\n## One\ncustomer customer customer plan\n",
            "p/y.md": "# Y\n## Two\ncustomer escrow\n",
            "p/z.md": "# Z\n## Three\ncustomer plan\n",
        }
    )
    assert index.search("customer escrow")[0].source == "p/y.md#two"


def test_index_is_built_once_and_shared():
    assert default_index() is default_index()
    assert len(default_index()) >= 40


def test_sections_split_on_level_two_headings():
    sections = split_sections(
        "p/doc.md",
        "# Doc Title\nintro line\n## First Part\nbody one\n### sub\nmore\n## Q&A: Why?\nbody two\n",
    )
    assert [s.source for s in sections] == ["p/doc.md", "p/doc.md#first-part", "p/doc.md#q-a-why"]
    assert sections[1].title == "Doc Title / First Part"
    assert "### sub" in sections[1].text


def test_tokenizer_stems_and_drops_stopwords():
    assert tokenize("The churned customers are churning") == ["churn", "customer", "churn"]
    assert stem("pricing") == stem("price") == stem("priced")
    assert query_terms("runway RUNWAY runways of the") == ["runway"]
    assert slugify("Reading a rival's move") == "reading-a-rivals-move"
    assert query_terms("trade-off") == [stem("trade"), "tradeoff"]
    assert (
        search("the core trade-off")[0].source
        == "playbooks/discovery.md#urgent-needs-and-the-core-tradeoff"
    )


def test_clip_limits_text_and_strips_control_characters():
    text = clip("word " * 400 + "\x00\x07", HIT_TEXT_LIMIT)
    assert len(text) <= HIT_TEXT_LIMIT
    assert text.endswith("…")
    assert "\x00" not in clip("a\x00b", HIT_TEXT_LIMIT)


@pytest.mark.parametrize(
    "query",
    [
        "[bold]burn[/] [/] [link=x]runway",
        "<script>alert('churn')</script>",
        "runway\x00\x00burn\x1b[31m",
        "💸 burn 🔥 runway ✓ Ümlaut ﷽",
        "burn " * 200_000,
        "x" * 1_000_000,
    ],
    ids=[
        "rich-markup",
        "html",
        "nul-and-escapes",
        "unicode",
        "repeated-200k-words",
        "one-mb-token",
    ],
)
def test_hostile_queries_do_not_crash(query):
    hits = search(query, top_k=2)
    assert len(hits) <= 2
    assert all(isinstance(h, KnowledgeHit) and len(h.text) <= HIT_TEXT_LIMIT for h in hits)


def test_non_string_input_returns_nothing():
    assert search(None) == []
    assert search(b"burn") == []
    assert search("burn", top_k="2") == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400), st.integers(min_value=-2, max_value=8))
def test_any_text_gives_well_formed_hits(query, top_k):
    hits = search(query, top_k=top_k)
    assert len(hits) <= max(top_k, 0)
    assert all(h.score > 0 and h.source.startswith("playbooks/") for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_knowledge_package_never_imports_textual():
    code = (
        "import sys, knowledge, knowledge.iq, knowledge.retrieval; knowledge.search('burn'); "
        "assert 'textual' not in sys.modules; assert 'azure.identity' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_playbook_counts_match_the_playbooks_and_the_tokenizer():
    """The shipped term counts are what counting the playbooks gives now (refresh them with
    `knowledge.retrieval.write_counts()` after editing a playbook or the tokenizer)."""
    files = retrieval.playbook_texts()
    counted = KnowledgeIndex(retrieval._sections(files)).counts()
    assert retrieval.shipped_counts(retrieval.fingerprint(files)) == counted, (
        "stale knowledge/playbook_counts.json: run knowledge.retrieval.write_counts()"
    )


def test_counts_are_used_only_for_the_texts_they_came_from():
    files = retrieval.playbook_texts()
    assert retrieval.shipped_counts(retrieval.fingerprint(files)) is not None
    edited = dict(files)
    edited["playbooks/rivals.md"] += "\n## New\nescrow widgets\n"
    assert retrieval.shipped_counts(retrieval.fingerprint(edited)) is None
    assert KnowledgeIndex.from_texts(edited).search("escrow widgets")[0].source.endswith("#new")
