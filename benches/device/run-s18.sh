#!/usr/bin/env bash
# Eighteenth session (GEMM small batches). After stage.sh, carry .carry. Output: $OUT/s18-$PHASE*.
# PHASE=a: Nsight Compute (full set and the stall reasons) on ours and cuBLAS at s 32^3 x 10000,
#          s 64^3 x 4096 and d 32^3 x 10000 (NT, the table's configs), in $OUT/s18-a-ncu.tar;
#          the NT small-batch lines of every precision with the committed tables (s18-a.txt).
# PHASE=b: (vector epilogue for the FMA-warp atom's row runs; 2 x 2 warp 32 x 32 candidates)
#          the s batch lines, this build against the previous one (.carry/old/rocmath-bench,
#          the session 17 build, no ahead-of-time file) on the committed tables (s18-b.txt);
#          s and d NT tuned at the three batches, hss, bss and h at 32^3 x 10000, over every
#          candidate (tables in s18-b-tables.tar, logs in s18-b-logs.tar); the batch lines of
#          all five precisions with the tuned tables (s18-b-tuned.txt).
# PHASE=c: (tables committed and staged) in parallel: gemm-test warp_fma_configs_at_tile_edges,
#          dmma_configs_at_tile_edges and every_table_config_matches_reference, gemm_batched-test,
#          gemm_i8_xf32-test (s18-c-tests.txt); then the s squares in all four layouts and the
#          NT small-batch lines of every precision (s18-c.txt).
# PHASE=d: (the mma.sync m16n8 atoms' accumulators regrouped by shuffles into 4-row runs, stored
#          as vectors) in parallel: gemm-test, gemm_batched-test, gemm_i8_xf32-test, gemm_args-test
#          (s18-d-tests.txt); then the small-batch lines of d and the 16-bit families, this build
#          against the build before it (.carry/old/rocmath-bench, phase c's), in turns (s18-d.txt).
# PHASE=e: (the f64 atoms back to their own layout: regrouping was slower there) the d batch
#          lines (s18-e.txt); hss, bss and h NT tuned at 32^3 x 10000 and 64^3 x 4096 over every
#          candidate (tables and logs in s18-e-tune.tar); the 16-bit batch lines with the tuned
#          tables (s18-e-tuned.txt).
# PHASE=f: (those tables committed and staged) gemm-test every_table_config_matches_reference
#          and gemm_batched-test persistent_configs_match_reference (s18-f-tests.txt); the NT
#          small-batch lines of every precision (s18-f.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
batches() {  # batches FILE TAG PRECISIONS...: the NT small-batch lines with the library's selection
  local file=$1 tag=$2; shift 2
  for p in "$@"; do
    for sb in "32 10000" "64 4096" "128 2048"; do
      set -- $sb
      bench_line "$file" "$p $1^3 x $2 $tag" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
    done
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s18-a-gpu.txt"
  batches s18-a table s d hss bss h
  mkdir -p "$OUT/ncu"
  ncu_case s32 s 32 10000
  ncu_case s64 s 64 4096
  ncu_case d32 d 32 10000
  tar -C "$OUT" -cf "$OUT/s18-a-ncu.tar" ncu && rm -rf "$OUT/ncu"
  ;;
b)
  for sb in "32 10000" "64 4096" "128 2048"; do
    set -- $sb
    args="--precision s --transA N --transB T -m $1 -n $1 -k $1 --batch $2"
    bench_line s18-b "s $1^3 x $2 new" $args
    BENCH=.carry/old/rocmath-bench bench_line s18-b "s $1^3 x $2 old" $args
  done
  B=32x32x32x10000,64x64x64x4096,128x128x128x2048
  OUT=$OUT/tune PRECISIONS="s d" LAYOUTS=NT SIZES=$B MAX_CANDIDATES=40 DEADLINE=300 STEP_TIMEOUT=200 bash benches/device/run-tune.sh || status=1
  OUT=$OUT/tune PRECISIONS="hss bss h" LAYOUTS=NT SIZES=32x32x32x10000 MAX_CANDIDATES=40 DEADLINE=420 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  ROCMATH_TUNING_DIR=$OUT/tune/tables batches s18-b-tuned tuned s d hss bss h
  tar -C "$OUT/tune" -cf "$OUT/s18-b-tables.tar" tables
  tar -C "$OUT/tune" -cf "$OUT/s18-b-logs.tar" --exclude tables .
  rm -rf "$OUT/tune"
  ;;
c)
  nvidia-smi -L > "$OUT/s18-c-gpu.txt"
  export TEST_TIMEOUT=420
  tests_in_parallel s18-c-tests.txt "gemm-test warp_fma_configs_at_tile_edges" "gemm-test dmma_configs_at_tile_edges" \
    "gemm-test every_table_config_matches_reference" gemm_batched-test gemm_i8_xf32-test
  for n in 1024 2048 4096 8192; do
    for l in NT NN TN TT; do
      bench_line s18-c "s $l $n^3 table" --precision s --transA ${l:0:1} --transB ${l:1:1} -m $n -n $n -k $n
    done
  done
  batches s18-c table s d hss bss h
  ;;
d)
  nvidia-smi -L > "$OUT/s18-d-gpu.txt"
  export TEST_TIMEOUT=480
  tests_in_parallel s18-d-tests.txt gemm-test gemm_batched-test gemm_i8_xf32-test gemm_args-test
  for p in hss bss h d; do
    for sb in "32 10000" "64 4096" "128 2048"; do
      set -- $sb
      args="--precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2"
      bench_line s18-d "$p $1^3 x $2 new" $args
      BENCH=.carry/old/rocmath-bench bench_line s18-d "$p $1^3 x $2 old" $args
      bench_line s18-d "$p $1^3 x $2 new" $args
    done
  done
  ;;
e)
  nvidia-smi -L > "$OUT/s18-e-gpu.txt"
  for sb in "32 10000" "64 4096" "128 2048"; do
    set -- $sb
    bench_line s18-e "d $1^3 x $2 table" --precision d --transA N --transB T -m $1 -n $1 -k $1 --batch $2
  done
  OUT=$OUT/tune PRECISIONS="hss bss h" LAYOUTS=NT SIZES=32x32x32x10000,64x64x64x4096 MAX_CANDIDATES=40 DEADLINE=330 STEP_TIMEOUT=140 bash benches/device/run-tune.sh || status=1
  ROCMATH_TUNING_DIR=$OUT/tune/tables batches s18-e-tuned tuned hss bss h
  tar -C "$OUT" -cf "$OUT/s18-e-tune.tar" tune && rm -rf "$OUT/tune"
  ;;
f)
  nvidia-smi -L > "$OUT/s18-f-gpu.txt"
  export TEST_TIMEOUT=450
  tests_in_parallel s18-f-tests.txt "gemm-test every_table_config_matches_reference" \
    "gemm_batched-test persistent_configs_match_reference"
  batches s18-f table s d hss bss h
  ;;
esac
exit $status
