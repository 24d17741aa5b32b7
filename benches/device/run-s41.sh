#!/usr/bin/env bash
# Forty-first session (FFT: per-exchange row layouts of the radix-10 row kernels). After
# stage.sh, carry .carry. Output: $OUT/s41-$PHASE*.txt.
# PHASE=a: with ROCMATH_REQUIRE_GPU=1, fft-test, fft_args-test and aot-test of this build, beside
#          ncu's shared-memory wavefronts and bank conflicts for our c2c 1000 kernel (single,
#          double) and cuFFT's; then lengths with factors 2 and 5 with the exchange layouts (the
#          default) and without (ROCMATH_FFT_EXCHANGE_LAYOUTS=0), c2c two rounds, real one.
# PHASE=b: (the build with layouts in single and half c2c and r2c only) with
#          ROCMATH_REQUIRE_GPU=1, fft-test, fft_args-test and aot-test; then the FFT suite.
# PHASE=c: fft-test's radix-10, spread, powers, real and double-layout tests with exchange
#          layouts in every row kernel (ROCMATH_FFT_EXCHANGE_LAYOUTS=1); then the cases the
#          default leaves out (real inverse, double) and row kernels without radix 10, as now
#          and with the layouts (ROCMATH_FFT_EXCHANGE_LAYOUTS=1).
# PHASE=d: lengths with odd radices (3, 5, 7, 9, 11, 15, 25, 27) in padded rows, single c2c, as now
#          and with exchange layouts (ROCMATH_FFT_EXCHANGE_LAYOUTS=1), two rounds.
# PHASE=e: (the build with layouts in single and half row kernels of every length but powers of
#          two) with ROCMATH_REQUIRE_GPU=1, three fft-test runs at once (the device time left was
#          under 300 s), and aot-test. test_run then passed only its first filter, so each group
#          ran only its first name: real_lengths, spread_of_lengths, and the two layouts_ tests
#          (line.sh passes every filter now).
source benches/device/session.sh
# shared_counts TYPE PRECISION N: ncu's shared-memory wavefronts and bank conflicts per kernel
# of one bench run (ours, then cuFFT's).
shared_counts() {
  echo "######## $2 $1 $3"
  ROCMATH_CACHE_DIR=/tmp/rmc-ncu timeout 150 ncu --clock-control none --cache-control none --launch-count 4 \
    --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,launch__grid_size,launch__registers_per_thread,smsp__inst_executed.sum,gpu__time_duration.sum,l1tex__throughput.avg.pct_of_peak_sustained_active \
    $B fft --precision $2 --type $1 --length $3 --batch $4 --device cuda --iters 1 --warmup 0 2>&1
}
# layouts_ab TYPES CASES TAIL [ENV]: for each sweep case, each transform type's line with
# ROCMATH_FFT_EXCHANGE_LAYOUTS unset and set to ENV (default 0), labels ending in TAIL.
layouts_ab() { env_ab "$1" "$2" "$3" default "EXCHANGE_LAYOUTS=${4:-0}" ROCMATH_FFT_EXCHANGE_LAYOUTS=${4:-0}; }
case $P in
a)
  nvidia-smi -L > "$OUT/s41-a-gpu.txt"
  {
    test_run 400 fft-test
    test_run 30 fft_args-test
    test_run 30 aot-test
  } > "$OUT/s41-a-tests.txt" 2>&1 &
  {
    shared_counts c2c single 1000 65536
    ROCMATH_FFT_EXCHANGE_LAYOUTS=0 shared_counts c2c single 1000 65536
    shared_counts c2c double 1000 32768
    ROCMATH_FFT_EXCHANGE_LAYOUTS=0 shared_counts c2c double 1000 32768
  } > "$OUT/s41-a-ncu.txt" 2>&1
  wait
  {
    for round in 1 2; do
      layouts_ab c2c "1000 100 500 2000 4000 5000 d500 d1000 d2000 h1000" ", round $round"
    done
    layouts_ab "c2r r2c" "1000 2000 4000 d2000" ""
  } > "$OUT/s41-a.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s41-b-gpu.txt"
  {
    test_run 400 fft-test
    test_run 30 fft_args-test
    test_run 30 aot-test
  } > "$OUT/s41-b-tests.txt" 2>&1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 $B suite --only fft --device cuda > "$OUT/s41-b-fft-suite.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s41-c-gpu.txt"
  for t in radix_10_passes spread_of_lengths powers_of_2_3_5 real_lengths layouts_in_double; do
    ROCMATH_FFT_EXCHANGE_LAYOUTS=1 test_run 200 fft-test $t
  done > "$OUT/s41-c-tests.txt" 2>&1
  {
    layouts_ab c2r "1000 2000 4000" "" 1
    layouts_ab c2c "d500 d2000" "" 1
    layouts_ab c2c "256 1024 4096 3000 10000 d4096" "" 1
    layouts_ab c2r "2048 d1024" "" 1
  } > "$OUT/s41-c.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s41-d-gpu.txt"
  for round in 1 2; do
    layouts_ab c2c "3000 6000 5400 243 729 2187 6561 3125 625 375 2401 1331 7000 1200 3600" ", round $round" 1
  done > "$OUT/s41-d.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s41-e-gpu.txt"
  test_run 220 fft-test real_lengths multi_dimensional_mixes > "$OUT/s41-e-tests-1.txt" 2>&1 &
  test_run 220 fft-test spread_of_lengths powers_of_2_3_5 primes bluestein_lengths > "$OUT/s41-e-tests-2.txt" 2>&1 &
  test_run 220 fft-test layouts_ radix_ odd_composite short_rows real_transforms_in_one_launch large_batches scale_factors inverse_round_trips cluster_kernels > "$OUT/s41-e-tests-3.txt" 2>&1 &
  test_run 60 aot-test > "$OUT/s41-e-tests-aot.txt" 2>&1
  wait
  ;;
esac
exit $status
