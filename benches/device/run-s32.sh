#!/usr/bin/env bash
# Thirty-second session: i8 GEMM on the s8 wgmma atom (TMA + wgmma m64nNk32 s8, operands stored
# m/n-contiguous copied k-contiguous by the byte transpose). Output: $OUT/s32-$PHASE*. Run after
# stage.sh or with the session's rebuilt binaries in .carry (carry .carry).
# PHASE=a: (the thirty-first session's carry) the complex table configs (s32-a-tests.txt).
# PHASE=b: the i8 tests: the wgmma pin in every layout, the older i8 tests, and the xf32 wgmma
#          test (the transposing copy now also takes bytes) (s32-b-tests.txt); then i8 lines,
#          no table (the s8 wgmma fallback), cuBLAS in the same run (s32-b.txt).
# PHASE=c: rocmath-tune i8 TN and NT at the issue's square, skinny and deep sizes (tables flat in
#          $OUT/s32-c-tables/, logs s32-c-tune-*.log); every i8 candidate at tile edges
#          (s32-c-tests.txt).
# PHASE=d: rocmath-tune i8 NN and TT at PHASE=c's sizes (seeded with the committed tables; logs
#          s32-d-tune-*.log, tables flat in $OUT/s32-d-tables/).
# PHASE=e: (with the four i8 tables committed and built in) every i8 table config against the
#          reference (s32-e-tests.txt); i8 lines in four layouts on the library's selection
#          (s32-e.txt).
# PHASE=f: the byte transpose by 32-bit words: the s8 wgmma tests (s32-f-tests.txt); i8 lines
#          that copy operands, the previous build (.carry/rocmath-bench-prev) and this one in
#          turn (s32-f.txt).
# PHASE=g: (this build) rocmath-tune i8 again where the copies weigh most: NT and TT at
#          16 x 8192 x 8192 and 8192 x 8192 x 128, NN at those and 4096 x 4096 x 65536 (cut off
#          in PHASE=d); merged into the committed tables (flat in $OUT/s32-g-tables/, logs
#          s32-g-tune-*.log); then those lines on the new tables (s32-g.txt).
# PHASE=h: (the final build: the epilogue's wrapping products through rm_mul, every table built
#          in) the s8 wgmma tests, every i8 candidate and every i8 table config (s32-h-tests.txt);
#          TN and NT lines (s32-h.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-b}
status=0
source benches/device/gemm-lib.sh
i8_lines() {  # FILE LAYOUT SIZE...: i8 lines at each MxNxK[xBATCH]
  local file=$1 layout=$2; shift 2
  for s in "$@"; do
    IFS=x read -r m n k b <<< "$s"
    [ $SECONDS -lt ${LAST:-560} ] && bench_line "$file" "${TAG:+$TAG }i8 $layout $s" --precision i8 --transA ${layout:0:1} --transB ${layout:1:1} \
      -m $m -n $n -k $k --batch ${b:-1}
  done
}
SQUARES="1024x1024x1024 2048x2048x2048 4096x4096x4096 8192x8192x8192"
SKINNY="8192x8192x128 16x8192x8192 4096x4096x65536"
case $P in
b)
  nvidia-smi -L > "$OUT/s32-b-tests.txt"
  TEST_TIMEOUT=400 tests_in_parallel s32-b-tests.txt "gemm_i8_xf32-test i8_wgmma_every_layout" "gemm_i8_xf32-test i8_every_transpose" \
    "gemm_i8_xf32-test i8_wraps" "gemm_i8_xf32-test i8_k_zero" "gemm_i8_xf32-test xf32_wgmma_every_layout"
  nvidia-smi -L > "$OUT/s32-b.txt"
  i8_lines s32-b TN $SQUARES $SKINNY
  i8_lines s32-b NT 4096x4096x4096 8192x8192x8192
  i8_lines s32-b NN 4096x4096x4096
  ;;
c)
  T=$OUT/t
  OUT=$T PRECISIONS=i8 LAYOUTS="TN NT" SIZES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,8192x8192x128,16x8192x8192,4096x4096x65536 \
    MAX_CANDIDATES=30 ITERS=5 WARMUP=2 DEADLINE=330 STEP_TIMEOUT=220 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s32-c-tables"; cp "$T"/tables/sm_90/gemm_i8_*.json "$OUT/s32-c-tables/"
  for l in TN NT; do cp "$T/tune-i8-$l.log" "$OUT/s32-c-tune-$l.log"; done
  rm -rf "$T"
  nvidia-smi -L > "$OUT/s32-c-tests.txt"
  TEST_TIMEOUT=$((580 - SECONDS)) run_test s32-c-tests.txt gemm_i8_xf32-test i8_candidates_at_tile_edges
  grep -E "^test |test result|FAILED|candidates checked|panicked" "$OUT/s32-c-tests.txt"
  ;;
