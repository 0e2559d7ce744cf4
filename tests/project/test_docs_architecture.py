"""The architecture page (docs/architecture.md) matches the tree: every path it names exists, and every package
of models/, optimizer/ and rotation/ is named there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def architecture() -> str:
    return (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def named_paths() -> set[str]:
    return {path for path in re.findall(r"`([^`\s]+)`", architecture()) if path.split("/")[0] in LAYERS}


LAYERS = ("models", "optimizer", "rotation")


def test_every_path_the_architecture_names_exists():
    missing = sorted(path for path in named_paths() if not (ROOT / path).exists())
    assert not missing, f"docs/architecture.md names paths that are not in the tree: {missing}"


def test_every_package_is_in_the_architecture():
    text = architecture()
    packages = {
        path.parent.relative_to(ROOT).as_posix() for layer in LAYERS for path in (ROOT / layer).rglob("__init__.py")
    }
    unnamed = sorted(package for package in packages if f"`{package}/`" not in text)
    assert not unnamed, f"packages docs/architecture.md does not name: {unnamed}"


def test_the_tests_mirror_the_packages():
    """Every test file sits in the folder of what it tests: tests/<package path>/ for a package of the tree,
    tests/project/ for what belongs to none; tests/ itself holds only shared helpers."""
    tests = ROOT / "tests"
    astray = sorted(
        path.relative_to(ROOT).as_posix()
        for path in tests.rglob("test_*.py")
        if not (path.parent == tests / "project" or (ROOT / path.parent.relative_to(tests) / "__init__.py").exists())
    )
    assert not astray, f"test files outside a folder that mirrors a package: {astray}"
