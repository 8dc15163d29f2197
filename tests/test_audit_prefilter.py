"""Document.hits reads a pattern only in the blocks holding one of its literals, and finds the same matches."""

import re

from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.document import Document, _anchors

# A heading (block 0), a Chinese sentence (block 1) and an English one (block 2). In block 1, '与' is at 0 and
# '比' at 6 ('与vLLM相比'), and '2倍' ('2 times') starts at 12: 与0 v1 L2 L3 M4 相5 比6 ，7 吞8 吐9 提10 高11 2 12 倍13.
TEXT = "# 结果\n\n与vLLM相比，吞吐提高2倍。\n\nWe ran vLLM on 8x H100 at 2x the batch.\n"
COMPARED = re.compile(r"与\S{1,30}?比|\d+\s*倍")


def test_a_single_chinese_character_is_a_literal_every_match_holds():
    # every match of the first alternative holds '与', of the second '倍': a block with neither cannot match
    assert _anchors(COMPARED.pattern, COMPARED.flags) == ("与", "倍")


def test_a_pattern_anchored_on_chinese_characters_finds_its_matches_where_they_are():
    doc = Document(parse_writeup(TEXT))
    assert [(i, m.start(), m.group(0)) for i, m in doc.hits(COMPARED)] == [(1, 0, "与vLLM相比"), (1, 12, "2倍")]
