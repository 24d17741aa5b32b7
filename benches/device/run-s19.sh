#!/usr/bin/env bash
# Nineteenth session (GEMM small batches: timing method, 16-bit 64^3). After stage.sh, carry
# .carry. Output: $OUT/s19-$PHASE*.
# PHASE=a: do the bench lines depend on warm-up? hss, h 64^3 x 4096, s 32^3 x 10000 and d 64^3 x
#          4096 (NT, committed tables) with the default warm-up (3 runs), then 300 runs, then the
#          default again, with the GPU's clocks read before and after (s19-a.txt); Nsight Compute
#          on ours and cuBLAS at hss 64^3 x 4096 (s19-a-ncu.tgz).
# PHASE=b: (wgmma ping-pong: two consumers taking 64-row tiles in turn) in parallel: gemm-test
#          wgmma_pingpong_strided_batches, wgmma_split_k_and_64_row_configs_at_tile_edges,
#          wgmma_strided_batches (s19-b-tests.txt); then hss, bss and h NT at 32^3 x 10000, 64^3 x
#          4096 and 128^3 x 2048: the table's config against ping-pong configs pinned, twice in
#          turns (s19-b.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
clocks() { nvidia-smi --query-gpu=pstate,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader >> "$OUT/s19-$P-clocks.txt"; }
case $P in
a)
  nvidia-smi -L > "$OUT/s19-a-gpu.txt"
  for sb in "hss 64 4096" "h 64 4096" "s 32 10000" "d 64 4096"; do
    set -- $sb
    for w in 3 300 3; do
      clocks
      bench_line s19-a "$1 $2^3 x $3 warmup $w" --precision $1 --transA N --transB T -m $2 -n $2 -k $2 --batch $3 --warmup $w
    done
  done
  clocks
  mkdir -p "$OUT/ncu"
  ncu_case hss64 hss 64 4096
  tar czf "$OUT/s19-a-ncu.tgz" -C "$OUT" ncu && rm -rf "$OUT/ncu"
  ;;
b)
  tests_in_parallel s19-b-tests.txt "gemm-test wgmma_pingpong_strided_batches" \
    "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges" "gemm-test wgmma_strided_batches"
  for round in 1 2; do
    for p in hss bss h; do
      atom=wgmma64xnx16f16; [ $p = bss ] && atom=wgmma64xnx16bf16
      for sb in "32 10000 64x64x64_w2x1_s12" "64 4096 64x64x64_w2x1_s8 64x64x64_w2x1_s12 64x128x64_w2x1_s8" \
                "128 2048 64x128x64_w2x1_s6 64x128x64_w2x1_s8 64x64x64_w2x1_s12"; do
        set -- $sb
        local_args="--precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2"
        bench_line s19-b "$p $1^3 x $2 table r$round" $local_args
        size=$1 batch=$2; shift 2
        for c in "$@"; do
          bench_line s19-b "$p $size^3 x $batch $c r$round" $local_args --config mt${c}_x_g8_o1_$atom
        done
      done
    done
  done
  ;;
esac
exit $status
