"""The word index answers 'which blocks hold this literal' exactly as a search of every block would."""

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
