#!/usr/bin/env bash
# Nsight Compute on the small-batch GEMM kernels (session 9): ours pinned to a config, then the
# kernels cuBLAS runs for the same call. CASES: "precision size batch config" per line.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
B=.carry/rocmath-bench
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats"
KEEP="gemm_|Kernel|Throughput|Duration|Occupancy|Registers|Shared Memory|Stall|Warp Cycles|L2 Hit|Mem Busy|Max Bandwidth|Block Limit|Grid Size|Block Size|Waves|Eligible|Issued"
while read -r p s batch cfg; do
  [ -z "$p" ] && continue
  args="gemm --precision $p --transA N --transB T -m $s -n $s -k $s --batch $batch --device cuda --iters 1 --warmup 0"
  echo "#### ours $p $s^3 x $batch $cfg"
  timeout 120 ncu -k regex:gemm_ --launch-count 1 $SECTIONS $B $args --config $cfg --no-peer 2>&1 | grep -E "$KEEP" | grep -v "^  check"
  if [ -n "${PEER:-}" ]; then
    echo "#### cuBLAS $p $s^3 x $batch"
    timeout 120 ncu -k regex:'^(?!gemm_)' --launch-count 2 $SECTIONS $B $args --config $cfg 2>&1 | grep -E "$KEEP|^  [a-zA-Z_0-9]+.*\(" | grep -v "^  check"
  fi
done <<< "${CASES:-hss 32 10000 mt32x32x32_w1x1_s3p_x_g8_o1_mma16x8x16f16
hss 32 10000 mt32x32x32_w2x1_s2_x_g8_o1_mma16x8x16f16}"
