#!/usr/bin/env bash
# Thirty-fourth session (FFT: lengths outside the suite; the 2^16 cluster block's occupancy).
# After stage.sh, carry .carry. Output: $OUT/s34-$PHASE*.txt.
# PHASE=a: a sweep of single c2c lengths outside the suite against cuFFT, about 2^26
#          elements per call: powers of 3, 5 and 7, 11/13/17-smooth and mixed lengths, primes
#          (Bluestein); then single 65536 x 1024 with radix-16 rows (ROCMATH_FFT_ROW_RADIX=16,
#          512 threads per 8192-point block) and with three blocks per SM asked
#          (ROCMATH_FFT_MIN_BLOCKS=3), against the default, two rounds in turn.
# PHASE=b: (odd composite radices 9, 15, 21, 25, 27 in the build) fft-test with
#          ROCMATH_REQUIRE_GPU=1; then each length of the sweep with odd factors, composites
#          (the default, odd cap 27) against each odd prime its own pass (ROCMATH_FFT_ODD_RADIX=1,
#          as before) and an odd cap of 9, in turn; single, and double at a few.
# PHASE=c: (the cap chosen per length, `odd_radix`) fft-test, fft_args-test and aot-test with
#          ROCMATH_REQUIRE_GPU=1; the sweep of PHASE b, the default against
#          ROCMATH_FFT_ODD_RADIX=1 in turn; the FFT suite.
# PHASE=d: (column passes take the odd cap 27) fft-test with ROCMATH_REQUIRE_GPU=1; the
#          four-step lengths of the sweep, the default against ROCMATH_FFT_ODD_RADIX=1 and 27;
#          lengths that fit both an ordinary kernel and a cluster, the default against
#          ROCMATH_FFT_CLUSTER=2 (a cluster wherever the length splits).
# PHASE=e: (column passes take the largest odd cap whose passes split evenly; the runtime raises
#          the dynamic shared-memory limit for any dynamic shared memory) fft-test, fft_args-test,
#          aot-test and runtime-test with ROCMATH_REQUIRE_GPU=1; gemm lines (their results checked
#          against the reference) in s, h, d, c; the four-step lengths of PHASE d, the default
#          against ROCMATH_FFT_ODD_RADIX=1; the FFT suite.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s34-a-gpu.txt"
  for n in 27 81 243 729 2187 6561 19683 59049 177147 531441 1594323 4782969 14348907 \
           125 625 3125 15625 78125 390625 1953125 9765625 \
           49 343 2401 16807 117649 823543 \
           121 1331 169 2197 289 4913 2288 \
           96 192 384 768 1536 3000 4374 5000 6000 10000 12000 12288 20480 24000 100000 1000000 \
           1031 8191 65537 131071; do
    line "$n" -- --precision single --type c2c --length $n --batch $(batch_for $n)
  done > "$OUT/s34-a-sweep.txt" 2>&1
  for round in 1 2; do
    line "65536 default ($round)" -- --precision single --type c2c --length 65536 --batch 1024
    line "65536 radix-16 rows ($round)" ROCMATH_FFT_ROW_RADIX=16 -- --precision single --type c2c --length 65536 --batch 1024
    line "65536 min blocks 3 ($round)" ROCMATH_FFT_MIN_BLOCKS=3 -- --precision single --type c2c --length 65536 --batch 1024
  done > "$OUT/s34-a-65536.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s34-b-gpu.txt"
  ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 420 .carry/tests/fft-test 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" > "$OUT/s34-b-tests.txt" || status=1
  for c in 27 81 243 729 2187 6561 19683 59049 177147 531441 1594323 4782969 14348907 \
           125 625 3125 15625 78125 390625 1953125 9765625 \
           1000 3000 4374 5000 6000 10000 12000 24000 100000 1000000 \
           d1000 d6561 d15625 d59049; do
    sweep_case $c
    line "$p $n odd 1" ROCMATH_FFT_ODD_RADIX=1 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n odd 27" -- --precision $p --type c2c --length $n --batch $b
    line "$p $n odd 9" ROCMATH_FFT_ODD_RADIX=9 -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s34-b-sweep.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s34-c-gpu.txt"
  for t in fft-test fft_args-test aot-test; do
    ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 420 .carry/tests/$t 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" | cut -c1-400 || status=1
  done > "$OUT/s34-c-tests.txt" 2>&1
  for c in 27 81 243 729 2187 6561 19683 59049 177147 531441 1594323 4782969 14348907 \
           125 625 3125 15625 78125 390625 1953125 9765625 \
           1000 3000 4374 5000 6000 10000 12000 24000 27000 100000 1000000 \
           d1000 d6561 d15625 d59049; do
    sweep_case $c
    line "$p $n odd 1" ROCMATH_FFT_ODD_RADIX=1 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n odd auto" -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s34-c-sweep.txt" 2>&1
  timeout 300 $B suite --only fft --device cuda > "$OUT/s34-c-fft-suite.txt" 2>&1 || status=1
  ;;
