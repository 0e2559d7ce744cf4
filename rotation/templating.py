"""The one way the tool sets up Jinja, for the printed pages (rotation.printing) and the desk's pages."""

from __future__ import annotations

import jinja2

from rotation import tool_version


def environment(loader: jinja2.BaseLoader) -> jinja2.Environment:
    """Templates from `loader`, autoescaped: every name, title and message comes from a director and is
    text, never markup; a missing value is an error, not a blank on the page; a block tag leaves no line
    of its own. `tool_version` names the version that rendered the page. Each template is read once: they
    are the package's own files, so no render asks the disk whether one changed (Jinja's `auto_reload`
    does, for every template, include and import: a tenth of a millisecond on a page with many)."""
    made = jinja2.Environment(
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    made.globals["tool_version"] = tool_version()
    return made
