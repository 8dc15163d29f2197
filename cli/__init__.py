"""The ``llm-inference-fundamentals`` command (alias ``lif``): one subcommand per tool.

Each subcommand turns argv into the same request the MCP tool takes, calls the
same function in ``tools``, and prints the report: a readable text by default,
or with ``--json`` the MCP tool's structured output.

This package is the command line's public face: ``main()``, the parser, how a
report is printed and how an error is. The subcommands live in one module per
family, named for what they do: ``corpus`` (search, read, install-skill,
upstream), ``sizing`` (size, plan, spec, catalog), ``metrics`` (metrics,
compare, sweep), ``audit`` and ``serve``; ``sources`` (a FILE or ``-`` for
standard input) and ``lists`` (comma-separated values) hold what several of
them read the same way.

Messages speak the command line: the tool runs inside ``argument_names``, so
``argument("offset")`` in tools/ reads ``--offset`` and ``tool_name("read_reference")``
reads ``lif read``. The spelling comes from the subcommands' argparse actions
(an option's long flag, a positional's metavar), with ``cli_names`` defaults
for request fields that no single flag carries; a subcommand that mirrors an
MCP tool sets the default ``tool``. Prose written for the caller inside a report
(a note saying how to read on) is spelled the same way, so with ``--json`` such
text names flags and ``lif`` commands where the MCP output names arguments and
tools; every other field is the MCP output exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from pydantic import BaseModel, ValidationError

from .. import __version__
from ..tools.errors import FundamentalsError, argument_names, describe_validation_error

__all__ = ["main"]

PROG = "llm-inference-fundamentals"


class UsageError(Exception):
    """A command line the tools never see: no FILE, too few files, a server start refused for its flags.

    ``main`` prints each line as ``PROG COMMAND: line`` on stderr and exits with status 2, argparse's status
    for a usage error (a tool's own errors exit with 1).
    """

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    names, tools = _spelling(parser, args.command)
    with argument_names(names, tools=tools):
        try:
            result = args.run(args)
        except UsageError as exc:
            for line in exc.lines:
                print(f"{PROG} {args.command}: {line}", file=sys.stderr)
            return 2
        except ValidationError as exc:
            print(f"{PROG} {args.command}: invalid input", file=sys.stderr)
            for line in describe_validation_error(exc):
                print(f"  {line}", file=sys.stderr)
            return 1
        except FundamentalsError as exc:
            print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
    if isinstance(result, int):
        return result
    if result is not None:
        try:
            print(render(result, as_json=args.json))
            sys.stdout.flush()
        except BrokenPipeError:  # `lif ... | head`: the reader left; that is not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _spelling(parser: argparse.ArgumentParser, command: str) -> tuple[dict[str, str], dict[str, str]]:
    """How this command line spells request fields (``{"offset": "--offset"}``) and tools (``{"read_reference": "lif read"}``).

    Fields come from the running subcommand, then from the other subcommands that mirror a tool: a note
    from ``search`` that says how to read on names ``read``'s flags.
    """
    (subcommands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    mirrors = [name for name, sub in subcommands.choices.items() if name != command and sub.get_default("tool")]
    ordered = [command, *mirrors]
    names: dict[str, str] = {}
    tools: dict[str, str] = {}
    for name in ordered:
        sub = subcommands.choices[name]
        for field, spelled in (sub.get_default("cli_names") or {}).items():
            names.setdefault(field, spelled)
        for action in sub._actions:
            if action.dest in {"help", "json", argparse.SUPPRESS}:
                continue
            if action.option_strings:
                spelled = next((o for o in action.option_strings if o.startswith("--")), action.option_strings[0])
            else:
                spelled = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
            names.setdefault(action.dest, spelled)
        if sub.get_default("tool"):
            tools[sub.get_default("tool")] = f"lif {name}"
    return names, tools


def render(report: BaseModel, *, as_json: bool) -> str:
    """The text a subcommand prints: the MCP structured output with ``--json``."""
    if as_json:
        return json.dumps(report.model_dump(mode="json", by_alias=True), indent=2, ensure_ascii=False)
    return report.to_text()


def _build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand, in the order ``--help`` lists them.

    Each ``add_<name>`` registers one subparser and sets ``run`` to a function that takes the parsed args and
    returns a report model (or an exit code). The subcommand modules are imported here, not at the top: they
    import ``UsageError`` from this package.
    """
    from .audit import add_audit
    from .corpus import add_install_skill, add_read, add_search, add_upstream
    from .metrics import add_compare, add_metrics, add_sweep
    from .serve import add_serve
    from .sizing import add_catalog, add_plan, add_size, add_spec

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="LLM inference performance: reference corpus, sizing, metrics and benchmark audits.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in (add_serve, add_search, add_read, add_size, add_plan, add_spec, add_catalog, add_metrics, add_compare,
                add_sweep, add_audit, add_install_skill, add_upstream):
        add(subparsers)
    for sub in subparsers.choices.values():
        sub.add_argument("--json", action="store_true", help="print the tool's structured output as JSON")
    return parser
