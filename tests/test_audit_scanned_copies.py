"""The scanned copies: lower-cased in ASCII only, and markup marks blanked one for one, however that is done (reading.document)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.document import _ASCII_LOWER, ascii_lower


@settings(max_examples=500, deadline=None, database=None, derandomize=True)
@given(text=st.text(alphabet=st.one_of(st.characters(max_codepoint=127), st.sampled_from("\u00c4\u00c9\u0130\u0131\u212a\u017f\u00df\u03a3\u6bd4")), max_size=40))
def test_a_text_is_lower_cased_as_the_ascii_translation_table_lowers_it(text):
    assert ascii_lower(text) == text.translate(_ASCII_LOWER)


def test_letters_outside_ascii_keep_their_case():
    assert ascii_lower("H100 \u0130 \u212a \u00c4B") == "h100 \u0130 \u212a \u00c4b"  # (str.lower changes İ, the Kelvin sign, Ä)


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(text=st.text(alphabet=st.sampled_from("*`ab \n|-_"), max_size=40))
def test_the_marks_are_blanked_one_for_one_as_the_markup_pattern_blanks_them(text):
    from llm_inference_fundamentals.tools.audit.reading.document import _MARKUP
    assert text.replace("*", " ").replace("`", " ") == _MARKUP.sub(" ", text)
