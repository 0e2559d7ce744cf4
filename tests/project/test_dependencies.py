"""pyproject.toml declares every package the code imports, `make test-lowest` runs on the lowest Python the
project claims, and there (ROTATION_LOWEST=1) every declared floor is the version installed, so the floors
are versions the tests ran with, not hopes."""

from __future__ import annotations

import ast
import os
import re
import sys
from importlib.metadata import packages_distributions, version
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
FIRST_PARTY = {"models", "optimizer", "rotation", "benchmarks", "tests"}
REQUIREMENT = re.compile(r"([A-Za-z0-9_.\-]+)\s*(?:\[[^\]]*\])?\s*(>=|==)\s*([0-9][^;,\s]*)")


def _name(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _declared(*extras: str) -> dict[str, tuple[str, str]]:
    """Each declared distribution's operator and version; the highest floor where two lists name one."""
    found: dict[str, tuple[str, str]] = {}
    for line in PROJECT["dependencies"] + [r for extra in extras for r in PROJECT["optional-dependencies"][extra]]:
        match = REQUIREMENT.match(line)
        if match is None:  # rotation[plots]: the project's own extra, listed itself
            continue
        name, op, floor = _name(match[1]), match[2], match[3]
        if name not in found or _release(floor) > _release(found[name][1]):
            found[name] = (op, floor)
    return found


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text.split("+")[0])[:3])


def _imported(*folders: str) -> dict[str, Path]:
    """Top-level names imported in the folders' Python files (not the standard library's), and a file each."""
    found: dict[str, Path] = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    found.setdefault(name.split(".")[0], path)
    standard = sys.stdlib_module_names | {"tomllib"}  # tomllib: the standard library's from 3.11, tomli before
    return {name: path for name, path in found.items() if name not in standard}


def _undeclared(imported: dict[str, Path], declared: dict[str, tuple[str, str]]) -> list[str]:
    owners = packages_distributions()
    missing = []
    for module, path in imported.items():
        if module in FIRST_PARTY or any((ROOT / "tests").rglob(f"{module}.py")):
            continue
        # Not installed here (tomli on Python 3.11 and newer): its distribution is named as the module is.
        distributions = {_name(d) for d in owners.get(module, [])} or {_name(module)}
        if not distributions & declared.keys():
            missing.append(
                f"{module} ({path.relative_to(ROOT)}: {', '.join(sorted(distributions)) or 'not installed'})"
            )
    return missing


def test_the_app_imports_only_what_it_declares():
    assert _undeclared(_imported("models", "optimizer", "rotation"), _declared("plots")) == []


def test_the_tests_and_benchmarks_import_only_what_the_test_extra_declares():
    assert _undeclared(_imported("tests", "benchmarks"), _declared("plots", "test")) == []


def test_an_undeclared_import_is_found():
    assert _undeclared({"starlette": ROOT / "x.py"}, {"fastapi": (">=", "0.115.0")}) == ["starlette (x.py: starlette)"]


def test_the_lowest_lane_runs_on_the_lowest_python_claimed():
    claimed = re.fullmatch(r">=\s*(\d+\.\d+)", PROJECT["requires-python"])
    assert claimed is not None
    lane = re.search(r"^LOWEST_PY := (\S+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    assert lane is not None and lane[1] == claimed[1]
    assert f"Programming Language :: Python :: {claimed[1]}" in PROJECT["classifiers"]
    assert "make test-lowest" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.skipif(not os.environ.get("ROTATION_LOWEST"), reason="make test-lowest's venv only")
def test_every_floor_is_the_version_installed():
    assert sys.version.startswith(PROJECT["requires-python"].removeprefix(">=").strip() + ".")
    wrong = []
    for name, (_, floor) in _declared("plots", "test").items():
        if name == "tomli" and sys.version_info >= (3, 11):
            continue
        want, got = _release(floor), _release(version(name))
        if got[: len(want)] != want:
            wrong.append(f"{name}: declared >={floor}, installed {version(name)}")
    assert wrong == []
