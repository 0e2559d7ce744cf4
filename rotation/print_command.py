"""`rotation print`: wall charts, player slips and a summary page for the printer, and a picture."""

from __future__ import annotations

import click

import optimizer
from rotation.inputs import BadInput, check_outputs, read_schedule
from rotation.output import say, write_outputs


@click.command(name="print")
@click.argument("file", metavar="SCHEDULE.json")
@click.option("--html", "html_path", metavar="FILE", required=True, help="Write the printable page (one HTML file).")
@click.option("--png", "png_path", metavar="FILE", help="Also write the summary picture alone as PNG.")
def print_command(file, html_path, png_path):
    """Wall charts per round, player slips and a summary page, ready to print."""
    # Imported here: matplotlib takes half a second, which no other command should pay.
    from rotation.pictures import summary_png
    from rotation.printing import compare, expected_pages, render_page

    outputs = dict(check_outputs({"--html": html_path, "--png": png_path}, {"schedule file": file}))
    schedule = read_schedule(file)
    try:
        metrics = optimizer.check(schedule)  # nothing unchecked reaches the wall
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{file}: invalid schedule: {error}") from None
    files = [(outputs["--html"], render_page(schedule, metrics, compare(schedule)))]
    if "--png" in outputs:
        files.append((outputs["--png"], summary_png(schedule, metrics)))
    write_outputs(files)  # both or neither
    say(f"{html_path}: {expected_pages(schedule)} pages to print")
