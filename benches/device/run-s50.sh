#!/usr/bin/env bash
# Fiftieth session. Stage first: `TESTS="gemm" bash benches/device/stage.sh`, carry .carry (the
# GEMM modules compile by nvrtc on the device; phase a warms the cache in parallel first).
# Output: $OUT/s50-$PHASE*.txt.
# PHASE=a: the 16-bit small batches (hss, bss, h at 64^3 x 4096 and 128^3 x 2048, NT) on
#          one-consumer wgmma tiles that run two to four blocks per SM (`o2`-`o4`) against the
#          table's pick, two rounds; then the gemm-test checks of those configs (tile edges in
#          every layout, batches past the resident blocks).
# PHASE=b: rocmath-tune over those configs and the committed picks (hss, bss, h; NT and NN; the
#          two batches), tables to $OUT/tables; bench lines through them (ROCMATH_TUNING_DIR), three
#          rounds NT and one NN, against the committed tables; the 16-bit table test on the new picks.
# PHASE=c: (phase b's tables committed) two consumers and two blocks per SM (`w2x1 ... o2`:
#          128 x 64 tiles, and 64 x 64 ping-pong) against the tables, two rounds; their tests.
# PHASE=d: issue 3's shapes with the committed tables, every precision's batches
#          (run-gemm-goals.sh), to $OUT/s50-d-goals.txt; the 16-bit table test on the new picks.
# PHASE=e: hss 16 x 8192 x 8192 (read 0.886 in phase d; its pick has 64 tiles for 132 SMs): the
#          pick against split-K and several-blocks tiles, three rounds; their split-K tests.
# PHASE=f: one epilogue staging buffer where two would cost a block per SM: xf32 64^3 x 4096 on
#          the transposing tile at three blocks (o3 s2t) and at two of three stages (o2 s3t)
#          against the table's o2 s2t, three rounds NT, one in NN, TN, TT; hss and bss 64^3 at o3
#          with four stages against the o3 s3 picks; xf32_candidates_at_tile_edges on the new
#          tiles, the wgmma tests of the 16-bit families on the table's several-blocks picks.
# PHASE=g: (hss and bss 64^3 NT now on o3 s4) that tile's tests: tile edges in every layout,
#          batches past the resident blocks, the 16-bit table test.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s50-$P-gpu.txt"
# args FAMILY SIZE CONFIG: the bench arguments of one line (NT; SIZE 64 or 128).
args() {
  local atom=$([ $1 = bss ] && echo bf16 || echo f16) b=$([ $2 = 64 ] && echo 4096 || echo 2048)
  echo "--precision $1 --transA N --transB T -m $2 -n $2 -k $2 --batch $b"
  [ $3 = table ] || echo "--config $3_wgmma64xnx16$atom"
}
# cases_lines FILE ROUNDS: each case of /tmp/cases ("FAMILY SIZE CONFIG" lines) compiled by nvrtc
# first, 8 at a time (the kernel cache), then a bench line each, ROUNDS times.
cases_lines() {
  local f s c r
  while read -r f s c; do
    ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $(args $f $s $c) > /dev/null 2>&1 ) &
    while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
  done < /tmp/cases
  wait
  for r in $2; do
    while read -r f s c; do
      bench_line $1 "$f ${s}^3 $c $r" $(args $f $s $c) > /dev/null
    done < /tmp/cases
  done
  lines_table $1
}
case $P in
a)
  c64="table mt64x64x64_w1x1_s3_x_g8_o2 mt64x64x64_w1x1_s4_x_g8_o2 mt64x64x64_w1x1_s5_x_g8_o2 mt64x64x64_w1x1_s2_x_g8_o3 mt64x64x64_w1x1_s3_x_g8_o3 mt64x64x64_w1x1_s2_x_g8_o4"
  c128="table mt64x128x64_w1x1_s3_x_g8_o2 mt64x64x64_w1x1_s4_x_g8_o2 mt64x64x64_w1x1_s3_x_g8_o3"
  for f in hss bss h; do
    for c in $c64; do echo "$f 64 $c"; done
    for c in $c128; do echo "$f 128 $c"; done
  done > /tmp/cases
  cases_lines s50-a "r1 r2"
  export TEST_TIMEOUT=300
  ROCMATH_TEST_CONFIGS=o2_wgmma,o3_wgmma tests_in_parallel s50-a-tests.txt "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges" "gemm-test wgmma_pingpong_strided_batches"
  ;;
