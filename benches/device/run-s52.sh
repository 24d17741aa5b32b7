#!/usr/bin/env bash
# Fifty-second session. Stage first (the bench rebuilt into .carry, or `TESTS="gemm" bash
# benches/device/stage.sh`), carry .carry. Output: $OUT/s52-$PHASE*.txt.
# PHASE=a: L2 eviction hints on the wgmma kernels' TMA copies (ROCMATH_GEMM_L2_HINTS, bits: 1 an
#          operand one tile reads loaded evict-first, 2 D stored evict-first, 4 an operand many
#          tiles read loaded evict-last; 0 none, that build's default; in that first build, with
#          bit 1 or 4 every load took a hint, evict-normal where neither applied) at the memory-bound shapes
#          (small batches, 16 x 8192 x 8192) and 8192^3, two rounds. FFT 16384 single and half:
#          cluster kernels (ROCMATH_FFT_CLUSTER=2, 4 x 4096 by default, 2 x 8192 with
#          ROCMATH_FFT_CLUSTER_BYTES=65536) against the one-block kernel, two rounds.
# PHASE=b: (the hints' second build: no hint where none is asked, evict-last only for operands
#          of at most 4 MiB) the shapes where a short operand is read by many tiles (16 x 8192 x
#          8192 NT/NN, 8192 x 8192 x 128, 1024^3), settings 0, 4, 5, 6, 7, two rounds.
# PHASE=c: (the hints' default now 6: D evict-first; evict-last for an operand of at most 4 MiB
#          that several tiles read, in problems over 64 MiB) the default against
#          ROCMATH_GEMM_L2_HINTS=0 where it differs (8192 x 8192 x 128 hss, bss, h; hss 1024^3,
#          2048^3, 128^3 x 2048), two rounds; then issue 3's goals run (run-gemm-goals.sh, every
#          family, xf32 batches too) into s52-c-goals.txt.
# PHASE=d: h NT 8192 x 8192 x 128 (0.73-0.80 of cuBLAS in phase c) over eleven wgmma configs,
#          two rounds (s52-d.txt); then gemm-test with the new default: tile edges (every layout) and strided batches on
#          five wgmma configs, and the 16-bit table test.
# PHASE=e: 8192 x 8192 x 128, the table's pick against 128 x 256 s3 (phase d's best for h NT):
#          h, hss, bss in NT and NN, two rounds (s52-e.txt).
# PHASE=f: (an A/B switch of that build only, not kept: ROCMATH_GEMM_EPI_BUFS=max staged as many
#          epilogue chunks as fit, so that consumers leave a tile's stores to the copy engine and
#          go on; RM_SM90_EPI_BUFS_MAX in gemm_sm90.hip, mirrored in lds_bytes) against the rule
#          (two buffers) where it changes the kernel: h NT 8192 x 8192 x 128 and 8192^3, bss NT
#          8192^3 and 8192 x 8192 x 128, hss NT 4096^3, two rounds; the tile-edge test on the two
#          largest tiles with it.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s52-$P-gpu.txt"
# hints_ab FILE: every case of `cases` (bench arguments from `args CASE`) under every setting of
# `hints`, two rounds, into $OUT/FILE.txt; each setting is another module source, so all are
# compiled first, 8 at a time, into the kernel cache.
hints_ab() {
  for h in $hints; do for c in "${cases[@]}"; do
    ( ROCMATH_GEMM_L2_HINTS=$h timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $(args "$c") > /dev/null 2>&1 ) &
    while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
  done; done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for c in "${cases[@]}"; do for h in $hints; do
    ROCMATH_GEMM_L2_HINTS=$h bench_line $1 "$c hints$h $r" $(args "$c") > /dev/null
  done; done; done
  lines_table $1
}
case $P in
a)
  cases=("hss 128 2048" "bss 128 2048" "h 128 2048" "hss 64 4096" "xf32 64 4096" "hss skinny" "hss 8192 1")
  hints="0 1 2 3 7"
  args() {
    set -- $1
    if [ $2 = skinny ]; then echo "--precision $1 --transA N --transB T -m 16 -n 8192 -k 8192"
    else echo "--precision $1 --transA N --transB T -m $2 -n $2 -k $2 --batch $3"; fi
  }
  hints_ab s52-a
  for r in r1 r2; do
    for c in 16384 h16384; do
      sweep_case $c
      a=(--precision $p --type c2c --length $n --batch $b)
      line "c2c $p $n default $r" -- "${a[@]}"
      line "c2c $p $n cluster4 $r" ROCMATH_FFT_CLUSTER=2 -- "${a[@]}"
      line "c2c $p $n cluster2 $r" ROCMATH_FFT_CLUSTER=2 ROCMATH_FFT_CLUSTER_BYTES=65536 -- "${a[@]}"
    done
  done > "$OUT/s52-a-fft.txt" 2>&1
  grep -E "^==|rocmath " "$OUT/s52-a-fft.txt" | paste - - | sed 's/: --precision.*rocmath//' | cut -c1-150
  ;;
b)
  cases=("hss 16 8192 8192 N T" "hss 16 8192 8192 N N" "h 16 8192 8192 N T" "hss 8192 8192 128 N T" "hss 1024 1024 1024 N T")
  hints="0 4 5 6 7"
  args() { set -- $1; echo "--precision $1 --transA $5 --transB $6 -m $2 -n $3 -k $4"; }
  hints_ab s52-b
  ;;
