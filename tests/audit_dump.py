"""Every finding of the audit on every labelled write-up and on the benchmark texts, one JSON line each.

    python tests/audit_dump.py OUT.jsonl

A change meant to keep every verdict (a speed-up, a refactor) must give a byte-identical file before and after:
run it on both revisions (`cmp BEFORE.jsonl AFTER.jsonl`). It reads the self-written set, every
tests/data/audit/real/batch* folder, and the 30 kB and 1 MB texts of benchmarks/bench_audit.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "audit"


def documents() -> list[tuple[str, str]]:
    """(name, text) of every labelled write-up, then the benchmark's two texts."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_audit import corpus

    folders = [DATA] + sorted((DATA / "real").glob("batch*"), key=lambda p: int(p.name[5:]))
    docs = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for folder in folders for p in sorted(folder.iterdir())
            if p.suffix in (".md", ".txt") and (folder / f"{p.stem}.gold.json").exists()]
    text = corpus()
    return docs + [("bench 30 kB", text[:30_000]), ("bench 1 MB", (text * (1_000_000 // len(text) + 1))[:1_000_000])]


def main(out: str) -> None:
    with open(out, "w", encoding="utf-8") as fh:
        for name, text in documents():
            report = audit_benchmark(AuditRequest(text=text))
            for finding in report.items + report.rules:
                fh.write(json.dumps({"doc": name, **finding.model_dump()}, ensure_ascii=False, sort_keys=True, default=str) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
