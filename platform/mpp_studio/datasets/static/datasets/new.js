// The new-dataset form (datasets/new.html): while paradigms are chosen and the number of pairs
// typed, name each chosen paradigm whose capacity (as counted when its version was saved) is
// below that number. Submitting checks again with the vocabularies as they are now.
(function () {
  "use strict";

  function update() {
    var warning = document.getElementById("short-warning");
    var wanted = document.getElementById("id_pairs_per_paradigm");
    if (!warning || !wanted) return;
    var n = parseInt(wanted.value, 10);
    var short = [];
    document.querySelectorAll("input[name=templates][data-capacity]:checked").forEach(function (box) {
      var capacity = parseInt(box.getAttribute("data-capacity"), 10);
      if (n > capacity) short.push(box.getAttribute("data-uid") + " (" + capacity.toLocaleString("en") + ")");
    });
    var asMany = document.getElementById("id_as_many_as_possible");
    if (!short.length || isNaN(n)) {
      warning.hidden = true;
      warning.textContent = "";
      return;
    }
    warning.hidden = false;
    warning.textContent =
      short.length + (short.length === 1 ? " paradigm" : " paradigms") + " can make fewer than " +
      n.toLocaleString("en") + " different pairs: " + short.join(", ") + ". " +
      (asMany && asMany.checked
        ? "Each will make as many as it can."
        : "Tick \u201cAs many as possible\u201d to keep all each can make, ask for fewer, or leave them out.");
  }

  document.addEventListener("input", update);
  document.addEventListener("change", update);
  document.addEventListener("DOMContentLoaded", update);
})();
