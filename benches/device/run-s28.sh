#!/usr/bin/env bash
# Twenty-eighth session: complex f64 (zgemm) on the sm_90 DMMA (`mma16x8x16z`). Output:
# $OUT/s28-$PHASE*. Run after stage.sh (carry .carry).
# PHASE=a: z_dmma_configs_at_tile_edges (every complex DMMA candidate pinned, nine transpose
#          pairs) and the z table test (s28-a-tests.txt); then z NT lines with the new fallback
#          (no z table yet), against the FMA fallback pinned, and c for comparison (s28-a.txt).
# PHASE=b: rocmath-tune z in NT, NN, TN and TT at the sizes over every z candidate
#          (tables copied flat to $OUT/s28-b-tables/, logs in $OUT/s28-b-tune/), then the lines
#          on the tuned tables (s28-b.txt).
# PHASE=d: (the build with the k8 complex atom, phase b's tables committed) rocmath-tune z in
#          the four layouts over the k8 candidates (FILTER mma16x8x8z; each size also times its
#          table entry), tables flat in $OUT/s28-d-tables/, logs in $OUT/s28-d-tune/; the NT lines
#          on the tuned tables (s28-d.txt).
# PHASE=e: (phase d's tables committed: TN, TT whole, NN to 8192x8192x128; NT's step was cut
#          while compiling) every complex candidate at tile edges (s28-e-tests.txt, which
#          compiles every module); then, on the warm cache, rocmath-tune z NT at every size and NN
#          at the rest over the k8 candidates (tables flat in $OUT/s28-e-tables/); the NT lines
#          on them (s28-e.txt).
# PHASE=f: (the final build and tables) gemm_batched-test's transpose-pair and pointer-array
#          tests and gemm-test's property tests (z through the tables' k8 configs, strided and
#          pointer-array forms; s28-f-tests.txt); z NN, TN and TT lines (s28-f.txt).
# PHASE=c: (not run: the device time ran out; phases e and f cover it) (the final build and tables) the z table test, every complex DMMA candidate at tile
#          edges, gemm-test's property tests and gemm_batched-test's (but its persistent, split-K
#          and repacking ones) (s28-c-tests.txt); the z lines in every layout (s28-c.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
FMA=mt64x64x8_t16x16_s1_p4x4_g1_o1_fma
Z_SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x128,16x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048"
# z_lines FILE LABEL LAYOUT [BENCH-ARGS...]: the shapes in z (8192^3 and 4096x4096x65536
# left out: 4.4 and 8.8 TFLOP a call).
z_lines() {
  local file=$1 label=$2 layout=$3; shift 3
  for s in 1024 2048 4096; do
    bench_line "$file" "$label z $layout ${s}^3" --precision z --transA ${layout:0:1} --transB ${layout:1:1} -m $s -n $s -k $s "$@"
  done
  bench_line "$file" "$label z $layout 8192x8192x128" --precision z --transA ${layout:0:1} --transB ${layout:1:1} -m 8192 -n 8192 -k 128 "$@"
  bench_line "$file" "$label z $layout 16x8192x8192" --precision z --transA ${layout:0:1} --transB ${layout:1:1} -m 16 -n 8192 -k 8192 "$@"
  for sb in "32 10000" "64 4096" "128 2048"; do
    local s=${sb% *} b=${sb#* }
    bench_line "$file" "$label z $layout ${s}^3 x $b" --precision z --transA ${layout:0:1} --transB ${layout:1:1} -m $s -n $s -k $s --batch $b "$@"
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s28-a-tests.txt"
  TEST_TIMEOUT=420 run_test s28-a-tests.txt gemm-test z_dmma_configs_at_tile_edges
  TEST_TIMEOUT=120 run_test s28-a-tests.txt gemm-test table_configs_match_reference_complex
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s28-a-tests.txt"
  grep -q FAILED "$OUT/s28-a-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s28-a.txt"
  z_lines s28-a "dmma fallback" NT
  for s in 1024 4096; do
    bench_line s28-a "fma pinned z NT ${s}^3" --precision z --transA N --transB T -m $s -n $s -k $s --config $FMA
    bench_line s28-a "c NT ${s}^3" --precision c --transA N --transB T -m $s -n $s -k $s
  done
  bench_line s28-a "fma pinned z NT 128^3 x 2048" --precision z --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config $FMA
  ;;
b)
  T="$OUT/s28-b-tune"; mkdir -p "$T"
  OUT="$T" PRECISIONS=z LAYOUTS="NT NN TN TT" SIZES=$Z_SIZES MAX_CANDIDATES=40 ITERS=5 WARMUP=2 \
    DEADLINE=400 STEP_TIMEOUT=130 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s28-b-tables"
  cp "$T"/tables/sm_90/gemm_z_*.json "$OUT/s28-b-tables/" 2>/dev/null
  nvidia-smi -L > "$OUT/s28-b.txt"
  ROCMATH_TUNING_DIR="$T/tables" z_lines s28-b tuned NT
  ;;
d)
  T="$OUT/s28-d-tune"; mkdir -p "$T"
  OUT="$T" PRECISIONS=z LAYOUTS="NT NN TN TT" SIZES=$Z_SIZES FILTER=mma16x8x8z MAX_CANDIDATES=40 ITERS=5 WARMUP=2 \
    DEADLINE=420 STEP_TIMEOUT=110 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s28-d-tables"
  cp "$T"/tables/sm_90/gemm_z_*.json "$OUT/s28-d-tables/" 2>/dev/null
  nvidia-smi -L > "$OUT/s28-d.txt"
  ROCMATH_TUNING_DIR="$T/tables" z_lines s28-d tuned NT
  ;;
