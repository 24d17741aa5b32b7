#!/usr/bin/env bash
# Forty-third session (FFT: the lengths whose registers step down under the twiddles-ahead
# default). After staging rocmath-bench, the ahead-of-time file and the fft, fft_args and aot
# test binaries into .carry, carry .carry. Output: $OUT/s43-$PHASE*.txt.
# PHASE=a: the 26 single c2c lengths that the forty-second session's ptxas scan found one block
#          per SM lower under the default (s42-ptxas-scan.txt, "STEP") against
#          ROCMATH_FFT_TW_AHEAD=0, one round; then fft-test, fft_args-test and aot-test with
#          ROCMATH_REQUIRE_GPU=1 (the full fft-test had not run on the final per-pass rule).
# PHASE=b: (the build where a plan compiles each kernel with passes ahead beside its twin with none
#          and runs the one with more blocks per SM) the same 26 lengths and eight where reading
#          ahead won in the forty-second session, against ROCMATH_FFT_TW_AHEAD=0; fft-test,
#          fft_args-test, aot-test.
# PHASE=c: (phase b's build, the print parse of the new test fixed) that test and the FFT suite.
# PHASE=e: (phase b's build) ncu's launch, occupancy and speed-of-light sections of ours and
#          cuFFT's kernels at lengths where we are at 0.53-0.69 of cuFFT (9000, 5670, 6174, 4860),
#          to see how cuFFT runs them (one pass? threads, registers, blocks per SM).
# PHASE=f: (phase b's build) exchange layouts off (ROCMATH_FFT_EXCHANGE_LAYOUTS=0) against the
#          default at lengths whose layouts take 3x the row's shared memory (a radix-2 first pass
#          with 4 pads after every pair), and 7000 / 375 / 6000, where they won before.
source benches/device/session.sh
STEP_LENGTHS="96 104 234 250 936 972 1536 2106 2688 3072 3125 4116 4212 4860 5120 5625 5670 6174 6468 7203 7560 7680 8748 9000 9375 9720"
case $P in
a)
  nvidia-smi -L > "$OUT/s43-a-gpu.txt"
  env_ab c2c "$STEP_LENGTHS" "" default "TW_AHEAD=0" ROCMATH_FFT_TW_AHEAD=0 > "$OUT/s43-a.txt" 2>&1
  {
    test_run 330 fft-test
    test_run 40 fft_args-test
    test_run 40 aot-test
  } > "$OUT/s43-a-tests.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s43-b-gpu.txt"
  {
    env_ab c2c "$STEP_LENGTHS" "" default "TW_AHEAD=0" ROCMATH_FFT_TW_AHEAD=0
    env_ab c2c "1000 2000 500 5000 2187 5400 7000 10000" "" default "TW_AHEAD=0" ROCMATH_FFT_TW_AHEAD=0
  } > "$OUT/s43-b.txt" 2>&1
  {
    test_run 330 fft-test
    test_run 40 fft_args-test
    test_run 40 aot-test
  } > "$OUT/s43-b-tests.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s43-c-gpu.txt"
  test_run 200 fft-test twiddles_ahead_only_where_they_cost_no_block > "$OUT/s43-c-tests.txt" 2>&1
  [ -n "$TEST_ONLY" ] && exit $status
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 250 $B suite --only fft --device cuda > "$OUT/s43-c-fft-suite.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s43-e-gpu.txt"
  for n in 9000 5670 6174 4860; do
    echo "######## c2c single $n"
    ROCMATH_CACHE_DIR=/tmp/rmc timeout 100 ncu --clock-control none --cache-control none --launch-count 6 \
      --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
      $B fft --precision single --type c2c --length $n --batch $(batch_for $n) --device cuda --iters 1 --warmup 0 2>&1
  done > "$OUT/s43-e-ncu.txt" 2>&1
  ;;
f)
  nvidia-smi -L > "$OUT/s43-f-gpu.txt"
  env_ab c2c "5670 6174 2106 4914 7938 8190 9450 3402 1470 750 7000 375 6000" "" default "LAYOUTS=0" ROCMATH_FFT_EXCHANGE_LAYOUTS=0 > "$OUT/s43-f.txt" 2>&1
  ;;
esac
exit $status
