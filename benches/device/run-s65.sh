#!/usr/bin/env bash
# For the next session (written in the sixty-fourth, not run): the margin of hss 128^3 x 2048
# (1.008, 0.993, 1.010 in s64b) over five rounds with its two unit-grid tiles and the ping-pong
# tile, in turns; the unit-grid picks in TN and TT (their tables keep the old picks, not
# measured); d 128^3 x 2048 with its table pick (0.997 in the sixtieth session).
# Carry: `TESTS=gemm bash benches/device/stage.sh`, then drop .carry/rocmath-kernels.aot and
# .carry/rocmath-tune (the tree and the carry must stay under 64 MiB).
set -uo pipefail
source benches/device/session.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > "$OUT/s65-gpu.txt"
g() { $B gemm --device cuda --iters 10 "$@" 2>&1 | grep -E "ratio|rror|wrong"; }
h128="-m 128 -n 128 -k 128 --batch 2048"
{
  for r in 1 2 3 4 5; do
    echo "== round $r: hss NT"
    for c in mt128x64x64_w2x1_s2u_x_g8_o2 mt64x128x64_w1x1_s2u_x_g8_o2 mt64x64x64_w2x1_s3_x_g8_o2; do
      g --precision hss --transA N --transB T $h128 --config ${c}_wgmma64xnx16f16
    done
  done
  for r in 1 2; do
    for t in "T N" "T T"; do
      set -- $t
      echo "== round $r: $1$2, table then the unit-grid pick"
      for p in hss bss; do
        s=f16; [ $p = bss ] && s=bf16
        g --precision $p --transA $1 --transB $2 $h128
        g --precision $p --transA $1 --transB $2 $h128 --config mt128x64x64_w2x1_s2u_x_g8_o2_wgmma64xnx16$s
      done
      g --precision h --transA $1 --transB $2 $h128
      g --precision h --transA $1 --transB $2 $h128 --config mt64x64x64_w1x1_s2_x_g8_o3_wgmma64xnx16f16
    done
    echo "== round $r: d NT 128^3 (table)"
    g --precision d --transA N --transB T $h128
  done
} 2>&1 | tee "$OUT/s65-lines.txt"
