"""The data file ``tools/data/upstream.json``: the pinned revisions, the licence facts and the page map."""

from __future__ import annotations

import functools
import json
from importlib.resources import files
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "PageMapEntry",
    "PinnedRevision",
    "REFERENCE_PAGE_IDS",
    "UpstreamData",
    "upstream_data",
]

PageId = Literal[
    "inference-mechanics",
    "metrics",
    "benchmarking",
    "memory-sizing",
    "batching",
    "prefix-caching",
    "speculative-decoding",
    "parallelism",
    "gpu-fundamentals",
    "infrastructure",
    "deployment",
]

REFERENCE_PAGE_IDS: tuple[str, ...] = get_args(PageId)
"""The eleven reference pages (``references/<id>.md``), in SKILL.md route order."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HandbookInfo(_Strict):
    title: str
    attribution: str
    docs_license: str
    code_license: str
    source: str


class PinnedRevision(_Strict):
    """One pinned upstream commit and the part it plays in the corpus."""

    key: Literal["modular", "bentoml"] = Field(description="Short name; also the CLI flag --<key>-ref.")
    repo: str = Field(description="GitHub owner/name.", pattern=r"^[\w.-]+/[\w.-]+$")
    commit: str = Field(description="Full commit SHA of the pin.", pattern=r"^[0-9a-f]{40}$")
    date: str = Field(description="Commit date (YYYY-MM-DD).", pattern=r"^\d{4}-\d{2}-\d{2}$")
    role: Literal["base", "older"] = Field(
        description="base: primary source of every page; older: used only for concepts the base dropped."
    )
    source: str


class TrackedFiles(_Strict):
    prefix: str
    suffixes: list[str]
    source: str


class PageMapEntry(_Strict):
    """Which reference pages one upstream file feeds."""

    feeds: list[PageId] = Field(description="Reference page ids fed by this file; empty when out of scope.")
    scope: Literal["in_scope", "fragments_only", "out_of_scope", "data_only"] = Field(
        description="in_scope: the page feeds ours directly; fragments_only: judged out of scope, a few "
        "fragments extracted; out_of_scope: feeds nothing; data_only: Apache-2.0 code, numbers and formulas only."
    )
    source: str
    note: str | None = None


class UpstreamData(_Strict):
    """``tools/data/upstream.json``: the pins, the licence facts and the page map."""

    about: str = Field(alias="_about")
    handbook: HandbookInfo
    revisions: list[PinnedRevision]
    tracked: TrackedFiles
    pages: dict[str, PageMapEntry]

    @field_validator("pages")
    @classmethod
    def _scope_matches_feeds(cls, pages: dict[str, PageMapEntry]) -> dict[str, PageMapEntry]:
        for path, entry in pages.items():
            if (entry.scope == "out_of_scope") != (not entry.feeds):
                raise ValueError(f"pages[{path!r}]: scope 'out_of_scope' exactly when feeds is empty")
        return pages

    def revision(self, key: str) -> PinnedRevision:
        return next(r for r in self.revisions if r.key == key)

    def feeds_of(self, path: str) -> list[str]:
        """The reference page ids an upstream file feeds; none when it is not in the page map."""
        entry = self.pages.get(path)
        return list(entry.feeds) if entry else []

    def is_tracked(self, path: str) -> bool:
        if path in self.pages:
            return True
        return path.startswith(self.tracked.prefix) and path.endswith(tuple(self.tracked.suffixes))


@functools.cache
def upstream_data() -> UpstreamData:
    """The pinned revisions and the upstream-page map (read and validated once)."""
    # The data folder sits beside this package, in tools/data/.
    text = (files(__package__).parent / "data" / "upstream.json").read_text(encoding="utf-8")
    return UpstreamData.model_validate(json.loads(text))

