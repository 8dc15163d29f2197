"""The wheel: one namespaced package carrying SKILL.md and references/, usable outside the checkout."""

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    # No build isolation: the build backend comes from the test environment, so nothing is downloaded.
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return next(out.glob("*.whl"))


def test_wheel_installs_one_namespaced_package_with_the_corpus(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top_level == {"llm_inference_fundamentals"}
    pages = sorted(p.name for p in (ROOT / "references").glob("*.md"))
    for page in pages:
        assert f"llm_inference_fundamentals/references/{page}" in names
    assert "llm_inference_fundamentals/SKILL.md" in names
    assert "llm_inference_fundamentals/tools/data/glossary.json" in names
    assert "llm_inference_fundamentals/tools/sizing/data/gpus.json" in names
    assert "llm_inference_fundamentals/tools/sizing/data/models.json" in names
    sources = {p.relative_to(ROOT).as_posix() for d in ("tools", "server", "cli") for p in (ROOT / d).rglob("*.py")}
    shipped = {n.removeprefix("llm_inference_fundamentals/") for n in names if n.endswith(".py")}
    assert sources <= shipped, f"modules missing from the wheel: {sorted(sources - shipped)}"


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh venv holding only our wheel; dependencies are borrowed from the test environment."""
    env_dir = tmp_path_factory.mktemp("fresh") / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    # Dependencies come from this test environment (no download); the package itself only from the wheel.
    site = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([py, "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], check=True)
    return env_dir


def test_installed_wheel_answers_from_outside_the_checkout(installed, tmp_path):
    env_dir, py = installed, installed / "bin" / "python"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = subprocess.run(
        [env_dir / "bin" / "llm-inference-fundamentals", "search", "time to first token", "--json"],
        cwd=elsewhere, capture_output=True, text=True, check=True,
    )
    hits = json.loads(run.stdout)["hits"]
    assert hits and hits[0]["page"] in {"metrics", "inference-mechanics", "benchmarking"}
    where = subprocess.run([py, "-c", "import llm_inference_fundamentals as p; print(p.__file__)"],
                           cwd=elsewhere, capture_output=True, text=True, check=True).stdout
    assert str(ROOT) not in where and "site-packages" in where
    skill_dir = tmp_path / "skills"
    subprocess.run([env_dir / "bin" / "lif", "install-skill", str(skill_dir)], cwd=elsewhere, check=True)
    assert (skill_dir / "llm-inference-fundamentals" / "SKILL.md").is_file()


@pytest.mark.anyio
async def test_installed_wheel_serves_the_corpus_over_stdio(installed, tmp_path):
    from mcp import Client, StdioServerParameters

    server = StdioServerParameters(command=str(installed / "bin" / "llm-inference-fundamentals"), args=["serve"], cwd=str(tmp_path))
    async with Client(server) as client:
        page = await client.call_tool("read_reference", {"page": "memory-sizing", "section": "kv-cache-per-token"})
        skill = await client.read_resource("skill://llm-inference-fundamentals/SKILL.md")
    assert not page.is_error and page.structured_content["text"].startswith("## KV cache per token")
    assert skill.contents[0].text.startswith("---\nname: llm-inference-fundamentals")
