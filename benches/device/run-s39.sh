#!/usr/bin/env bash
# Thirty-ninth session (FFT: fewer integer instructions per element in the row kernels: butterfly
# indices split into a per-thread part and constants, shared and table addresses from per-thread
# pointers). After stage.sh, carry .carry and target/prev (the previous build's bench, from the
# session's starting commit). Output: $OUT/s39-$PHASE*.txt.
# PHASE=a: c2c rows and the real transforms, this build, this build with folded shared loads in
#          row kernels too (ROCMATH_FFT_PAD_FOLD=3), and the previous build; real 1024 with room
#          for 4 blocks (ROCMATH_FFT_MIN_BLOCKS=4), which no longer spills there.
# PHASE=b: with ROCMATH_REQUIRE_GPU=1: fft-test, the batch-interleaved fused real test
#          (ROCMATH_FFT_REAL_PRE=2), fft_args-test and aot-test; then fft-test's real, short-row and spread
#          tests again with ROCMATH_FFT_PAD_FOLD=3.
# PHASE=c: instructions executed (ncu) by the 512-point c2c and the real 1024 / 4096 kernels, both
#          builds; then the FFT suite (s39-c-fft-suite.txt).
# PHASE=d: single c2c 1000, this build and the previous one, two rounds.
# PHASE=e: (carry target/gemmcarry: tests/gemm_batched-test, copied from target/release/deps and
#          stripped) gemm_batched-test's split-K sweep in eight shards at once (ROCMATH_TEST_SHARD),
#          each with its own kernel cache.
# PHASE=f: (target/varA: rocmath-bench and fft-test built with the thread index's range told to
#          the compiler, RM_ASSUME) c2c and real lines, the committed build (.carry) against
#          varA, two rounds; then varA's fft-test with ROCMATH_REQUIRE_GPU=1.
# PHASE=g: (target/final: rocmath-bench with the range assumed only where phase f measured it
#          faster: single and half, threads per transform a power of two) the committed build
#          (.carry) against it on the cases phase f moved.
source benches/device/session.sh
# three LABEL -- ARGS: the line with this build, with folded loads, and with the previous build.
three() {
  local label=$1; shift; shift
  line "$label this build" -- "$@"
  line "$label this build, folded loads" ROCMATH_FFT_PAD_FOLD=3 -- "$@"
  B=target/prev/rocmath-bench line "$label previous build" -- "$@"
}
# committed_against DIR WORD TAIL C2C_LENGTHS REAL_CASES (phases f and g): single c2c of each
# length, then c2r and r2c of each sweep case, with the committed build (.carry) and with
# target/DIR's bench; the lines are labelled "committed" and WORD, then TAIL.
committed_against() {
  local dir=$1 word=$2 tail=$3 c t args
  for c in $4; do
    args=(--precision single --type c2c --length $c --batch $(batch_for $c))
    line "c2c single $c committed$tail" -- "${args[@]}"
    B=target/$dir/rocmath-bench line "c2c single $c $word$tail" -- "${args[@]}"
  done
  for c in $5; do
    sweep_case $c
    for t in c2r r2c; do
      args=(--precision $p --type $t --length $n --batch $b)
      line "$t $p $n committed$tail" -- "${args[@]}"
      B=target/$dir/rocmath-bench line "$t $p $n $word$tail" -- "${args[@]}"
    done
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s39-a-gpu.txt"
  {
    for n in 512 1024 4096 8192 16384; do
      three "c2c single $n" -- --precision single --type c2c --length $n --batch $(batch_for $n)
    done
    for c in 128 256 1024 2048 4096 8192 16384 d1024 h4096; do
      sweep_case $c
      for t in c2r r2c; do
        three "$t $p $n" -- --precision $p --type $t --length $n --batch $b
      done
    done
    for round in 1 2; do
      args=(--precision single --type c2r --length 1024 --batch 65536)
      line "c2r single 1024 4 blocks, round $round" ROCMATH_FFT_MIN_BLOCKS=4 -- "${args[@]}"
      line "c2r single 1024 4 blocks folded loads, round $round" ROCMATH_FFT_MIN_BLOCKS=4 ROCMATH_FFT_PAD_FOLD=3 -- "${args[@]}"
      line "c2r single 1024 default (3 blocks), round $round" -- "${args[@]}"
    done
  } > "$OUT/s39-a.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s39-b-gpu.txt"
  {
    test_run 400 fft-test
    ROCMATH_FFT_REAL_PRE=2 test_run 80 fft-test real_transforms_in_one_launch
    test_run 30 fft_args-test
    test_run 30 aot-test
    ROCMATH_FFT_PAD_FOLD=3 test_run 200 fft-test real
    ROCMATH_FFT_PAD_FOLD=3 test_run 200 fft-test spread_of_lengths
    ROCMATH_FFT_PAD_FOLD=3 test_run 200 fft-test short_rows
  } > "$OUT/s39-b-tests.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s39-c-gpu.txt"
  M=smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,smsp__issue_active.avg.pct_of_peak_sustained_active
  for c in "c2c 512" "c2r 1024" "r2c 1024" "c2r 4096" "r2c 4096"; do
    set -- $c
    for build in .carry target/prev; do
      echo "#### single $1 $2, $build"
      ROCMATH_CACHE_DIR=/tmp/rmc timeout 100 ncu --clock-control none --cache-control none --kernel-name regex:fft_ --launch-count 1 --metrics $M \
        $build/rocmath-bench fft --precision single --type $1 --length $2 --batch $(batch_for $2) --device cuda --iters 1 --warmup 0 2>&1 \
        | grep -E "^  [a-zA-Z_0-9<>]+.*\(|smsp__|gpu__|dram__|launch__"
    done
  done > "$OUT/s39-c-ncu.txt" 2>&1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 $B suite --only fft --device cuda > "$OUT/s39-c-fft-suite.txt" 2>&1
  ;;
d)
  for r in 1 2; do
    line "c2c 1000 this build r$r" -- --precision single --type c2c --length 1000 --batch 67108
    B=target/prev/rocmath-bench line "c2c 1000 previous build r$r" -- --precision single --type c2c --length 1000 --batch 67108
  done > "$OUT/s39-d.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s39-e-gpu.txt"
  for i in 0 1 2 3 4 5 6 7; do
    ROCMATH_TEST_SHARD=$i/8 ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc-$i timeout 570 target/gemmcarry/tests/gemm_batched-test split_k_configs_match_reference --nocapture \
      2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error| checked" | cut -c1-400 > "$OUT/s39-e-split-k-$i.txt" &
  done
  wait
  ;;
f)
  nvidia-smi -L > "$OUT/s39-f-gpu.txt"
  {
    for round in 1 2; do
      committed_against varA assume ", round $round" "512 1000 4096 8192" "128 256 1024 4096 8192 d1024"
    done
  } > "$OUT/s39-f.txt" 2>&1
  ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc-varA timeout 380 target/varA/fft-test 2>&1 \
    | grep -E "^test |test result|panicked|failed|FAIL|error| checked" | cut -c1-400 > "$OUT/s39-f-tests.txt"
  ;;
g)
  nvidia-smi -L > "$OUT/s39-g-gpu.txt"
  {
    committed_against final final "" "1000 4096" "128 256 1024 d1024"
  } > "$OUT/s39-g.txt" 2>&1
  ;;
esac
exit $status
