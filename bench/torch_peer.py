"""PyTorch's side of tessera-bench.

Run by tessera-bench with the same entries, sizes and thread count; prints
one line per entry, "NAME SECONDS" (the median of --reps timed calls after a
warm-up call) or "NAME skip REASON". OMP_NUM_THREADS and OPENBLAS_NUM_THREADS
are set by tessera-bench before this starts; torch.set_num_threads is set
here, because importing torch drops its own count to 1 on this machine.

    /usr/bin/python3 bench/torch_peer.py --threads 2 --reps 7 add_16M=16777216,0,0 ...
"""
import argparse
import statistics
import sys
import time

import torch
import torch.nn.functional as F


def cpu_capability():
    """The kernels ATen dispatches to ("AVX2" here unless ATEN_CPU_CAPABILITY says otherwise)."""
    for line in torch.__config__.show().splitlines():
        if "CPU capability usage:" in line:
            return line.split(":", 1)[1].strip()
    return "unknown"


def timed(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def case(name, sizes):
    """The callable for one entry, or a reason it has none."""
    g = torch.Generator().manual_seed(1234)
    n, rows, cols = sizes
    if name.startswith("matmul"):
        dtype = torch.bfloat16 if "bf16" in name else torch.float32
        a = torch.randn(n, n, generator=g).to(dtype)
        b = torch.randn(n, n, generator=g).to(dtype)
        return lambda: torch.matmul(a, b)
    if name.startswith(("add", "mul", "exp", "sum", "sort")):
        a, b = torch.randn(n, generator=g), torch.randn(n, generator=g)
        return {
            "add": lambda: torch.add(a, b),
            "mul": lambda: torch.mul(a, b),
            "exp": lambda: torch.exp(a),
            "sum": lambda: torch.sum(a),
            "sort": lambda: torch.sort(a, stable=True),
        }[name.split("_")[0]]
    if name.startswith("softmax"):
        x = torch.randn(rows, cols, generator=g)
        return lambda: torch.softmax(x, -1)
    if name.startswith("layer_norm"):
        x = torch.randn(rows, cols, generator=g)
        w, b = torch.randn(cols, generator=g), torch.randn(cols, generator=g)
        return lambda: F.layer_norm(x, (cols,), w, b, 1e-5)
    if name.startswith("cross_entropy"):
        x = torch.randn(rows, cols, generator=g)
        t = torch.randint(0, cols, (rows,), generator=g)
        return lambda: F.cross_entropy(x, t)
    if name.startswith(("conv2d", "max_pool2d", "interpolate")):
        return vision_case(name, sizes, g)
    if name.startswith("overhead"):
        a, b = torch.randn(1, generator=g), torch.randn(1, generator=g)

        def loop():
            for _ in range(n):
                torch.add(a, b)

        return loop
    return "no PyTorch counterpart"


def vision_case(name, sizes, g):
    """bench/vision.c's entries: sizes are N, C and the side H = W."""
    n, c, side = sizes
    dtype = torch.bfloat16 if "bf16" in name else torch.float32
    x = torch.randn(n, c, side, side, generator=g).to(dtype)
    if name.startswith("max_pool2d"):
        return lambda: F.max_pool2d(x, 3, stride=2, padding=1)
    if name.startswith("interpolate"):
        return lambda: F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
    w = torch.randn(c, c, 3, 3, generator=g).to(dtype)
    if "fwdbwd" not in name:
        return lambda: F.conv2d(x, w, None, padding=1)
    gout = torch.randn(n, c, side, side, generator=g).to(dtype)
    x.requires_grad_(True)
    w.requires_grad_(True)

    def forward_backward():
        x.grad = w.grad = None
        F.conv2d(x, w, None, padding=1).backward(gout)

    return forward_backward


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("entries", nargs="*")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    print("torch_version", torch.__version__, "threads", torch.get_num_threads(),
          "kernels", cpu_capability(), flush=True)
    for spec in args.entries:
        name, sizes = spec.split("=")
        sizes = [int(s) for s in sizes.split(",")]
        fn = case(name, sizes)
        if isinstance(fn, str):
            print(name, "skip", fn, flush=True)
            continue
        seconds = timed(fn, args.reps)
        if name.startswith("overhead"):
            seconds /= sizes[0]
        print(name, repr(seconds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
