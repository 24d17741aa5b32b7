#!/usr/bin/env bash
# Fifty-fifth session. Stage first (the bench and the gemm test binary rebuilt into .carry),
# carry .carry. Output: $OUT/s55-$PHASE*.txt.
# (The stagger switch phase a sets was reverted after it, measured slower: it is in commit 3ed6153
# only; on later builds ROCMATH_GEMM_SM90_STAGGER does nothing. The old bench of phase c is a
# build of that commit, whose kernels with the switch unset are 9c6155e's.)
# PHASE=a: staggered consumers (ROCMATH_GEMM_SM90_STAGGER=1, RM_SM90_STAGGER in gemm_sm90.hip: a
#          tile's two consumer warpgroups take turns at their mainloops, so that one stores while
#          the other multiplies) against the default, two rounds: h NT and NN 8192 x 8192 x 128
#          (128 x 256 s3, s4); hss and bss NT 8192 x 8192 x 128 (128 x 128 s6, 128 x 256 s3) and
#          128^3 x 2048 (128 x 128 s6, s4). Then the 16-bit wgmma tests with the stagger on.
# PHASE=b: where the consumers of h NT 8192 x 8192 x 128 (128 x 256 s3) wait: Nsight Compute's
#          warp-state and source counters (PC sampling per SASS instruction), ours and cuBLAS's,
#          the source page as CSV.
# PHASE=c: accumulators overwritten by a unit's first wgmma (no zeroing) and the walk's divisions
#          by multiply and shift (rm_fastdiv): .carry/old-bench (the build before, 9c6155e's
#          kernels) against .carry/rocmath-bench, two rounds: h NT and NN 8192 x 8192 x 128 (128 x
#          256 s3), and through the tables h, hss, bss NT 8192 x 8192 x 128, hss, bss, h NT 128^3 x
#          2048 and 64^3 x 4096, h NT 4096^3, 8192^3; then the wgmma tests of gemm-test.
# PHASE=d: the rest of the wgmma tests (gemm-test, gemm_i8_xf32-test); phase c runs it beside its own.
# PHASE=e: the wgmma tests phase c's time limit cut off, each into its own file.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s55-$P-gpu.txt"
atom() { [ ${1:0:1} = b ] && echo bf16 || echo f16; }
# compile_pin STAGGER PRECISION LAYOUT CONFIG: one small call of the pinned config (wgmma atom
# appended), in the background, so that the timed lines find its module in the kernel cache.
compile_pin() {
  ( ROCMATH_GEMM_SM90_STAGGER=$1 timeout 240 ${BENCH:-$B} gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $2 --transA N --transB ${3:1:1} -m 256 -n 256 -k 64 --config ${4}_wgmma64xnx16$(atom $2) > /dev/null 2>&1 ) &
  while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
}
c256s3=mt128x256x64_w2x1_s3_x_g8_o1 c256s4=mt128x256x64_w2x1_s4_x_g8_o1
c128s6=mt128x128x64_w2x1_s6_x_g8_o1 c128s4=mt128x128x64_w2x1_s4_x_g8_o1
case $P in
a)
  for S in 0 1; do
    for l in NT NN; do for c in $c256s3 $c256s4; do compile_pin $S h $l $c; done; done
    for f in hss bss; do for c in $c128s6 $c256s3 $c128s4; do compile_pin $S $f NT $c; done; done
  done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for S in 0 1; do
    for l in NT NN; do for c in $c256s3 $c256s4; do
      ROCMATH_GEMM_SM90_STAGGER=$S bench_line s55-a "h $l 8192x8192x128 $c S$S $r" --precision h --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 --config ${c}_wgmma64xnx16f16 > /dev/null
    done; done
    for f in hss bss; do
      for c in $c128s6 $c256s3; do
        ROCMATH_GEMM_SM90_STAGGER=$S bench_line s55-a "$f NT 8192x8192x128 $c S$S $r" --precision $f --transA N --transB T -m 8192 -n 8192 -k 128 --config ${c}_wgmma64xnx16$(atom $f) > /dev/null
      done
      for c in $c128s6 $c128s4; do
        ROCMATH_GEMM_SM90_STAGGER=$S bench_line s55-a "$f NT 128^3x2048 $c S$S $r" --precision $f --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config ${c}_wgmma64xnx16$(atom $f) > /dev/null
      done
    done
  done; done
  lines_table s55-a
  echo "lines done at $SECONDS s"
  export ROCMATH_GEMM_SM90_STAGGER=1
  TEST_TIMEOUT=280 tests_in_parallel s55-a-tests.txt "gemm-test wgmma_staggered_consumers_at_tile_edges" "gemm-test wgmma_kernels_at_tile_edges" "gemm-test wgmma_strided_batches" "gemm-test wgmma_multicast_configs_at_tile_edges" "gemm-test table_configs_match_reference_16_bit"
  echo "tests done at $SECONDS s"
  ;;
