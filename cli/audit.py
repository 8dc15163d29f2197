"""``audit``: check a benchmark write-up, manifest or result file against the benchmark contract; or print the
fill-in report template or the manifest's JSON Schema."""

from __future__ import annotations

import argparse
import json

from pydantic import BaseModel

from . import UsageError
from .sources import path_or_stdin

__all__ = ["add_audit"]


def add_audit(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.audit import AuditRequest

    fields = AuditRequest.model_fields
    p = subparsers.add_parser(
        "audit",
        help="audit a benchmark write-up, manifest or result file against the benchmark contract",
        description="Checks every benchmark-contract item (declared/partial/missing/n/a) and metric rule "
        "(ok/violation/unclear/n/a) with line-numbered evidence. --template prints a fill-in report that "
        "satisfies every item; --manifest-schema prints the BenchmarkManifest JSON Schema.",
    )
    p.add_argument("file", nargs="?", default=None, help="write-up (.md/.txt), manifest (.json/.yaml) or result file; - reads stdin")
    p.add_argument("--format", default="auto", choices=["auto", "markdown", "manifest", "result"], help=fields["format"].description)
    p.add_argument("--template", action="store_true", help="print a fill-in markdown report that satisfies every contract item")
    p.add_argument("--manifest-schema", action="store_true", help="print the JSON Schema of BenchmarkManifest")

    def run(args: argparse.Namespace) -> BaseModel | int:
        from ..tools.audit import audit_benchmark, audit_template, manifest_json_schema

        if args.template:
            print(audit_template(), end="")
            return 0
        if args.manifest_schema:
            print(json.dumps(manifest_json_schema(), indent=2))
            return 0
        if args.file is None:
            raise UsageError("give a FILE (or - for stdin), --template or --manifest-schema")
        from ..tools.audit.models import MAX_TEXT_CHARS

        source = path_or_stdin(args.file, max_bytes=MAX_TEXT_CHARS * 4)
        return audit_benchmark(AuditRequest(**source, format=args.format))

    p.set_defaults(run=run, tool="audit_benchmark", cli_names={"path": "FILE", "text": "FILE"})
