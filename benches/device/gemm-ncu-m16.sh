#!/usr/bin/env bash
# Nsight Compute on 16 x 8192 x 8192 (session 13): ours with the table's pick (the split-K main
# kernel and its reduce kernel), then the kernels cuBLAS runs. Full reports to $OUT/ncu-m16.txt.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
B=.carry/rocmath-bench
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy"
args="gemm --precision ${P:-hss} --transA N --transB T -m 16 -n 8192 -k 8192 --device cuda --iters 1 --warmup 0"
{
  echo "#### ours"
  timeout 150 ncu -k regex:gemm_ --launch-skip 2 --launch-count 2 $SECTIONS $B $args --no-peer
  echo "#### cuBLAS"
  timeout 150 ncu -k regex:'^(?!gemm_)' --launch-count 3 $SECTIONS $B $args
} > "$OUT/ncu-m16.txt" 2>&1
grep -E "####|^  [a-zA-Z_0-9]+.*\(|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Warp Cycles Per Issued|Grid Size|Registers Per|Achieved Occupancy" "$OUT/ncu-m16.txt" | cut -c1-160
