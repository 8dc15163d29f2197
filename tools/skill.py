"""Install the agent skill: copy SKILL.md, UPSTREAM.md and references/ into a skills folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from pydantic import BaseModel, Field

from .corpus import PACKAGE_ROOT
from .errors import FundamentalsError

__all__ = ["SKILL_NAME", "SkillInstall", "install_skill", "skill_files"]

SKILL_NAME = "llm-inference-fundamentals"
"""The skill's name; the Agent Skills spec requires the folder to carry the same name."""


class SkillInstall(BaseModel):
    """Where the skill was installed and what was copied."""

    path: str = Field(description="The installed skill folder, <skills dir>/llm-inference-fundamentals.")
    files: list[str] = Field(description="Files copied, relative to the skill folder.")
    replaced: bool = Field(description="True when an earlier copy was replaced (--force).")

    def to_text(self) -> str:
        verb = "Replaced" if self.replaced else "Installed"
        return f"{verb} the skill at {self.path} ({len(self.files)} files)."


def skill_files() -> list[Path]:
    """The files that make up the skill, relative to the package root."""
    files = [Path("SKILL.md"), Path("UPSTREAM.md")]
    files += sorted(p.relative_to(PACKAGE_ROOT) for p in (PACKAGE_ROOT / "references").glob("*.md"))
    return [f for f in files if (PACKAGE_ROOT / f).is_file()]


def install_skill(skills_dir: Path, *, force: bool = False) -> SkillInstall:
    """Copy the skill into ``skills_dir/llm-inference-fundamentals/``.

    An existing folder is left alone unless ``force`` is true; then it is
    replaced whole, so no stale page survives an upgrade.
    """
    target = Path(skills_dir).expanduser() / SKILL_NAME
    replaced = target.exists() or target.is_symlink()
    if replaced and not force:
        raise FundamentalsError(f"{target} already exists; pass --force to replace it")
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.exists():
        shutil.rmtree(target)
    copied = []
    for rel in skill_files():
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE_ROOT / rel, dest)
        copied.append(rel.as_posix())
    return SkillInstall(path=str(target), files=copied, replaced=replaced)
