// attend caption serve: caption a photo and show, for the word hovered
// or focused, its attention over the photo as "caption overlay" draws
// it: the 7×7 weights upsampled (bilinear, Gaussian or nearest),
// colormapped and blended with opacity alpha·(0.2 + 0.8·v), or the photo
// dimmed where the model did not look (mask).
"use strict";

(() => {
  const { $, el, colormaps, post, status, dropZone, wordKeys, legend, fmt } = attend;
  const SIGMA = 1.25; // cells: vision.DefaultSigma, Xu et al.'s σ
  const MAX_SIDE = 720;
  const shownAlternatives = 5; // candidates listed before "show N more"
  let photo = null;   // ImageBitmap of the upload
  let answer = null;  // the server's CaptionAnswer
  let active = -1;
  let axes = null;    // cached interpolation matrices for the canvas size and smoothing

  async function caption(file) {
    status(`Captioning ${file.name || "image"}…`);
    const form = new FormData();
    form.append("file", file, file.name || "image");
    if ($("#beam").value) form.append("beam", $("#beam").value); // else the server's default
    try {
      const [a, bmp] = await Promise.all([post("/v1/captions", form), createImageBitmap(file)]);
      photo = bmp; answer = a; axes = null; active = -1;
      await show();
      status(`${file.name || "image"} (${a.width}×${a.height}): ${fmt(a.seconds, 3)} s on the server · beam ${a.beam} · model ${a.model}`);
    } catch (e) {
      status(String(e.message || e), true);
    }
  }

  async function show() {
    $("#result").hidden = false;
    const a = answer;
    const cap = $("#caption");
    cap.replaceChildren();
    a.words.forEach((w, i) => {
      // The bar is how much the image counted: the gate β, or, with
      // adaptive attention, 1 − the sentinel weight (how much it looked).
      const look = looked(i);
      const bar = el("span", { class: "bar" }, el("i"));
      bar.firstChild.style.width = look === null ? "0" : `${Math.round(look * 100)}%`;
      const b = el("button", { type: "button", class: "word", dataset: { index: i },
        title: weightText(i) || w }, w, bar);
      b.addEventListener("mouseenter", () => activate(i));
      b.addEventListener("focus", () => activate(i));
      cap.append(b);
    });
    if (!a.words.length) cap.append(el("span", { class: "hint" }, "(no words)"));
    const alts = $("#alternatives");
    alts.replaceChildren(...a.alternatives.map((h, i) => el("li", i < shownAlternatives ? {} : { class: "extra" },
      i === 0 ? el("strong", {}, h.caption) : h.caption, " ",
      el("span", { class: "score" }, `${h.consensus !== undefined ? `consensus ${fmt(h.consensus, 3)} · ` : ""}score ${fmt(h.score, 3)} · log p ${fmt(h.log_prob, 2)}${h.finished ? "" : " · unfinished"}`))));
    // A wide beam's candidates past the first few wait behind a button.
    alts.classList.remove("all");
    const more = $("#more-alternatives"), hidden = a.alternatives.length - shownAlternatives;
    more.hidden = hidden <= 0;
    more.textContent = `show ${hidden} more`;
    showConfidence(a);
    activate(a.words.length ? 0 : -1, true);
  }

  // looked returns how much word i's context came from the image, or null.
  function looked(i) {
    const s = answer.sentinel ? answer.sentinel[i] : undefined;
    if (s !== undefined) return s === null ? null : 1 - s;
    return answer.beta[i];
  }

  // weightText says word i's gate β or sentinel weight ("" for neither).
  function weightText(i) {
    const s = answer.sentinel ? answer.sentinel[i] : null;
    if (s !== null && s !== undefined) return `sentinel ${fmt(s)} · looked ${Math.round((1 - s) * 100)}%`;
    const beta = answer.beta[i];
    return beta === null ? "" : `β = ${fmt(beta)}`;
  }

  // showConfidence says how far to trust the caption, plainly when it is
  // low, and lists the encoder's own labels.
  function showConfidence(a) {
    const c = $("#confidence");
    c.classList.toggle("low", a.low_confidence);
    c.textContent = `confidence ${fmt(a.confidence, 2)}` +
      (a.familiarity !== undefined ? ` · familiarity ${fmt(a.familiarity, 2)} (the nearest training photo)` : "") +
      (a.low_confidence ? ` — ${a.note || "low confidence"}, so the caption is likely wrong.` : "");
    $("#labels").replaceChildren(...a.labels.map(l => el("li", {}, l.label, " ", el("span", { class: "score" }, fmt(l.prob, 2)))));
  }

  function activate(i, force = false) {
    if (i === active && !force) return;
    active = i;
    document.querySelectorAll("#caption .word").forEach((b, k) => b.classList.toggle("active", k === i));
    draw();
  }

  // axisWeights returns the n × cells matrix taking grid cells to pixel
  // positions along one axis: nearest, bilinear between cell centers
  // (edges hold), or bilinear then a Gaussian of SIGMA cells mirrored at
  // the border, as vision.Heatmap computes them.
  function axisWeights(n, cells, smoothing) {
    const m = new Float32Array(n * cells);
    for (let p = 0; p < n; p++) {
      if (smoothing === "nearest") {
        m[p * cells + Math.min(cells - 1, Math.floor((p + 0.5) / n * cells))] = 1;
        continue;
      }
      const u = Math.min(Math.max((p + 0.5) / n * cells - 0.5, 0), cells - 1);
      const i0 = Math.floor(u), f = u - i0;
      m[p * cells + i0] += 1 - f;
      if (f > 0) m[p * cells + i0 + 1] += f;
    }
    if (smoothing !== "gaussian") return m;
    const s = SIGMA * n / cells, r = Math.ceil(4 * s);
    const k = new Float32Array(2 * r + 1);
    let sum = 0;
    for (let d = -r; d <= r; d++) sum += (k[d + r] = Math.exp(-0.5 * (d / s) ** 2));
    k.forEach((v, j) => (k[j] = v / sum));
    const out = new Float32Array(n * cells);
    const mirror = q => { while (q < 0 || q >= n) q = q < 0 ? -q - 1 : 2 * n - q - 1; return q; };
    for (let p = 0; p < n; p++) {
      for (let d = -r; d <= r; d++) {
        const q = mirror(p + d), w = k[d + r];
        for (let c = 0; c < cells; c++) out[p * cells + c] += w * m[q * cells + c];
      }
    }
    return out;
  }

  // field computes Y·G·Xᵀ over the region: the attention of word i at
  // each pixel of a rw × rh region.
  function field(i, rw, rh, smoothing) {
    const a = answer, rows = a.grid_h, cols = a.grid_w;
    const key = `${rw}x${rh}/${smoothing}`;
    if (!axes || axes.key !== key) axes = { key, x: axisWeights(rw, cols, smoothing), y: axisWeights(rh, rows, smoothing) };
    const g = a.attention[i];
    const tmp = new Float32Array(rows * rw);
    for (let r = 0; r < rows; r++) {
      for (let x = 0; x < rw; x++) {
        let s = 0;
        for (let c = 0; c < cols; c++) s += axes.x[x * cols + c] * g[r][c];
        tmp[r * rw + x] = s;
      }
    }
    const out = new Float32Array(rw * rh);
    for (let y = 0; y < rh; y++) {
      for (let r = 0; r < rows; r++) {
        const v = axes.y[y * rows + r];
        if (!v) continue;
        for (let x = 0; x < rw; x++) out[y * rw + x] += v * tmp[r * rw + x];
      }
    }
    return out;
  }

  async function draw() {
    if (!photo || !answer) return;
    const maps = await colormaps;
    const canvas = $("#photo");
    const scale = Math.min(1, MAX_SIDE / Math.max(photo.width, photo.height));
    const w = Math.max(1, Math.round(photo.width * scale)), h = Math.max(1, Math.round(photo.height * scale));
    canvas.width = w; canvas.height = h;
    const ctx = canvas.getContext("2d");
    ctx.drawImage(photo, 0, 0, w, h);
    const cmap = $("#colormap").value, lut = maps[cmap];
    legend($("#legend"), lut);
    canvas.dataset.word = String(active);
    if (active < 0) return;
    // The grid covers all of a squashed photo, the central square of a
    // cropped one; the rest the model never saw is drawn gray.
    let rx = 0, ry = 0, rw = w, rh = h;
    if (answer.fit === "CenterCrop") {
      const side = Math.min(w, h);
      rx = Math.floor((w - side) / 2); ry = Math.floor((h - side) / 2); rw = rh = side;
    }
    const smoothing = $("#smoothing").value;
    const f = field(active, rw, rh, smoothing);
    const peakOf = i => answer.attention[i].flat().reduce((m, v) => Math.max(m, v), 0);
    let top;
    switch ($("#scale").value) {
      case "absolute": top = 1; break;
      case "shared": top = Math.max(...answer.words.map((_, i) => peakOf(i))); break;
      default: top = f.reduce((m, v) => Math.max(m, v), 0);
    }
    $("#legend-max").textContent = `α = ${fmt(top, 3)}`;
    const alpha = Number($("#alpha").value);
    const img = ctx.getImageData(0, 0, w, h), d = img.data;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = 4 * (y * w + x);
        const inside = x >= rx && x < rx + rw && y >= ry && y < ry + rh;
        if (!inside) { d[o] = d[o + 1] = d[o + 2] = 128; continue; }
        const v = top > 0 ? Math.min(1, f[(y - ry) * rw + (x - rx)] / top) : 0;
        if (cmap === "mask") {
          const k = 1 - alpha * (1 - v);
          d[o] *= k; d[o + 1] *= k; d[o + 2] *= k;
          continue;
        }
        const q = Math.round(v * 255), a = alpha * (0.2 + 0.8 * v);
        d[o] = d[o] * (1 - a) + lut[3 * q] * a;
        d[o + 1] = d[o + 1] * (1 - a) + lut[3 * q + 1] * a;
        d[o + 2] = d[o + 2] * (1 - a) + lut[3 * q + 2] * a;
      }
    }
    ctx.putImageData(img, 0, 0);
    const grid = answer.attention[active];
    let best = 0, br = 0, bc = 0;
    grid.forEach((row, r) => row.forEach((v, c) => { if (v > best) { best = v; br = r; bc = c; } }));
    if ($("#peak").checked) {
      const cw = rw / answer.grid_w, ch = rh / answer.grid_h;
      ctx.setLineDash([6, 4]); ctx.lineWidth = 2; ctx.strokeStyle = "#fff";
      ctx.strokeRect(rx + bc * cw + 1, ry + br * ch + 1, cw - 2, ch - 2);
      ctx.setLineDash([]);
    }
    const weight = weightText(active);
    $("#info").textContent = `“${answer.words[active]}” — word ${active + 1} of ${answer.words.length}` +
      (weight ? ` · ${weight}` : "") + ` · peak α = ${fmt(best, 3)} at row ${br + 1}, column ${bc + 1}`;
  }

  $("#file").addEventListener("change", e => { const f = e.target.files[0]; if (f) caption(f); });
  $("#more-alternatives").addEventListener("click", () => {
    $("#alternatives").classList.add("all");
    $("#more-alternatives").hidden = true;
  });
  dropZone($("#drop"), caption);
  for (const id of ["colormap", "smoothing", "scale", "alpha", "peak"]) $("#" + id).addEventListener("input", draw);
  wordKeys($("#caption"));
})();
