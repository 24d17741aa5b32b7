#!/usr/bin/env bash
# Sixty-seventh session, second call: every batched-small goal case (NT, six precisions, three
# shapes) with the tables as committed after the first call (ROCMATH_TUNING_DIR=tuning/tables
# overlays the binary's embedded tables with the tree's), two rounds in turned order; then hss NT
# 128^3 with the table's 128x64 unit-grid tile against the 64x128 one, five rounds in turns; then
# xf32 NT 64^3 x 4096 with the unit-grid tile at other occupancies and stage counts.
# Carry: `TESTS="gemm gemm_i8_xf32" bash benches/device/stage.sh`, then drop
# .carry/rocmath-kernels.aot and .carry/rocmath-tune.
set -uo pipefail
source benches/device/session.sh
export ROCMATH_TUNING_DIR=$PWD/tuning/tables
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > "$OUT/s67b-gpu.txt"
g() { $B gemm --device cuda --iters 10 "$@" 2>&1 | grep -E "ratio|rror|wrong"; }
small() {
  for p in "$@"; do
    g --precision $p --transA N --transB T -m 32 -n 32 -k 32 --batch 10000
    g --precision $p --transA N --transB T -m 64 -n 64 -k 64 --batch 4096
    g --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048
  done
}
h128="-m 128 -n 128 -k 128 --batch 2048"
{
  echo "== $(date +%T) round 1: batched small, tables"
  small h hss bss s d xf32
  echo "== $(date +%T) round 2: batched small, tables, order turned"
  small xf32 d s bss hss h
  for r in 1 2 3 4 5; do
    echo "== $(date +%T) round $r: hss NT 128^3, 128x64 unit grid (table) and 64x128"
    a=mt128x64x64_w2x1_s2u_x_g8_o2_wgmma64xnx16f16 b=mt64x128x64_w1x1_s2u_x_g8_o2_wgmma64xnx16f16
    [ $((r % 2)) = 0 ] && { t=$a; a=$b; b=$t; }
    g --precision hss --transA N --transB T $h128 --config $a
    g --precision hss --transA N --transB T $h128 --config $b
  done
  for r in 1 2; do
    echo "== $(date +%T) round $r: xf32 NT 64^3 x 4096, unit-grid tile variants"
    for c in mt64x64x32_w1x1_s2tu_x_g8_o3 mt64x64x32_w1x1_s2tu_x_g8_o2 mt64x64x32_w1x1_s2tu_x_g8_o4 \
      mt64x64x32_w1x1_s3tu_x_g8_o2 mt64x64x32_w2x1_s2tu_x_g8_o2 mt64x64x32_w2x1_s2tu_x_g8_o3; do
      g --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 --config ${c}_wgmma64xnx8tf32
    done
  done
  echo "== $(date +%T) end"
} 2>&1 | tee "$OUT/s67b-lines.txt"
