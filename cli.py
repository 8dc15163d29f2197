"""The ``llm-inference-fundamentals`` command (alias ``lif``): one subcommand per tool.

Each subcommand turns argv into the same request the MCP tool takes, calls the
same function in ``tools``, and prints the report: a readable text by default,
or with ``--json`` exactly the MCP tool's structured output.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ValidationError

from . import __version__
from .tools.errors import FundamentalsError

__all__ = ["main"]

PROG = "llm-inference-fundamentals"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        result = args.run(args)
    except ValidationError as exc:
        print(f"{PROG} {args.command}: invalid input", file=sys.stderr)
        for line in _validation_lines(exc):
            print(f"  {line}", file=sys.stderr)
        return 1
    except FundamentalsError as exc:
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if isinstance(result, int):
        return result
    if result is not None:
        print(render(result, as_json=args.json))
    return 0


def render(report: BaseModel, *, as_json: bool) -> str:
    """The text a subcommand prints: the MCP structured output with ``--json``."""
    if as_json:
        return json.dumps(report.model_dump(mode="json", by_alias=True), indent=2, ensure_ascii=False)
    return report.to_text()


def _validation_lines(exc: ValidationError) -> list[str]:
    lines = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"]) or "input"
        lines.append(f"{field}: {error['msg']}")
    return lines


# --- subcommands -------------------------------------------------------------
# Each _add_<name> registers one subparser and sets ``run`` to a function that
# takes the parsed args and returns a report model (or an exit code).


def _add_serve(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="run the MCP server (stdio by default)")
    p.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default: 127.0.0.1, loopback only)")
    p.add_argument("--port", type=int, default=8000, help="HTTP port (default: 8000)")
    p.add_argument("--path", default="/mcp", help="HTTP endpoint path (default: /mcp)")

    def run(args: argparse.Namespace) -> int:
        from .server import run_server

        if not 0 < args.port < 65536:
            print(f"{PROG} serve: --port must be between 1 and 65535, got {args.port}", file=sys.stderr)
            return 2
        transport = "streamable-http" if args.http else "stdio"
        run_server(transport, host=args.host, port=args.port, path=args.path)
        return 0

    p.set_defaults(run=run)


def _add_search(subparsers: argparse._SubParsersAction) -> None:
    from .tools.corpus import SearchRequest

    fields = SearchRequest.model_fields
    p = subparsers.add_parser("search", help="search the reference corpus")
    p.add_argument("query", nargs="+", help=fields["query"].description)
    p.add_argument("-k", type=int, default=fields["k"].default, help=fields["k"].description)
    p.add_argument("--page", default=None, help=fields["page"].description)
    p.add_argument("--max-tokens", type=int, default=fields["max_tokens"].default, help=fields["max_tokens"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.corpus import search_references

        request = SearchRequest(query=" ".join(args.query), k=args.k, page=args.page, max_tokens=args.max_tokens)
        return search_references(request)

    p.set_defaults(run=run)


def _add_read(subparsers: argparse._SubParsersAction) -> None:
    from .tools.corpus import ReadRequest

    fields = ReadRequest.model_fields
    p = subparsers.add_parser("read", help="read a reference page or one of its sections")
    p.add_argument("page", nargs="?", default=None, help=fields["page"].description + " Omit to list the pages.")
    p.add_argument("section", nargs="?", default=None, help=fields["section"].description)
    p.add_argument("--offset", type=int, default=0, help=fields["offset"].description)
    p.add_argument("--max-tokens", type=int, default=fields["max_tokens"].default, help=fields["max_tokens"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.corpus import list_pages, read_reference

        if args.page is None:
            return list_pages()
        request = ReadRequest(page=args.page, section=args.section, offset=args.offset, max_tokens=args.max_tokens)
        return read_reference(request)

    p.set_defaults(run=run)


def _add_install_skill(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "install-skill",
        help="copy the skill (SKILL.md and references/) into a skills folder",
        description="Copies the skill into DIR/llm-inference-fundamentals/. --user targets ~/.claude/skills, "
        "--project targets ./.claude/skills.",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="install into ~/.claude/skills (the default)")
    where.add_argument("--project", action="store_true", help="install into ./.claude/skills")
    where.add_argument("dir", nargs="?", default=None, help="install into this skills folder")
    p.add_argument("--force", action="store_true", help="replace an existing copy")

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.skill import install_skill

        if args.dir:
            target = Path(args.dir)
        elif args.project:
            target = Path.cwd() / ".claude" / "skills"
        else:
            target = Path.home() / ".claude" / "skills"
        return install_skill(target, force=args.force)

    p.set_defaults(run=run)



_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    _add_serve,
    _add_search,
    _add_read,
    _add_install_skill,
]


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="LLM inference performance: reference corpus, sizing, metrics and benchmark audits.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in _COMMANDS:
        add(subparsers)
    for sub in subparsers.choices.values():
        sub.add_argument("--json", action="store_true", help="print the tool's structured output as JSON")
    return parser
