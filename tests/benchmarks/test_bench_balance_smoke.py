import json
import subprocess

import pytest

from benchmarks import balance, run

pytestmark = pytest.mark.slow


def _has_revision(revision: str) -> bool:
    found = subprocess.run(["git", "cat-file", "-e", f"{revision}^{{commit}}"], cwd=run.REPO, capture_output=True)
    return found.returncode == 0


@pytest.mark.skipif(not _has_revision(balance.OLD_REVISION), reason="needs the git history (the old revision)")
def test_balance_runner_measures_both_versions(tmp_path):
    """A tiny run of the balance runner: two rooms that the constructions seat at once, 1 s each, the working
    tree beside the old revision; both schedules are measured by the current checker. Times are not asserted."""
    argv = ["--rooms", "16x4,20x3", "--time-limit", "1", "--code", "worktree", "--out", str(tmp_path)]
    assert balance.main(argv) == 0
    data = json.loads((tmp_path / "balance.json").read_text(encoding="utf-8"))
    assert data["complete"] and [row["key"] for row in data["rooms"]] == ["16x4", "20x3"]
    for row in data["rooms"]:
        for side in ("new", "old"):
            assert "error" not in row[side]
            assert all(row[side][name] is not None for name in balance.FIGURES)
        assert "rotation-bench-" in row["old"]["code_file"]  # the old side ran on the extracted revision
    report = (tmp_path / "balance.md").read_text(encoding="utf-8")
    assert "## Headline" in report and "## The target rooms beside the published tables" in report
