#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh), session 12: the warp-tiled f32
# FMA atom (`fmaw32x16`). PHASE=a: gemm-test's warp_fma_configs_at_tile_edges with
# ROCMATH_REQUIRE_GPU=1 (every fmaw candidate pinned), then rocmath-tune s NT at the four squares
# and the issue's three strided batches with FILTER=fmaw (the table's current pick is timed
# beside the candidates, so an entry changes only when a new config beats it in the same run),
# then the s goal lines against cuBLAS with those tables (ROCMATH_TUNING_DIR). PHASE=b (NT table
# committed and restaged): the 4 x 2 warp configs re-tuned for NT (FILTER=w4x2), NN, TN and TT
# tuned (squares and batches, FILTER=fmaw), the s lines of all four layouts with those tables.
# PHASE=d (after the interior-tile copy): s NT and NN re-tuned (FILTER=fmaw), their lines, and
# d NT (the copy is shared by every direct-path kernel).
# PHASE=c (tables committed and restaged): gemm, gemm_args and gemm_i8_xf32 tests, then the goal
# lines with the committed tables (s in four layouts, d/hss/h squares, five families' batches).
# PHASE=e: the gemm_batched tests (persistent configs, both batch forms). PHASE=f (interior loop
# limited to macro tiles of 64 x 128 and up): gemm and gemm_i8_xf32 tests, d and s squares, the
# five families' batches. PHASE=g: the same after big tiles' general copy took the plan path
# for whole tiles too. Everything is tarred into $OUT/s12-$PHASE.tgz.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
status=0
# One bench line against cuBLAS: the whole output to $OUT/FILE-full.txt, a summary headed LABEL
# to $OUT/FILE.txt and the console. Usage: bench_line FILE LABEL BENCH-ARGS...
bench_line() {
  local file=$1 label=$2; shift 2
  local line
  line=$(ROCMATH_REQUIRE_GPU=1 timeout 60 .carry/rocmath-bench gemm --device cuda --iters 10 "$@" 2>&1) || status=1
  echo "$line" >> "$OUT/$file-full.txt"
  echo "$label | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/$file.txt" | cut -c1-250
}
run_test() {  # run_test FILE BINARY FILTER
  echo "== $2 $3" >> "$OUT/$1"
  ROCMATH_REQUIRE_GPU=1 timeout ${TEST_TIMEOUT:-300} .carry/tests/$2 $3 --nocapture >> "$OUT/$1" 2>&1 || { status=1; echo "FAILED $2 $3" >> "$OUT/$1"; }
}
goals() {  # goals FILE LAYOUT
  local ta=${2:0:1} tb=${2:1:1}
  for s in 1024 2048 4096 8192; do bench_line "$1" "s $2 $s^3" --transA $ta --transB $tb --precision s -m $s -n $s -k $s; done
  for shape in "32 10000" "64 4096" "128 2048"; do
    set -- "$1" "$2" $shape
    bench_line "$1" "s $2 $3^3 x $4" --transA $ta --transB $tb --precision s -m $3 -n $3 -k $3 --batch $4
  done
}
case ${PHASE:-a} in
a)
  run_test s12-tests.txt gemm-test warp_fma
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s12-tests.txt"
  PRECISIONS=s LAYOUTS=NT SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048" \
    FILTER=fmaw MAX_CANDIDATES=40 DEADLINE=400 STEP_TIMEOUT=330 bash benches/device/run-tune.sh || status=1
  ROCMATH_TUNING_DIR="$OUT/tables" goals s12-goals NT
  ;;
b)
  SQ="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192"
  BA="32x32x32x10000,64x64x64x4096,128x128x128x2048"
  PRECISIONS=s LAYOUTS=NT SIZES="$SQ" FILTER=w4x2 MAX_CANDIDATES=40 DEADLINE=100 STEP_TIMEOUT=200 \
    bash benches/device/run-tune.sh || status=1
  PRECISIONS=s LAYOUTS="NN TN TT" SIZES="$SQ,$BA" FILTER=fmaw MAX_CANDIDATES=40 DEADLINE=330 STEP_TIMEOUT=150 \
    bash benches/device/run-tune.sh || status=1
  for l in NT NN TN TT; do ROCMATH_TUNING_DIR="$OUT/tables" goals s12-layouts $l; done
  ;;
d)
  SQ="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192"
  BA="32x32x32x10000,64x64x64x4096,128x128x128x2048"
  PRECISIONS=s LAYOUTS=NT SIZES="$SQ,$BA" FILTER=fmaw MAX_CANDIDATES=40 DEADLINE=100 STEP_TIMEOUT=260 \
    bash benches/device/run-tune.sh || status=1
  PRECISIONS=s LAYOUTS=NN SIZES="$SQ,$BA" FILTER=fmaw MAX_CANDIDATES=40 DEADLINE=300 STEP_TIMEOUT=170 \
    bash benches/device/run-tune.sh || status=1
  for l in NT NN; do ROCMATH_TUNING_DIR="$OUT/tables" goals s12-copy $l; done
  for s in 1024 4096 8192; do bench_line s12-copy "d NT $s^3" --transA N --transB T --precision d -m $s -n $s -k $s; done
  ;;
c)
  for t in gemm-test gemm_args-test gemm_i8_xf32-test; do run_test s12-tests.txt $t ""; done
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s12-tests.txt"
  for l in NT NN TN TT; do
    for s in 1024 2048 4096 8192; do bench_line s12-final "s $l $s^3" --transA ${l:0:1} --transB ${l:1:1} --precision s -m $s -n $s -k $s; done
  done
  for p in d hss h; do
    for s in 1024 2048 4096 8192; do bench_line s12-final "$p NT $s^3" --transA N --transB T --precision $p -m $s -n $s -k $s; done
  done
  for p in s d hss bss h; do
    for shape in "32 10000" "64 4096" "128 2048"; do
      set -- $shape
      bench_line s12-final "$p NT $1^3 x $2" --transA N --transB T --precision $p -m $1 -n $1 -k $1 --batch $2
    done
  done
  ;;
e)
  TEST_TIMEOUT=540 run_test s12-tests-batched.txt gemm_batched-test ""
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s12-tests-batched.txt"
  ;;
f|g)
  for t in gemm-test gemm_i8_xf32-test; do run_test s12-tests-$PHASE.txt $t ""; done
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s12-tests-$PHASE.txt"
  for s in 1024 2048 4096 8192; do bench_line s12-$PHASE "d NT $s^3" --transA N --transB T --precision d -m $s -n $s -k $s; done
  for s in 2048 4096 8192; do bench_line s12-$PHASE "s NT $s^3" --transA N --transB T --precision s -m $s -n $s -k $s; done
  for p in s d hss bss h; do
    for shape in "32 10000" "64 4096" "128 2048"; do
      set -- $shape
      bench_line s12-$PHASE "$p NT $1^3 x $2" --transA N --transB T --precision $p -m $1 -n $1 -k $1 --batch $2
    done
  done
  ;;
esac
tar czf "$OUT/s12-${PHASE:-a}.tgz" -C "$OUT" $(cd "$OUT" && ls -d tables *.log *.txt 2>/dev/null)
echo "exit status $status"
exit $status
