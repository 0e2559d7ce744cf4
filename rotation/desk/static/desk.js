// Live progress of a running plan: ask the desk every half second; reload when the run ends.
(function () {
  "use strict";
  var box = document.getElementById("run");
  if (!box || box.dataset.status !== "running") return;
  var limit = parseFloat(box.dataset.limit);
  var started = Date.now() - 1000 * parseFloat(box.dataset.elapsed);
  function show(id, text) {
    var element = document.getElementById(id);
    if (element) element.textContent = text;
  }
  function tick() {
    show("run-time", Math.floor((Date.now() - started) / 1000) + " / " + limit + " s");
  }
  function poll() {
    fetch("/api/runs/" + box.dataset.run, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (run) {
        if (run.status !== "running") { window.location.reload(); return; }
        show("run-repeats", run.repeats === null ? "-" : String(run.repeats));
        show("run-bound", run.bound === null ? "-" : String(run.bound));
        if (run.stop_asked) show("run-status", "Stopping: keeping the best schedule found so far…");
        setTimeout(poll, 500);
      })
      .catch(function () { setTimeout(poll, 2000); });
  }
  setInterval(tick, 250);
  poll();
})();

// A score card's round totals while the director types; the server adds them up again when it is saved.
(function () {
  "use strict";
  var whole = /^[+-]?[0-9]+$/;
  function total(row) {
    var sum = 0, boxes = row.querySelectorAll("input.points"), out = row.querySelector("output.total");
    for (var i = 0; i < boxes.length; i++) {
      var text = boxes[i].value.trim().replace("\u2212", "-");
      if (!whole.test(text)) { out.textContent = ""; return; }
      sum += parseInt(text, 10);
    }
    out.textContent = String(sum);
  }
  // What is typed in a card not yet saved is kept in this tab, so saving (or a refusal of) another
  // table's card, which reloads the page, loses none of it; a card's drafts go when it is sent.
  // by the card's own address: a refusal's page is the post's answer, at another address than the round's
  // The boxes of either kind of card: each player's points, or each game's result (a select for how).
  var boxes = "input.points, .game-row input, .game-row select";
  function key(form, box) { return "draft " + form.getAttribute("action") + " " + box.name; }
  document.querySelectorAll("form.card-form").forEach(function (form) {
    form.querySelectorAll(boxes).forEach(function (box) {
      var kept = sessionStorage.getItem(key(form, box));
      if (kept !== null && !box.disabled) box.value = kept;
      box.addEventListener("input", function () { sessionStorage.setItem(key(form, box), box.value); });
    });
    form.addEventListener("submit", function () {
      form.querySelectorAll(boxes).forEach(function (box) { sessionStorage.removeItem(key(form, box)); });
    });
  });
  document.querySelectorAll("form.card-form .seat-row").forEach(function (row) {
    if (!row.querySelector("output.total")) return;
    row.addEventListener("input", function () { total(row); });
    total(row);
  });
})();

// The standings as a table while it fits the page, else a card a player (names never broken mid-word).
(function () {
  "use strict";
  var table = document.querySelector("table.standings");
  if (!table) return;
  function fit() {
    // the parent's content box: clientWidth counts its padding, which the table cannot use
    var parent = table.parentElement, style = getComputedStyle(parent);
    var room = parent.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    table.classList.remove("as-cards");
    if (table.offsetWidth > room + 1) table.classList.add("as-cards");
  }
  window.addEventListener("resize", fit);
  fit();
})();

// What the director types in the day's forms (swap, move, re-plan) and the room's (extend the timer, the
// round's length) is kept in this tab until the form is sent: a page loaded again meanwhile (a re-plan
// ending reloads it; Cancel on a question asked goes back to it) gives it back, with its round. Only while
// the form shows what it showed when the typing began: a refusal's page, or a value saved since, is kept.
(function () {
  "use strict";
  var forms = document.querySelectorAll("#day form[id], form.keeps-typed");
  function key(form, name) { return "typed " + form.getAttribute("action") + " " + form.id + " " + name; }
  forms.forEach(function (form) {
    var boxes = Array.prototype.filter.call(form.elements, function (box) {
      return box.name && box.name !== "csrf" && box.name !== "base" && /^(text|textarea|select-one)$/.test(box.type);
    });
    var shown = JSON.stringify(boxes.map(function (box) { return box.value; }));
    var same = sessionStorage.getItem(key(form, "")) === shown;
    boxes.forEach(function (box) {
      var kept = sessionStorage.getItem(key(form, box.name));
      if (!same) sessionStorage.removeItem(key(form, box.name));
      else if (kept !== null && (box.type !== "select-one" || box.querySelector("option[value='" + CSS.escape(kept) + "']"))) box.value = kept;
    });
    function keep(box) {
      sessionStorage.setItem(key(form, ""), shown);
      sessionStorage.setItem(key(form, box.name), box.value);
    }
    boxes.forEach(function (box) {
      box.addEventListener("input", function () { keep(box); });
      box.addEventListener("change", function () { keep(box); });
    });
    form.addEventListener("submit", function () {
      sessionStorage.removeItem(key(form, ""));
      boxes.forEach(function (box) { sessionStorage.removeItem(key(form, box.name)); });
    });
  });
})();

// A name refused with one likely spelling ("did you mean 'Zoë Weiß'?"): a button beside the message puts
// it in place of what was typed and sends the form again. Two spellings or more stay the director's call.
(function () {
  "use strict";
  var loose = function (text) { return text.trim().replace(/\s+/g, " ").toLowerCase(); };
  document.querySelectorAll("form .error").forEach(function (message) {
    var text = message.textContent, form = message.closest("form");
    var meant = text.match(/did you mean (['"])(.*)\1\?$/), typed = text.match(/^(?:cannot \w+ )?(['"])(.*?)\1[: ]/);
    if (!meant || !typed || /['"] or ['"]/.test(meant[2])) return;
    var wrong = loose(typed[2]), fix = null;
    Array.prototype.forEach.call(form.elements, function (box) {
      if (fix || !/^(text|textarea)$/.test(box.type)) return;
      var lines = box.value.split("\n"), at = lines.map(loose).indexOf(wrong);
      if (at >= 0) fix = function () { lines[at] = meant[2]; box.value = lines.join("\n"); };
    });
    if (!fix) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "fix";
    button.textContent = "Use \u201c" + meant[2] + "\u201d";
    button.addEventListener("click", function () { fix(); form.requestSubmit(); });
    message.appendChild(document.createTextNode(" "));
    message.appendChild(button);
  });
})();

// "Tick every member": every attendance box of its name ticked at once (the button shows only with script).
(function () {
  "use strict";
  document.querySelectorAll("button[data-tick-all]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var boxes = button.form.querySelectorAll('input[type="checkbox"][name="' + button.dataset.tickAll + '"]');
      boxes.forEach(function (box) { box.checked = true; });
    });
  });
})();