c)
  cases=("hss 8192 8192 128 1" "bss 8192 8192 128 1" "h 8192 8192 128 1" "hss 1024 1024 1024 1" "hss 2048 2048 2048 1" "hss 128 128 128 2048")
  args() { set -- $1; echo "--precision $1 --transA N --transB T -m $2 -n $3 -k $4 --batch $5"; }
  goals() {  # the goals run's lines (run-gemm-goals.sh)
    for p in hss bss h s d xf32; do for s in 1024 2048 4096 8192; do echo "--precision $p -m $s -n $s -k $s"; done; done
    echo "--precision hss -m 8192 -n 8192 -k 128"; echo "--precision hss -m 16 -n 8192 -k 8192"; echo "--precision hss -m 4096 -n 4096 -k 65536"
    for p in hss bss h s d xf32; do for s in "32 10000" "64 4096" "128 2048"; do set -- $s; echo "--precision $p -m $1 -n $1 -k $1 --batch $2"; done; done
  }
  # (every module compiled first, 8 at a time, into the kernel cache)
  { for c in "${cases[@]}"; do echo "0 $(args "$c")"; echo "6 $(args "$c")"; done; goals | sed 's/^/6 --transA N --transB T /'; } > /tmp/warm.txt
  while read -r h a; do
    ( ROCMATH_GEMM_L2_HINTS=$h timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $a > /dev/null 2>&1 ) &
    while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
  done < /tmp/warm.txt
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for c in "${cases[@]}"; do
    bench_line s52-c "$c default $r" $(args "$c") > /dev/null
    ROCMATH_GEMM_L2_HINTS=0 bench_line s52-c "$c hints0 $r" $(args "$c") > /dev/null
  done; done
  lines_table s52-c
  echo "A/B done at $SECONDS s"
  BATCH_PRECISIONS="hss bss h s d xf32" bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv "$OUT/goals.txt" "$OUT/s52-c-goals.txt"; mv "$OUT/goals-full.txt" "$OUT/s52-c-goals-full.txt"
  goals_table s52-c-goals
  echo "goals done at $SECONDS s"
  ;;
d)
  cfgs="mt128x128x64_w2x1_s6_x_g8_o1 mt128x128x64_w2x1_s4_x_g8_o1 mt128x256x64_w2x1_s3_x_g8_o1 mt128x256x64_w2x1_s4_x_g8_o1 mt128x192x64_w2x1_s4_x_g8_o1
    mt128x64x64_w2x1_s6_x_g8_o1 mt64x128x64_w2x1_s6_x_g8_o1 mt64x128x64_w2x1_s8_x_g8_o1 mt64x64x64_w2x1_s8_x_g8_o1 mt64x64x64_w1x1_s3_x_g8_o3 mt64x128x64_w1x1_s3_x_g8_o2"
  a=(--precision h --transA N --transB T -m 8192 -n 8192 -k 128)
  for c in $cfgs; do ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer "${a[@]}" --config ${c}_wgmma64xnx16f16 > /dev/null 2>&1 ) & done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for c in $cfgs; do bench_line s52-d "h 8192x8192x128 $c $r" "${a[@]}" --config ${c}_wgmma64xnx16f16 > /dev/null; done; done
  lines_table s52-d
  ROCMATH_TEST_CONFIGS=mt64x128x64_w1x1_s8_x_g8_o1,mt64x64x64_w1x1_s4_x_g8_o3,mt128x128x64_w2x1_s6_x_g8_o1,mt64x64x64_w2x1_s3_x_g8_o2,mt128x256x64_w2x1_s3_x_g8_o1 TEST_TIMEOUT=240 \
    tests_in_parallel s52-d-tests.txt \
    "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges" "gemm-test table_configs_match_reference_16_bit" "gemm-test wgmma_pingpong_strided_batches"
  ;;
e)
  for f in h hss bss; do atom=$([ $f = bss ] && echo bf16 || echo f16); for l in NT NN; do
    ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $f --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 > /dev/null 2>&1 ) &
    ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $f --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 --config mt128x256x64_w2x1_s3_x_g8_o1_wgmma64xnx16$atom > /dev/null 2>&1 ) &
  done; done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for f in h hss bss; do atom=$([ $f = bss ] && echo bf16 || echo f16); for l in NT NN; do
    a=(--precision $f --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128)
    bench_line s52-e "$f $l table $r" "${a[@]}" > /dev/null
    bench_line s52-e "$f $l 128x256s3 $r" "${a[@]}" --config mt128x256x64_w2x1_s3_x_g8_o1_wgmma64xnx16$atom > /dev/null
  done; done; done
  lines_table s52-e
  ;;
f)
  cases=("h 8192 8192 128" "h 8192 8192 8192" "bss 8192 8192 8192" "bss 8192 8192 128" "hss 4096 4096 4096")
  args() { set -- $1; echo "--precision $1 --transA N --transB T -m $2 -n $3 -k $4"; }
  for c in "${cases[@]}"; do for e in rule max; do
    ( ROCMATH_GEMM_EPI_BUFS=$e timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $(args "$c") > /dev/null 2>&1 ) &
  done; done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for c in "${cases[@]}"; do for e in rule max; do
    ROCMATH_GEMM_EPI_BUFS=$e bench_line s52-f "$c epi-$e $r" $(args "$c") > /dev/null
  done; done; done
  lines_table s52-f
  ROCMATH_GEMM_EPI_BUFS=max ROCMATH_TEST_CONFIGS=mt128x256x64_w2x1_s3_x_g8_o1,mt128x192x64_w2x1_s4_x_g8_o1 TEST_TIMEOUT=150 \
    tests_in_parallel s52-f-tests.txt "gemm-test wgmma_kernels_at_tile_edges" "gemm-test table_configs_match_reference_16_bit"
  ;;
esac
exit $status
