#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh), session 9: the persistent
# small-batch GEMM configs (`s3p` etc.). PHASE=a: rocmath-tune, NT, the issue's three strided
# batches, for hss bss h s d with the persistent candidates only (FILTER=p_; the table's current
# pick of each size is timed beside them, so an entry changes only when a persistent config
# beats it in the same run). PHASE=b (after the tables are committed and restaged): the GEMM
# tests with ROCMATH_REQUIRE_GPU=1 (gemm_batched, which pins every persistent candidate, and
# gemm-test's table-config test; SKIP_TESTS=1 skips them), then the small-batch goal lines against cuBLAS. PHASE=c: the
# 128 x 64 wgmma tiles (FILTER=mt128x64x64) tuned for the skinny shapes of hss, bss and h (NT), then
# their goal lines with those tables (ROCMATH_TUNING_DIR). Everything is
# tarred into $OUT/s9-$PHASE.tgz (the device tool returns at most 8 files).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
BATCHES="32x32x32x10000,64x64x64x4096,128x128x128x2048"
status=0
# One NT bench line against cuBLAS: the whole output to $OUT/FILE-full.txt, a summary headed
# LABEL to $OUT/FILE.txt and the console. Usage: bench_line FILE LABEL BENCH-ARGS...
bench_line() {
  local file=$1 label=$2; shift 2
  local line
  line=$(ROCMATH_REQUIRE_GPU=1 timeout 60 .carry/rocmath-bench gemm --transA N --transB T --device cuda --iters 10 "$@" 2>&1) || status=1
  echo "$line" >> "$OUT/$file-full.txt"
  echo "$label | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/$file.txt" | cut -c1-250
}
case ${PHASE:-a} in
a)
  PRECISIONS=${PRECISIONS:-"hss bss h s d"} LAYOUTS=${LAYOUTS:-NT} SIZES=$BATCHES FILTER=p_ DEADLINE=${DEADLINE:-450} STEP_TIMEOUT=150 \
    bash benches/device/run-tune.sh || status=1
  ;;
b)
  tests=("gemm_batched-test persistent" "gemm-test every_table_config")
  [ -n "${SKIP_TESTS:-}" ] && tests=()
  for t in "${tests[@]}"; do
    echo "== $t" >> "$OUT/s9-tests.txt"
    ROCMATH_REQUIRE_GPU=1 timeout 300 .carry/tests/$t --nocapture >> "$OUT/s9-tests.txt" 2>&1 || { status=1; echo "FAILED $t" >> "$OUT/s9-tests.txt"; }
  done
  [ -f "$OUT/s9-tests.txt" ] && grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s9-tests.txt"
  for p in ${BATCH_PRECISIONS:-hss bss h s d}; do
    for shape in "32 10000" "64 4096" "128 2048"; do
      set -- $shape
      bench_line s9-goals "$p $1^3 x $2" --precision $p -m $1 -n $1 -k $1 --batch $2
    done
  done
  ;;
c)
  PRECISIONS="hss bss h" LAYOUTS=NT SIZES="16x8192x8192,8192x8192x128" FILTER=mt128x64x64 DEADLINE=300 STEP_TIMEOUT=120 \
    bash benches/device/run-tune.sh || status=1
  export ROCMATH_TUNING_DIR="$OUT/tables"
  for p in hss bss h; do
    for mnk in "16 8192 8192" "8192 8192 128"; do
      set -- $mnk
      bench_line s9-skinny "$p $1x$2x$3" --precision $p -m $1 -n $2 -k $3
    done
  done
  ;;
esac
tar czf "$OUT/s9-${PHASE:-a}.tgz" -C "$OUT" $(cd "$OUT" && ls -d tables *.log *.txt 2>/dev/null)
echo "exit status $status"
exit $status
