"""Domain logic of llm-inference-fundamentals, importable without MCP.

Corpus search and reading, deployment sizing, benchmark metrics and the
benchmark-contract audit: pure functions over pydantic models.
"""

from .corpus import (
    PageIndex,
    ReadRequest,
    ReadResult,
    SearchHit,
    SearchRequest,
    SearchResults,
    list_pages,
    read_reference,
    search_references,
)
from .errors import (
    FundamentalsError,
    InputFormatError,
    InvalidQueryError,
    ModelConfigError,
    NetworkUnavailableError,
    UnknownGPUError,
    UnknownModelError,
    UnknownPageError,
    UnknownSectionError,
)
from .skill import SkillInstall, install_skill

__all__ = [
    "FundamentalsError",
    "InputFormatError",
    "InvalidQueryError",
    "ModelConfigError",
    "NetworkUnavailableError",
    "PageIndex",
    "ReadRequest",
    "ReadResult",
    "SearchHit",
    "SearchRequest",
    "SearchResults",
    "SkillInstall",
    "UnknownGPUError",
    "UnknownModelError",
    "UnknownPageError",
    "UnknownSectionError",
    "install_skill",
    "list_pages",
    "read_reference",
    "search_references",
]
