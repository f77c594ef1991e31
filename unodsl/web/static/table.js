// A seat's page: draws what the server says this seat may see, and sends back the move tapped.
// No rule lives here: every button is one of the `moves` the server listed for this seat.
"use strict";
(function () {
  const root = document.getElementById("table");
  const tableId = root.dataset.table, seat = Number(root.dataset.seat);
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  let socket = null, state = null, armedCall = false, retry = 500, fatal = false, chooserCard = null;

  try { localStorage.setItem("unodsl-seat-" + tableId, location.pathname + location.search); } catch (e) { /* private mode */ }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "style") node.setAttribute("style", v);
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  function cardNode(card, opts) {
    opts = opts || {};
    const tag = opts.onclick ? "button" : "div";
    const node = el(tag, {
      class: "card" + (card.wild ? " wild" : "") + (opts.big ? " big" : "") + (opts.cls ? " " + opts.cls : ""),
      style: "background:" + card.css + ";--c:" + card.css, title: card.name, "aria-label": card.name,
      "data-code": card.code, onclick: opts.onclick, type: opts.onclick ? "button" : null,
    }, el("small", {}, card.face), el("span", {}, card.face), card.kind && card.kind !== card.face ? el("em", {}, card.kind) : null);
    return node;
  }

  function send(move) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { toast("Not connected: trying again…"); return; }
    socket.send(JSON.stringify({ move: move.move, v: state ? state.v : null }));
    armedCall = false;
    closeChooser();
  }

  function toast(text) {
    const t = $("toast");
    t.textContent = text; t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
  }

  function closeChooser() { chooserCard = null; $("chooser").hidden = true; $("chooser").replaceChildren(); }

  function openChooser(code, options) {
    chooserCard = code;
    const box = $("chooser");
    const asks = options.some((m) => m.color) ? "Choose a color" : "Choose a player";
    box.replaceChildren(el("p", {}, options[0].label + ": " + asks.toLowerCase()));
    for (const m of options) {
      const words = [m.color ? m.color.title : null, m.target ? m.target : null].filter(Boolean).join(", ");
      const attrs = { type: "button", onclick: () => send(m), "data-move": m.move };
      if (m.color && !m.target) {
        attrs.class = "swatch"; attrs.style = "background:" + m.color.css; attrs["aria-label"] = words; attrs.title = words;
        box.append(el("button", attrs));
      } else {
        box.append(el("button", attrs, words));
      }
    }
    box.append(el("button", { type: "button", onclick: closeChooser }, "Cancel"));
    box.hidden = false;
  }

  function tapCard(code) {
    const plays = state.moves.filter((m) => m.kind === "play" && m.card === code && !!m.call === armedCall);
    const any = plays.length ? plays : state.moves.filter((m) => m.kind === "play" && m.card === code && !m.call);
    if (!any.length) { toast("That card cannot be played now."); return; }
    if (any.length === 1) send(any[0]); else openChooser(code, any);
  }

  function render(s) {
    state = s;
    root.dataset.v = s.v;                   // which state is shown (tests wait on it)
    $("round").textContent = s.round ? "Round " + s.round : "";
    const players = $("players");
    players.replaceChildren(...s.players.map((p) => el("li", {
      class: (p.turn ? "turn " : "") + (p.you ? "you" : ""), "data-seat": p.seat },
      el("span", { class: "pname" + (p.online ? "" : " away") }, p.name, p.bot ? el("span", { class: "botmark" }, "bot") : null),
      el("span", { class: "count" }, p.cards + (p.cards === 1 ? " card" : " cards")),
      el("span", { class: "score" }, " · " + p.score + " pts"))));
    $("pile").replaceChildren(s.top ? cardNode(s.top, { big: true }) : el("p", {}, "No card yet"));
    $("color").replaceChildren(...(s.color ? [el("i", { style: "background:" + s.color.css }), s.color.title] : []));
    $("direction").textContent = s.direction === "clockwise" ? "↻ clockwise" : "↺ counterclockwise";
    $("stock").textContent = "Stock: " + s.stock;
    $("prompt").textContent = s.prompt;

    const q = $("question");
    if (s.question) {
      q.replaceChildren(el("p", {}, s.question.text), ...s.question.answers.map((a) =>
        el("button", { type: "button", title: a.doc, "data-move": a.move,
          onclick: () => send({ move: a.move }) }, a.label + (a.doc ? ": " + a.doc : ""))));
      q.hidden = false;
    } else { q.hidden = true; q.replaceChildren(); }

    const actions = $("actions");
    const buttons = [];
    const calls = s.moves.filter((m) => m.kind === "play" && m.call);
    if (calls.length) {
      buttons.push(el("button", { type: "button", class: "call" + (armedCall ? " armed" : ""), id: "arm-call",
        onclick: () => { armedCall = !armedCall; render(state); } },
        armedCall ? `${calls[0].call.toUpperCase()}! tap the card to play` : `Say ${calls[0].call.toUpperCase()} with my card`));
    }
    for (const m of s.moves) {
      if (m.kind === "play" || (s.question && m.kind === "answer")) continue;
      if (m.kind === "window" && m.card) {
        buttons.push(el("button", { type: "button", title: m.doc || "", "data-move": m.move, onclick: () => send(m) }, m.label));
        continue;
      }
      const attrs = { type: "button", "data-move": m.move, onclick: () => send(m), title: m.doc || "" };
      if (m.kind === "window" && !m.card && m.label.endsWith("!")) attrs.class = "call";
      if (m.kind === "color") { attrs.class = "swatch"; attrs.style = "background:" + m.color.css; attrs["aria-label"] = m.label; attrs.title = m.label; buttons.push(el("button", attrs)); continue; }
      buttons.push(el("button", attrs, m.label));
    }
    actions.replaceChildren(...buttons);

    const playable = new Set(s.moves.filter((m) => m.kind === "play").map((m) => m.card));
    $("hand").replaceChildren(...s.hand.map((c) => cardNode(c, {
      cls: playable.has(c.code) ? "can" : "cannot", onclick: () => tapCard(c.code) })));
    if (chooserCard && !playable.has(chooserCard)) closeChooser();

    $("revealed").replaceChildren(...s.revealed.map((r) => el("div", { class: "revealed" },
      el("p", {}, r.text), el("div", { class: "hand" }, ...r.cards.map((c) => cardNode(c))))));

    const log = $("log");
    log.replaceChildren(...s.log.slice().reverse().map((line) => el("li", {}, line)));

    const res = $("result");
    if (s.result && (s.round_over || s.game_over)) {
      const rows = s.result.points.map((p) => el("tr", {}, el("td", {}, p.name), el("td", {}, (p.points > 0 ? "+" : "") + p.points)));
      const head = s.game_over ? (s.result.game_winners.length ? "Game over: " + s.result.game_winners.join(" and ") + " won" : "Game over")
        : (s.result.winner ? s.result.winner + " won round " + s.round : "Round " + s.round + " ended");
      res.replaceChildren(el("h2", {}, head), el("table", {}, ...rows));
      res.hidden = false;
    } else { res.hidden = true; }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId) + "/" + seat +
      "?token=" + encodeURIComponent(token));
    socket.onopen = () => { retry = 500; $("link").className = "dot on"; $("link").title = "Connected"; };
    socket.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") render(msg);
      else if (msg.type === "error") { toast(msg.message); if (msg.fatal) fatal = true; }
    };
    socket.onclose = () => {
      $("link").className = "dot off"; $("link").title = "Reconnecting";
      if (!fatal) { setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); }
    };
  }
  connect();
})();
