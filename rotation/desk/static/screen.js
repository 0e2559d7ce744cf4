// The projector: page through the round's tables and then the find-your-table list, at the director's
// pace; count the round's timer down from the server's clock; take a new release without a reload.
(function () {
  "use strict";
  var body = document.body, pages = [], at = -1, turn = null, timer = null, offset = 0;

  function paginate() {
    // Each deck is laid out at every column count up to the most its names allow (room.css) and
    // measured; the count with the fewest pages wins (the fewer columns on a tie). A page is what fits
    // the deck's height as laid out, so nothing is ever shrunk to fit.
    pages = [];
    var decks = document.querySelectorAll(".deck");
    decks.forEach(function (deck) { deck.hidden = true; });  // each is measured alone, at its full height
    decks.forEach(function (deck) {
      var items = Array.prototype.slice.call(deck.children), best = null;
      deck.classList.remove("paged");  // measured as a grid: the columns' count and width, each entry's height
      deck.style.gridTemplateColumns = deck.style.columnCount = "";
      deck.hidden = false;
      items.forEach(function (el) { el.hidden = false; });
      var most = getComputedStyle(deck).gridTemplateColumns.split(" ").length;
      for (var columns = most; columns >= 1; columns--) {
        deck.style.gridTemplateColumns = "repeat(" + columns + ", minmax(0, 1fr))";
        var laid = deck.classList.contains("find") ? downColumns(deck, items, columns) : byRows(deck, items);
        if (!best || laid.length <= best.pages.length) best = { columns: columns, pages: laid };
      }
      deck.style.gridTemplateColumns = "repeat(" + best.columns + ", minmax(0, 1fr))";
      pages = pages.concat(best.pages);
      deck.hidden = true;
    });
    at = -1;
    next();
  }

  function byRows(deck, items) {
    // The deck's rows as laid out; a page is the rows that fit its height.
    var limit = deck.clientHeight, rows = [], laid = [];
    items.forEach(function (el, i) {
      var row = rows[rows.length - 1];
      if (!row || el.offsetTop !== row.top) rows.push(row = { top: el.offsetTop, bottom: 0, start: i, end: i });
      row.bottom = Math.max(row.bottom, el.offsetTop + el.offsetHeight);
      row.end = i + 1;
    });
    var page = null;
    rows.forEach(function (row) {
      if (page && row.bottom - page.top <= limit) { page.end = row.end; page.rows.push(row); return; }
      page = { deck: deck, top: row.top, start: row.start, end: row.end, rows: [row] };
      laid.push(page);
    });
    if (laid.length > 1) besideTables(items, laid, limit);
    return laid;
  }

  function downColumns(deck, items, columns) {
    // The alphabetical list reads down each column, then the next: a page is `columns` columns, each
    // filled to the deck's height with the entries' heights as laid out at that column width.
    var limit = deck.clientHeight, gap = parseFloat(getComputedStyle(deck).rowGap) || 0, laid = [];
    var page = null, column = 0, used = 0;
    items.forEach(function (el, i) {
      var height = el.offsetHeight + gap;  // each entry's margin under it, as shown (room.css)
      if (page && used + height <= limit) { used += height; page.end = i + 1; return; }
      if (page && ++column < columns) { used = height; page.end = i + 1; return; }
      page = { deck: deck, start: i, end: i + 1, columns: columns };
      laid.push(page);
      column = 0;
      used = height;
    });
    return laid;
  }

  function besideTables(items, laid, limit) {
    // The sit-outs never take a page of their own: onto the page before when they fit there, else
    // with that page's last row of tables (so the paging stays as it is, with no page of one card).
    var before = laid[laid.length - 2], last = laid[laid.length - 1];
    if (!items.slice(last.start, last.end).every(function (el) { return el.classList.contains("out"); })) return;
    var bottom = last.rows[last.rows.length - 1].bottom;
    if (bottom - before.top <= limit) {
      before.end = last.end;
      before.rows = before.rows.concat(last.rows);
      laid.pop();
    } else if (before.rows.length > 1) {
      var moved = before.rows.pop();
      before.end = last.start = moved.start;
      last.top = moved.top;
      last.rows.unshift(moved);
    }
  }

  function next() {
    clearTimeout(turn);
    if (!pages.length) return;
    at = (at + 1) % pages.length;
    var page = pages[at], ofDeck = pages.filter(function (p) { return p.deck === page.deck; });
    document.querySelectorAll(".deck").forEach(function (deck) { deck.hidden = deck !== page.deck; });
    Array.prototype.forEach.call(page.deck.children, function (el, i) { el.hidden = i < page.start || i >= page.end; });
    if (page.deck.classList.contains("find")) {
      page.deck.classList.add("paged");
      page.deck.style.columnCount = page.columns;
    }
    text("page-label", page.deck.dataset.label + (ofDeck.length > 1 ? " · page " + (ofDeck.indexOf(page) + 1) + " of " + ofDeck.length : ""));
    // every page counted, when the label's count is of one deck among others (the tables, then find your table)
    text("page-number", pages.length > ofDeck.length ? "(" + (at + 1) + "/" + pages.length + ")" : "");
    if (pages.length > 1) turn = setTimeout(next, 1000 * parseFloat(body.dataset.pace));
  }

  function text(id, words) {
    var element = document.getElementById(id);
    if (element) element.textContent = words;
  }

  function showTimer() {
    var element = document.getElementById("timer");
    if (!timer || !element) return;
    var left = timer.running ? timer.ends_at * 1000 - (Date.now() + offset) : timer.left * 1000;
    var seconds = Math.max(0, Math.ceil(left / 1000));
    element.className = "timer" + (seconds === 0 ? " time-up" : seconds <= timer.warning ? " warning" : "") + (timer.running ? "" : " paused");
    var clock = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    element.textContent = seconds === 0 ? "Time" : (timer.running || seconds === timer.minutes * 60 ? clock : "Paused " + clock);
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    ["content", "screen-title"].forEach(function (id) {
      var now = document.getElementById(id), then = fresh.getElementById(id);
      if (now && then) now.replaceWith(document.importNode(then, true));
    });
    body.dataset.stamp = fresh.body.dataset.stamp;
    body.dataset.standings = fresh.body.dataset.standings;
    paginate();
  }

  function poll() {
    fetch(body.dataset.state, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (state) {
        offset = state.timer.now * 1000 - Date.now();
        timer = state.timer;
        body.dataset.pace = String(state.pace);
        showTimer();
        if (state.stamp !== body.dataset.stamp || state.standings !== body.dataset.standings) {
          return fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
            .then(function (response) { return response.text(); })
            .then(swap);
        }
      })
      .catch(function () { /* the next poll tries again */ })
      .then(function () { setTimeout(poll, 1000); });
  }

  var full = document.getElementById("full-screen");
  if (full && document.documentElement.requestFullscreen) {  // the projector's whole screen, one click
    full.hidden = false;
    full.addEventListener("click", function () { document.documentElement.requestFullscreen(); });
  }
  window.addEventListener("resize", paginate);
  setInterval(showTimer, 250);
  paginate();
  poll();
})();
