"""A pattern tried only where one of its alternatives can start finds exactly what finditer finds (reading.starts)."""

import re
from re._constants import MAXREPEAT

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
from llm_inference_fundamentals.tools.audit.reading import document
from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.document import MAX_SCAN, Document
from llm_inference_fundamentals.tools.audit.reading.starts import _CHUNK, _alternatives, match_starts, matches

PATTERNS = [
    r"\bvs\.?\b|\bversus\b|compared\s+(?:to|with)",                     # alternatives behind \b
    r"(?<![\w-])(\d+)\s+(?:draft|speculative)\s+tokens|\bdraft\s+model",  # a digit-led alternative (searched as the rest)
    r"(?:measured?|observed|tim(?:ed|ing))\s+(?:\w+\s+){0,2}?(?:at|on)\s+the\s+(client|server)|client[- ]side",
    r"--max-concurrency[\s=]+(\d+)|max_concurrency\s*[=:]\s*(\d+)|\b(\d+)\s+concurrent\b",
    r"(?:ttft|tpot)\s*(?:<=|<)\s*\d+(?=\s*ms)|p99\s+(?:ttft|tpot)(?!\w)",  # look-aheads after the literal
    r"aa|aab|ab(?=c)",                                                 # overlapping starts, one literal the prefix of another
    r"aa(?=b)|\bvs\b",                                                 # 'aaab': 'aa' fails at 0 and matches at 1
    r"ab1?|\d+c",                                                      # "ab12c": the rest matches again where "ab1" ends
    r"tokens?$|^\s*vllm\s+serve|end\s*\Z",                             # end and start anchors
    r"(?m)tokens?$",                                                   # inline flags: left to finditer
    r"与\S{1,30}?比|\d+\s*倍|相比",                                      # Chinese literals
    r"the\s+(?:[\w-]+\s+){0,3}?client|[\w.-]+\.py\b",                  # a rest alternative that starts with a word class
    r"zz[^\n]*$|zz\s+(\w+)\s*\Z",                                      # a match that runs to the end of the text
    r"\x1e\nvllm|vllm\n\x1e",                                          # a match across the block separator
    r"(?<![\w/.-])[\w./-]+\.sh\b|\b[\w./-]+\.ya?ml\b(?=[^\n]{0,60}\brun)|\bvllm",  # run-led alternatives (a path, then .sh)
    r"\b[\w-]*(?:bench|client)[\w-]*\.(?:py|sh)\b|[a-c]{2,3}zz|[ab]*?yy|\d+\s*x",  # a run of 0+, 2-3 and lazy 0+
    r".{1,4}tok|[a-z]++\.sh|\bvs\b",                                   # any character; a possessive run
    r"\b(?:\w+\s+)?(?:runs?|results?)\s+were|(?:\w+[-\s]){1,2}?bench|(?:a|zz\d?)+yy|\d[\d,]*\s+(?:of\s+)?vs",  # groups
    r"^\|?\s*(?:\w+\s*\|\s*)*?(?:ngl|threads)\s*\||(?m:x)?\bend",       # '^': only at 0; inline flags in a group
    r"(?m)^\s*tok|vllm",                                                # '^' in a multi-line pattern (left to finditer)
    r"(?<![\w.])(\d+)\s*[x×]\s*(\d+)\s*(?:gpus?|x)|\b\d[\d,]*\s+tokens$",  # led by digits only: no literal, no walk
    r"(total|mean)?\s*(input|output|tok)\s+(?:tokens?|len)|(\d+|[一两]+)\s*(?:张|块)\s*(h100|a100)",  # an optional start
]

TEXT = ("| ngl | threads |\n./scripts/run_bench.sh and cfg.yaml to run, bench_client.py a.sh.sh.sh abczz abbyy yy 3x\n"
        "two runs were dropped, results were kept, my-own bench, 1,000 of vs, azz3ayy\n"
        "vllm serve llama --max-concurrency 16 vs. sglang; compared to tgi, 8 draft tokens, 12 speculative tokens\n"
        "measured on the client, timed at the server; client-side ttft <= 200 ms, p99 tpot, aaab aabc abc aaaa ab12c\n"
        "与vLLM相比，吞吐提高2倍。 3 concurrent max_concurrency: 8 the full run client bench.py tokens\n"
        "  vllm serve x\n\x1e\nvllm zz tail words end")


def _found(rx, text):
    return [(m.span(), m.groups()) for m in rx.finditer(text)]


