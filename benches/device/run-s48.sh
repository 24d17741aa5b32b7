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
esac
exit $status
