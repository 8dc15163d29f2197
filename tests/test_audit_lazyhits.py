"""Document.hits scans a pattern only as far as it is read, and every reader gets the same matches."""

import re

from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.document import Document

# Three paragraphs about the measured run; 'H100' is written in the first and the third.
TEXT = ("We measured on 8x H100 with vLLM 0.6.3.\n\n"
        "The client sent 500 prompts at concurrency 16.\n\n"
        "A second run used one H100 and the same prompts.\n")
GPU = re.compile(r"h100", re.I)  # read in the ASCII-lower-cased copy: matches are written 'h100'


def spots(found):
    return [(i, m.start(), m.group(0)) for i, m in found]


def test_a_reader_that_stops_at_the_first_match_leaves_the_rest_for_the_next_reader():
    doc = Document(parse_writeup(TEXT))
    first = doc.first(GPU)
    # block 0, 'H100' starts after 'We measured on 8x ' (18 characters)
    assert (first[0], first[1].start(), first[1].group(0)) == (0, 18, "h100")
    # A full read afterwards still finds both: block 0 at 18 and block 2 at 'A second run used one ' (22).
    assert spots(doc.hits(GPU)) == [(0, 18, "h100"), (2, 22, "h100")]


def test_two_readers_interleaved_see_the_same_matches_in_the_same_order():
    doc = Document(parse_writeup(TEXT))
    a, b = doc.hits(GPU), doc.hits(GPU)
    first_a = next(a)
    assert spots(b) == [(0, 18, "h100"), (2, 22, "h100")]
    assert spots([first_a]) + spots(a) == [(0, 18, "h100"), (2, 22, "h100")]


def test_the_accelerator_blocks_are_those_the_whole_gate_finds():
    # a block with only a GPU word, one with only an accelerator name, one with neither, one with a word inside a word
    from llm_inference_fundamentals.tools.audit.reading.document import _lowered
    from llm_inference_fundamentals.tools.audit.reading.vocabulary import GPU

    doc = Document(parse_writeup("We used one GPU.\n\nRan on 8x H100 SXM.\n\nNo hardware here.\n\nThe GPUs and a smartcard.\n\n"
                                 "An MI300X box.\n\n- device: cuda\n"))
    gate = _lowered("(?:" + GPU + r")|gpu|accelerator|device|card|chip|npu", re.IGNORECASE)
    assert doc._gpu_blocks == [i for i, text in enumerate(doc.lowers) if gate.search(text)] == [0, 1, 3, 4, 5]


def test_a_look_up_reads_the_blocks_of_its_kinds_in_its_view():
    doc = Document(parse_writeup("# Results\n\nWe ran 8x H100.\n\n```\nvllm serve x\n```\n\n## Future work\n\nTry H200.\n"))
    for kinds in (None, ("paragraph",), ("code", "heading")):
        for scope in ("run", "claims", "any"):
            view = doc._views[scope] if scope != "any" else None
            expected = [(kinds is None or b.kind in kinds) and (view is None or view[i] != []) for i, b in enumerate(doc.w.blocks)]
            assert doc._readable(kinds, scope) == expected
    assert doc._readable(("paragraph",), "run") is doc._readable(("paragraph",), "run")  # kept per kinds and view
    assert doc._lengths == [len(p) for p in doc.plains] == [len(t) for t in doc.lowers]


def test_a_document_whose_scans_were_read_in_part_is_freed_when_dropped_without_the_collector():
    # A scan left part-read (first) is kept in the document; it must not hold the document back, or each audit's
    # document (blocks, tables, matches) waits for a cyclic collection instead of going when the audit returns.
    import gc
    import weakref

    was_on = gc.isenabled()
    gc.disable()
    try:
        doc = Document(parse_writeup(TEXT))
        assert doc.first(GPU) is not None
        gone = weakref.ref(doc)
        del doc
        assert gone() is None
    finally:
        if was_on:
            gc.enable()
