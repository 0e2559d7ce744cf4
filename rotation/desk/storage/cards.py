"""The score cards: every entry of a table's card a row, never updated; the newest of a (round, table)
counts and the older ones are its corrections' history."""

from __future__ import annotations

import hashlib
import sqlite3

from models.scores import Card
from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import CardRow, now, parsed


class Cards(Connection):
    def cards(self, event_id: int) -> list[CardRow]:
        """Every entry of the event's cards, oldest first."""
        rows = self.db.execute(
            "SELECT id, round, table_number, card, entered FROM cards WHERE event_id = ? ORDER BY id", (event_id,)
        )
        return [_card(row) for row in rows]

    def latest_cards(self, event_id: int) -> dict[tuple[int, int], str]:
        """Each (round, table)'s latest card, as its JSON: the one that counts while it seats the table."""
        rows = self.db.execute(
            "SELECT round, table_number, card FROM cards WHERE id IN "
            "(SELECT max(id) FROM cards WHERE event_id = ? GROUP BY round, table_number)",
            (event_id,),
        )
        return {(row[0], row[1]): row[2] for row in rows}

    def add_card(self, event_id: int, round_number: int, table_number: int, card: Card) -> CardRow | None:
        """In one transaction: the card as the table's newest entry, or None when it equals the newest
        (nothing stored)."""
        with self.change() as db:
            latest = db.execute(
                "SELECT id, round, table_number, card, entered FROM cards "
                "WHERE event_id = ? AND round = ? AND table_number = ? ORDER BY id DESC LIMIT 1",
                (event_id, round_number, table_number),
            ).fetchone()
            if latest is not None and _card(latest).card == card:
                return None
            entered = now()
            cursor = db.execute(
                "INSERT INTO cards (event_id, round, table_number, card, entered) VALUES (?, ?, ?, ?, ?)",
                (event_id, round_number, table_number, card.model_dump_json(), entered),
            )
            assert cursor.lastrowid is not None
            return CardRow(
                id=cursor.lastrowid, round=round_number, table_number=table_number, card=card, entered=entered
            )

    def cards_stamp(self, event_id: int) -> str:
        """Changes whenever a card is entered, or the projector's choice of showing the standings (and how many)."""
        row = self.db.execute(
            "SELECT standings_at, standings_top, standings_series FROM rooms WHERE event_id = ?", (event_id,)
        ).fetchone()
        cards = self.db.execute("SELECT max(id), count(*) FROM cards WHERE event_id = ?", (event_id,)).fetchone()
        seen = repr((tuple(row) if row else None, tuple(cards)))
        return hashlib.sha256(seen.encode()).hexdigest()[:16]


def _card(row: sqlite3.Row) -> CardRow:
    return CardRow(**{**dict(row), "card": parsed(Card, row["card"], f"score card {row['id']}")})
