"""The edges apart (issue 56): the library knows no edge, the desk and the printing know neither the command
line nor click, and the director's bad input is a plain ValueError that only the command line turns into
click's error. Checked on the imports each module makes, at its top or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def refused(folder: str, prefixes: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    """`module: import` for every import in `folder` of a module under one of `prefixes`."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where in allowed:
            continue
        for name in imports(path):
            if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
                found.append(f"{where}: {name}")
    return found


@pytest.mark.parametrize("folder", ["models", "optimizer"])
def test_the_library_imports_no_edge(folder):
    assert not refused(folder, ("rotation", "click", "fastapi"))


def test_the_desk_imports_neither_the_command_line_nor_click():
    """`serve.py` is the desk's own command, the one place it meets click."""
    assert not refused("rotation/desk", ("rotation.commands", "click"), allowed=("rotation/desk/serve.py",))


@pytest.mark.parametrize("folder", ["rotation/printing", "rotation/scoring"])
def test_printing_and_scoring_import_neither_the_command_line_nor_the_desk(folder):
    assert not refused(folder, ("rotation.commands", "rotation.desk", "click"))
