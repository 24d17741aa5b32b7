#!/usr/bin/env bash
# Twenty-sixth session. Output: $OUT/s26-$PHASE*. Run after stage.sh (carry .carry; the build
# before the change in .carry/old/rocmath-bench).
# PHASE=a: (the split-K reduce by 16-byte vectors, s25-vector-split-k-reduce.patch with its switch
#          to one element per thread where vectors would not fill the GPU) the split-K picks,
#          previous build and this one in turns (s26-a.txt; the 1024^3 ones twice); the split-K
#          tests alone (s26-a-tests.txt).
# PHASE=b: (the epilogue of a wave tile inside D without per-element range tests; .carry/old: the
#          build of phase a) every family's NT batches and the s and d 1024^3 squares, previous
#          build and this one in turns (s26-b.txt); every table config (s26-b-tests.txt).
# PHASE=c: (.carry/a: the interior epilogue in the general path's loop order; .carry/b: the same,
#          FMA atoms left on the general path) the lines that moved in phase b, the three builds in
#          turns (s26-c.txt); the skinny shapes in s, d and xf32 on the committed
#          tables (s26-c-skinny.txt); then rocmath-tune NT at those shapes (run-tune.sh, tables
#          and logs in $OUT/s26-c-tune/) until about 480 s, and the skinny lines on the tuned tables.
# PHASE=d: (build b, the one committed, with the s 16x8192x8192 entry from phase c's tuning) every
#          table config, the DMMA configs at tile edges and the persistent configs, in parallel
#          (s26-d-tests.txt); then the lines this build changed (s26-d.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
# before_after FILE "PRECISION TRANSPOSES M N K [BATCH]"...: the previous build's line, then this one's.
before_after() {
  local file=$1; shift
  for line in "$@"; do
    set -- $line
    local args="--precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $4 -k $5 --batch ${6:-1}"
    BENCH=.carry/old/rocmath-bench bench_line "$file" "previous $line" $args
    bench_line "$file" "this build $line" $args
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s26-a.txt"
  before_after s26-a "s NT 1024 1024 1024" "s NN 1024 1024 1024" "s TN 1024 1024 1024" "s NT 256 256 65536" \
    "s NT 1024 1024 65536" "d NT 1024 1024 65536" "d NT 256 256 65536" "hss NT 1024 1024 65536" "s NT 16 8192 8192"
  before_after s26-a "s NT 1024 1024 1024" "s NN 1024 1024 1024" "s TN 1024 1024 1024"
  TEST_TIMEOUT=420 run_test s26-a-tests.txt gemm_batched-test split_k
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s26-a-tests.txt"
  grep -q FAILED "$OUT/s26-a-tests.txt" && status=1
  ;;
b)
  nvidia-smi -L > "$OUT/s26-b.txt"
  for p in d s xf32 hss bss h; do
    before_after s26-b "$p NT 64 64 64 4096" "$p NT 128 128 128 2048" "$p NT 32 32 32 10000"
  done
  before_after s26-b "s NT 1024 1024 1024" "d NT 1024 1024 1024" "d NT 64 64 64 4096" "d NT 128 128 128 2048"
  TEST_TIMEOUT=420 run_test s26-b-tests.txt gemm-test every_table_config_matches_reference
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s26-b-tests.txt"
  grep -q FAILED "$OUT/s26-b-tests.txt" && status=1
  ;;
c)
  nvidia-smi -L > "$OUT/s26-c.txt"
  for line in "s NT 1024 1024 1024 1" "s NT 128 128 128 2048" "s NT 64 64 64 4096" "d NT 128 128 128 2048" \
      "xf32 NT 128 128 128 2048" "hss NT 64 64 64 4096"; do
    set -- $line
    args="--precision $1 --transA N --transB T -m $3 -n $4 -k $5 --batch $6"
    BENCH=.carry/old/rocmath-bench bench_line s26-c "previous $line" $args
    BENCH=.carry/a/rocmath-bench bench_line s26-c "a $line" $args
    BENCH=.carry/b/rocmath-bench bench_line s26-c "b $line" $args
  done
  skinny() {
    local file=$1
    for p in s d xf32; do
      for shape in "8192 8192 128" "16 8192 8192" "4096 4096 65536"; do
        set -- $shape
        bench_line "$file" "$p NT $1x$2x$3" --precision $p --transA N --transB T -m $1 -n $2 -k $3
      done
    done
  }
  skinny s26-c-skinny
  mkdir -p "$OUT/s26-c-tune"
  OUT="$OUT/s26-c-tune" PRECISIONS="s d xf32" LAYOUTS=NT SIZES="16x8192x8192,8192x8192x128,4096x4096x65536" \
    MAX_CANDIDATES=${MAX_CANDIDATES:-20} DEADLINE=$((SECONDS > 360 ? 0 : 360 - SECONDS)) STEP_TIMEOUT=120 ITERS=5 WARMUP=2 \
    bash benches/device/run-tune.sh || status=1
  ROCMATH_TUNING_DIR="$OUT/s26-c-tune/tables" skinny s26-c-skinny-tuned
  ;;
d)
  TEST_TIMEOUT=400 tests_in_parallel s26-d-tests.txt "gemm-test every_table_config_matches_reference" \
    "gemm-test dmma_configs_at_tile_edges" "gemm_batched-test persistent_configs_match_reference"
  nvidia-smi -L > "$OUT/s26-d.txt"
  for line in "s 16 8192 8192 1" "d 128 128 128 2048" "d 64 64 64 4096" "xf32 128 128 128 2048" "s 1024 1024 1024 1"; do
    set -- $line
    bench_line s26-d "$1 NT $2x$3x$4 x $5" --precision $1 --transA N --transB T -m $2 -n $3 -k $4 --batch $5
  done
  ;;
esac
exit $status
