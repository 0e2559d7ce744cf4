"""The app installed without its `plots` extra (no matplotlib): every picture's place says so in one line,
and nothing else changes. matplotlib is hidden the way Python itself sees a missing package: None in
sys.modules makes `import matplotlib` fail and find_spec answer None; the pictures module is hidden too, so a
path that would still import it fails here as it would there."""

from __future__ import annotations

import importlib
import sys

import pytest
from click.testing import CliRunner

import optimizer
from desk_helpers import names, seeded_event
from models import Event
from rotation.commands.cli import cli
from rotation.desk.events.settings import EventSettings
from rotation.files.output import schedule_json

SAID = (
    "the summary pictures need matplotlib, which this install leaves out: "
    "install the app with its plots extra, rotation[plots]"
)


@pytest.fixture
def no_matplotlib(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "rotation.printing.pictures", None)
    monkeypatch.delitem(sys.modules, "benchmarks.plots", raising=False)


@pytest.fixture
def day(tmp_path):
    path = tmp_path / "day.json"
    path.write_text(schedule_json(optimizer.fixed_schedule(Event.with_count(12, 4))), encoding="utf-8")
    return path


def test_print_png_is_refused_in_one_line_before_anything_is_written(no_matplotlib, day, tmp_path):
    html, png = tmp_path / "day.html", tmp_path / "summary.png"
    result = CliRunner().invoke(cli, ["print", str(day), "--html", str(html), "--png", str(png)])
    assert result.exit_code == 2 and result.stderr.strip() == f"Error: --png: {SAID}", result.output
    assert not html.exists() and not png.exists()


def test_the_printed_summary_says_why_it_has_no_pictures(no_matplotlib, day, tmp_path):
    html = tmp_path / "day.html"
    result = CliRunner().invoke(cli, ["print", str(day), "--html", str(html)])
    assert result.exit_code == 0, result.output
    page = html.read_text(encoding="utf-8")
    assert f"Not drawn: {SAID}" in page and "data:image/png" not in page
    assert "Who meets whom is not drawn for a room this size" not in page  # not the big room's reason


def test_the_desk_compare_page_says_so_and_the_picture_answers_404(no_matplotlib, client, db):
    event_id = seeded_event(db, EventSettings(names=names(12), rounds=4))
    page = client.get(f"/events/{event_id}/compare")
    assert page.status_code == 200 and f"Not drawn: {SAID}" in page.text and "meetings.png" not in page.text
    picture = client.get(f"/events/{event_id}/meetings.png")
    assert picture.status_code == 404 and SAID in picture.text


def test_the_benchmarks_plots_stop_with_one_line(no_matplotlib):
    with pytest.raises(SystemExit, match="benchmarks: the plots: the summary pictures need matplotlib"):
        importlib.import_module("benchmarks.plots")


def test_with_matplotlib_the_desk_draws_the_picture(client, db):
    event_id = seeded_event(db, EventSettings(names=names(12), rounds=4))
    assert "meetings.png" in client.get(f"/events/{event_id}/compare").text
    picture = client.get(f"/events/{event_id}/meetings.png")
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
