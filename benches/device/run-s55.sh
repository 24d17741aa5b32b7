#!/usr/bin/env bash
# Fifty-fifth session. Stage first (the bench and the gemm test binary rebuilt into .carry),
# carry .carry. Output: $OUT/s55-$PHASE*.txt.
# PHASE=a: staggered consumers (ROCMATH_GEMM_SM90_STAGGER=1, RM_SM90_STAGGER in gemm_sm90.hip: a
#          tile's two consumer warpgroups take turns at their mainloops, so that one stores while
#          the other multiplies) against the default, two rounds: h NT and NN 8192 x 8192 x 128
#          (128 x 256 s3, s4); hss and bss NT 8192 x 8192 x 128 (128 x 128 s6, 128 x 256 s3) and
#          128^3 x 2048 (128 x 128 s6, s4). Then the 16-bit wgmma tests with the stagger on.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s55-$P-gpu.txt"
atom() { [ ${1:0:1} = b ] && echo bf16 || echo f16; }
# compile_pin STAGGER PRECISION LAYOUT CONFIG: one small call of the pinned config (wgmma atom
# appended), in the background, so that the timed lines find its module in the kernel cache.
compile_pin() {
  ( ROCMATH_GEMM_SM90_STAGGER=$1 timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $2 --transA N --transB ${3:1:1} -m 256 -n 256 -k 64 --config ${4}_wgmma64xnx16$(atom $2) > /dev/null 2>&1 ) &
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
  TEST_TIMEOUT=280 tests_in_parallel s55-a-tests.txt "gemm-test wgmma_kernels_at_tile_edges" "gemm-test wgmma_strided_batches" "gemm-test wgmma_multicast_configs_at_tile_edges" "gemm-test table_configs_match_reference_16_bit"
  echo "tests done at $SECONDS s"
  ;;
esac
exit $status
