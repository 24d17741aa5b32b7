#!/usr/bin/env bash
# Prepared at the end of the forty-seventh session for the next one (edit freely). Stage first:
# `GEMM_AOT=1 TESTS="fft gemm gemm_i8_xf32" bash benches/device/stage.sh`, carry .carry.
# Output: $OUT/s48-$PHASE*.txt.
# PHASE=a: issue 3's shapes with the committed tables (xf32 batches now on the transposing tf32
#          wgmma tiles) and the FFT suite: one record of both issues' goals on whatever GPU the
#          call gets (the tables mix H100 and H200 picks; an H100 would show whether the H200's
#          picks hold there). run-s47.sh's phase a, never run.
# PHASE=b: the tuner over the xf32 `t` candidates (tf32 wgmma transposing in shared memory, and
#          the two-block `o2` one) at the two xf32 batches, NT and NN: the committed picks came
#          from bench lines, not from a tuner run.
# PHASE=c: the 16-bit batch picks against the ones they replaced, three rounds in one process
#          each (hss and bss 64^3 and 128^3: the run-to-run spread was about 2 % on the H200).
#          run-s47.sh's phase b, never run.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s48-a-gpu.txt"
  BATCH_PRECISIONS="hss bss h s d xf32" bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv $OUT/goals.txt $OUT/s48-a-goals.txt; mv $OUT/goals-full.txt $OUT/s48-a-goals-full.txt
  timeout 200 $B suite --only fft --device cuda > "$OUT/s48-a-fft-suite.txt" 2>&1 || status=1
  ;;
b)
  nvidia-smi -L > "$OUT/s48-b-gpu.txt"
  PRECISIONS=xf32 LAYOUTS="NT NN" SIZES="64x64x64x4096,128x128x128x2048" FILTER=t_x_g8 VARIANTS=wgmma \
    MAX_CANDIDATES=20 DEADLINE=420 bash benches/device/run-tune.sh > "$OUT/s48-b-tune.txt" 2>&1 || status=1
  awk '/^winner/ {print $3}' "$OUT/summary.txt" > "$OUT/s48-b-winners.txt" 2>/dev/null
  ;;
c)
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s48-c-gpu.txt"
  for r in 1 2 3; do
    for p in hss bss; do
      t=$([ $p = hss ] && echo f16 || echo bf16)
      bench_line s48-c "$p 64^3 x 4096 table r$r" --precision $p --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 > /dev/null
      bench_line s48-c "$p 64^3 x 4096 mma 64x64x32 s4 r$r" --precision $p --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 --config mt64x64x32_w2x2_s4_x_g8_o1_mma16x8x16$t > /dev/null
      bench_line s48-c "$p 128^3 x 2048 table r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
      bench_line s48-c "$p 128^3 x 2048 wgmma 64x128x64 s6 r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config mt64x128x64_w2x1_s6_x_g8_o1_wgmma64xnx16$t > /dev/null
    done
  done
  lines_table s48-c
  ;;
esac
exit $status
