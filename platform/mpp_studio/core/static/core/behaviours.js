// Small page behaviours declared with data attributes instead of inline handlers, which the
// Content-Security-Policy (script-src 'self') forbids. Delegated from the document, so markup that
// htmx swaps in later works as well.
(function () {
  "use strict";

  // <select data-navigate>: open the URL of the chosen option.
  // <select data-autosubmit>: send the select's form.
  document.addEventListener("change", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLSelectElement)) return;
    if (target.hasAttribute("data-navigate")) {
      window.location.assign(target.value);
    } else if (target.hasAttribute("data-autosubmit") && target.form) {
      target.form.requestSubmit ? target.form.requestSubmit() : target.form.submit();
    }
  });

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    // <input data-select-on-click>: select the whole value (links to copy by hand).
    if (target.matches("input[data-select-on-click]")) {
      target.select();
      return;
    }
    // <button data-check-all>: tick every enabled checkbox of the button's fieldset.
    const checkAll = target.closest("[data-check-all]");
    if (checkAll) {
      const fieldset = checkAll.closest("fieldset");
      if (fieldset) {
        fieldset.querySelectorAll("input[type=checkbox]:not(:disabled)").forEach((box) => { box.checked = true; });
      }
      return;
    }
    // <button data-copy-previous>: copy the value of the element before it to the clipboard.
    const copy = target.closest("[data-copy-previous]");
    if (copy && navigator.clipboard) {
      const source = copy.previousElementSibling;
      if (source && "value" in source) {
        navigator.clipboard.writeText(source.value).then(() => { copy.textContent = copy.dataset.copied || "Copied"; });
      }
    }
  });

  // <form data-confirm="question">: ask before sending.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
})();
