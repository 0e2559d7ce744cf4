"""The sentences every front end shares (optimizer.words): the CLI's report and the desk's figures say the
same thing about the same plan."""

import pytest

import optimizer
from desk_helpers import names
from models import Event, OddPolicy
from optimizer.words import optimality
from rotation.commands.cli import no_schedule
from rotation.desk.core.settings import EventSettings
from rotation.desk.events import planning
from rotation.desk.events.views import figure_lines
from rotation.desk.storage import Figures, PlanRequest, RunStatus, Store
from rotation.files.report import result_text


@pytest.mark.parametrize(
    "repeats, bound, words",
    [
        (0, 0, "Proven optimal: nobody meets an opponent twice."),
        (4, 4, "Proven optimal: no schedule of this room has fewer repeats."),
        (5, 4, "Not proven optimal: at most 1 repeat above the best possible."),
        (7, 4, "Not proven optimal: at most 3 repeats above the best possible."),
    ],
)
def test_optimality_in_words(repeats, bound, words):
    assert optimality(repeats, bound) == words


@pytest.mark.parametrize("players, rounds, odd", [(8, 3, OddPolicy.THREE_HANDED), (7, 3, OddPolicy.THREE_HANDED)])
def test_the_cli_report_and_the_desk_word_a_plan_s_optimality_alike(players, rounds, odd):
    result = optimizer.plan(Event.with_count(players, rounds, odd=odd), time_limit=2, seed=0, workers=1)
    assert result.schedule is not None and result.metrics is not None and result.repeats is not None
    figures = Figures(bound=result.bound, metrics=result.metrics)
    sentence = optimality(result.repeats, result.bound.repeats, rules=" that takes three-handed tables in turn")
    if players % 4 == 0:  # no table of three: no rule assumed
        sentence = optimality(result.repeats, result.bound.repeats)
    assert sentence in result_text(result).splitlines()
    assert sentence in figure_lines(figures, result.schedule)


def test_the_cli_and_the_desk_word_a_proven_infeasible_day_alike_each_naming_its_own_controls(tmp_path):
    players = names(8)
    triangle = [[players[0], players[1]], [players[1], players[2]], [players[0], players[2]]]  # 2 tables: no seating
    event = Event(players=tuple(players), rounds=3, apart=tuple(tuple(group) for group in triangle))
    result = optimizer.plan(event, time_limit=5, seed=0, workers=1)
    assert result.schedule is None
    said = str(no_schedule(result, 5, requests=True))
    assert said == "proven infeasible: no schedule meets these requests; loosen --apart or --stay"

    store = Store(tmp_path / "desk.sqlite3")
    settings = EventSettings(names=players, rounds=3, apart=triangle)
    run_id = store.add_run(store.add_event(settings), PlanRequest(settings=settings), 5.0)
    planning.keep_run(store, store.run(run_id), [planning.Planned(result, None, None)])
    run = store.run(run_id)
    assert run is not None and run.status is RunStatus.FAILED
    assert run.message == said.replace("--apart or --stay", "keep-apart or stay at one table")
    store.close()
