#!/usr/bin/env bash
# Fifteenth session (radix-32 FFT rows; 16-bit and f32 small batches over the wgmma tiles).
# After stage.sh, carry .carry. Output: $OUT/s15-$PHASE*.txt.
# PHASE=a: single c2c 1024-16384 with the default row radix (16) against radix-32 rows
# (ROCMATH_FFT_ROW_RADIX=32, padding every 32 behind a radix-32 first pass) at the default
# occupancy bound and at 2 and 3 blocks per SM; then hss, bss, h and s NT re-tuned at the three
# small batches over every candidate (session 13's 64-row wgmma tiles had been tuned at the
# squares and skinny shapes only), and the batch lines with the committed and the new tables.
# PHASE=b-j: FFT A/Bs, tests, ncu and suites of the later builds; each case says what it runs
# (benches/results/2026-11-21-h100-fft.md and -gemm.md, fifteenth session, list the files).
source benches/device/gemm-lib.sh
source benches/device/session.sh
BATCHES="32 10000|64 4096|128 2048"
case $P in
a)
  nvidia-smi -L > "$OUT/s15-a-gpu.txt"
  for c in "1024 65536" "2048 32768" "4096 16384" "8192 8192" "16384 4096"; do
    set -- $c
    line "radix 16" -- --precision single --type c2c --length $1 --batch $2
    line "radix 32" ROCMATH_FFT_ROW_RADIX=32 -- --precision single --type c2c --length $1 --batch $2
  done > "$OUT/s15-a-fft.txt" 2>&1
  for m in 2 3; do line "radix 32, $m blocks" ROCMATH_FFT_ROW_RADIX=32 ROCMATH_FFT_MIN_BLOCKS=$m -- --precision single --type c2c --length 8192 --batch 8192; done >> "$OUT/s15-a-fft.txt" 2>&1
  line "radix 16 again" -- --precision single --type c2c --length 8192 --batch 8192 >> "$OUT/s15-a-fft.txt" 2>&1
  line "double radix 16" -- --precision double --type c2c --length 8192 --batch 4096 >> "$OUT/s15-a-fft.txt" 2>&1
  line "double radix 32" ROCMATH_FFT_ROW_RADIX=32 -- --precision double --type c2c --length 8192 --batch 4096 >> "$OUT/s15-a-fft.txt" 2>&1
  PRECISIONS="hss bss h s" LAYOUTS=NT SIZES="32x32x32x10000,64x64x64x4096,128x128x128x2048" \
    MAX_CANDIDATES=40 DEADLINE=330 STEP_TIMEOUT=120 bash benches/device/run-tune.sh || status=1
  cp "$OUT/summary.txt" "$OUT/s15-a-tune-summary.txt"
  for p in hss bss h s; do
    IFS='|'; for c in $BATCHES; do
      IFS=' '; set -- $c
      bench_line s15-a "$p $1^3 x $2 committed" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
      ROCMATH_TUNING_DIR="$OUT/tables" bench_line s15-a "$p $1^3 x $2 re-tuned" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
    done; IFS=' '
  done
  tar czf "$OUT/s15-a-tables.tgz" -C "$OUT" tables/sm_90
  (cd "$OUT" && tar czf s15-a-tune-logs.tgz tune-*.log)
  rm -rf "$OUT/tables" "$OUT/summary.txt" "$OUT"/tune-*.log "$OUT/env.txt"
  ;;
