#!/usr/bin/env bash
# Twenty-first session (GEMM: the split-K slice count a kernel argument, chosen per call; tf32
# wgmma candidates of 64-row and 128 x 64 tiles). After stage.sh, carry .carry.
# Output: $OUT/s21-$PHASE*.
# PHASE=a: in parallel: gemm_batched-test split_k_configs_match_reference, gemm-test wgmma_ (the
#          wgmma split-K, 64-row and ping-pong tiles), gemm_i8_xf32-test (the new tf32 wgmma
#          candidates pinned); then gemm-test every_table_config_matches_reference and aot-test
#          (s21-a-tests.txt); the split picks' lines at their table sizes and at sizes where the
#          per-call rule takes fewer slices (s21-a.txt).
# PHASE=b: xf32 NT and TN tuned over the wgmma candidates at 1024^3 and 2048^3 (the tables'
#          picks timed beside them) (s21-b-tune.tgz); the xf32 lines with those tables
#          (s21-b.txt).
# PHASE=c: the goal lines with the library's own selection (NT; ROCMATH_TUNING_DIR as
#          given), benches/device/run-gemm-goals.sh (s21-c-goals.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s21-$P-gpu.txt"
case $P in
a)
  tests_in_parallel s21-a-tests.txt "gemm_batched-test split_k_configs_match_reference" "gemm-test wgmma_" "gemm_i8_xf32-test"
  TEST_TIMEOUT=400 run_test s21-a-tests2.txt gemm-test every_table_config_matches_reference
  run_test s21-a-tests2.txt aot-test
  grep -E "^test |test result|FAILED|configs checked|candidates checked|panicked" "$OUT/s21-a-tests2.txt"
  cat "$OUT/s21-a-tests2.txt" >> "$OUT/s21-a-tests.txt" && rm "$OUT/s21-a-tests2.txt"
  for sc in "s NT 256 256 65536" "s NT 1024 1024 1024" "s TN 1024 1024 65536" "d NT 256 256 65536" "d TT 1024 1024 1024" "d NT 1024 1024 65536" \
            "hss NT 256 256 65536" "hss NT 1024 1024 65536" "h NT 1024 1024 65536" \
            "s NT 512 512 1024" "s NT 1536 1536 1536" "d NT 2048 2048 16384" "hss NT 2048 2048 4096"; do
    set -- $sc
    bench_line s21-a "$1 $2 ${3}x${4}x$5" --precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $4 -k $5
  done
  ;;
b)
  OUT=$OUT/tune PRECISIONS=xf32 LAYOUTS="NT TN" SIZES=1024x1024x1024,2048x2048x2048 VARIANTS=wgmma MAX_CANDIDATES=40 \
    DEADLINE=380 STEP_TIMEOUT=180 bash benches/device/run-tune.sh || status=1
  for layout in NT TN NN TT; do
    for s in 1024 2048 4096 8192; do
      ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s21-b "xf32 $layout ${s}^3 tuned" --precision xf32 --transA ${layout:0:1} --transB ${layout:1:1} -m $s -n $s -k $s
    done
  done
  tar czf "$OUT/s21-b-tune.tgz" -C "$OUT" tune && rm -rf "$OUT/tune"
  ;;
c)
  OUT=$OUT bash benches/device/run-gemm-goals.sh || status=1
  mv "$OUT/goals.txt" "$OUT/s21-c-goals.txt"; mv "$OUT/goals-full.txt" "$OUT/s21-c-goals-full.txt"
  ;;
esac
echo "exit status $status"
exit $status
