"""The assistant question set: each question's minimal call sequence, run through the MCP tools, gives its figures.

tests/data/assistant/questions.json holds realistic multi-step questions with the page sections and tools a good
answer needs, the minimal call sequence today (`calls`) and at commit fd9a238 (`calls_before`), and the key figures
with their hand derivations. tests/assistant_calls.py runs and checks a sequence; it is also the script that ran
`calls_before` against an fd9a238 checkout (see the README beside the data).
"""

import pytest
from mcp import Client

from assistant_calls import ROOT, arithmetic, check, load_questions, run_sequence
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.corpus import default_corpus, skill_text

QUESTIONS = load_questions()


@pytest.fixture(scope="module")
def server():
    return build_server(allow_dirs=[ROOT])


def test_the_set_holds_at_least_40_questions_each_with_sections_tools_and_derived_figures():
    assert len(QUESTIONS) >= 40
    assert len({q["id"] for q in QUESTIONS}) == len(QUESTIONS)
    for q in QUESTIONS:
        assert q["question"].strip() and q["sections"], q["id"]
        assert q["tools"] == sorted({c["tool"] for c in q["calls"]}), q["id"]
        assert [e for e in q["expect"] if e.get("after", True)], f"{q['id']}: no figure checked for today's calls"
        for e in q["expect"]:
            assert e["figure"].strip() and e["derivation"].strip(), (q["id"], e)
        ids = [c["id"] for c in q["calls"]]
        assert len(ids) == len(set(ids)), q["id"]


def test_every_section_a_question_names_is_a_real_anchor():
    corpus = default_corpus()
    for q in QUESTIONS:
        for ref in q["sections"]:
            page, anchor = ref.split("#")
            assert corpus.find_section(page, anchor).anchor == anchor, (q["id"], ref)


def test_hand_derivations_are_plain_arithmetic():
    for q in QUESTIONS:
        for e in q["expect"]:
            if "arithmetic" in e:
                arithmetic(e["arithmetic"])  # raises on anything but numbers and + - * / // ** %


@pytest.mark.anyio
async def test_every_call_goes_to_a_tool_the_server_serves(server):
    async with Client(server, raise_exceptions=True) as client:
        served = {t.name for t in (await client.list_tools()).tools}
    for q in QUESTIONS:
        assert {c["tool"] for c in q["calls"]} <= served, q["id"]


@pytest.mark.anyio
@pytest.mark.parametrize("question", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
async def test_the_minimal_call_sequence_gives_the_key_figures(server, question):
    async with Client(server) as client:
        results = await run_sequence(client, question)
    assert check(question, results, skill_text()) == []


def test_no_question_needs_more_calls_than_before():
    for q in QUESTIONS:
        assert len(q["calls"]) <= len(q["calls_before"]), q["id"]


def test_the_set_needs_markedly_fewer_calls_than_before():
    before = sum(len(q["calls_before"]) for q in QUESTIONS)
    now = sum(len(q["calls"]) for q in QUESTIONS)
    # counted when the set was written: 99 calls before (fd9a238), 52 now
    assert now <= 0.6 * before, (now, before)
