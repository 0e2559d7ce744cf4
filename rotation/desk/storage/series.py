"""The series' own settings: the rule their standings rank by (a series is the events that name it)."""

from __future__ import annotations

import json

from rotation.desk.storage.base import Connection


class Series(Connection):
    def series_standings_rule(self, name: str) -> dict | None:
        """The series' standings rule as saved (rotation.desk.series.service.StandingsChoice), or None."""
        row = self.db.execute("SELECT standings FROM series WHERE name = ?", (name,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_series_standings_rule(self, name: str, rule: dict) -> None:
        with self.change() as db:
            db.execute("INSERT OR REPLACE INTO series (name, standings) VALUES (?, ?)", (name, json.dumps(rule)))
