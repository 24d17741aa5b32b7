#!/usr/bin/env bash
# Fortieth session (FFT: c2c 1000 on the H200, the real transforms' hermitian rows, the thread-range
# rule at more lengths). After stage.sh, carry .carry. Output: $OUT/s40-$PHASE*.txt.
# PHASE=a: with ROCMATH_REQUIRE_GPU=1, fft-test, fft_args-test and aot-test of this build (the
#          last session's final build, not yet run on a GPU); beside them, ncu's launch, occupancy,
#          warp-state and memory tables for our kernel and cuFFT's at single c2c 1000, c2r / r2c
#          2048 and c2r 4096; and fft-test's spread, real, multi-dimensional and double-layout
#          tests with radix-10 passes everywhere they fit (ROCMATH_FFT_TENS=1).
# PHASE=b: the FFT suite; then lengths with factors 2 and 5, as now and with radix-10 passes
#          (ROCMATH_FFT_TENS=1), two rounds; then the thread-range rule (ROCMATH_FFT_ASSUME_LANE=0
#          against the default) at 2048, 16384, half 4096 and the cluster kernels 32768, 65536.
# PHASE=c: (target/varT: rocmath-bench and fft-test with radix-10 rows unpadded) lengths with
#          factors 2 and 5, as now and with radix-10 passes (ROCMATH_FFT_TENS=1), c2c two rounds,
#          real one; then varT's fft-test with ROCMATH_FFT_TENS=1: radix_10_passes, the spread of
#          lengths, multi-dimensional mixes, double and half layouts, real lengths.
# PHASE=d: (stage.sh of the radix-10 build) with ROCMATH_REQUIRE_GPU=1, fft-test, fft_args-test
#          and aot-test; then the FFT suite, and c2c / real lines of 2^a 5^b lengths.
# PHASE=e: (target/varP: rocmath-bench and fft-test with the twiddle-products switch) lines with
#          and without ROCMATH_FFT_TW_PRODUCTS (1: single; 2: double too); then varP's fft-test
#          with ROCMATH_FFT_TW_PRODUCTS=2: radix-10 passes, the spread of lengths, double and half
#          layouts, powers of 2, 3 and 5.
source benches/device/session.sh
# profile TYPE N: ncu's tables for every kernel of one bench run (ours, then cuFFT's).
profile() {
  echo "######## single $1 $2"
  ROCMATH_CACHE_DIR=/tmp/rmc-ncu timeout 150 ncu --clock-control none --cache-control none --launch-count 4 \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --print-details all \
    $B fft --precision single --type $1 --length $2 --batch $(batch_for $2) --device cuda --iters 1 --warmup 0 2>&1
}
# tens_ab TYPES CASES TAIL (phases b and c): for each sweep case, each transform type's line as
# now and with radix-10 passes (ROCMATH_FFT_TENS=1), labels ending in TAIL.
tens_ab() { env_ab "$1" "$2" "$3" now "radix-10 passes" ROCMATH_FFT_TENS=1; }
case $P in
a)
  nvidia-smi -L > "$OUT/s40-a-gpu.txt"
  {
    test_run 400 fft-test
    test_run 30 fft_args-test
    test_run 30 aot-test
  } > "$OUT/s40-a-tests.txt" 2>&1 &
  {
    for t in spread_of_lengths real_lengths multi_dimensional layouts_in_double; do
      ROCMATH_FFT_TENS=1 test_run 300 fft-test $t
    done
  } > "$OUT/s40-a-tests-tens.txt" 2>&1 &
  for c in "c2c 1000" "c2r 2048" "r2c 2048" "c2r 4096"; do profile $c; done > "$OUT/s40-a-ncu.txt" 2>&1
  wait
  ;;
b)
  nvidia-smi -L > "$OUT/s40-b-gpu.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 $B suite --only fft --device cuda > "$OUT/s40-b-fft-suite.txt" 2>&1
  {
    for round in 1 2; do
      tens_ab c2c "100 500 1000 2000 5000 10000 d1000" ", round $round"
    done
    for c in 2048 16384 h4096; do
      sweep_case $c
      for t in c2c c2r r2c; do
        args=(--precision $p --type $t --length $n --batch $b)
        line "$t $p $n default" -- "${args[@]}"
        line "$t $p $n range not assumed" ROCMATH_FFT_ASSUME_LANE=0 -- "${args[@]}"
      done
    done
    for n in 32768 65536; do
      args=(--precision single --type c2c --length $n --batch $(batch_for $n))
      line "c2c single $n default (not assumed: cluster)" -- "${args[@]}"
      line "c2c single $n range assumed" ROCMATH_FFT_ASSUME_LANE=1 -- "${args[@]}"
    done
  } > "$OUT/s40-b.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s40-c-gpu.txt"
  B=target/varT/rocmath-bench
  {
    for round in 1 2; do
      tens_ab c2c "100 500 1000 2000 4000 5000 10000 d500 d1000 d2000 h1000" ", round $round"
    done
    tens_ab "c2r r2c" "1000 2000 4000 d2000" ""
  } > "$OUT/s40-c.txt" 2>&1
  for t in radix_10_passes spread_of_lengths multi_dimensional layouts_in_double real_lengths; do
    ROCMATH_FFT_TENS=1 ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc-varT timeout 250 target/varT/fft-test $t 2>&1 \
      | grep -E "^test |test result|panicked|failed|FAIL|error| checked" | cut -c1-400
  done > "$OUT/s40-c-tests.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s40-d-gpu.txt"
  {
    test_run 400 fft-test
    test_run 30 fft_args-test
    test_run 30 aot-test
  } > "$OUT/s40-d-tests.txt" 2>&1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 $B suite --only fft --device cuda > "$OUT/s40-d-fft-suite.txt" 2>&1
  {
    for c in 500 2000 4000 d1000 h1000; do
      sweep_case $c
      line "c2c $p $n" -- --precision $p --type c2c --length $n --batch $b
    done
    for c in 2000 d2000; do
      sweep_case $c
      for t in c2r r2c; do line "$t $p $n" -- --precision $p --type $t --length $n --batch $b; done
    done
  } > "$OUT/s40-d.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s40-e-gpu.txt"
  B=target/varP/rocmath-bench
  {
    for c in "c2c 1000" "c2c 4096" "c2c 8192" "c2r 1024" "r2c 1024" "c2r 2048" "r2c 2048" "c2r 16384"; do
      set -- $c
      args=(--precision single --type $1 --length $2 --batch $(batch_for $2))
      line "$1 single $2 table" -- "${args[@]}"
      line "$1 single $2 products" ROCMATH_FFT_TW_PRODUCTS=1 -- "${args[@]}"
    done
    args=(--precision double --type c2c --length 1024 --batch 32768)
    line "c2c double 1024 table" -- "${args[@]}"
    line "c2c double 1024 products" ROCMATH_FFT_TW_PRODUCTS=2 -- "${args[@]}"
  } > "$OUT/s40-e.txt" 2>&1
  for t in radix_10_passes spread_of_lengths layouts_in_double powers_of_2_3_5; do
    ROCMATH_FFT_TW_PRODUCTS=2 ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc-varP timeout 60 target/varP/fft-test $t 2>&1 \
      | grep -E "^test |test result|panicked|failed|FAIL|error| checked" | cut -c1-400
  done > "$OUT/s40-e-tests.txt" 2>&1
  ;;
esac
exit $status
