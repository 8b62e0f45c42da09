#!/usr/bin/python3
"""PyTorch twin of BenchmarkBiLSTMTrainStep (models/bench_layers_test.go).

One training step of a 2-layer pyramidal BiLSTM listener (LAS, Chan et al.
2016 §3.1): x (B=16, T=400, 80) -> BiLSTM (256 per direction) -> (B, 400,
512) -> pyramid (concatenate frames 2t, 2t+1) -> (B, 200, 1024) -> BiLSTM
-> y (B, 200, 512); loss = sum(y * R) for a fixed random R; forward and
backward, gradients accumulated into the parameters' .grad (no optimizer
step, like the Go benchmark, which collects gradients into its store).

The Go benchmark feeds full lengths (every sequence 400 frames), so by
default the layers run on the padded tensor, PyTorch's fast path (the
input projection of all frames is one GEMM). --lengths random draws
lengths in [T/2, T] and --pack forces pack_padded_sequence even at full
lengths; both run the packed path, which masks padding as ours does.

    /usr/bin/python3 bench/pytorch/bilstm_step.py --threads 1
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

B, T, I, H, LAYERS = 16, 400, 80, 256, 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=1, help="torch, OpenMP and OpenBLAS threads (default 1)")
    ap.add_argument("--iters", type=int, default=3, help="timed steps (default 3)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed steps first (default 1)")
    ap.add_argument("--lengths", choices=("full", "random"), default="full",
                    help="every sequence T frames (as the Go benchmark) or random in [T/2, T]")
    ap.add_argument("--pack", action="store_true", help="use pack_padded_sequence even at full lengths")
    ap.add_argument("--params", action="store_true", help="list the parameters and exit")
    args = ap.parse_args()

    torch, blas_threads = common.init_torch(args.threads)
    nn = torch.nn
    rnn = torch.nn.utils.rnn

    def bilstm(In):
        """nn.LSTM initialized like models.NewLSTM, bias_hh frozen at zero."""
        m = nn.LSTM(In, H, batch_first=True, bidirectional=True)
        for sfx in ("_l0", "_l0_reverse"):
            common.glorot_(getattr(m, "weight_ih" + sfx), In, 4 * H)
            common.orthogonal_blocks_(getattr(m, "weight_hh" + sfx), H, 4 * H, transposed=True)
            b_ih, b_hh = getattr(m, "bias_ih" + sfx), getattr(m, "bias_hh" + sfx)
            with torch.no_grad():
                b_ih.zero_()
                b_ih[H : 2 * H] = 1  # forget gate ([i f g o] in PyTorch)
                b_hh.zero_()
            b_hh.requires_grad_(False)
        return m

    torch.manual_seed(1)
    layers = nn.ModuleList([bilstm(I if j == 0 else 4 * H) for j in range(LAYERS)])
    n_params = common.count_trainable(layers)
    if args.params:
        common.list_params(layers)
        print(f"PARAMS model=listener trainable={n_params}")
        return

    gen = torch.Generator().manual_seed(1)
    x = torch.randn(B, T, I, generator=gen)
    if args.lengths == "full":
        lengths = torch.full((B,), T, dtype=torch.long)
    else:
        lengths = torch.randint(T // 2, T + 1, (B,), generator=gen)
    packed = args.pack or bool((lengths != T).any())
    T_out = T
    for _ in range(LAYERS - 1):
        T_out = (T_out + 1) // 2
    R = torch.randn(B, T_out, 2 * H, generator=gen)

    def listen(x, lengths):
        y, n = x, lengths
        for j, layer in enumerate(layers):
            if j > 0:  # pyramid: (B, t, 2H) -> (B, ceil(t/2), 4H), lengths ceil(n/2)
                if y.shape[1] % 2:
                    y = torch.nn.functional.pad(y, (0, 0, 0, 1))
                y = y.reshape(y.shape[0], y.shape[1] // 2, 2 * y.shape[2])
                n = (n + 1) // 2
            if packed:
                seq = rnn.pack_padded_sequence(y, n, batch_first=True, enforce_sorted=False)
                y, _ = rnn.pad_packed_sequence(layer(seq)[0], batch_first=True, total_length=y.shape[1])
            else:
                y, _ = layer(y)
        return y

    def step():
        loss = (listen(x, lengths) * R).sum()
        loss.backward()

    mean, fastest = common.time_loop(step, args.warmup, args.iters)
    common.report("bilstm_train", args.threads, blas_threads, args.iters, mean, fastest,
                  packed=int(packed), lengths=args.lengths, params=n_params)


if __name__ == "__main__":
    main()