b)
  mkdir -p "$OUT/ncu"
  args="gemm --precision h --transA N --transB T -m 8192 -n 8192 -k 128 --device cuda --iters 1 --warmup 0"
  cfg="--config ${c256s3}_wgmma64xnx16f16"
  $B $args $cfg --no-peer > /dev/null 2>&1  # (the module into the kernel cache)
  sec="--section SourceCounters --section WarpStateStats --section SpeedOfLight --clock-control none"
  timeout 200 ncu -k regex:gemm_ --launch-count 1 $sec -o "$OUT/ncu/ours" $B $args $cfg --no-peer > "$OUT/ncu/ours-log.txt" 2>&1 || status=1
  timeout 200 ncu -k 'regex:^(?!gemm_)' --launch-count 1 $sec -o "$OUT/ncu/cublas" $B $args $cfg > "$OUT/ncu/cublas-log.txt" 2>&1 || status=1
  for w in ours cublas; do
    ncu -i "$OUT/ncu/$w.ncu-rep" --page details > "$OUT/ncu/$w-details.txt" 2>&1
    ncu -i "$OUT/ncu/$w.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu/$w-source.csv" 2>&1
    wc -l "$OUT/ncu/$w-source.csv"; head -c 600 "$OUT/ncu/$w-source.csv"; echo
  done
  grep -E "Duration|Warp Cycles Per Issued|Stall|No Eligible" "$OUT/ncu/ours-details.txt" | head -20
  rm -f "$OUT"/ncu/*.ncu-rep
  ;;
c)
  for bench in .carry/old-bench $B; do
    for l in NT NN; do BENCH=$bench compile_pin 0 h $l $c256s3; done
    for sh in "h 8192 8192 128 1" "hss 8192 8192 128 1" "bss 8192 8192 128 1" "hss 128 128 128 2048" "bss 128 128 128 2048" "h 128 128 128 2048" "hss 64 64 64 4096" "h 4096 4096 4096 1"; do
      set -- $sh
      ( timeout 240 $bench gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $1 --transA N --transB T -m $2 -n $3 -k $4 --batch $5 > /dev/null 2>&1 ) &
      while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
    done
  done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for bench in .carry/old-bench $B; do
    w=$([ $bench = $B ] && echo new || echo old)
    for l in NT NN; do
      BENCH=$bench bench_line s55-c "h $l 8192x8192x128 $c256s3 $w $r" --precision h --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 --config ${c256s3}_wgmma64xnx16f16 > /dev/null
    done
    for sh in "h 8192 8192 128 1" "hss 8192 8192 128 1" "bss 8192 8192 128 1" "hss 128 128 128 2048" "bss 128 128 128 2048" "h 128 128 128 2048" "hss 64 64 64 4096" "h 4096 4096 4096 1"; do
      set -- $sh
      BENCH=$bench bench_line s55-c "$1 NT ${2}x${3}x${4}x$5 table $w $r" --precision $1 --transA N --transB T -m $2 -n $3 -k $4 --batch $5 > /dev/null
    done
  done; done
  BENCH=.carry/old-bench bench_line s55-c "h NT 8192^3 table old" --precision h --transA N --transB T -m 8192 -n 8192 -k 8192 > /dev/null
  bench_line s55-c "h NT 8192^3 table new" --precision h --transA N --transB T -m 8192 -n 8192 -k 8192 > /dev/null
  lines_table s55-c
  echo "lines done at $SECONDS s"
  PHASE=d OUT=$OUT bash benches/device/run-s55.sh > "$OUT/s55-d-console.txt" 2>&1 &  # (phase d's tests beside these)
  TEST_TIMEOUT=300 tests_in_parallel s55-c-tests.txt "gemm-test wgmma_cooperative_configs_at_tile_edges" "gemm-test wgmma_kernels_at_tile_edges" "gemm-test wgmma_strided_batches" "gemm-test wgmma_multicast_configs_at_tile_edges" "gemm-test table_configs_match_reference_16_bit"
  wait  # (tests_in_parallel's wait has already waited for phase d too)
  cat "$OUT/s55-d-console.txt"
  if grep -q FAILED "$OUT"/s55-d-gemm.txt "$OUT"/s55-d-i8-xf32.txt; then status=1; fi
  echo "tests done at $SECONDS s"
  ;;
e)
  for t in wgmma_split_k_and_64_row_configs_at_tile_edges wgmma_kernels_at_tile_edges wgmma_strided_batches wgmma_multicast_configs_at_tile_edges; do
    ( ROCMATH_REQUIRE_GPU=1 timeout 100 .carry/tests/gemm-test $t --exact > "$OUT/s55-e-$t.txt" 2>&1 || echo "FAILED $t" >> "$OUT/s55-e-$t.txt" ) &
  done
  wait
  grep -hE "^test |test result|FAILED|panicked|checked" "$OUT"/s55-e-*.txt
  if grep -q FAILED "$OUT"/s55-e-*.txt; then status=1; fi
  ;;
d)
  # (gemm-test without phase c's tests and the s, d and complex table tests, which run no
  # wgmma kernel; gemm_i8_xf32-test whole)
  skip="--skip wgmma_cooperative --skip wgmma_kernels_at --skip wgmma_strided_batches --skip wgmma_multicast --skip table_configs_match_reference_16_bit --skip table_configs_match_reference_s --skip table_configs_match_reference_d --skip table_configs_match_reference_complex"
  ( ROCMATH_REQUIRE_GPU=1 timeout 500 .carry/tests/gemm-test $skip > "$OUT/s55-d-gemm.txt" 2>&1 || echo "FAILED gemm-test" >> "$OUT/s55-d-gemm.txt" ) &
  ( ROCMATH_REQUIRE_GPU=1 timeout 500 .carry/tests/gemm_i8_xf32-test > "$OUT/s55-d-i8-xf32.txt" 2>&1 || echo "FAILED gemm_i8_xf32-test" >> "$OUT/s55-d-i8-xf32.txt" ) &
  wait
  grep -hE "^test |test result|FAILED|panicked" "$OUT"/s55-d-*.txt
  if grep -q FAILED "$OUT"/s55-d-*.txt; then status=1; fi
  echo "tests done at $SECONDS s"
  ;;
esac
exit $status
