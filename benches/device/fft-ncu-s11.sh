#!/usr/bin/env bash
# Eleventh session: Nsight Compute on every kernel of the four-step cases, ours and cuFFT's, in
# one bench process each (--iters 1 --warmup 0: our plan's kernels, then cuFFT's). Output:
# s11-ncu-fourstep.txt.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=/tmp/rmc
B=.carry/rocmath-bench
for c in "single 1048576 64" "single 262144 256" "single 4194304 16" "double 1048576 64"; do
  set -- $c
  echo "== $1 $2 x $3"
  $B fft --precision $1 --type c2c --length $2 --batch $3 --device cuda --iters 1 --warmup 0 > /dev/null 2>&1
  timeout 200 ncu --launch-count 14 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats \
    $B fft --precision $1 --type c2c --length $2 --batch $3 --device cuda --iters 1 --warmup 0 2>&1 | grep -v "^  check\|^\[" \
    | grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Registers Per|Dynamic Shared|Static Shared|Achieved Occupancy|Theoretical Occupancy|L2 Hit Rate|Warp Cycles Per Issued|Block Limit Reg|Block Limit Shared|Compute \(SM\) Throughput|Mem Busy"
done
