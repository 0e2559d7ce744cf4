"""An event's settings as the director gives them, and every wrong one's message beside its field.

The form's text boxes (names one per line or a spreadsheet's table with a club column, read by
rotation.files.lists; a group per line, 'name, table' per line) become an
`EventSettings`; the JSON endpoints take an `EventSettings` directly. Either way `FieldErrors` says
which field is wrong in the library's own words (models.Event validates the room and the requests).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from models import Event, OddPolicy, SitOutScoring
from models.event import DEFAULT_WINDS, MAX_SECONDS, MIN_SECONDS, FixedRule, name_key, normalise_name
from models.rules import Rules
from models.text import Line, Name, Title
from rotation.desk.core.errors import FieldErrors
from rotation.desk.core.rules_form import form_from_rules, rules_from_form
from rotation.files.lists import ListError, NamesTable, read_groups, read_names_table, read_stays, read_winds

MAX_UPLOAD_BYTES = 1024 * 1024  # a names file of a few thousand names is a few tens of kilobytes
FIELDS = (
    "title",
    "date",
    "series",
    "names",
    "rounds",
    "session_rounds",
    "odd",
    "sit_out_scoring",
    "late_as_sit_out",
    "apart",
    "spread",
    "stay",
    "time_limit",
    "fixed_rule",
    "winds",
)


class EventSettings(BaseModel):
    """Everything the director decides about the day before it is planned."""

    model_config = ConfigDict(frozen=True)  # kept by the store once read (storage.records.parsed)

    title: Title = ""
    date: Line = ""
    series: Title = Field(
        default="",
        description="The series (a league's season, an event's sessions) this event is a night of; '' for none. "
        "A night of a series is planned against its earlier nights (optimizer.season).",
    )
    names: list[Name] = Field(description="Player names, in the order they are numbered.")
    rounds: int = Field(description="Rounds of four games each.")
    session_rounds: int = Field(
        default=0,
        ge=0,
        le=100,
        description="Rounds a session (a multi-session event: e.g. 3 for 4 sessions of 3 rounds): each session is "
        "released to the room and printed as a unit; 0: round by round.",
    )
    odd: OddPolicy = OddPolicy.THREE_HANDED
    sit_out_scoring: SitOutScoring = SitOutScoring.ZERO
    late_as_sit_out: bool = Field(
        default=False,
        description="A late arrival's rounds before arriving score by the sit-out rule (False: they score nothing); "
        "read by the standings at once, not by the next plan.",
    )
    rules: Rules = Field(
        default_factory=Rules, description="The event's scoring rules; read by the score pages and standings at once."
    )
    score_entry: Literal["games", "points"] = Field(
        default="points",
        description="The score page takes game results (scored by the rules; the new-event form's choice) or each "
        "player's points (the default of events made before game results were taken, so none changes mid-day).",
    )
    fixed_rule: FixedRule = Field(
        default=FixedRule.MJMP, description="The fixed rotation the event prints, compared beside MJMP item 23."
    )
    winds: tuple[str, str, str, str] = Field(
        default=DEFAULT_WINDS, description="The wind names of seats A, B, C and D on the prints."
    )
    apart: list[list[Name]] = Field(default=[], description="Groups who must never share a table.")
    spread: list[list[Name]] = Field(default=[], description="Clubs to spread: kept apart where it costs no repeat.")
    stay: dict[Name, int] = Field(default={}, description="Players who keep one table (1-based) all day.")
    notes: list[str] = Field(
        default=[], description="What the names list was read as, where that differs from what was written."
    )
    ids: dict[str, str] = Field(default={}, description="Member numbers by player, from the names' id column.")
    clubs: dict[str, str] = Field(
        default={}, description="Each player's club, from the names' club column (the clubs are also spread)."
    )
    guests: list[Name] = Field(
        default=[],
        description="Players who came to this night of a series as guests (the series page's guests field): in "
        "its standings and opponents, not among its members.",
    )
    time_limit: float = Field(default=30.0, description="Seconds to plan, 0.1 to a day.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    workers: int = Field(default=8, ge=1, le=64)

    def event(self) -> Event:
        """The library's event, or FieldErrors naming the field the library refused."""
        check_time_limit(self.time_limit)
        spelled = _spelled(self.names)
        try:
            return Event(
                players=tuple(self.names),
                rounds=self.rounds,
                odd=self.odd,
                sit_out_scoring=self.sit_out_scoring,
                apart=tuple(tuple(spelled(n) for n in group) for group in self.apart),
                spread=tuple(tuple(spelled(n) for n in group) for group in self.spread),
                stay={spelled(name): table for name, table in self.stay.items()},
                ids={spelled(name): member for name, member in self.ids.items()},
            )
        except ValidationError as error:
            raise FieldErrors(_placed(error, self)) from None


