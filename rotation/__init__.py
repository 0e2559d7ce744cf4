"""The edge of the tool: command line, files written for directors, printing."""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version


@lru_cache(maxsize=1)
def tool_version() -> str:
    """The installed rotation's version, from its package metadata: pyproject.toml's `version` is the
    one place it is set (docs/install.md, "Versions"). "unknown" when the code runs without being installed."""
    try:
        return version("rotation")
    except PackageNotFoundError:
        return "unknown"
