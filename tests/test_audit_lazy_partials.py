"""Vaguer statements that only matter when nothing declares an item are looked up (each takes its share of the
scan budget, as before) but read only when they can decide the finding."""

from llm_inference_fundamentals.tools.audit.findings import Context
from llm_inference_fundamentals.tools.audit.launch import _SETTINGS, launch_command
from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.document import Document

COMMAND = "# Run\n\n```\nvllm serve meta-llama/Llama-3.1-8B --max-num-seqs 64\n```\n\nDefault settings otherwise, 8 threads.\n"
SETTINGS_ONLY = "# Run\n\nWe kept the default settings, 8 threads, and measured 120 tok/s.\n"


def _settings_memo(ctx):
    return ctx.d._hits[(_SETTINGS.pattern, _SETTINGS.flags, None, "run")]


def test_a_launch_command_leaves_the_engine_settings_looked_up_but_unread():
    ctx = Context.of(Document(parse_writeup(COMMAND)))
    assert launch_command(ctx).status == "declared"
    assert _settings_memo(ctx)._found == []  # the look-up exists (budget accounted), no match was read


def test_without_a_command_the_engine_settings_make_the_launch_partial():
    ctx = Context.of(Document(parse_writeup(SETTINGS_ONLY)))
    finding = launch_command(ctx)
    assert finding.status == "partial" and "default settings" in finding.why.lower()
    assert _settings_memo(ctx)._found


def test_the_vaguer_hits_are_read_only_when_nothing_is_declared():
    from llm_inference_fundamentals.tools.audit.findings import unless_declared

    def never_read():
        raise AssertionError("read although something is declared")
        yield

    assert unless_declared([(0, "declared")], never_read()) == []
    assert unless_declared([], [(1, "a")], iter([(2, "b")])) == [(1, "a"), (2, "b")]  # in order, lists and look-ups alike
