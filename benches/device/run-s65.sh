#!/usr/bin/env bash
# Sixty-fifth session (written in the sixty-fourth, extended in the sixty-fifth; NOT RUN: no
# machine came in nine tries, which used the session's device time; in the sixty-sixth, two tries
# failed and then no machine was lent for the rest of the session. For the next session.)
# - the margin of hss NT 128^3 x 2048 (1.008, 0.993, 1.010 in s64b) over five rounds with its two
#   unit-grid tiles and the ping-pong tile, in turns;
# - xf32 NT 64^3 and 128^3 and d NT 128^3 against other configs (mma.sync tf32 tiles with more
#   blocks an SM or the whole K in the stages, tf32 wgmma `u` with four stages), two rounds;
# - the table tests of every config swept, through a table overlay (overlay-table.sh), so that a
#   pick from these lines is checked on the GPU in the same call;
# - the unit-grid picks in TN and TT (their tables keep the old picks, not measured);
# - d NT 128^3 x 2048 with its table pick (0.997 in the sixtieth session).
# Run in the order most wanted first (the device time left may cut it short): the xf32 and d
# sweep, the tests of its configs, hss, the sweep again, TN and TT. Sections stamped with the time.
# Carry: `TESTS="gemm gemm_i8_xf32" bash benches/device/stage.sh`, then drop
# .carry/rocmath-kernels.aot and .carry/rocmath-tune (the tree and the carry must stay under 64 MiB).
set -uo pipefail
source benches/device/session.sh
source benches/device/overlay-table.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > "$OUT/s65-gpu.txt"
g() { $B gemm --device cuda --iters 10 "$@" 2>&1 | grep -E "ratio|rror|wrong"; }
h128="-m 128 -n 128 -k 128 --batch 2048"
# (The direct path keeps stages - 1 K tiles in flight: s3 with K tiles of 32 or s2 with 64 has
# the whole K = 64 requested at once; at K = 128, s5 with 32 or s3 with 64.)
x64=(mt64x64x32_w2x2_s3_p8x8_g8_o1_mma16x8x8tf32 mt64x64x32_w2x2_s3_p8x8_g8_o3_mma16x8x8tf32
  mt64x64x32_w4x2_s3_p8x8_g8_o2_mma16x8x8tf32 mt64x64x64_w2x2_s2_p8x8_g8_o3_mma16x8x8tf32
  mt64x64x64_w4x2_s2_p8x8_g8_o2_mma16x8x8tf32 mt64x64x16_w2x2_s4_p8x8_g8_o3_mma16x8x8tf32)
x128=(mt64x64x32_w2x2_s5_p8x8_g8_o2_mma16x8x8tf32 mt64x64x64_w2x2_s3_p8x8_g8_o2_mma16x8x8tf32
  mt64x64x64_w4x2_s3_p8x8_g8_o2_mma16x8x8tf32 mt64x128x32_w2x2_s4_p8x8_g8_o2_mma16x8x8tf32
  mt128x64x32_w2x2_s4_p8x8_g8_o2_mma16x8x8tf32 mt128x128x32_w2x4_s4_p8x8_g8_o1_mma16x8x8tf32
  mt64x64x32_w1x1_s4tu_x_g8_o1_wgmma64xnx8tf32 mt64x128x32_w2x1_s4tu_x_g8_o1_wgmma64xnx8tf32)
d128=(mt64x64x16_w2x2_s3_p4x4_g8_o3_mma16x8x8f64 mt64x64x32_w2x2_s5_p4x4_g8_o1_mma16x8x16f64
  mt128x64x16_w2x2_s4_p4x4_g8_o1_mma16x8x16f64 mt64x64x16_w2x2_s8_p4x4_g8_o1_mma16x8x8f64)
sweep() {
  echo "== $(date +%T) round $1: xf32 NT 64^3 x 4096, table then others"
  g --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096
  for c in "${x64[@]}"; do g --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 --config $c; done
  echo "== $(date +%T) round $1: xf32 NT 128^3 x 2048, table then others"
  g --precision xf32 --transA N --transB T $h128
  for c in "${x128[@]}"; do g --precision xf32 --transA N --transB T $h128 --config $c; done
  echo "== $(date +%T) round $1: d NT 128^3 x 2048, table then others"
  g --precision d --transA N --transB T $h128
  for c in "${d128[@]}"; do g --precision d --transA N --transB T $h128 --config $c; done
}
{
  sweep 1
} 2>&1 | tee "$OUT/s65-lines.txt"
overlay_table /tmp/s65-tables xf32 nt "${x64[@]}" "${x128[@]}"
overlay_table /tmp/s65-tables d nt "${d128[@]}"
(
  echo "== $(date +%T) tests"
  export ROCMATH_REQUIRE_GPU=1 ROCMATH_TUNING_DIR=/tmp/s65-tables
  export ROCMATH_TEST_CONFIGS=$(IFS=,; echo "${x64[*]},${x128[*]},${d128[*]}")
  .carry/tests/gemm_i8_xf32-test --test-threads 1 every_xf32_table_config_matches_reference 2>&1 | tail -6
  .carry/tests/gemm-test --test-threads 1 table_configs_match_reference_d 2>&1 | tail -6
) 2>&1 | tee "$OUT/s65-tests.txt"
{
  for r in 1 2 3 4 5; do
    echo "== $(date +%T) round $r: hss NT"
    for c in mt128x64x64_w2x1_s2u_x_g8_o2 mt64x128x64_w1x1_s2u_x_g8_o2 mt64x64x64_w2x1_s3_x_g8_o2; do
      g --precision hss --transA N --transB T $h128 --config ${c}_wgmma64xnx16f16
    done
  done
  sweep 2
  for r in 1 2; do
    for t in "T N" "T T"; do
      set -- $t
      echo "== $(date +%T) round $r: $1$2, table then the unit-grid pick"
      for p in hss bss; do
        s=f16; [ $p = bss ] && s=bf16
        g --precision $p --transA $1 --transB $2 $h128
        g --precision $p --transA $1 --transB $2 $h128 --config mt128x64x64_w2x1_s2u_x_g8_o2_wgmma64xnx16$s
      done
      g --precision h --transA $1 --transB $2 $h128
      g --precision h --transA $1 --transB $2 $h128 --config mt64x64x64_w1x1_s2_x_g8_o3_wgmma64xnx16f16
    done
  done
  echo "== $(date +%T) end"
} 2>&1 | tee "$OUT/s65-lines-2.txt"
