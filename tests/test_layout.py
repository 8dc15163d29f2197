"""Who may import whom (STYLE.md, "Dependency direction"), and the public surface of tools/."""

import ast
from pathlib import Path

import llm_inference_fundamentals.tools as tools

ROOT = Path(__file__).resolve().parent.parent


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield ("." * node.level) + (node.module or "")


def test_tools_import_neither_mcp_nor_server_nor_cli():
    for path in sorted((ROOT / "tools").rglob("*.py")):
        depth = len(path.relative_to(ROOT / "tools").parts)  # tools/x.py -> 1, tools/metrics/x.py -> 2
        for name in _imports(path):
            assert not name.split(".")[0] == "mcp", f"{path} imports {name}"
            leading = len(name) - len(name.lstrip("."))
            if leading > depth:  # climbs out of tools/
                target = name.lstrip(".").split(".")[0]
                assert target not in {"server", "cli"}, f"{path} imports {name}"
            assert "llm_inference_fundamentals.server" not in name and "llm_inference_fundamentals.cli" not in name


def _project_imports(path):
    """The modules of this package that ``path`` imports, named from the package root (``cli``, ``tools.errors``)."""
    here = path.relative_to(ROOT).parent.parts  # server/http.py -> ("server",)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = [*here[: len(here) - node.level + 1], *([node.module] if node.module else [])]
            names = [".".join([*base, alias.name]) for alias in node.names]  # `from .. import cli` imports cli
            names = [f"llm_inference_fundamentals.{name}" for name in names]
        elif isinstance(node, ast.ImportFrom):
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("llm_inference_fundamentals."):
                yield name.removeprefix("llm_inference_fundamentals.")


def test_server_does_not_import_the_cli():
    # STYLE.md, "Dependency direction": the CLI imports the server (for `serve`), never the other way round.
    seen = set()
    for path in sorted((ROOT / "server").rglob("*.py")):
        imported = set(_project_imports(path))
        assert not {name for name in imported if name.split(".")[0] == "cli"}, f"{path} imports the CLI"
        seen |= imported
    assert any(name.startswith("tools.") for name in seen)  # the walk does see the server's imports of tools/


# STYLE.md item 16: the command line is a package whose modules name what their subcommands do.
CLI_FAMILIES = {
    "corpus": {"search", "read", "install-skill", "upstream"},
    "sizing": {"size", "plan", "spec", "catalog"},
    "metrics": {"metrics", "compare", "sweep"},
    "audit": {"audit"},
    "serve": {"serve"},
}


def test_each_subcommand_lives_in_the_cli_module_of_its_family():
    import argparse

    from llm_inference_fundamentals.cli import _build_parser

    (subcommands,) = [a for a in _build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    found = {}
    for name, sub in subcommands.choices.items():
        found.setdefault(sub.get_default("run").__module__.rsplit(".", 1)[-1], set()).add(name)
    assert found == CLI_FAMILIES


def test_cli_modules_stay_under_500_lines():
    for path in sorted((ROOT / "cli").glob("*.py")):
        lines = len(path.read_text().splitlines())
        assert lines <= 500, f"cli/{path.name} has {lines} lines"


def test_server_does_no_file_io():
    source = (ROOT / "server" / "server.py").read_text()
    for call in ("open(", "read_text(", "read_bytes(", "Path("):
        assert call not in source, f"server/server.py calls {call}; file access belongs in tools/"


def test_every_public_name_is_exported_and_exists():
    for name in tools.__all__:
        assert hasattr(tools, name), name
    assert tools.__all__ == sorted(tools.__all__)


def test_package_docstring_example_runs():
    import doctest

    result = doctest.testmod(tools)
    assert result.attempted and not result.failed


def test_sizing_modules_stay_under_500_lines():
    # DESIGN.md: sizing is a package whose modules name the steps of the memory budget; none over ~500 lines
    for path in sorted((ROOT / "tools" / "sizing").glob("*.py")):
        lines = len(path.read_text().splitlines())
        assert lines <= 500, f"{path.name} has {lines} lines"


def test_audit_package_modules_and_classes_stay_small():
    # STYLE.md: modules under ~500 lines, no class past ~300; the audit is split by contract group.
    import ast as _ast

    for path in sorted((ROOT / "tools" / "audit").rglob("*.py")):
        source = path.read_text()
        assert source.count("\n") <= 500, f"{path} has {source.count(chr(10))} lines"
        for node in _ast.walk(_ast.parse(source)):
            if isinstance(node, _ast.ClassDef):
                assert node.end_lineno - node.lineno <= 300, f"{path}: class {node.name} is {node.end_lineno - node.lineno} lines"


def test_audit_vocabulary_tables_name_their_source():
    import json

    for path in sorted((ROOT / "tools" / "audit" / "data").glob("*.json")):
        for name, table in json.loads(path.read_text()).items():
            if isinstance(table, dict) and not table.get("source"):
                # a table of tables (one per tool): each names its own source
                for sub, entry in table.items():
                    assert isinstance(entry, dict) and entry.get("source"), f"{path.name}: {name}.{sub} has no source"


# Modules that open files of their own (the corpus, the Hub cache, an install target) and why; package data
# read through importlib.resources is fine anywhere. Any other file under tools/ must be opened through
# tools/files.py (consent, one checked descriptor, a size cap): a path a tool receives may come from a remote
# MCP caller.
OWN_FILES = {
    "corpus/__init__.py": "SKILL.md from the package",
    "corpus/library.py": "reference pages from the package or a test corpus folder",
    "sizing/hub.py": "its own cache of Hub answers",
    "skill.py": "copies the package's skill folder into a target the user names",
    "metrics/source.py": "InputSource.read_text reads the descriptor tools/files.py opened",
    "metrics/runs.py": "lists an AIPerf folder tools.files.is_granted_folder allowed; opens each file through tools.files",
}


def test_user_files_are_opened_only_through_tools_files():
    opening = ("open(", "read_bytes(", "read_text(", ".stat(", "is_file(", "os.open")
    offenders = []
    for path in sorted((ROOT / "tools").rglob("*.py")):
        name = path.relative_to(ROOT / "tools").as_posix()
        if name == "files.py" or name in OWN_FILES:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            package_data = "files(__package__)" in code or "resources.files(" in code
            if any(call in code for call in opening) and not package_data:
                offenders.append(f"tools/{name}:{number}: {line.strip()}")
    assert offenders == [], "open user files with tools.files.read_user_file / open_user_file:\n" + "\n".join(offenders)
