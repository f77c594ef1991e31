// Opening a table: the game, its house rules, options and seats, all chosen from what the server
// says the rules declare. The server checks everything again.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let bundled = null, ownInfo = null, seats = [];

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  const usingOwn = () => document.querySelector("input[name=source]:checked").value === "own";
  const chosen = () => bundled.rulesets.find((r) => r.name === $("ruleset").value);

  function rulesInfo() { return usingOwn() ? ownInfo : chosen(); }

  function optionControl(o, prefix) {
    const id = prefix + o.name;
    let input;
    if (o.choices && o.choices.length) {
      input = el("select", { id, "data-option": o.name }, ...o.choices.map((c) => el("option", { value: c, selected: c === o.value }, String(c))));
    } else if (o.value === "yes" || o.value === "no") {
      input = el("select", { id, "data-option": o.name },
        el("option", { value: "yes", selected: o.value === "yes" }, "yes"), el("option", { value: "no", selected: o.value === "no" }, "no"));
    } else if (typeof o.value === "number") {
      input = el("input", { id, type: "number", value: o.value, "data-option": o.name, inputmode: "numeric" });
    } else {
      input = el("input", { id, value: o.value, "data-option": o.name });
    }
    return el("div", { class: "option" }, el("label", { for: id }, el("span", { class: "doc" }, o.doc || "An option of these rules"), input));
  }

  function drawOptions() {
    const box = $("options");
    const info = rulesInfo();
    const list = info ? info.options.slice() : [];
    for (const m of bundled.modules) {
      const box2 = document.querySelector("input[data-module='" + m.name + "']");
      if (box2 && box2.checked) list.push(...m.options);
    }
    box.replaceChildren(...(list.length ? list.map((o) => optionControl(o, "opt-")) : [el("p", { class: "about" }, "These rules have no options.")]));
    $("about").textContent = !usingOwn() && info ? info.about : "";
    const players = info ? info.players : [2, 10];
    while (seats.length < Math.max(players[0], Math.min(4, players[1]))) seats.push(newSeat(seats.length));
    while (seats.length > players[1]) seats.pop();
    drawSeats();
  }

  function newSeat(i) { return { kind: i === 0 ? "human" : (i === 1 ? "human" : "basic"), name: i === 0 ? "" : "" }; }

  function drawSeats() {
    const box = $("seats");
    box.replaceChildren(...seats.map((s, i) => {
      const kind = el("select", { "aria-label": "Seat " + (i + 1), "data-seat-kind": i, onchange: (e) => { s.kind = e.target.value; drawSeats(); } },
        el("option", { value: "human", selected: s.kind === "human" }, i === 0 ? "You" : "A person"),
        ...bundled.bots.map((b) => el("option", { value: b.spec, selected: s.kind === b.spec }, "Bot (" + b.title + ")")));
      const name = el("input", { placeholder: s.kind === "human" ? (i === 0 ? "Your name" : "Their name (or they choose)") : "Bot " + (i + 1),
        value: s.name, maxlength: 24, "aria-label": "Name for seat " + (i + 1), oninput: (e) => { s.name = e.target.value; } });
      return el("div", { class: "seatrow" }, el("b", {}, String(i + 1)), kind, name);
    }));
    const info = rulesInfo();
    const players = info ? info.players : [2, 10];
    $("add-seat").disabled = seats.length >= players[1];
    $("remove-seat").disabled = seats.length <= players[0];
  }

  let checkTimer = null;
  function checkOwn() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(async () => {
      const text = $("own-text").value;
      if (!text.trim()) { ownInfo = null; $("own-status").textContent = ""; drawOptions(); return; }
      $("own-status").textContent = "Checking…";
      const res = await fetch("/api/check", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ source: text, modules: chosenModules() }) });
      const data = await res.json();
      if (data.error) { ownInfo = null; $("own-status").textContent = data.error; }
      else if (data.errors) { ownInfo = null; $("own-status").textContent = data.diagnostics.map((d) => d.rendered).join("\n\n"); }
      else { ownInfo = data; $("own-status").textContent = "Ready: " + data.title + " (" + data.players[0] + " to " + data.players[1] + " players)."; }
      drawOptions();
    }, 400);
  }

  function chosenModules() {
    return [...document.querySelectorAll("input[data-module]:checked")].map((b) => b.dataset.module);
  }

  async function start() {
    bundled = await (await fetch("/api/rulesets")).json();
    $("ruleset").replaceChildren(...bundled.rulesets.map((r) => el("option", { value: r.name }, r.title)));
    $("modules").replaceChildren(...bundled.modules.map((m) => el("label", { class: "choice" },
      el("input", { type: "checkbox", "data-module": m.name, onchange: drawOptions }), " " + m.title,
      el("span", { class: "about" }, m.about ? " — " + m.about : ""))));
    let fromEditor = null;
    try { fromEditor = sessionStorage.getItem("unodsl-editor-rules"); } catch (e) { /* private mode */ }
    if (fromEditor && new URLSearchParams(location.search).get("rules") === "editor") {
      document.querySelector("input[value=own]").checked = true;
      $("own-text").value = fromEditor;
    }
    for (const radio of document.querySelectorAll("input[name=source]")) radio.addEventListener("change", () => {
      $("own").hidden = !usingOwn(); $("ruleset").disabled = usingOwn(); drawOptions(); if (usingOwn()) checkOwn();
    });
    $("own").hidden = !usingOwn(); $("ruleset").disabled = usingOwn();
    $("ruleset").addEventListener("change", drawOptions);
    $("own-text").addEventListener("input", checkOwn);
    $("own-file").addEventListener("change", async (e) => {
      const file = e.target.files[0];
      if (!file) return;
      if (file.size > 200000) { $("own-status").textContent = "That file is larger than 200 kB."; return; }
      $("own-text").value = await file.text();
      checkOwn();
    });
    $("add-seat").addEventListener("click", () => { seats.push(newSeat(seats.length)); drawSeats(); });
    $("remove-seat").addEventListener("click", () => { seats.pop(); drawSeats(); });
    $("copy").addEventListener("click", () => { $("share-link").select(); navigator.clipboard && navigator.clipboard.writeText($("share-link").value); });
    $("create").addEventListener("submit", create);
    drawOptions();
    if (usingOwn()) checkOwn();
  }

  async function create(ev) {
    ev.preventDefault();
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) options[input.dataset.option] = input.value;
    const body = { modules: chosenModules(), options,
      seats: seats.map((s) => ({ kind: s.kind, name: s.name })), host_seat: seats[0].kind === "human" ? 0 : null };
    if (usingOwn()) body.source = $("own-text").value; else body.ruleset = $("ruleset").value;
    $("open").disabled = true;
    const err = $("create-error");
    err.hidden = true;
    try {
      const res = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const data = await res.json();
      if (!res.ok) { err.textContent = data.error + (data.diagnostics ? "\n" + data.diagnostics : ""); err.hidden = false; return; }
      $("create").hidden = true;
      $("created").hidden = false;
      $("share-link").value = location.origin + data.join;
      if (data.seat) $("go-seat").href = data.seat; else $("go-seat").hidden = true;
    } finally { $("open").disabled = false; }
  }
  start();
})();
