#!/usr/bin/python3
"""PyTorch twin of BenchmarkDecoderTrainStep (models/asr/speller_bench_test.go).

One training step of the teacher-forced LSTM decoder with additive
attention and input feeding: B=32, memory T=100 x D=256 (random, lengths
in [T/2, T], the rest masked), H = A = 256, E = 64, S = 30 steps, V = 30;
token-normalized masked cross-entropy; forward, backward, global-norm
clipping at 5 and Adam (lr 1e-3), like models.Adam's defaults.

    /usr/bin/python3 bench/pytorch/decoder_step.py --threads 1
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

B, T, D, H, A, S, V, E = 32, 100, 256, 256, 256, 30, 30, 64


def random_batch(torch, gen):
    """Like randomBatch in the Go benchmark: returns memory, pad, dec_in, targets, tokens."""
    memory = torch.randn(B, T, D, generator=gen)
    mem_len = torch.randint(T // 2, T + 1, (B,), generator=gen)
    pad = torch.arange(T).unsqueeze(0) >= mem_len.unsqueeze(1)  # (B, T), True = padding
    tgt_len = torch.randint(S // 2, S + 1, (B,), generator=gen)
    tokens = torch.randint(0, V, (S, B), generator=gen)
    real = torch.arange(S).unsqueeze(1) < tgt_len.unsqueeze(0)  # (S, B)
    targets = torch.where(real, tokens, torch.full_like(tokens, -1))
    prev = torch.cat([torch.zeros(1, B, dtype=torch.long), tokens[:-1]], 0)
    dec_in = torch.where(real, prev, torch.full_like(prev, -1))
    return memory, pad, dec_in, targets.reshape(S * B), int(real.sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=1, help="torch, OpenMP and OpenBLAS threads (default 1)")
    ap.add_argument("--iters", type=int, default=5, help="timed steps (default 5)")
    ap.add_argument("--warmup", type=int, default=2, help="untimed steps first (default 2)")
    ap.add_argument("--cell", choices=("torch", "manual"), default="manual",
                    help="nn.LSTMCell or hand-written stacked gates (default manual: a little faster here)")
    ap.add_argument("--params", action="store_true", help="list the parameters and exit")
    args = ap.parse_args()

    torch, blas_threads = common.init_torch(args.threads)
    import decoder

    torch.manual_seed(1)
    model = decoder.Decoder(V, E, H, D, A, cell=args.cell)
    n_params = common.count_trainable(model)
    if args.params:
        common.list_params(model)
        print(f"PARAMS model=decoder trainable={n_params}")
        return
    memory, pad, dec_in, targets, tokens = random_batch(torch, torch.Generator().manual_seed(1))
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
    F = torch.nn.functional

    def step():
        opt.zero_grad(set_to_none=True)
        logits = model.unroll(memory, pad, dec_in)  # (S*B, V)
        loss = F.cross_entropy(logits, targets, ignore_index=decoder.PAD, reduction="sum") / tokens
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 5.0)
        opt.step()

    mean, fastest = common.time_loop(step, args.warmup, args.iters)
    common.report("decoder_train", args.threads, blas_threads, args.iters, mean, fastest,
                  cell=args.cell, params=n_params)


if __name__ == "__main__":
    main()
