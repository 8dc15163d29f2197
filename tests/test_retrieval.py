"""Retrieval quality: realistic questions must find their page in the top 3 (the design's 90% bar)."""

import json
from pathlib import Path

import pytest

from llm_inference_fundamentals.tools.corpus import SearchRequest, default_corpus

QUESTIONS = Path(__file__).parent / "data" / "retrieval"


def question_set():
    """(question, expected page) pairs; each file is named after the page its questions belong to."""
    return [(q, path.stem) for path in sorted(QUESTIONS.glob("*.json")) for q in json.loads(path.read_text())]


def top_pages(query, n=3):
    pages = []
    for hit in default_corpus().search(SearchRequest(query=query, k=20, max_tokens=20000)).hits:
        if hit.page not in pages:
            pages.append(hit.page)
    return pages[:n]


def test_question_set_is_large_and_names_real_pages():
    pairs = question_set()
    assert len(pairs) >= 110
    assert {page for _, page in pairs} <= set(default_corpus().page_ids)


def test_expected_page_is_in_the_top_3_for_at_least_90_percent():
    pairs = question_set()
    misses = [(q, page, top_pages(q)) for q, page in pairs if page not in top_pages(q)]
    rate = 1 - len(misses) / len(pairs)
    report = "\n".join(f"  {page:<22} {q!r} -> {got}" for q, page, got in misses)
    assert rate >= 0.90, f"top-3 hit rate {rate:.1%} over {len(pairs)} questions; misses:\n{report}"
