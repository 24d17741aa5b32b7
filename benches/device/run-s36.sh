#!/usr/bin/env bash
# Thirty-sixth session (FFT: short row transforms staged through shared memory both ways).
# After stage.sh, carry .carry. Output: $OUT/s36-$PHASE*.txt.
# PHASE=a: the new test and the ones the last session's radices changed, then fft-test,
#          fft_args-test and aot-test, with ROCMATH_REQUIRE_GPU=1; short lengths against cuFFT:
#          the default (rows staged below 128 bytes per access), never (ROCMATH_FFT_STAGED_ROWS=0)
#          and below 256 bytes; then the FFT suite.
# PHASE=g: (a GEMM carry: stage.sh without the FFT test binaries) every GEMM test binary with
#          ROCMATH_REQUIRE_GPU=1, the first run since the thirty-fourth session's runtime change.
source benches/device/session.sh
SHORT="2 4 8 13 16 17 19 32 38 64 100 128 256 d16 d32 d64 d128"
case $P in
a)
  nvidia-smi -L > "$OUT/s36-a-gpu.txt"
  {
    for t in short_rows_staged_both_ways radix_19 bluestein_lengths; do
      test_run 240 fft-test $t
    done
    test_run 420 fft-test
    test_run 200 fft_args-test
    test_run 200 aot-test
  } > "$OUT/s36-a-tests.txt" 2>&1
  for c in $SHORT; do
    sweep_case $c
    line "$p $n staged below 128 B" -- --precision $p --type c2c --length $n --batch $b
    line "$p $n never staged" ROCMATH_FFT_STAGED_ROWS=0 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n staged below 256 B" ROCMATH_FFT_STAGED_ROWS=256 -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s36-a.txt" 2>&1
  for n in 16 64; do
    line "half $n staged below 128 B" -- --precision half --type c2c --length $n --batch $(batch_for $n)
    line "half $n never staged" ROCMATH_FFT_STAGED_ROWS=0 -- --precision half --type c2c --length $n --batch $(batch_for $n)
  done >> "$OUT/s36-a.txt" 2>&1
  timeout 300 $B suite --only fft --device cuda > "$OUT/s36-a-fft-suite.txt" 2>&1 || status=1
  ;;
g)
  nvidia-smi -L > "$OUT/s36-g-gpu.txt"
  for t in .carry/tests/*; do
    test_run 300 "$(basename "$t")"
  done > "$OUT/s36-g-tests.txt" 2>&1
  ;;
esac
exit $status
