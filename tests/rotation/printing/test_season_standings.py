"""A season's standings: cumulative, average per game with a minimum of games, best N nights."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from models import RoundMark, RoundScore, SeasonRule, SitOutScoring, StandingRow, Standings
from rotation.commands.cli import cli, main
from rotation.printing.season_standings_pages import season_csv, season_html, season_json, season_text
from rotation.scoring import season_standings


def night(results: dict[str, list[int | None]], won: dict[str, int] | None = None) -> Standings:
    """A night's standings: each player's round totals (None: sat out, scored zero)."""
    rows = []
    for name, rounds in results.items():
        scores = tuple(
            RoundScore(round=r, mark=RoundMark.PLAYED, points=p, table=1)
            if p is not None
            else RoundScore(round=r, mark=RoundMark.SAT_OUT, points=0)
            for r, p in enumerate(rounds, start=1)
        )
        total = sum(p or 0 for p in rounds)
        rows.append({"player": name, "total": total, "games_won": (won or {}).get(name, 0), "rounds": scores})
    rows.sort(key=lambda row: -row["total"])
    return Standings(
        after=len(next(iter(results.values()))),
        rounds=len(next(iter(results.values()))),
        sit_out_scoring=SitOutScoring.ZERO,
        late_arrivals_as_sit_outs=False,
        round_averages=(),
        rows=tuple(StandingRow(rank=i + 1, shared=False, best_game=None, **row) for i, row in enumerate(rows)),
    )


WEEK1 = night({"Ann": [30, 10], "Bo": [20, 20], "Cy": [-10, -30]})
WEEK2 = night({"ann": [50, 0], "Bo": [10, None], "Di": [40, 40]})  # Ann spelled in lower case; Bo sat out once
WEEK3 = night({"Ann": [-20, -20], "Bo": [30, 30], "Cy": [0, 0]})


def by_player(table):
    return {row.player: row for row in table.rows}


def test_cumulative_adds_every_night_and_matches_names():
    table = season_standings([WEEK1, WEEK2, WEEK3])
    rows = by_player(table)
    assert rows["Ann"].total == 30 + 10 + 50 - 40 and rows["Ann"].nights == (40, 50, -40)
    assert rows["Di"].nights == (None, 80, None) and rows["Di"].score == 80
    assert [row.player for row in table.rows] == ["Bo", "Di", "Ann", "Cy"]  # 110, 80, 50, -40
    assert [row.rank for row in table.rows] == [1, 2, 3, 4]


def test_average_per_game_ranks_only_members_with_the_minimum():
    table = season_standings([WEEK1, WEEK2, WEEK3], SeasonRule.AVERAGE, min_games=16)
    rows = by_player(table)
    assert rows["Bo"].games == 4 * 5  # the sat-out round is not a game
    assert rows["Bo"].score == pytest.approx((40 + 10 + 60) / 20)
    assert rows["Di"].rank is None and rows["Di"].games == 8  # 10 points a game, but too few games
    assert [row.player for row in table.rows if row.rank is not None] == ["Bo", "Ann", "Cy"]
    assert table.rows[-1].player == "Di"


def test_best_nights_count_only_the_best():
    table = season_standings([WEEK1, WEEK2, WEEK3], SeasonRule.BEST, best_nights=2)
    rows = by_player(table)
    assert rows["Ann"].score == 90 and rows["Ann"].counted == (True, True, False)
    assert rows["Cy"].score == -40 and rows["Cy"].counted == (True, False, True)  # came twice: both count
    with pytest.raises(ValueError, match="best-nights"):
        season_standings([WEEK1], SeasonRule.BEST)


def test_level_scores_split_by_games_won_then_shared():
    a = night({"Ann": [10], "Bo": [10], "Cy": [10]}, won={"Ann": 2, "Bo": 1, "Cy": 1})
    table = season_standings([a])
    assert [(row.player, row.rank, row.shared) for row in table.rows] == [
        ("Ann", 1, False),
        ("Bo", 2, True),
        ("Cy", 2, True),
    ]


def test_printable_csv_json_and_text():
    table = season_standings([WEEK1, WEEK2, WEEK3], SeasonRule.BEST, best_nights=2)
    rows = list(csv.reader(io.StringIO(season_csv(table))))
    assert rows[0][:4] == ["rank", "shared", "player", "score"]
    ann = next(row for row in rows if row[2] == "Ann")
    assert ann[3] == "90" and ann[-2:] == ["-40", ""]  # night 3 not counted
    data = json.loads(season_json(table))
    assert data["season"]["rule"] == "best" and data["season"]["best_nights"] == 2
    text = season_text(table)
    assert "the best 2 nights' totals" in text and "(-40)" in text
    page = season_html(table, "Thursday League")
    assert "Thursday League" in page and "<table" in page and "(-40)" in page


def test_cli_season_from_standings_files(tmp_path):
    paths = []
    for number, week in enumerate([WEEK1, WEEK2, WEEK3], start=1):
        path = tmp_path / f"week{number}.json"
        path.write_text(json.dumps({"standings": week.model_dump(mode="json"), "footnotes": []}), encoding="utf-8")
        paths.append(str(path))
    runner = CliRunner()
    out = tmp_path / "season.csv"
    result = runner.invoke(cli, ["season", *paths, "--rule", "average", "--min-games", "16", "--csv", str(out)])
    assert result.exit_code == 0, result.output
    assert "points per game, at least 16 games to be ranked" in result.output
    assert "Di" in out.read_text(encoding="utf-8")
    refused = runner.invoke(cli, ["season", *paths, "--rule", "best"])
    assert refused.exit_code == 2 and "--best" in refused.output
    (tmp_path / "bad.json").write_text("[1]", encoding="utf-8")
    bad = runner.invoke(cli, ["season", str(tmp_path / "bad.json")])
    assert bad.exit_code == 2 and "not a standings file" in bad.output


def test_a_night_file_that_is_not_plain_json_is_one_line_and_exit_2(tmp_path, capsys):
    """A night's file read as every JSON file of the program is: too deep was a traceback, a number of
    thousands of digits said "use sys.set_int_max_str_digits()" and a key named twice was taken."""
    night = tmp_path / "night.json"
    standings = json.dumps(WEEK1.model_dump(mode="json"))
    for text, said in (
        ("[" * 100_000 + "]" * 100_000, "Invalid JSON: nested too deeply"),
        ('{"standings": ' + "9" * 6000 + "}", "Invalid JSON: a number with 6000 digits; none needs more than 18"),
        ('{"standings": ' + standings + ', "standings": ' + standings + "}", "the key 'standings' appears twice"),
        ('{"standings": NaN}', "Invalid JSON: NaN is not a number in JSON"),
    ):
        night.write_text(text, encoding="utf-8")
        assert main(["season", str(night)]) == 2, said
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_players_left_out_are_not_ranked_and_listed_apart():
    """Issue 53: a series that ranks members only leaves its guests out; the others rank as if they had
    not played, and the standings say who was left out."""
    everyone = season_standings([WEEK1, WEEK2, WEEK3])
    guest = everyone.rows[0].player
    members = season_standings([WEEK1, WEEK2, WEEK3], left_out=[guest.upper()])
    assert [row.player for row in members.rows] == [row.player for row in everyone.rows[1:]]
    assert members.rows[0].rank == 1 and members.left_out == (guest,) and everyone.left_out == ()
