#!/usr/bin/env bash
# Twenty-fifth session. Output: $OUT/s25-$PHASE*. Run after stage.sh (carry .carry).
# PHASE=a: the tests session 24 could not finish: every xf32 candidate at tile edges, and aot-test
#          (s25-a-tests.txt).
# PHASE=b: where the short lines stand on this machine: the batches in every family, the s
#          squares (s25-b.txt); ncu (launch stats, occupancy, memory, warp states) on ours and
#          cuBLAS for s 1024^3, d 64^3 x 4096, d 128^3 x 2048, xf32 128^3 x 2048 (s25-b-ncu.txt).
# PHASE=c: (.carry/old/rocmath-bench: the build before the in-kernel split-K sum) the split-K
#          table picks, previous build and this one in turns, two rounds (s25-c.txt); ncu of s
#          1024^3 (s25-c-ncu.txt); then the tests, in parallel (s25-c-tests.txt): split-K configs,
#          the repeat test, every table config, every xf32 candidate at tile edges.
# PHASE=d: (the tile sum in 16-byte vectors, up to 8 in flight per thread, and the hand-off in
#          its own function) as PHASE=c, one round (s25-d.txt, s25-d-ncu.txt); then the tests
#          (s25-d-tests.txt): split-K configs and the repeat test, every xf32 candidate at tile
#          edges in three shards.
#          The in-kernel sum was slower; it was reverted (its diff: s25-in-kernel-split-k-sum.patch).
# PHASE=e: (the reduce kernel by 16-byte vectors, a division per vector) the split-K picks,
#          previous build and this one in turns (s25-e.txt); the repeat test (s25-e-tests.txt).
#          Not landed (the full split-K test did not run): s25-vector-split-k-reduce.patch, with
#          the later switch to one element per thread for small sums, never run.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
# ncu_brief NAME BENCH-ARGS...: the sections that say where a kernel's time goes, for ours (the
# gemm_ kernels) and for cuBLAS's (every other kernel of the call), into $OUT/s25-$P-ncu.txt.
ncu_brief() {
  local name=$1; shift
  local sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats"
  local keep="gemm_|Kernel|void|Throughput|Duration|Occupancy|Registers|Shared Memory|Stall|Warp Cycles|Hit|Busy|Bandwidth|Block Limit|Grid Size|Block Size|Cluster|Waves|Eligible|Issued|Elapsed|SM Frequency"
  local args="gemm --device cuda --iters 1 --warmup 0 $*"
  { echo "#### ours $name: $*"
    timeout 150 ncu -k regex:gemm_ --launch-count 3 $sections .carry/rocmath-bench $args --no-peer 2>&1 | grep -E "$keep" | grep -v "^  check"
    echo "#### cuBLAS $name"
    timeout 150 ncu -k 'regex:^(?!gemm_)' --launch-count 3 $sections .carry/rocmath-bench $args 2>&1 | grep -E "$keep" | grep -v "^  check"
  } >> "$OUT/s25-$P-ncu.txt" || status=1
}
case $P in
a)
  nvidia-smi -L > "$OUT/s25-a-gpu.txt"
  TEST_TIMEOUT=560 tests_in_parallel s25-a-tests.txt "gemm_i8_xf32-test xf32_candidates_at_tile_edges" "aot-test"
  ;;
b)
  nvidia-smi -L > "$OUT/s25-b.txt"
  for p in hss bss h s d xf32; do
    for size in "32 10000" "64 4096" "128 2048"; do
      set -- $size
      bench_line s25-b "$p NT $1^3 x $2" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
    done
  done
  for n in 1024 2048 4096 8192; do bench_line s25-b "s NT $n^3" --precision s --transA N --transB T -m $n -n $n -k $n; done
  ncu_brief "s 1024^3" --precision s --transA N --transB T -m 1024 -n 1024 -k 1024
  ncu_brief "d 64^3 x 4096" --precision d --transA N --transB T -m 64 -n 64 -k 64 --batch 4096
  ncu_brief "d 128^3 x 2048" --precision d --transA N --transB T -m 128 -n 128 -k 128 --batch 2048
  ncu_brief "xf32 128^3 x 2048" --precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048
  ;;
c)
  nvidia-smi -L > "$OUT/s25-c.txt"
  for round in 1 2; do
    for line in "s NT 1024 1024 1024" "s NN 1024 1024 1024" "s TN 1024 1024 1024" "s TT 1024 1024 1024" \
        "s NT 1024 1024 65536" "s NT 256 256 65536" "d NT 1024 1024 65536" "d NN 1024 1024 65536"; do
      set -- $line
      args="--precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $4 -k $5"
      BENCH=.carry/old/rocmath-bench bench_line s25-c "previous $line" $args
      bench_line s25-c "this build $line" $args
    done
  done
  ncu_brief "s 1024^3" --precision s --transA N --transB T -m 1024 -n 1024 -k 1024
  TEST_TIMEOUT=400 tests_in_parallel s25-c-tests.txt "gemm_batched-test split_k" "gemm-test every_table_config_matches_reference" \
    "gemm_i8_xf32-test xf32_candidates_at_tile_edges"
  ;;
d)
  nvidia-smi -L > "$OUT/s25-d.txt"
  for line in "s NT 1024 1024 1024" "s NN 1024 1024 1024" "s TN 1024 1024 1024" "s TT 1024 1024 1024" \
      "s NT 1024 1024 65536" "s NT 256 256 65536" "d NT 1024 1024 65536" "d NN 1024 1024 65536"; do
    set -- $line
    args="--precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $4 -k $5"
    BENCH=.carry/old/rocmath-bench bench_line s25-d "previous $line" $args
    bench_line s25-d "this build $line" $args
  done
  P=d ncu_brief "s 1024^3" --precision s --transA N --transB T -m 1024 -n 1024 -k 1024
  # (tests_in_parallel's form, with the xf32 test in shards, ROCMATH_TEST_SHARD=i/3)
  TEST_TIMEOUT=400 run_test t0 gemm_batched-test split_k &
  for i in 0 1 2; do ROCMATH_TEST_SHARD=$i/3 TEST_TIMEOUT=400 run_test t$((i + 1)) gemm_i8_xf32-test xf32_candidates_at_tile_edges & done
  wait
  cat "$OUT"/t0 "$OUT"/t1 "$OUT"/t2 "$OUT"/t3 > "$OUT/s25-d-tests.txt" && rm -f "$OUT"/t[0-3]
  grep -E "^test |test result|FAILED|configs checked|candidates checked|panicked" "$OUT/s25-d-tests.txt"
  grep -q FAILED "$OUT/s25-d-tests.txt" && status=1
  ;;
e)
  nvidia-smi -L > "$OUT/s25-e.txt"
  for line in "s NT 1024 1024 1024" "s NN 1024 1024 1024" "s NT 256 256 65536" "d NT 1024 1024 65536" "hss NT 1024 1024 65536"; do
    set -- $line
    args="--precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $4 -k $5"
    BENCH=.carry/old/rocmath-bench bench_line s25-e "previous $line" $args
    bench_line s25-e "this build $line" $args
  done
  TEST_TIMEOUT=150 run_test s25-e-tests.txt gemm_batched-test split_k_results_repeat_bitwise
  grep -E "^test |test result|FAILED|panicked" "$OUT/s25-e-tests.txt"
  ;;
esac
exit $status
