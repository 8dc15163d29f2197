"""A pattern in its search form matches at exactly the positions where the pattern as written matches."""

import re
from re import _constants as c
from re import _parser

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.searchform import _share, search_form

from test_audit_match_starts import PATTERNS
from test_audit_possessive import PIECES, RUNS

SHARED = [
    r"ab|ac|ad|b",                                   # one literal shared by three alternatives
    r"\d+x|z|\d+y|\d+",                              # a run shared, one alternative ending with it
    r"(?:\w+\s+)?at|(?:\w+\s+)?on|the",              # an optional group shared
    r"a(?=b)|a(?=c)|a(?!\d)",                        # look-arounds after the shared start
    r"x\d*|x\d+y|x",                                  # remainders that overlap
    r"(\d+)k|(\d+)m|\d+\s*tokens",                    # capturing groups are never the same item
    r"(?<=ab|ac)x|\d(?:\.\d|\.\d\d)",                  # inside a look-behind and a group
    r"[\d](?<=(?=\d[\d,]*\s*k?\s*input|\d[\d,]*\s*k?\s*output|\b\d+\s*x)[\s\S])",  # a rest as starts builds it
]


def _starts(rx, text):
    return [s for s in range(len(text) + 1) if rx.match(text, s)]


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(text=st.lists(st.sampled_from(PIECES + ["ab", "ac", "z", "xy", "k", "m", "b", "c"]), max_size=30).map("".join))
def test_the_search_form_matches_where_the_pattern_as_written_matches(text):
    for pattern in SHARED + RUNS + PATTERNS:
        form, written = search_form(pattern, 0), re.compile(pattern)
        assert _starts(form, text) == _starts(written, text), pattern
        for pos in range(0, len(text) + 1, 3):
            found, least = form.search(text, pos), written.search(text, pos)
            assert (found and found.start()) == (least and least.start()), pattern


def test_alike_alternatives_are_written_as_one_that_shares_their_start():
    tree = _parser.parse(r"\d+x|z|\d+y|(\d+)k|(\d+)m")
    _share(tree, tree.state)
    (op, (_, alternatives)), = tree
    assert op is c.BRANCH and len(alternatives) == 4  # \d+(?:x|y), z and the two capturing groups
    assert [len(a) for a in alternatives] == [2, 1, 2, 2] and alternatives[0][1][0] is c.BRANCH
    assert search_form(r"(?i)ab|ac", 0).pattern == r"(?i)ab|ac"  # case-insensitive: as written
