"""MkDocs hook: the benchmarks' own pages and results (benchmarks/README.md, benchmarks/results/) join the site
under `benchmarks/`, so the reference links to the measured figures where they are kept, and the strict build
checks those links too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).parent.parent
KINDS = {".md", ".png", ".svg", ".txt", ".log"}


def on_files(files: Files, config: Any) -> Files:
    for path in sorted((ROOT / "benchmarks").rglob("*")):
        if path.is_file() and path.suffix in KINDS:
            relative = path.relative_to(ROOT).as_posix()
            files.append(File(relative, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files
