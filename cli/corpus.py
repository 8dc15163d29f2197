"""The corpus subcommands: ``search`` and ``read`` the reference pages, ``install-skill`` copies them with
SKILL.md into a skills folder, ``upstream`` checks the handbook they draw on for changes."""

from __future__ import annotations

import argparse
from pathlib import Path

from pydantic import BaseModel

__all__ = ["add_install_skill", "add_read", "add_search", "add_upstream"]


def add_search(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.corpus import SearchRequest

    fields = SearchRequest.model_fields
    p = subparsers.add_parser("search", help="search the reference corpus")
    p.add_argument("query", nargs="+", help=fields["query"].description)
    p.add_argument("-k", type=int, default=fields["k"].default, help=fields["k"].description)
    p.add_argument("--page", default=None, help=fields["page"].description)
    p.add_argument("--max-tokens", type=int, default=fields["max_tokens"].default, help=fields["max_tokens"].description)
    p.add_argument("--order", choices=["pages_first", "score"], default=fields["order"].default,
                   help=fields["order"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.corpus import search_references

        request = SearchRequest(
            query=" ".join(args.query), k=args.k, page=args.page, max_tokens=args.max_tokens, order=args.order
        )
        return search_references(request)

    p.set_defaults(run=run, tool="search_references")


def add_read(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.corpus import ReadRequest

    fields = ReadRequest.model_fields
    p = subparsers.add_parser("read", help="read a reference page or one of its sections")
    p.add_argument("page", nargs="?", default=None, help=fields["page"].description + " Omit to list the pages.")
    p.add_argument("section", nargs="*", default=[], help=fields["section"].description + " Several: list them.")
    p.add_argument("--offset", type=int, default=0, help=fields["offset"].description)
    p.add_argument("--max-tokens", type=int, default=fields["max_tokens"].default, help=fields["max_tokens"].description)
    p.add_argument("--all", "--whole-page", dest="whole_page", action="store_true", help=fields["whole_page"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.corpus import list_pages, read_reference

        if args.page is None:
            return list_pages()
        section = args.section[0] if len(args.section) == 1 else (args.section or None)
        request = ReadRequest(page=args.page, section=section, offset=args.offset, max_tokens=args.max_tokens,
                              whole_page=args.whole_page)
        return read_reference(request)

    p.set_defaults(run=run, tool="read_reference")


def add_install_skill(subparsers: argparse._SubParsersAction) -> None:
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
        from ..tools.skill import install_skill

        if args.dir:
            target = Path(args.dir)
        elif args.project:
            target = Path.cwd() / ".claude" / "skills"
        else:
            target = Path.home() / ".claude" / "skills"
        return install_skill(target, force=args.force)

    p.set_defaults(run=run)


def add_upstream(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.upstream import UpstreamRequest

    fields = UpstreamRequest.model_fields
    p = subparsers.add_parser(
        "upstream",
        help="check the upstream LLM Inference Handbook for changes since the pinned revisions (needs network)",
        description="Lists upstream pages changed, added or removed since the pins in tools/data/upstream.json, the "
        "reference pages each feeds, and (unless --no-audit) older paragraphs with no close match in the newer text. "
        "Set GITHUB_TOKEN to raise the GitHub API rate limit.",
    )
    p.add_argument("--modular-ref", default=fields["modular_ref"].default, metavar="REF", help=fields["modular_ref"].description)
    p.add_argument("--bentoml-ref", default=fields["bentoml_ref"].default, metavar="REF", help=fields["bentoml_ref"].description)
    p.add_argument("--no-audit", action="store_true", help="only compare file lists (skips fetching page text)")
    p.add_argument("--threshold", type=float, default=fields["threshold"].default, help=fields["threshold"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.upstream import check_upstream

        request = UpstreamRequest(
            modular_ref=args.modular_ref, bentoml_ref=args.bentoml_ref, audit=not args.no_audit, threshold=args.threshold
        )
        return check_upstream(request)

    p.set_defaults(run=run, cli_names={"audit": "--no-audit"})
