"""The one Jinja environment of every printed page (the day's prints, a night's and a season's standings)."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from rotation import tool_version


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The printing templates (`templates/`), autoescaped: names come from the director's file and must
    never be markup; a missing value is an error, not a blank on the wall."""
    printing = jinja2.Environment(
        loader=jinja2.PackageLoader("rotation.printing", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    printing.globals["tool_version"] = tool_version()  # in the page's head: which version printed it
    return printing
