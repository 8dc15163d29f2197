"""A pipe-table line splits into the cells a character-by-character reading gives (tableforms._pipe_cells jumps
from bar to bar): same texts, same offsets, escaped bars kept in the cell."""

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference_fundamentals.tools.audit.reading.tableforms import _MAX_COLS, Cell, _pipe_cells, clean


def _cells_one_by_one(line: str, offset: int, number: int) -> list[Cell]:
    """The cells as read one character at a time (tableforms._pipe_cells before it jumped from bar to bar)."""
    cells: list[Cell] = []
    k = len(line) - len(line.lstrip())
    if line[k:k + 1] == "|":
        k += 1
    start = k
    n = len(line)
    while k <= n:
        if k == n or (line[k] == "|" and line[k - 1:k] != "\\"):
            raw = line[start:k]
            if not (k == n and not raw.strip()):
                lead = len(raw) - len(raw.lstrip())
                cells.append(Cell(clean(raw), offset + start + lead, number))
            start = k + 1
        k += 1
    return cells[:_MAX_COLS]


def _read(cells):
    return [(c.text, c.start, c.line) for c in cells]


def test_a_row_with_escaped_bars_and_empty_cells_splits_as_read_one_character_at_a_time():
    for line in ("| a | b \\| c | |", "  |x||y|", "no bars", "|", "", "a | b", "\\|a|b\\|"):
        assert _read(_pipe_cells(line, 5, 2)) == _read(_cells_one_by_one(line, 5, 2))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("|\\ a1*`-")), max_size=40))
def test_any_line_splits_the_same(line):
    assert _read(_pipe_cells(line, 0, 1)) == _read(_cells_one_by_one(line, 0, 1))
