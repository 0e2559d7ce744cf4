"""The series' own settings: the rule their standings rank by (a series is the events that name it)."""

from __future__ import annotations

from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import StandingsChoice, parsed, stored_json


class Series(Connection):
    def series_standings_rule(self, name: str) -> StandingsChoice | None:
        """The series' standings rule as saved, or None."""
        row = self.db.execute("SELECT standings FROM series WHERE name = ?", (name,)).fetchone()
        return None if row is None else parsed(StandingsChoice, row[0], f"series {name!r}'s standings rule")

    def set_series_standings_rule(self, name: str, rule: StandingsChoice) -> None:
        with self.change() as db:
            db.execute("INSERT OR REPLACE INTO series (name, standings) VALUES (?, ?)", (name, stored_json(rule)))
