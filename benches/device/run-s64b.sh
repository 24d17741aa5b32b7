#!/usr/bin/env bash
# Sixty-fourth session, second call: the batched lines with the tables' new picks (h NT 128^3: 64 x
# 64 s2 o3; hss and bss NT 128^3: 128 x 64 s2 on a grid of a block a unit, `u`; xf32 NT 64^3:
# 64 x 64 s2t o3 `u`), the same configs in NN against that table's pick, and the table tests of
# the new configs. Carry: `TESTS="gemm gemm_i8_xf32" bash benches/device/stage.sh` (no AOT).
set -uo pipefail
source benches/device/session.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > "$OUT/s64b-gpu.txt"
g() { $B gemm --device cuda --iters 10 "$@" 2>&1 | grep -E "ratio|rror|wrong"; }
h128="-m 128 -n 128 -k 128 --batch 2048"
{
  for r in 1 2 3; do
    echo "== round $r: NT, table"
    for p in h hss bss xf32; do g --precision $p --transA N --transB T $h128; done
    g --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096
  done
  for r in 1 2; do
    echo "== round $r: NN, table then the NT picks"
    g --precision h --transA N --transB N $h128
    g --precision h --transA N --transB N $h128 --config mt64x64x64_w1x1_s2_x_g8_o3_wgmma64xnx16f16
    for p in hss bss; do
      t=f16; [ $p = bss ] && t=bf16
      g --precision $p --transA N --transB N $h128
      g --precision $p --transA N --transB N $h128 --config mt128x64x64_w2x1_s2u_x_g8_o2_wgmma64xnx16$t
    done
    g --precision xf32 --transA N --transB N -m 64 -n 64 -k 64 --batch 4096
    g --precision xf32 --transA N --transB N -m 64 -n 64 -k 64 --batch 4096 --config mt64x64x32_w1x1_s2tu_x_g8_o3_wgmma64xnx8tf32
  done
} 2>&1 | tee "$OUT/s64b-lines.txt"
export ROCMATH_REQUIRE_GPU=1 ROCMATH_TEST_CONFIGS=s2u_,s2tu_,s2_x_g8_o3_
{
  .carry/tests/gemm-test --test-threads 1 table_configs_match_reference_16_bit wgmma_pingpong_strided_batches 2>&1 | tail -6
  .carry/tests/gemm_i8_xf32-test --test-threads 1 every_xf32_table_config_matches_reference 2>&1 | tail -6
} 2>&1 | tee "$OUT/s64b-tests.txt"