def _started(rx, text):
    plan = match_starts(rx.pattern, rx.flags)
    return [(m.span(), m.groups()) for m in (matches(rx, plan, text) if plan else rx.finditer(text))]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_tried_at_the_starts_of_its_alternatives_a_pattern_finds_what_finditer_finds(pattern):
    rx = re.compile(pattern)
    # matches near the chunk edges (literal starts are looked up one chunk at a time), matches longer than a chunk,
    # the empty text, and the text cut at many places (matches at its very start and end, '$' and '\Z' there)
    edge = " " * (_CHUNK - 3)
    texts = [TEXT, TEXT * 3, "", edge + TEXT, edge + "  " + TEXT, "x " * (_CHUNK // 2 - 1) + TEXT,
             "compared" + " " * (2 * _CHUNK) + "to", "zz" + "q " * (_CHUNK // 2 + 10)]
    texts += [TEXT[:k] for k in range(0, len(TEXT), 7)] + [TEXT[k:] for k in range(0, len(TEXT), 11)]
    plan = match_starts(pattern, 0)
    for lit in plan.literals if plan else ():  # each literal start written across a chunk edge
        if lit in TEXT:
            texts += [" " * (_CHUNK - j) + TEXT[TEXT.index(lit):] for j in range(1, len(lit) + 1)]
    for text in texts:
        assert _started(rx, text) == _found(rx, text)


def test_patterns_with_literal_led_alternatives_get_a_plan_and_the_others_do_not():
    plan = match_starts(r"\bvs\.?\b|\bversus\b|(?<!\w)\d+\s*x\b", 0)
    assert plan.literals == ("versus", "vs") and plan.rest is not None  # the digit-led alternative is the rest
    assert match_starts(r"\bvs\.?\b|\bvs\d", 0).literals == ("vs",)  # 'vs' + a digit occurs only where 'vs' does
    assert match_starts(r"(\w+)\s+\1|vllm", 0) is None        # a back-reference: an alternative alone would change it
    assert match_starts(r"(?i)vllm|sglang", 0) is None         # inline flags
    assert match_starts(r"vllm|sglang", re.IGNORECASE) is None  # literals would have to be folded
    assert match_starts(r"(?:vllm)?|sglang", 0) is None        # matches the empty string
    assert match_starts(r"\d+\s*\w|[a-z]+\s+\d", 0) is None    # no alternative starts with (or is led to) a literal
    assert match_starts(r"a\d|b\d", 0) is None                 # one-character literals are no better than re's own skip


def test_a_pattern_that_can_start_only_with_a_few_characters_is_searched_from_them():
    # no literal-led or walked alternative: the pattern itself is the rest, led by the class of its first characters
    plan = match_starts(r"(?<![\w.])(\d+)\s*x\s*(\d+)|\b\d+\s*gpus?", 0)
    assert plan.literals == () and plan.walks == () and plan.rest.match("a 8x2", 2)
    assert match_starts(r"(total|mean)?\s*(input|output)\s+tokens", 0).rest is not None  # blanks and a few letters
    assert match_starts(r"(?<![\w/.:-])[a-z0-9][\w.-]*/\d{3}", 0) is None  # 36 first characters: broad
    assert match_starts(r"(?<!\w)\w+\s+\d|\d+x", 0) is None  # a word character can start it

def test_alternatives_led_by_class_runs_then_a_literal_are_walked_back_from_the_literal():
    plan = match_starts(r"(?<![\w/.-])[\w./-]+\.sh\b|\b(?:\w+\s+)?(?:runs?|results?)\s+were|\d+\s*x\b", 0)
    assert [w.literals for w in plan.walks] == [(".sh",), ("result", "run")]
    assert plan.rest is not None  # the digit-led one ends with a one-character literal: it stays in the rest
    assert match_starts(r"[\w.]+\.sh|[\w.]+\.py", 0).rest is None  # every alternative walked: no rest to search
    assert match_starts(r"^\|?\s*(?:\w+\s*\|)*?threads|vllm", 0).walks[0].first_only  # '^' only at 0
    assert not match_starts(r"^\|?\s*(?:\w+\s*\|)*?threads|vllm", re.M).walks[0].first_only  # (any line's start)
    assert match_starts(r"(?<![\w.])\d+\s*tokens|vllm", 0).rest is not None  # a digit start: re skips to it itself


def test_the_top_level_alternatives_are_split_outside_groups_classes_and_escapes():
    assert _alternatives(r"a|b(?:c|d)|[|]|[]|]x|\||[^]|]y") == ["a", "b(?:c|d)", "[|]", "[]|]x", r"\|", "[^]|]y"]


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(pieces=st.lists(st.sampled_from(["vs", "vs.", "versus", " ", "\n", "compared", "to", "1", "16", ",", ".", "tok",
                                        "tokens", "draft", "-", "aa", "b", "c", "与", "比", "倍", "\x1e", "client", "-side",
                                        "zz", "end", "$", "p99", "ttft", "<=", "ms", "./", "run_", "bench", ".sh", "sh",
                                        ".yaml", ".yml", "run", "a", "ab", "yy", "x", ".py", "vllm", "_", "runs", "results",
                                        " were", "|", "ngl", "threads", "of", "zz3"]), max_size=60))
def test_on_any_text_built_from_the_patterns_own_words_the_matches_are_those_of_finditer(pieces):
    text = "".join(pieces)
    for pattern in PATTERNS:
        rx = re.compile(pattern)
        assert _started(rx, text) == _found(rx, text)


def _hits(doc, rx):
    return [(i, m.span(), m.groups()) for i, m in doc.hits(rx)]


HIT_PATTERNS = [re.compile(r"\bvs\.?\b|compared\s+to|(?<![\w-])(\d+)\s+concurrent\b", re.I),
                re.compile(r"\bvllm\s+serve\b|tokens?$", re.I | re.M),
                re.compile(r"H100|(\d+)x\s+A100")]


def test_document_hits_are_the_same_with_and_without_the_starts(monkeypatch):
    # a block longer than MAX_SCAN (a match straddles the cut), more blocks than one batch of 512, matches at
    # the start and end of blocks
    long_line = ("compared to vllm serve on H100 vs. sglang, 8x A100; 16 concurrent tokens " * (MAX_SCAN // 70 + 50))
    text = ("# Run\n\n" + "\n\n".join(f"vs. run {k}: 16 concurrent on H100, compared to tokens" for k in range(700))
            + "\n\n" + long_line + "\n\nvllm serve last compared to\n")
    with_starts = Document(parse_writeup(text))
    found = [_hits(with_starts, rx) for rx in HIT_PATTERNS]
    monkeypatch.setattr(document, "match_starts", lambda pattern, flags: None)
    plain = Document(parse_writeup(text))
    assert found == [_hits(plain, rx) for rx in HIT_PATTERNS]
    assert all(found)


@pytest.mark.parametrize("name", ["meticulous_appendix.md", "engine_shootout_fair.md", "blind3_mi300x_vs_h100.md"])
def test_the_audit_of_a_labelled_write_up_is_the_same_with_and_without_the_starts(monkeypatch, name):
    from pathlib import Path
    text = (Path(__file__).parent / "data" / "audit" / name).read_text(encoding="utf-8")
    report = audit_benchmark(AuditRequest(text=text)).model_dump()
    monkeypatch.setattr(document, "match_starts", lambda pattern, flags: None)
    assert audit_benchmark(AuditRequest(text=text)).model_dump() == report


def test_start_literals_no_block_holds_are_dropped_and_the_hits_stay_the_same(monkeypatch):
    text = "# Run\n\nvllm serve on H100 vs. sglang, 8x A100; 16 concurrent tokens\n\n| a | b |\n|---|---|\n| H100 | 2 |\n"
    doc = Document(parse_writeup(text))
    plan = match_starts(r"\bvs\.?\b|\bversus\b|\bH100\b|\bGaudi\b|compared\s+to", 0)
    assert doc._held(plan).literals == ("H100", "vs")  # (an upper-case literal looked up lower-cased)
    walked = match_starts(r"\b(?:\w+\s+)?(?:runs?|results?)\s+were|[\w./-]+\.sh\b|(?:\w+[-\s]){1,2}?sglang|\bvs\b", 0)
    assert [w.literals for w in walked.walks] == [("result", "run"), (".sh",), ("sglang",)]
    assert [w.literals for w in doc._held(walked).walks] == [("run",), ("sglang",)]  # ('# Run'; no 'result', no '.sh')
    patterns = HIT_PATTERNS + [re.compile(r"\bversus\b|\bvs\b|tgi|(\d+)x\s+(?:A100|MI300X)|\bGaudi\s+\d"),
                               re.compile(r"sglang|lmdeploy\s+serve|tensorrt-llm", re.I),
                               re.compile(r"\b(?:\w+\s+)?(?:runs?|results?)\s+were|[\w./-]+\.sh\b|(?:\w+[-\s]){1,2}?sglang|\bvs\b")]
    found = [_hits(doc, rx) for rx in patterns]
    monkeypatch.setattr(Document, "_held", lambda self, plan: plan)
    assert found == [_hits(Document(parse_writeup(text)), rx) for rx in patterns]
    assert all(found[3:])
