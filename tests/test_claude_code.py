"""Claude Code's own CLI (npm @anthropic-ai/claude-code) validates, installs and connects the plugin and the server.

Every run gets a scratch HOME and CLAUDE_CONFIG_DIR and a PATH holding only python3, the test
environment's `llm-inference-fundamentals` and git: no API key, no account and no network are needed
for these commands. `.ci/run` installs the CLI when npm works (CLAUDE_CODE_CLI points at it);
without it the tests skip.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLAUDE = os.environ.get("CLAUDE_CODE_CLI") or shutil.which("claude")
PLUGIN_ID = "llm-inference-fundamentals@llm-inference-fundamentals"
SERVER = "plugin:llm-inference-fundamentals:llm-inference-fundamentals"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CLAUDE, reason="Claude Code CLI not installed (.ci/run installs it from npm; or set CLAUDE_CODE_CLI)"),
    pytest.mark.skipif(not shutil.which("git"), reason="git is needed to copy the checkout as a clone would"),
]


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory):
    """The checkout as a fresh clone has it: tracked and new files, nothing ignored (.venv, caches, .ci/...)."""
    copy = tmp_path_factory.mktemp("clone") / "llm-inference-fundamentals"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source, target = ROOT / name, copy / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree, not yet committed
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    return copy


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory):
    """A PATH with python3 (the plugin's launcher), the installed server command, and git: nothing else."""
    folder = tmp_path_factory.mktemp("bin")
    (folder / "python3").symlink_to(sys.executable)
    (folder / "llm-inference-fundamentals").symlink_to(Path(sys.executable).parent / "llm-inference-fundamentals")
    (folder / "git").symlink_to(shutil.which("git"))
    return folder


@pytest.fixture
def claude(tmp_path, bin_dir):
    home = tmp_path / "claude-home"
    home.mkdir()

    def run(*args, cwd=None, check=True):
        env = {
            "PATH": str(bin_dir),
            "HOME": str(home),
            "CLAUDE_CONFIG_DIR": str(home / ".claude"),
            "TERM": "dumb",
            "NO_COLOR": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        done = subprocess.run([CLAUDE, *args], cwd=cwd or tmp_path, env=env, capture_output=True, text=True,
                              timeout=180, stdin=subprocess.DEVNULL)
        output = done.stdout + done.stderr
        if check:
            assert done.returncode == 0, f"claude {' '.join(args)} exited {done.returncode}:\n{output}"
        return output

    run.home = home
    return run


def _install_plugin(claude, marketplace):
    claude("plugin", "marketplace", "add", str(marketplace))
    claude("plugin", "install", PLUGIN_ID)


def test_claude_validates_the_marketplace_and_the_plugin(claude, clean_copy):
    marketplace = claude("plugin", "validate", str(clean_copy))
    plugin = claude("plugin", "validate", str(clean_copy / "plugin"))
    assert "Validation passed" in marketplace and "✘" not in marketplace
    assert "Validation passed" in plugin and "✘" not in plugin


def test_claude_validates_the_installed_plugin_and_lists_its_skill_and_server(claude, clean_copy):
    # The folder in git links SKILL.md and the package in (validate reads no symlinks); the
    # installed copy holds the files themselves, so its validation lists what the plugin provides.
    _install_plugin(claude, clean_copy)
    (entry,) = [p for p in json.loads(claude("plugin", "list", "--json")) if p["id"] == PLUGIN_ID]
    report = claude("plugin", "validate", entry["installPath"])
    assert "✔ Validation passed" in report and "✘" not in report
    assert "skills: llm-inference-fundamentals:llm-inference-fundamentals" in report
    assert re.search(r"mcpServers: llm-inference-fundamentals stdio python3", report)


def test_plugin_installs_enabled_with_one_skill_and_one_server_that_connects(claude, clean_copy):
    _install_plugin(claude, clean_copy)
    (entry,) = [p for p in json.loads(claude("plugin", "list", "--json")) if p["id"] == PLUGIN_ID]
    assert entry["enabled"] is True and "errors" not in entry
    assert list(entry["mcpServers"]) == ["llm-inference-fundamentals"]
    listing = claude("plugin", "list")
    assert "✔ enabled" in listing and "failed to load" not in listing
    details = claude("plugin", "details", PLUGIN_ID)
    assert re.search(r"Skills \(1\)\s+llm-inference-fundamentals", details), details
    assert re.search(r"MCP servers \(1\)\s+llm-inference-fundamentals", details), details
    servers = claude("mcp", "list")
    assert re.search(rf"{SERVER}: .*✔ Connected", servers), servers


def test_installed_plugin_payload_leaves_development_files_out(claude, clean_copy, tmp_path):
    # The user's checkout after the README's quick start: a virtual environment, tests, build output.
    checkout = tmp_path / "checkout"
    shutil.copytree(clean_copy, checkout, symlinks=True)
    (checkout / ".venv" / "lib").mkdir(parents=True)
    (checkout / ".venv" / "lib" / "big.bin").write_bytes(b"\0" * (8 * 2**20))
    (checkout / "build").mkdir()
    _install_plugin(claude, checkout)
    (entry,) = [p for p in json.loads(claude("plugin", "list", "--json")) if p["id"] == PLUGIN_ID]
    installed = Path(entry["installPath"])
    names = {p.name for p in installed.rglob("*")}
    assert "launch_server.py" in names and "SKILL.md" in names
    assert not names & {".venv", "tests", ".git", "benchmarks", "build", ".ci"}
    size = sum(p.stat().st_size for p in installed.rglob("*") if p.is_file())
    assert size < 5 * 2**20, f"installed plugin is {size / 2**20:.1f} MiB"
    assert not any(p.is_symlink() for p in installed.rglob("*"))  # Claude Code copied the files the links name
    assert (installed / "package" / "pyproject.toml").is_file()


def test_opening_the_checkout_as_a_project_adds_no_server_and_no_warning(claude, clean_copy):
    output = claude("mcp", "list", cwd=clean_copy)
    assert "Missing environment variables" not in output
    assert "No MCP servers configured" in output


def _readme_claude_mcp_add_commands():
    readme = (ROOT / "README.md").read_text()
    return [line.split("#")[0].strip() for line in readme.splitlines() if line.strip().startswith("claude mcp add")]


def test_readme_registrations_for_an_installed_server_connect(claude, tmp_path):
    commands = [c for c in _readme_claude_mcp_add_commands() if "uvx" not in c]  # uvx needs the package index
    assert len(commands) >= 2, commands
    venv_command = Path(sys.executable).parent / "llm-inference-fundamentals"
    for command in commands:
        argv = command.split()[1:]  # drop "claude"
        argv = [str(venv_command) if a == "/path/to/checkout/.venv/bin/llm-inference-fundamentals" else a for a in argv]
        name = argv[argv.index("--") - 1]
        claude(*argv)
        servers = claude("mcp", "list")
        assert re.search(rf"^{name}: .*✔ Connected", servers, re.M), f"{command}\n{servers}"
        claude("mcp", "remove", name, "--scope", "user")


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):  # keep the test output to the assertions
        pass


@pytest.fixture
def git_url(tmp_path, clean_copy):
    """The clean copy as a git repository served over smart HTTP on loopback (git http-backend behind WSGI)."""
    repo = tmp_path / "served" / "llm-inference-fundamentals.git"
    work = tmp_path / "work"
    shutil.copytree(clean_copy, work, symlinks=True)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], cwd=work, check=True)
    subprocess.run([*git, "add", "-A"], cwd=work, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "snapshot"], cwd=work, check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(repo)], check=True)
    backend = Path(subprocess.run(["git", "--exec-path"], capture_output=True, text=True, check=True).stdout.strip())

    def app(environ, start_response):
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        env = {"PATH": os.environ.get("PATH", ""), "GIT_PROJECT_ROOT": str(repo.parent), "GIT_HTTP_EXPORT_ALL": "1",
               "REQUEST_METHOD": environ["REQUEST_METHOD"], "PATH_INFO": environ["PATH_INFO"],
               "QUERY_STRING": environ.get("QUERY_STRING", ""), "CONTENT_TYPE": environ.get("CONTENT_TYPE", ""),
               "CONTENT_LENGTH": str(len(body)), "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory",
               "GIT_CONFIG_VALUE_0": "*"}
        out = subprocess.run([str(backend / "git-http-backend")], input=body, env=env, capture_output=True).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        headers = [tuple(h.split(": ", 1)) for h in head.decode().split("\r\n") if ": " in h]
        status = next((v for k, v in headers if k.lower() == "status"), "200 OK")
        start_response(status, [(k, v) for k, v in headers if k.lower() != "status"])
        return [payload]

    server = make_server("127.0.0.1", 0, app, handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/llm-inference-fundamentals.git"
    server.shutdown()
    thread.join(timeout=10)


def test_plugin_from_a_git_url_installs_the_linked_files_and_connects(claude, git_url):
    # The README's first choice: a marketplace added by git URL. Claude Code clones it and copies the
    # plugin folder, replacing the links to SKILL.md and the package with the files themselves.
    claude("plugin", "marketplace", "add", git_url)
    claude("plugin", "install", PLUGIN_ID)
    (entry,) = [p for p in json.loads(claude("plugin", "list", "--json")) if p["id"] == PLUGIN_ID]
    installed = Path(entry["installPath"])
    assert entry["enabled"] is True and (installed / "skills" / "llm-inference-fundamentals" / "SKILL.md").is_file()
    assert not any(p.is_symlink() for p in installed.rglob("*"))
    assert (installed / "package" / "tools" / "errors.py").is_file()
    servers = claude("mcp", "list")
    assert re.search(rf"{SERVER}: .*✔ Connected", servers), servers
