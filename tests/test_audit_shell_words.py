"""Shell text splits into commands and words exactly as a reading one character at a time splits it, though
runs of ordinary characters are taken whole (reading.commands._words)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.commands import _words


def _words_one_by_one(text: str, base: int) -> list[list[tuple[str, int]]]:
    """The tokenizer read one character at a time (reading.commands._words before it took runs whole)."""
    commands: list[list[tuple[str, int]]] = []
    words: list[tuple[str, int]] = []
    word: list[str] = []
    start = -1
    quote = ""
    k, n = 0, len(text)

    def close() -> None:
        nonlocal word, start
        if start >= 0:
            words.append(("".join(word), base + start))
        word, start = [], -1

    def end_command() -> None:
        nonlocal words
        close()
        if words:
            commands.append(words)
        words = []

    while k < n:
        c = text[k]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"' and k + 1 < n and text[k + 1] in '"\\$`':
                word.append(text[k + 1])
                k += 1
            else:
                word.append(c)
            k += 1
            continue
        if c == "\\" and k + 1 < n and text[k + 1] in "\r\n":  # line continuation
            k += 2 if text[k + 1:k + 3] != "\r\n" else 3
            continue
        if c in "'\"":
            quote = c
            if start < 0:
                start = k
            k += 1
            continue
        if c == "#" and start < 0:  # a comment runs to the end of the line
            nl = text.find("\n", k)
            k = n if nl < 0 else nl
            continue
        if c == "\n" or c == ";" or (c in "&|" and not (start >= 0 and word and word[-1] == "=")):
            if c in "&|" and k + 1 < n and text[k + 1] == c:
                k += 1
            end_command()
            k += 1
            continue
        if c in " \t\r":
            close()
            k += 1
            continue
        if c == "\\" and k + 1 < n and text[k + 1] in " \t":  # "\ " mid-line: a pasted continuation
            close()
            k += 2
            continue
        if c == "\\" and k + 1 < n:
            word.append(text[k + 1])
            if start < 0:
                start = k
            k += 2
            continue
        if start < 0:
            start = k
        word.append(c)
        k += 1
    end_command()
    return commands


SAMPLES = [
    "vllm serve meta-llama/Llama-3.1-8B --max-num-seqs 256 \\\n  --port 8000 # comment\npython -m x; echo 'a b' \"c\\\"d\"",
    "A=1 B=\"x y\" cmd --k=&v a&&b || c|d # not a # comment\r\n  'unclosed quote",
    "echo \\ x \\\ty tail\\",
    "",
]


def test_commands_read_as_one_character_at_a_time_reads_them():
    for text in SAMPLES:
        assert _words(text, 7) == _words_one_by_one(text, 7)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab=-/. \t\r\n;&|#'\"\\$`x1")), max_size=60))
def test_any_shell_text_splits_the_same(text):
    assert _words(text, 3) == _words_one_by_one(text, 3)
