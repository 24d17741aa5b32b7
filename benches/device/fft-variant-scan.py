#!/usr/bin/env python3
"""Blocks per SM of the single c2c one-pass kernel of each length, as generated and with its leaner
variants (no pass reading twiddles ahead: ROCMATH_FFT_TW_AHEAD=0; no exchange layouts:
ROCMATH_FFT_EXCHANGE_LAYOUTS=0; both), from ptxas's registers (benches/device/nvrtc-resources.py,
no GPU) and the generator's shared bytes (kernels/examples/fft_source.rs --shape), on sm_90's limits
(64 K registers, 228 KiB shared with 1 KiB reserved per block, 2048 threads, 32 blocks per SM).
Prints one line per length, and which variant the plan's rule would run (`pick_variant` in
kernels/src/gen/fft.rs, repeated here: at least 1.5 times the kernel's blocks, the most, the first
on a tie).

    python3 benches/device/fft-variant-scan.py [--variants default,nx] N ...
"""
import math, os, re, subprocess, sys

VARIANTS = {"default": {}, "nta": {"ROCMATH_FFT_TW_AHEAD": "0"}, "nx": {"ROCMATH_FFT_EXCHANGE_LAYOUTS": "0"},
            "nta_nx": {"ROCMATH_FFT_TW_AHEAD": "0", "ROCMATH_FFT_EXCHANGE_LAYOUTS": "0"}}

def run(cmd, env):
    return subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **env}).stdout

def blocks(n, env):
    name, threads, shared, static = run(["target/release/examples/fft_source", f"s{n}", "--shape"], env).split()
    report = run([sys.executable, "benches/device/nvrtc-resources.py", "fft", f"s{n}"], env).strip().splitlines()[-1]
    regs = int(re.search(r"(\d+) registers", report).group(1))
    threads, shared = int(threads), int(shared) + int(static)
    warps = math.ceil(threads / 32)
    by_regs = 65536 // (math.ceil(regs * 32 / 256) * 256 * warps)
    by_shared = 233472 // (shared + 1024)
    return name, regs, shared, min(by_regs, by_shared, 2048 // threads, 32)

def main():
    args = sys.argv[1:]
    names = ["default", "nta", "nx", "nta_nx"]
    if args[:1] == ["--variants"]:
        names, args = args[1].split(","), args[2:]
    for n in map(int, args):
        got = {v: blocks(n, VARIANTS[v]) for v in names}
        kernel = got[names[0]][3]
        others = [(v, got[v][3]) for v in names[1:] if got[v][0] != got[names[0]][0]]
        pick = None
        for v, b in others:
            if 2 * b >= 3 * kernel and (pick is None or b > dict(others)[pick]):
                pick = v
        cells = " ".join(f"{v}: {got[v][1]} regs {got[v][2]} B {got[v][3]} blocks" for v in names)
        print(f"{n} {got[names[0]][0]} | {cells} | runs {pick or names[0]}", flush=True)

if __name__ == "__main__":
    main()
