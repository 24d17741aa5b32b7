#!/usr/bin/env bash
# Thirty-first session: complex f32 (c) as one real f32 product (the 1m method: op(A) expanded to
# 2 x 2 real blocks, the s kernels run it). Output: $OUT/s31-$PHASE*. Run after stage.sh (carry
# .carry).
# PHASE=a: the real route's tests (K steps under a scratch limit; the property and transpose-pair
#          tests of gemm and gemm_batched, whose handles now include one pinned to the real
#          route) (s31-a-tests.txt); then c lines on both routes, cuBLAS in the same run, the
#          most telling shapes first (s31-a.txt).
# PHASE=b: rocmath-tune s NN at 32 x 8192 x 16384 (c 16 x 8192 x 8192 as a real product; the
#          tables, seeded with the committed ones, flat in $OUT/s31-b-tables/, log in
#          s31-b-tune.log), over the 16- and 32-row tiles; then the rest of the c lines on both
#          routes, reading those tables (s31-b.txt).
# PHASE=c: (after the s NN entry and the route's size rule were committed) the s table configs
#          against the reference (s31-c-tests.txt); c lines with the route chosen by size
#          (s31-c.txt).
# PHASE=d: rocmath-tune c TN and TT over the warp-tiled candidates at the shapes the complex
#          kernels keep (16 x 8192 x 8192, 1024^3, the three batches; tables flat in
#          $OUT/s31-d-tables/, logs s31-d-tune-*.log), then TN/TT c lines on them (s31-d.txt).
# PHASE=e: (with PHASE=d's tables committed) the complex table configs against the reference
#          (s31-e-tests.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
routes() {  # FILE LAYOUT SIZE...: a c line at each MxNxK[xBATCH] on the complex kernels, then as a real product
  local file=$1 layout=$2; shift 2
  for s in "$@"; do
    IFS=x read -r m n k b <<< "$s"
    for r in direct real; do
      [ $SECONDS -lt ${LAST:-560} ] && bench_line "$file" "$r c $layout $s" --precision c --transA ${layout:0:1} --transB ${layout:1:1} \
        -m $m -n $n -k $k --batch ${b:-1} --complex-route $r
    done
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s31-a-tests.txt"
  TEST_TIMEOUT=300 tests_in_parallel s31-a-tests.txt "gemm-test c_as_real_in_k_steps" "gemm-test every_transpose_pair_at_tile_edges" \
    "gemm-test gemm_matches_reference" "gemm_batched-test every_transpose_pair_and_scalar_kind" "gemm_batched-test batched_forms_match_reference"
  nvidia-smi -L > "$OUT/s31-a.txt"
  routes s31-a NN 4096x4096x4096 16x8192x8192 2048x2048x2048 8192x8192x128
  routes s31-a NT 4096x4096x4096 16x8192x8192
  ;;
b)
  T=$OUT/t
  OUT=$T PRECISIONS=s LAYOUTS=NN SIZES=32x8192x16384 FILTER=mt32x128,mt16x128 MAX_CANDIDATES=40 ITERS=5 WARMUP=2 \
    DEADLINE=200 STEP_TIMEOUT=200 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s31-b-tables"; cp "$T"/tables/sm_90/gemm_s_nn.json "$OUT/s31-b-tables/"; cp "$T/tune-s-NN.log" "$OUT/s31-b-tune.log"
  export ROCMATH_TUNING_DIR=$T/tables
  nvidia-smi -L > "$OUT/s31-b.txt"
  routes s31-b NN 16x8192x8192
  routes s31-b NN 1024x1024x1024 8192x8192x8192 4096x4096x65536 128x128x128x2048
  routes s31-b NT 2048x2048x2048 8192x8192x8192 8192x8192x128
  routes s31-b TN 4096x4096x4096
  routes s31-b CC 4096x4096x4096
  routes s31-b TT 16x8192x8192
  rm -rf "$T"
  ;;
c)
  nvidia-smi -L > "$OUT/s31-c-tests.txt"
  TEST_TIMEOUT=200 run_test s31-c-tests.txt gemm-test table_configs_match_reference_s
  grep -E "^test |test result|FAILED|configs checked|configs of|panicked" "$OUT/s31-c-tests.txt"
  grep -q FAILED "$OUT/s31-c-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s31-c.txt"
  for ls in NN:16x8192x8192 NN:4096x4096x4096 NT:2048x2048x2048 NN:1024x1024x1024 NN:128x128x128x2048 NN:32x32x32x10000 NN:64x64x64x4096 TN:8192x8192x128; do
    IFS=: read -r layout s <<< "$ls"; IFS=x read -r m n k b <<< "$s"
    [ $SECONDS -lt 500 ] && bench_line s31-c "by size c $layout $s" --precision c --transA ${layout:0:1} --transB ${layout:1:1} -m $m -n $n -k $k --batch ${b:-1}
  done
  ;;
d)
  T=$OUT/t
  OUT=$T PRECISIONS=c LAYOUTS="TN TT" SIZES=16x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048,1024x1024x1024 \
    FILTER=fmaw MAX_CANDIDATES=40 ITERS=5 WARMUP=2 DEADLINE=380 STEP_TIMEOUT=330 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s31-d-tables"; cp "$T"/tables/sm_90/gemm_c_t?.json "$OUT/s31-d-tables/"
  for l in TN TT; do cp "$T/tune-c-$l.log" "$OUT/s31-d-tune-c-$l.log"; done
  export ROCMATH_TUNING_DIR=$T/tables
  nvidia-smi -L > "$OUT/s31-d.txt"
  for ls in TT:16x8192x8192 TT:32x32x32x10000 TN:32x32x32x10000 TT:64x64x64x4096 TN:128x128x128x2048 TT:1024x1024x1024; do
    IFS=: read -r layout s <<< "$ls"; IFS=x read -r m n k b <<< "$s"
    [ $SECONDS -lt 540 ] && BENCH_TIMEOUT=25 bench_line s31-d "tuned c $layout $s" --precision c --transA ${layout:0:1} --transB ${layout:1:1} -m $m -n $n -k $k --batch ${b:-1}
  done
  rm -rf "$T"
  ;;
e)
  nvidia-smi -L > "$OUT/s31-e-tests.txt"
  TEST_TIMEOUT=170 run_test s31-e-tests.txt gemm-test table_configs_match_reference_complex
  grep -E "^test |test result|FAILED|configs checked|configs of|panicked" "$OUT/s31-e-tests.txt"
  grep -q FAILED "$OUT/s31-e-tests.txt" && status=1
  ;;
esac
exit $status
