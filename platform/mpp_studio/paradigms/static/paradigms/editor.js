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

  // Nothing typed is lost while the form's body is drawn again. A button, or a change of a rule
  // type, an id or the vocabulary, posts the form and swaps in the body the server draws from
  // it; whatever the user typed or chose after that request left would be drawn over with the
  // values it carried. So each field's value is noted when the request leaves, and any field
  // changed since is carried into its counterpart in the new body (the same field of the same
  // row, found by the row's key wherever the row moved), with the caret where it was.
  var ROW_FIELD = /^(good|bad)-\d+-/;
  var sentValues = null;
  var oldFields = null;
  var focused = null;

  function isBodySwap(event) {
    var target = event.detail && event.detail.target;
    return target && target.id === "editor-body";
  }

  function fieldKey(field) {
    var row = field.closest("li.position");
    var match = field.name.match(ROW_FIELD);
    if (row && match && row.getAttribute("data-key")) {
      return row.getAttribute("data-key") + "|" + field.name.slice(match[0].length);
    }
    return field.name;
  }

  function userFields(root) {
    return Array.prototype.filter.call(root.querySelectorAll("input, textarea, select"), function (field) {
      return field.name && ["hidden", "submit", "button", "reset"].indexOf(field.type) < 0;
    });
  }

  function valueOf(field) {
    return field.type === "checkbox" || field.type === "radio" ? String(field.checked) : field.value;
  }

  function setValue(field, value) {
    if (field.type === "checkbox" || field.type === "radio") {
      field.checked = value === "true";
    } else if (field.tagName === "SELECT") {
      var known = Array.prototype.some.call(field.options, function (option) { return option.value === value; });
      if (known) field.value = value;
    } else {
      field.value = value;
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var body = document.getElementById("editor-body");
    if (!isBodySwap(event) || !body) return;
    sentValues = {};
    userFields(body).forEach(function (field) { sentValues[fieldKey(field)] = valueOf(field); });
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var body = document.getElementById("editor-body");
    if (!isBodySwap(event) || !body || !sentValues) return;
    oldFields = userFields(body).map(function (field) { return { key: fieldKey(field), field: field }; });
    var active = document.activeElement;
    focused = null;
    if (active && body.contains(active) && active.name) {
      focused = { key: fieldKey(active), start: null, end: null };
      try {
        focused.start = active.selectionStart;
        focused.end = active.selectionEnd;
      } catch (error) { /* a select or a number field has no caret */ }
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var body = document.getElementById("editor-body");
    if (!isBodySwap(event) || !body || !oldFields) return;
    var fresh = {};
    userFields(body).forEach(function (field) { fresh[fieldKey(field)] = field; });
    var carried = false;
    oldFields.forEach(function (old) {
      var value = valueOf(old.field);
      var counterpart = fresh[old.key];
      if (counterpart && old.key in sentValues && value !== sentValues[old.key] && valueOf(counterpart) !== value) {
        setValue(counterpart, value);
        carried = true;
      }
    });
    var again = focused && fresh[focused.key];
    if (again) {
      again.focus();
      if (focused.start !== null && again.setSelectionRange) {
        try { again.setSelectionRange(focused.start, focused.end); } catch (error) { /* no caret */ }
      }
    }
    sentValues = oldFields = focused = null;
    // The preview the new body asks for was made from the values the request carried.
    if (carried && window.htmx) window.htmx.trigger(document.getElementById("editor-form"), "editor-refresh");
  });

  // Drafts, and leaving. A moment after each change the form is kept on the server as the
  // user's draft (offered back when the editor is opened again), and leaving the page while the
  // form holds what no saved version has asks first. Saving a version ends both.
  var form = document.getElementById("editor-form");
  if (!form || !form.getAttribute("data-draft-url")) return;
  var draftUrl = form.getAttribute("data-draft-url");
  var unsaved = form.getAttribute("data-dirty") === "true";
  var submitting = false;
  var draftTimer = null;
  var status = form.querySelector(".draft-status");

  function say(text) {
    if (status) status.textContent = text;
  }

  function keepDraft() {
    draftTimer = null;
    fetch(draftUrl, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) {
        return response.text().then(function (text) {
          say(response.ok ? text + "; not saved as a version yet." : text || "The draft could not be kept.");
        });
      })
      .catch(function () {
        say("The draft could not be kept (no connection): your changes are still in this form.");
      });
  }

  function changed() {
    unsaved = true;
    if (draftTimer) clearTimeout(draftTimer);
    draftTimer = setTimeout(keepDraft, 800);
  }

  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (isBodySwap(event)) changed();  // a row added, removed, moved or retyped
  });
  form.addEventListener("submit", function () {
    submitting = true;
    // The form goes to the server whole; a draft sent after it (on pagehide) would come back
    // as a draft of what was just saved.
    if (draftTimer) clearTimeout(draftTimer);
    draftTimer = null;
  });
  window.addEventListener("beforeunload", function (event) {
    if (!unsaved || submitting) return;
    event.preventDefault();
    event.returnValue = "";  // the browser asks "Leave site? Changes you made may not be saved."
  });
  // Leaving at once after a change: the last change still reaches the draft.
  window.addEventListener("pagehide", function () {
    if (draftTimer && navigator.sendBeacon) {
      clearTimeout(draftTimer);
      draftTimer = null;
      navigator.sendBeacon(draftUrl, new FormData(form));
    }
  });
})();

// The preview can be folded to its heading, to give the grammar the whole window; the choice is
// kept for the next visit to the editor.
(function () {
  "use strict";
  var card = document.getElementById("preview-card");
  var button = card && card.querySelector(".preview-fold");
  if (!button) return;
  var KEY = "mpp.editor.previewFolded";

  function show(folded) {
    card.classList.toggle("folded", folded);
    button.setAttribute("aria-expanded", folded ? "false" : "true");
    button.textContent = folded ? "Show the pairs" : "Hide the pairs";
  }

  var stored = null;
  try {
    stored = window.localStorage.getItem(KEY);
  } catch (e) {
    stored = null;  // storage refused (private window): the preview starts unfolded
  }
  show(stored === "1");
  button.addEventListener("click", function () {
    var folded = !card.classList.contains("folded");
    show(folded);
    try {
      window.localStorage.setItem(KEY, folded ? "1" : "0");
    } catch (e) {
      // not kept: it folds for this page only
    }
  });
})();
