#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh), session 7: tunes what the
# generator's new candidates change (run-tune.sh steps). PHASE=a: the small-batch tiles for hss, bss, h and s
# (NT, the issue's three strided batches) and xf32 (NT, squares, mma variant). PHASE=b: s's small batches (as in a; a runs past its deadline without them) and f64 with
# the sm_90 DMMA m16n8k16 configs (NT, mma variant, squares and batches). PHASE=c: f64's
# remaining NT sizes, and the NN small batches of hss, bss and h. Tables in $OUT/tables (seeded from tuning/tables), logs in $OUT, all of it
# tarred into $OUT/s7-$PHASE.tgz (the device tool returns at most 8 files).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
BATCHES="32x32x32x10000,64x64x64x4096,128x128x128x2048"
status=0
case ${PHASE:-a} in
a)
  PRECISIONS="hss bss h s" LAYOUTS=NT SIZES=$BATCHES MAX_CANDIDATES=14 DEADLINE=360 bash benches/device/run-tune.sh || status=1
  PRECISIONS=xf32 LAYOUTS=NT VARIANTS=mma MAX_CANDIDATES=10 SIZES="2048x2048x2048,8192x8192x8192" DEADLINE=120 bash benches/device/run-tune.sh || status=1
  ;;
b)
  PRECISIONS=s LAYOUTS=NT SIZES=$BATCHES MAX_CANDIDATES=14 bash benches/device/run-tune.sh || status=1
  PRECISIONS=d LAYOUTS=NT VARIANTS=mma MAX_CANDIDATES=24 SIZES="4096x4096x4096,8192x8192x8192,$BATCHES" \
    STEP_TIMEOUT=280 bash benches/device/run-tune.sh || status=1
  ;;
c)
  PRECISIONS=d LAYOUTS=NT VARIANTS=mma MAX_CANDIDATES=24 SIZES="1024x1024x1024,2048x2048x2048,128x128x128x2048" \
    STEP_TIMEOUT=200 bash benches/device/run-tune.sh || status=1
  PRECISIONS="hss bss h" LAYOUTS=NN SIZES=$BATCHES MAX_CANDIDATES=12 DEADLINE=300 STEP_TIMEOUT=130 bash benches/device/run-tune.sh || status=1
  ;;
esac
tar czf "$OUT/s7-${PHASE:-a}.tgz" -C "$OUT" $(cd "$OUT" && ls -d tables *.log *.txt 2>/dev/null)
echo "exit status $status"
exit $status