b)
  # PHASE a's tune steps ran out of time before 128^3 (and s): hss and bss at 128^3 over the
  # wgmma candidates, s at the three batches; then the lines. FFT: the cluster kernels whose
  # blocks change with radix-32 rows (65536 as 8 x 8192), and 12288 (32 32 4 3).
  for c in "65536 1024" "12288 4096" "32768 2048"; do
    set -- $c
    line "radix 16" -- --precision single --type c2c --length $1 --batch $2
    line "radix 32" ROCMATH_FFT_ROW_RADIX=32 -- --precision single --type c2c --length $1 --batch $2
  done > "$OUT/s15-b-fft.txt" 2>&1
  PRECISIONS="hss bss" LAYOUTS=NT SIZES="128x128x128x2048" VARIANTS=wgmma MAX_CANDIDATES=40 DEADLINE=200 STEP_TIMEOUT=100 \
    bash benches/device/run-tune.sh || status=1
  PRECISIONS="s" LAYOUTS=NT SIZES="32x32x32x10000,64x64x64x4096,128x128x128x2048" MAX_CANDIDATES=40 DEADLINE=300 STEP_TIMEOUT=150 \
    bash benches/device/run-tune.sh || status=1
  cp "$OUT/summary.txt" "$OUT/s15-b-tune-summary.txt"
  for p in hss bss s; do
    IFS='|'; for c in $BATCHES; do
      IFS=' '; set -- $c
      [ $p != s ] && [ $1 != 128 ] && continue
      bench_line s15-b "$p $1^3 x $2 committed" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
      ROCMATH_TUNING_DIR="$OUT/tables" bench_line s15-b "$p $1^3 x $2 re-tuned" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
    done; IFS=' '
  done
  tar czf "$OUT/s15-b-tables.tgz" -C "$OUT" tables/sm_90
  (cd "$OUT" && tar czf s15-b-tune-logs.tgz tune-*.log)
  rm -rf "$OUT/tables" "$OUT/summary.txt" "$OUT"/tune-*.log "$OUT/env.txt"
  ;;
c)
  # Radix-32 rows where the plans now take them (8192 and up, powers of two), then everywhere a
  # row kernel runs (ROCMATH_FFT_ROW_RADIX=32: the staged four-step rows, real post-processing
  # and cluster blocks pad every 32 too); the ahead-of-time kernels; the GEMM table configs.
  export ROCMATH_REQUIRE_GPU=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s15-c-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 60 .carry/tests/fft_args-test 2>&1 | grep -E "test result|panicked" >> "$OUT/s15-c-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 120 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked" >> "$OUT/s15-c-tests.txt" || status=1
  echo "== ROCMATH_FFT_ROW_RADIX=32" >> "$OUT/s15-c-tests.txt"
  ROCMATH_FFT_ROW_RADIX=32 ROCMATH_CACHE_DIR=/tmp/rmc32 timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" >> "$OUT/s15-c-tests.txt" || status=1
  ;;
d)
  # Four-step splits with 8192-point (radix-32) row passes (ROCMATH_FFT_COLUMN_MAX, a switch in
  # that build only) against the default near-square ones; then the FFT suite on the final build; the GEMM table configs
  # (the new batch entries).
  for c in "20 128 64" "21 256 32" "22 512 16" "23 1024 8" "24 2048 4"; do
    set -- $c
    line "2^$1 default" -- --precision single --type c2c --length $((1 << $1)) --batch $3
    line "2^$1 columns of $2" ROCMATH_FFT_COLUMN_MAX=$2 -- --precision single --type c2c --length $((1 << $1)) --batch $3
  done > "$OUT/s15-d-fft-split.txt" 2>&1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 400 $B suite --only fft --device cuda > "$OUT/s15-d-fft-suite.txt" 2>&1 || status=1
  run_test s15-d-tests.txt gemm-test every_table_config_matches_reference
  ROCMATH_CACHE_DIR=/tmp/rmc run_test s15-d-tests.txt fft-test cluster_kernels
  ;;
