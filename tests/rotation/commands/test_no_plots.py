"""The app installed without its `plots` extra (no matplotlib): the summary pictures are still drawn (SVG, by
a template), on the print, in `rotation print --svg` and on the desk's Compare page; only the benchmarks'
research plots need matplotlib, and they stop with one line. matplotlib is hidden the way Python itself sees
a missing package: None in sys.modules makes `import matplotlib` fail."""

from __future__ import annotations

import importlib
import sys

import pytest
from click.testing import CliRunner

import optimizer
from desk_helpers import names, seeded_event
from models import Event
from rotation.commands.cli import cli
from rotation.desk.core.settings import EventSettings
from rotation.files.output import schedule_json


@pytest.fixture
def no_matplotlib(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.delitem(sys.modules, "benchmarks.plots", raising=False)


@pytest.fixture
def day(tmp_path):
    path = tmp_path / "day.json"
    path.write_text(schedule_json(optimizer.fixed_schedule(Event.with_count(12, 4))), encoding="utf-8")
    return path


def test_print_draws_the_summary_pictures(no_matplotlib, day, tmp_path):
    html, svg = tmp_path / "day.html", tmp_path / "summary.svg"
    result = CliRunner().invoke(cli, ["print", str(day), "--html", str(html), "--svg", str(svg)])
    assert result.exit_code == 0, result.output
    page = html.read_text(encoding="utf-8")
    assert page.count('<div class="picture ') == 2 and "Not drawn" not in page
    assert svg.read_text(encoding="utf-8").startswith("<svg")


def test_the_desk_compare_page_shows_the_picture(no_matplotlib, client, db):
    event_id = seeded_event(db, EventSettings(names=names(12), rounds=4))
    assert "meetings.svg" in client.get(f"/events/{event_id}/compare").text
    picture = client.get(f"/events/{event_id}/meetings.svg")
    assert picture.status_code == 200 and "Who meets whom" in picture.text


def test_the_benchmarks_plots_stop_with_one_line(no_matplotlib):
    with pytest.raises(SystemExit, match="benchmarks: the plots need matplotlib: install the plots extra"):
        importlib.import_module("benchmarks.plots")
