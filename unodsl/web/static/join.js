// Taking a seat from the host's invitation link; the page remembers the seat for next time.
"use strict";
(function () {
  const box = document.getElementById("join");
  const table = box.dataset.table, code = box.dataset.code;
  let mine = null;
  try { mine = localStorage.getItem("unodsl-seat-" + table); } catch (e) { /* private mode */ }
  if (mine) {
    const back = document.getElementById("back");
    back.querySelector("a").href = mine;
    back.hidden = false;
  }
  for (const button of document.querySelectorAll("button[data-seat]")) {
    button.addEventListener("click", async () => {
      const err = document.getElementById("join-error");
      err.hidden = true;
      const res = await fetch("/api/tables/" + encodeURIComponent(table) + "/seats", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, seat: Number(button.dataset.seat), name: document.getElementById("name").value }),
      });
      const data = await res.json();
      if (!res.ok) { err.textContent = data.error; err.hidden = false; return; }
      try { localStorage.setItem("unodsl-seat-" + table, data.url); } catch (e) { /* private mode */ }
      location.href = data.url;
    });
  }
})();
