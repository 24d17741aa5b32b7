#!/usr/bin/env bash
# Thirty-third session (FFT: cluster kernels of several rows per block, so that a block's
# strided loads fill whole 32-byte sectors). After stage.sh, carry .carry.
# Output: $OUT/s33-$PHASE*.txt.
# PHASE=a: cluster_kernels with ROCMATH_REQUIRE_GPU=1; rows (the default) against one row per
#          block (ROCMATH_FFT_CLUSTER_ROWS=1, the previous kernels), two rounds in turn, at single
#          32768 x 2048 and 65536 x 1024, double 16384 x 2048 and 32768 x 1024, half 32768 x 2048,
#          single 20480 x 3276; the twiddles by products (ROCMATH_FFT_CLUSTER_PRODUCTS=1) in the
#          same rounds; ncu of the single 32768 and 65536 kernels all three ways (time, DRAM, L2
#          sectors, stalls).
# PHASE=c: (rows reverted) the last cluster barrier without a release fence (the default of this
#          build) against with it (ROCMATH_FFT_CLUSTER_EXIT=0, as before), and with the
#          cross-block twiddles as powers of one entry (ROCMATH_FFT_CLUSTER_PRODUCTS=1), two rounds
#          in turn at every cluster length of the suite and the tests; cluster_kernels in the
#          default build and with products.
# PHASE=d: clusters of 16 blocks (non-portable on sm_90; the default of this build) against at
#          most 8 (ROCMATH_FFT_MAX_CLUSTER=8, as before), two rounds in turn, at single 65536 x
#          1024 (16 x 4096 against 8 x 8192) and 131072 x 512 (16 x 8192 against the four-step),
#          double 32768 x 1024 and 65536 x 512, and single 32768 (the same kernel both ways);
#          cluster_kernels with ROCMATH_REQUIRE_GPU=1.
# PHASE=e: (16 blocks reverted) the cross-block twiddles read between the first cluster barrier's
#          arrival and its wait (ROCMATH_FFT_CLUSTER_EARLY=1), and the decimated loads with the
#          L2 prefetch of column kernels (ROCMATH_FFT_CLUSTER_L2_PREFETCH=1, 128 bytes; and 256),
#          against the default, two rounds in turn at the cluster lengths of the suite and double
#          2^14, 2^15; cluster_kernels with both switches on.
# PHASE=g: (the final build) ncu of single 2^15 and 2^16, ours and cuFFT's kernels: time, DRAM,
#          L2 sectors, instructions, stall reasons, warps active; where the cluster time goes now.
# PHASE=h: (review: cluster plans upload only the twiddle rows the kernel reads) cluster_kernels
#          with the products and with the table (ROCMATH_FFT_CLUSTER_PRODUCTS=0); single 2^15 and
#          double 2^14 lines.
# PHASE=b: (the relaxed exit and the products the default; run on that build, then again after
#          PHASE=e with the L2 prefetch for cluster kernels too, files s33-f-*) fft-test,
#          fft_args-test and aot-test with ROCMATH_REQUIRE_GPU=1; the FFT suite.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s33-a-gpu.txt"
  ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 240 .carry/tests/fft-test cluster_kernels 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" > "$OUT/s33-a-tests.txt" || status=1
  for c in "single 32768 2048" "single 65536 1024" "double 16384 2048" "double 32768 1024" "half 32768 2048" "single 20480 3276"; do
    set -- $c
    for round in 1 2; do
      line "$2 $1 rows ($round)" -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 one row ($round)" ROCMATH_FFT_CLUSTER_ROWS=1 -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 rows, products ($round)" ROCMATH_FFT_CLUSTER_PRODUCTS=1 -- --precision $1 --type c2c --length $2 --batch $3
    done
  done > "$OUT/s33-a-fft.txt" 2>&1
  M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_op_read_hit_rate.pct,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread
  M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__warps_active.avg.pct_of_peak_sustained_active
  for ab in "8 0" "1 0" "8 1"; do
    set -- $ab
    rows=$1 products=$2
    for c in "32768 2048" "65536 1024"; do
      set -- $c
      echo "#### single $1 x $2, ROCMATH_FFT_CLUSTER_ROWS=$rows ROCMATH_FFT_CLUSTER_PRODUCTS=$products"
      ROCMATH_FFT_CLUSTER_ROWS=$rows ROCMATH_FFT_CLUSTER_PRODUCTS=$products ROCMATH_CACHE_DIR=/tmp/rmc timeout 120 ncu --clock-control none --cache-control none --kernel-name regex:fft_ --launch-count 1 --metrics $M \
        $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 2>&1 \
        | grep -E "^  [a-zA-Z_0-9<>]+.*\(|dram__|lts__|smsp__|gpu__|launch__"
    done
  done > "$OUT/s33-a-ncu.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s33-c-gpu.txt"
  for v in 0 1; do
    echo "## ROCMATH_FFT_CLUSTER_PRODUCTS=$v"
    ROCMATH_FFT_CLUSTER_PRODUCTS=$v ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 .carry/tests/fft-test cluster_kernels 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error"
  done > "$OUT/s33-c-tests.txt" 2>&1 || status=1
  for c in "single 32768 2048" "single 65536 1024" "double 16384 2048" "double 32768 1024" "single 4374 15343" "single 16807 3993"; do
    set -- $c
    for round in 1 2; do
      line "$2 $1 fenced exit ($round)" ROCMATH_FFT_CLUSTER_EXIT=0 -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 relaxed exit ($round)" -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 relaxed exit, products ($round)" ROCMATH_FFT_CLUSTER_PRODUCTS=1 -- --precision $1 --type c2c --length $2 --batch $3
    done
  done > "$OUT/s33-c-fft.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s33-d-gpu.txt"
  ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 .carry/tests/fft-test cluster_kernels 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" > "$OUT/s33-d-tests.txt" || status=1
  for c in "single 65536 1024" "single 131072 512" "double 32768 1024" "double 65536 512" "single 32768 2048"; do
    set -- $c
    for round in 1 2; do
      line "$2 $1 at most 8 blocks ($round)" ROCMATH_FFT_MAX_CLUSTER=8 -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 up to 16 blocks ($round)" -- --precision $1 --type c2c --length $2 --batch $3
    done
  done > "$OUT/s33-d-fft.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s33-e-gpu.txt"
  ROCMATH_FFT_CLUSTER_EARLY=1 ROCMATH_FFT_CLUSTER_L2_PREFETCH=1 ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 .carry/tests/fft-test cluster_kernels 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error" > "$OUT/s33-e-tests.txt" || status=1
  for c in "single 32768 2048" "single 65536 1024" "double 16384 2048" "double 32768 1024"; do
    set -- $c
    for round in 1 2; do
      line "$2 $1 default ($round)" -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 early twiddles ($round)" ROCMATH_FFT_CLUSTER_EARLY=1 -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 L2 prefetch 128 ($round)" ROCMATH_FFT_CLUSTER_L2_PREFETCH=1 -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 L2 prefetch 256 ($round)" ROCMATH_FFT_CLUSTER_L2_PREFETCH=1 ROCMATH_FFT_L2_PREFETCH=256 -- --precision $1 --type c2c --length $2 --batch $3
    done
  done > "$OUT/s33-e-fft.txt" 2>&1
  ;;
