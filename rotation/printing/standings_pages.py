"""The standings as a director reads them (text), a spreadsheet opens them (CSV), a program reads them
(JSON) and a printer prints them (HTML). Every one marks a sat-out round with * and explains it."""

from __future__ import annotations

import json

import jinja2

from models import RoundMark, RoundScore, StandingRow, Standings
from models.event import SitOutScoring
from models.rules import Rules, Ties
from models.scores import HighScore
from rotation import tool_version
from rotation.files.output import NOT_HERE_WORD, SIT_OUT_WORDS, THREE_HANDED_WORD, csv_text

SIT_OUT_SIGN = "*"  # on every sat-out round's points: scored by the event's rule, not earned at a table
THREE_HANDED_SIGN = "³"
ROUND_WORDS = {RoundMark.LEFT: "left", RoundMark.ABSENT: "away", RoundMark.ARRIVING: "late"}
TIE_RULES = {
    Ties.BROKEN: "Level totals are split by games won, then the best single game. "
    "A rank shown as =3 is shared: those players are level on all three.",
    Ties.SHARED: "Players level on total share the place, shown as =3 (listed by games won, then best game).",
}
CSV_NOTES = {
    RoundMark.PLAYED: "",
    RoundMark.THREE_HANDED: THREE_HANDED_WORD,
    RoundMark.LEFT: "left",
    RoundMark.ABSENT: NOT_HERE_WORD,
    RoundMark.ARRIVING: "not yet arrived",
}


def footnotes(standings: Standings) -> list[str]:
    """What the signs mean, for the rounds counted; the sit-out note whenever a sit-out is counted."""
    marks = {score.mark for row in standings.rows for score in row.rounds}
    notes = []
    if RoundMark.SAT_OUT in marks or (standings.late_arrivals_as_sit_outs and RoundMark.ARRIVING in marks):
        notes.append(f"{SIT_OUT_SIGN} {_sit_out_rule(standings)}")
    if RoundMark.THREE_HANDED in marks:
        notes.append(f"{THREE_HANDED_SIGN} played at a table of three (three-handed).")
    if RoundMark.ARRIVING in marks:
        scored = "scored as a sit-out" if standings.late_arrivals_as_sit_outs else "scores nothing"
        notes.append(f"late: not yet arrived; a round before arriving {scored}.")
    if marks & {RoundMark.LEFT, RoundMark.ABSENT}:
        notes.append("left / away: not at the event that round, no points; a player who left keeps the rounds played.")
    return [*notes, TIE_RULES[standings.ties], *prize_lines(standings)]


def prize_lines(standings: Standings) -> list[str]:
    """The winner's circle for this field, and how players sharing a place in it share the prizes."""
    players = len(standings.rows)
    circle = min(standings.circle, players)
    return [f"Winner's circle: the top {circle} of {players} players.", *standings.prizes]


def high_lines(standings: Standings, rounds: range | None = None) -> list[str]:
    """Per round (all counted, or `rounds`): its winners over the room, then each table's high score."""
    lines = []
    for number in rounds or range(1, standings.after + 1):
        highs = [high for high in standings.highs if high.round == number]
        room = [high for high in highs if high.table is None]
        tables = ", ".join(f"table {high.table} {_who(high)}" for high in highs if high.table is not None)
        best = f"best round {_who(room[0])}" if room else ""
        lines.append(f"Round {number}: {best}" + (f". Table highs: {tables}" if tables else "") + ".")
    return lines


def _who(high: HighScore) -> str:
    names = ", ".join(high.players[:-1]) + (" and " if len(high.players) > 1 else "") + high.players[-1]
    return f"{names} ({high.points})"


def _sit_out_rule(standings: Standings) -> str:
    if standings.sit_out_scoring is SitOutScoring.ZERO:
        return "sat out: the round scores zero (the event's rule), not points earned at a table."
    averages = ", ".join(f"round {r} {a}" for r, a in enumerate(standings.round_averages, start=1))
    return (
        "sat out: the round scores the round's average (the event's rule), not points earned at a table: the mean "
        f"round total of the players who played it, rounded half away from zero to a whole point ({averages})."
    )


ROUND_SIGNS = {
    RoundMark.SAT_OUT: SIT_OUT_SIGN,
    RoundMark.ARRIVING: SIT_OUT_SIGN,
    RoundMark.THREE_HANDED: THREE_HANDED_SIGN,
}


def cell(score: RoundScore) -> str:
    """A round's points with its sign: '30', '25*', '12³', 'left'."""
    if score.points is None:
        return ROUND_WORDS.get(score.mark, "")
    return f"{score.points}{ROUND_SIGNS.get(score.mark, '')}"


def folded_cell(scores: list[RoundScore]) -> str:
    """Several rounds' points in one sum, with the sign of every kind of round in it: '47*³'."""
    points = [score.points for score in scores if score.points is not None]
    signs = dict.fromkeys(ROUND_SIGNS.get(score.mark, "") for score in scores if score.points is not None)
    return f"{sum(points)}{''.join(signs)}" if points else ""