d)
  T=$OUT/t
  OUT=$T PRECISIONS=i8 LAYOUTS="NN TT" SIZES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,8192x8192x128,16x8192x8192,4096x4096x65536 \
    MAX_CANDIDATES=30 ITERS=5 WARMUP=2 DEADLINE=330 STEP_TIMEOUT=260 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s32-d-tables"; cp "$T"/tables/sm_90/gemm_i8_*.json "$OUT/s32-d-tables/"
  for l in NN TT; do cp "$T/tune-i8-$l.log" "$OUT/s32-d-tune-$l.log"; done
  rm -rf "$T"
  ;;
e)
  nvidia-smi -L > "$OUT/s32-e-tests.txt"
  TEST_TIMEOUT=200 run_test s32-e-tests.txt gemm_i8_xf32-test every_i8_table_config_matches_reference
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s32-e-tests.txt"
  nvidia-smi -L > "$OUT/s32-e.txt"
  i8_lines s32-e TN $SQUARES $SKINNY
  i8_lines s32-e NT $SQUARES $SKINNY
  i8_lines s32-e NN 4096x4096x4096 16x8192x8192
  i8_lines s32-e TT 4096x4096x4096 16x8192x8192
  ;;
f)
  nvidia-smi -L > "$OUT/s32-f-tests.txt"
  TEST_TIMEOUT=300 tests_in_parallel s32-f-tests.txt "gemm_i8_xf32-test i8_wgmma_every_layout" "gemm_i8_xf32-test i8_candidates_at_tile_edges" \
    "gemm_i8_xf32-test i8_every_transpose"
  nvidia-smi -L > "$OUT/s32-f.txt"
  for ls in NT:4096x4096x4096 NT:8192x8192x8192 NT:1024x1024x1024 NN:4096x4096x4096 TT:4096x4096x4096 NT:4096x4096x65536; do
    IFS=: read -r layout s <<< "$ls"
    for b in prev new; do
      BENCH=.carry/rocmath-bench; [ $b = prev ] && BENCH=.carry/rocmath-bench-prev
      TAG=$b BENCH=$BENCH i8_lines s32-f "$layout" "$s"
    done
  done
  ;;
g)
  T=$OUT/t
  OUT=$T PRECISIONS=i8 LAYOUTS="NT TT" SIZES=16x8192x8192,8192x8192x128 MAX_CANDIDATES=30 ITERS=5 WARMUP=2 DEADLINE=300 STEP_TIMEOUT=120 \
    bash benches/device/run-tune.sh || status=1
  OUT=$T PRECISIONS=i8 LAYOUTS=NN SIZES=16x8192x8192,8192x8192x128,4096x4096x65536 MAX_CANDIDATES=30 ITERS=5 WARMUP=2 DEADLINE=300 STEP_TIMEOUT=150 \
    bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s32-g-tables"; cp "$T"/tables/sm_90/gemm_i8_*.json "$OUT/s32-g-tables/"
  for l in NT TT NN; do cp "$T/tune-i8-$l.log" "$OUT/s32-g-tune-$l.log"; done
  export ROCMATH_TUNING_DIR=$T/tables
  nvidia-smi -L > "$OUT/s32-g.txt"
  i8_lines s32-g NT 16x8192x8192 8192x8192x128
  i8_lines s32-g TT 16x8192x8192 8192x8192x128
  i8_lines s32-g NN 16x8192x8192 8192x8192x128 4096x4096x65536
  rm -rf "$T"
  ;;
h)
  nvidia-smi -L > "$OUT/s32-h-tests.txt"
  TEST_TIMEOUT=400 tests_in_parallel s32-h-tests.txt "gemm_i8_xf32-test i8_wgmma_every_layout" "gemm_i8_xf32-test i8_candidates_at_tile_edges" \
    "gemm_i8_xf32-test every_i8_table_config_matches_reference" "gemm_i8_xf32-test i8_every_transpose" "gemm_i8_xf32-test xf32_wgmma_every_layout"
  nvidia-smi -L > "$OUT/s32-h.txt"
  i8_lines s32-h TN 4096x4096x4096 8192x8192x8192 1024x1024x1024
  i8_lines s32-h NT 4096x4096x4096 16x8192x8192
  ;;
esac
exit $status
