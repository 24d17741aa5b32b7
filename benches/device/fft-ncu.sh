#!/usr/bin/env bash
# Nsight Compute sections for the kernels of 2^16 (four-step) and 16384 (single pass) c2c.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=/tmp/rmc
B=.carry/rocmath-bench
for c in "65536 1024" "16384 4096"; do
  set -- $c
  $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 --no-peer > /dev/null 2>&1
  timeout 150 ncu -k regex:fft_ss --launch-skip 2 --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats \
    $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 1 --no-peer 2>&1 | grep -v "^  check\|^\[" | grep -E "fft_ss|Throughput|Duration|Occupancy|Registers|Shared Memory|Stall|Warp Cycles|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Block Limit|Issued|Eligible|Waves"
done
