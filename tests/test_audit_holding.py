"""Which texts hold a match, from one look over them all, is what a search of each finds (reading.holding)."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.document import Document, _lowered
from llm_inference_fundamentals.tools.audit.reading.holding import holding, optional
from llm_inference_fundamentals.tools.audit.reading.vocabulary import GPU, GPU_NAMES, GPU_VENDOR
from llm_inference_fundamentals.tools.audit.reading.wordindex import WordIndex

from test_audit_match_starts import PATTERNS

NAMES = _lowered(GPU_NAMES, re.IGNORECASE)
FULL = _lowered("(?:" + GPU + ")", re.IGNORECASE)
RXS = [re.compile(p) for p in PATTERNS] + [NAMES, FULL]

PIECES = ["h100", "a100", "rtx 4090", "rtx4090", "my ", "one ", "3090", "5090 ti", "20", "a10g", "l4", "t4", "m2 max",
          "apple ", "nvidia ", "amd ", "mi300x", "gaudi 2", "tpu v5e", "x", " ", "\n", "vs", "compared", "to", "16",
          "client", ".sh", "./run", "zz", "end", "tok", "aa", "b", "runs", " were", "|", "threads", "^", "\x1e", "-"]


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(texts=st.lists(st.lists(st.sampled_from(PIECES), max_size=12).map("".join), max_size=8))
def test_the_texts_holding_a_match_are_those_a_search_of_each_finds(texts):
    may_hold = WordIndex(texts).may_hold  # (start literals in no word of the texts are not looked for)
    for rx in RXS:
        assert holding(rx, texts) == [rx.search(t) is not None for t in texts]
        assert holding(rx, texts, may_hold) == [rx.search(t) is not None for t in texts]


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(text=st.lists(st.sampled_from(PIECES), max_size=16).map("".join))
def test_a_text_holds_an_accelerator_name_with_its_optional_vendor_word_exactly_when_it_holds_the_name(text):
    assert (FULL.search(text) is None) == (NAMES.search(text) is None)


def test_an_optional_group_is_one_repeat_taken_possibly_no_times_without_a_capturing_group():
    assert optional(GPU_VENDOR)
    assert optional(r"(?:nvidia\s+)?") and optional(r"(?:a|b)*") and optional(r"x??")
    assert not optional(r"(?:x)?+")          # possessive: once taken, never given back for the name after it
    assert not optional(r"(nvidia\s+)?")     # a capturing group: the groups of the name after it would be renumbered
    assert not optional(r"(?:x)+") and not optional(r"(?:x)?y")


def test_the_blocks_naming_an_accelerator_are_those_a_search_of_each_finds():
    text = "\n\n".join(["# Setup", "Ran on 8x H100.", "A plain paragraph.", "my 3090 at home", "nothing here 20",
                        "| gpu | tok/s |\n|---|---|\n| a10g | 5 |", "the device", "NVIDIA RTX 4090 box", "M2 Max laptop"])
    doc = Document(parse_writeup(text))
    words = set().union(*(doc._blocks_with(w) for w in ("gpu", "accelerator", "device", "card", "chip", "npu")))
    assert doc._gpu_blocks == [i for i, t in enumerate(doc.lowers) if i in words or FULL.search(t)]
    assert doc._gpu_blocks