d)
  nvidia-smi -L > "$OUT/s34-d-gpu.txt"
  ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 420 .carry/tests/fft-test 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" | cut -c1-400 > "$OUT/s34-d-tests.txt" || status=1
  for c in 59049 177147 531441 1594323 4782969 14348907 78125 390625 1953125 9765625 100000 1000000 d59049 d177147; do
    sweep_case $c
    line "$p $n odd 1" ROCMATH_FFT_ODD_RADIX=1 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n odd auto" -- --precision $p --type c2c --length $n --batch $b
    line "$p $n odd 27" ROCMATH_FFT_ODD_RADIX=27 -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s34-d-sweep.txt" 2>&1
  for n in 5000 10000 12000 15625 19683 24000; do
    line "single $n default" -- --precision single --type c2c --length $n --batch $(batch_for $n)
    line "single $n cluster" ROCMATH_FFT_CLUSTER=2 -- --precision single --type c2c --length $n --batch $(batch_for $n)
  done > "$OUT/s34-d-cluster.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s34-e-gpu.txt"
  {
    for t in fft-test fft_args-test aot-test runtime-test; do
      ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 420 .carry/tests/$t 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" | cut -c1-400 || status=1
    done
    # The launch that failed in PHASE b and d (27000 with strided layouts; 150-point column
    # kernels of 48944 dynamic and 912 static shared bytes under cap 27), with the runtime fix.
    echo "## cluster_kernels with ROCMATH_FFT_ODD_RADIX=27"
    ROCMATH_FFT_ODD_RADIX=27 ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test cluster_kernels 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" | cut -c1-400 || status=1
  } > "$OUT/s34-e-tests.txt" 2>&1
  for p in s h d c; do
    ROCMATH_REQUIRE_GPU=1 timeout 120 $B gemm --precision $p --transA N --transB T -m 1024 -n 1024 -k 1024 --device cuda 2>&1 | grep -E "rocmath|cuBLAS|check|FAIL|error" || status=1
    ROCMATH_REQUIRE_GPU=1 timeout 120 $B gemm --precision $p --transA N --transB N -m 64 -n 64 -k 64 --batch 4096 --device cuda 2>&1 | grep -E "rocmath|cuBLAS|check|FAIL|error" || status=1
  done > "$OUT/s34-e-gemm.txt" 2>&1
  for c in 59049 177147 531441 1594323 4782969 14348907 78125 390625 1953125 9765625 100000 1000000 d59049 d177147; do
    sweep_case $c
    line "$p $n odd 1" ROCMATH_FFT_ODD_RADIX=1 -- --precision $p --type c2c --length $n --batch $b
    line "$p $n odd auto" -- --precision $p --type c2c --length $n --batch $b
  done > "$OUT/s34-e-sweep.txt" 2>&1
  timeout 300 $B suite --only fft --device cuda > "$OUT/s34-e-fft-suite.txt" 2>&1 || status=1
  ;;
esac
exit $status
