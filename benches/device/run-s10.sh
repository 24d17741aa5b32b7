#!/usr/bin/env bash
# Tenth session, on the GPU machine (repo root, .carry from stage.sh). Logs to $OUT.
#   PHASE=a : ROCMATH_FFT_MIN_BLOCKS A/B (MB="1 2") on the single-precision suite lengths, then
#             cold plan creation (fresh kernel cache, ROCMATH_LOG_COMPILE=1) of the plans whose
#             modules compile slowly, each in two fresh processes.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=.carry/rocmath-bench
PHASE=${PHASE:-a}
source "$(dirname "$0")/line.sh"
if [ "$PHASE" = a ]; then
  nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/env.txt" 2>&1
  {
    for c in ${CASES:-"4096 16384" "8192 8192" "16384 4096" "32768 2048" "65536 1024" "262144 256" "1048576 64" "2097152 32" "8388608 8"}; do
      set -- $c
      for mb in ${MB:-1 2}; do line "min_blocks=$mb" ROCMATH_FFT_MIN_BLOCKS=$mb -- --precision single --type c2c --length $1 --batch $2; done
    done
  } 2>&1 | tee "$OUT/s10-min-blocks.txt"
  {
    for c in "--precision single --type c2c --length 8192 --batch 8" "--precision double --type c2c --length 1048576 --batch 2" \
             "--precision half --type c2c --length 1024 --batch 128" "--precision single --type c2r --length 128x96 --batch 2" \
             "--precision double --type r2c --length 64x30x7 --batch 3" "--precision single --type c2c --length 8388608 --batch 1" \
             "--precision single --type r2c --length 512x512x512 --batch 1"; do
      for round in 1 2; do
        d=/tmp/cold-$RANDOM; echo "== round $round: $c"
        ROCMATH_CACHE_DIR=$d ROCMATH_LOG_COMPILE=1 timeout 120 $B fft $c --device cuda 2>&1 | grep -E "compiled|compiler start|plan:"
        rm -rf $d
      done
    done
  } 2>&1 | tee "$OUT/s10-cold.txt"
fi
#   (ROCMATH_FFT_CLUSTER_STAGED, used by PHASE=b below, was a switch of that build only: the
#   staged cluster loads were 1.5-1.8x slower and are gone.)
#   PHASE=b : the FFT GPU tests named in TESTS (default: the cluster kernels and the tests that
#             reach their lengths), then cluster kernels A/B (ROCMATH_FFT_CLUSTER=0/1 and
#             ROCMATH_FFT_CLUSTER_BYTES) on the lengths they take.
if [ "$PHASE" = b ]; then
  if [ "${SKIP_TESTS:-0}" != 1 ]; then
    for t in ${TESTS:-cluster_kernels interleaved_pointers_one_scalar_into_a_pair powers_of_2_3_5 spread_of_lengths_single_c2c}; do
      for st in ${STAGED:-0}; do
        echo "== $t (ROCMATH_FFT_CLUSTER_STAGED=$st)"
        ROCMATH_FFT_CLUSTER_STAGED=$st ROCMATH_CACHE_DIR=/tmp/rmc ROCMATH_REQUIRE_GPU=1 timeout 400 .carry/tests/fft-test --exact $t --test-threads 8 2>&1 | tail -25
      done
    done 2>&1 | tee "$OUT/s10-tests.txt"
  fi
  {
    # (The first run of this phase also timed ROCMATH_FFT_CLUSTER_BYTES=65536, 8192-point blocks:
    # 1.5x slower at 16384 and 32768; and 8192 single, double 8192 as clusters: a tie, 8 % slower.)
    for c in ${CASES:-"16384 4096" "32768 2048" "16807 2048" "4116 16384"}; do
      set -- $c
      line "cluster=0" ROCMATH_FFT_CLUSTER=0 -- --precision single --type c2c --length $1 --batch $2
      for st in 0 1; do line "cluster staged=$st" ROCMATH_FFT_CLUSTER_STAGED=$st -- --precision single --type c2c --length $1 --batch $2; done
    done
    for st in 0 1; do line "double 16384 cluster staged=$st" ROCMATH_FFT_CLUSTER_STAGED=$st -- --precision double --type c2c --length 16384 --batch 2048; done
    line "double 16384 cluster=0" ROCMATH_FFT_CLUSTER=0 -- --precision double --type c2c --length 16384 --batch 2048
  } 2>&1 | tee "$OUT/s10-cluster-ab.txt"
