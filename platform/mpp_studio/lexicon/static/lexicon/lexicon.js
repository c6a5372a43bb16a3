// Schema YAML page: a click on "line N" in the problem list selects that line in the text.
document.addEventListener("click", (event) => {
  const link = event.target.closest("[data-line]");
  const text = document.getElementById("schema-text");
  if (!link || !text) return;
  event.preventDefault();
  const lines = text.value.split("\n");
  const number = Math.min(Number(link.dataset.line), lines.length);
  const start = lines.slice(0, number - 1).reduce((sum, line) => sum + line.length + 1, 0);
  text.focus();
  text.setSelectionRange(start, start + lines[number - 1].length);
  const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 20;
  text.scrollTop = Math.max(0, (number - 3) * lineHeight);
});
