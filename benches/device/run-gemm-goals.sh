#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh): rocmath-bench gemm vs cuBLAS
# for the GEMM engine issue's shapes, NT, with the library's own selection (tuning tables: the
# committed ones, overlaid by ROCMATH_TUNING_DIR when set). One line per case to $OUT/goals.txt.
# BENCH: another bench binary; GOALS_ARGS: further bench arguments for every line (e.g. --group 1).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
B=${BENCH:-.carry/rocmath-bench}
[ -f .carry/rocmath-kernels.aot.gz ] && gunzip -f .carry/rocmath-kernels.aot.gz  # (stage.sh with GEMM_AOT=1)
status=0
run() {
  line=$(timeout 60 $B gemm --transA N --transB T --device cuda --iters ${ITERS:-10} ${GOALS_ARGS:-} "$@" 2>&1) || status=1
  echo "$line" >> "$OUT/goals-full.txt"
  echo "$* | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/goals.txt" | cut -c1-260
}
for p in ${PRECISIONS:-hss bss h s d xf32}; do
  for s in ${SIZES:-1024 2048 4096 8192}; do run --precision $p -m $s -n $s -k $s; done
done
run --precision hss -m 8192 -n 8192 -k 128
run --precision hss -m 16 -n 8192 -k 8192
run --precision hss -m 4096 -n 4096 -k 65536
for p in ${BATCH_PRECISIONS:-hss bss h s d}; do
  run --precision $p -m 32 -n 32 -k 32 --batch 10000
  run --precision $p -m 64 -n 64 -k 64 --batch 4096
  run --precision $p -m 128 -n 128 -k 128 --batch 2048
done
echo "exit status $status"
exit $status
