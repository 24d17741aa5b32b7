#!/usr/bin/env bash
# Runs on the GPU machine (from the repo root, with .carry/ staged by stage.sh): the test suite
# with ROCMATH_REQUIRE_GPU=1, then the rocmath-bench gemm lines of the foundation issue.
# Logs go to $OUT (the device tool brings them back).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rocmath-cache RUST_BACKTRACE=1
{
  date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  ls /usr/local/cuda/lib64 2>/dev/null | grep -E "libnvrtc.so|libcublas.so" | head
} 2>&1 | tee "$OUT/env.txt"
status=0
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  for t in .carry/tests/*; do
    echo "== $t" | tee -a "$OUT/tests.txt"
    timeout 300 "$t" --test-threads=4 2>&1 | tail -n 60 | tee -a "$OUT/tests.txt" || status=1
  done
fi
B=.carry/rocmath-bench
for p in ${PRECISIONS:-s d c z h hss bss}; do
  for size in ${SIZES:-1024 4096}; do
    echo "== gemm $p NT $size" | tee -a "$OUT/bench.txt"
    timeout 120 $B gemm --precision $p --transA N --transB T -m $size -n $size -k $size --device cuda 2>&1 | tee -a "$OUT/bench.txt" || status=1
  done
done
echo "exit status $status"
exit $status
