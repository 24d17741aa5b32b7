#!/usr/bin/env bash
# For the next session (written in the sixty-third, not run): the wgmma kernels with one block a
# work unit (ROCMATH_GEMM_WGMMA_GRID=units) against their persistent grid and cuBLAS, at the
# batch shapes still short of issue 3's goal, over tiles whose stages hold the whole K (s2) at
# two or three blocks an SM; then the GEMM tests under the switch.
# (Run in the sixty-fourth session. The switch has since become the config flag `u` (`s2u`) and
# the variable is gone, so rerun as it stands this times the persistent grid twice.)
# Carry: `TESTS=gemm bash benches/device/stage.sh` (.carry: rocmath-bench, tests/gemm-test), then
# `cargo build --release -p rocmath-bench --example bw_probe` and target/release/examples/bw_probe
# copied to .carry/ (the probe, first run with A and B from two streams).
set -uo pipefail
source benches/device/session.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > "$OUT/s64-gpu.txt"
g() { $B gemm --device cuda --iters 10 --transA N --transB T "$@" 2>&1 | grep -E "ratio|rror"; }
both() { echo "-- persistent"; g "$@"; echo "-- units"; ROCMATH_GEMM_WGMMA_GRID=units g "$@"; }
h128="-m 128 -n 128 -k 128 --batch 2048"
{ echo "== h 128^3 x 2048"; .carry/bw_probe; } 2>&1 | tee "$OUT/s64-probe.txt" | grep -E "==|copy|staged|entry a block, 512"
{
  for r in 1 2; do
    echo "== round $r"
    for p in h hss bss; do
      t=f16; [ $p = bss ] && t=bf16
      g --precision $p $h128   # the table's pick
      # (each compiles for sm_90a, no spills, by nvrtc-resources.py --arch sm_90a: 64x128 o3 fails ptxas, 128x128
      # w2x1 o2 is invalid)
      for c in mt64x64x64_w1x1_s2_x_g8_o3 mt64x64x64_w1x1_s3_x_g8_o3 mt64x128x64_w1x1_s2_x_g8_o2 \
               mt128x64x64_w2x1_s2_x_g8_o2 mt128x128x64_w2x1_s6_x_g8_o1 mt64x64x64_w2x1_s3_x_g8_o2; do
        echo "- $p $c"; both --precision $p $h128 --config ${c}_wgmma64xnx16$t
      done
    done
    # (w2x1 s2t o2 spills 36 bytes in one transpose, w1x1 s2t o3 4 bytes)
    for c in mt64x64x32_w2x1_s3t_x_g8_o1 mt64x64x32_w2x1_s2t_x_g8_o2 mt64x64x32_w1x1_s2t_x_g8_o3; do
      echo "- xf32 64^3 $c"; both --precision xf32 -m 64 -n 64 -k 64 --batch 4096 --config ${c}_wgmma64xnx8tf32
    done
    echo "- xf32 128^3 (table)"; both --precision xf32 $h128
  done
} 2>&1 | tee "$OUT/s64-lines.txt"
ROCMATH_GEMM_WGMMA_GRID=units ROCMATH_REQUIRE_GPU=1 ROCMATH_TEST_CONFIGS=o2_wgmma,o3_wgmma,s6_x \
  .carry/tests/gemm-test --test-threads 1 table_configs_match_reference_16_bit wgmma_pingpong_strided_batches 2>&1 | tail -20 | tee "$OUT/s64-tests.txt"
