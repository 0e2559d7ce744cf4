"""The shared writer of stored base rounds: the files it wrote read back unchanged, one key a line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimizer.constructions import matchings, packings
from optimizer.constructions.stored import save_bases


@pytest.mark.parametrize("file", [matchings.BASES_FILE, packings.BASES_FILE])
def test_rewriting_a_stored_file_changes_nothing(tmp_path: Path, file: Path) -> None:
    copy = tmp_path / "bases.json"
    save_bases(copy, json.loads(file.read_text(encoding="utf-8"))["bases"])
    assert copy.read_text(encoding="utf-8") == file.read_text(encoding="utf-8")


def test_keys_in_numeric_order_one_a_line(tmp_path: Path) -> None:
    file = tmp_path / "bases.json"
    save_bases(file, {"10": {"a": [1, 2]}, "9": {"a": [3]}})
    assert file.read_text(encoding="utf-8").splitlines() == [
        '{"bases": {',
        '  "9": {"a":[3]},',
        '  "10": {"a":[1,2]}',
        "}}",
    ]
