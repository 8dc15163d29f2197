"""The quick check in front of the placeholder pattern (reading.masks._may_hold_placeholder) never passes over a
text the pattern would find a placeholder in."""

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.masks import _PLACEHOLDER, _may_hold_placeholder, mask_block


def test_prose_without_brackets_or_placeholder_words_is_passed_over_and_masked_the_same():
    text = "We ran vLLM 0.6.3 on 8x H100 with 1,000 prompts."
    assert not _may_hold_placeholder(text)
    assert mask_block(text) == text


def test_each_kind_of_placeholder_is_looked_for():
    for text in ("Commit: <commit sha>", "Version: TBD", "GPU: [fill in]", "Model: to be determined", "Fill this in", "ToDo later",
                 "fıxme: a dotless i"):
        assert _may_hold_placeholder(text)
    assert mask_block("Version: TBD\n") != "Version: TBD\n"


_PIECES = st.lists(st.sampled_from(["tbd", "TBA", "ToDo", "FIXME", "xxxx", "to be ", "Determined", "filled", " in", "fill",
                                    "this ", "added", "<", ">", "[", "]", "your ", "placeholder", "word ", " ", "\n", "ı", "K"]),
                   max_size=12)


@settings(max_examples=500, deadline=None)
@given(_PIECES)
def test_a_text_passed_over_holds_no_placeholder(pieces):
    text = "".join(pieces)
    if not _may_hold_placeholder(text):
        assert _PLACEHOLDER.search(text) is None
