"""``serve``: run the MCP server over stdio or streamable HTTP.

Its flags are generated from ``server.settings.ServeSettings``, so each one has the setting's description and
its environment variable; secrets are read from the environment only.
"""

from __future__ import annotations

import argparse
import typing

from . import UsageError

__all__ = ["add_serve"]


def add_serve(subparsers: argparse._SubParsersAction) -> None:
    from ..server.settings import ServeSettings, env_name, flag_name

    p = subparsers.add_parser(
        "serve",
        help="run the MCP server (stdio by default)",
        description="Serves the tools over stdio, or streamable HTTP with --http. Every option can also be set "
        "in the environment (shown in each help line); SECURITY.md explains authentication and the limits.",
    )
    for name, field in ServeSettings.model_fields.items():
        if name in ("auth_token", "oauth_client_secret"):
            continue  # secrets only from the environment (a command line is visible to other users)
        kind = field.annotation
        help_text = f"{field.description} (env {env_name(name)})"
        if kind is bool:
            p.add_argument(flag_name(name), action="store_true", default=None, help=help_text)
        elif kind == list[str]:
            metavar = {"allow_dir": "DIR", "required_scope": "SCOPE", "allowed_host": "HOST"}.get(name, "ORIGIN")
            p.add_argument(flag_name(name), action="append", default=None, metavar=metavar, help=help_text)
        elif typing.get_origin(kind) is typing.Literal:
            p.add_argument(flag_name(name), choices=typing.get_args(kind), default=None, help=help_text)
        else:
            scalar = next((t for t in (int, float) if kind is t), str)
            p.add_argument(flag_name(name), type=scalar, default=None, help=help_text)

    def run(args: argparse.Namespace) -> int:
        from pydantic import ValidationError

        from ..server import run_server
        from ..server.http import StartupRefused
        from ..server.settings import describe_settings_error, settings_from

        try:
            settings = settings_from({name: getattr(args, name, None) for name in ServeSettings.model_fields})
        except ValidationError as exc:
            raise UsageError(*describe_settings_error(exc)) from None
        try:
            run_server(settings)
        except StartupRefused as exc:
            raise UsageError(str(exc)) from None
        except KeyboardInterrupt:
            return 130
        return 0

    p.set_defaults(run=run)
