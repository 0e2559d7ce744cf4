"""What an imported event's rows must be: every column of every table typed as the desk's forms and
records type it, so a file stores nothing a form would refuse and no page breaks on what it stored.

Each table's row is a model; a column holding JSON (settings, a schedule, a card) is read through its
record's model and kept as the text it was; a flag is 0 or 1, an id or a count a whole number in range,
a time a finite number, a public id 16 letters and digits (as the desk makes them). `EventRows` is the
file's rows whole: one event, at most one room, no id or released round twice. The references between
rows (a version's parent, the current version, a run's version) are checked by the transfer.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr, ValidationError, model_validator

import optimizer
from models import Round, Schedule
from models.event import MAX_PLAYERS, MAX_ROUNDS
from models.scores import Card
from rotation.desk.deps import MAX_ID
from rotation.desk.events.settings import EventSettings
from rotation.desk.room.service import MINUTES, PACE
from rotation.desk.storage import Figures, RunKind, RunProgress, RunStatus, VersionKind
from rotation.desk.storage.records import REQUESTS

RowId = Annotated[int, Field(strict=True, ge=1, le=MAX_ID)]
Flag = Literal[0, 1]  # SQLite's true and false
Moment = Annotated[float, Field(ge=0, le=1e11, allow_inf_nan=False)]  # seconds since 1970
Seconds = Annotated[float, Field(ge=-1e9, le=1e9, allow_inf_nan=False)]
RoundNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_ROUNDS)]
TableNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_PLAYERS)]
Words = Annotated[StrictStr, Field(max_length=10_000)]


def first_problem(error: ValidationError) -> str:
    """A validation's first problem in one line: where (table, row, column, inside its JSON) and why."""
    first = error.errors()[0]
    where = [f"row {part + 1}" if isinstance(part, int) else str(part) for part in first["loc"]]
    message = first["msg"].removeprefix("Value error, ")
    return f"{', '.join(where)}: {message}" if where else message


def _valid(model: type[BaseModel], text: str, plain: bool = False) -> BaseModel:
    """The JSON `text` as a `model` (`plain`: parsed first, as settings are stored), or a ValueError
    in one line naming the field inside it."""
    try:
        return model.model_validate(json.loads(text)) if plain else model.model_validate_json(text)
    except ValidationError as error:
        raise ValueError(first_problem(error)) from None
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _json_of(model: type[BaseModel]):
    def check(text: str) -> str:
        _valid(model, text)
        return text

    return AfterValidator(check)


def _schedule(text: str) -> str:
    schedule = _valid(Schedule, text)
    assert isinstance(schedule, Schedule)
    # InvalidSchedule is a ValueError: named like the rest. Only whether it passes is kept (the file brings
    # its figures), so the slowest figure, indirect meetings (70% of a check), is not counted for each version.
    optimizer.check(schedule, indirect=False)
    return text


def _settings(text: str) -> str:
    _valid(EventSettings, text, plain=True)  # stored as plain JSON, not a model's dump
    return text


def _stamp(text: str) -> str:
    datetime.fromisoformat(text)
    return text


Stamp = Annotated[StrictStr, Field(max_length=40), AfterValidator(_stamp)]


class _Row(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)  # columns of another desk's schema are not stored


class EventIn(_Row):
    id: RowId
    settings: Annotated[StrictStr, AfterValidator(_settings)]
    current_version: RowId | None
    created: Stamp
    archived: Flag = 0


class VersionIn(_Row):
    id: RowId
    parent: RowId | None
    kind: VersionKind
    note: Words
    schedule: Annotated[StrictStr, AfterValidator(_schedule)]
    figures: Annotated[StrictStr, _json_of(Figures)]
    created: Stamp


class RunIn(_Row):
    id: RowId
    kind: RunKind
    request: StrictStr
    status: RunStatus
    time_limit: Annotated[float, Field(ge=0, le=1e7, allow_inf_nan=False)]
    started: Moment
    finished: Moment | None = None
    stop_asked: Flag = 0
    progress: Annotated[StrictStr, _json_of(RunProgress)] = "{}"
    message: Words = ""
    version_id: RowId | None = None

    @model_validator(mode="after")
    def _request_of_its_kind(self) -> RunIn:
        try:
            _valid(REQUESTS[self.kind], self.request)
        except ValueError as error:
            raise ValueError(f"request: {error}") from None
        return self


PUBLIC_ID = r"^[0-9A-Za-z_-]{16}$"  # the desk's ids (and the earlier desks' token_urlsafe(12))


class RoomIn(_Row):
    public_id: Annotated[StrictStr, Field(pattern=PUBLIC_ID)]
    minutes: Annotated[float, Field(ge=MINUTES[0], le=MINUTES[1], allow_inf_nan=False)] = 60
    pace: Annotated[float, Field(ge=PACE[0], le=PACE[1], allow_inf_nan=False)] = 12
    started: Moment | None = None
    left: Seconds | None = None
    standings_at: RoundNumber | None = None
    standings_top: Annotated[int, Field(strict=True, ge=1, le=MAX_PLAYERS)] | None = None
    standings_series: Flag = 0


class ReleaseIn(_Row):
    round: RoundNumber
    seating: Annotated[StrictStr, _json_of(Round)]
    released: Moment


class CardIn(_Row):
    id: RowId
    round: RoundNumber
    table_number: TableNumber
    card: Annotated[StrictStr, _json_of(Card)]
    entered: Stamp

    @model_validator(mode="after")
    def _its_own_place(self) -> CardIn:
        card = Card.model_validate_json(self.card)  # valid: its column was checked first
        if (card.round, card.table) != (self.round, self.table_number):
            raise ValueError(f"the card is round {card.round}, table {card.table}'s, not this row's")
        return self


class EventRows(BaseModel):
    """The file's rows, table by table: one event, at most one room, each id and released round once."""

    model_config = ConfigDict(extra="ignore")

    events: list[EventIn]
    versions: list[VersionIn] = []
    runs: list[RunIn] = []
    rooms: list[RoomIn] = []
    releases: list[ReleaseIn] = []
    cards: list[CardIn] = []

    @model_validator(mode="after")
    def _once_each(self) -> EventRows:
        if len(self.events) != 1:
            raise ValueError(f"the file holds {len(self.events) or 'no'} events; an exported file holds one")
        if len(self.rooms) > 1:
            raise ValueError(f"the file holds {len(self.rooms)} rooms for its event; an event has one room")
        for table, key in (("versions", "id"), ("runs", "id"), ("cards", "id"), ("releases", "round")):
            seen: set[int] = set()
            for row in getattr(self, table):
                if getattr(row, key) in seen:
                    raise ValueError(f"{table}: {key} {getattr(row, key)} is in the file twice")
                seen.add(getattr(row, key))
        return self