def check_time_limit(seconds: float) -> None:
    """A finite number of seconds from 0.1 to a day, as the command line takes it."""
    if not (math.isfinite(seconds) and MIN_SECONDS <= seconds <= MAX_SECONDS):
        raise FieldErrors({"time_limit": f"{seconds:g} is not from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds"})


def _spelled(names: list[str]):
    """A request's name as the list spells it ('ann' for 'Ann'), as the command line reads requests."""
    by_key = {name_key(name): normalise_name(name) for name in names}
    return lambda name: by_key.get(name_key(name), normalise_name(name))


def _placed(error: ValidationError, settings: EventSettings | None) -> dict[str, str]:
    """Each of the library's messages beside the field it is about."""
    placed: dict[str, str] = {}
    for item in error.errors():
        message = str(item["msg"]).removeprefix("Value error, ")
        where = str(item["loc"][0]) if item["loc"] else _field_of(message, settings)
        field = {"players": "names"}.get(where, where)
        placed.setdefault(field if field in FIELDS else "names", message)
    return placed


def _field_of(message: str, settings: EventSettings | None) -> str:
    """The field a whole-event message is about, from the request it names first."""
    for field in ("apart", "spread", "stay"):
        if message.startswith(field + " "):
            return field
    if message.startswith("group "):
        group = message.removeprefix("group ").split(":")[0]
        return "spread" if settings and any(", ".join(g) == group for g in settings.spread) else "apart"
    if message.startswith("a day seats"):
        return "rounds"
    if "cannot be seated" in message:
        return "odd"
    return "names"


# ---- the form's text boxes ----------------------------------------------------------------------


def names_table(text: str) -> NamesTable:
    """The pasted or uploaded list (rotation.files.lists: a list, or a spreadsheet's table with a club column)."""
    try:
        return read_names_table(text)
    except ListError as error:
        raise FieldErrors({"names": str(error)}) from None


def groups_from_text(text: str, field: str) -> list[list[str]]:
    """One group per line, names separated by commas (rotation.files.lists, as the CLI reads its files)."""
    try:
        return [list(group.names) for group in read_groups(text)]
    except ListError as error:
        raise FieldErrors({field: str(error)}) from None


def stay_from_text(text: str) -> dict[str, int]:
    """One player per line: 'name, table' (rotation.files.lists, as the CLI reads its files)."""
    try:
        return {stay.name: stay.table for stay in read_stays(text)}
    except ListError as error:
        raise FieldErrors({"stay": str(error)}) from None


