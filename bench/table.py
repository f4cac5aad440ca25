"""The table of bench/run.sh, from its result lines: "CONFIG ROUND SIDE NAME SECONDS".

Per workload and configuration: each side's median over the rounds, and the
ratio PyTorch/gpulab as the median of the rounds' ratios with [lowest-highest].
For the MLP rows, the spread of gpulab's runs (slowest run / median run)."""
import statistics
import sys
from collections import defaultdict

ROWS = [  # key, label, target ratio (None: none)
    ("per_op_add_1elem", "1-element add from the language, per op", 2.0),
    ("small_mm_norm_item_x1000", "1000 x (100x100 mm + norm + item), d2l", 1.0),
    ("matmul_100", "100x100 matmul", 1.0),
    ("sum_1e7", "sum of 10^7 float32", 1.0),
    ("add_1e7", "add of 10^7 float32", None),
    ("matmul_1024", "matmul 1024^2 float32", 0.95),
    ("matmul_2048", "matmul 2048^2 float32", 0.95),
    ("matmul_int64_512", "matmul 512^2 int64 (no BLAS)", None),
    ("mlp_default", "MLP step 784-256-10, batch 64, default threads", 1.0),
    ("mlp_1thread", "MLP step, one thread", 1.0),
]
LABELS = {"quiet": "as found", "neighbour": "+ spinning process (mean of 0.5 s)"}
NEIGHBOUR_TARGET = 0.8  # every row keeps this share of PyTorch's figure under the same neighbour


def fmt(s):
    return f"{s * 1e6:.2f} us" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def main(path):
    runs = defaultdict(dict)  # (cfg, key) -> {(side, round): seconds}
    for line in open(path):
        parts = line.split()
        if len(parts) != 5:
            continue
        cfg, rnd, side, key, val = parts
        runs[(cfg, key)][(side, int(rnd))] = float(val)

    print()
    print("| configuration | workload | gpulab | PyTorch | ratio PyTorch/gpulab [min-max] | target | met? |")
    print("|---|---|---|---|---|---|---|")
    for cfg in ("quiet", "neighbour"):
        for key, label, target in ROWS:
            d = runs.get((cfg, key))
            if not d:
                continue
            rounds = sorted({r for (_, r) in d if ("gl", r) in d and ("py", r) in d})
            if not rounds:
                continue
            g = [d[("gl", r)] for r in rounds]
            t = [d[("py", r)] for r in rounds]
            ratios = [d[("py", r)] / d[("gl", r)] for r in rounds]
            med = statistics.median(ratios)
            tgt = target if cfg == "quiet" else NEIGHBOUR_TARGET
            if key == "per_op_add_1elem" and cfg == "quiet":
                tgt_text = ">= 2 (gpulab <= 0.5x PyTorch's time)"
            elif tgt is None:
                tgt_text = "-"
            else:
                tgt_text = f">= {tgt}"
            met = "-" if tgt is None else ("yes" if med >= tgt else "**no**")
            extra = ""
            if key.startswith("mlp"):
                gm = statistics.median(g)
                worst = max(g) / gm
                extra = f"; gpulab runs {fmt(min(g))}-{fmt(max(g))}, slowest/median {worst:.2f}"
                if cfg == "neighbour":
                    tgt_text += ", slowest run <= 2x median"
                    met = "yes" if med >= tgt and worst <= 2.0 else "**no**"
            print(f"| {LABELS[cfg]} | {label} | {fmt(statistics.median(g))} | {fmt(statistics.median(t))} | "
                  f"{med:.2f} [{min(ratios):.2f}-{max(ratios):.2f}]{extra} | {tgt_text} | {met} |")
    s = runs.get(("startup", "startup"), {})
    rss = runs.get(("startup", "startup_rss_kb"), {}).get(("gl", 1))
    if s:
        g, t = s[("gl", 1)], s[("py", 1)]
        ok = g <= 0.010 and (rss is None or rss <= 30 * 1024)
        print(f"| as found | start-up, `gpulab -e ''` vs `import torch` (best of 10) | {fmt(g)}, "
              f"{(rss or 0) / 1024:.1f} MB resident | {fmt(t)} | {t / g:.0f} | <= 10 ms, <= 30 MB | "
              f"{'yes' if ok else '**no**'} |")


if __name__ == "__main__":
    main(sys.argv[1])
