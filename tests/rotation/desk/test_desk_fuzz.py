"""Every JSON route of the desk fuzzed from its OpenAPI schema (Schemathesis) with every check it has
(`st run --checks all`): no answer a 5xx, every answer one the schema documents and shaped as it says,
a method no route takes a 405 with Allow, a request off the schema refused, one on it accepted.
A short run here (ROTATION_FUZZ examples per route, 4 by default); `make fuzz-desk` runs a long one.

One tuning, not a check turned off, and on three operations only: a schema-valid request to make an event,
save its settings or import one may still get the documented 422 naming its field, for rules between
fields a JSON Schema cannot state: names distinct in any spelling (name_key: 'ann' is 'Ann') and each with
something that shows once controls are dropped, the apart, spread and stay requests naming players of the
list, rounds a room of that many players can seat, a winners' circle that grows with the field; an import's
rows referring to each other and each schedule passing the independent checker. Every other operation
must accept whatever its schema allows: a name's or title's length is counted as typed and published
(models.text: maxLength), as every other bound is."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis.config._checks import POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES as DEFAULT
from test_desk_layers import FakePlanner

from desk_helpers import names, seeded_event
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.security import LOCAL_HOSTS

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("ROTATION_FUZZ", "4"))


def desk_app():
    """A desk over a fresh file with one planned event, a fake planner, answering the ASGI client's name."""
    db = Path(tempfile.mkdtemp(prefix="desk-fuzz-")) / "desk.sqlite3"
    seeded_event(db, EventSettings(names=names(10), rounds=4, odd="sit-out"))  # event 1: something to find
    return create_app(db, planner=FakePlanner(), hosts=(*LOCAL_HOSTS, "testserver"))


CROSS_FIELD = [("POST", "/api/events"), ("PUT", "/api/events/{event_id}"), ("POST", "/api/events/import")]
CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                "include-method": method,
                "include-path": path,
                "checks": {"positive_data_acceptance": {"expected-statuses": [*DEFAULT, "422"]}},
            }
            for method, path in CROSS_FIELD
        ],
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", desk_app(), config=CONFIG)
load_all_checks()


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_route_keeps_its_schema_under_every_check(case):
    case.call_and_validate(checks=CHECKS.get_all())
