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
    import listener

    torch.manual_seed(1)
    model = listener.Listener(I, H, LAYERS)
    n_params = common.count_trainable(model)
    if args.params:
        common.list_params(model)
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

    def step():
        loss = (model(x, lengths, packed) * R).sum()
        loss.backward()

    mean, fastest = common.time_loop(step, args.warmup, args.iters)
    common.report("bilstm_train", args.threads, blas_threads, args.iters, mean, fastest,
                  packed=int(packed), lengths=args.lengths, params=n_params)


if __name__ == "__main__":
    main()