def settings_from_form(form: dict[str, str]) -> EventSettings:
    """The new-event form's fields as settings; every field's problem is collected, not just the first."""
    errors: dict[str, str] = {}
    values: dict = {
        "title": form.get("title", "").strip()[:200],
        "date": form.get("date", "").strip()[:100],
        "series": " ".join(form.get("series", "").split())[:200],
        "late_as_sit_out": form.get("late_as_sit_out") == "yes",  # a checkbox: there when ticked
        "score_entry": "games" if form.get("score_entry", "games") == "games" else "points",
    }
    rules, rule_errors = rules_from_form(form)
    errors.update(rule_errors)
    if rules is not None:
        values["rules"] = rules
    table = None
    try:
        table = names_table(form.get("names", ""))
        values.update(names=list(table.names), notes=list(table.notes), ids=dict(table.ids))
        values["clubs"] = {player: club for club, players in table.clubs.items() for player in players}
    except FieldErrors as error:
        errors.update(error.errors)
    readers = {
        "apart": lambda text: groups_from_text(text, "apart"),
        "spread": lambda text: groups_from_text(text, "spread"),
        "stay": stay_from_text,
        "rounds": lambda text: _number(text, int, "a whole number of rounds"),
        "session_rounds": _session_rounds,
        "time_limit": lambda text: _number(text, float, "a number of seconds"),
        "odd": lambda text: _choice(text or OddPolicy.THREE_HANDED.value, OddPolicy),
        "fixed_rule": lambda text: _choice(text or FixedRule.MJMP.value, FixedRule),
        "winds": _winds,
        "sit_out_scoring": lambda text: _choice(text or SitOutScoring.ZERO.value, SitOutScoring),
    }
    for field, read in readers.items():
        try:
            values[field] = read(form.get(field, ""))
        except FieldErrors as error:
            errors.update(error.errors)
        except ValueError as error:
            errors[field] = str(error)
    if errors:
        if table is not None:  # the list can be judged on its own: say so now, not on the next try
            errors.update(_names_alone(values["names"]))
        raise FieldErrors(errors)
    if table is not None:  # a club column feeds the spread, beside the groups typed there
        values["spread"] += [list(club) for club in table.club_groups if list(club) not in values["spread"]]
    try:
        return EventSettings(**values)
    except ValidationError as error:  # a name too long in a group, a title with nothing but controls...
        raise FieldErrors(_placed(error, None)) from None


def _winds(text: str) -> tuple[str, ...]:
    """The wind names of seats A to D (rotation.files.lists.read_winds); empty: the guide's."""
    try:
        return read_winds(text) if text.strip() else DEFAULT_WINDS
    except ListError as error:
        raise ValueError(str(error)) from None


def _names_alone(names: list[str]) -> dict[str, str]:
    try:
        EventSettings(names=names, rounds=1, odd=OddPolicy.SIT_OUT).event()
    except FieldErrors as error:
        return {"names": error.errors["names"]} if "names" in error.errors else {}
    return {}


def _session_rounds(text: str) -> int:
    """Rounds a session: empty for none (round by round), else a whole number from 1 to 100."""
    if not text.strip():
        return 0
    rounds = _number(text, int, "a whole number of rounds")
    if not 0 <= rounds <= 100:
        raise ValueError(f"{rounds} is not from 1 to 100 rounds (leave it empty for round by round)")
    return rounds


def _number(text: str, kind, what: str):
    try:
        return kind(text.strip())
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not {what}") from None


def _choice(text: str, kind):
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"choose one of {', '.join(choice.value for choice in kind)}") from None


def names_text(names: Sequence[str], ids: Mapping[str, str], clubs: Mapping[str, str] | None = None) -> str:
    """The names one a line, or as a table with their club and id columns when they have clubs or member
    numbers (as the list was read: a club column is read back as clubs to spread)."""
    clubs = clubs or {}
    if not ids and not clubs:
        return "\n".join(names)
    columns = [("club", clubs)] if clubs else []
    columns += [("id", ids)] if ids else []
    rows = [["name", *(title for title, _ in columns)]]
    rows += [[n, *(values.get(n, "") for _, values in columns)] for n in names]
    buffer = io.StringIO()  # plain CSV, as rotation.files.lists reads it back: no spreadsheet formula guard
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().rstrip("\n")


def form_from_settings(settings: EventSettings) -> dict[str, str]:
    """The settings back in the form's text boxes, for editing."""
    line = lambda names: ", ".join(f'"{n}"' if "," in n else n for n in names)  # noqa: E731
    return {
        "title": settings.title,
        "date": settings.date,
        "series": settings.series,
        "names": names_text(settings.names, settings.ids, settings.clubs),
        "rounds": str(settings.rounds),
        "session_rounds": str(settings.session_rounds or ""),
        "odd": settings.odd.value,
        "sit_out_scoring": settings.sit_out_scoring.value,
        "late_as_sit_out": "yes" if settings.late_as_sit_out else "",
        "apart": "\n".join(line(group) for group in settings.apart),
        "spread": "\n".join(line(group) for group in settings.spread),
        "stay": "\n".join(f"{line([name])}, {table}" for name, table in settings.stay.items()),
        "time_limit": f"{settings.time_limit:g}",
        "score_entry": settings.score_entry,
        "fixed_rule": settings.fixed_rule.value,
        "winds": ", ".join(settings.winds),
        **form_from_rules(settings.rules),
    }
