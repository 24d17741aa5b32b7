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
# PHASE=c: Nsight Compute on the ping-pong 64x64 s8 config at hss 64^3 x 4096 (s19-c-ncu.tgz);
#          hss, bss and h NT tuned at 64^3 x 4096, 128^3 x 2048 and 8192 x 8192 x 128 over every
#          candidate (tables and logs in s19-c-tune.tgz); the batch lines with those tables
#          (s19-c-tuned.txt).
# PHASE=d: why the tuner's picks and the bench lines disagree at h 64^3 x 4096: three configs
#          (ping-pong 64x64 s8, one-consumer 64x64 s8, the table's mma.sync 64x64x32 s4p) as bench
#          lines, one process each, in turns, three rounds, then once each with 100 timed runs
#          (s19-d.txt); the tuner over the wgmma and mma candidates with run-tune's 5 timed runs,
#          then with 50 (s19-d-tune-5.log, s19-d-tune-50.log).
# PHASE=e: hss, bss and h NT, the table's config against ping-pong configs pinned, one process
#          each, in turns, two rounds: 64^3 x 4096 (64x64 s8), 128^3 x 2048 (64x128 s6 and s8),
#          8192 x 8192 x 128 (64x128 s6 and s8, 64x64 s12) (s19-e.txt).
# PHASE=f: (the ping-pong picks committed in the NT tables and staged) in parallel: gemm-test
#          every_table_config_matches_reference, gemm-test wgmma (every wgmma test),
#          gemm_batched-test (s19-f-tests.txt); the NT small-batch lines of every precision and
#          the 16-bit 8192 x 8192 x 128 lines (s19-f.txt).
# PHASE=g: are the ping-pong kernels slower from the ahead-of-time file (compiled here by
#          nvrtc from PyPI) than compiled on the device? hss, bss and h NT at 64^3 x 4096 and
#          128^3 x 2048: the table's ping-pong config with the file, without it
#          (ROCMATH_AOT_CACHE set empty), and the previous table's config, in turns, two rounds
#          (s19-g.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
# table_and_pinned FILE PRECISION LABEL ROUND "BENCH-ARGS" SHAPE...: the line with the table's
# config, then one per wgmma shape pinned (`mtSHAPE_x_g8_o1_` and the family's wgmma atom).
table_and_pinned() {
  local file=$1 p=$2 label=$3 round=$4 args=$5; shift 5
  local atom=wgmma64xnx16f16; [ $p = bss ] && atom=wgmma64xnx16bf16
  bench_line $file "$label table r$round" $args
  for c in "$@"; do bench_line $file "$label $c r$round" $args --config mt${c}_x_g8_o1_$atom; done
}
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
      for sb in "32 10000 64x64x64_w2x1_s12" "64 4096 64x64x64_w2x1_s8 64x64x64_w2x1_s12 64x128x64_w2x1_s8" \
                "128 2048 64x128x64_w2x1_s6 64x128x64_w2x1_s8 64x64x64_w2x1_s12"; do
        set -- $sb
        table_and_pinned s19-b $p "$p $1^3 x $2" $round "--precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2" "${@:3}"
      done
    done
  done
  ;;
c)
  mkdir -p "$OUT/ncu"
  ncu_case hss64-pingpong hss 64 4096 --config mt64x64x64_w2x1_s8_x_g8_o1_wgmma64xnx16f16
  tar czf "$OUT/s19-c-ncu.tgz" -C "$OUT" ncu && rm -rf "$OUT/ncu"
  OUT=$OUT/tune PRECISIONS="hss bss h" LAYOUTS=NT SIZES=64x64x64x4096,128x128x128x2048,8192x8192x128 MAX_CANDIDATES=40 \
    DEADLINE=420 STEP_TIMEOUT=170 bash benches/device/run-tune.sh || status=1
  for p in hss bss h; do
    for sb in "64 4096" "128 2048"; do
      set -- $sb
      ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s19-c-tuned "$p $1^3 x $2 tuned" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
    done
    ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s19-c-tuned "$p 8192x8192x128 tuned" --precision $p --transA N --transB T -m 8192 -n 8192 -k 128
  done
  tar czf "$OUT/s19-c-tune.tgz" -C "$OUT" tune && rm -rf "$OUT/tune"
  ;;
