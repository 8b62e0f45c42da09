"""Shared plumbing of the PyTorch benchmarks: thread binding, timing, output.

Every benchmark script parses its arguments, then calls init_torch(threads)
BEFORE anything imports torch: the Debian build links OpenBLAS (pthreads),
which reads OPENBLAS_NUM_THREADS once when the library is loaded, and
torch.set_num_threads only binds torch's own OpenMP pool (DESIGN.md,
"Compute strategy"). init_torch therefore sets the environment, imports
torch, calls torch.set_num_threads, and finally asks OpenBLAS itself how
many threads it will use, so the result line states what really ran.

Result lines are one per measurement, prefixed "RESULT" and made of
key=value pairs without spaces in values, e.g.

    RESULT workload=decoder_train threads=1 iters=5 sec_per_iter=0.281 ...

sec_per_iter is the mean over the timed iterations (what Go's ns/op is);
min_iter_sec is the fastest single iteration, for reference.
"""

import ctypes
import math
import os
import resource
import sys
import time

_torch = None


def init_torch(threads):
    """Binds every thread pool to `threads` and returns the torch module."""
    global _torch
    if threads < 1:
        sys.exit(f"bench: --threads {threads}, want >= 1")
    if "torch" in sys.modules:
        sys.exit("bench: torch was imported before init_torch; thread settings would not bind")
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    import torch

    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)
    # The same libopenblas.so.0 torch loaded: set and read its pool size.
    try:
        blas = ctypes.CDLL("libopenblas.so.0")
        blas.openblas_set_num_threads(threads)
        blas_threads = blas.openblas_get_num_threads()
    except (OSError, AttributeError):
        blas_threads = -1
    _torch = torch
    return torch, blas_threads


def malloc_setting():
    """Names the glibc malloc tuning in effect ("default" or the env vars)."""
    vals = [
        f"{k}={os.environ[k]}"
        for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")
        if k in os.environ
    ]
    return ",".join(vals) if vals else "default"


def time_loop(fn, warmup, iters):
    """Runs fn warmup times untimed, then iters times; returns (mean, min) seconds."""
    for _ in range(warmup):
        fn()
    times = []
    start = time.perf_counter()
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    return total / iters, min(times)


def peak_rss_kib():
    """Peak resident set size of this process so far, in KiB (Linux ru_maxrss)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def report(workload, threads, blas_threads, iters, mean, fastest, **extra):
    """Prints the parseable result line."""
    torch = _torch
    fields = {
        "workload": workload,
        "threads": threads,
        "torch_threads": torch.get_num_threads(),
        "openblas_threads": blas_threads,
        "malloc": malloc_setting(),
        "iters": iters,
        "sec_per_iter": f"{mean:.6g}",
        "min_iter_sec": f"{fastest:.6g}",
        "peak_rss_kib": peak_rss_kib(),
        "torch": torch.__version__,
    }
    fields.update(extra)
    print("RESULT " + " ".join(f"{k}={v}" for k, v in fields.items()), flush=True)


def count_trainable(module):
    """Number of trainable scalars (requires_grad) of a module."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


def list_params(module, out=sys.stdout):
    """Prints name, shape and trainability of every parameter."""
    for name, p in module.named_parameters():
        mark = "" if p.requires_grad else "  (frozen at zero, not counted)"
        print(f"  {name:32s} {tuple(p.shape)!s:18s} {p.numel():9d}{mark}", file=out)


# Initializers mirroring models/init.go, so the benchmark starts from the
# same distributions as ours (speed does not depend on them, but a
# denormal-free, saturation-free start keeps both sides comparable).


def glorot_(w, fan_in, fan_out):
    a = math.sqrt(6.0 / (fan_in + fan_out))
    with _torch.no_grad():
        w.uniform_(-a, a)
    return w


def orthogonal_blocks_(w, rows, cols, transposed=False):
    """Orthogonal (rows, rows) blocks side by side, as models.Orthogonal.

    With transposed the tensor is stored (cols, rows) (PyTorch's
    weight_hh layout) and receives the transpose.
    """
    torch = _torch
    full = torch.empty(rows, cols)
    for c0 in range(0, cols, rows):
        block = torch.empty(rows, min(rows, cols - c0))
        torch.nn.init.orthogonal_(block)
        full[:, c0 : c0 + block.shape[1]] = block
    with torch.no_grad():
        w.copy_(full.t() if transposed else full)
    return w
