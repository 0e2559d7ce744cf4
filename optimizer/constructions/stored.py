"""Writing base rounds stored ahead: one JSON file, `{"bases": {key: entry, ...}}`, one key a line in numeric
order, so that a new entry changes one line of the file's history."""

from __future__ import annotations

import json
from pathlib import Path


def save_bases(file: Path, stored: dict) -> None:
    """Write `stored` (keys the numbers as strings) to `file`, one entry a line, in numeric order."""
    lines = ",\n".join(f'  "{k}": {json.dumps(stored[k], separators=(",", ":"))}' for k in sorted(stored, key=int))
    file.write_text('{"bases": {\n' + lines + "\n}}\n", encoding="utf-8")
