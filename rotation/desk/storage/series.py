"""The series' own settings: the rule their standings rank by and their roster (a series is the events that
name it). A series' row is made by whichever is saved first; saving one leaves the other as it was."""

from __future__ import annotations

from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import Roster, StandingsChoice, parsed, stored_json


class Series(Connection):
    def series_standings_rule(self, name: str) -> StandingsChoice | None:
        """The series' standings rule as saved, or None."""
        row = self.db.execute("SELECT standings FROM series WHERE name = ?", (name,)).fetchone()
        return None if row is None else parsed(StandingsChoice, row[0], f"series {name!r}'s standings rule")

    def set_series_standings_rule(self, name: str, rule: StandingsChoice) -> None:
        with self.change() as db:
            db.execute(
                "INSERT INTO series (name, standings) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET standings = excluded.standings",
                (name, stored_json(rule)),
            )

    def series_roster(self, name: str) -> Roster:
        """The series' roster as saved (an empty one when none is)."""
        row = self.db.execute("SELECT roster FROM series WHERE name = ?", (name,)).fetchone()
        return Roster() if row is None else parsed(Roster, row[0], f"series {name!r}'s roster")

    def set_series_roster(self, name: str, roster: Roster) -> None:
        with self.change() as db:
            db.execute(
                "INSERT INTO series (name, standings, roster) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET roster = excluded.roster",
                (name, stored_json(StandingsChoice()), stored_json(roster)),
            )
