// A player's page: ask the desk every few seconds whether anything changed (a round released, a
// change to the schedule) and, if so, take the new day from the page without a reload.
(function () {
  "use strict";
  var body = document.body;
  function poll() {
    fetch(body.dataset.state, { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (state) {
        if (state.stamp === body.dataset.stamp || !document.getElementById("day")) return;
        return fetch(window.location.href, { cache: "no-store" })
          .then(function (response) { return response.text(); })
          .then(function (html) {
            var fresh = new DOMParser().parseFromString(html, "text/html");
            var day = fresh.getElementById("day"), shown = document.getElementById("day");
            if (day && shown) shown.replaceWith(document.importNode(day, true));
            body.dataset.stamp = fresh.body.dataset.stamp;
          });
      })
      .catch(function () { /* the next poll tries again */ })
      .then(function () { setTimeout(poll, 4000 + Math.random() * 2000); });
  }
  setTimeout(poll, 3000);
})();
