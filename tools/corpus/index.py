"""The search index: parsed pages and two BM25 fields (heading path, body) over their sections."""

from __future__ import annotations

from .pages import Section, parse_page
from .text import tokenize

__all__ = ["TYPO_MIN_CHARS", "Index"]

TYPO_MIN_CHARS = 4
"""Query words (stemmed) at least this long that the corpus and glossary never use are matched to a corpus word one edit away."""


class _Field:
    """One BM25 field (rank-bm25's Okapi weights), scored from postings: only the sections holding a term are touched."""

    def __init__(self, docs: list[list[str]]):
        import numpy as np
        from rank_bm25 import BM25Okapi

        bm25 = BM25Okapi(_nonempty(docs))
        self.size = len(bm25.doc_freqs)
        norm = bm25.k1 * (1 - bm25.b + bm25.b * np.asarray(bm25.doc_len, dtype=float) / bm25.avgdl)
        term_ids: dict[str, int] = {}
        rows: list[tuple[int, int, int]] = []  # (term id, section, term frequency)
        for d, freqs in enumerate(bm25.doc_freqs):
            rows += [(term_ids.setdefault(term, len(term_ids)), d, tf) for term, tf in freqs.items()]
        table = np.asarray(sorted(rows), dtype=float).reshape(-1, 3)
        tid, self._docs, tf = table[:, 0].astype(int), table[:, 1].astype(int), table[:, 2]
        idf = np.asarray([bm25.idf.get(term) or 0.0 for term in term_ids])
        self._weights = idf[tid] * tf * (bm25.k1 + 1) / (tf + norm[self._docs])
        bounds = np.searchsorted(tid, np.arange(len(term_ids) + 1))
        self.postings = {term: (int(bounds[i]), int(bounds[i + 1])) for term, i in term_ids.items()}
        """Term -> (start, end) of its sections and weights in the flat arrays."""

    def doc_count(self, term: str) -> int:
        start, end = self.postings.get(term, (0, 0))
        return end - start

    def get_scores(self, terms: list[str]):
        """Same figures as ``BM25Okapi.get_scores`` (a repeated term counts again)."""
        import numpy as np

        scores = np.zeros(self.size)
        for term in terms:
            if (span := self.postings.get(term)) is not None:
                scores[self._docs[span[0] : span[1]]] += self._weights[span[0] : span[1]]
        return scores


class Index:
    """The parsed pages and the two BM25 fields over their sections."""

    def __init__(self, by_page: dict[str, list[Section]]):
        import numpy as np

        self.by_page = by_page
        self.sections = [s for secs in by_page.values() for s in secs]
        bodies = [tokenize(s.text.split("\n", 1)[1] if "\n" in s.text else "") for s in self.sections]
        heads = [tokenize(" ".join(s.heading_path)) for s in self.sections]
        self.body = _Field(bodies)
        self.head = _Field(heads)
        self.vocabulary = frozenset(self.body.postings) | frozenset(self.head.postings)
        pages = list(by_page)
        self.page_of = np.asarray([pages.index(s.page) for s in self.sections], dtype=int)
        self.page_ids = pages
        self._near: dict[str, list[str]] | None = None

    def correct(self, word: str) -> str | None:
        """The most frequent corpus word one edit (insert, delete, substitute, swap) from ``word``, if any."""
        if self._near is None:
            near: dict[str, list[str]] = {}
            for term in self.vocabulary:
                if len(term) >= TYPO_MIN_CHARS - 1 and term.isalpha():
                    near.setdefault(term, []).append(term)
                    for i in range(len(term)):
                        near.setdefault(term[:i] + term[i + 1 :], []).append(term)
            self._near = near
        keys = [word] + [word[:i] + word[i + 1 :] for i in range(len(word))]
        candidates = {term for key in keys for term in self._near.get(key, ())}
        if len(word) < TYPO_MIN_CHARS + 1:  # short words: only two swapped letters (cahc), not grab -> gram
            candidates = {t for t in candidates if len(t) == len(word) and sorted(t) == sorted(word)}
        if not candidates:
            return None
        return max(sorted(candidates), key=self.body.doc_count)

    @classmethod
    def build(cls, markdown: dict[str, str]) -> Index:
        return cls({pid: parse_page(pid, md) for pid, md in markdown.items()})


def _nonempty(docs: list[list[str]]) -> list[list[str]]:
    """BM25Okapi divides by zero when no document has a word; give it a word nobody can query."""
    return docs if any(docs) else [["\x00"]] * max(1, len(docs))
