from pathlib import Path

import pytest
from pydantic import ValidationError

from llm_inference_fundamentals.tools.corpus import (
    CHARS_PER_TOKEN,
    Corpus,
    ReadRequest,
    SearchRequest,
    expand_query,
    glossary,
    parse_page,
    slugify,
    tokenize,
)
from llm_inference_fundamentals.tools.errors import InvalidQueryError, UnknownPageError, UnknownSectionError

FIXTURES = Path(__file__).parent / "data" / "corpus"


@pytest.fixture(scope="module")
def corpus():
    return Corpus.from_directory(FIXTURES)


def test_readme_is_not_a_page(corpus):
    assert corpus.page_ids == ["alpha", "beta", "gamma"]


def test_sections_carry_heading_path_anchor_and_lines(corpus):
    sections = {(s.page, s.anchor): s for s in corpus.sections}
    ttft = sections[("alpha", "time-to-first-token")]
    assert ttft.heading_path == ["Alpha latency", "Time to first token"]
    assert (ttft.line_start, ttft.line_end) == (5, 8)
    assert ttft.text.startswith("## Time to first token")
    nested = sections[("alpha", "decode-speed-1")]
    assert nested.heading_path == ["Alpha latency", "Decode speed", "Decode speed"]
    assert nested.level == 3


def test_hash_lines_inside_code_fences_are_not_headings():
    sections = parse_page("alpha", (FIXTURES / "alpha.md").read_text())
    assert [s.heading for s in sections] == ["Alpha latency", "Time to first token", "Decode speed", "Decode speed"]
    assert "# not a heading" in sections[-1].text


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("TTFT", "ttft"),
        ("E2E latency", "e2e-latency"),
        ("Worked example: Llama-3.1-70B", "worked-example-llama-31-70b"),
        ("Context and sequence parallelism", "context-and-sequence-parallelism"),
        ("What's a KV cache?", "whats-a-kv-cache"),
        ("Prefill (compute-bound) vs. decode", "prefill-compute-bound-vs-decode"),
    ],
)
def test_slugify_follows_github_anchor_rules(heading, anchor):
    assert slugify(heading) == anchor


def test_tokenize_keeps_versions_and_drops_stopwords():
    assert tokenize("What is the p99 TTFT of Llama-3.1 in fp8?") == ["p99", "ttft", "llama", "3.1", "fp8"]


def test_glossary_expands_acronym_to_long_form_and_back():
    assert set(tokenize("time first token")) <= set(expand_query(tokenize("TTFT")))
    assert "ttft" in expand_query(tokenize("time to first token"))


def test_glossary_entries_name_existing_pages_and_a_source():
    pages = {
        "inference-mechanics", "metrics", "benchmarking", "memory-sizing", "batching", "prefix-caching",
        "speculative-decoding", "parallelism", "gpu-fundamentals", "infrastructure", "deployment",
    }
    for entry in glossary():
        assert entry.page in pages, entry.term
        assert entry.source.strip(), entry.term
    terms = {e.term for e in glossary()}
    assert {"TTFT", "TPOT", "ITL", "E2EL", "KV cache", "GQA", "MQA", "MLA", "MoE", "TP", "PP", "EP", "DP",
            "PD disaggregation", "SLO", "HBM"} <= terms


def test_search_finds_section_through_acronym_expansion(corpus):
    hits = corpus.search(SearchRequest(query="TTFT")).hits
    assert (hits[0].page, hits[0].anchor) == ("alpha", "time-to-first-token")


def test_heading_match_ranks_above_body_match(corpus):
    # "prefill" is the heading of beta#prefill and only a body word in beta#weights and alpha#time-to-first-token.
    hits = corpus.search(SearchRequest(query="prefill")).hits
    assert (hits[0].page, hits[0].anchor) == ("beta", "prefill")


def test_search_is_deterministic(corpus):
    first = corpus.search(SearchRequest(query="decode speed tokens", k=10))
    second = corpus.search(SearchRequest(query="decode speed tokens", k=10))
    assert first == second


