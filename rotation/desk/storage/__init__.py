"""The desk's data in one SQLite file: events, their schedule versions, planning runs, rooms and cards.

WAL journal with synchronous=FULL: a change the director saw saved survives a power cut, and a
change cut off mid-write is rolled back whole. Every change is one transaction (`Store.change`).
A schedule is never edited in place: each change (plan, re-plan, swap, a round marked played) is a new
row of `versions`, made from the one before (`parent`), and the event points at its current version,
so looking back and undoing lose nothing. A re-plan stores its proposals as versions that are not
current until the director accepts one. The rounds played are the schedule's own `played` field.
A table's score card is never edited in place either: a re-entry is a new row of `cards`, and the older
rows are its history. Cards live beside the versions, so no change of the schedule touches them.

Every SQL statement of the desk is in this package, one module per group of tables:

schema    MIGRATIONS (append only) and the schema's version
base      the connection, its pragmas, the migrations run, `change` (one transaction)
records   the typed records the store returns (their JSON columns as models: an event's settings, a
          version's figures, a run's request and progress), runs' statuses and kinds
meta      the desk's secret
events    events and the version current for each
versions  the schedule versions (checked before they are stored)
runs      planning runs, their progress and their end
rooms     each event's room: public id, timer, pace, released rounds
cards     score cards and their corrections
series    a series' settings (its standings rule, its roster)
whole     an event across all its tables: export, import, delete, a rename in what the room has
lock      one desk per file
backup    consistent copies of the file while the desk runs, kept and restored whole
"""

from __future__ import annotations

from rotation.desk.storage.base import DamagedDatabase, NewerDatabase
from rotation.desk.storage.cards import Cards
from rotation.desk.storage.events import Events
from rotation.desk.storage.meta import Meta
from rotation.desk.storage.records import (
    CardRow,
    EventRow,
    Figures,
    FixedFigures,
    HowMade,
    PlanRequest,
    ReleaseRow,
    ReplanRequest,
    RoomRow,
    Roster,
    RosterMember,
    RunKind,
    RunProgress,
    RunRequest,
    RunRow,
    RunStatus,
    StandingsChoice,
    UnreadableRecord,
    VersionKind,
    VersionRow,
    now,
    run_request,
    stored_json,
)
from rotation.desk.storage.rooms import Rooms
from rotation.desk.storage.runs import Runs
from rotation.desk.storage.schema import MIGRATIONS, SCHEMA_VERSION
from rotation.desk.storage.series import Series
from rotation.desk.storage.versions import Versions
from rotation.desk.storage.whole import EVENT_TABLES, Whole


class Store(Meta, Events, Versions, Runs, Rooms, Cards, Series, Whole):
    """One connection to the desk's file, with every table group's reads and writes; open one per
    thread or process (sqlite3 objects are not shared)."""


__all__ = [
    "CardRow",
    "DamagedDatabase",
    "EVENT_TABLES",
    "EventRow",
    "Figures",
    "FixedFigures",
    "MIGRATIONS",
    "HowMade",
    "NewerDatabase",
    "PlanRequest",
    "ReleaseRow",
    "ReplanRequest",
    "RoomRow",
    "Roster",
    "RosterMember",
    "RunKind",
    "RunProgress",
    "RunRequest",
    "RunRow",
    "RunStatus",
    "SCHEMA_VERSION",
    "StandingsChoice",
    "Store",
    "UnreadableRecord",
    "VersionKind",
    "VersionRow",
    "now",
    "run_request",
    "stored_json",
]
