"""The word index answers 'which blocks hold this literal' exactly as a search of every block would."""

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.wordindex import WordIndex

BLOCKS = [
    "we ran vllm serve with --max-num-seqs 256",   # 0
    "the measured throughput was 1200 tok/s",      # 1
    "llama.cpp and vllm were compared",            # 2
    "no flags here -- just prose",                 # 3
    "measurement window: 60 s",                    # 4
]


def test_a_literal_inside_a_word_finds_every_block_whose_words_contain_it():
    index = WordIndex(BLOCKS)
    # 'measure' is inside 'measured' (block 1) and 'measurement' (block 4); nowhere else.
    assert index.blocks_with("measure") == [1, 4]
    # 'vllm' is a whole word in blocks 0 and 2.
    assert index.blocks_with("vllm") == [0, 2]
    assert index.blocks_with("sglang") == []


def test_a_literal_with_punctuation_must_appear_whole_not_only_its_word_pieces():
    index = WordIndex(BLOCKS + ["max num seqs, not the flag"])  # block 5 holds the pieces, not the flag
    assert index.blocks_with("--max-num-seqs") == [0]
    assert index.blocks_with("tok/s") == [1]
    assert index.blocks_with("llama.cpp") == [2]


def test_a_literal_without_word_characters_is_searched_in_every_block():
    # '--' is in block 0 (inside '--max-num-seqs') and block 3.
    assert WordIndex(BLOCKS).blocks_with("--") == [0, 3]


def test_each_word_lists_the_blocks_holding_it_in_order_and_the_vocabulary_keeps_first_seen_order():
    import re

    index = WordIndex(BLOCKS)
    naive: dict[str, list[int]] = {}
    for i, text in enumerate(BLOCKS):
        for word in sorted(set(re.findall(r"\w+", text)), key=text.index):
            naive.setdefault(word, []).append(i)
    assert {w: b for w, b in index._blocks.items()} == naive
    assert index._vocab.split("\n")[1:-1][:3] == list(index._blocks)[:3]


PIECES = ["vllm", "vl", "lm", "llama", ".cpp", "-", "--max", "-num", " ", "\n", "\x1e", "tok/s", "a", "ab", "b", "1",
          "比", "相比", "_", "x"]


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(texts=st.lists(st.lists(st.sampled_from(PIECES), max_size=10).map("".join), max_size=6),
       literal=st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join),
       joint=st.sampled_from(["\n\x1e\n", "", " ", "-"]))
def test_a_literal_said_to_be_held_nowhere_is_in_no_text_nor_in_any_join_of_them(texts, literal, joint):
    if not WordIndex(texts).may_hold(literal):
        assert not any(literal in text for text in texts)
        assert literal not in joint.join(texts)


def test_a_literal_whose_word_pieces_are_all_inside_words_may_be_held():
    index = WordIndex(BLOCKS)
    assert index.may_hold("measure") and index.may_hold("--max-num") and index.may_hold("--")
    assert index.may_hold("cpp and llama")  # (each piece is in some word: no promise that the whole is)
    assert not index.may_hold("sglang") and not index.may_hold("max-sglang")