fi
#   PHASE=c : ROCMATH_FFT_MIN_BLOCKS (MB) and 2048-point cluster blocks on the cluster lengths,
#             then Nsight Compute on the 16384 cluster kernel beside the 4096-point kernel.
if [ "$PHASE" = c ]; then
  {
    for c in "16384 4096" "32768 2048" "8192 8192"; do
      set -- $c
      for mb in ${MB:-1 2 3 4}; do line "min_blocks=$mb" ROCMATH_FFT_MIN_BLOCKS=$mb -- --precision single --type c2c --length $1 --batch $2; done
    done
    line "cluster bytes=16384 (8 x 2048)" ROCMATH_FFT_CLUSTER_BYTES=16384 -- --precision single --type c2c --length 16384 --batch 4096
  } 2>&1 | tee "$OUT/s10-cluster-tune.txt"
  export PATH=/usr/local/cuda/bin:$PATH
  {
    for c in "16384 4096 cl4" "4096 16384 n4096_r16x16x16_t256_b1_p_fwd"; do
      set -- $c
      ROCMATH_CACHE_DIR=/tmp/rmc $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 --no-peer > /dev/null 2>&1
      echo "== $1 x $2 ($3)"
      ROCMATH_CACHE_DIR=/tmp/rmc timeout 150 ncu -k regex:$3 --launch-skip 1 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats \
        $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 1 --no-peer 2>&1 | grep -v "^  check\|^\[" | grep -E "fft_ss|Throughput|Duration|Occupancy|Registers|Shared Memory|Stall|Warp Cycles|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Block Limit|Issued|Eligible|Waves|Cluster"
    done
  } 2>&1 | tee "$OUT/s10-ncu.txt"
fi
#   PHASE=d : every FFT GPU test (fft-test, fft_args-test) with ROCMATH_REQUIRE_GPU=1.
if [ "$PHASE" = d ]; then
  for t in fft-test fft_args-test; do
    echo "== $t"
    ROCMATH_CACHE_DIR=/tmp/rmc ROCMATH_REQUIRE_GPU=1 timeout 550 .carry/tests/$t --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed|FAIL" | tail -40
  done 2>&1 | tee "$OUT/s10-fft-test.txt"
fi
#   PHASE=e : the FFT suite, then clusters everywhere (ROCMATH_FFT_CLUSTER=2) against the
#             default at 8192, 4374 and 6561.
if [ "$PHASE" = e ]; then
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 400 $B suite --only fft --device cuda 2>&1 | tee "$OUT/s10-fft-suite.txt"
  {
    for c in "8192 8192" "4374 16384" "6561 8192"; do
      set -- $c
      for cl in 1 2; do line "cluster setting=$cl" ROCMATH_FFT_CLUSTER=$cl -- --precision single --type c2c --length $1 --batch $2; done
    done
  } 2>&1 | tee "$OUT/s10-cluster-everywhere.txt"
fi
#   PHASE=f : radix-32 passes (ROCMATH_FFT_RADIX32=1, a switch that build had; removed after
#             this run) against the default where they save a pass; warm plan creation of 4099 and double 2^20 (work buffer now allocated by
#             the first execution).
if [ "$PHASE" = f ]; then
  {
    for c in ${CASES:-"512 131072" "1024 65536" "8192 8192" "131072 512" "1048576 64"}; do
      set -- $c
      for r in 0 1; do line "radix32=$r" ROCMATH_FFT_RADIX32=$r -- --precision single --type c2c --length $1 --batch $2; done
    done
    for r in 0 1; do line "double radix32=$r" ROCMATH_FFT_RADIX32=$r -- --precision double --type c2c --length 8192 --batch 4096; done
  } 2>&1 | tee "$OUT/s10-radix32.txt"
  for c in "--precision single --type c2c --length 4099 --batch 16372" "--precision double --type c2c --length 1048576 --batch 64"; do
    echo "== $c"; ROCMATH_CACHE_DIR=/tmp/rmc timeout 120 $B fft $c --device cuda 2>&1 | grep -E "plan:|rocmath |cuFFT  "
  done 2>&1 | tee "$OUT/s10-warm-plans.txt"
