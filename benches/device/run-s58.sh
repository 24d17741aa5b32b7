#!/usr/bin/env bash
# After the fifty-eighth session's H100 re-tune of the sm_90 tables (no device time was left to
# test it): the table tests with the merged tables, issue 3's goals run on them, then the 31
# entries still measured on the H200. Stage first with the committed tables
# (`GEMM_AOT=1 bash benches/device/stage.sh`; the AOT cache then holds the new picks), carry
# .carry/rocmath-bench, .carry/rocmath-tune, .carry/rocmath-kernels.aot.gz and the test binaries
# named below (all of .carry is over the 64 MiB limit); kind nvidia-h100-x1. Output: $OUT/s58-$PHASE*.
# PHASE=a: the configs new to their family's tables first (ROCMATH_TEST_CONFIGS), then every
#          table config of the four gemm-test groups and of xf32, in parallel; then the goals
#          run (NT, every batched precision) while A_UNTIL (default 560 s) allows.
#          Carry .carry/tests/gemm-test and .carry/tests/gemm_i8_xf32-test.
# PHASE=t: phase a's tests alone (no timings: any Hopper card serves); TAG (default s58) names
#          the output files, $OUT/$TAG-t-*.
# PHASE=b: rocmath-tune on the H100 over the 16-bit TN/TT entries still measured on the H200
#          (the squares 1024-8192, TN's 4096 x 4096 x 65536, h TN's 8192 x 8192 x 128 and
#          batches), one size per step so that a stopped step loses one size at most, while
#          B_UNTIL (default 560 s) allows; tables to $OUT/tables, tarred as s58-b-tables.tgz.
#          A cold machine spends most of the first steps in nvrtc: call it twice back to back,
#          the second time with B_FROM=N (skip the first N steps; the first call prints them).
source benches/device/session.sh
source benches/device/gemm-lib.sh
T=${TAG:-s58}
nvidia-smi -L > "$OUT/$T-$P-gpu.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >> "$OUT/$T-$P-gpu.txt"
case $P in
a|t)
  new=mt64x64x32_w2x2_s3_x_g8_o1_mma16x8x16,mt64x64x64_w2x1_s8_x_g8_o1_wgmma,mt32x32x32_w1x1_s2_x_g8_o1_mma16x8x16
  new+=,mt32x32x32_w2x2_s2_p4x4_g8_o1_mma16x8x16f64,mt128x256x64_w2x1_s3m,mt64x64x32_w2x1_s3t
  ROCMATH_TEST_CONFIGS=$new TEST_TIMEOUT=200 tests_in_parallel $T-$P-new-configs.txt \
    "gemm-test table_configs_match_reference" "gemm_i8_xf32-test every_xf32_table_config"
  echo "new configs tested at $SECONDS s"
  TEST_TIMEOUT=300 tests_in_parallel $T-$P-tables.txt "gemm-test table_configs_match_reference_16_bit" \
    "gemm-test table_configs_match_reference_d" "gemm_i8_xf32-test every_xf32_table_config"
  echo "table tests at $SECONDS s"
  [ $P = a ] || exit $status
  left=$(( ${A_UNTIL:-560} - SECONDS )); [ $left -gt 30 ] || left=30
  BATCH_PRECISIONS="hss bss h s d xf32" timeout $left bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv "$OUT/goals.txt" "$OUT/s58-a-goals.txt"; mv "$OUT/goals-full.txt" "$OUT/s58-a-goals-full.txt"
  goals_table s58-a-goals
  ;;
b)
  steps=()
  for l in TN TT; do for p in hss bss h; do
    for s in 1024x1024x1024 2048x2048x2048 4096x4096x4096 8192x8192x8192; do steps+=("$p $l $s"); done
    [ $l = TN ] && steps+=("$p $l 4096x4096x65536")
  done; done
  steps+=("h TT 4096x4096x65536" "h TN 8192x8192x128" "h TN 64x64x64x4096" "h TN 32x32x32x10000")
  i=0
  for st in "${steps[@]}"; do
    i=$((i + 1))
    [ $i -gt ${B_FROM:-0} ] || continue
    [ $SECONDS -lt ${B_UNTIL:-560} ] || { echo "stopped before step $i ($st) at $SECONDS s: next B_FROM=$((i - 1))" | tee -a "$OUT/s58-b-summary.txt"; break; }
    set -- $st; tune_step s58-b-summary.txt $1 $2 $3
  done
  (cd "$OUT" && tar czf s58-b-tables.tgz tables tune-*.log && rm -rf tables tune-*.log)
  echo "tuned at $SECONDS s"
  ;;
esac
exit $status
