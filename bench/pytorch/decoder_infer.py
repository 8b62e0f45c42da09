#!/usr/bin/python3
"""PyTorch twin of BenchmarkDecoderStepEager (models/asr/speller_bench_test.go).

One inference step of the attention decoder (embedding, LSTM cell, additive
attention over an unpadded memory of T=100 entries, output layer; logits
only, no softmax) at batch B, under torch.inference_mode(). U k + b is
computed once before timing, as our Prepare is; each step feeds the
previous step's state and context, like the Go loop.

    /usr/bin/python3 bench/pytorch/decoder_infer.py --batch 1 --threads 1
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

T, D, H, A, V, E = 100, 256, 256, 256, 30, 64


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=1, help="rows decoded at once (default 1)")
    ap.add_argument("--threads", type=int, default=1, help="torch, OpenMP and OpenBLAS threads (default 1)")
    ap.add_argument("--iters", type=int, default=2000, help="timed steps (default 2000)")
    ap.add_argument("--warmup", type=int, default=100, help="untimed steps first (default 100)")
    ap.add_argument("--cell", choices=("torch", "manual"), default="manual",
                    help="nn.LSTMCell or hand-written stacked gates (default manual: a little faster here)")
    args = ap.parse_args()
    if args.batch < 1:
        sys.exit(f"decoder_infer: --batch {args.batch}, want >= 1")

    torch, blas_threads = common.init_torch(args.threads)
    import decoder

    torch.manual_seed(1)
    model = decoder.Decoder(V, E, H, D, A, cell=args.cell).eval()
    B = args.batch
    with torch.inference_mode():
        memory = torch.randn(B, T, D, generator=torch.Generator().manual_seed(2))
        proj = model.att.prepare(memory)
        tokens = torch.zeros(B, dtype=torch.long)
        carry = list(model.start(B))  # [state, ctx]

        def step():
            _, carry[0], carry[1] = model.step(proj, memory, None, carry[0], carry[1], tokens)

        mean, fastest = common.time_loop(step, args.warmup, args.iters)
    common.report(f"decoder_step_B{B}", args.threads, blas_threads, args.iters, mean, fastest,
                  cell=args.cell, params=common.count_trainable(model))


if __name__ == "__main__":
    main()
