"""The audit's request and report models (the public schema of ``audit_benchmark``).

Status ids and item ids are public API: ``declared | partial | missing | not_applicable`` for
contract items, ``ok | violation | unclear | not_applicable`` for metric rules. New fields are
additive.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..errors import argument

__all__ = [
    "MAX_TEXT_CHARS",
    "AuditReport",
    "AuditRequest",
    "AuditSummary",
    "Evidence",
    "Inconsistency",
    "ItemFinding",
    "RuleFinding",
    "Setup",
]


MAX_TEXT_CHARS = 1_000_000

ItemStatus = Literal["declared", "partial", "missing", "not_applicable"]
RuleStatus = Literal["ok", "violation", "unclear", "not_applicable"]
Group = Literal["stack", "workload", "state", "distributions", "speculative", "aggregation"]
InputFormat = Literal["auto", "markdown", "manifest", "result"]


class AuditRequest(BaseModel):
    """What to audit: inline content or a file path, and its format."""

    model_config = ConfigDict(extra="forbid")

    # A JSON array of result records arrives as a list of objects; the 'before' validator turns any object or
    # array into text, so the item type only tells clients what to send (a bare `list[Any]` publishes `items: {}`).
    text: str | dict[str, Any] | list[dict[str, Any]] | None = Field(default=None, description="Inline content: a markdown/plain-text write-up, a manifest (JSON or YAML) or a result file's JSON (a JSON object/array is accepted as is). Up to 1,000,000 characters.")
    path: str | None = Field(default=None, description="Path to a file to audit instead of inline text (.md/.txt write-up, .json/.yaml manifest, result .json/.jsonl/.csv).", min_length=1, max_length=4096)
    format: InputFormat = Field(default="auto", description="Input kind: 'markdown' (write-up), 'manifest' (BenchmarkManifest JSON/YAML), 'result' (tool result file) or 'auto' (detect from extension and content).")

    @field_validator("text", mode="before")
    @classmethod
    def _json_to_text(cls, value: Any) -> Any:
        # MCP clients (and the SDK's argument pre-parsing) may hand inline JSON over as an object.
        if isinstance(value, (dict, list)):
            value = json.dumps(value, indent=1)
        if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            raise ValueError(f"{len(value):,} characters exceeds the {MAX_TEXT_CHARS:,}-character limit; "
                             f"pass {argument('path')} for large result files")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> AuditRequest:
        if (self.text is None) == (self.path is None):
            raise ValueError(f"give exactly one of {argument('text')} (inline content) or {argument('path')} (a file)")
        if self.text is not None and not self.text.strip():
            raise ValueError(f"{argument('text')}: empty; paste the write-up, manifest or result file to audit")
        return self


class Evidence(BaseModel):
    """One quoted source line that supports a finding."""

    line: int = Field(description="1-based line number in the input.")
    text: str = Field(description="The quoted source line (trimmed).")


class ItemFinding(BaseModel):
    """The verdict on one contract item."""

    id: str = Field(description="Contract item id (DESIGN.md).")
    group: Group = Field(description="Contract group of the item.")
    status: ItemStatus = Field(description="declared (a specific value), partial (vague or only for some setups), missing, or not_applicable.")
    evidence: list[Evidence] = Field(default_factory=list, description="The lines that decided the status.")
    why: str = Field(description="One-line reason; for missing items, the sections searched.")
    sections_searched: list[str] = Field(default_factory=list, description="Sections searched when the item is missing.")


class RuleFinding(BaseModel):
    """The verdict on one metric rule."""

    id: str = Field(description="Metric-rule id (DESIGN.md).")
    status: RuleStatus = Field(description="ok, violation (a careful reviewer would sign it), unclear, or not_applicable.")
    evidence: list[Evidence] = Field(default_factory=list, description="The lines that decided the status.")
    why: str = Field(description="One-line reason naming the figure or statement judged.")
    reason: Literal["not_stated", "ambiguous"] | None = Field(
        default=None, description="For an unclear rule: 'not_stated' (the write-up does not say what the rule needs) or "
                                  "'ambiguous' (it says something that can be read two ways). None otherwise.")
    question: str | None = Field(
        default=None, description="For an unclear rule: the question a reader must answer from the write-up, naming the lines to read.")


class Setup(BaseModel):
    """One measured setup the write-up reports (a model on some hardware, an engine configuration)."""

    label: str = Field(description="The setup in a few words, as the text names it, e.g. 'Llama 3.1 70B Instruct on 4 x H100 80G'.")
    lines: list[int] = Field(default_factory=list, description="Lines where the setup is named.")


class Inconsistency(BaseModel):
    """Two different values given for the same setup."""

    what: str = Field(description="Which values disagree, e.g. 'A100 count given as 4, 8'.")
    evidence: list[Evidence] = Field(description="The lines that give the disagreeing values.")


class AuditSummary(BaseModel):
    """How many items and rules have each status."""

    declared: int = Field(description="Contract items declared.")
    partial: int = Field(description="Contract items partial.")
    missing: int = Field(description="Contract items missing.")
    not_applicable: int = Field(description="Contract items not applicable.")
    ok: int = Field(description="Metric rules that hold.")
    violation: int = Field(description="Metric rules violated.")
    unclear: int = Field(description="Metric rules that apply but cannot be judged from the text.")
    rules_not_applicable: int = Field(description="Metric rules that do not apply.")


class AuditReport(BaseModel):
    """Findings for every contract item and metric rule, with evidence."""

    source: str = Field(description="File path, or 'inline'.")
    format: Literal["markdown", "manifest", "result"] = Field(description="How the input was read: a write-up, a manifest or a tool's result file.")
    title: str | None = Field(default=None, description="The write-up's first heading (or first line), the manifest title or the run label.")
    items: list[ItemFinding] = Field(description="One finding per contract item, in contract order.")
    rules: list[RuleFinding] = Field(description="One finding per metric rule.")
    summary: AuditSummary = Field(description="Counts of each status.")
    inconsistencies: list[Inconsistency] = Field(default_factory=list, description="Values that disagree for the same setup.")
    limits: list[str] = Field(default_factory=list, description="Reading limits that applied to this input (a very long "
                                                                 "write-up is read up to a budget per pattern); empty when none did.")
    setups: list[Setup] = Field(default_factory=list, description="The measured setups found in a write-up; several setups are not an "
                                                                   "inconsistency, and each claim is judged against its own setup.")
    suggestions: list[str] = Field(default_factory=list, description="What to add or fix, most important first.")

    def to_text(self) -> str:
        """The report as a checklist for people (the CLI's default output)."""
        mark = {"declared": "[x]", "partial": "[~]", "missing": "[ ]", "not_applicable": "[-]",
                "ok": "ok ", "violation": "!! ", "unclear": "?? "}
        out = [f"Benchmark audit: {self.title or self.source} ({self.format})"]
        s = self.summary
        out.append(f"items: {s.declared} declared, {s.partial} partial, {s.missing} missing, {s.not_applicable} n/a | "
                   f"rules: {s.ok} ok, {s.violation} violation, {s.unclear} unclear, {s.rules_not_applicable} n/a")
        group = None
        for f in self.items:
            if f.group != group:
                group = f.group
                out.append(f"\n{group}")
            where = _where(f.why, f.evidence)
            why = f.why if f.status != "missing" or self.format == "result" else "not found"
            out.append(f"  {mark[f.status]} {f.id:<24} {f.status:<14} {why}{where}")
        out.append("\nmetric rules")
        for r in self.rules:
            where = _where(r.why, r.evidence)
            reason = f" [{r.reason}]" if r.reason else ""
            out.append(f"  {mark[r.status]} {r.id:<24} {r.status:<14} {r.why}{where}{reason}")
            if r.question:
                out.append(f"      ask: {r.question}")
        if self.setups:
            out.append("\nsetups")
            out += [f"  - {s.label} (l. {', '.join(map(str, s.lines))})" for s in self.setups]
        if self.inconsistencies:
            out.append("\ninconsistencies")
            out += [f"  - {c.what} (l. {', '.join(str(e.line) for e in c.evidence)})" for c in self.inconsistencies]
        missing = [f for f in self.items if f.status == "missing"]
        if missing and missing[0].sections_searched:
            out.append("\nsections searched: " + "; ".join(missing[0].sections_searched))
        if self.suggestions:
            out.append("\nto add or fix")
            out += [f"  - {x}" for x in self.suggestions]
        return "\n".join(out)


_NAMES_LINES = re.compile(r"\(l\.\s?\d|\blines? \d")


def _where(why: str, evidence: list) -> str:
    """' (l. 3, 9)' after a why that does not already name its lines."""
    if not evidence or _NAMES_LINES.search(why):
        return ""
    return f" (l. {', '.join(str(e.line) for e in evidence[:3])})"
