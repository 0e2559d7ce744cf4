import pytest
from hypothesis import settings

settings.register_profile("default", max_examples=60, deadline=None)
settings.load_profile("default")

# The lanes of `make test-quick` (pyproject's markers): whole files marked here, single tests where they
# stand (@pytest.mark.slow, @pytest.mark.subprocess).
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
)
# The desk's plans run in a worker process of their own (rotation.desk.worker).
SUBPROCESS_FILES = ("test_desk_http.py", "test_desk_guards.py", "test_desk_scores.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = item.path.name
        if name.endswith(BROWSER_FILES):
            item.add_marker(pytest.mark.browser)
        if name in SLOW_FILES:
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
