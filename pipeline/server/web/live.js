// attend asr serve: live transcription. The Live button captures the
// microphone, resamples it to 16 kHz in the page and streams it as 16-bit
// PCM over the WebSocket at /v1/audio/live (Vosk's protocol); the
// partial transcript of the utterance being spoken is shown as it
// changes, and the final words of each utterance settle in front of it.
// When it ends, the recording (what was sent, up to MAX_KEEP) is
// transcribed as an upload, for the usual view: the same words, now with
// the spectrogram and where the model listened for each.
"use strict";

(() => {
  const { $, el, status, fmt } = attend;
  const RATE = 16000;
  const MAX_KEEP = 12 * 60 * RATE; // samples kept for the view at the end: 23 MB, under the upload limit

  // Resampler converts Float32 blocks at rate `from` to 16-bit PCM at
  // RATE: a windowed-sinc low-pass (Blackman, 24 taps a side, cut-off at
  // 0.9 × the lower Nyquist) evaluated at each output instant, with the
  // input's tail kept across blocks.
  class Resampler {
    constructor(from) {
      this.step = from / RATE;
      this.cut = 0.9 * Math.min(1, RATE / from);
      this.half = 24;
      this.buf = new Float32Array(0); // input samples kept
      this.pos = 0;                   // next output instant, in buf's samples
    }
    pcm16(block) {
      const buf = new Float32Array(this.buf.length + block.length);
      buf.set(this.buf); buf.set(block, this.buf.length);
      const out = [];
      const h = this.half, c = this.cut;
      let t = this.pos;
      for (; t + h < buf.length; t += this.step) {
        const i0 = Math.floor(t);
        let s = 0, w = 0;
        for (let i = i0 - h + 1; i <= i0 + h; i++) {
          const x = i - t;
          if (i < 0 || Math.abs(x) >= h) continue;
          const win = 0.42 + 0.5 * Math.cos(Math.PI * x / h) + 0.08 * Math.cos(2 * Math.PI * x / h);
          const k = (x === 0 ? 1 : Math.sin(Math.PI * c * x) / (Math.PI * c * x)) * win;
          s += buf[i] * k; w += k;
        }
        out.push(Math.max(-1, Math.min(1, s / w)));
      }
      const keep = Math.max(0, Math.floor(t) - h);
      this.buf = buf.slice(keep);
      this.pos = t - keep;
      const pcm = new Int16Array(out.length);
      out.forEach((v, i) => { pcm[i] = Math.round(v * 32767); });
      return pcm.buffer;
    }
  }

  let session = null; // {ws, ctx, stream, node, kept: [Int16Array], samples}

  // wav wraps 16-bit mono PCM at RATE in a WAV header.
  function wav(parts, samples) {
    const buf = new ArrayBuffer(44 + 2 * samples), v = new DataView(buf);
    const str = (o, s) => [...s].forEach((c, i) => v.setUint8(o + i, c.charCodeAt(0)));
    str(0, "RIFF"); v.setUint32(4, 36 + 2 * samples, true); str(8, "WAVE");
    str(12, "fmt "); v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true);
    v.setUint32(24, RATE, true); v.setUint32(28, 2 * RATE, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
    str(36, "data"); v.setUint32(40, 2 * samples, true);
    let o = 44;
    for (const p of parts) { new Int16Array(buf, o, p.length).set(p); o += 2 * p.length; }
    return new Blob([buf], { type: "audio/wav" });
  }

  function stopAudio(s) {
    s.node.disconnect();
    s.stream.getTracks().forEach(t => t.stop());
    s.ctx.close();
  }

  // addFinal appends an utterance's final words, each with its times and
  // confidence in its title.
  function addFinal(m) {
    const p = $("#live-final");
    for (const w of m.result) {
      p.append(el("span", { class: "word" + (w.conf < 0.5 ? " low" : ""), title: `${fmt(w.start, 2)}–${fmt(w.end, 2)} s · confidence ${fmt(w.conf, 2)}` }, w.word));
    }
    $("#live-partial").textContent = "";
  }

  async function start() {
    const btn = $("#live");
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
    } catch (e) {
      status("No microphone: " + e.message, true);
      return;
    }
    const ctx = new AudioContext();
    const src = ctx.createMediaStreamSource(stream);
    // A ScriptProcessorNode hands the page blocks of samples without a
    // worklet module; 4096 frames is 85 ms at 48 kHz.
    const node = ctx.createScriptProcessor(4096, 1, 1);
    const rs = new Resampler(ctx.sampleRate);
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/v1/audio/live");
    ws.binaryType = "arraybuffer";
    const s = session = { ws, ctx, stream, node, kept: [], samples: 0 };
    ws.onopen = () => ws.send(JSON.stringify({ config: { sample_rate: RATE } }));
    node.onaudioprocess = e => {
      if (ws.readyState !== WebSocket.OPEN || session !== s) return;
      const pcm = rs.pcm16(e.inputBuffer.getChannelData(0));
      ws.send(pcm);
      if (s.samples + pcm.byteLength / 2 <= MAX_KEEP) { s.kept.push(new Int16Array(pcm)); s.samples += pcm.byteLength / 2; }
    };
    src.connect(node); node.connect(ctx.destination);
    ws.onmessage = e => {
      const m = JSON.parse(e.data);
      if (m.result) addFinal(m);
      else if (typeof m.partial === "string") $("#live-partial").textContent = m.partial;
    };
    ws.onclose = e => {
      if (session === s) { stopAudio(s); session = null; }
      btn.setAttribute("aria-pressed", "false"); btn.textContent = "◉ Live";
      if (e.code !== 1000) {
        status(`Live transcription stopped: ${e.reason || "connection closed"} (${e.code})`, true);
      } else if (s.samples > 0 && attend.transcribe) {
        attend.transcribe(wav(s.kept, s.samples), "live.wav");
      } else {
        status("Live transcription ended.");
      }
    };
    $("#live-result").hidden = false;
    $("#live-final").textContent = ""; $("#live-partial").textContent = "";
    btn.setAttribute("aria-pressed", "true"); btn.textContent = "■ Stop live";
    status("Listening… words appear as you speak; press Stop live when done.");
  }

  // stop ends the audio and sends eof: the server answers the results of
  // what was still open, then closes.
  function stop() {
    const s = session;
    session = null;
    stopAudio(s);
    if (s.ws.readyState === WebSocket.OPEN) s.ws.send(JSON.stringify({ eof: 1 }));
    status("Finishing the last utterance…");
  }

  const btn = $("#live");
  btn.addEventListener("click", () => (session ? stop() : start()));
  if (!navigator.mediaDevices || !window.AudioContext || !window.WebSocket) btn.disabled = true;
})();
