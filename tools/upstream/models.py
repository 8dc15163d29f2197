"""The request (which refs to compare, whether to audit) and the report (what changed, what it feeds)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "AuditResult",
    "AuditUnit",
    "PageChange",
    "RETAINED_THRESHOLD",
    "RepoDrift",
    "UpstreamReport",
    "UpstreamRequest",
]

RETAINED_THRESHOLD = 0.6
"""A pinned unit whose best containment score is below this counts as not retained."""

_REF = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")


class UpstreamRequest(BaseModel):
    """Which upstream refs to compare with the pins, and whether to run the paragraph audit."""

    model_config = ConfigDict(extra="forbid")

    modular_ref: str = Field(
        "main",
        min_length=1,
        max_length=200,
        description="Branch, tag or commit of modular/llm-inference-handbook to compare with the pinned base "
        "revision (default: main).",
    )
    bentoml_ref: str = Field(
        "main",
        min_length=1,
        max_length=200,
        description="Branch, tag or commit of bentoml/llm-inference-handbook to compare with the pinned older "
        "revision (default: main).",
    )
    audit: bool = Field(
        True,
        description="Run the paragraph-level audit on the pages that changed (fetches their text at both commits).",
    )
    threshold: float = Field(
        RETAINED_THRESHOLD,
        ge=0.05,
        le=1.0,
        description="Token-set containment below which an older paragraph counts as not retained (0.05-1.0).",
    )

    @field_validator("modular_ref", "bentoml_ref")
    @classmethod
    def _git_ref(cls, value: str) -> str:
        if not _REF.match(value) or ".." in value or value.endswith(("/", ".lock")):
            raise ValueError(
                "must be a branch, tag or commit SHA: letters, digits and . _ / -, starting with a letter or "
                "digit, no '..'"
            )
        return value


class PageChange(BaseModel):
    """One tracked upstream file that differs between the pin and the ref."""

    path: str = Field(description="Path in the upstream repository.")
    change: Literal["changed", "added", "removed"]
    feeds: list[str] = Field(description="Reference page ids this file feeds (from the page map).")
    status: Literal["mapped", "out_of_scope", "unmapped"] = Field(
        description="mapped: feeds our pages; out_of_scope: in the map, feeds none; unmapped: not in the map yet."
    )


class AuditUnit(BaseModel):
    """One unit (paragraph, list item, table row or code block) without a close match on the other side."""

    path: str = Field(description="The file the unit comes from.")
    index: int = Field(description="0-based position of the unit among the file's units.")
    section: str | None = Field(description="The nearest heading above the unit.")
    kind: Literal["paragraph", "list_item", "table_row", "code_block"]
    score: float = Field(description="Best token-set containment found on the other side (0-1).")
    best_match: str | None = Field(description="File of the best-matching unit on the other side.")
    excerpt: str = Field(description="The start of the normalised unit text.")
    feeds: list[str] = Field(description="Reference page ids fed by the unit's file.")


class AuditResult(BaseModel):
    """Paragraph-level comparison of the pinned and the newer text of the changed pages."""

    threshold: float
    files_compared: int = Field(description="Changed, added and removed pages whose text was compared.")
    units_checked: int = Field(description="Units of the pinned text that were tested.")
    retained_verbatim: int
    retained_close: int = Field(description="Retained after rewording (containment >= threshold).")
    too_short: int = Field(description="Units with fewer than MIN_UNIT_WORDS content words and no verbatim match.")
    dropped: list[AuditUnit] = Field(description="Pinned units whose concept has no close match in the newer text.")
    added: list[AuditUnit] = Field(description="Newer units with no close match in the pinned text.")
    skipped: list[str] = Field(default_factory=list, description="Pages left out of the audit, with the reason.")


class RepoDrift(BaseModel):
    """One upstream repository: its pin, the ref it was compared with, and what changed."""

    key: str
    repo: str
    role: Literal["base", "older"]
    pinned_commit: str
    pinned_date: str
    ref: str
    resolved_commit: str = Field(description="The commit the ref pointed to at check time.")
    resolved_date: str | None = Field(description="Committer date of the resolved commit (ISO 8601).")
    up_to_date: bool = Field(description="True when the ref resolves to the pinned commit or no tracked file differs.")
    tree_truncated: bool = Field(
        description="True when GitHub truncated a tree listing (the file list may be incomplete)."
    )
    changes: list[PageChange]
    audit: AuditResult | None = Field(description="None when the audit was not requested or nothing changed.")


class UpstreamReport(BaseModel):
    """Drift of the upstream handbook since the pins, and the reference pages it touches."""

    repos: list[RepoDrift]
    pages_to_review: list[str] = Field(description="Reference page ids fed by any changed, added or removed file.")
    unmapped: list[str] = Field(
        description="Upstream files not in the page map yet (add them to tools/data/upstream.json)."
    )
    notes: list[str] = Field(default_factory=list)

    def to_text(self) -> str:
        lines: list[str] = []
        for drift in self.repos:
            resolved = drift.resolved_commit[:7] + (f" ({drift.resolved_date[:10]})" if drift.resolved_date else "")
            lines.append(
                f"{drift.repo} [{drift.role}]: pin {drift.pinned_commit[:7]} ({drift.pinned_date}), "
                f"{drift.ref} -> {resolved}"
            )
            if drift.up_to_date:
                lines.append("  no tracked file changed since the pin")
            width = max((len(c.path) for c in drift.changes), default=0)
            for change in drift.changes:
                target = ", ".join(change.feeds) if change.feeds else change.status.replace("_", " ")
                lines.append(f"  {change.change:<8} {change.path:<{width}}  -> {target}")
            if drift.tree_truncated:
                lines.append("  warning: GitHub truncated a tree listing; the file list may be incomplete")
            if drift.audit is not None:
                lines.extend(_audit_lines(drift.audit))
            lines.append("")
        lines.append("Reference pages to review: " + (", ".join(self.pages_to_review) or "none"))
        if self.unmapped:
            lines.append("Unmapped upstream files (add to tools/data/upstream.json): " + ", ".join(self.unmapped))
        lines.extend(f"Note: {note}" for note in self.notes)
        return "\n".join(lines)


def _audit_lines(audit: AuditResult) -> list[str]:
    lines = [
        f"  audit of {audit.files_compared} files: {audit.units_checked} pinned units, "
        f"{audit.retained_verbatim} verbatim, {audit.retained_close} reworded, {audit.too_short} too short, "
        f"{len(audit.dropped)} dropped, {len(audit.added)} added (containment < {audit.threshold:.2f})"
    ]
    for label, units in (("dropped", audit.dropped), ("added", audit.added)):
        for unit in units:
            lines.append(f"    {label:<7} {unit.path} #{unit.index} {unit.kind} {unit.score:.2f}: {unit.excerpt}")
    lines.extend(f"    skipped {reason}" for reason in audit.skipped)
    return lines