def test_search_respects_page_filter_and_k(corpus):
    hits = corpus.search(SearchRequest(query="prefill", page="alpha", k=1)).hits
    assert len(hits) == 1 and hits[0].page == "alpha"


@pytest.mark.parametrize("query", ["   ", "?!#$%", "the of and"])
def test_query_without_words_is_rejected(corpus, query):
    with pytest.raises((InvalidQueryError, ValidationError)) as info:
        corpus.search(SearchRequest(query=query))
    assert "query" in str(info.value)


def test_empty_query_fails_validation():
    with pytest.raises(ValidationError, match="query"):
        SearchRequest(query="")


def test_unknown_search_page_lists_valid_pages(corpus):
    with pytest.raises(UnknownPageError, match="pages: alpha, beta, gamma"):
        corpus.search(SearchRequest(query="prefill", page="delta"))


def test_no_match_returns_empty_hits_with_a_note(corpus):
    result = corpus.search(SearchRequest(query="zebra giraffe"))
    assert result.hits == [] and "no section" in result.note


def test_search_answer_fits_the_token_budget(corpus):
    result = corpus.search(SearchRequest(query="batching schedules", max_tokens=200))
    assert sum(len(h.text) for h in result.hits) <= 200 * CHARS_PER_TOKEN
    hit = result.hits[0]
    assert hit.truncated and result.truncated and hit.next_offset
    rest = corpus.read(ReadRequest(page=hit.page, section=hit.anchor, offset=hit.next_offset, max_tokens=20000))
    assert hit.text.rstrip() + "\n\n" + rest.text.lstrip() == corpus.find_section("gamma", "long-section").text


def test_read_whole_page_and_section_by_anchor_or_heading(corpus):
    page = corpus.read(ReadRequest(page="beta"))
    assert page.text.startswith("# Beta memory") and not page.truncated and page.next_offset is None
    by_anchor = corpus.read(ReadRequest(page="beta", section="kv-cache"))
    by_heading = corpus.read(ReadRequest(page="beta", section="KV Cache"))
    assert by_anchor.text == by_heading.text
    assert by_anchor.text.startswith("## KV cache") and "## Weights" not in by_anchor.text


def test_read_section_includes_its_subsections(corpus):
    text = corpus.read(ReadRequest(page="alpha", section="decode-speed")).text
    assert "### Decode speed" in text


def test_read_pages_through_a_long_section(corpus):
    pieces, offset = [], 0
    while offset is not None:
        part = corpus.read(ReadRequest(page="gamma", section="long-section", offset=offset, max_tokens=500))
        assert len(part.text) <= 500 * CHARS_PER_TOKEN
        pieces.append(part.text)
        offset = part.next_offset
    assert len(pieces) > 3
    assert "Paragraph 399" in pieces[-1]
    assert "\n\n".join(p.strip() for p in pieces) == corpus.find_section("gamma", "long-section").text


def test_read_offset_past_the_end_is_an_error(corpus):
    with pytest.raises(UnknownSectionError, match="past the end"):
        corpus.read(ReadRequest(page="beta", offset=10**6))


def test_unknown_section_lists_anchors(corpus):
    with pytest.raises(UnknownSectionError, match="sections: kv-cache, weights, prefill"):
        corpus.read(ReadRequest(page="beta", section="nope"))


# --- naming sections: prefixes, parts, ambiguity ------------------------------

HEADINGS = {
    "m": "# M\n\nScope.\n\n## Time to first token\n\nT.\n\n## Effective prefill throughput\n\nE.\n\n"
    "## Worked example: Llama\n\nL.\n\n### Worked numbers\n\nN.\n\n## Worked example: DeepSeek\n\nD.\n\n"
    "## TPOT\n\nP.\n\n## TPOT pitfalls\n\nQ.\n",
}


