"""Agreement between audit_benchmark and the hand-labelled golds in tests/data/audit/.

Run ``python tests/audit_agreement.py`` to print the per-item agreement table; the test suite
imports ``agreement()`` and checks the overall figure.
"""

from __future__ import annotations

import json
from pathlib import Path

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark

DATA = Path(__file__).parent / "data" / "audit"


def labelled_cases() -> list[tuple[Path, Path]]:
    """(write-up, gold) pairs: every <name>.gold.json beside its <name>.md/.txt."""
    cases = []
    for gold in sorted(DATA.glob("*.gold.json")):
        stem = gold.name[: -len(".gold.json")]
        source = next(p for p in DATA.iterdir() if p.stem == stem and p.suffix in (".md", ".txt"))
        cases.append((source, gold))
    return cases


def agreement() -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Per id (agreeing, labelled) and the list of disagreements."""
    table: dict[str, list[int]] = {}
    misses: list[str] = []
    for source, gold_path in labelled_cases():
        gold = json.loads(gold_path.read_text())
        report = audit_benchmark(AuditRequest(path=str(source)))
        got = {f.id: f.status for f in report.items} | {f.id: f.status for f in report.rules}
        for key, want in {**gold["items"], **gold["rules"]}.items():
            row = table.setdefault(key, [0, 0])
            row[1] += 1
            if got[key] == want:
                row[0] += 1
            else:
                misses.append(f"{source.name}: {key} gold={want} got={got[key]}")
    return {k: (a, b) for k, (a, b) in table.items()}, misses


def main() -> None:
    table, misses = agreement()
    agree = sum(a for a, _ in table.values())
    total = sum(b for _, b in table.values())
    print(f"{'id':<26}{'agree':>7}{'of':>5}{'rate':>8}")
    for key, (a, b) in table.items():
        print(f"{key:<26}{a:>7}{b:>5}{a / b:>8.2f}")
    print(f"{'overall':<26}{agree:>7}{total:>5}{agree / total:>8.3f}  ({len(labelled_cases())} write-ups)")
    for line in misses:
        print("  miss:", line)


if __name__ == "__main__":
    main()