d)
  args="--precision h --transA N --transB T -m 64 -n 64 -k 64 --batch 4096"
  cfgs="mt64x64x64_w2x1_s8_x_g8_o1_wgmma64xnx16f16 mt64x64x64_w1x1_s8_x_g8_o1_wgmma64xnx16f16 mt64x64x32_w2x2_s4p_x_g8_o1_mma16x8x16f16"
  for round in 1 2 3; do
    for c in $cfgs; do bench_line s19-d "h 64^3 x 4096 $c r$round" $args --config $c; done
  done
  for c in $cfgs; do bench_line s19-d "h 64^3 x 4096 $c iters 100" $args --config $c --iters 100; done
  for it in 5 50; do
    timeout 200 .carry/rocmath-tune gemm --precision h --transA N --transB T --sizes 64x64x64x4096 --device cuda \
      --out "$OUT/tables-$it" --variants wgmma,mma --iters $it --warmup 2 > "$OUT/s19-d-tune-$it.log" 2>&1 || status=1
    sort -t'(' -k2 "$OUT/s19-d-tune-$it.log" | grep "GF/s" | head -8
  done
  rm -rf "$OUT"/tables-*
  ;;
e)
  for round in 1 2; do
    for p in hss bss h; do
      for sb in "64 64 4096 64x64x64_w2x1_s8" "128 128 2048 64x128x64_w2x1_s6 64x128x64_w2x1_s8" \
                "8192 128 1 64x128x64_w2x1_s6 64x128x64_w2x1_s8 64x64x64_w2x1_s12"; do
        set -- $sb
        table_and_pinned s19-e $p "$p ${1}x${1}x$2 x $3" $round "--precision $p --transA N --transB T -m $1 -n $1 -k $2 --batch $3" "${@:4}"
      done
    done
  done
  ;;
f)
  nvidia-smi -L > "$OUT/s19-f-gpu.txt"
  TEST_TIMEOUT=570 tests_in_parallel s19-f-tests.txt "gemm-test every_table_config_matches_reference" "gemm-test wgmma" gemm_batched-test
  for p in s d hss bss h; do
    for sb in "32 10000" "64 4096" "128 2048"; do
      set -- $sb
      bench_line s19-f "$p $1^3 x $2 table" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
    done
  done
  for p in hss bss h; do bench_line s19-f "$p 8192x8192x128 table" --precision $p --transA N --transB T -m 8192 -n 8192 -k 128; done
  ;;
g)
  nvidia-smi -L > "$OUT/s19-g-gpu.txt"
  for round in 1 2; do
    for p in hss bss h; do
      mma=mma16x8x16f16; [ $p = bss ] && mma=mma16x8x16bf16
      old64=mt64x64x32_w2x2_s4_x_g8_o1_$mma; [ $p = h ] && old64=mt64x64x32_w2x2_s4p_x_g8_o1_$mma
      old128=mt128x128x64_w2x1_s6_x_g8_o1_wgmma64xnx16${mma#mma16x8x16}; [ $p = hss ] && old128=mt128x64x64_w2x1_s6_x_g8_o1_wgmma64xnx16f16
      for sb in "64 4096 $old64" "128 2048 $old128"; do
        set -- $sb
        args="--precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2"
        bench_line s19-g "$p $1^3 x $2 table, AOT file r$round" $args
        ROCMATH_AOT_CACHE= bench_line s19-g "$p $1^3 x $2 table, no AOT file r$round" $args
        ROCMATH_AOT_CACHE= bench_line s19-g "$p $1^3 x $2 previous $3 r$round" $args --config $3
      done
    done
  done
  ;;
esac
exit $status
