#!/usr/bin/env python3
"""Shared-memory wavefronts of a row-ordered Stockham kernel (rm_fft_pass in kernels/src/fft/fft.hip),
counted here without a GPU: every shared load and store of every pass, per warp, as sm_90 serves it
(an 8-byte access in two 16-lane phases, a 16-byte one in four of 8 lanes; a phase takes as many
wavefronts as the most distinct 4-byte words any one bank holds). Not modelled: the staged loads and
stores of short rows and four-step rows, the real pre/post steps, cluster exchanges. Compare with
ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared and l1tex__data_bank_conflicts_pipe_lsu_mem_shared
per block (c2c 1000 as 8 5 5 5 on an H200: 1376 and 521 measured, 1318 and 515 modelled).

    python3 benches/device/fft-shared-banks.py 1000 8,5,5,5 125 2 [--pad-shift 4] [--row ROW] [--double]
    python3 benches/device/fft-shared-banks.py 1000 10,10,10 100 2 --per-exchange [--double]

Arguments: N, the radix passes, threads per transform, transforms per block. --pad-shift 0: no
padding. The row stride defaults to StockhamKernel::row_stride's for a row kernel; --double: complex
f64 elements (16 bytes). --per-exchange: for each exchange through the row (pass p's stores and
pass p + 1's loads) on its own, the wavefronts unpadded and with the best single period P (one pad
element every P, 4 <= P <= 200, any row stride up to 15 past the padded row): what a padding chosen
per exchange would give. (The kernels choose per exchange differently: W pads after every group of
the storing pass, and paired stores, by the same model in Rust: exchange_layouts in
kernels/src/gen/fft.rs.)
"""
import sys


def pad(i, shift):
    return i + (i >> shift) if shift else i


def exchange_accesses(n, passes, tpt, tpb, p, padded, row):
    """Exchange p through the row (pass p's stores, then pass p + 1's loads), element e at
    padded(e): per warp-wide access, each lane's element or None."""
    threads, ns = tpt * tpb, 1
    for q in range(p):
        ns *= passes[q]
    for kind, q in (("st", p), ("ld", p + 1)):
        radix = passes[q]
        for it in range(-(-(n // radix) // tpt)):
            for r in range(radix):
                for w in range((threads + 31) // 32):
                    lanes = []
                    for tid in range(32 * w, 32 * w + 32):
                        t, lt = divmod(tid, tpt)
                        j = lt + it * tpt
                        if tid >= threads or j >= n // radix:
                            lanes.append(None)
                        elif kind == "ld":
                            lanes.append(t * row + padded(j + r * (n // radix)))
                        else:
                            lanes.append(t * row + padded((j // ns) * ns * radix + j % ns + r * ns))
                    if any(a is not None for a in lanes):
                        yield lanes


def exchange(n, passes, tpt, tpb, p, padded, row, words):
    """Wavefronts of exchange p."""
    return sum(wavefronts(lanes, words) for lanes in exchange_accesses(n, passes, tpt, tpb, p, padded, row))


def per_exchange(n, passes, tpt, tpb, words):
    for p in range(len(passes) - 1):
        none = exchange(n, passes, tpt, tpb, p, lambda e: e, n + 1, words)
        best = min((exchange(n, passes, tpt, tpb, p, lambda e, P=P: e + e // P, n + n // P + 1 + x, words), P, n + n // P + 1 + x)
                   for P in range(4, 201) for x in range(16))
        print(f"exchange {p} (pass {p} stores, pass {p + 1} loads): {none / tpb:.0f} wavefronts a transform unpadded, "
              f"{best[0] / tpb:.0f} with a pad every {best[1]} (row {best[2]})")


def row_stride(n, tpt, shift, words):
    base = n + (n >> shift) + 1 if shift else n + 1
    phase = 32 // words
    per_row = min(tpt, phase)
    if per_row >= phase:
        return base
    return base + (per_row + phase - base % phase) % phase


def phases(addresses, words):
    lanes = 32 // words
    return [addresses[i:i + lanes] for i in range(0, 32, lanes)]


def wavefronts(addresses, words):
    """addresses: per lane an element index (of `words` 4-byte words) or None: one access of a warp."""
    total = 0
    for phase in phases(addresses, words):
        banks = {}
        for a in phase:
            if a is None:
                continue
            for w in range(words * a, words * a + words):
                banks.setdefault(w % 32, set()).add(w)
        if banks:
            total += max(len(s) for s in banks.values())
    return total


def ideal(addresses, words):
    return sum(1 for phase in phases(addresses, words) if any(a is not None for a in phase))


def simulate(n, passes, tpt, tpb, shift, row, words=2):
    """Wavefronts of every exchange of the kernel, and how many of them an access without
    conflicts would have taken."""
    got = want = 0
    for p in range(len(passes) - 1):
        for lanes in exchange_accesses(n, passes, tpt, tpb, p, lambda e: pad(e, shift), row):
            got += wavefronts(lanes, words)
            want += ideal(lanes, words)
    return got, want


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 4:
        sys.exit(__doc__)
    n, passes, tpt, tpb = int(args[0]), [int(r) for r in args[1].split(",")], int(args[2]), int(args[3])
    shift = int(sys.argv[sys.argv.index("--pad-shift") + 1]) if "--pad-shift" in sys.argv else 4
    words = 4 if "--double" in sys.argv else 2
    if "--per-exchange" in sys.argv:
        return per_exchange(n, passes, tpt, tpb, words)
    row = int(sys.argv[sys.argv.index("--row") + 1]) if "--row" in sys.argv else row_stride(n, tpt, shift, words)
    got, want = simulate(n, passes, tpt, tpb, shift, row, words)
    padding = f"pad every {1 << shift}" if shift else "no padding"
    print(f"n {n} passes {passes} tpt {tpt} tpb {tpb} {padding} row {row}: "
          f"{got} wavefronts per block ({got / tpb:.0f} per transform), {got - want} of them conflicts")


if __name__ == "__main__":
    main()
