"""A season's standings as a director reads them (text), a spreadsheet opens them (CSV), a program reads
them (JSON) and a printer prints them (HTML)."""

from __future__ import annotations

import json

from models import SeasonRow, SeasonRule, SeasonStandings
from rotation.files.output import csv_text
from rotation.printing.environment import environment

UNRANKED = "-"  # below the minimum of games: listed, not ranked


def season_title(season: SeasonStandings) -> str:
    """The heading's first half, short enough for the projector's title line."""
    return f"Season standings after {len(season.labels)} night{'s' if len(season.labels) != 1 else ''}"


def season_heading(season: SeasonStandings) -> str:
    return f"{season_title(season)}: {rule_words(season.rule, season.min_games, season.best_nights)}"


def rule_words(rule: SeasonRule, min_games: int, best_nights: int | None) -> str:
    if rule is SeasonRule.AVERAGE:
        return f"points per game, at least {min_games} games to be ranked"
    if rule is SeasonRule.BEST:
        return f"the best {best_nights} nights' totals"
    return "every night's total added up"


def season_notes(season: SeasonStandings) -> list[str]:
    notes = ["A night missed counts nothing; level scores are split by games won over the season; =3 is shared."]
    if season.rule is SeasonRule.AVERAGE:
        notes.append(
            "Average: points at a table over games played there (four a round); sat-out rounds are not games. "
            f"{UNRANKED}: fewer than {season.min_games} games, listed unranked."
        )
    if season.rule is SeasonRule.BEST:
        notes.append("( ): a night's total that is not among the member's best nights, not counted.")
    if season.left_out:
        notes.append(f"Guests are not ranked: {', '.join(season.left_out)}.")
    return notes


def place(row: SeasonRow) -> str:
    if row.rank is None:
        return UNRANKED
    return f"={row.rank}" if row.shared else str(row.rank)


def score_text(season: SeasonStandings, row: SeasonRow) -> str:
    return f"{row.score:.2f}" if season.rule is SeasonRule.AVERAGE else f"{row.score:g}"


def night_cells(row: SeasonRow) -> list[str]:
    return [
        "" if total is None else (str(total) if counted else f"({total})")
        for total, counted in zip(row.nights, row.counted)
    ]


def season_text(season: SeasonStandings) -> str:
    width = max([len("Player"), *(len(row.player) for row in season.rows)])
    head = f"{'Rank':>4}  {'Player':<{width}}  {'Score':>8}  {'Games':>5}  {'Won':>3}" + "".join(
        f"  {label:>8}" for label in season.labels
    )
    lines = [season_heading(season), "", head]
    for row in season.rows:
        line = (
            f"{place(row):>4}  {row.player:<{width}}  {score_text(season, row):>8}  {row.games:>5}  {row.games_won:>3}"
        )
        lines.append(line + "".join(f"  {cell:>8}" for cell in night_cells(row)))
    return "\n".join([*lines, "", *season_notes(season)])


def season_csv(season: SeasonStandings) -> str:
    """A header row, a row per member: rank (empty when unranked), shared, player, score, games, games won,
    then per night the total (empty when missed) and whether it counts."""
    header: list[str | int] = ["rank", "shared", "player", "score", "games", "games won", "total"]
    for label in season.labels:
        header += [f"{label} total", f"{label} counts"]
    rows: list[list[str | int]] = [header]
    for row in season.rows:
        cells: list[str | int] = [row.rank or "", "yes" if row.shared else "", row.player, score_text(season, row)]
        cells += [row.games, row.games_won, row.total]
        for total, counted in zip(row.nights, row.counted):
            cells += ["" if total is None else total, "yes" if counted and total is not None else ""]
        rows.append(cells)
    return csv_text(rows)


def season_json(season: SeasonStandings) -> str:
    data = {"season": season.model_dump(mode="json"), "notes": season_notes(season)}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def season_html(season: SeasonStandings, title: str = "") -> str:
    """A self-contained printable page, like the night's standings (standings.html.j2)."""
    return (
        environment()
        .get_template("season_standings.html.j2")
        .render(
            title=title or season_heading(season),
            event=title,
            heading=season_heading(season),
            labels=season.labels,
            rows=[(place(row), row, score_text(season, row), night_cells(row)) for row in season.rows],
            notes=season_notes(season),
        )
    )
