"""Local knowledge retrieval: the playbooks split by `##` section and ranked with BM25.

Each section is its own document so a hit points at the paragraph that answers, not a whole file;
a query sharing no term with any section returns nothing rather than every file.
"""

from __future__ import annotations

import json
import math
import threading
import zlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from knowledge.models import HIT_TEXT_LIMIT, KnowledgeHit
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import clip, query_terms, slug, terms

K1 = 1.2
B = 0.75
HEADING_WEIGHT = 3
MAX_TOP_K = 20
PLAYBOOK_DIR = "playbooks"


@dataclass(frozen=True, eq=False, repr=False)
class Section(FrozenRecord):
    """One rankable unit: a `##` section of a playbook (or the text before the first one)."""

    source: str
    title: str
    text: str


def split_sections(path: str, markdown: str) -> list[Section]:
    """Split a Markdown file into sections at `##` headings; `# Title` names the document."""
    doc_title = path.rsplit("/", 1)[-1].removesuffix(".md")
    heading: str | None = None
    body: list[str] = []
    sections: list[Section] = []

    def flush() -> None:
        text = "\n".join(body).strip()
        if not text:
            return
        if heading is None:
            sections.append(Section(path, doc_title, text))
        else:
            sections.append(Section(f"{path}#{slug(heading)}", f"{doc_title} / {heading}", text))

    for line in markdown.splitlines():
        if line.startswith("# ") and heading is None and not body:
            doc_title = line[2:].strip() or doc_title
        elif line.startswith("## "):
            flush()
            heading, body = line[3:].strip(), []
        else:
            body.append(line)
    flush()
    return sections


Postings = dict[str, list[list[int]]]  # term -> [section number, term count] per section
Counts = tuple[list[int], Postings]  # each section's length in terms, and the postings


def count_terms(sections: list[Section]) -> Counts:
    """What BM25 needs from the texts: each section's length in terms and each term's postings."""
    lengths: list[int] = []
    postings: Postings = {}
    for i, section in enumerate(sections):
        found = terms(section.text) + terms(section.title) * HEADING_WEIGHT
        lengths.append(len(found))
        for term, tf in sorted(Counter(found).items()):
            postings.setdefault(term, []).append([i, tf])
    return lengths, postings


class KnowledgeIndex:
    """A BM25 index over sections, built once; searching never touches the files again."""

    def __init__(self, sections: Iterable[Section], counts: Counts | None = None) -> None:
        """`counts`: `count_terms` of these sections (sorted by source) when already known."""
        self.sections: list[Section] = sorted(sections, key=lambda s: s.source)
        self._lengths, self._postings = counts or count_terms(self.sections)
        self._found: dict[tuple[str, int], list[KnowledgeHit]] = {}  # hits are frozen: shared
        count = len(self.sections)
        self._avg_len = (sum(self._lengths) / count) if count else 0.0
        self._idf = {
            term: math.log(1.0 + (count - len(posts) + 0.5) / (len(posts) + 0.5))
            for term, posts in self._postings.items()
        }

    @classmethod
    def from_texts(cls, files: Mapping[str, str]) -> KnowledgeIndex:
        """Index Markdown texts keyed by their relative path."""
        return cls(_sections(files))

    @classmethod
    def from_package(cls) -> KnowledgeIndex:
        """Index the playbooks shipped inside the `knowledge` package (beside this module, as
        installed; `importlib.resources` would also read them from a zip, but its import pulled
        zipfile and its readers into every venture). Their term counts come from COUNTS_FILE
        when it was written from these very texts (their fingerprint), else they are counted."""
        files = playbook_texts()
        return cls(_sections(files), shipped_counts(fingerprint(files)))

    def counts(self) -> Counts:
        """The term counts this index ranks with (what COUNTS_FILE holds for the playbooks)."""
        return self._lengths, self._postings

    def __len__(self) -> int:
        return len(self.sections)

    def search(self, query: str, top_k: int = 2) -> list[KnowledgeHit]:
        """Top sections by BM25 score; ties break on source path. No shared term means [].
        The index never changes, so each (query, top_k) is ranked once (workers ask the same
        stage goals again and again)."""
        if not isinstance(query, str) or not isinstance(top_k, int) or top_k <= 0:
            return []
        key = (query, top_k)
        if key not in self._found:
            if len(self._found) >= 1024:  # bounded: a player's free text can be a query too
                self._found.clear()
            self._found[key] = self._rank(query, top_k)
        return list(self._found[key])

    def section(self, title: str) -> KnowledgeHit | None:
        """The section of that title ("Doc / Heading"), whole, as a hit; None when there is none
        (a rule's record names the section its standup cites)."""
        found = next((s for s in self.sections if s.title == title), None)
        if found is None:
            return None
        return KnowledgeHit(
            source=found.source,
            title=found.title,
            text=clip(found.text, HIT_TEXT_LIMIT),
            score=0.0,
            origin="local-knowledge",
        )

    def _rank(self, query: str, top_k: int) -> list[KnowledgeHit]:
        scores: dict[int, float] = {}
        for term in query_terms(query):
            posts = self._postings.get(term)
            if not posts:
                continue
            idf = self._idf[term]
            for i, tf in posts:
                norm = K1 * (1.0 - B + B * self._lengths[i] / self._avg_len)
                scores[i] = scores.get(i, 0.0) + idf * tf * (K1 + 1.0) / (tf + norm)
        ranked = sorted(
            scores.items(), key=lambda item: (-round(item[1], 9), self.sections[item[0]].source)
        )
        return [
            KnowledgeHit(
                source=self.sections[i].source,
                title=self.sections[i].title,
                text=clip(self.sections[i].text, HIT_TEXT_LIMIT),
                score=round(score, 6),
                origin="local-knowledge",
            )
            for i, score in ranked[: min(top_k, MAX_TOP_K)]
            if score > 0.0
        ]


