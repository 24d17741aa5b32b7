#!/usr/bin/env python3
"""Writes the untuned AMD GEMM tables (tuning/tables/gfx90a, gfx942).

No AMD GPU is available to tune on, so these are hand-chosen from the MFMA rates, LDS and
register budgets (shared/KERNELS.md): the 32x32 MFMA shapes (fewest LDS reads per FLOP at the
same rate as 16x16 on CDNA2/3), 128x128 macro tiles over 2x2 waves for large problems (about
18-36 KiB of LDS and <= 128 VGPR+AGPR, so >= 2 waves per SIMD), and 64x64 tiles for problems
too small to fill the 104-304 CUs with 128x128 tiles. Every solution is compiled and checked by
kernels-check (which reads these tables); none has been run. Re-run after a generator change.
"""
import json, os, sys

GENERATOR = "rocmath-gemm/2"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tables")

def cfg(mt, atom, waves=(2, 2), pad=(4, 4)):
    return f"mt{mt[0]}x{mt[1]}x{mt[2]}_w{waves[0]}x{waves[1]}_s1_p{pad[0]}x{pad[1]}_g1_o2_{atom}"

# family -> (small-problem solution, large-problem solution)
FAMILIES = {
    "h": (cfg((64, 64, 32), "mfma32x32x8f16"), cfg((128, 128, 32), "mfma32x32x8f16")),
    "hss": (cfg((64, 64, 32), "mfma32x32x8f16"), cfg((128, 128, 32), "mfma32x32x8f16")),
    "hhs": (cfg((64, 64, 32), "mfma32x32x8f16"), cfg((128, 128, 32), "mfma32x32x8f16")),
    "bss": (cfg((64, 64, 32), "mfma32x32x8bf16"), cfg((128, 128, 32), "mfma32x32x8bf16")),
    "bbs": (cfg((64, 64, 32), "mfma32x32x8bf16"), cfg((128, 128, 32), "mfma32x32x8bf16")),
    "s": (cfg((64, 64, 16), "mfma32x32x2f32"), cfg((128, 128, 16), "mfma32x32x2f32")),
    "xf32": (cfg((64, 64, 16), "mfma32x32x2f32"), cfg((128, 128, 16), "mfma32x32x2f32")),
    "d": (cfg((64, 64, 16), "mfma16x16x4f64"), cfg((128, 64, 16), "mfma16x16x4f64")),
}
# z (complex f64 on v_mfma_f64_16x16x4f64): two-stage direct-path tiles, padded for each layout
# (which operands' LDS tiles are k-contiguous, as GemmConfig::complex_tile pads them): 32 x 32 x 8
# for small problems, 64 x 64 x 4 for large; both keep two waves per SIMD within LDS.
Z_K_CONTIGUOUS = {"nt": (False, False), "nn": (False, True), "tn": (True, True), "tt": (True, False)}

def z_cfg(mt, layout):
    pad = lambda kc, rows: (4 + 8 - mt[2] % 8 if kc else 2 + 8 - rows % 8) % 8
    ka, kb = Z_K_CONTIGUOUS[layout]
    return f"mt{mt[0]}x{mt[1]}x{mt[2]}_w2x2_s2_p{pad(ka, mt[0])}x{pad(kb, mt[1])}_g8_o2_mfma16x16x4z"

# (the day each family's tables were first written)
DATES = {"z": "2026-11-27"}

SMALL = [(256, 256, 256, 1), (512, 512, 512, 1), (64, 64, 64, 1000), (128, 128, 128, 1000)]
LARGE = [(2048, 2048, 2048, 1), (8192, 8192, 8192, 1)]

for arch in ["gfx90a", "gfx942"]:
    os.makedirs(os.path.join(ROOT, arch), exist_ok=True)
    for types in list(FAMILIES) + ["z"]:
        for layout in ["nn", "nt", "tn", "tt"]:
            if types == "z":
                small, large = z_cfg((32, 32, 8), layout), z_cfg((64, 64, 4), layout)
            else:
                small, large = FAMILIES[types]
            entries = [dict(m=m, n=n, k=k, batch=b, solution=small) for (m, n, k, b) in SMALL]
            entries += [dict(m=m, n=n, k=k, batch=b, solution=large) for (m, n, k, b) in LARGE]
            entries.sort(key=lambda e: (e["batch"], e["m"], e["n"], e["k"]))
            table = {
                "format": 1, "op": "gemm", "arch": arch, "types": types, "layout": layout,
                "generator": GENERATOR,
                "device": "untuned: chosen from MFMA rates and LDS/register budgets; compiled and checked, not run",
                "tuned": False, "date": DATES.get(types, "2026-11-21"), "fallback": large, "entries": entries,
            }
            with open(os.path.join(ROOT, arch, f"gemm_{types}_{layout}.json"), "w") as f:
                json.dump(table, f, indent=2)
                f.write("\n")
print("wrote", ROOT, file=sys.stderr)
