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
