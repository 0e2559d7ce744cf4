"""The summary pictures (SVG) as Chromium lays them out on the printed summary page, on paper and on a phone:
each picture inside its sheet, every word inside its picture, the tick labels clear of each other, the
title, the legend and the labels clear of the matrix and the bars."""

from __future__ import annotations

import os

import pytest

import optimizer
from benchmarks.printing import room_names
from models import Event, OddPolicy
from optimizer import compare
from rotation.printing.options import Options
from rotation.printing.pages import render_page

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed"),
]

ROOMS = {
    "12 players": Event.with_count(12, 6),
    "32 long names": Event(players=room_names(32), rounds=7),
    "37 long names, tables of three": Event(players=room_names(37), rounds=5, odd=OddPolicy.THREE_HANDED),
    "200 players": Event.with_count(200, 8),
    "1200 players, 4 a square": Event.with_count(1200, 3),
}

# Measured in the page: a list of what is wrong, empty when the pictures are laid out well.
LAYOUT = """() => {
  const out = [], box = e => e.getBoundingClientRect(), slack = 0.5;
  const inside = (a, b) => a.left >= b.left - slack && a.right <= b.right + slack &&
                           a.top >= b.top - slack && a.bottom <= b.bottom + slack;
  const cross = (a, b) => a.left < b.right - slack && b.left < a.right - slack &&
                          a.top < b.bottom - slack && b.top < a.bottom - slack;
  const pictures = [...document.querySelectorAll('.summary .picture svg')];
  if (!pictures.length) out.push('no picture on the summary page');
  for (const svg of pictures) {
    const where = svg.parentElement.className;
    if (!inside(box(svg), box(svg.closest('.page')))) out.push(`${where}: leaves its sheet`);
    if (!inside(box(svg), box(svg.parentElement))) out.push(`${where}: leaves its box`);
    const words = [...svg.querySelectorAll('text')];
    for (const word of words)
      if (!inside(box(word), box(svg))) out.push(`${where}: "${word.textContent}" leaves the picture`);
    for (const kind of ['tick x', 'tick y']) {
      const ticks = words.filter(w => w.getAttribute('class') === kind);
      for (let i = 1; i < ticks.length; i++)
        if (cross(box(ticks[i - 1]), box(ticks[i])))
          out.push(`${where}: ${kind} "${ticks[i - 1].textContent}" and "${ticks[i].textContent}" overlap`);
    }
    const plot = svg.querySelector('rect.plot');
    const area = plot ? box(plot) : null;
    if (area) {
      for (const word of words)
        if (!['value', 'empty'].includes(word.getAttribute('class')) && cross(box(word), area))
          out.push(`${where}: "${word.textContent}" lies on the matrix`);
      const legend = svg.querySelector('.legend');
      if (cross(box(legend), area)) out.push(`${where}: the legend lies on the matrix`);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


@pytest.mark.parametrize("room", list(ROOMS))
def test_the_summary_pictures_are_laid_out_on_paper_and_on_a_phone(browser, tmp_path, room):
    schedule = optimizer.fixed_schedule(ROOMS[room])
    page_html = render_page(schedule, optimizer.check(schedule), compare(schedule), Options(only=("summary",)))
    page = browser.new_page()
    try:
        page.set_content(page_html)
        for media, width in (("print", 900), ("screen", 1280), ("screen", 390)):
            page.emulate_media(media=media)
            page.set_viewport_size({"width": width, "height": 1100})
            problems = page.evaluate(LAYOUT)
            assert not problems, f"{room}, {media} at {width} px: {problems}"
            shots = os.environ.get("REHEARSAL_SHOTS")
            if shots:
                page.screenshot(path=f"{shots}/summary-{room.split()[0]}-{media}-{width}.png", full_page=True)
    finally:
        page.close()