b)
  PRECISIONS="hss bss h" LAYOUTS="NT NN" SIZES=64x64x64x4096,128x128x128x2048 VARIANTS=wgmma MAX_CANDIDATES=20 \
    FILTER=o2_wgmma,o3_wgmma,mt64x64x64_w2x1_s8_,mt64x64x64_w2x1_s12_,mt128x128x64_w2x1_s6_ DEADLINE=300 STEP_TIMEOUT=120 \
    bash benches/device/run-tune.sh > /dev/null 2>&1 || status=1
  mv "$OUT/summary.txt" "$OUT/s50-b-tune-summary.txt"
  tar czf "$OUT/s50-b-tune.tgz" -C "$OUT" tables $(cd "$OUT" && ls tune-*.log) && rm -f "$OUT"/tune-*.log "$OUT/env.txt"
  grep -E "^==|winner" "$OUT/s50-b-tune-summary.txt" | cut -c1-160
  for r in r1 r2 r3; do
    for f in hss bss h; do
      for s in 64 128; do
        b=$([ $s = 64 ] && echo 4096 || echo 2048)
        a=(--precision $f --transA N --transB T -m $s -n $s -k $s --batch $b)
        bench_line s50-b "$f ${s}^3 NT committed $r" "${a[@]}" > /dev/null
        ROCMATH_TUNING_DIR=$OUT/tables bench_line s50-b "$f ${s}^3 NT tuned $r" "${a[@]}" > /dev/null
        if [ $r = r1 ]; then
          a[5]=N
          bench_line s50-b "$f ${s}^3 NN committed $r" "${a[@]}" > /dev/null
          ROCMATH_TUNING_DIR=$OUT/tables bench_line s50-b "$f ${s}^3 NN tuned $r" "${a[@]}" > /dev/null
        fi
      done
    done
  done
  lines_table s50-b
  ROCMATH_TUNING_DIR=$OUT/tables ROCMATH_TEST_CONFIGS=o2_wgmma,o3_wgmma TEST_TIMEOUT=200 run_test s50-b-tests.txt gemm-test table_configs_match_reference_16_bit
  grep -E "^test |test result|checked|FAILED|panicked" "$OUT/s50-b-tests.txt"
  ;;
c)
  for f in hss bss h; do
    for c in table mt64x64x64_w2x1_s3_x_g8_o2 mt64x64x64_w2x1_s4_x_g8_o2; do echo "$f 64 $c"; done
    for c in table mt128x64x64_w2x1_s3_x_g8_o2 mt64x64x64_w2x1_s3_x_g8_o2 mt64x64x64_w2x1_s4_x_g8_o2; do echo "$f 128 $c"; done
  done > /tmp/cases
  cases_lines s50-c "r1 r2"
  ROCMATH_TEST_CONFIGS=w2x1_s3_x_g8_o2,w2x1_s4_x_g8_o2 TEST_TIMEOUT=300 tests_in_parallel s50-c-tests.txt \
    "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges" "gemm-test wgmma_pingpong_strided_batches"
  ;;
