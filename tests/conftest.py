import pytest
from hypothesis import settings

settings.register_profile("default", max_examples=60, deadline=None)
settings.load_profile("default")

# The lanes of `make test-quick` (pyproject's markers): whole files and single tests marked here, or where
# they stand (@pytest.mark.slow, @pytest.mark.subprocess). Chosen by `pytest --durations`: the quick lane
# aims at two minutes on a quiet 2-core machine (it took three before these lists grew).
BROWSER_FILES = ("_browser.py",)
SLOW_FILES = (
    "test_plan.py",  # whole planning runs of seconds each, and their repeats
    "test_stored_days.py",  # regenerates stored days: seconds of CP-SAT
    "test_exact_numbers.py",
    "test_rotational_day.py",
    "test_orbit_day.py",
    "test_bench_smoke.py",  # the benchmarks' own runs
    "test_bench_balance_smoke.py",
    "test_bench_trios_20x7.py",
    "test_compare.py",
    "test_replan_moves.py",
    "test_replan.py",  # re-plans and their short second runs
    "test_report.py",  # plans whose reports are read
    "test_requests.py",
    "test_fix.py",
    "test_print.py",  # a page rendered per test, some for rooms of hundreds
    "test_desk_series.py",  # nights planned against a series
    "test_desk_sessions.py",
    "test_desk_races.py",
    "test_desk_fuzz.py",  # the JSON routes fuzzed from their schema
    "test_search_tabu.py",  # local searches run to their step limits
    "test_season.py",
    "test_cpsat_split.py",  # CP-SAT proofs by case
)
SLOW_TESTS = (
    "test_a_schedule_file_over_ten_megabytes_is_read_when_the_room_is_within_the_limits",
    "test_no_page_or_endpoint_that_reads_writes_to_the_file",
    "test_variety_rotation_is_valid_and_fair_for_every_count",
    "test_the_race_of_round_choices_finds_a_choice_one_descent_misranks",
    "test_every_fixed_rule_seats_every_room",
    "test_fewest_in_common_is_the_definition_on_random_graphs",
    "test_breaking_symmetry_loses_no_day",
)
# The desk's plans run in a worker process of their own (rotation.desk.worker).
SUBPROCESS_FILES = ("test_desk_http.py", "test_desk_guards.py", "test_desk_scores.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = item.path.name
        if name.endswith(BROWSER_FILES):
            item.add_marker(pytest.mark.browser)
        if name in SLOW_FILES or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
        if name in SUBPROCESS_FILES:
            item.add_marker(pytest.mark.subprocess)


@pytest.fixture
def db(tmp_path):
    """The desk's database file, one a test."""
    return tmp_path / "desk.sqlite3"


@pytest.fixture
def client(db):
    """The desk over HTTP on that file (FastAPI's TestClient, start-up and shut-down run)."""
    from fastapi.testclient import TestClient

    from desk_helpers import LOCAL
    from rotation.desk.app import create_app

    with TestClient(create_app(db), base_url=LOCAL) as client:
        yield client
