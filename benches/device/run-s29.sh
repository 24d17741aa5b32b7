#!/usr/bin/env bash
# Twenty-ninth session: complex split-K and 16-row complex tiles for z 16 x 8192 x 8192. Output:
# $OUT/s29-$PHASE*. Run after stage.sh (carry .carry).
# (Not run in the twenty-ninth session: its device budget was spent before it began. For the next.)
# PHASE=a: the new z configs only (ROCMATH_TEST_CONFIGS: the 16-row complex tiles): unsplit ones
#          at tile edges in nine transpose pairs, split ones in gemm_batched's split-K test, and
#          the bitwise repeat test (s29-a-tests.txt); rocmath-tune z at 16x8192x8192 in the four
#          layouts over the 16-row tiles (each size also times its table entry; tables flat in
#          $OUT/s29-a-tables/, logs in $OUT/s29-a-tune/); the z 16x8192x8192 lines on them, and
#          z NT 8192^3 and 4096x4096x65536 on the committed tables (s29-a.txt).
# PHASE=b: c_fma_configs_at_tile_edges (every complex-f32 candidate, nine transpose pairs;
#          s29-b-tests.txt); rocmath-tune c in the four layouts at the sizes but 8192^3
#          and 4096x4096x65536 (tables flat in $OUT/s29-b-tables/, logs in $OUT/s29-b-tune/); the
#          c NT lines on them (s29-b.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
Z16="mt16x128x8_,mt16x64x8_"
C_SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x128,16x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048"
skinny_lines() {  # FILE LABEL [BENCH-ARGS...]
  local file=$1 label=$2; shift 2
  for layout in NT NN TN TT; do
    bench_line "$file" "$label z $layout 16x8192x8192" --precision z --transA ${layout:0:1} --transB ${layout:1:1} -m 16 -n 8192 -k 8192 "$@"
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s29-a-tests.txt"
  ROCMATH_TEST_CONFIGS=$Z16 TEST_TIMEOUT=150 run_test s29-a-tests.txt gemm-test z_dmma_configs_at_tile_edges
  ROCMATH_TEST_CONFIGS=$Z16 TEST_TIMEOUT=200 run_test s29-a-tests.txt gemm_batched-test "split_k_configs_match_reference split_k_results_repeat_bitwise"
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s29-a-tests.txt"
  grep -q FAILED "$OUT/s29-a-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s29-a.txt"
  skinny_lines s29-a "committed tables"
  T="$OUT/s29-a-tune"; mkdir -p "$T"
  OUT="$T" PRECISIONS=z LAYOUTS="NT NN TN TT" SIZES=16x8192x8192 FILTER=mt16x MAX_CANDIDATES=40 ITERS=5 WARMUP=2 \
    DEADLINE=420 STEP_TIMEOUT=60 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s29-a-tables"
  cp "$T"/tables/sm_90/gemm_z_*.json "$OUT/s29-a-tables/" 2>/dev/null
  ROCMATH_TUNING_DIR="$T/tables" skinny_lines s29-a tuned
  [ $SECONDS -lt 480 ] && BENCH_TIMEOUT=90 bench_line s29-a "tables z NT 8192^3" --precision z --transA N --transB T -m 8192 -n 8192 -k 8192
  [ $SECONDS -lt 480 ] && BENCH_TIMEOUT=90 bench_line s29-a "tables z NT 4096x4096x65536" --precision z --transA N --transB T -m 4096 -n 4096 -k 65536
  ;;
b)
  nvidia-smi -L > "$OUT/s29-b-tests.txt"
  TEST_TIMEOUT=240 run_test s29-b-tests.txt gemm-test c_fma_configs_at_tile_edges
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s29-b-tests.txt"
  grep -q FAILED "$OUT/s29-b-tests.txt" && status=1
  T="$OUT/s29-b-tune"; mkdir -p "$T"
  OUT="$T" PRECISIONS=c LAYOUTS="NT NN TN TT" SIZES=$C_SIZES MAX_CANDIDATES=20 ITERS=5 WARMUP=2 \
    DEADLINE=440 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s29-b-tables"
  cp "$T"/tables/sm_90/gemm_c_*.json "$OUT/s29-b-tables/" 2>/dev/null
  nvidia-smi -L > "$OUT/s29-b.txt"
  for s in 1024 4096; do
    [ $SECONDS -lt 540 ] && ROCMATH_TUNING_DIR="$T/tables" bench_line s29-b "tuned c NT ${s}^3" --precision c --transA N --transB T -m $s -n $s -k $s
  done
  [ $SECONDS -lt 540 ] && ROCMATH_TUNING_DIR="$T/tables" bench_line s29-b "tuned c NT 128^3 x 2048" --precision c --transA N --transB T -m 128 -n 128 -k 128 --batch 2048
  ;;
esac
exit $status
