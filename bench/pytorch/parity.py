#!/usr/bin/python3
"""Checks that the PyTorch twins compute our functions, weight for weight.

    go run ./bench/parity -o /tmp/parity.safetensors
    /usr/bin/python3 bench/pytorch/parity.py /tmp/parity.safetensors

The file (see bench/parity/main.go) holds our parameters, small padded
batches, and what our code computed from them: the decoder's teacher-forced
loss and every parameter's gradient (the training graph of
BenchmarkDecoderTrainStep), three eager decoder steps' logits, and the
listener's eager output, loss sum(y * R) and gradients. This script loads
the parameters into the twins, recomputes all of it (both decoder cells;
the listener through pack_padded_sequence, which the padding needs) and
prints the largest difference relative to each quantity's largest
magnitude. It exits 1 when one exceeds --tol.
"""

import argparse
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def read_safetensors(torch, path):
    """name -> float32 tensor, for an F32 safetensors file."""
    with open(path, "rb") as fh:
        data = fh.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            sys.exit(f"parity: {path}: tensor {name} is {info['dtype']}, want F32")
        s, e = info["data_offsets"]
        out[name] = torch.frombuffer(bytearray(data[base + s : base + e]), dtype=torch.float32).reshape(info["shape"])
    return out


def gate_perm(torch, H):
    """Index that reorders stacked gate blocks [i f o g] <-> [i f g o] (its own inverse)."""
    r = torch.arange(H)
    return torch.cat([r, r + H, r + 3 * H, r + 2 * H])


class Checker:
    def __init__(self, tol):
        self.tol, self.worst, self.failed, self.lines = tol, 0.0, [], []

    def __call__(self, what, got, want):
        got, want = got.detach().double(), want.double()
        if got.shape != want.shape:
            self.failed.append(f"{what}: shape {tuple(got.shape)}, want {tuple(want.shape)}")
            return
        rel = float((got - want).abs().max() / want.abs().max().clamp(min=1e-30))
        self.worst = max(self.worst, rel)
        self.lines.append(f"{what}: {rel:.3g}")
        if not rel <= self.tol:
            self.failed.append(f"{what}: relative difference {rel:.3g} > {self.tol:g}")


def check_decoder(torch, t, cell, check):
    import decoder

    V, E = t["dec.embed.table"].shape
    H, A = t["dec.att.w"].shape
    D = t["dec.att.u"].shape[0]
    m = decoder.Decoder(V, E, H, D, A, cell=cell)
    p = gate_perm(torch, H)
    with torch.no_grad():
        m.embed.weight.copy_(t["dec.embed.table"])
        for n in ("w", "u", "b", "v"):
            getattr(m.att, n).copy_(t["dec.att." + n])
        m.out.weight.copy_(t["dec.out.w"].t())
        m.out.bias.copy_(t["dec.out.b"])
        if cell == "manual":
            m.cell.wx.copy_(t["dec.lstm.wx"])
            m.cell.wh.copy_(t["dec.lstm.wh"])
            m.cell.b.copy_(t["dec.lstm.b"])
        else:
            m.cell.weight_ih.copy_(t["dec.lstm.wx"][:, p].t())
            m.cell.weight_hh.copy_(t["dec.lstm.wh"][:, p].t())
            m.cell.bias_ih.copy_(t["dec.lstm.b"][p])

    def grads():  # name -> gradient in our layout
        g = {
            "dec.embed.table": m.embed.weight.grad,
            "dec.out.w": m.out.weight.grad.t(),
            "dec.out.b": m.out.bias.grad,
        }
        for n in ("w", "u", "b", "v"):
            g["dec.att." + n] = getattr(m.att, n).grad
        if cell == "manual":
            g.update({"dec.lstm.wx": m.cell.wx.grad, "dec.lstm.wh": m.cell.wh.grad, "dec.lstm.b": m.cell.b.grad})
        else:
            g.update({"dec.lstm.wx": m.cell.weight_ih.grad.t()[:, p], "dec.lstm.wh": m.cell.weight_hh.grad.t()[:, p],
                      "dec.lstm.b": m.cell.bias_ih.grad[p]})
        return g

    # Teacher-forced loss and gradients.
    memory = t["dec.memory"]
    B, T, _ = memory.shape
    pad = torch.arange(T).unsqueeze(0) >= t["dec.mem_lengths"].long().unsqueeze(1)
    dec_in, targets = t["dec.dec_in"].long(), t["dec.targets"].long()
    tokens = int((targets != decoder.PAD).sum())
    logits = m.unroll(memory, pad, dec_in)
    loss = torch.nn.functional.cross_entropy(logits, targets, ignore_index=decoder.PAD, reduction="sum") / tokens
    loss.backward()
    check(f"decoder[{cell}] loss", loss.reshape(1), t["dec.loss"])
    for name, g in grads().items():
        check(f"decoder[{cell}] grad {name}", g, t["grad." + name])

    # Eager steps.
    with torch.no_grad():
        memory = t["step.memory"]
        B, T, _ = memory.shape
        pad = torch.arange(T).unsqueeze(0) >= t["step.mem_lengths"].long().unsqueeze(1)
        proj = m.att.prepare(memory)
        state, ctx = m.start(B)
        for i, toks in enumerate(t["step.tokens"].long()):
            logits, state, ctx = m.step(proj, memory, pad, state, ctx, toks)
            check(f"decoder[{cell}] step {i} logits", logits, t["step.logits"][i])


def check_listener(torch, t, check):
    import listener

    n_layers = len({k.split(".")[1] for k in t if k.startswith("listener.")})
    In, H4 = t["listener.l0.fwd.wx"].shape
    H = H4 // 4
    m = listener.Listener(In, H, n_layers)
    p = gate_perm(torch, H)
    names = {}  # our name -> (torch parameter, is weight)
    for j, layer in enumerate(m.layers):
        for d, sfx in (("fwd", "_l0"), ("bwd", "_l0_reverse")):
            base = f"listener.l{j}.{d}."
            names[base + "wx"] = getattr(layer, "weight_ih" + sfx)
            names[base + "wh"] = getattr(layer, "weight_hh" + sfx)
            names[base + "b"] = getattr(layer, "bias_ih" + sfx)
    with torch.no_grad():
        for ours, param in names.items():
            w = t[ours]
            param.copy_(w[:, p].t() if w.dim() == 2 else w[p])
    x, lengths, R = t["lis.x"], t["lis.lengths"].long(), t["lis.r"]
    y = m(x, lengths, packed=True)
    loss = (y * R).sum()
    loss.backward()
    check("listener y", y, t["lis.y"])
    check("listener loss", loss.reshape(1), t["lis.loss"])
    for ours, param in names.items():
        g = param.grad
        check(f"listener grad {ours}", g.t()[:, p] if g.dim() == 2 else g[p], t["grad." + ours])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="safetensors file written by go run ./bench/parity")
    ap.add_argument("--tol", type=float, default=1e-4,
                    help="largest relative difference accepted (default 1e-4: float32 sums in other orders)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every comparison")
    args = ap.parse_args()
    torch, _ = common.init_torch(1)
    t = read_safetensors(torch, args.file)
    check = Checker(args.tol)
    for cell in ("manual", "torch"):
        check_decoder(torch, t, cell, check)
    check_listener(torch, t, check)
    if args.verbose:
        for line in check.lines:
            print("  " + line)
    for f in check.failed:
        print("parity: FAIL " + f)
    status = "FAIL" if check.failed else "ok"
    print(f"PARITY {status} checks={len(check.lines)} failed={len(check.failed)} worst_rel_diff={check.worst:.3g} tol={args.tol:g}")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
