#!/usr/bin/env python3
"""An independent float32 (or float64) forward of a Whisper network, for attend's parity tests.

Written from the architecture openai/whisper's whisper/model.py defines (not
copied from it): conv1d(k3) + GELU, conv1d(k3, stride 2) + GELU, + sinusoid
positions, pre-LayerNorm residual attention blocks, final LayerNorm; the text
decoder embeds tokens + learned positions, runs causal self-attention,
cross-attention to the audio and an MLP per block, and projects on the token
embedding. Attention scales q and k by d_head^-1/4 each; GELU is the exact erf
form; LayerNorm's epsilon is 1e-5.

usage: whisper_ref.py MODEL.safetensors INPUT.safetensors INPUT.json OUTPUT.safetensors OUTPUT.json

MODEL: the weights under openai/whisper's names (encoder.blocks.0.attn.query.weight, ...),
       F32 or F16, with __metadata__["whisper_dims"] (ModelDimensions as JSON).
INPUT.safetensors: "mel", the log-mel window (n_mels x 3000).
INPUT.json: {"prompt": [...], "sample_len": N, "eot": id,
             "suppress": [...]        ids set to -inf at every step (SuppressTokens),
             "suppress_blank": [...]  ids set to -inf at the first step (SuppressBlank)}
OUTPUT.safetensors: "encoder" (n_audio_ctx x n_audio_state).
OUTPUT.json: greedy decoding without timestamps from the prompt: "tokens" (sampled,
             end of text excluded) and per step the raw logits' top 5 ("raw_top5_ids",
             "raw_top5_logits"), the step that picked end of text included.
"""
import json
import os
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64}

# WHISPER_REF_DTYPE=float64 computes in double precision: the exact answer
# that float32 implementations (PyTorch's, attend's) approximate.
COMPUTE = np.float64 if os.environ.get("WHISPER_REF_DTYPE") == "float64" else np.float32


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    meta = header.pop("__metadata__", {}) or {}
    tensors = {}
    for name, e in header.items():
        lo, hi = e["data_offsets"]
        a = np.frombuffer(data[lo:hi], dtype=np.dtype(DTYPES[e["dtype"]]).newbyteorder("<"))
        tensors[name] = torch.from_numpy(a.astype(COMPUTE).reshape(e["shape"]))
    return tensors, meta


def write_safetensors(path, tensors):
    header, blobs, off = {}, [], 0
    for name, t in tensors.items():
        b = np.ascontiguousarray(t.numpy(), dtype="<f4").tobytes()  # float64 results rounded
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


class Whisper:
    def __init__(self, w, dims):
        self.w, self.d = w, dims

    def norm(self, x, p):
        return F.layer_norm(x, (x.shape[-1],), self.w[p + ".weight"], self.w[p + ".bias"], 1e-5)

    def dense(self, x, p):
        return F.linear(x, self.w[p + ".weight"], self.w.get(p + ".bias"))

    def attention(self, x, src, p, heads, causal):
        t, s, n = x.shape[0], src.shape[0], x.shape[1]
        dh = n // heads
        scale = dh ** -0.25
        q = self.dense(x, p + ".query").reshape(t, heads, dh).transpose(0, 1) * scale  # (h, t, dh)
        k = self.dense(src, p + ".key").reshape(s, heads, dh).permute(1, 2, 0) * scale  # (h, dh, s)
        v = self.dense(src, p + ".value").reshape(s, heads, dh).transpose(0, 1)  # (h, s, dh)
        scores = q @ k  # (h, t, s)
        if causal:
            scores = scores + torch.full((t, s), float("-inf")).triu(1)
        ctx = torch.softmax(scores, dim=-1) @ v  # (h, t, dh)
        return self.dense(ctx.transpose(0, 1).reshape(t, n), p + ".out")

    def block(self, x, p, heads, audio=None):
        h = self.norm(x, p + ".attn_ln")
        x = x + self.attention(h, h, p + ".attn", heads, causal=audio is not None)
        if audio is not None:
            x = x + self.attention(self.norm(x, p + ".cross_attn_ln"), audio, p + ".cross_attn", heads, False)
        h = F.gelu(self.dense(self.norm(x, p + ".mlp_ln"), p + ".mlp.0"))
        return x + self.dense(h, p + ".mlp.2")

    def encode(self, mel):  # (n_mels, 2 n_audio_ctx) -> (n_audio_ctx, n_audio_state)
        w = self.w
        x = F.gelu(F.conv1d(mel[None], w["encoder.conv1.weight"], w["encoder.conv1.bias"].flatten(), padding=1))
        x = F.gelu(F.conv1d(x, w["encoder.conv2.weight"], w["encoder.conv2.bias"].flatten(), stride=2, padding=1))
        x = x[0].T + w["encoder.positional_embedding"]
        for i in range(self.d["n_audio_layer"]):
            x = self.block(x, "encoder.blocks.%d" % i, self.d["n_audio_head"])
        return self.norm(x, "encoder.ln_post")

    def logits(self, tokens, audio):  # all positions' logits, no cache
        emb = self.w["decoder.token_embedding.weight"]
        x = emb[torch.tensor(tokens)] + self.w["decoder.positional_embedding"][: len(tokens)]
        for i in range(self.d["n_text_layer"]):
            x = self.block(x, "decoder.blocks.%d" % i, self.d["n_text_head"], audio)
        return self.norm(x, "decoder.ln") @ emb.T


def greedy(model, audio, cfg):
    tokens, out, top_ids, top_logits = list(cfg["prompt"]), [], [], []
    for step in range(cfg["sample_len"]):
        raw = model.logits(tokens, audio)[-1]
        top = torch.topk(raw, 5)
        top_ids.append(top.indices.tolist())
        top_logits.append(top.values.tolist())
        x = raw.clone()
        if step == 0:
            x[cfg["suppress_blank"]] = float("-inf")
        x[cfg["suppress"]] = float("-inf")
        nxt = int(torch.argmax(x))
        if nxt == cfg["eot"]:
            break
        tokens.append(nxt)
        out.append(nxt)
    return {"tokens": out, "raw_top5_ids": top_ids, "raw_top5_logits": top_logits}


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    weights, meta = read_safetensors(argv[1])
    dims = json.loads(meta["whisper_dims"])
    inputs, _ = read_safetensors(argv[2])
    with open(argv[3]) as f:
        cfg = json.load(f)
    torch.set_grad_enabled(False)
    model = Whisper(weights, dims)
    audio = model.encode(inputs["mel"])
    write_safetensors(argv[4], {"encoder": audio})
    with open(argv[5], "w") as f:
        json.dump(greedy(model, audio, cfg), f)


if __name__ == "__main__":
    main(sys.argv)
