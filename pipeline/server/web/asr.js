// attend asr serve: upload or record audio, show the transcript, the
// spectrogram and the attention alignment of every chunk; a word hovered
// or focused highlights its frames and characters, a word clicked plays.
"use strict";

(() => {
  const { $, el, colormaps, post, status, dropZone, wordKeys, legend, fmt } = attend;
  const SPEC_MAP = "inferno", ALIGN_MAP = "viridis"; // as "asr transcribe -align" draws them
  const GUTTER = 26, AXIS = 18, SPEC_H = 110, GAP = 6;
  const player = $("#player");
  let audioURL = null, stopAt = null;
  let figures = [];   // per chunk: {chunk, canvas, base, words: [global word index], rows: [[from, to]]}
  let words = [];     // the words, with .chunk (figure index) and .button
  let active = -1;

  // decode turns a base64 string of bytes into a Uint8Array.
  const decode = b64 => Uint8Array.from(atob(b64), c => c.charCodeAt(0));

  async function transcribe(blob, name) {
    status(`Transcribing ${name}…`);
    const form = new FormData();
    form.append("file", blob, name);
    form.append("response_format", "verbose_json");
    form.append("timestamp_granularities[]", "word");
    form.append("timestamp_granularities[]", "segment");
    const t0 = performance.now();
    try {
      const v = await post("/v1/audio/transcriptions", form);
      if (audioURL) URL.revokeObjectURL(audioURL);
      audioURL = URL.createObjectURL(blob);
      player.src = audioURL;
      await show(v);
      status(`${name}: ${fmt(v.duration, 1)} s of audio in ${fmt((performance.now() - t0) / 1000, 2)} s · model ${v.attend ? v.attend.model : ""}`);
    } catch (e) {
      status(String(e.message || e), true);
    }
  }

  async function show(v) {
    const maps = await colormaps;
    legend($("#legend-spec"), maps[SPEC_MAP]);
    legend($("#legend-align"), maps[ALIGN_MAP]);
    $("#result").hidden = false;
    const tr = $("#transcript");
    tr.replaceChildren();
    $("#figures").replaceChildren();
    figures = []; words = []; active = -1;
    const ws = v.words || [];
    const chunks = v.attend ? v.attend.chunks : [];
    chunks.forEach((c, k) => {
      const fig = makeFigure(c, k, v.attend, maps);
      figures.push(fig);
      for (let i = 0; i < c.words; i++) fig.words.push(c.first_word + i);
    });
    ws.forEach((w, i) => {
      const chunk = figures.findIndex(f => i >= f.chunk.first_word && i < f.chunk.first_word + f.chunk.words);
      const b = el("button", { type: "button", class: "word" + (w.confidence < 0.35 ? " low" : ""),
        title: `${fmt(w.start)}–${fmt(w.end)} s, confidence ${fmt(w.confidence)}`,
        dataset: { index: i } }, w.word, el("small", {}, fmt(w.start, 2)));
      b.addEventListener("mouseenter", () => activate(i));
      b.addEventListener("focus", () => activate(i));
      b.addEventListener("click", () => play(w.start, w.end));
      words.push({ ...w, chunk, button: b });
      tr.append(b);
    });
    if (!ws.length) tr.append(el("span", { class: "hint" }, v.text || "(nothing was said)"));
    for (const f of figures) draw(f);
    if (words.length) activate(0);
  }

  // makeFigure builds a chunk's canvas and renders its spectrogram and
  // alignment once, as images to scale.
  function makeFigure(c, k, extras, maps) {
    const canvas = el("canvas", { class: "plot", role: "img",
      "aria-label": `Spectrogram and attention alignment of ${fmt(c.start, 1)}–${fmt(c.end, 1)} s` });
    const span = `${fmt(c.start, 2)}–${fmt(c.end, 2)} s`;
    const caption = el("figcaption", {}, c.no_speech ? `${span} · no speech` : `${span} · “${c.text}”`);
    const fig = el("figure", { class: "chunk" }, caption);
    // Say what the rows are when they are not the speller's attention.
    if (c.no_speech) {
      fig.append(el("p", { class: "note" }, `No speech here (no-speech probability ${fmt(c.no_speech_prob, 2)}): nothing was decoded.`));
    } else if (c.alignment_source === "ctc_posterior" || c.alignment_source === "ctc_path") {
      fig.append(el("p", { class: "note" }, `CTC fallback (${c.fallback}): this text came from the CTC head, not the attention speller, so the rows below are ` +
        (c.alignment_source === "ctc_posterior" ? "the CTC head's posterior of each character at each frame" : "the frames where the CTC path emitted each character") + ", not attention."));
    }
    if (c.mel_frames || c.encoder_frames) fig.append(canvas);
    $("#figures").append(fig);
    // Group the characters into words: spaces separate them, as the
    // server times words. A Whisper model's rows are its text tokens
    // instead: a word starts at a token that begins with a space, as
    // openai/whisper splits words.
    let rows = [];
    let from = -1;
    c.chars.forEach((ch, i) => {
      if (ch === " ") { if (from >= 0) rows.push([from, i]); from = -1; }
      else if (from < 0) from = i;
    });
    if (from >= 0) rows.push([from, c.chars.length]);
    let unit = "characters";
    if (rows.length !== c.words) {
      rows = [], unit = "tokens";
      c.chars.forEach((tok, i) => {
        if (rows.length === 0 || tok.startsWith(" ")) rows.push([i, i + 1]);
        else rows[rows.length - 1][1] = i + 1;
      });
    }
    const f = { chunk: c, index: k, canvas, words: [], rows: rows.length === c.words ? rows : null, unit,
      melSec: extras.mel_frame_seconds, encSec: extras.encoder_frame_seconds };
    f.spec = c.mel_frames ? bitmap(decode(c.mel), c.mel_frames, c.mel_bins, maps[SPEC_MAP], true) : null;
    f.align = c.encoder_frames ? bitmap(decode(c.alignment), c.chars.length, c.encoder_frames, maps[ALIGN_MAP], false) : null;
    canvas.addEventListener("mousemove", e => {
      const t = timeAt(f, e);
      const i = f.words.find(i => t >= words[i].start && t < words[i].end);
      if (i !== undefined && i !== active) activate(i);
    });
    canvas.addEventListener("click", e => {
      const t = timeAt(f, e);
      player.currentTime = t; stopAt = null; player.play();
    });
    return f;
  }

  // bitmap colors a rows × cols byte matrix. With transpose (the
  // spectrogram: frames × bins), time runs along x and bin 0 at the bottom.
  function bitmap(bytes, rows, cols, lut, transpose) {
    const w = transpose ? rows : cols, h = transpose ? cols : rows;
    const c = el("canvas", { width: w, height: h });
    const ctx = c.getContext("2d");
    const img = ctx.createImageData(w, h);
    for (let r = 0; r < rows; r++) {
      for (let k = 0; k < cols; k++) {
        const q = bytes[r * cols + k];
        const x = transpose ? r : k, y = transpose ? h - 1 - k : r;
        const o = 4 * (y * w + x);
        img.data[o] = lut[3 * q]; img.data[o + 1] = lut[3 * q + 1]; img.data[o + 2] = lut[3 * q + 2]; img.data[o + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
    return c;
  }

  // layout sizes a figure's canvas to its box and returns the geometry.
  function layout(f) {
    const dpr = window.devicePixelRatio || 1;
    const cssW = Math.max(280, f.canvas.parentElement.clientWidth);
    const n = f.chunk.chars.length;
    const rowH = n ? Math.max(3, Math.min(13, Math.floor(320 / n))) : 0;
    const alignH = n * rowH;
    const cssH = SPEC_H + (n ? GAP + alignH : 0) + AXIS;
    if (f.canvas.width !== Math.round(cssW * dpr)) {
      f.canvas.width = Math.round(cssW * dpr); f.canvas.height = Math.round(cssH * dpr);
      f.canvas.style.width = cssW + "px"; f.canvas.style.height = cssH + "px";
    }
    const dur = Math.max(f.chunk.end - f.chunk.start, 1e-3);
    return { dpr, w: cssW, h: cssH, plotW: cssW - GUTTER - 4, rowH, alignY: SPEC_H + GAP, alignH, dur,
      x: t => GUTTER + (t / dur) * (cssW - GUTTER - 4) };
  }

  function timeAt(f, e) {
    const g = layout(f);
    const r = f.canvas.getBoundingClientRect();
    return f.chunk.start + Math.max(0, (e.clientX - r.left - GUTTER) / g.plotW * g.dur);
  }

  // draw renders a figure: spectrogram over alignment over a time axis,
  // and the active word's frames and characters when it is in this chunk.
  function draw(f) {
    if (!f.canvas.isConnected) return; // a chunk without speech has no figure
    const g = layout(f);
    const ctx = f.canvas.getContext("2d");
    ctx.setTransform(g.dpr, 0, 0, g.dpr, 0, 0);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, g.w, g.h);
    ctx.imageSmoothingEnabled = false;
    const c = f.chunk;
    const off = c.audio_offset || 0; // digital silence before it was not decoded
    if (f.spec) ctx.drawImage(f.spec, g.x(off), 0, g.x(off + c.mel_frames * f.melSec) - g.x(off), SPEC_H);
    if (f.align) ctx.drawImage(f.align, g.x(off), g.alignY, g.x(off + c.encoder_frames * f.encSec) - g.x(off), g.alignH);
    ctx.fillStyle = "#5f6368"; ctx.font = "10px system-ui, sans-serif"; ctx.textBaseline = "middle"; ctx.textAlign = "right";
    ctx.fillText("mel", GUTTER - 4, SPEC_H / 2);
    if (g.rowH >= 8) c.chars.forEach((ch, i) => ctx.fillText(ch === " " ? "␣" : ch, GUTTER - 5, g.alignY + (i + 0.5) * g.rowH));
    // time axis
    ctx.textAlign = "center"; ctx.textBaseline = "top"; ctx.strokeStyle = "#adb5bd";
    const step = g.dur > 8 ? 1 : g.dur > 3 ? 0.5 : 0.25;
    for (let t = 0; t <= g.dur + 1e-9; t += step) {
      const x = g.x(t);
      ctx.beginPath(); ctx.moveTo(x, g.h - AXIS); ctx.lineTo(x, g.h - AXIS + 4); ctx.stroke();
      ctx.fillText(fmt(c.start + t, step < 1 ? 2 : 0) + (t === 0 ? " s" : ""), Math.min(Math.max(x, 14), g.w - 14), g.h - AXIS + 5);
    }
    const w = active >= 0 ? words[active] : null;
    if (!w || w.chunk !== f.index) return;
    const x0 = g.x(w.start - c.start), x1 = g.x(w.end - c.start);
    const bottom = g.h - AXIS;
    ctx.fillStyle = "rgba(255,255,255,0.45)"; // veil the spectrogram outside the word's time
    ctx.fillRect(GUTTER, 0, x0 - GUTTER, SPEC_H);
    ctx.fillRect(x1, 0, g.w - x1, SPEC_H);
    ctx.strokeStyle = "#f59f00"; ctx.lineWidth = 2;
    ctx.strokeRect(x0, 1, x1 - x0, SPEC_H - 2);
    ctx.setLineDash([3, 3]); ctx.lineWidth = 1; // the word's span down through the alignment
    for (const x of [x0, x1]) { ctx.beginPath(); ctx.moveTo(x, SPEC_H); ctx.lineTo(x, bottom); ctx.stroke(); }
    ctx.setLineDash([]);
    const k = f.words.indexOf(active);
    if (f.rows && k >= 0) {
      const [from, to] = f.rows[k];
      const y0 = g.alignY + from * g.rowH, y1 = g.alignY + to * g.rowH;
      ctx.fillStyle = "rgba(255,255,255,0.35)"; // veil the other characters' rows
      ctx.fillRect(GUTTER, g.alignY, g.plotW, y0 - g.alignY);
      ctx.fillRect(GUTTER, y1, g.plotW, g.alignY + g.alignH - y1);
      ctx.strokeStyle = "#fa5252"; ctx.lineWidth = 2;
      ctx.strokeRect(GUTTER - 1, y0, g.plotW + 2, y1 - y0);
      f.canvas.dataset.highlight = `${from}-${to}`;
    }
    f.canvas.dataset.word = String(active);
  }

  function activate(i) {
    if (i === active) return;
    const prev = active >= 0 ? words[active] : null;
    active = i;
    for (const w of words) w.button.classList.toggle("active", w === words[i]);
    const w = words[i];
    const f = figures[w.chunk];
    let chars = "";
    if (f && f.rows) {
      const [from, to] = f.rows[f.words.indexOf(i)];
      chars = ` · ${f.unit} ${from + 1}–${to} of chunk ${w.chunk + 1}`;
    }
    $("#info").textContent = `“${w.word}” ${fmt(w.start)}–${fmt(w.end)} s · confidence ${fmt(w.confidence)}${chars}`;
    if (prev && figures[prev.chunk] && prev.chunk !== w.chunk) draw(figures[prev.chunk]);
    if (f) draw(f);
  }

  function play(start, end) {
    player.currentTime = start;
    stopAt = end;
    player.play().catch(() => {});
  }
  function watch() {
    if (stopAt !== null && player.currentTime >= stopAt) { player.pause(); stopAt = null; }
    requestAnimationFrame(watch);
  }
  requestAnimationFrame(watch);

  // Recording: MediaRecorder gives webm/opus or ogg/opus, which the
  // server does not decode, so the browser decodes it and uploads 16 kHz
  // mono WAV.
  let recorder = null;
  async function toggleRecord() {
    const btn = $("#record");
    if (recorder) { recorder.stop(); return; }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (e) {
      status("No microphone: " + e.message, true);
      return;
    }
    const parts = [];
    recorder = new MediaRecorder(stream);
    recorder.ondataavailable = e => parts.push(e.data);
    recorder.onstop = async () => {
      stream.getTracks().forEach(t => t.stop());
      recorder = null;
      btn.setAttribute("aria-pressed", "false"); btn.textContent = "● Record";
      try {
        const wav = await toWAV(new Blob(parts, { type: parts[0] ? parts[0].type : "" }));
        await transcribe(wav, "recording.wav");
      } catch (e) {
        status("Could not decode the recording: " + e.message, true);
      }
    };
    recorder.start();
    btn.setAttribute("aria-pressed", "true"); btn.textContent = "■ Stop";
    status("Recording… press Stop when done.");
  }

  // toWAV decodes any audio the browser plays and encodes it as 16-bit
  // mono WAV at 16 kHz (the model's rate; OfflineAudioContext resamples
  // and mixes down).
  async function toWAV(blob) {
    const ac = new AudioContext();
    const decoded = await ac.decodeAudioData(await blob.arrayBuffer());
    ac.close();
    const rate = 16000;
    const off = new OfflineAudioContext(1, Math.max(1, Math.ceil(decoded.duration * rate)), rate);
    const src = off.createBufferSource();
    src.buffer = decoded; src.connect(off.destination); src.start();
    const pcm = (await off.startRendering()).getChannelData(0);
    const buf = new ArrayBuffer(44 + 2 * pcm.length), v = new DataView(buf);
    const str = (o, s) => [...s].forEach((c, i) => v.setUint8(o + i, c.charCodeAt(0)));
    str(0, "RIFF"); v.setUint32(4, 36 + 2 * pcm.length, true); str(8, "WAVE");
    str(12, "fmt "); v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true);
    v.setUint32(24, rate, true); v.setUint32(28, 2 * rate, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
    str(36, "data"); v.setUint32(40, 2 * pcm.length, true);
    pcm.forEach((s, i) => v.setInt16(44 + 2 * i, Math.max(-1, Math.min(1, s)) * 32767, true));
    return new Blob([buf], { type: "audio/wav" });
  }

  $("#file").addEventListener("change", e => { const f = e.target.files[0]; if (f) transcribe(f, f.name); });
  $("#record").addEventListener("click", toggleRecord);
  if (!window.MediaRecorder || !navigator.mediaDevices) $("#record").disabled = true;
  dropZone($("#drop"), f => transcribe(f, f.name));
  attend.transcribe = transcribe; // live.js shows a live recording this way once it ends
  wordKeys($("#transcript"));
  let resize = 0;
  window.addEventListener("resize", () => { clearTimeout(resize); resize = setTimeout(() => figures.forEach(draw), 100); });
})();
