"""Over-long runs are cut in the scanned copy of a block (reading.runs) and over-long tokens shortened in the
input (reading.masks.shorten_runs) exactly as their patterns do, whether or not the quick check in front of each
lets the pattern run at all."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.masks import _LONG_TOKEN, shorten_runs
from llm_inference_fundamentals.tools.audit.reading.runs import CUT, LONG_RUN, _may_hold_long_run, cut_runs


def _cut_everywhere(text: str) -> str:
    """The cut without the quick check: the run pattern tried at every position."""
    def cut(m):
        run = m.group(0)
        keep = 32 if run[0] in " \t" else 24 if not run.strip("0123456789,.") else 80
        return re.sub(r"(.{%d})." % keep, lambda x: x.group(1) + CUT, run, flags=re.S)
    return LONG_RUN.sub(cut, text)


def test_prose_of_short_words_is_left_as_it_is_without_a_scan():
    text = "We ran vLLM 0.6.3 on 8x H100 (80 GB) with 1,000 prompts.\n| a | b |"
    assert not _may_hold_long_run(text)
    assert cut_runs(text) == text


def test_a_long_number_a_long_token_and_a_long_blank_run_are_each_cut():
    number = "1" * 30
    token = "meta-llama/" + "x" * 90
    for text in (f"total {number} tokens", f"model {token} ok", "a" + " " * 40 + "b", "a" + "\t" * 3 + "b"):
        assert cut_runs(text) == _cut_everywhere(text)
    assert CUT in cut_runs(f"total {number} tokens")


def test_a_run_split_by_other_whitespace_is_two_short_words():
    # no-break space, ideographic space and the block separator split words: neither half reaches 25 characters
    for sep in ("\xa0", "\u3000", "\x1e", "\n"):
        text = "1" * 20 + sep + "2" * 20
        assert cut_runs(text) == _cut_everywhere(text) == text


# runs of one character: word characters, digits, token punctuation, blanks of several kinds, CJK, markup
_PIECES = st.lists(st.tuples(st.sampled_from(list("a1_.,:/+-= \t\n|*(\xa0\u3000\x1e比é")), st.integers(1, 40)), max_size=12)


@settings(max_examples=400, deadline=None)
@given(_PIECES)
def test_the_quick_check_never_skips_a_text_the_pattern_would_cut(pieces):
    text = "".join(ch * n for ch, n in pieces)
    assert cut_runs(text) == _cut_everywhere(text)
    if LONG_RUN.search(text):
        assert _may_hold_long_run(text)


def _shorten_everywhere(text: str) -> str:
    """shorten_runs without its quick check: the long-token pattern tried at every position."""
    return text if len(text) < 300 else _LONG_TOKEN.sub(lambda m: m.group(1) or m.group(2), text)


def test_a_write_up_of_ordinary_words_is_not_shortened():
    text = "We ran vLLM on 8x H100.\n" * 50
    assert shorten_runs(text) == text


def test_a_megabyte_word_and_a_long_blank_run_are_shortened_as_the_pattern_shortens_them():
    for text in ("x" * 5000 + " tail", "a" + " " * 900 + "b" + "\t" * 250 + "c", "1" * 299 + " " + "2" * 301):
        assert shorten_runs(text) == _shorten_everywhere(text)
    assert len(shorten_runs("x" * 5000)) == 300


_LONG_PIECES = st.lists(st.tuples(st.sampled_from(list("ab1. \t\n\xa0\u3000比")), st.integers(1, 400)), max_size=6)


@settings(max_examples=200, deadline=None)
@given(_LONG_PIECES)
def test_the_quick_check_never_skips_a_text_shorten_runs_would_cut(pieces):
    text = "".join(ch * n for ch, n in pieces)
    assert shorten_runs(text) == _shorten_everywhere(text)
