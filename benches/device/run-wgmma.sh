#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh): the wgmma (sm_90a) GEMM tests,
# then rocmath-bench with the wgmma variant pinned against cuBLAS for every N/T pair at 8192^3 and
# NT at the issue's other square sizes. Output in $OUT/wgmma-tests.txt and $OUT/wgmma-bench.txt.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
status=0
timeout 240 .carry/tests/gemm-test wgmma --test-threads 1 > "$OUT/wgmma-tests.txt" 2>&1 || status=1
tail -5 "$OUT/wgmma-tests.txt"
B=.carry/rocmath-bench
bench() {
  line=$(timeout 60 $B gemm --device cuda --iters ${ITERS:-10} --variant ${VARIANT:-wgmma} "$@" 2>&1) || status=1
  echo "$line" >> "$OUT/wgmma-bench-full.txt"
  echo "$* | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong|error" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/wgmma-bench.txt" | cut -c1-300
}
for p in ${PRECISIONS:-hss bss}; do
  for t in "N T" "T N" "N N" "T T"; do set -- $t; bench --precision $p --transA $1 --transB $2 -m 8192 -n 8192 -k 8192; done
  for s in ${SIZES:-1024 2048 4096}; do bench --precision $p --transA N --transB T -m $s -n $s -k $s; done
done
echo "exit status $status"
exit $status
