"""Agreement between audit_benchmark and the hand-labelled golds.

    python tests/audit_agreement.py                      # the self-written set, tests/data/audit/
    python tests/audit_agreement.py tests/data/audit/real/batch1 [DIR ...]   # any folders of golds

Prints per-id agreement, overall agreement, and precision and recall of the
``violation`` verdict (a wrong violation costs more trust than a missed one).
The golds follow tests/data/audit/LABELLING.md. The test suite imports
``agreement()`` and checks the figures.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark

DATA = Path(__file__).parent / "data" / "audit"
REAL = DATA / "real"


def labelled_cases(folder: Path = DATA) -> list[tuple[Path, Path]]:
    """(write-up, gold) pairs: every <name>.gold.json beside its <name>.md/.txt in ``folder``."""
    cases = []
    for gold in sorted(folder.glob("*.gold.json")):
        stem = gold.name[: -len(".gold.json")]
        source = next(p for p in folder.iterdir() if p.stem == stem and p.suffix in (".md", ".txt"))
        cases.append((source, gold))
    return cases


@dataclass
class Agreement:
    """Per-id (agreeing, labelled) counts, the disagreements, and the violation confusion counts."""

    table: dict[str, list[int]] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    violations_said: int = 0
    violations_right: int = 0
    violations_gold: int = 0
    writeups: int = 0

    @property
    def overall(self) -> float:
        agree = sum(a for a, _ in self.table.values())
        total = sum(b for _, b in self.table.values())
        return agree / total if total else 1.0

    @property
    def violation_precision(self) -> float:
        return self.violations_right / self.violations_said if self.violations_said else 1.0

    @property
    def violation_recall(self) -> float:
        return self.violations_right / self.violations_gold if self.violations_gold else 1.0


def measure(folders: list[Path]) -> Agreement:
    """Audit every labelled write-up in ``folders`` and compare with its gold."""
    result = Agreement()
    for folder in folders:
        for source, gold_path in labelled_cases(folder):
            result.writeups += 1
            gold = json.loads(gold_path.read_text())
            report = audit_benchmark(AuditRequest(path=str(source)))
            got = {f.id: f.status for f in report.items} | {f.id: f.status for f in report.rules}
            for key, want in {**gold["items"], **gold["rules"]}.items():
                row = result.table.setdefault(key, [0, 0])
                row[1] += 1
                if got[key] == want:
                    row[0] += 1
                else:
                    result.misses.append(f"{folder.name}/{source.name}: {key} gold={want} got={got[key]}")
                if got[key] == "violation":
                    result.violations_said += 1
                    result.violations_right += want == "violation"
                result.violations_gold += want == "violation"
    return result


def agreement() -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Per id (agreeing, labelled) and the list of disagreements, over the self-written set."""
    result = measure([DATA])
    return {k: (a, b) for k, (a, b) in result.table.items()}, result.misses


def main(argv: list[str]) -> None:
    folders = [Path(a) for a in argv] or [DATA]
    result = measure(folders)
    print(f"{'id':<26}{'agree':>7}{'of':>5}{'rate':>8}")
    for key, (a, b) in result.table.items():
        print(f"{key:<26}{a:>7}{b:>5}{a / b:>8.2f}")
    agree = sum(a for a, _ in result.table.values())
    total = sum(b for _, b in result.table.values())
    print(f"{'overall':<26}{agree:>7}{total:>5}{result.overall:>8.3f}  ({result.writeups} write-ups)")
    print(
        f"violation precision {result.violations_right}/{result.violations_said} = {result.violation_precision:.3f}; "
        f"recall {result.violations_right}/{result.violations_gold} = {result.violation_recall:.3f}"
    )
    for line in result.misses:
        print("  miss:", line)


if __name__ == "__main__":
    main(sys.argv[1:])