def _sections(files: Mapping[str, str]) -> list[Section]:
    sections: list[Section] = []
    for path in sorted(files):
        sections.extend(split_sections(path, files[path]))
    return sections


def playbook_texts() -> dict[str, str]:
    """The shipped playbooks keyed by their path relative to the package."""
    root = Path(__file__).with_name(PLAYBOOK_DIR)
    return {
        f"{PLAYBOOK_DIR}/{entry.name}": entry.read_text(encoding="utf-8")
        for entry in root.iterdir()
        if entry.name.endswith(".md") and entry.is_file()
    }


def fingerprint(files: Mapping[str, str]) -> str:
    """A checksum of the texts and their names: saved counts serve only the texts they came from."""
    crc = 0
    for path in sorted(files):
        crc = zlib.crc32(f"{path}\0{files[path]}\0".encode(), crc)
    return f"{crc:08x}-{len(files)}"


# The playbooks' term counts, written by `write_counts()` (test_playbook_counts
# fails when they no longer match the texts and the tokenizer): counting the ~4,000 words of the
# playbooks is ~45M instructions a process (3 % of a headless venture); reading them back ~3M.
COUNTS_FILE = Path(__file__).with_name("playbook_counts.json")


def shipped_counts(expected: str) -> Counts | None:
    """COUNTS_FILE's counts when they were written from texts with this fingerprint, else None."""
    try:
        saved = json.loads(COUNTS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("fingerprint") != expected:
        return None
    return saved["lengths"], saved["postings"]


def write_counts() -> Path:
    """Write COUNTS_FILE from the playbooks as they are now."""
    files = playbook_texts()
    lengths, postings = count_terms(sorted(_sections(files), key=lambda s: s.source))
    record = {"fingerprint": fingerprint(files), "lengths": lengths, "postings": postings}
    COUNTS_FILE.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
    return COUNTS_FILE


_default: KnowledgeIndex | None = None
_default_lock = threading.Lock()


def default_index() -> KnowledgeIndex:
    """The shipped playbooks' index, built on first use and shared by every caller."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = KnowledgeIndex.from_package()
    return _default


def search(query: str, top_k: int = 2) -> list[KnowledgeHit]:
    """Search the shipped playbooks; up to `top_k` section hits, best first."""
    return default_index().search(query, top_k)