d)
  BATCH_PRECISIONS="hss bss h s d xf32" bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv "$OUT/goals.txt" "$OUT/s50-d-goals.txt"; mv "$OUT/goals-full.txt" "$OUT/s50-d-goals-full.txt"
  sed 's/^\(.*\) |.*kernel=gemm_[a-z0-9]*_\([^:]*\):.*ratio \([0-9.]*\).*/\1 | \2 | \3/' "$OUT/s50-d-goals.txt" | cut -c1-160
  ROCMATH_TEST_CONFIGS=o2_wgmma,o3_wgmma TEST_TIMEOUT=200 run_test s50-d-tests.txt gemm-test table_configs_match_reference_16_bit
  grep -E "^test |test result|checked|FAILED|panicked" "$OUT/s50-d-tests.txt"
  ;;
e)
  skinny="table mt64x128x64_w1x1_s6_x_g8_o1_k2 mt64x64x64_w1x1_s8_x_g8_o1 mt64x64x64_w1x1_s4_x_g8_o2_k2 mt64x64x64_w1x1_s3_x_g8_o3_k2 mt64x64x64_w1x1_s3_x_g8_o3_k3 mt64x128x64_w1x1_s3_x_g8_o2_k2"
  sk() { echo "--precision hss --transA N --transB T -m 16 -n 8192 -k 8192"; [ $1 = table ] || echo "--config $1_wgmma64xnx16f16"; }
  for c in $skinny; do ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $(sk $c) > /dev/null 2>&1 ) & done
  wait
  for r in r1 r2 r3; do
    for c in $skinny; do bench_line s50-e "hss 16x8192x8192 $c $r" $(sk $c) > /dev/null; done
  done
  lines_table s50-e
  ROCMATH_TEST_CONFIGS=o2_k2_wgmma,o3_k2_wgmma,o3_k3_wgmma TEST_TIMEOUT=200 run_test s50-e-tests.txt gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges
  grep -E "^test |test result|checked|FAILED|panicked" "$OUT/s50-e-tests.txt"
  ;;
f)
  x() { echo "--precision xf32 --transA $2 --transB $3 -m 64 -n 64 -k 64 --batch 4096"; [ $1 = table ] || echo "--config $1_wgmma64xnx8tf32"; }
  xs="table mt64x64x32_w1x1_s2t_x_g8_o3 mt64x64x32_w1x1_s3t_x_g8_o2"
  for c in $xs; do ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $(x $c N T) > /dev/null 2>&1 ) & done
  for f in hss bss; do ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $(args $f 64 mt64x64x64_w1x1_s4_x_g8_o3) > /dev/null 2>&1 ) & done
  wait
  for r in r1 r2 r3; do
    for c in $xs; do bench_line s50-f "xf32 64^3 NT $c $r" $(x $c N T) > /dev/null; done
  done
  for l in "N N" "T N" "T T"; do
    for c in table mt64x64x32_w1x1_s2t_x_g8_o3; do bench_line s50-f "xf32 64^3 ${l/ /} $c r1" $(x $c $l) > /dev/null; done
  done
  for r in r1 r2; do
    for f in hss bss; do
      for c in table mt64x64x64_w1x1_s4_x_g8_o3; do bench_line s50-f "$f 64^3 NT $c $r" $(args $f 64 $c) > /dev/null; done
    done
  done
  lines_table s50-f
  ROCMATH_TEST_CONFIGS=s2t_x_g8_o3,s3t_x_g8_o2 TEST_TIMEOUT=200 run_test s50-f-tests.txt gemm_i8_xf32-test xf32_candidates_at_tile_edges
  ROCMATH_TEST_CONFIGS=o2_wgmma,o3_wgmma TEST_TIMEOUT=200 run_test s50-f-tests.txt gemm-test table_configs_match_reference_16_bit
  grep -E "^test |test result|checked|FAILED|panicked" "$OUT/s50-f-tests.txt"
  ;;
g)
  ROCMATH_TEST_CONFIGS=s4_x_g8_o3 TEST_TIMEOUT=200 tests_in_parallel s50-g-tests.txt "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges" \
    "gemm-test wgmma_pingpong_strided_batches" "gemm-test table_configs_match_reference_16_bit"
  ;;
esac
exit $status
