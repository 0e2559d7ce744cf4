"""What a change would undo of what the room already has, so that nothing of it goes silently.

A change of the schedule can reach what the room has seen or done: a released round re-seated (phones
and the projector show the new tables), a played round no longer marked played, a table's card that no
longer counts (its players no longer sit there, or its round is no longer played), a player who had left
back on the schedule or one who arrived gone. `effects(before, after)` lists exactly these, comparing
the current schedule with the one the change would make current; the desk asks before any of them
happens (Unconfirmed), and a JSON client must say `confirm`.
"""

from __future__ import annotations

from dataclasses import dataclass

from models import Round, Schedule
from models.scores import Card
from optimizer.words import counted
from rotation.desk.storage import Store


def changed_tables(before: Round, after: Round) -> list[str]:
    """The tables of a round seated differently, as the projector says it: "Table 4"."""
    was = {table.table: table.players for table in before.tables}
    now = {table.table: table.players for table in after.tables}
    changed = [f"Table {number}" for number in sorted(was.keys() | now.keys()) if was.get(number) != now.get(number)]
    if set(before.sit_outs) != set(after.sit_outs):
        changed.append("Sitting out")
    return changed


def staying(schedule: Schedule) -> set[str]:
    """The players on the schedule who have not left."""
    return {name for name in schedule.players if name not in schedule.departures}


@dataclass(frozen=True)
class Effects:
    """What the room loses or sees change if `after` replaces `before`."""

    unplayed: tuple[int, ...] = ()  # rounds no longer marked played
    cards: tuple[tuple[int, int], ...] = ()  # (round, table) whose card would no longer count
    back: tuple[str, ...] = ()  # players on the day again (who had left, or were not on it)
    gone: tuple[str, ...] = ()  # players no longer on the day (an arrival undone, a leave made)
    released: tuple[tuple[int, tuple[str, ...]], ...] = ()  # released round, its tables seated anew

    def __bool__(self) -> bool:
        return bool(self.unplayed or self.cards or self.back or self.gone or self.released)

    def lines(self) -> list[str]:
        """One line per kind of loss, in the director's words."""
        lines = []
        if self.unplayed:
            lines.append(f"{_rounds(self.unplayed)} would no longer be marked played")
        if self.cards:
            where = "; ".join(
                f"round {r}: table{'s' if len(ts) > 1 else ''} {', '.join(map(str, ts))}"
                for r, ts in _by_round(self.cards)
            )
            lines.append(f"{counted(len(self.cards), 'score card')} would no longer count ({where})")
        if self.back:
            lines.append(f"back on the schedule: {', '.join(self.back)}")
        if self.gone:
            lines.append(f"gone from the schedule: {', '.join(self.gone)}")
        for number, tables in self.released:
            lines.append(f"round {number} is released to the room, and would change there: {', '.join(tables)}")
        return lines

    def as_json(self) -> dict:
        return {
            "unplayed": list(self.unplayed),
            "cards": [{"round": r, "table": t} for r, t in self.cards],
            "back": list(self.back),
            "gone": list(self.gone),
            "released": [{"round": r, "tables": list(ts)} for r, ts in self.released],
            "lines": self.lines(),
        }


def effects(store: Store, event_id: int, before: Schedule, after: Schedule) -> Effects:
    """What making `after` current in place of `before` would undo or change for the room."""
    return Effects(
        unplayed=tuple(range(after.played + 1, before.played + 1)),
        cards=_cards_lost(store, event_id, before, after),
        back=tuple(sorted(staying(after) - staying(before))),
        gone=tuple(sorted(staying(before) - staying(after))),
        released=tuple(
            (number, tuple(tables))
            for number in store.released_rounds(event_id)
            if number <= min(len(before.rounds), len(after.rounds))
            and (tables := changed_tables(before.rounds[number - 1], after.rounds[number - 1]))
        ),
    )


def _counts(card: Card, schedule: Schedule) -> bool:
    if card.round > schedule.played:
        return False
    table = next((t for t in schedule.rounds[card.round - 1].tables if t.table == card.table), None)
    return table is not None and table.players == card.players


def _cards_lost(store: Store, event_id: int, before: Schedule, after: Schedule) -> tuple[tuple[int, int], ...]:
    lost = []
    for key, text in sorted(store.latest_cards(event_id).items()):
        card = Card.model_validate_json(text)
        if card.round <= len(before.rounds) and _counts(card, before) and not _counts(card, after):
            lost.append(key)
    return tuple(lost)


def _rounds(numbers: tuple[int, ...]) -> str:
    return f"round {numbers[0]}" if len(numbers) == 1 else f"rounds {numbers[0]} to {numbers[-1]}"


def _by_round(keys: tuple[tuple[int, int], ...]) -> list[tuple[int, list[int]]]:
    grouped: dict[int, list[int]] = {}
    for round_number, table in keys:
        grouped.setdefault(round_number, []).append(table)
    return sorted(grouped.items())
