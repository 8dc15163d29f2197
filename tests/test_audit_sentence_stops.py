"""Sentence stops are found behind a class of the stop characters exactly where the stop patterns as written find
them (reading.document._one_character): the same one-character matches in the same order."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.document import _PROSE_STOPS, _SOFT_WRAP, _STOPS, Document

# the stop patterns as written, tried at every position
WRITTEN_STOPS = re.compile(r"(?<!\d)\.(?![\dA-Za-z_])|[!?;\n|。！？；]")
WRITTEN_PROSE_STOPS = re.compile(r"(?<!\d)\.(?![\dA-Za-z_])|[!?;|。！？；]|(?!" + _SOFT_WRAP.pattern + r")\n")


def _ends(rx, text):
    return [m.span() for m in rx.finditer(text)]


def test_a_paragraphs_sentences_end_where_the_written_stops_end_them():
    text = ("We ran 1.5 runs. Then:\nthe next line wraps softly\nKey: value\n2. item; done! ok?\n"
            "吞吐提高了，\n延迟降低。结束！ v0.6.3 at 3.14 ms/token.")
    for written, fast in ((WRITTEN_STOPS, _STOPS), (WRITTEN_PROSE_STOPS, _PROSE_STOPS)):
        assert _ends(fast, text) == _ends(written, text)
    doc = Document(parse_writeup("We measured 1.5 ms. The client ran\non the same host; done.\n"))
    at = doc.plains[0].index("client")
    assert doc.sentence(0, re.search("client", doc.plains[0])) == doc.plains[0][doc.bounds(0, at, at + 6)[0]:doc.bounds(0, at, at + 6)[1]]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(list("a Z1.:!?;|\n\t,(`'\"-_，、。！？；") + ["key: ", "3.", ".5", "\nx"]), max_size=40))
def test_any_text_has_the_same_stops(pieces):
    text = "".join(pieces)
    assert _ends(_STOPS, text) == _ends(WRITTEN_STOPS, text)
    assert _ends(_PROSE_STOPS, text) == _ends(WRITTEN_PROSE_STOPS, text)


def test_a_period_glued_to_the_next_word_ends_no_sentence():
    # real/batch7/m_geerling_ai_benchmarks.md l.215 (geerlingguy/ai-benchmarks): 'tested using `llama.cpp` with Vulkan
    # support' names a compute backend (kernels partial, batches 7-9); 'llama.cpp' is a name, so the
    # sentence, and what it says about the backend, runs on past it
    doc = Document(parse_writeup("These were tested using llama.cpp with Vulkan support. We measured 30 tok/s.\n"))
    assert doc.sentence(0, re.search("Vulkan", doc.plains[0])) == "These were tested using llama.cpp with Vulkan support"
