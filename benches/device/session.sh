# Sourced by the session scripts from run-s15.sh on: what they share (CUDA on PATH, the kernel
# cache, OUT the results folder, B the bench binary, P the phase from PHASE, and status, which a
# failed test run sets to 1 and the script exits with), then line.sh's helpers.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
B=.carry/rocmath-bench
P=${PHASE:-a}
status=0
[ -f .carry/rocmath-kernels.aot.gz ] && gunzip -f .carry/rocmath-kernels.aot.gz  # (stage.sh with GEMM_AOT=1)
source benches/device/line.sh
