#!/usr/bin/env bash
# Fifty-sixth session. Stage first (the bench and the gemm test binaries rebuilt into .carry, the
# build before this session's change as .carry/old-bench), carry .carry. Output: $OUT/s56-$PHASE*.txt.
# PHASE=a: one named barrier per epilogue chunk instead of two (rm_sm90_store_tma, gemm_sm90.hip;
#          .carry/mid-bench), then also the epilogue's thread index read again, so that its
#          staging addresses are not spilled over the mainloop (128 x 256 tiles with 32-bit
#          output; .carry/rocmath-bench): .carry/old-bench (76b3c60's kernels) against both, two rounds: h NT and
#          NN 8192 x 8192 x 128 (128 x 256 s3), and through the tables h, hss, bss NT 8192 x 8192 x
#          128, hss, bss, h NT 128^3 x 2048, hss 64^3 x 4096, xf32 NT 64^3 x 4096, h NT 4096^3 and
#          8192^3, hss and xf32 NT 4096^3.
# PHASE=b: the cooperative, split-K and strided-batch wgmma tests.
# PHASE=c: the tests the fifty-fifth session could not run on its kernels, each in its own file:
#          table_configs_match_reference_16_bit, xf32_candidates_at_tile_edges (which ran out of
#          its time as one process: phase d), wgmma_kernels_at_tile_edges, multicast.
# PHASE=d: xf32_candidates_at_tile_edges in six shards at once (ROCMATH_TEST_SHARD).
# (Phases c and d ran on 76b3c60's kernels, after phase a's changes were reverted: the mid and
# new kernels are in commits 909bc4a and 1f9856c only.)
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s56-$P-gpu.txt"
c256s3=mt128x256x64_w2x1_s3_x_g8_o1
shapes=("h N T 8192 8192 128 1" "hss N T 8192 8192 128 1" "bss N T 8192 8192 128 1" "hss N T 128 128 128 2048"
        "bss N T 128 128 128 2048" "h N T 128 128 128 2048" "hss N T 64 64 64 4096" "xf32 N T 64 64 64 4096"
        "h N T 4096 4096 4096 1" "h N T 8192 8192 8192 1" "hss N T 4096 4096 4096 1" "xf32 N T 4096 4096 4096 1")
case $P in
a)
  for bench in .carry/old-bench .carry/mid-bench $B; do
    for l in T N; do
      ( timeout 240 $bench gemm --device cuda --iters 1 --warmup 0 --no-peer --precision h --transA N --transB $l -m 256 -n 256 -k 64 --config ${c256s3}_wgmma64xnx16f16 > /dev/null 2>&1 ) &
    done
    for sh in "${shapes[@]}"; do
      set -- $sh
      ( timeout 240 $bench gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $1 --transA $2 --transB $3 -m $4 -n $5 -k $6 --batch $7 > /dev/null 2>&1 ) &
      while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
    done
  done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for bench in .carry/old-bench .carry/mid-bench $B; do
    w=$(case $bench in $B) echo new;; *mid*) echo mid;; *) echo old;; esac)
    for l in T N; do
      BENCH=$bench bench_line s56-a "h N$l 8192x8192x128 $c256s3 $w $r" --precision h --transA N --transB $l -m 8192 -n 8192 -k 128 --config ${c256s3}_wgmma64xnx16f16 > /dev/null
    done
    for sh in "${shapes[@]}"; do
      set -- $sh
      BENCH=$bench bench_line s56-a "$1 $2$3 ${4}x${5}x${6}x$7 table $w $r" --precision $1 --transA $2 --transB $3 -m $4 -n $5 -k $6 --batch $7 > /dev/null
    done
  done; done
  lines_table s56-a
  echo "lines done at $SECONDS s"
  ;;
b)
  TEST_TIMEOUT=500 tests_in_parallel s56-b-tests.txt "gemm-test wgmma_cooperative_configs_at_tile_edges" "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges" "gemm-test wgmma_strided_batches" "gemm-test wgmma_pingpong_strided_batches" "gemm-test wgmma_split_k_strided_batches"
  echo "tests done at $SECONDS s"
  ;;
c)
  t() { ( ROCMATH_REQUIRE_GPU=1 timeout 540 .carry/tests/$1 $2 > "$OUT/s56-c-$2.txt" 2>&1 || echo "FAILED $2" >> "$OUT/s56-c-$2.txt" ) & }
  t gemm-test table_configs_match_reference_16_bit
  t gemm_i8_xf32-test xf32_candidates_at_tile_edges
  t gemm-test wgmma_kernels_at_tile_edges
  t gemm-test wgmma_multicast_configs_at_tile_edges
  wait
  grep -hE "^test |test result|FAILED|panicked|checked" "$OUT"/s56-c-*.txt
  if grep -q FAILED "$OUT"/s56-c-*.txt; then status=1; fi
  echo "tests done at $SECONDS s"
  ;;
d)
  for i in 0 1 2 3 4 5; do
    ( ROCMATH_TEST_SHARD=$i/6 ROCMATH_REQUIRE_GPU=1 timeout 440 .carry/tests/gemm_i8_xf32-test xf32_candidates_at_tile_edges > "$OUT/s56-d-xf32-shard$i.txt" 2>&1 || echo "FAILED shard $i" >> "$OUT/s56-d-xf32-shard$i.txt" ) &
  done
  wait
  grep -hE "test result|FAILED|panicked" "$OUT"/s56-d-*.txt
  if grep -q FAILED "$OUT"/s56-d-*.txt; then status=1; fi
  ;;
esac
exit $status
