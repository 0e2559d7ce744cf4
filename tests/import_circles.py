"""The one walk for import circles the layer tests share: a graph of module -> the modules it imports."""

from __future__ import annotations


def assert_no_circle(graph: dict[str, set[str]]) -> None:
    """Depth first from every module; a module met again on the path it was reached by is a circle."""
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for imported in graph.get(module, ()):
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