fi
#   PHASE=g : nvrtc compile times in one process, alone and two threads at once
#             (benches/device/nvrtc-timing.py; sources copied into .carry/src/ beforehand).
if [ "$PHASE" = g ]; then
  python3 benches/device/nvrtc-timing.py 2>&1 | tee "$OUT/s10-nvrtc-timing.txt"
  { ls -la ~/.nv 2>&1; du -sh ~/.nv/* 2>&1; env | grep -i cache; } | tee "$OUT/s10-nvrtc-cache-dirs.txt"
  for s in 1 2; do
    echo "== SALT=$RANDOM$s"; SALT=$RANDOM$s python3 benches/device/nvrtc-timing.py
    echo "== SALT, CUDA_CACHE_DISABLE=1"; CUDA_CACHE_DISABLE=1 SALT=$RANDOM$s python3 benches/device/nvrtc-timing.py
  done 2>&1 | tee "$OUT/s10-nvrtc-salted.txt"
fi
#   PHASE=h : the final build's FFT GPU tests (as PHASE=d), then truly cold plan creation: an
#             empty kernel cache and CUDA_CACHE_DISABLE=1 (the driver's ComputeCache also keeps
#             nvrtc's PTX-to-SASS step: s10-nvrtc-salted.txt), each plan in a fresh process.
if [ "$PHASE" = h ]; then
  PHASE=d bash "$0"
  {
    for c in "--precision single --type c2c --length 4096 --batch 8" "--precision single --type c2c --length 16384 --batch 8" \
             "--precision single --type c2c --length 1048576 --batch 2" "--precision double --type c2c --length 1048576 --batch 2" \
             "--precision half --type c2c --length 1024 --batch 8" "--precision single --type r2c --length 512x512x512 --batch 1" \
             "--precision single --type c2c --length 4099 --batch 8"; do
      d=/tmp/cold-$RANDOM; echo "== $c"
      CUDA_CACHE_DISABLE=1 ROCMATH_CACHE_DIR=$d ROCMATH_LOG_COMPILE=1 timeout 120 $B fft $c --device cuda --no-peer 2>&1 | grep -E "compiled|compiler start|plan:"
      rm -rf $d
    done
  } 2>&1 | tee "$OUT/s10-cold-uncached.txt"
fi
#   PHASE=i : the review build's cluster tests, then cluster block sizes with the occupancy
#             bound: 8192 as 2 x 4096 and 4 x 2048, 16384 as 4 x 4096, 2 x 8192 and 8 x 2048.
if [ "$PHASE" = i ]; then
  for t in cluster_kernels interleaved_pointers_one_scalar_into_a_pair powers_of_2_3_5; do
    ROCMATH_CACHE_DIR=/tmp/rmc ROCMATH_REQUIRE_GPU=1 timeout 400 .carry/tests/fft-test --exact $t 2>&1 | grep -E "^test |test result|panicked"
  done 2>&1 | tee "$OUT/s10-review-tests.txt"
  {
    for cb in 32768 16384; do line "8192 clusters everywhere, block bytes $cb" ROCMATH_FFT_CLUSTER=2 ROCMATH_FFT_CLUSTER_BYTES=$cb -- --precision single --type c2c --length 8192 --batch 8192; done
    line "8192 default" -- --precision single --type c2c --length 8192 --batch 8192
    for cb in 32768 65536 16384; do line "16384 block bytes $cb" ROCMATH_FFT_CLUSTER_BYTES=$cb -- --precision single --type c2c --length 16384 --batch 4096; done
  } 2>&1 | tee "$OUT/s10-cluster-blocks.txt"
fi
#   PHASE=j : 8192-point cluster blocks where 4096-point ones are too few (2^16 single, 2^15
#             double): the cluster tests, then each against ROCMATH_FFT_CLUSTER=0.
if [ "$PHASE" = j ]; then
  for t in cluster_kernels powers_of_2_3_5 interleaved_pointers_one_scalar_into_a_pair; do
    ROCMATH_CACHE_DIR=/tmp/rmc ROCMATH_REQUIRE_GPU=1 timeout 400 .carry/tests/fft-test --exact $t 2>&1 | grep -E "^test |test result|panicked"
  done 2>&1 | tee "$OUT/s10-big-block-tests.txt"
  {
    for c in "single 65536 1024" "double 32768 1024" "double 16384 2048"; do
      set -- $c
      for cl in 0 1; do line "$1 cluster=$cl" ROCMATH_FFT_CLUSTER=$cl -- --precision $1 --type c2c --length $2 --batch $3; done
    done
  } 2>&1 | tee "$OUT/s10-big-blocks.txt"
fi
#   PHASE=k : the final build: every FFT GPU test (PHASE=d) and the FFT suite.
if [ "$PHASE" = k ]; then
  PHASE=d bash "$0"
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 $B suite --only fft --device cuda 2>&1 | tee "$OUT/s10-fft-suite-final.txt"
fi
