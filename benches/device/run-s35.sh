#!/usr/bin/env bash
# Thirty-fifth session (FFT: Bluestein in one fused kernel over a 5-smooth convolution length).
# After stage.sh, carry .carry. Output: $OUT/s35-$PHASE*.txt.
# PHASE=a: fft-test's new bluestein_lengths alone, then fft-test, fft_args-test and aot-test,
#          with ROCMATH_REQUIRE_GPU=1; the Bluestein lengths against cuFFT on the default plan.
# PHASE=b: each Bluestein length in turn: the default (fused, 5-smooth m), the power of two
#          (ROCMATH_FFT_BLUESTEIN_SMOOTH=2, the old m), 3- and 7-smooth m, and five launches
#          (ROCMATH_FFT_BLUESTEIN_FUSED=0); then the FFT suite.
# PHASE=c: (7-smooth m by default; the first that fits a block fused) the tests of PHASE a.
# PHASE=d: each Bluestein length, the default against 5-smooth m, two rounds; the FFT suite.
# PHASE=e: (radix-19 and radix-23 butterflies) the fft-test cases whose lengths they change,
#          with ROCMATH_REQUIRE_GPU=1; lengths with 19 and 23 against cuFFT (before: Bluestein).
source benches/device/session.sh
# Primes past 17 (and 2062 = 2 x 1031): m = 40, 196, 2160, 4320, 8640, 16384 in one block;
# 25000 (12289) where f32 still fits; 131220 and 262440 past it.
LENGTHS="19 97 1031 2062 4099 8191 12289 65537 131071 d1031 d4099"
case $P in
a)
  nvidia-smi -L > "$OUT/s35-a-gpu.txt"
  {
    test_run 240 fft-test bluestein_lengths
    test_run 420 fft-test
    test_run 200 fft_args-test
    test_run 200 aot-test
  } > "$OUT/s35-a-tests.txt" 2>&1
  for c in $LENGTHS; do
    sweep_case $c
    line "$p $n" -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s35-a.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s35-b-gpu.txt"
  for c in $LENGTHS; do
    sweep_case $c
    line "$p $n fused 5-smooth" -- --precision $p --type c2c --length $n --batch $b
    line "$p $n fused power of two" ROCMATH_FFT_BLUESTEIN_SMOOTH=2 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n fused 3-smooth" ROCMATH_FFT_BLUESTEIN_SMOOTH=3 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n fused 7-smooth" ROCMATH_FFT_BLUESTEIN_SMOOTH=7 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n five launches 5-smooth" ROCMATH_FFT_BLUESTEIN_FUSED=0 -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s35-b.txt" 2>&1
  timeout 300 $B suite --only fft --device cuda > "$OUT/s35-b-fft-suite.txt" 2>&1 || status=1
  ;;
c)
  nvidia-smi -L > "$OUT/s35-c-gpu.txt"
  {
    test_run 240 fft-test bluestein_lengths
    test_run 420 fft-test
    test_run 200 fft_args-test
    test_run 200 aot-test
  } > "$OUT/s35-c-tests.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s35-d-gpu.txt"
  for round in 1 2; do
    for c in $LENGTHS; do
      sweep_case $c
      line "$p $n 7-smooth ($round)" -- --precision $p --type c2c --length $n --batch $b
      line "$p $n 5-smooth ($round)" ROCMATH_FFT_BLUESTEIN_SMOOTH=5 -- --precision $p --type c2c --length $n --batch $b
    done
  done > "$OUT/s35-d.txt" 2>&1
  timeout 300 $B suite --only fft --device cuda > "$OUT/s35-d-fft-suite.txt" 2>&1 || status=1
  ;;
e)
  nvidia-smi -L > "$OUT/s35-e-gpu.txt"
  for t in radices_19_and_23 bluestein_lengths spread_of_lengths_single_c2c primes; do
    test_run 200 fft-test $t
  done > "$OUT/s35-e-tests.txt" 2>&1
  for c in 19 23 361 437 1748 2944 19456 753664 d1748; do
    sweep_case $c
    line "$p $n" -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s35-e.txt" 2>&1
  ;;
esac
exit $status
