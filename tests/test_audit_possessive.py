"""A greedy run that can give nothing back, made possessive, finds the very matches of the pattern as written."""

import re
from re import _parser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.possessive import _settle, settled
from llm_inference_fundamentals.tools.audit.reading.starts import _alternatives, _rest

from test_audit_match_starts import PATTERNS

RUNS = [
    r"\d[\d,.]*k?\s+tokens?\s+of\s+kv|\d[\d,.]*\s*[km]?[- ]tokens?\s+kv[- ]cache",  # a run, then an optional letter
    r"\b\d+(?:\.\d+)?\s*(?:qps|rps)\b|\b(\d+)\s+concurrent\b",                       # \d+ then an optional group
    r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(k\b)?\s*(?:-\s*|\s+)?(input|output)\s+tokens",
    r"(?:\w+\s+){0,2}?(?:at|on)\s+the\s+(client|server)",                               # runs inside a repeated group
    r"\d+\b|[\d,.]*\.|\s*$|a*a|[^x]*x|\d+(?=\s)|(?!\d+k)\d\d",                          # runs that must stay as written
    r"[\d](?<=(?=\d[\d,]*\s*k?\s*(?:input|prompt)\s+(?:tokens\s+)?(?:and|/|,|with)\s+\d+)[\s\S])",  # a rest as built
    r"\w+\s|\s+\w|[a-z]+\d|\d{1,3}x|\w+\xa0|\w+é|\d+٣|\D+\d|x{2,}y|\d+k?\d",
    r"(\d+)\s*[x×]\s*(\d+)\s*[x×]\s*(h100|a100)|与\S{1,30}?比|\d+\s*倍",
]
PIECES = ["1", "12", "1,024", "3.5", "k", "m", " ", "  ", "\n", "\t", "\xa0", "tokens", "token", "of", "kv", "kv-cache",
          "qps", "concurrent", "input", "output", "-", ".", ",", "at", "on", "the", "client", "x", "×", "h100", "a", "é",
          "٣", "倍", "与", "比", "prompt", "and", "/", "with", "y", "_"]


def _found(rx, text):
    return [(m.span(), m.groups()) for m in rx.finditer(text)]


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(text=st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_a_pattern_with_its_runs_settled_finds_the_matches_of_the_pattern_as_written(text):
    for pattern in RUNS + PATTERNS:
        flags = 0
        assert _found(settled(pattern, flags), text) == _found(re.compile(pattern, flags), text), pattern


@settings(max_examples=200, deadline=None, database=None, derandomize=True)
@given(text=st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_the_rest_regex_a_plan_searches_finds_the_least_position_where_an_alternative_matches(text):
    for pattern in RUNS + [p for p in PATTERNS if not p.startswith("(?")]:
        rest, whole = _rest(_alternatives(pattern), 0), re.compile(pattern)
        for pos in range(len(text) + 1):
            found = rest.search(text, pos)
            least = next((s for s in range(pos, len(text) + 1) if whole.match(text, s)), None)
            assert (found.start() if found else None) == least, pattern


@pytest.mark.parametrize(("pattern", "possessive"), [
    (r"\d+\s", True), (r"\s+\w", True), (r"[a-z]+\d", True), (r"\d[\d,.]*k?\s+tokens", True),
    (r"\w+\xa0", True),    # a no-break space is a blank: never a word character
    (r"(?:\w+\s+){0,2}?on", True),  # \w+ before \s+ inside the group (the group's own last run is left alone)
    (r"\d+\b", False),     # what follows can match the empty string
    (r"[\d,.]*\.", False),  # what follows can start with a character of the run
    (r"\w+é", False), (r"\d+٣", False),  # letters and digits outside ASCII are word characters and digits
    (r"\D+\d", False),     # a negated category: not worked out outside ASCII
    (r"\d{3}x", False),    # a fixed count gives nothing back anyway
    (r"\d+?\s", False),    # lazy runs are left as written
    (r"(?i)\d+k", False),  # case-insensitive patterns are left as written
])
def test_a_run_is_made_possessive_only_where_what_follows_cannot_start_inside_it(pattern, possessive):
    tree = _parser.parse(pattern)
    assert (not tree.state.flags & re.IGNORECASE and _settle(tree, tree.state.flags)) == possessive
    assert (settled(pattern, 0).pattern is None) == possessive  # (compiled from the changed parse, with no source)
