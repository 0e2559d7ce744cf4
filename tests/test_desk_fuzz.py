"""Every JSON route of the desk fuzzed from its OpenAPI schema (Schemathesis): whatever arrives, no
answer is a 5xx and every answer the schema describes matches it. A short run here (ROTATION_FUZZ
examples per route, 4 by default); `make fuzz-desk` runs a long one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from desk_helpers import names, seeded_event
from rotation.desk.app import create_app
from rotation.desk.events.settings import EventSettings
from rotation.desk.security import LOCAL_HOSTS
from test_desk_layers import FakePlanner

EXAMPLES = int(os.environ.get("ROTATION_FUZZ", "4"))


def desk_app():
    """A desk over a fresh file with one planned event, a fake planner, answering the ASGI client's name."""
    db = Path(tempfile.mkdtemp(prefix="desk-fuzz-")) / "desk.sqlite3"
    seeded_event(db, EventSettings(names=names(10), rounds=4, odd="sit-out"))  # event 1: something to find
    return create_app(db, planner=FakePlanner(), hosts=(*LOCAL_HOSTS, "testserver"))


schema = schemathesis.openapi.from_asgi("/openapi.json", desk_app())


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_route_answers_5xx_or_off_its_schema(case):
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])
