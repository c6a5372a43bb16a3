// The template editor (paradigms/editor/editor.html): small helpers on top of htmx. The form also
// works without them: every button then posts the whole form and the page is drawn again.
(function () {
  "use strict";

  // Enter in a one-line field would submit the form: refresh the preview instead.
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || !field.closest || !field.closest("#editor-form")) return;
    if (field.tagName === "TEXTAREA" || field.tagName === "BUTTON") return;
    event.preventDefault();
    if (window.htmx) window.htmx.trigger(document.getElementById("editor-form"), "editor-refresh");
  });

  // Choosing a feature offers that feature's values (a datalist) in the value field beside it.
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.classList || !select.classList.contains("feature-name")) return;
    var pair = select.closest(".pair-row");
    var input = pair && pair.querySelector(".feature-value");
    var lists = document.getElementById("value-lists");
    if (!input || !lists) return;
    var id = JSON.parse(lists.textContent)[select.value];
    if (id) input.setAttribute("list", id);
    else input.removeAttribute("list");
  });
})();
