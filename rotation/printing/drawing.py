"""Whether this install draws the summary pictures: matplotlib comes with the optional extra `plots`
(`pip install 'rotation[plots]'`), so the app's own install leaves out its weight (docs/install.md)."""

from __future__ import annotations

from importlib.util import find_spec

NO_PICTURES = (
    "the summary pictures need matplotlib, which this install leaves out: "
    "install the app with its plots extra, rotation[plots]"
)


def can_draw() -> bool:
    """matplotlib importable here (found, not imported: importing it costs half a second)."""
    return find_spec("matplotlib") is not None
