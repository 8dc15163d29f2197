"""SKILL.md and the reference pages: the spec's rules, resolvable links, required sections."""

import re
from pathlib import Path

import pytest
from mcp import Client

from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.corpus import PACKAGE_ROOT, Corpus, slugify
from llm_inference_fundamentals.tools.skill import SKILL_NAME, install_skill

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = ROOT / "references"
PAGES = [
    "inference-mechanics", "metrics", "benchmarking", "memory-sizing", "batching", "prefix-caching",
    "speculative-decoding", "parallelism", "gpu-fundamentals", "infrastructure", "deployment",
]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"```.*?```", re.S)


def _frontmatter(text):
    head = text.split("---\n", 2)[1]
    fields = {}
    for line in head.splitlines():
        if line and not line.startswith(" "):
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def test_package_root_is_the_checkout_in_development():
    assert PACKAGE_ROOT == ROOT


def test_skill_frontmatter_follows_the_agent_skills_spec():
    text = (ROOT / "SKILL.md").read_text()
    assert text.startswith("---\n")
    fields = _frontmatter(text)
    assert set(fields) <= {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
    assert fields["name"] == SKILL_NAME
    assert 1 <= len(fields["description"]) <= 1024
    assert "<" not in fields["description"] and ">" not in fields["description"]
    assert len(fields["compatibility"]) <= 500
    body = text.split("---\n", 2)[2]
    assert len(body.splitlines()) < 500


def test_installed_skill_folder_passes_the_skills_ref_validator(tmp_path):
    skills_ref = pytest.importorskip("skills_ref")
    installed = install_skill(tmp_path)
    assert Path(installed.path).name == SKILL_NAME
    assert skills_ref.validate(Path(installed.path)) == []


def test_installed_skill_carries_every_page_it_links(tmp_path):
    installed = Path(install_skill(tmp_path).path)
    for target in LINK.findall((installed / "SKILL.md").read_text()):
        path = target.split("#")[0]
        if path and not path.startswith("http"):
            assert (installed / path).is_file(), path


def test_install_skill_refuses_to_overwrite_without_force(tmp_path):
    from llm_inference_fundamentals.tools.errors import FundamentalsError

    install_skill(tmp_path)
    with pytest.raises(FundamentalsError, match="--force"):
        install_skill(tmp_path)
    assert install_skill(tmp_path, force=True).replaced


@pytest.mark.anyio
async def test_skill_names_every_server_tool():
    text = (ROOT / "SKILL.md").read_text()
    async with Client(build_server(), raise_exceptions=True) as client:
        tools = [t.name for t in (await client.list_tools()).tools]
    for name in tools:
        assert f"`{name}`" in text, f"SKILL.md does not mention the tool {name}"


def _anchors(path):
    corpus = Corpus({path.stem: path.read_text()})
    return {s.anchor for s in corpus.sections}


def _documents():
    docs = [ROOT / "SKILL.md", ROOT / "README.md"]
    docs += sorted(REFERENCES.glob("*.md"))
    return [d for d in docs if d.exists()]


@pytest.mark.parametrize("doc", _documents(), ids=lambda p: p.name)
def test_every_relative_link_resolves_to_an_existing_anchor(doc):
    text = FENCE.sub("", doc.read_text())
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        assert dest.is_file(), f"{doc.name}: link to missing file {target}"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{doc.name}: no heading #{anchor} in {dest.name}"


@pytest.mark.parametrize("page", PAGES)
def test_every_topic_route_has_a_page_with_scope_pitfalls_and_sources(page):
    path = REFERENCES / f"{page}.md"
    if not path.exists():
        pytest.skip(f"references/{page}.md not written yet")
    text = path.read_text()
    assert text.startswith("# ")
    headings = [slugify(h) for h in re.findall(r"^## (.+)$", FENCE.sub("", text), re.M)]
    assert "pitfalls" in headings, "a Pitfalls section"
    assert headings[-1] == "sources", "Sources is the last section"
    sources = text.split("\n## Sources", 1)[1]
    assert re.search(r"(modular|bentoml)/llm-inference-handbook@(317b981|ea07b2c):docs/", sources)
    assert Corpus({page: text}).index().pages[0].scope, "a scope paragraph under the title"


def test_skill_routes_every_topic_page():
    text = (ROOT / "SKILL.md").read_text()
    for page in PAGES:
        assert f"(references/{page}.md" in text


def test_prose_is_in_our_own_words():
    """The shared originality checker (beside the checkout, as in CI) passes on every document we write."""
    checker = ROOT.parent / "shared" / "originality" / "check_originality.py"
    if not checker.exists():
        pytest.skip("the originality checker lives beside the checkout")
    import subprocess
    import sys

    docs = [str(d) for d in _documents()] + [str(ROOT / "UPSTREAM.md")]
    run = subprocess.run([sys.executable, str(checker), *docs], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout
