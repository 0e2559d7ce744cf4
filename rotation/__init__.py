"""The edge of the tool: command line, files written for directors, printing."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def tool_version() -> str:
    """The installed rotation's version, from its package metadata: pyproject.toml's `version` is the
    one place it is set (docs/install.md, "Versions"). "unknown" when the code runs without being installed.
    importlib.metadata is imported here, not above: `rotation` handles Ctrl-C only once this package is in."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rotation")
    except PackageNotFoundError:
        return "unknown"