@pytest.mark.parametrize(
    ("name", "anchor"),
    [
        ("Effective prefill", "effective-prefill-throughput"),  # heading prefix, as people type it
        ("effective-prefill", "effective-prefill-throughput"),  # anchor prefix
        ("prefill throughput", "effective-prefill-throughput"),  # a part of the heading
        ("throughput prefill", "effective-prefill-throughput"),  # every word, any order
        ("#time-to-first", "time-to-first-token"),
        ("tpot", "tpot"),  # an exact anchor wins over the longer 'tpot-pitfalls'
        ("worked example: llama", "worked-example-llama"),  # its subsection 'Worked numbers' is inside it
    ],
)
def test_read_resolves_a_unique_prefix_or_part_of_a_heading(name, anchor):
    assert Corpus(HEADINGS).read(ReadRequest(page="m", section=name)).anchor == anchor


def test_read_refuses_an_ambiguous_name_and_lists_the_candidates():
    with pytest.raises(UnknownSectionError) as info:
        Corpus(HEADINGS).read(ReadRequest(page="m", section="worked"))
    message = str(info.value)
    assert "matches 2 headings" in message
    assert "worked-example-llama, worked-example-deepseek" in message


def test_read_of_a_name_nothing_matches_lists_every_anchor():
    with pytest.raises(UnknownSectionError, match="not found on page 'm'; sections: time-to-first-token, "):
        Corpus(HEADINGS).read(ReadRequest(page="m", section="goodput"))


def test_a_prefix_of_the_page_title_is_not_a_section():
    with pytest.raises(UnknownSectionError):
        Corpus({"p": "# Prefill notes\n\nScope.\n\n## Decode\n\nD.\n"}).read(ReadRequest(page="p", section="Prefill"))


# --- several sections, whole pages, and what an answer says it holds ----------


def test_read_several_sections_in_one_answer(corpus):
    result = corpus.read(ReadRequest(page="beta", section=["kv-cache", "Prefill"]))
    kv, prefill = corpus.find_section("beta", "kv-cache").text, corpus.find_section("beta", "prefill").text
    assert result.text == kv + "\n\n" + prefill
    assert [s.anchor for s in result.sections] == ["kv-cache", "prefill"]
    assert all(s.complete and s.chars == s.total_chars for s in result.sections)
    assert result.section is None and result.lines == "5-8, 13-15"
    assert result.note == f"Read beta: #kv-cache, #prefill: all {len(result.text):,} characters, complete."


def test_a_section_named_twice_is_read_once(corpus):
    result = corpus.read(ReadRequest(page="beta", section=["kv-cache", "KV cache"]))
    assert [s.anchor for s in result.sections] == ["kv-cache"] and result.anchor == "kv-cache"


LONG = "".join(f"Line {n} of filler text about prefill and decode steps.\n\n" for n in range(60))
TWO_LONG = {"two": f"# Two long\n\nScope.\n\n## First part\n\n{LONG}\n## Other\n\nO.\n\n## Second part\n\n{LONG}"}


def test_read_pages_through_several_sections_and_reassembles_them():
    two = Corpus(TWO_LONG)
    asked = ["first", "second part"]
    whole = two.read(ReadRequest(page="two", section=asked, whole_page=True))
    assert not whole.truncated and [s.anchor for s in whole.sections] == ["first-part", "second-part"]
    pieces, offset = [], 0
    while offset is not None:
        part = two.read(ReadRequest(page="two", section=asked, offset=offset, max_tokens=300))
        assert whole.text[offset:].startswith(part.text)  # each piece is the text from its offset, cut at a break
        pieces.append(part)
        offset = part.next_offset
    assert len(pieces) >= 3
    # the first piece ends at the boundary of the second section when it falls in the window's last quarter
    assert any(p.text.rstrip().endswith("Line 59 of filler text about prefill and decode steps.") for p in pieces)
    assert pieces[-1].sections[1].chars > 0 and pieces[0].sections[1].chars == 0


