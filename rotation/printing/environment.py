"""The Jinja environment of every printed page (the day's prints, a night's and a season's standings)."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from rotation import templating


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The printing templates (`templates/`), set up as every page of the tool's (rotation.templating)."""
    made = templating.environment(jinja2.PackageLoader("rotation.printing", "templates"))
    # The pictures' coordinates: two decimals at most, no trailing zeros, to keep an SVG of thousands of squares small.
    made.filters["n"] = lambda value: f"{value:.2f}".rstrip("0").rstrip(".")
    return made
