"""Inline code quoted in prose (a command written between backticks) is found as the look-behind-first pattern finds it.

``reading.document._INLINE_CODE`` is written backtick-first so that ``re`` skips to backticks; these tests compare it
with the pattern as it was written before, ``(?<!`)`([^`\\n]{3,2000})`(?!`)``, on texts of backticks, words and breaks.
"""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.document import _INLINE_CODE

_LOOK_BEHIND_FIRST = re.compile(r"(?<!`)`([^`\n]{3,2000})`(?!`)")


def _found(rx, text):
    return [(m.span(), m.group(1)) for m in rx.finditer(text)]


@settings(max_examples=500, deadline=None, database=None, derandomize=True)
@given(st.lists(st.sampled_from(["`", "``", "```", "ab", "-n 1", " ", "\n", "vllm serve x", "x" * 1999]), max_size=12))
def test_inline_code_spans_are_those_of_the_look_behind_first_pattern(pieces):
    text = "".join(pieces)
    assert _found(_INLINE_CODE, text) == _found(_LOOK_BEHIND_FIRST, text)


def test_a_backtick_at_the_start_of_the_text_or_after_another_is_read_as_before():
    for text in ["`abc`", "``abc`", "x``abc` `def`", "`abc``", "a `./run.sh -n 8` b", "```\ncode\n```"]:
        assert _found(_INLINE_CODE, text) == _found(_LOOK_BEHIND_FIRST, text)
    assert _found(_INLINE_CODE, "a `./run.sh -n 8` b") == [((2, 17), "./run.sh -n 8")]
