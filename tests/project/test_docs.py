"""The reference in docs/ builds with MkDocs in strict mode: a link to a page, a file or an anchor that is not
there fails the build, and so fails this test. The README's own links point at files that exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.subprocess


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_the_reference_builds_strictly_with_its_links_checked(tmp_path):
    done = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "architecture" / "index.html").is_file()
    assert (tmp_path / "site" / "benchmarks" / "results" / "replan" / "index.html").is_file()


@pytest.mark.parametrize(
    ("link", "builds"),
    [("desk.md#the-desk", True), ("desk.md#no-such-heading", False), ("no-such-page.md", False), ("desk/", False)],
)
def test_a_broken_link_fails_the_build(tmp_path, link, builds):
    """The project's settings on two pages, one link between them: the check above can fail, and only for it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(f"# Home\n\n[a link]({link})\n", encoding="utf-8")
    (docs / "desk.md").write_text("# The desk\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {docs}\nnav: [index.md, desk.md]\nhooks: []\n", encoding="utf-8"
    )
    done = build(config, tmp_path / "site")
    assert (done.returncode == 0) == builds, done.stderr
    assert builds or link in done.stderr


def test_the_readmes_links_point_at_files_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    local = [link.split("#")[0] for link in re.findall(r"\]\(([^)]+)\)", readme) if "://" not in link]
    assert local, "the README links to the reference"
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, f"the README links to files that are not there: {missing}"
