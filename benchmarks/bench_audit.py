"""Speed of audit_benchmark on a 30 kB and a 1 MB write-up, and on pathological inputs (a benchmark, not a test).

    python benchmarks/bench_audit.py [--runs 5]

The write-ups are the hand-labelled write-ups of tests/data/audit/ joined under headings (cut at 30 kB,
repeated up to 1 MB). In the same run it times:

- baseline: markdown-it parsing the same text with the audit's own parser settings (CommonMark plus
  tables, no inline pass): the least any markdown audit has to do;
- ours: ``audit_benchmark(AuditRequest(text=...))`` after import, text to report.

It prints the best of ``--runs`` for each, their ratio, and ours against the bars (30 kB under 150 ms,
1 MB under 1.5 s). Pathological single-line inputs (a megabyte-long word or number, a long blank run,
thousands of matches on one line, thousands of '[') are timed once each against the same baseline.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

BARS_S = {"30 kB": 0.150, "1 MB": 1.5}


def corpus() -> str:
    parts = []
    for path in sorted((ROOT / "tests" / "data" / "audit").glob("*.md")):
        if path.name == "LABELLING.md":
            continue
        parts.append(f"\n\n# {path.stem}\n\n" + path.read_text(encoding="utf-8"))
    return "".join(parts)


def best(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)

    from markdown_it import MarkdownIt

    from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark

    text = corpus()
    sizes = {"30 kB": text[:30_000], "1 MB": (text * (1_000_000 // len(text) + 1))[:1_000_000]}
    audit_benchmark(AuditRequest(text=text[:3000]))  # import and first-use caches
    md = MarkdownIt("commonmark").enable("table").disable("inline")
    print(f"{'input':<10}{'baseline':>12}{'ours':>12}{'ratio':>8}  bar")
    for name, sample in sizes.items():
        base = best(lambda: md.parse(sample), args.runs)
        ours = best(lambda: audit_benchmark(AuditRequest(text=sample)), max(1, args.runs if name == "30 kB" else args.runs // 2))
        verdict = "under" if ours < BARS_S[name] else "OVER"
        print(f"{name:<10}{base * 1000:>10.1f}ms{ours * 1000:>10.1f}ms{ours / base:>8.1f}  {verdict} {BARS_S[name] * 1000:.0f} ms")
    hostile = {
        "word": "x" * 990_000,
        "number": "1" * 990_000,
        "blanks": " " * 500_000 + "1",
        "matches": "vllm serve llama 8 tokens at 16 concurrent " * 22_000,
        "brackets": "[" * 200_000,
    }
    for name, sample in hostile.items():
        base = best(lambda: md.parse(sample), 1)
        start = time.perf_counter()
        try:
            audit_benchmark(AuditRequest(text=sample))
        except ValueError:
            pass  # a clear error is an answer too
        ours = time.perf_counter() - start
        print(f"{name:<10}{base * 1000:>10.1f}ms{ours * 1000:>10.1f}ms{ours / max(base, 1e-3):>8.1f}  (pathological)")


if __name__ == "__main__":
    main(sys.argv[1:])
