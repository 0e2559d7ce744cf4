"""Every JSON route of the desk fuzzed from its OpenAPI schema (Schemathesis) with every check it has
(`st run --checks all`): no answer a 5xx, every answer one the schema documents and shaped as it says,
a method no route takes a 405 with Allow, a request off the schema refused, one on it accepted.
A short run here (ROTATION_FUZZ examples per route, 4 by default); `make fuzz-desk` runs a long one.

One tuning, not a check turned off: a request the schema allows may still get the documented 422 naming
its field for what a JSON Schema cannot say: a name's 64 characters count after its spelling is made one
(models.text: control characters dropped, spaces collapsed, NFC), a settings body's rules between fields (a
winners' circle that grows with the field), an import's exported contents. Measured without it: at 50
examples a route, POST /api/events, PUT /api/events/{event_id} and POST /api/events/import; at 200, a
swap's 210-character name too; no other operation refused a schema-valid request."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig

from desk_helpers import names, seeded_event
from rotation.desk.app import create_app
from rotation.desk.events.settings import EventSettings
from rotation.desk.security import LOCAL_HOSTS
from test_desk_layers import FakePlanner

EXAMPLES = int(os.environ.get("ROTATION_FUZZ", "4"))
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]  # Schemathesis's, and the 422 above


def desk_app():
    """A desk over a fresh file with one planned event, a fake planner, answering the ASGI client's name."""
    db = Path(tempfile.mkdtemp(prefix="desk-fuzz-")) / "desk.sqlite3"
    seeded_event(db, EventSettings(names=names(10), rounds=4, odd="sit-out"))  # event 1: something to find
    return create_app(db, planner=FakePlanner(), hosts=(*LOCAL_HOSTS, "testserver"))


CONFIG = SchemathesisConfig.from_dict({"checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}}})
schema = schemathesis.openapi.from_asgi("/openapi.json", desk_app(), config=CONFIG)
load_all_checks()


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_route_keeps_its_schema_under_every_check(case):
    case.call_and_validate(checks=CHECKS.get_all())
