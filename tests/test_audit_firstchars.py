"""The first-character guard finds exactly what the plain pattern finds (reading.firstchars)."""

import re

import pytest

from llm_inference_fundamentals.tools.audit.reading.firstchars import guarded

TEXT = ("vllm serve llama-3-8b --max-concurrency 16 vs. sglang; compared to tgi, 8 draft tokens,\n"
        "median over 5 runs, ttft <= 200 ms, a single h100 and 2x a100; ignore_eos=false; 3 times faster. "
        "concurrency of 64 \u00d7 2 \u00e9t\u00e9 [x] -5 --osl=128 \\b end")


def _found(rx, text):
    return [(m.span(), m.groups()) for m in rx.finditer(text)]


@pytest.mark.parametrize("pattern", [
    r"\bvs\.?\b|\bversus\b|compared\s+(?:to|with)",                  # alternatives behind \b
    r"(?<![\w-])(\d+)\s+(?:draft|speculative)\s+tokens",             # a look-behind, then a group
    r"(?:nvidia\s+)?(?:h100|a100)\b|(\d+)\s*x\s*(a100|h100)",         # an optional vendor word first
    r"\b(?:median|mean)\s+(?:over|across)\s+(\d+)\s+runs?",
    r"(?:--osl|--output-len)[\s=]+(\d+)|\b\d+\s+times\b(?!\s+more)",
    r"(?:ttft|tpot)\s*(?:<=|<)\s*\d+|[\d}\]]\s*\}?\s+concurrent",
    r"(?<!\w)\u00e9t\u00e9|(?<!\d)\u00d7\s*\d",                           # non-ASCII first characters
    r"(?<!\d)-\d+|\\b",                                                 # a minus sign, a backslash
])
def test_guarded_pattern_finds_the_same_spans_and_groups_as_the_plain_one(pattern):
    rx = re.compile(pattern)
    g = guarded(pattern, 0)
    assert g is not None and g.pattern != pattern  # the guard is in place
    for text in (TEXT, TEXT.upper(), TEXT * 3, "", "vs", " vs "):
        assert _found(g, text) == _found(rx, text)


@pytest.mark.parametrize("pattern, flags", [
    (r"\d*", 0),                     # can match the empty string at every position
    (r"(?:foo)?\b", 0),              # likewise, through an optional group
    (r".+?tokens", 0),               # '.' can start anywhere
    (r"[^x]y|\bz", 0),               # a negated class
    (r"ttft|tpot", 0),               # re skips ahead by itself (alternatives of literals)
    (r"[\w.-]\.gguf", 0),            # likewise (a class first)
    (r"(?m)^\s*vllm", 0),            # inline global flags must stay first
])
def test_patterns_the_guard_cannot_help_or_bound_are_left_alone(pattern, flags):
    assert guarded(pattern, flags) is None


@pytest.mark.parametrize("pattern", [
    r"\bTTFT\b|(?<![\w-])(\d+)\s*x\s*H100|compared\s+to",
    r"\bk80\b|(?<!\w)stra\u00dfe|\b[a-c]\d+",                  # K80 written with a Kelvin sign; \u00df folds
])
def test_a_case_insensitive_guard_finds_what_the_case_insensitive_pattern_finds(pattern):
    rx = re.compile(pattern, re.IGNORECASE)
    g = guarded(pattern, re.IGNORECASE)
    assert g is not None and g.flags & re.IGNORECASE
    for text in (TEXT, TEXT.upper(), "\u212a80 and K80, STRASSE, Stra\u00dfe, B200 vs a100", ""):
        assert _found(g, text) == _found(rx, text)
