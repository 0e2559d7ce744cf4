"""Text a person typed (a name, a title, a date), in the CLI's files and options and the desk's forms and
JSON alike: one spelling (NFC), nothing that does not show (control, format and surrogate characters
removed: NUL, a right-to-left override, a zero-width space, a lone surrogate), white space one space, and
a length that fits a wall chart and a phone's line. Too long is refused with a message naming what it is."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field

MAX_NAME = 64  # characters of a player's name: a wall chart's seat, a phone's line, a picture's label
MAX_TITLE = 200  # an event's title, on every printed page
MAX_LINE = 100  # a short line: the event's date

_SPACE = re.compile(r"\s+")


def normalise_name(name: str) -> str:
    """One spelling per name: NFC, invisible, format and control characters removed, every run of
    white space (line and paragraph separators included) one space, none at the ends. Every name that
    enters the tool (names files, request files, --add and --drop, schedule files) goes through this."""
    name = unicodedata.normalize("NFC", name)
    kept = []
    for char in name:
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zs", "Zl", "Zp"):
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cs"):
            continue  # NUL and other controls, zero-width space, joiners, byte-order marks, lone surrogates
        else:
            kept.append(char)
    return _SPACE.sub(" ", "".join(kept)).strip()


def limited(text: str, limit: int, what: str) -> str:
    """The text as kept (normalise_name), or ValueError naming `what` when it was typed longer than `limit`
    characters. The limit counts what was typed, as the JSON Schema of every model that takes the text
    says (maxLength): the kept spelling is never longer but by NFC's canonical decompositions (U+0958 is
    U+0915 U+093C), which draw the same, so a text the schema allows is never refused for its length."""
    if len(text) > limit:
        raise ValueError(f"{what} has at most {limit} characters; {text[:24]!r}... has {len(text)}")
    return normalise_name(text)


def checked_name(name: str) -> str:
    """A player's name as the tool keeps it (normalise_name), refused when too long to print."""
    return limited(name, MAX_NAME, "a name")


# Each text's limit published in the JSON Schema of every model that takes it (what `limited` counts)
Name = Annotated[str, Field(json_schema_extra={"maxLength": MAX_NAME}), AfterValidator(checked_name)]
Title = Annotated[
    str, Field(json_schema_extra={"maxLength": MAX_TITLE}), AfterValidator(lambda t: limited(t, MAX_TITLE, "a title"))
]
Line = Annotated[
    str, Field(json_schema_extra={"maxLength": MAX_LINE}), AfterValidator(lambda t: limited(t, MAX_LINE, "a date"))
]