def test_a_section_inside_another_asked_for_is_not_repeated():
    result = Corpus(HEADINGS).read(ReadRequest(page="m", section=["Worked numbers", "worked-example-llama"]))
    assert [s.anchor for s in result.sections] == ["worked-example-llama"]
    assert result.text.count("N.") == 1


def test_whole_page_answers_hold_every_bundled_page_in_one_call():
    from llm_inference_fundamentals.tools.corpus import default_corpus

    bundled = default_corpus()
    for page in bundled.page_ids:
        result = bundled.read(ReadRequest(page=page, whole_page=True))
        assert not result.truncated, page
        assert result.returned_chars == result.total_chars == len(bundled.page_markdown(page).strip("\n"))
        assert all(s.complete for s in result.sections)


def test_a_cut_answer_says_which_sections_it_holds_and_how_much(corpus):
    result = corpus.read(ReadRequest(page="gamma", max_tokens=150))
    assert result.truncated and result.returned_chars == len(result.text) <= 600
    title, long = result.sections
    assert title.complete and not long.complete and 0 < long.chars < long.total_chars
    assert f"characters 0-{len(result.text):,} of {result.total_chars:,}" in result.note
    assert "complete: gamma-long-page; partly: long-section" in result.note


def test_the_cut_note_gives_the_mcp_call_by_default(corpus):
    note = corpus.read(ReadRequest(page="gamma", section="long-section", max_tokens=150)).note
    assert 'read on with `read_reference(page="gamma", section="long-section", offset=' in note
    assert "max_tokens=150)`" in note
    assert 'or get all of it in one answer with `read_reference(page="gamma", section="long-section", whole_page=true)`' in note


CLI_FLAGS = {"offset": "--offset", "max_tokens": "--max-tokens", "whole_page": "--all", "page": "PAGE",
             "section": "SECTION", "k": "-k", "order": "--order"}


def test_the_cut_note_gives_the_lif_command_on_the_command_line(corpus):
    from llm_inference_fundamentals.tools.errors import argument_names

    with argument_names(CLI_FLAGS):
        result = Corpus(TWO_LONG).read(ReadRequest(page="two", section=["first part", "second"], max_tokens=150))
    assert f"read on with `lif read two first-part second-part --offset {result.next_offset} --max-tokens 150`" in result.note
    assert "`lif read two first-part second-part --all`" in result.note
    assert "read_reference" not in result.note


def test_search_cut_note_speaks_the_callers_language(corpus):
    from llm_inference_fundamentals.tools.errors import argument_names

    mcp = corpus.search(SearchRequest(query="batching schedules", max_tokens=200))
    hit = mcp.hits[0]
    assert f'`read_reference(page="gamma", section="long-section", offset={hit.next_offset})`' in mcp.note
    assert "max_tokens" in mcp.note
    with argument_names(CLI_FLAGS):
        cli = corpus.search(SearchRequest(query="batching schedules", max_tokens=200))
    assert f"`lif read gamma long-section --offset {hit.next_offset}`" in cli.note
    assert "--max-tokens" in cli.note and "read_reference" not in cli.note


@pytest.mark.parametrize(
    "page",
    ["../../etc/passwd", "/etc/passwd", "..%2F..%2Fetc%2Fpasswd", "%2e%2e/%2e%2e/etc/passwd", "beta.md", "README", "readme"],
)
def test_read_rejects_path_tricks(corpus, page):
    with pytest.raises(UnknownPageError) as info:
        corpus.read(ReadRequest(page=page))
    assert "pages: alpha, beta, gamma" in str(info.value)
    assert "root:" not in str(info.value)


def test_symlinked_page_is_not_served(tmp_path):
    (tmp_path / "real.md").write_text("# Real\n\nScope.\n")
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    (tmp_path / "leak.md").symlink_to(secret)
    corpus = Corpus.from_directory(tmp_path)
    assert corpus.page_ids == ["real"]
    with pytest.raises(UnknownPageError):
        corpus.read(ReadRequest(page="leak"))


