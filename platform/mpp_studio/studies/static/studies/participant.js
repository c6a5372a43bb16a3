// The participant's session: one trial at a time, each answer POSTed and confirmed by the
// server before the next trial is shown. Only the trial's public view ever arrives here.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("study-config").textContent);
  const S = config.strings;
  const $ = (id) => document.getElementById(id);
  const csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1] || "";
  let current = null;      // the payload of the trial on screen
  let shownAt = 0;         // performance.now() when it appeared
  let picked = null;       // the answer ({choice} or {rating}) waiting for a confidence rating
  let ranking = [];        // rank3: displayed indices, best first
  let busy = false;

  function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
  function format(text, values) { return text.replace(/\{(\w+)\}/g, (_, k) => String(values[k])); }

  // The server's own words for a 5xx answer (e.g. "The server is busy..."), when it sent some.
  async function serverMessage(response) {
    const data = await response.json().catch(() => ({}));
    return typeof data.error === "string" && data.error ? data.error : "";
  }

  // Fetch with retries on network failure or a server error (5xx); after a 429 (too many
  // requests) it waits as long as the server's Retry-After says; any other 4xx answer is final.
  // A 503 with Retry-After is a busy server (another save held the database): it is resent after
  // that wait without a word to the participant, unless the server stays busy for 30 s. While
  // retrying, the participant reads the server's message when it gave one, and "No connection"
  // only when no answer came at all.
  async function request(url, options) {
    let wait = 500;
    let busySince = 0;
    for (let attempt = 0; ; attempt++) {
      let said = S.retrying;
      try {
        const response = await fetch(url, Object.assign({ credentials: "same-origin", cache: "no-store" }, options));
        if (response.status === 503 && response.headers.get("Retry-After")) {
          const seconds = Math.min(Math.max(Number(response.headers.get("Retry-After")) || 2, 1), 30);
          const message = await serverMessage(response);
          busySince = busySince || performance.now();
          if (performance.now() - busySince > 30000) $("status").textContent = message || S.retrying;
          await sleep(seconds * 1000);
          continue;
        }
        if (response.status === 429) {
          const seconds = Math.min(Math.max(Number(response.headers.get("Retry-After")) || 5, 1), 120);
          $("status").textContent = format(S.waiting, { seconds: seconds });
          await sleep(seconds * 1000 + 200);
          continue;
        }
        if (response.status < 500) {
          const data = await response.json().catch(() => ({}));
          return { status: response.status, data: data };
        }
        said = (await serverMessage(response)) || S.save_failed;
      } catch (error) { /* offline: retry */ }
      if (attempt > 0) $("status").textContent = said;
      await sleep(wait);
      wait = Math.min(wait * 2, 8000);
    }
  }

  function showProblem(data) {
    const status = $("status");
    status.textContent = data.error || S.save_failed;
    if (data.restart_url) {
      const link = document.createElement("a");
      link.href = data.restart_url;
      link.textContent = " ↻";
      status.appendChild(link);
    }
  }

  function progress(number, total) {
    $("progress-bar").style.width = (100 * (number - 1) / Math.max(1, total)) + "%";
    $("progress-text").textContent = format(S.progress, { n: number, total: total });
  }

  function render(payload) {
    if (payload.done) { window.location.assign(config.urls.done); return; }
    current = payload;
    picked = null;
    ranking = [];
    busy = false;
    const trial = payload.trial;
    progress(payload.number, payload.total);
    $("instructions").hidden = true;
    $("trial").hidden = false;
    $("feedback").hidden = true;
    $("confidence").hidden = true;
    document.querySelectorAll("#confidence button").forEach((b) => { b.disabled = false; });
    $("status").textContent = "";
    $("practice-label").hidden = !payload.practice;
    const questions = { rank3: S.question_rank3, rating: S.question_rating, magnitude: S.question_magnitude };
    $("question").textContent = questions[trial.task] || S.question_2afc;
    $("rank-reset").hidden = trial.task !== "rank3";
    const box = $("choices");
    box.textContent = "";
    box.className = "choices " + (trial.task === "2afc" ? "" : trial.task);
    if (trial.task === "rating") renderScale(box, trial);
    else if (trial.task === "magnitude") renderMagnitude(box, trial);
    else renderChoices(box, trial);
    shownAt = performance.now();
    window.scrollTo(0, 0);
  }

  function sentenceBlock(text, className) {
    const block = document.createElement("p");
    block.className = className;
    block.lang = config.lang;
    block.textContent = text;
    return block;
  }

  // A Likert scale: the sentence, then one button per point in a single row; labels in every
  // point when the researcher wrote one per point, else under the row's two ends.
  function renderScale(box, trial) {
    box.appendChild(sentenceBlock(trial.sentences[0], "rated-sentence"));
    const points = trial.scale_points;
    const labels = config.scale_labels || [];
    const perPoint = labels.length === points;
    const row = document.createElement("div");
    row.className = "scale" + (perPoint ? " labelled" : "");
    row.style.gridTemplateColumns = "repeat(" + points + ", minmax(0, 1fr))";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", S.question_rating);
    for (let value = 1; value <= points; value++) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "scale-point";
      button.dataset.value = String(value);
      const number = document.createElement("span");
      number.className = "point-number";
      number.textContent = String(value);
      button.appendChild(number);
      const label = perPoint ? labels[value - 1] : (value === 1 ? labels[0] : (value === points ? labels[1] : ""));
      if (label && perPoint) {
        const caption = document.createElement("span");
        caption.className = "point-label";
        caption.textContent = label;
        button.appendChild(caption);
      }
      button.setAttribute("aria-label", format(S.scale_point, { n: value, points: points }) + (label ? ": " + label : ""));
      button.addEventListener("click", () => rate(value, button));
      row.appendChild(button);
    }
    box.appendChild(row);
    if (!perPoint && labels.length === 2) {
      const ends = document.createElement("div");
      ends.className = "scale-ends";
      ends.setAttribute("aria-hidden", "true");
      ends.append(sentenceBlock(labels[0], "scale-end low"), sentenceBlock(labels[1], "scale-end high"));
      box.appendChild(ends);
    }
  }

  // Magnitude estimation: the reference sentence with its number, the sentence, a number box.
  function renderMagnitude(box, trial) {
    const reference = document.createElement("div");
    reference.className = "reference";
    reference.appendChild(sentenceBlock(format(S.magnitude_reference, { value: trial.reference_value }), "reference-label"));
    reference.appendChild(sentenceBlock(trial.reference_sentence, "reference-sentence"));
    box.appendChild(reference);
    box.appendChild(sentenceBlock(trial.sentences[0], "rated-sentence"));
    const form = document.createElement("form");
    form.className = "magnitude-form";
    form.noValidate = true;
    const label = document.createElement("label");
    label.htmlFor = "magnitude-input";
    label.textContent = S.magnitude_label;
    const input = document.createElement("input");
    input.id = "magnitude-input";
    input.type = "text";
    input.inputMode = "decimal";
    input.autocomplete = "off";
    const hint = sentenceBlock(S.magnitude_hint, "meta magnitude-hint");
    const send = document.createElement("button");
    send.type = "submit";
    send.className = "big";
    send.textContent = S.next;
    form.append(label, input, hint, send);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = magnitudeOf(input.value);
      if (value === null || value <= 0 || value > 1e6) {
        $("status").textContent = S.magnitude_invalid;
        input.focus();
        return;
      }
      rate(value, send);
    });
    box.appendChild(form);
    input.focus();
  }

  // A typed magnitude: digits with one decimal point or comma ("1.5", "1,5"), or thousands
  // separated by commas ("1,000" is a thousand, never 1); anything else is asked again (null).
  function magnitudeOf(text) {
    const typed = String(text).trim().replace(/\s/g, "");
    if (/^\d{1,3}(,\d{3})+$/.test(typed)) return Number(typed.replace(/,/g, ""));
    if (/^\d+([.,]\d+)?$/.test(typed) || /^\d*[.]\d+$/.test(typed)) return Number(typed.replace(",", "."));
    return null;
  }

  function renderChoices(box, trial) {
    trial.sentences.forEach((sentence, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      button.lang = config.lang;
      button.dataset.index = String(index);
      button.setAttribute("aria-label", format(S.trial_label, { n: index + 1 }) + ": " + sentence);
      const rank = document.createElement("span");
      rank.className = "rank";
      rank.setAttribute("aria-hidden", "true");
      const text = document.createElement("span");
      text.className = "sentence";
      text.textContent = sentence;
      button.append(rank, text);
      button.addEventListener("click", () => choose(index, button));
      box.appendChild(button);
    });
  }

  function setButtons(enabled) {
    document.querySelectorAll("#choices button, #choices input, #confidence button").forEach((b) => { b.disabled = !enabled; });
  }

  function rate(value, button) {
    if (busy || !current) return;
    document.querySelectorAll("#choices .scale-point").forEach((b) => b.classList.toggle("picked", b === button));
    if (current.trial.confidence) {
      picked = { rating: value };
      $("confidence").hidden = false;
      return;
    }
    submit({ rating: value }, null);
  }

  function choose(index, button) {
    if (busy || !current) return;
    const trial = current.trial;
    if (trial.task === "rank3") {
      if (ranking.includes(index)) return;
      ranking.push(index);
      button.classList.add("ranked");
      button.querySelector(".rank").textContent = String(ranking.length);
      if (ranking.length === trial.sentences.length) {
        if (trial.confidence) { picked = { choice: ranking.slice() }; $("confidence").hidden = false; }
        else submit({ choice: ranking.slice() }, null);
      }
      return;
    }
    if (trial.confidence) {
      picked = { choice: index };
      document.querySelectorAll("#choices .choice").forEach((b) => b.classList.toggle("picked", b === button));
      $("confidence").hidden = false;
      return;
    }
    button.classList.add("picked");
    submit({ choice: index }, null);
  }

  // `answer` is {choice: index or ranking} or {rating: value}.
  async function submit(answer, confidence) {
    busy = true;
    setButtons(false);
    $("status").textContent = S.saving;
    const body = Object.assign({
      trial_index: current.trial.trial_index,
      confidence: confidence,
      rt_ms: Math.round(performance.now() - shownAt),
    }, answer);
    const result = await request(config.urls.answer, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
    if (result.status !== 200 && result.status !== 201) {
      showProblem(result.data);
      if (result.status === 409) { await sleep(1500); load(); }
      return;
    }
    $("status").textContent = "";
    const data = result.data;
    const next = () => {
      if (data.done_url) { window.location.assign(data.done_url); } else { render(data.next); }
    };
    if (data.feedback) {
      if (data.expected) $("feedback-text").textContent = data.expected === "high" ? S.feedback_high : S.feedback_low;
      else $("feedback-text").textContent = data.feedback === "right" ? S.feedback_right : S.feedback_wrong;
      $("feedback").hidden = false;
      $("confidence").hidden = true;
      $("feedback-next").onclick = next;
      $("feedback-next").focus();
    } else {
      next();
    }
  }

  async function load() {
    const result = await request(config.urls.trial, { method: "GET" });
    if (result.status !== 200) { $("trial").hidden = false; showProblem(result.data); return; }
    render(result.data);
  }

  document.querySelectorAll("#confidence .conf").forEach((button) => {
    button.addEventListener("click", () => {
      if (busy || picked === null) return;
      submit(picked, Number(button.dataset.level));
    });
  });
  $("rank-reset").addEventListener("click", () => {
    if (busy || !current) return;
    ranking = [];
    picked = null;
    $("confidence").hidden = true;
    document.querySelectorAll("#choices .choice").forEach((b) => {
      b.classList.remove("ranked");
      b.querySelector(".rank").textContent = "";
    });
  });
  // Keys as well as buttons: F or 1 for the first sentence, J or 2 for the second, 3 for the
  // third; on a rating scale, the digit of a point (1 to 9). Typing a magnitude is left alone.
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !current || $("trial").hidden) return;
    if (current.trial.task === "magnitude") return;
    if (current.trial.task === "rating") {
      const point = document.querySelector('#choices .scale-point[data-value="' + event.key + '"]');
      if (point && $("feedback").hidden) { event.preventDefault(); point.click(); }
      return;
    }
    const keys = { f: 0, "1": 0, j: 1, "2": 1, "3": 2 };
    const index = keys[event.key.toLowerCase()];
    const buttons = document.querySelectorAll("#choices .choice");
    if (index === undefined || index >= buttons.length || !$("feedback").hidden) return;
    event.preventDefault();
    buttons[index].click();
  });
  if ($("instructions").hidden) {
    load();
  } else {
    $("start-button").addEventListener("click", load);
    $("start-button").disabled = false;
  }
})();
