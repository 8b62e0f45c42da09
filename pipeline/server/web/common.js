// attend serve: helpers both pages share. Plain ES2020, no dependencies.
"use strict";

const attend = (() => {
  const $ = (sel, root = document) => root.querySelector(sel);

  // el makes an element with properties and children.
  function el(tag, props = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "class") e.className = v;
      else if (k === "dataset") Object.assign(e.dataset, v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k in e) e[k] = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  // colormaps resolves to {name: Uint8Array(768)}: package vision's tables,
  // so the page colors attention as the PNG figures do.
  const colormaps = fetch("/v1/colormaps").then(r => r.json()).then(t => {
    const out = {};
    for (const [k, v] of Object.entries(t)) out[k] = Uint8Array.from(v);
    return out;
  });

  // post sends a form and returns the JSON answer, throwing the server's
  // error message. A server started with an API key answers 401: the page
  // then asks for the key once and keeps it for this tab.
  async function post(url, body, headers = {}) {
    let r;
    for (;;) {
      const key = sessionStorage.getItem("attend-api-key");
      const h = key ? { ...headers, Authorization: "Bearer " + key } : headers;
      r = await fetch(url, { method: "POST", body, headers: h });
      if (r.status !== 401) break;
      const k = prompt("This server needs its API key (serve's -api-key or $ATTEND_API_KEY):");
      if (!k) break;
      sessionStorage.setItem("attend-api-key", k.trim());
    }
    const text = await r.text();
    let data;
    try { data = JSON.parse(text); } catch { data = null; }
    if (!r.ok) {
      const msg = data && data.error ? data.error.message : text || r.statusText;
      throw new Error(`${r.status}: ${msg}`);
    }
    return data;
  }

  function status(msg, isError = false) {
    const s = $("#status");
    s.textContent = msg;
    s.classList.toggle("error", isError);
  }

  // dropZone makes zone accept dropped files and forwards them to use.
  function dropZone(zone, use) {
    for (const ev of ["dragenter", "dragover"]) {
      zone.addEventListener(ev, e => { e.preventDefault(); zone.classList.add("over"); });
    }
    for (const ev of ["dragleave", "drop"]) {
      zone.addEventListener(ev, () => zone.classList.remove("over"));
    }
    zone.addEventListener("drop", e => {
      e.preventDefault();
      const f = e.dataTransfer.files[0];
      if (f) use(f);
    });
  }

  // wordKeys moves focus between the word buttons of a container with
  // the arrow keys, Home and End.
  function wordKeys(container) {
    container.addEventListener("keydown", e => {
      const words = [...container.querySelectorAll(".word")];
      const i = words.indexOf(document.activeElement);
      if (i < 0) return;
      let j = -1;
      if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(i + 1, words.length - 1);
      else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(i - 1, 0);
      else if (e.key === "Home") j = 0;
      else if (e.key === "End") j = words.length - 1;
      if (j >= 0) { e.preventDefault(); words[j].focus(); }
    });
  }

  // legend draws a colormap as a horizontal bar.
  function legend(canvas, lut) {
    canvas.width = 256; canvas.height = 1;
    const ctx = canvas.getContext("2d");
    const img = ctx.createImageData(256, 1);
    for (let i = 0; i < 256; i++) {
      img.data.set([lut[3 * i], lut[3 * i + 1], lut[3 * i + 2], 255], 4 * i);
    }
    ctx.putImageData(img, 0, 0);
  }

  const fmt = (x, d = 2) => Number(x).toFixed(d);

  return { $, el, colormaps, post, status, dropZone, wordKeys, legend, fmt };
})();
