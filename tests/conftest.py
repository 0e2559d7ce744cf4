import pytest
from hypothesis import settings

settings.register_profile("default", max_examples=60, deadline=None)
settings.load_profile("default")

# The tests mirror the packages they test (tests/optimizer/checking/ for optimizer/checking/, ...), and
# each file marks its own lanes (`pytestmark`, or @pytest.mark.slow on a test): `make test-quick` leaves
# out slow, browser and subprocess tests (pyproject's markers). tests/ itself holds the shared helpers.


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
