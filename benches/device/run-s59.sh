#!/usr/bin/env bash
# Fifty-ninth session: run-s58.sh's phase a without its goals run, for a machine that is not the
# H100 (no H100 could be started): the table tests of the configs new to their family's tables
# (ROCMATH_TEST_CONFIGS), then every table config of the gemm-test groups and of xf32. Timings
# are not taken here, so an H200 serves as well as an H100. Same staging and carry as run-s58.sh
# (the two test binaries named below). Output: $OUT/s59-t*.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s59-t-gpu.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >> "$OUT/s59-t-gpu.txt"
new=mt64x64x32_w2x2_s3_x_g8_o1_mma16x8x16,mt64x64x64_w2x1_s8_x_g8_o1_wgmma,mt32x32x32_w1x1_s2_x_g8_o1_mma16x8x16
new+=,mt32x32x32_w2x2_s2_p4x4_g8_o1_mma16x8x16f64,mt128x256x64_w2x1_s3m,mt64x64x32_w2x1_s3t
ROCMATH_TEST_CONFIGS=$new TEST_TIMEOUT=200 tests_in_parallel s59-t-new-configs.txt \
  "gemm-test table_configs_match_reference" "gemm_i8_xf32-test every_xf32_table_config"
echo "new configs tested at $SECONDS s"
TEST_TIMEOUT=300 tests_in_parallel s59-t-tables.txt "gemm-test table_configs_match_reference_16_bit" \
  "gemm-test table_configs_match_reference_d" "gemm_i8_xf32-test every_xf32_table_config"
echo "table tests at $SECONDS s"
exit $status
