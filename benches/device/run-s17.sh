#!/usr/bin/env bash
# Seventeenth session (GEMM: s NN, TN and TT run as NT behind a transposing copy, the `r`
# configs). After stage.sh, carry .carry. Output: $OUT/s17-$PHASE*.txt.
# PHASE=a: s lines, the table's pick against the NT winners' repacking twins pinned
#          (128x128x16 s3r o2 at 2048-8192, 64x64x16 s3r at 1024) in NN, TN, TT, and NT for
#          reference; gemm_batched-test repacking_configs_match_reference.
# PHASE=b: s NN, TN and TT tuned at the squares over the repacking candidates (FILTER r_p4x4;
#          the table's pick is timed beside them); the lines with the tuned tables
#          (ROCMATH_TUNING_DIR=$OUT/tables).
# PHASE=c: (tables committed and staged) gemm-test every_table_config_matches_reference and
#          warp_fma_configs_at_tile_edges, gemm_batched-test repacking_configs_match_reference;
#          the s lines of the squares in all four layouts.
# PHASE=d: f64 k-paired fragments (atom mma16x8x16f64p, a build of commit 2d3880b only: removed
#          after this run, 20 % slower): gemm-test dmma_configs_at_tile_edges;
#          d NN, TN and TT tuned at the squares over the paired candidates (FILTER f64p; the
#          table's pick timed beside them); the d lines with the tuned tables; the tables in
#          $OUT/s17-d-tables.tar (the device tool brings back 8 files).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
squares() {  # squares FILE TAG LAYOUTS...: the s lines of the squares with the library's selection
  local file=$1 tag=$2; shift 2
  for n in 1024 2048 4096 8192; do
    for l in "$@"; do
      bench_line "$file" "s $l $n^3 $tag" --precision s --transA ${l:0:1} --transB ${l:1:1} -m $n -n $n -k $n
    done
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s17-a-gpu.txt"
  for n in 1024 2048 4096 8192; do
    cfg=mt128x128x16_w2x4_s3r_p4x4_g8_o2_fmaw32x16
    [ $n = 1024 ] && cfg=mt64x64x16_w2x2_s3r_p4x4_g8_o1_fmaw32x16
    for l in NN TN TT; do
      args="--precision s --transA ${l:0:1} --transB ${l:1:1} -m $n -n $n -k $n"
      bench_line s17-a "s $l $n^3 table" $args
      bench_line s17-a "s $l $n^3 repacked" $args --config $cfg
    done
    bench_line s17-a "s NT $n^3 table" --precision s --transA N --transB T -m $n -n $n -k $n
  done
  run_test s17-a-tests.txt gemm_batched-test repacking_configs_match_reference
  ;;
b)
  PRECISIONS=s LAYOUTS="NN TN TT" FILTER=r_p4x4 MAX_CANDIDATES=20 SIZES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192 \
    DEADLINE=400 STEP_TIMEOUT=170 bash benches/device/run-tune.sh || status=1
  ROCMATH_TUNING_DIR=$OUT/tables squares s17-b tuned NN TN TT
  ;;
c)
  run_test s17-c-tests.txt gemm-test every_table_config_matches_reference
  run_test s17-c-tests.txt gemm-test warp_fma_configs_at_tile_edges
  run_test s17-c-tests.txt gemm_batched-test repacking_configs_match_reference
  squares s17-c committed NT NN TN TT
  ;;
d)
  run_test s17-d-tests.txt gemm-test dmma_configs_at_tile_edges
  PRECISIONS=d LAYOUTS="NN TN TT" FILTER=f64p SIZES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192 \
    DEADLINE=330 STEP_TIMEOUT=150 bash benches/device/run-tune.sh || status=1
  for l in NN TN TT; do mv "$OUT/tune-d-$l.log" "$OUT/s17-d-tune-$l.log"; done
  mv "$OUT/summary.txt" "$OUT/s17-d-tune-summary.txt"
  tar -C "$OUT" -cf "$OUT/s17-d-tables.tar" tables/sm_90/gemm_d_nn.json tables/sm_90/gemm_d_tn.json tables/sm_90/gemm_d_tt.json
  rm -rf /tmp/s17-tables && mv "$OUT/tables" /tmp/s17-tables && rm -f "$OUT/env.txt"
  for n in 1024 2048 4096 8192; do
    for l in NN TN TT; do
      bench_line s17-d "d $l $n^3 before" --precision d --transA ${l:0:1} --transB ${l:1:1} -m $n -n $n -k $n
      ROCMATH_TUNING_DIR=/tmp/s17-tables bench_line s17-d "d $l $n^3 tuned" --precision d --transA ${l:0:1} --transB ${l:1:1} -m $n -n $n -k $n
    done
  done
  ;;
esac
exit $status
