"""Windows' branches, run here by faking the platform where the branch depends on nothing else: a file name
counted in UTF-16 units, a path past MAX_PATH said so instead of "does not exist", and the live line's
spinner on a legacy console (cp1252)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from rotation.commands.progress import LiveLine
from rotation.files import platform_paths
from rotation.files.inputs import BadInput, read_text
from rotation.files.writing import check_outputs


@pytest.fixture
def windows(monkeypatch):
    monkeypatch.setattr(platform_paths, "PLATFORM", "win32")


def test_a_file_name_is_counted_in_utf16_units_on_windows_and_in_bytes_elsewhere(monkeypatch):
    name = "Zoë Weiß 王小明 " * 10 + "😀.json"  # accents, CJK (3 UTF-8 bytes, 1 unit), an emoji (4 bytes, 2 units)
    monkeypatch.setattr(platform_paths, "PLATFORM", "linux")
    assert platform_paths.name_length(name) == (len(name.encode("utf-8")), "bytes")
    monkeypatch.setattr(platform_paths, "PLATFORM", "win32")
    assert platform_paths.name_length(name) == (len(name) + 1, "characters")


def test_a_name_too_long_is_refused_in_the_platforms_unit(tmp_path, windows):
    with pytest.raises(BadInput, match="longer than 255 characters"):
        check_outputs({"--json": str(tmp_path / ("a" * 256))}, {})


def test_a_path_past_max_path_is_said_so_on_windows_not_called_missing(tmp_path, windows):
    deep = tmp_path.joinpath(*["folder"] * 40, "day.json")
    with pytest.raises(BadInput, match=r"Windows allows 259 unless long paths are turned on") as refused:
        check_outputs({"--json": str(deep)}, {})
    assert "does not exist" not in str(refused.value)
    with pytest.raises(BadInput, match=r"names file .* its full path is \d+ characters long"):
        read_text(str(deep.with_name("names.txt")), "names")


def test_elsewhere_a_long_missing_path_is_a_missing_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(platform_paths, "PLATFORM", "linux")
    with pytest.raises(BadInput, match="does not exist"):
        check_outputs({"--json": str(tmp_path.joinpath(*["folder"] * 40, "day.json"))}, {})


@pytest.mark.parametrize("encoding", ["cp1252", "cp437", "utf-8"])
def test_the_live_line_shows_no_escapes_on_any_console(encoding):
    """As the program leaves a console (rotation/__main__.py: unprintable characters escaped)."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="backslashreplace", write_through=True)
    console = Console(file=stream, force_terminal=True, width=100)
    line = LiveLine(30, encoding=console.encoding)
    for _ in range(3):
        console.print(line)
    shown = raw.getvalue().decode(encoding)
    assert "\\u" not in shown and "best repeats" in shown
    assert (encoding == "utf-8") == any("\u2800" <= ch <= "\u28ff" for ch in shown)  # the braille dots
