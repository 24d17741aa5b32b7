#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh): rocmath-tune gemm on the H100
# (sm_90) for hss, bss and h (the square sizes, the skinny and deep ones, and three strided
# batches) and for d and s (square sizes), layouts NT and NN. Tables go to $OUT/tables (seeded
# with the committed sm_90 tables of the steps, so tuned sizes merge into them), one log per step to $OUT,
# winners and rejections to $OUT/summary.txt.
#
# Time: about 4-6 minutes on an H100, dominated by compiling the candidate modules (NVRTC, one
# module per family and config holding every transpose, so NN reuses NT's modules through
# ROCMATH_CACHE_DIR): 5 families x MAX_CANDIDATES modules at ~2-3 s each. Timing is short
# (WARMUP + ITERS runs per candidate and size, ~3.5 TFLOP per candidate over the 16-bit sizes).
# No step starts after DEADLINE seconds, and each step is killed after STEP_TIMEOUT, so what was
# written comes back within the device tool's 10 minutes. Knobs: MAX_CANDIDATES (12 of the 13-26
# the generator lists for sm_90), VARIANTS (all; e.g. wgmma), FILTER (tag substrings, comma-separated, e.g. p_), ITERS (5), WARMUP (2), PRECISIONS,
# LAYOUTS, HALF_SIZES, SIZES (every precision; overrides both lists), DEADLINE (420),
# STEP_TIMEOUT (150). The tuner writes its table after every
# size, so a step cut short by its timeout keeps the sizes it finished (the deep 4096x4096x65536
# comes last for that reason).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/tables"
export ROCMATH_CACHE_DIR=/tmp/rocmath-cache RUST_BACKTRACE=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/env.txt" 2>&1
# Each step's table is seeded with the committed one when $OUT has none yet (a second run in the
# same $OUT merges into what the first one wrote); only the tables tuned come back, since the
# device tool returns a limited number of files.
mkdir -p "$OUT/tables/sm_90"
T=.carry/rocmath-tune
[ -f .carry/rocmath-kernels.aot.gz ] && gunzip -f .carry/rocmath-kernels.aot.gz  # (stage.sh with GEMM_AOT=1)
HALF=${HALF_SIZES:-"1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,8192x8192x128,16x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048,4096x4096x65536"}
SQUARE="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192"
status=0
for p in ${PRECISIONS:-hss bss h d s}; do
  case $p in hss|bss|h) sizes=$HALF ;; *) sizes=$SQUARE ;; esac
  sizes=${SIZES:-$sizes}
  for layout in ${LAYOUTS:-NT NN}; do
    if [ "$SECONDS" -ge "${DEADLINE:-420}" ]; then
      echo "== $p $layout skipped: past the ${DEADLINE:-420} s deadline" | tee -a "$OUT/summary.txt"; status=1; continue
    fi
    echo "== $p $layout (at ${SECONDS} s)" | tee -a "$OUT/summary.txt"
    table=sm_90/gemm_${p}_${layout,,}.json
    [ -f "$OUT/tables/$table" ] || [ ! -f "tuning/tables/$table" ] || cp "tuning/tables/$table" "$OUT/tables/$table"
    timeout "${STEP_TIMEOUT:-150}" $T gemm --precision "$p" --transA "${layout:0:1}" --transB "${layout:1:1}" \
      --sizes "$sizes" --device cuda --out "$OUT/tables" --max-candidates "${MAX_CANDIDATES:-12}" \
      --iters "${ITERS:-5}" --warmup "${WARMUP:-2}" ${VARIANTS:+--variants $VARIANTS} ${FILTER:+--filter $FILTER} > "$OUT/tune-$p-$layout.log" 2>&1
    rc=$?
    grep -E "^(arch|winner|note|wrote)|REJECTED|rocmath-tune:" "$OUT/tune-$p-$layout.log" | cut -c1-200 | tee -a "$OUT/summary.txt"
    [ $rc -ne 0 ] && { status=1; echo "FAILED $p $layout (exit $rc)" | tee -a "$OUT/summary.txt"; }
  done
done
echo "total ${SECONDS} s; exit status $status" | tee -a "$OUT/summary.txt"
exit $status