g)
  M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_op_read_hit_rate.pct,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__grid_size,launch__block_size
  M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
  for c in "32768 2048" "65536 1024"; do
    set -- $c
    echo "#### single $1 x $2 (ours, then cuFFT's kernels)"
    ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 ncu --clock-control none --cache-control none --launch-count 12 --metrics $M \
      $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 2>&1 \
      | grep -E "^  [a-zA-Z_0-9<>:]+.*\(|dram__|lts__|smsp__|gpu__|launch__|rocmath |cuFFT  "
  done > "$OUT/s33-g-ncu.txt" 2>&1
  nvidia-smi -L > "$OUT/s33-g-gpu.txt"
  ;;
h)
  for v in 1 0; do
    echo "## ROCMATH_FFT_CLUSTER_PRODUCTS=$v"
    ROCMATH_FFT_CLUSTER_PRODUCTS=$v ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 .carry/tests/fft-test cluster_kernels 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error"
  done > "$OUT/s33-h-tests.txt" 2>&1 || status=1
  for c in "single 32768 2048" "double 16384 2048"; do
    set -- $c
    line "$2 $1" -- --precision $1 --type c2c --length $2 --batch $3
  done > "$OUT/s33-h-fft.txt" 2>&1
  ;;
b|f)
  export ROCMATH_REQUIRE_GPU=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s33-$P-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 60 .carry/tests/fft_args-test 2>&1 | grep -E "test result|panicked" >> "$OUT/s33-$P-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 120 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked" >> "$OUT/s33-$P-tests.txt" || status=1
  unset ROCMATH_REQUIRE_GPU
  timeout 300 $B suite --only fft --device cuda > "$OUT/s33-$P-fft-suite.txt" 2>&1 || status=1
  ;;
esac
exit $status
