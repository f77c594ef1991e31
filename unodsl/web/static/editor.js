// Writing a variant: the same diagnostics as `unodsl check` as you type (line, caret, hint), the
// rule sheet beside the text, and a button that opens a table with the rules.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const source = $("source"), gutter = $("gutter");
  const STARTER = [
    "# A variant of classic UNO: change what you like, the checker answers as you type.",
    'ruleset my-variant "My variant" extends classic {',
    '  about "Classic UNO where a Skip also makes the next player draw a card."',
    "",
    '  on play skip "The next player draws a card and loses their turn." {',
    "    next draws 1",
    "    skip next",
    "  }",
    "}",
    "",
  ].join("\n");
  let marks = {}, timer = null, seq = 0, ok = false;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c);
    return node;
  }

  function drawGutter() {
    const lines = source.value.split("\n").length;
    const rows = [];
    for (let i = 1; i <= lines; i++) {
      rows.push(marks[i] ? el("b", { class: marks[i], "data-line": i, title: "A mistake on line " + i }, String(i))
        : el("span", {}, String(i)));
    }
    gutter.replaceChildren(...rows);
    gutter.scrollTop = source.scrollTop;
  }

  function goTo(line, col) {
    const lines = source.value.split("\n");
    let pos = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
    pos += Math.max(0, (col || 1) - 1);
    source.focus();
    source.setSelectionRange(pos, pos + 1);
  }

  async function check() {
    const mine = ++seq;
    const text = source.value;
    try { localStorage.setItem("unodsl-editor-text", text); } catch (e) { /* private mode */ }
    $("status").textContent = "Checking…"; $("status").className = "status";
    const res = await fetch("/api/check", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ source: text, sheet: true }) });
    const data = await res.json();
    if (mine !== seq) return;                       // a newer check is on its way
    marks = {};
    const list = $("diagnostics");
    const items = [];
    if (data.error) items.push(el("li", {}, el("pre", {}, data.error)));
    for (const d of data.diagnostics || []) {
      const here = d.file === "rules.uno" || !d.file;
      if (here && d.line) marks[d.line] = marks[d.line] === "error" ? "error" : d.severity;
      items.push(el("li", { class: d.severity, "data-line": d.line },
        el("pre", { onclick: () => here && d.line && goTo(d.line, d.col) }, d.rendered)));
    }
    list.replaceChildren(...items);
    drawGutter();
    ok = !data.errors && !data.error;
    $("open-table").disabled = !ok;
    if (ok) {
      $("status").textContent = "No mistakes: " + data.title; $("status").className = "status good";
      if (data.sheet) $("sheet").srcdoc = data.sheet;
    } else {
      const n = (data.diagnostics || []).filter((d) => d.severity === "error").length || 1;
      $("status").textContent = n + (n === 1 ? " mistake" : " mistakes"); $("status").className = "status bad";
    }
  }

  function changed() { drawGutter(); clearTimeout(timer); timer = setTimeout(check, 450); }

  let saved = null;
  try { saved = localStorage.getItem("unodsl-editor-text"); } catch (e) { /* private mode */ }
  source.value = saved || STARTER;
  source.addEventListener("input", changed);
  source.addEventListener("scroll", () => { gutter.scrollTop = source.scrollTop; });
  source.addEventListener("keydown", (e) => {
    if (e.key === "Tab") { e.preventDefault(); document.execCommand("insertText", false, "  "); }
  });
  $("start").addEventListener("change", (e) => {
    if (e.target.value === "blank") { source.value = STARTER; changed(); }
  });
  $("open-table").addEventListener("click", () => {
    try { sessionStorage.setItem("unodsl-editor-rules", source.value); } catch (e) { /* private mode */ }
    location.href = "/?rules=editor";
  });
  drawGutter();
  check();
})();
