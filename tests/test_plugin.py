"""The Claude Code plugin folder: manifests that load, a lean payload, and a launcher that says what is missing.

Claude Code itself drives the plugin in test_claude_code.py; these tests need no Claude Code.
"""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from llm_inference_fundamentals import __version__

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "plugin"
LAUNCHER = PLUGIN / "launch_server.py"
# Component keys a marketplace entry may carry (Claude Code's plugin manifest fields). With them in the
# entry as well as in plugin.json, Claude Code 2.1 refuses the plugin: "conflicting manifests".
COMPONENT_KEYS = {"commands", "agents", "skills", "hooks", "mcpServers", "lspServers", "outputStyles"}


def _json(path):
    return json.loads(path.read_text())


def test_marketplace_entry_points_at_the_plugin_folder_and_leaves_components_to_it():
    marketplace = _json(ROOT / ".claude-plugin" / "marketplace.json")
    (entry,) = marketplace["plugins"]
    assert entry["source"] == "./plugin"
    assert not COMPONENT_KEYS & set(entry), "component specs belong in the plugin folder only"
    assert entry.get("strict", True) is True  # strict: plugin.json is the manifest


def test_plugin_manifest_names_the_package_version():
    manifest = _json(PLUGIN / ".claude-plugin" / "plugin.json")
    assert manifest["name"] == "llm-inference-fundamentals"
    assert manifest["version"] == __version__
    assert not COMPONENT_KEYS & set(manifest)  # skills/ and .mcp.json are found at their default places


def test_checkout_root_holds_no_project_mcp_config():
    # A root .mcp.json is also read as the project's MCP config when the checkout is opened in
    # Claude Code; with ${CLAUDE_PLUGIN_ROOT} in it, every session warned "Missing environment variables".
    assert not (ROOT / ".mcp.json").exists()
    assert "${CLAUDE_PLUGIN_ROOT}" in (PLUGIN / ".mcp.json").read_text()


def test_plugin_links_stay_inside_the_checkout_and_resolve():
    links = [p for p in PLUGIN.rglob("*") if p.is_symlink()]
    assert links
    for link in links:
        target = link.resolve()
        assert target.exists(), f"{link} is dangling"
        assert ROOT in target.parents, f"{link} points outside the checkout"
        assert PLUGIN not in target.parents  # links point at the real files, never at each other
        assert not os.path.isabs(os.readlink(link)), f"{link} must be relative to survive a clone"


def test_plugin_skill_folder_is_the_skill():
    skill = PLUGIN / "skills" / "llm-inference-fundamentals"
    assert (skill / "SKILL.md").resolve() == (ROOT / "SKILL.md")
    assert (skill / "references").resolve() == (ROOT / "references")


def _copy_dereferenced(tmp_path):
    """The plugin as Claude Code installs it: symlinks replaced by the files they point at."""
    copy = tmp_path / "installed-plugin"
    shutil.copytree(PLUGIN, copy, symlinks=False, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_plugin_payload_carries_no_development_files(tmp_path):
    copy = _copy_dereferenced(tmp_path)
    names = {p.name for p in copy.rglob("*")}
    assert not names & {".venv", "tests", ".git", "benchmarks", ".ci", "build", "dist"}
    size = sum(p.stat().st_size for p in copy.rglob("*") if p.is_file())
    assert size < 5 * 2**20, f"plugin payload is {size / 2**20:.1f} MiB"


@pytest.mark.slow
def test_plugin_package_builds_the_same_wheel_as_the_checkout(tmp_path):
    """The launcher runs `uvx --from <plugin>/package`: that folder must build the whole product."""
    copy = _copy_dereferenced(tmp_path)

    def wheel_names(source, out):
        subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(source)],
                       check=True, capture_output=True)
        (wheel,) = out.glob("*.whl")
        return {n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n}

    # The checkout is copied first: a stale build/ folder in it would leak removed modules into its wheel.
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT, checkout, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".ci", "build", "dist", "*.egg-info", "__pycache__", "plugin", "tests", "benchmarks"))
    from_plugin = wheel_names(copy / "package", tmp_path / "a")
    from_checkout = wheel_names(checkout, tmp_path / "b")
    assert from_plugin == from_checkout


def _fake_command(folder, name, body):
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{body}\n")
    path.chmod(0o755)
    return path


def _launch(path_dirs, *args):
    env = {"PATH": os.pathsep.join(str(d) for d in path_dirs), "HOME": os.environ["HOME"]}
    return subprocess.run([sys.executable, str(LAUNCHER), *args], env=env, capture_output=True, text=True, timeout=60)


def test_launcher_without_uv_or_the_command_says_how_to_fix_it(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    run = _launch([empty])
    assert run.returncode == 1
    assert run.stdout == ""  # stdout is the JSON-RPC channel
    assert "neither `uvx` (from uv) nor an" in run.stderr
    assert "https://docs.astral.sh/uv/getting-started/installation/" in run.stderr
    assert f"pipx install '{PLUGIN / 'package'}'" in run.stderr


def test_launcher_prefers_uvx_and_runs_the_plugins_own_package(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "argv.json"
    _fake_command(bin_dir, "uvx", f"import json, sys; json.dump(sys.argv[1:], open({str(record)!r}, 'w'))")
    _fake_command(bin_dir, "llm-inference-fundamentals", "raise SystemExit('the installed command must not run')")
    run = _launch([bin_dir], "--allow-dir", "/data")
    assert run.returncode == 0, run.stderr
    assert json.loads(record.read_text()) == [
        "--from", str(PLUGIN / "package"), "llm-inference-fundamentals", "serve", "--allow-dir", "/data"]


@pytest.mark.slow
@pytest.mark.anyio
async def test_launcher_without_uv_serves_through_the_installed_command(tmp_path):
    from mcp import Client, StdioServerParameters

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "llm-inference-fundamentals").symlink_to(Path(sys.executable).parent / "llm-inference-fundamentals")
    env = {"PATH": str(bin_dir), "HOME": os.environ["HOME"]}
    params = StdioServerParameters(command=sys.executable, args=[str(LAUNCHER)], env=env, cwd=str(tmp_path))
    async with Client(params) as client:
        names = {t.name for t in (await client.list_tools()).tools}
    assert {"search_references", "read_reference", "size_deployment"} <= names