def test_empty_directory_gives_an_empty_corpus(tmp_path):
    corpus = Corpus.from_directory(tmp_path)
    assert corpus.page_ids == []
    assert corpus.search(SearchRequest(query="prefill")).hits == []


def test_index_lists_pages_scopes_and_sections(corpus):
    index = corpus.index()
    beta = next(p for p in index.pages if p.id == "beta")
    assert beta.title == "Beta memory"
    assert beta.scope == "Scope: a fixture page about memory."
    assert [s.anchor for s in beta.sections] == ["beta-memory", "kv-cache", "weights", "prefill"]
    assert "- KV cache (#kv-cache)" in index.to_text()


TWO_PAGES = {
    "one": "# One\n\nScope.\n\n## Chunked prefill\n\nChunked prefill splits prefill.\n\n"
    "## Prefill budget\n\nThe prefill chunk budget.\n",
    "two": "# Two\n\nScope.\n\n## Queues\n\nLong queues, and prefill once, among many other words here.\n",
}


def test_leading_hits_come_from_different_pages():
    corpus = Corpus(TWO_PAGES)
    scores = {h.anchor: h.score for h in corpus.search(SearchRequest(query="prefill", page="one")).hits}
    two = corpus.search(SearchRequest(query="prefill", page="two")).hits[0]
    assert two.score < min(scores.values())  # by score alone, page two would come third
    hits = corpus.search(SearchRequest(query="prefill")).hits
    assert [h.page for h in hits] == ["one", "two", "one"]


def test_pages_first_order_is_stated_and_lifted_hits_are_flagged():
    result = Corpus(TWO_PAGES).search(SearchRequest(query="prefill"))
    assert "best section of 3 different pages" in result.order and "order='score'" in result.order
    assert [h.page_first for h in result.hits] == [False, True, False]  # page two's hit was moved ahead
    assert "(best of its page)" in result.to_text()


def test_score_order_is_strictly_by_score():
    result = Corpus(TWO_PAGES).search(SearchRequest(query="prefill", order="score"))
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True) and [h.page for h in result.hits] == ["one", "one", "two"]
    assert result.order == "by score, highest first" and not any(h.page_first for h in result.hits)


def test_page_filter_keeps_plain_score_order():
    hits = Corpus(TWO_PAGES).search(SearchRequest(query="prefill", page="one")).hits
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True) and len(hits) == 2


def test_a_cut_prefers_a_section_boundary_in_the_last_quarter_of_the_window():
    from llm_inference_fundamentals.tools.corpus.library import _cut

    text = "a" * 80 + "\n\n" + "b" * 10 + "\n\n" + "c" * 100
    # window of 100 chars: a paragraph break at 92 (after the b's), a section boundary at 82
    assert _cut(text, 0, 100) == ("a" * 80 + "\n\n" + "b" * 10, 94)
    assert _cut(text, 0, 100, boundaries=(82,)) == ("a" * 80, 82)
    assert _cut(text, 0, 100, boundaries=(20,)) == ("a" * 80 + "\n\n" + "b" * 10, 94)  # too early: paragraph cut


def test_the_command_line_prints_lif_commands_to_read_on(capsys):
    from llm_inference_fundamentals.cli import main

    assert main(["search", "time", "per", "output", "token", "--max-tokens", "200"]) == 0
    out = capsys.readouterr().out
    assert "read on with `lif read " in out and "--offset " in out and "read_reference" not in out
    assert main(["read", "metrics", "ttft", "tpot", "--max-tokens", "300"]) == 0
    out = capsys.readouterr().out
    assert "read on with `lif read metrics ttft tpot --offset " in out and "`lif read metrics ttft tpot --all`" in out


def test_read_help_says_what_a_section_name_may_be(capsys):
    from llm_inference_fundamentals.cli import main

    with pytest.raises(SystemExit):
        main(["read", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "a unique start or part of one ('effective prefill')" in help_text
    assert "several sections in one answer" in help_text and "--all" in help_text
