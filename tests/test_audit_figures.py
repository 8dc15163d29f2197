"""The performance figures of a write-up are read once per view and shared by every rule that asks."""

from llm_inference_fundamentals.tools.audit.findings import Context
from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.document import Document
from llm_inference_fundamentals.tools.audit.reading.mentions import figures

TEXT = ("# Results\n\nMean TTFT was 120 ms and output throughput 2,400 tok/s on 8x H100.\n\n"
        "| setup | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n| A | 110 | 21 |\n| B | 130 | 25 |\n")


def test_a_second_reader_of_the_same_view_gets_the_figures_already_read():
    ctx = Context.of(Document(parse_writeup(TEXT)))
    ctx.d.default_scope = "claims"
    first = figures(ctx)
    assert first["lat"] and first["rate"]  # the prose TTFT and the throughput figure
    assert figures(ctx) is first


def test_each_view_has_its_own_figures():
    ctx = Context.of(Document(parse_writeup(TEXT)))
    ctx.d.default_scope = "run"
    run = figures(ctx)
    ctx.d.default_scope = "claims"
    assert figures(ctx) is not run
    assert figures(ctx) is figures(ctx)


def test_whether_a_write_up_compares_is_read_up_to_its_first_comparison_and_agrees_with_the_full_list():
    from llm_inference_fundamentals.tools.audit.reading.mentions import compares, comparison_hits

    for text in (TEXT, "vLLM vs SGLang: 1.5x faster than the baseline.\n", "No comparison here, 120 tok/s.\n",
                 "| engine | tok/s |\n|---|---|\n| vLLM | 1 |\n"):
        ctx = Context.of(Document(parse_writeup(text)))
        ctx.d.default_scope = "run"
        early = compares(ctx)
        assert "cmp:run" not in ctx.cache  # the list itself was not built
        assert early == bool(comparison_hits(ctx)) == compares(ctx)