def player_note(row: StandingRow) -> str:
    notes = [f"arrived in round {row.arrived}"] if row.arrived else []
    notes += [f"left after round {row.left_after}"] if row.left_after is not None else []
    return ", ".join(notes)


def heading(standings: Standings) -> str:
    if standings.after == standings.rounds:
        return f"Final standings after {standings.rounds} round{'s' if standings.rounds > 1 else ''}"
    return f"Standings after round {standings.after} of {standings.rounds}"


def standings_text(standings: Standings) -> str:
    names = [row.player + (f" ({player_note(row)})" if player_note(row) else "") for row in standings.rows]
    width = max([len("Player"), *map(len, names)])
    rounds = [f"R{r}" for r in range(1, standings.after + 1)]
    head = f"{'Rank':>4}  {'Player':<{width}}  {'Total':>6}  {'Won':>3}  {'Best':>5}" + "".join(
        f"  {r:>6}" for r in rounds
    )
    lines = [heading(standings), "", head]
    for row, name in zip(standings.rows, names):
        best = "" if row.best_game is None else str(row.best_game)
        line = f"{row.place:>4}  {name:<{width}}  {row.total:>6}  {row.games_won:>3}  {best:>5}"
        lines.append(line + "".join(f"  {cell(score):>6}" for score in row.rounds))
    return "\n".join([*lines, "", *footnotes(standings), "", *high_lines(standings)])


def standings_csv(standings: Standings) -> str:
    """A header row, one row per player: rank (a number, so it sorts as one), 'shared' (yes when another
    player has the rank: '=3' would be a formula to a spreadsheet), totals, then per round the points (a
    number; empty when none) and a note (the sit-out mark starts with *)."""
    ids = any(row.id for row in standings.rows)  # an id column when the names file had one
    header: list[str | int] = ["rank", "shared", "player", *(["id"] if ids else [])]
    header += ["total", "games won", "best game", "note", "circle"]
    for r in range(1, standings.after + 1):
        header += [f"round {r} points", f"round {r} note"]
    rows: list[list[str | int]] = [header]
    for row in standings.rows:
        cells: list[str | int] = [row.rank, "yes" if row.shared else "", row.player, *([row.id] if ids else [])]
        cells += [row.total, row.games_won]
        cells += [row.best_game if row.best_game is not None else "", player_note(row)]
        cells += ["yes" if row.rank <= standings.circle else ""]
        for score in row.rounds:
            note = "; ".join(filter(None, [_csv_note(standings, score), *_high_notes(standings, row.player, score)]))
            cells += [score.points if score.points is not None else "", note]
        rows.append(cells)
    return csv_text(rows)


def results_csv(standings: Standings) -> str:
    """The results for sanctioning and records: place (a number; `shared` says yes when another player has
    it), id (the member number), name, total, games played, games won; one row a player in place order."""
    rows: list[list[str | int]] = [["place", "id", "name", "total", "games played", "games won", "shared"]]
    for row in standings.rows:
        rows.append(
            [row.rank, row.id, row.player, row.total, row.games_played, row.games_won, "yes" if row.shared else ""]
        )
    return csv_text(rows)


def _high_notes(standings: Standings, player: str, score: RoundScore) -> list[str]:
    """'best round' and 'table high' where the player had the round's or the table's best total."""
    highs = [h for h in standings.highs if h.round == score.round and player in h.players]
    return [("best round" if high.table is None else "table high") for high in highs]


def _csv_note(standings: Standings, score: RoundScore) -> str:
    if score.mark is RoundMark.SAT_OUT:
        return f"{SIT_OUT_SIGN} {SIT_OUT_WORDS[standings.sit_out_scoring.value]}"
    if score.mark is RoundMark.ARRIVING and score.points is not None:
        return f"{SIT_OUT_SIGN} not yet arrived - scored as a sit-out"
    return CSV_NOTES[score.mark]


def standings_json(standings: Standings) -> str:
    data = {
        "standings": standings.model_dump(mode="json"),
        "footnotes": footnotes(standings),
        "tool_version": tool_version(),
        "highs": high_lines(standings),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def standings_html(standings: Standings, title: str = "", date: str = "", rules: Rules | None = None) -> str:
    """A self-contained printable page (no network needed), in the printout's font; the event's rule
    sheet under the standings when `rules` are given."""
    # Its own environment: rotation.printing.pages's would import the whole printout for a table.
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("rotation.printing", "templates"), autoescape=True, undefined=jinja2.StrictUndefined
    )
    environment.globals["tool_version"] = tool_version()
    return environment.get_template("standings.html.j2").render(
        title=title or heading(standings),
        event=title,
        date=date,
        heading=heading(standings),
        standings=standings,
        rows=[(row, player_note(row), [cell(score) for score in row.rounds]) for row in standings.rows],
        footnotes=footnotes(standings),
        highs=high_lines(standings),
        rules=rules.sheet() if rules is not None else (),
    )
