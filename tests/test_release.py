"""Release readiness: one version everywhere, a clean build that twine accepts, a valid MCP Registry server.json."""

import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import jsonschema
import pytest

from llm_inference_fundamentals import __version__

ROOT = Path(__file__).resolve().parent.parent
REGISTRY_SCHEMA = Path(__file__).parent / "data" / "mcp-registry" / "server.schema.json"


def _json(path):
    return json.loads(path.read_text())


def test_pyproject_reads_the_version_from_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "llm_inference_fundamentals.__version__"}


def test_every_manifest_repeats_the_package_version():
    skill_version = re.search(r'^metadata:\n(?:  .*\n)*?  version: "([^"]+)"', (ROOT / "SKILL.md").read_text(), re.M)
    server = _json(ROOT / "server.json")
    found = {
        "plugin/.claude-plugin/plugin.json version": _json(ROOT / "plugin" / ".claude-plugin" / "plugin.json")["version"],
        "SKILL.md metadata.version": skill_version and skill_version.group(1),
        "server.json version": server["version"],
        "server.json packages[0].version": server["packages"][0]["version"],
    }
    wrong = {where: value for where, value in found.items() if value != __version__}
    assert not wrong, f"__version__ is {__version__}; set it in: {wrong}"


def test_server_json_is_valid_for_the_mcp_registry():
    schema = _json(REGISTRY_SCHEMA)
    server = _json(ROOT / "server.json")
    assert server["$schema"] == schema["$id"]
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert [e.message for e in validator.iter_errors(server)] == []


def test_registry_schema_catches_a_broken_server_json():
    # The vendored schema must be the real one, not a stub that accepts anything.
    validator = jsonschema.Draft7Validator(_json(REGISTRY_SCHEMA))
    server = _json(ROOT / "server.json")
    assert list(validator.iter_errors({**server, "name": "no-namespace"}))
    assert list(validator.iter_errors({**server, "description": "x" * 101}))
    assert list(validator.iter_errors({k: v for k, v in server.items() if k != "version"}))


def test_server_json_describes_the_package_and_how_it_starts():
    server = _json(ROOT / "server.json")
    (package,) = server["packages"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert package["registryType"] == "pypi" and package["identifier"] == project["name"]
    assert package["transport"] == {"type": "stdio"}
    assert [a["value"] for a in package["packageArguments"]] == ["serve"]
    assert server["name"].endswith("/" + project["name"])


def test_readme_claims_the_registry_name():
    # The registry accepts a PyPI package only when its README carries "mcp-name: <server.json name>".
    name = _json(ROOT / "server.json")["name"]
    assert f"mcp-name: {name}" in (ROOT / "README.md").read_text()


@pytest.mark.slow
def test_clean_tree_builds_an_sdist_and_wheel_that_twine_accepts(tmp_path):
    # A copy, as a fresh clone has it: a stale build/ folder in the checkout must not leak into the wheel.
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".ci", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache"))
    out = tmp_path / "dist"
    # `python -m build` makes the sdist, then the wheel from the sdist; no isolation keeps it offline.
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)],
                   check=True, capture_output=True)
    sdist = out / f"llm_inference_fundamentals-{__version__}.tar.gz"
    wheel = out / f"llm_inference_fundamentals-{__version__}-py3-none-any.whl"
    assert sdist.is_file() and wheel.is_file()
    twine = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel)],
                           capture_output=True, text=True)
    assert twine.returncode == 0, twine.stdout + twine.stderr
    assert twine.stdout.count("PASSED") == 2
    names = zipfile.ZipFile(wheel).namelist()
    assert "llm_inference_fundamentals/references/metrics.md" in names  # the corpus survives the sdist step
    metadata = zipfile.ZipFile(wheel).read(f"llm_inference_fundamentals-{__version__}.dist-info/METADATA").decode()
    assert f"\nVersion: {__version__}\n" in metadata
