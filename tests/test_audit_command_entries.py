"""A command's tool is looked up in the command table exactly as a scan of every entry finds it, whether or
not its first word can start an entry (reading.commands._match_entry's quick check)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.commands import _entries, _is_python, _match_entry


def _scan_every_entry(words):
    """The look-up without the quick check: every entry of the table tried in turn."""
    if not words:
        return None, 0
    first = words[0].rsplit("/", 1)[-1] if words[0].startswith((".", "/")) else words[0]
    norm = [first] + words[1:]
    python = _is_python(norm[0])
    for entry, tool in _entries():
        if entry[0] == "python":
            if not python:
                continue
            if entry[1] == "-m":
                if len(norm) >= 3 and norm[1] == "-m" and norm[2] == entry[2] and tuple(norm[3:len(entry)]) == entry[3:]:
                    return tool, len(entry)
            elif len(norm) >= 2 and norm[1].rsplit("/", 1)[-1] == entry[1]:
                return tool, 2
            continue
        if tuple(norm[:len(entry)]) == entry or (entry[0].startswith("./") and norm[0] == entry[0][2:] and tuple(norm[1:len(entry)]) == entry[1:]):
            return tool, len(entry)
    return None, 0


_TABLE_WORDS = sorted({w for entry, _ in _entries() for w in entry} | {e[0][2:] for e, _ in _entries() if e[0].startswith("./")})
_WORD = st.one_of(st.sampled_from(_TABLE_WORDS), st.sampled_from(["python3", "/usr/bin/python", "./build/bin/llama-bench",
                                                                   "echo", "cd", "--model", "x", "-m", "bench"]))


def test_each_entry_of_the_table_is_found_by_its_own_words():
    for entry, tool in _entries():
        words = list(entry) + ["--model", "m"]
        assert _match_entry(words) == _scan_every_entry(words)
        assert _match_entry(words)[0] is not None


def test_a_line_that_starts_no_entry_is_no_tools_command():
    assert _match_entry(["echo", "vllm", "serve"]) == (None, 0)
    assert _match_entry(["cd", "build"]) == (None, 0)


@settings(max_examples=500, deadline=None)
@given(st.lists(_WORD, max_size=6))
def test_the_quick_check_never_changes_the_answer(words):
    assert _match_entry(words) == _scan_every_entry(words)