e)
  # The four-step lengths with radix-32 column passes, radix-32 row passes, and both.
  for c in "21 32" "22 16" "23 8" "24 4"; do
    set -- $c
    args="--precision single --type c2c --length $((1 << $1)) --batch $2"
    line "2^$1 default" -- $args
    line "2^$1 column radix 32" ROCMATH_FFT_COLUMN_RADIX=32 -- $args
    line "2^$1 row radix 32" ROCMATH_FFT_ROW_RADIX=32 -- $args
    line "2^$1 both radix 32" ROCMATH_FFT_COLUMN_RADIX=32 ROCMATH_FFT_ROW_RADIX=32 -- $args
    line "2^$1 column radix 32, 32-byte columns" ROCMATH_FFT_COLUMN_RADIX=32 ROCMATH_FFT_COLUMN_BYTES=32 -- $args
  done > "$OUT/s15-e-fft.txt" 2>&1
  ;;
f)
  # Nsight Compute at the clocks and caches of a normal run (no locking, no flushes) on single
  # c2c 2^22 x 16 and 2^23 x 8: every kernel of one bench process, ours and then cuFFT's.
  for c in "4194304 16" "8388608 8"; do
    set -- $c
    echo "#### $1 x $2"
    ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 ncu --clock-control none --cache-control none --launch-count 12 \
      --section SpeedOfLight --section LaunchStats --section Occupancy --metrics smsp__inst_executed.sum \
      $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 2 --warmup 0 2>&1 \
      | grep -E "^  [a-zA-Z_0-9<>]+.*\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|inst_executed|Block Size|Grid Size|rocmath |cuFFT  "
  done > "$OUT/s15-f-ncu.txt" 2>&1
  ;;
g)
  # Column-pass loads with an L2 prefetch hint of 64, 128 or 256 bytes (ROCMATH_FFT_L2_PREFETCH)
  # against none, at the four-step lengths, double 2^20 and 256^3.
  for c in "single 1048576 64" "single 2097152 32" "single 4194304 16" "single 8388608 8" "single 16777216 4" "double 1048576 64" "single 256x256x256 1"; do
    set -- $c
    for h in none 64 128 256; do
      line "$2 $1 prefetch $h" $([ $h != none ] && echo ROCMATH_FFT_L2_PREFETCH=$h) -- --precision $1 --type c2c --length $2 --batch $3
    done
  done > "$OUT/s15-g-fft.txt" 2>&1
  ;;
h)
  # The final build (L2 prefetch 128 by default in plain column kernels): the FFT tests, the
  # ahead-of-time kernels, the suite.
  export ROCMATH_REQUIRE_GPU=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s15-h-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 60 .carry/tests/fft_args-test 2>&1 | grep -E "test result|panicked" >> "$OUT/s15-h-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 120 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked" >> "$OUT/s15-h-tests.txt" || status=1
  timeout 300 $B suite --only fft --device cuda > "$OUT/s15-h-fft-suite.txt" 2>&1 || status=1
  ;;
i)
  # Transform offsets found once per block and shared (not by every thread before its first
  # load): the suite and the FFT tests.
  export ROCMATH_REQUIRE_GPU=1
  timeout 300 $B suite --only fft --device cuda > "$OUT/s15-i-fft-suite.txt" 2>&1 || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s15-i-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 60 .carry/tests/fft_args-test 2>&1 | grep -E "test result|panicked" >> "$OUT/s15-i-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 120 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked" >> "$OUT/s15-i-tests.txt" || status=1
  ;;
j)
  # On the final build: column blocks of 32 and 128 bytes, and a 256-byte prefetch, against the
  # defaults (64 bytes, 128-byte prefetch) at 2^20-2^24.
  for c in "20 64" "21 32" "22 16" "23 8" "24 4"; do
    set -- $c
    args="--precision single --type c2c --length $((1 << $1)) --batch $2"
    line "2^$1 default" -- $args
    line "2^$1 32-byte columns" ROCMATH_FFT_COLUMN_BYTES=32 -- $args
    line "2^$1 128-byte columns" ROCMATH_FFT_COLUMN_BYTES=128 -- $args
    line "2^$1 prefetch 256" ROCMATH_FFT_L2_PREFETCH=256 -- $args
  done > "$OUT/s15-j-fft.txt" 2>&1
  ;;
esac
exit $status
