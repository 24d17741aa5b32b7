#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh), session 8: the tf32 wgmma
# kernels (xf32 family). PHASE=a: the xf32 and wgmma tests with ROCMATH_REQUIRE_GPU=1, the pinned
# wgmma variant against cuBLAS (FAST_TF32) in NT and TN at the square sizes, then rocmath-tune
# for xf32 (wgmma and mma candidates, squares) in NT and TN. PHASE=b: run-gemm-goals.sh for xf32
# in the four layouts with the tables in $OUT/tables (ROCMATH_TUNING_DIR). Everything tarred into
# $OUT/s8-$PHASE.tgz (the device tool returns at most 8 files).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
B=.carry/rocmath-bench
status=0
case ${PHASE:-a} in
a)
  for t in gemm_i8_xf32-test "gemm-test wgmma"; do
    echo "== $t" >> "$OUT/s8-tests.txt"
    ROCMATH_REQUIRE_GPU=1 timeout 240 .carry/tests/$t >> "$OUT/s8-tests.txt" 2>&1 || { status=1; echo "FAILED $t" >> "$OUT/s8-tests.txt"; }
  done
  grep -E "^== |test result|FAILED|panicked" "$OUT/s8-tests.txt"
  for layout in NT TN; do
    for s in 1024 2048 4096 8192; do
      line=$(timeout 60 $B gemm --precision xf32 --transA ${layout:0:1} --transB ${layout:1:1} -m $s -n $s -k $s --device cuda --iters 10 --variant wgmma 2>&1) || status=1
      echo "$line" >> "$OUT/s8-pinned-full.txt"
      echo "xf32 $layout $s wgmma | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong" | tr '\n' ' ')" | tee -a "$OUT/s8-pinned.txt" | cut -c1-250
    done
  done
  PRECISIONS=xf32 LAYOUTS="NT TN" VARIANTS=wgmma,mma MAX_CANDIDATES=12 SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192" \
    DEADLINE=300 STEP_TIMEOUT=150 bash benches/device/run-tune.sh || status=1
  ;;
b)
  [ -d "$OUT/tables" ] && export ROCMATH_TUNING_DIR="$OUT/tables"
  for layout in NT TN NN TT; do
    for s in 1024 2048 4096 8192; do
      line=$(timeout 60 $B gemm --precision xf32 --transA ${layout:0:1} --transB ${layout:1:1} -m $s -n $s -k $s --device cuda --iters 10 2>&1) || status=1
      echo "$line" >> "$OUT/s8-goals-full.txt"
      echo "xf32 $layout $s | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/s8-goals.txt" | cut -c1-250
    done
  done
  ;;
esac
tar czf "$OUT/s8-${PHASE:-a}.tgz" -C "$OUT" $(cd "$OUT" && ls -d tables *.log *.txt 2>/dev/null)
echo "exit status $status"
exit $status
