"""Errors a user can fix, raised by every function in tools/.

    FundamentalsError (ValueError)      base: the message is shown to the user as is
    ├── InvalidQueryError               a search query with nothing to search for
    ├── UnknownPageError                a reference page id that does not exist
    ├── UnknownSectionError             a section that is not on the page
    ├── UnknownModelError               a model name the catalog does not know
    ├── UnknownGPUError                 a GPU name the catalog does not know
    ├── ModelConfigError                a config.json that is malformed or incomplete
    ├── InputFormatError                a file or payload that cannot be parsed
    │   └── UnreadableFileError         a path that names no readable regular file (or one over the size cap)
    ├── NetworkUnavailableError         a look-up that needs the network failed
    ├── PathNotAllowedError             a file outside the folders the server may read
    └── UnknownRefError                 a git ref that an upstream repository does not have

The MCP server turns any of these into a tool error with the same message; the
CLI prints ``ErrorName: message`` on stderr and exits 1.

A message that names an argument spells it with ``argument("offset")``: the
MCP argument name by default, the CLI flag (``--offset``) while the CLI runs a
command inside ``argument_names(...)``. A message that names another tool spells
it with ``tool_name("read_reference")``: the MCP tool name, or the command
(``lif read``) under the CLI.
"""

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = [
    "argument",
    "argument_names",
    "on_command_line",
    "tool_name",
    "FundamentalsError",
    "describe_validation_error",
    "InputFormatError",
    "InvalidQueryError",
    "ModelConfigError",
    "NetworkUnavailableError",
    "PathNotAllowedError",
    "UnknownGPUError",
    "UnknownModelError",
    "UnknownPageError",
    "UnknownRefError",
    "UnknownSectionError",
    "UnreadableFileError",
]


class FundamentalsError(ValueError):
    """Base class: bad input the user can correct; the message says how."""


class InvalidQueryError(FundamentalsError):
    """Raised when a search query is empty or holds no searchable word."""


class UnknownPageError(FundamentalsError):
    """Raised when a page id names no reference page (the message lists them)."""


class UnknownSectionError(FundamentalsError):
    """Raised when a section names no heading of the page (the message lists them)."""


class UnknownModelError(FundamentalsError):
    """Raised when a model name is not in the catalog (the message suggests close names)."""


class UnknownGPUError(FundamentalsError):
    """Raised when a GPU name is not in the catalog (the message suggests close names)."""


class ModelConfigError(FundamentalsError):
    """Raised when a model config is malformed or lacks a field sizing needs."""


class InputFormatError(FundamentalsError):
    """Raised when a file or inline payload cannot be parsed; names the line or field."""


class NetworkUnavailableError(FundamentalsError):
    """Raised when a look-up needs the network (Hub, GitHub) and it failed."""


class PathNotAllowedError(FundamentalsError):
    """Raised when the MCP server is asked to read a file outside its allowed folders."""


class UnreadableFileError(InputFormatError):
    """Raised when a path names no readable regular file: missing, a folder or device, too large, malformed."""


class UnknownRefError(FundamentalsError):
    """Raised when a branch, tag or commit is not found in an upstream repository."""


def describe_validation_error(exc: Exception) -> list[str]:
    """One ``field: problem`` line per error of a pydantic ``ValidationError``.

    The input values are left out: they can be long, and they are the caller's data.
    """
    lines = []
    for error in exc.errors():  # type: ignore[attr-defined]
        parts = [str(part) for part in error["loc"]]
        if parts:
            parts[0] = argument(parts[0])  # the flag on the command line, the argument name over MCP
        field = ".".join(parts)
        msg = str(error["msg"]).removeprefix("Value error, ")  # pydantic's prefix for a validator's ValueError
        # a whole-model check (loc empty) names its own fields in the message, e.g. "gpus (4) must be ..."
        lines.append(f"{field}: {msg}" if field else msg)
    return lines


_ARGUMENT_NAMES: ContextVar[Mapping[str, str] | None] = ContextVar("argument_names", default=None)
_TOOL_NAMES: ContextVar[Mapping[str, str] | None] = ContextVar("tool_names", default=None)


def argument(name: str) -> str:
    """How the caller spells the tool argument ``name`` in a message: MCP name, or CLI flag under the CLI."""
    names = _ARGUMENT_NAMES.get()
    return names.get(name, name) if names else name


def tool_name(name: str) -> str:
    """How the caller invokes the MCP tool ``name``: the tool name, or its command (``lif read``) under the CLI."""
    names = _TOOL_NAMES.get()
    return names.get(name, name) if names else name


def on_command_line() -> bool:
    """True while the CLI runs a command (inside ``argument_names``); messages then speak flags and commands."""
    return _ARGUMENT_NAMES.get() is not None


@contextmanager
def argument_names(names: Mapping[str, str], *, tools: Mapping[str, str] | None = None) -> Iterator[None]:
    """Within the block ``argument(field)`` returns ``names[field]`` (e.g. ``{"offset": "--offset"}``) and
    ``tool_name(tool)`` returns ``tools[tool]`` (e.g. ``{"read_reference": "lif read"}``)."""
    token = _ARGUMENT_NAMES.set(names)
    tools_token = _TOOL_NAMES.set(tools or {})
    try:
        yield
    finally:
        _TOOL_NAMES.reset(tools_token)
        _ARGUMENT_NAMES.reset(token)
