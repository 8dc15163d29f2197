"""Upstream drift: what changed in the LLM Inference Handbook since the revisions we pinned.

Answers "which upstream pages changed, appeared or disappeared since our pin, which of our
reference pages does each one feed, and which pinned paragraphs have no close match in the
newer text?" The pins and the page map live in ``tools/data/upstream.json``.
``check_upstream(UpstreamRequest) -> UpstreamReport`` is the entry point.

    pins.py        the data file: pinned revisions, licence facts, the upstream-page map
    models.py      the request and the report
    paragraphs.py  the paragraph audit: units, normalisation, token-set containment
    check.py       the GitHub requests, the tree diff, and the check that composes them
"""

from .check import check_upstream
from .models import RETAINED_THRESHOLD, AuditResult, AuditUnit, PageChange, RepoDrift, UpstreamReport, UpstreamRequest
from .paragraphs import MIN_UNIT_WORDS, Unit, audit_revisions, containment, content_words, split_units
from .pins import REFERENCE_PAGE_IDS, PageMapEntry, PinnedRevision, UpstreamData, upstream_data

__all__ = [
    "AuditResult",
    "AuditUnit",
    "MIN_UNIT_WORDS",
    "PageChange",
    "PageMapEntry",
    "PinnedRevision",
    "REFERENCE_PAGE_IDS",
    "RETAINED_THRESHOLD",
    "RepoDrift",
    "Unit",
    "UpstreamData",
    "UpstreamReport",
    "UpstreamRequest",
    "audit_revisions",
    "check_upstream",
    "containment",
    "content_words",
    "split_units",
    "upstream_data",
]