e)
  nvidia-smi -L > "$OUT/s28-e-tests.txt"
  TEST_TIMEOUT=360 run_test s28-e-tests.txt gemm-test z_dmma_configs_at_tile_edges
  T="$OUT/s28-e-tune"; mkdir -p "$T/tables/sm_90"
  cp tuning/tables/sm_90/gemm_z_*.json "$T/tables/sm_90/" 2>/dev/null
  OUT="$T" PRECISIONS=z LAYOUTS=NT SIZES=$Z_SIZES FILTER=mma16x8x8z MAX_CANDIDATES=40 ITERS=5 WARMUP=2 \
    DEADLINE=480 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  OUT="$T" PRECISIONS=z LAYOUTS=NN SIZES=16x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048 FILTER=mma16x8x8z \
    MAX_CANDIDATES=40 ITERS=5 WARMUP=2 DEADLINE=520 STEP_TIMEOUT=45 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s28-e-tables"
  cp "$T"/tables/sm_90/gemm_z_*.json "$OUT/s28-e-tables/" 2>/dev/null
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s28-e-tests.txt"
  grep -q FAILED "$OUT/s28-e-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s28-e.txt"
  [ $SECONDS -lt 540 ] && ROCMATH_TUNING_DIR="$T/tables" z_lines s28-e tuned NT
  ;;
f)
  nvidia-smi -L > "$OUT/s28-f-tests.txt"
  TEST_TIMEOUT=170 run_test s28-f-tests.txt gemm_batched-test "every_transpose_pair_and_scalar_kind pointer_array_batch_beyond_one_launch"
  TEST_TIMEOUT=$((380 - SECONDS)) run_test s28-f-tests.txt gemm-test "--skip wgmma --skip configs_at_tile_edges --skip reference_s --skip reference_d --skip 16_bit"
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s28-f-tests.txt"
  grep -q FAILED "$OUT/s28-f-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s28-f.txt"
  for layout in NN TN TT; do
    [ $SECONDS -lt 400 ] && bench_line s28-f "tables z $layout 1024^3" --precision z --transA ${layout:0:1} --transB ${layout:1:1} -m 1024 -n 1024 -k 1024
    [ $SECONDS -lt 400 ] && bench_line s28-f "tables z $layout 128^3 x 2048" --precision z --transA ${layout:0:1} --transB ${layout:1:1} -m 128 -n 128 -k 128 --batch 2048
  done
  ;;
c)
  nvidia-smi -L > "$OUT/s28-c-tests.txt"
  TEST_TIMEOUT=200 run_test s28-c-tests.txt gemm-test table_configs_match_reference_complex
  TEST_TIMEOUT=420 run_test s28-c-tests.txt gemm-test z_dmma_configs_at_tile_edges
  TEST_TIMEOUT=200 run_test s28-c-tests.txt gemm-test "--skip table_configs --skip at_tile_edges"
  TEST_TIMEOUT=200 run_test s28-c-tests.txt gemm_batched-test "--skip persistent --skip split_k --skip repacking"
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s28-c-tests.txt"
  grep -q FAILED "$OUT/s28-c-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s28-c.txt"
  for layout in NT NN TN TT; do z_lines s28-c "tables" $layout; done
  ;;
esac
exit $status
