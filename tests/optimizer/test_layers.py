"""The library's layers: models imports neither optimizer nor rotation, optimizer does not import rotation,
no module of models or optimizer imports another in a circle (at the top, inside a function or for types
only), and optimizer's top level holds at most ten modules (the entry points and the shared types)."""

from __future__ import annotations

import ast
from pathlib import Path

from import_circles import assert_no_circle

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("models", "optimizer")


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def library_imports() -> dict[str, set[str]]:
    """Each module of models and optimizer -> every module it imports (of any package), dotted. `from a.b
    import c` imports a.b.c where c is a module, else a.b; a package's own __init__ is not an edge of the
    modules below it (Python runs it first, but it may import them: that is not a circle)."""
    paths = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    modules = {module_name(path) for path in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    inner = f"{node.module}.{alias.name}"
                    found.add(inner if inner in modules else node.module)
        graph[module_name(path)] = found - {module_name(path)}
    return graph


def test_models_and_optimizer_import_only_the_layers_above_them():
    above = {"models": {"optimizer", "rotation"}, "optimizer": {"rotation"}}
    wrong = [
        f"{module} imports {imported}"
        for module, imports in library_imports().items()
        for imported in imports
        if imported.split(".")[0] in above[module.split(".")[0]]
    ]
    assert not wrong, wrong


def test_no_module_of_models_or_optimizer_imports_another_in_a_circle():
    graph = library_imports()
    assert "optimizer.pipeline.run" in graph["optimizer.plan"]  # the walk sees imports
    assert_no_circle(graph)


def test_optimizer_top_level_holds_the_entry_points_and_shared_types_only():
    top = sorted(path.name for path in (ROOT / "optimizer").glob("*.py") if path.name != "__init__.py")
    assert len(top) <= 10, top
