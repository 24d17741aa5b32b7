#!/usr/bin/env bash
# Prepared at the end of the forty-sixth session for the next one (edit freely). Stage first:
# `GEMM_AOT=1 TESTS="fft gemm gemm_i8_xf32" bash benches/device/stage.sh`, carry .carry.
# Output: $OUT/s47-$PHASE*.txt.
# PHASE=a: issue 3's shapes with the committed tables (xf32 batches included) and the FFT suite,
#          one record of both issues' goals on whatever GPU the call gets (the tables now mix
#          H100 and H200 picks; an H100 would show whether the H200's batch picks hold there).
# PHASE=b: the 16-bit batch picks against the ones they replaced, three rounds in one process
#          each (hss and bss 64^3 and 128^3: the run-to-run spread was about 2 % on the H200).
# PHASE=c: the tf32 wgmma configs that transpose in shared memory: tests, then xf32 batch lines.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s47-a-gpu.txt"
  BATCH_PRECISIONS="hss bss h s d xf32" bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv $OUT/goals.txt $OUT/s47-a-goals.txt; mv $OUT/goals-full.txt $OUT/s47-a-goals-full.txt
  timeout 200 $B suite --only fft --device cuda > "$OUT/s47-a-fft-suite.txt" 2>&1 || status=1
  ;;
b)
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-b-gpu.txt"
  for r in 1 2 3; do
    for p in hss bss; do
      t=$([ $p = hss ] && echo f16 || echo bf16)
      bench_line s47-b "$p 64^3 x 4096 table r$r" --precision $p --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 > /dev/null
      bench_line s47-b "$p 64^3 x 4096 mma 64x64x32 s4 r$r" --precision $p --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 --config mt64x64x32_w2x2_s4_x_g8_o1_mma16x8x16$t > /dev/null
      bench_line s47-b "$p 128^3 x 2048 table r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
      bench_line s47-b "$p 128^3 x 2048 wgmma 64x128x64 s6 r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config mt64x128x64_w2x1_s6_x_g8_o1_wgmma64xnx16$t > /dev/null
    done
  done
  lines_table s47-b
  ;;
c)
  # tf32 wgmma transposing MN-major operands in shared memory (`t` configs, new in s47): one bench
  # line first (a deadlock shows as a timeout there), the candidate test at tile edges in every
  # layout, then every `t` config against the table's pick at the two xf32 batch sizes (NT).
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-c-gpu.txt"
  XT="mt128x128x32_w2x1_s2t mt128x128x32_w2x1_s3t mt128x64x32_w2x1_s3t mt128x64x32_w2x1_s4t mt64x128x32_w2x1_s3t mt64x128x32_w2x1_s4t mt64x64x32_w2x1_s4t mt64x64x32_w2x1_s6t mt64x64x32_w1x1_s4t mt64x64x32_w1x1_s6t"
  x64="--precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096"
  x128="--precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048"
  # (the first try, s47-c1, hung: setmaxnreg.inc asked for more registers than the block had)
  BENCH_TIMEOUT=30 bench_line s47-c "64^3 first" $x64 --config mt64x64x32_w2x1_s6t_x_g8_o1_wgmma64xnx8tf32 > /dev/null
  BENCH_TIMEOUT=30 bench_line s47-c "64^3 first w1x1" $x64 --config mt64x64x32_w1x1_s4t_x_g8_o1_wgmma64xnx8tf32 > /dev/null
  if [ $(grep -c ratio "$OUT/s47-c.txt") != 2 ]; then lines_table s47-c; exit 1; fi
  for size in 64 128; do
    args=$([ $size = 64 ] && echo "$x64" || echo "$x128")
    bench_line s47-c "$size^3 table" $args > /dev/null
    for t in $XT; do BENCH_TIMEOUT=30 bench_line s47-c "$size^3 $t" $args --config ${t}_x_g8_o1_wgmma64xnx8tf32 > /dev/null; done
  done
  lines_table s47-c
  ROCMATH_TEST_CONFIGS=t_x_g8 TEST_TIMEOUT=240 run_test s47-c-tests.txt gemm_i8_xf32-test xf32_candidates_at_tile_edges
  grep -E "^test |test result|FAILED|configs checked|candidates checked|panicked" "$OUT/s47-c-tests.txt"
  ;;
esac
exit $status
