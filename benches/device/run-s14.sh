#!/usr/bin/env bash
# Fourteenth session (f64 GEMM; FFT 2^13 and 2^21-2^24). After stage.sh, carry .carry.
# PHASE=a: Nsight Compute on d NT 1024^3 and 4096^3 (ours with the table's pick, then cuBLAS's
# kernels) and on single c2c 8192 x 8192 and 2^22 x 16 (ours, then cuFFT's), plus the d lines.
# PHASE=b: d NT re-tuned at the squares over the padded DMMA candidates (FILTER p4x4; the table's
# pick is timed beside them), the square lines with the new table, and the d small-batch lines.
# PHASE=c: the new dmma_configs_at_tile_edges test, then d NT re-tuned at the squares over every
# f64 tensor-core candidate (FILTER f64), the square lines with that table, the other layouts at
# 4096^3, and the small batches.
# PHASE=d: the same tune at 8192^3 (cut by PHASE c's step timeout) and at the three small batches,
# seeded with PHASE c's table (SEED_TABLE), then their lines.
# PHASE=e (committed tables): gemm-test in full, then the d lines: NT squares, the other layouts
# at 1024^3 and 4096^3, the small batches. PHASE=f: gemm_batched-test and gemm_i8_xf32-test.
# PHASE=g: d NN, TN and TT tuned at 1024-4096 over every f64 candidate (new tables), their lines.
# PHASE=h: hss, bss and h NN re-tuned over the wgmma candidates (the TMA-store epilogue, 64-row
# tiles and split-K of session 13 were tuned in NT only), then their NN lines with the new tables.
# Output: $OUT/s14-$PHASE*.txt.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
B=.carry/rocmath-bench
P=${PHASE:-a}
source benches/device/gemm-lib.sh
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy --section InstructionStats"
KEY="####|^  [a-zA-Z_0-9]+.*\(|Duration|DRAM Throughput|Compute \(SM\)|Warp Cycles Per Issued|Grid Size|Block Size|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Instructions  |Issue Slots Busy|Stall|Dynamic Shared|L1/TEX Hit|L2 Hit|Bank"
case $P in
a)
  nvidia-smi -L > "$OUT/s14-a-gpu.txt"
  for n in 1024 4096; do
    args="gemm --precision d --transA N --transB T -m $n -n $n -k $n --device cuda --iters 1 --warmup 0"
    {
      echo "#### ours d $n"
      timeout 120 ncu -k regex:gemm_ --launch-skip 1 --launch-count 1 $SECTIONS $B $args --no-peer
      echo "#### cuBLAS d $n"
      timeout 120 ncu -k regex:'^(?!gemm_)' --launch-skip 1 --launch-count 1 $SECTIONS $B $args
    } > "$OUT/s14-a-ncu-d$n.txt" 2>&1
  done
  for c in "8192 8192" "4194304 16"; do
    set -- $c
    timeout 150 ncu --launch-count 8 $SECTIONS $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 \
      > "$OUT/s14-a-ncu-fft$1.txt" 2>&1
  done
  for f in "$OUT"/s14-a-ncu-*.txt; do echo "== $f"; grep -E "$KEY" "$f" | cut -c1-150; done > "$OUT/s14-a-summary.txt"
  for n in 1024 2048 4096 8192; do bench_line s14-a-lines "d $n" --precision d --transA N --transB T -m $n -n $n -k $n; done
  ;;
b)
  PRECISIONS=d LAYOUTS=NT SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192" FILTER=p4x4 \
    MAX_CANDIDATES=24 DEADLINE=300 STEP_TIMEOUT=280 bash benches/device/run-tune.sh || status=1
  cp "$OUT/summary.txt" "$OUT/s14-b-tune-summary.txt"; cp "$OUT/tune-d-NT.log" "$OUT/s14-b-tune-d-NT.log"
  for n in 1024 2048 4096 8192; do
    ROCMATH_TUNING_DIR="$OUT/tables" bench_line s14-b "d $n" --precision d --transA N --transB T -m $n -n $n -k $n
  done
  for c in "32 10000" "64 4096" "128 2048"; do
    set -- $c
    bench_line s14-b "d $1^3 x $2" --precision d --transA N --transB T -m $1 -n $1 -k $1 --batch $2
  done
  tar czf "$OUT/s14-b-tables.tgz" -C "$OUT" tables/sm_90/gemm_d_nt.json
  rm -rf "$OUT/tables" "$OUT/summary.txt" "$OUT"/tune-*.log "$OUT/env.txt"
  ;;
c)
  run_test s14-c-tests.txt gemm-test dmma_configs_at_tile_edges
  grep -E "test result|DMMA configs|FAILED|panicked" "$OUT/s14-c-tests.txt"
  PRECISIONS=d LAYOUTS=NT SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192" FILTER=f64 \
    MAX_CANDIDATES=40 DEADLINE=300 STEP_TIMEOUT=330 bash benches/device/run-tune.sh || status=1
  cp "$OUT/summary.txt" "$OUT/s14-c-tune-summary.txt"; cp "$OUT/tune-d-NT.log" "$OUT/s14-c-tune-d-NT.log"
  for n in 1024 2048 4096 8192; do
    ROCMATH_TUNING_DIR="$OUT/tables" bench_line s14-c "d $n" --precision d --transA N --transB T -m $n -n $n -k $n
  done
  for l in NN TN TT; do
    ROCMATH_TUNING_DIR="$OUT/tables" bench_line s14-c "d $l 4096" --precision d --transA ${l:0:1} --transB ${l:1:1} -m 4096 -n 4096 -k 4096
  done
  tar czf "$OUT/s14-c-tables.tgz" -C "$OUT" tables/sm_90/gemm_d_nt.json
  rm -rf "$OUT/tables" "$OUT/summary.txt" "$OUT"/tune-*.log "$OUT/env.txt"
  ;;
d)
  mkdir -p "$OUT/tables/sm_90" && cp tuning/tables/sm_90/*.json "$OUT/tables/sm_90/" && cp "$SEED_TABLE" "$OUT/tables/sm_90/gemm_d_nt.json"
  PRECISIONS=d LAYOUTS=NT SIZES="8192x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048" FILTER=f64 \
    MAX_CANDIDATES=40 DEADLINE=300 STEP_TIMEOUT=400 bash benches/device/run-tune.sh || status=1
  cp "$OUT/summary.txt" "$OUT/s14-d-tune-summary.txt"; cp "$OUT/tune-d-NT.log" "$OUT/s14-d-tune-d-NT.log"
  ROCMATH_TUNING_DIR="$OUT/tables" bench_line s14-d "d 8192" --precision d --transA N --transB T -m 8192 -n 8192 -k 8192
  for c in "32 10000" "64 4096" "128 2048"; do
    set -- $c
    ROCMATH_TUNING_DIR="$OUT/tables" bench_line s14-d "d $1^3 x $2" --precision d --transA N --transB T -m $1 -n $1 -k $1 --batch $2
  done
  tar czf "$OUT/s14-d-tables.tgz" -C "$OUT" tables/sm_90/gemm_d_nt.json
  rm -rf "$OUT/tables" "$OUT/summary.txt" "$OUT"/tune-*.log "$OUT/env.txt"
  ;;
e)
  TEST_TIMEOUT=450 run_test s14-e-tests.txt gemm-test ""
  grep -E "^test |test result|configs checked|FAILED|panicked" "$OUT/s14-e-tests.txt"
  for n in 1024 2048 4096 8192; do bench_line s14-e "d $n" --precision d --transA N --transB T -m $n -n $n -k $n; done
  for l in NN TN TT; do for n in 1024 4096; do
    bench_line s14-e "d $l $n" --precision d --transA ${l:0:1} --transB ${l:1:1} -m $n -n $n -k $n
  done; done
  for c in "32 10000" "64 4096" "128 2048"; do
    set -- $c
    bench_line s14-e "d $1^3 x $2" --precision d --transA N --transB T -m $1 -n $1 -k $1 --batch $2
  done
  ;;
f)
  TEST_TIMEOUT=400 run_test s14-f-tests.txt gemm_batched-test ""
  TEST_TIMEOUT=120 run_test s14-f-tests.txt gemm_i8_xf32-test ""
  grep -E "^test |test result|configs|FAILED|panicked" "$OUT/s14-f-tests.txt"
  ;;
g)
  PRECISIONS=d LAYOUTS="NN TN TT" SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096" FILTER=f64 \
    MAX_CANDIDATES=40 DEADLINE=420 STEP_TIMEOUT=250 bash benches/device/run-tune.sh || status=1
  cp "$OUT/summary.txt" "$OUT/s14-g-tune-summary.txt"
  for l in NN TN TT; do cp "$OUT/tune-d-$l.log" "$OUT/s14-g-tune-d-$l.log"; done
  for l in NN TN TT; do for n in 1024 2048 4096 8192; do
    ROCMATH_TUNING_DIR="$OUT/tables" bench_line s14-g "d $l $n" --precision d --transA ${l:0:1} --transB ${l:1:1} -m $n -n $n -k $n
  done; done
  tar czf "$OUT/s14-g-tables.tgz" -C "$OUT" tables/sm_90/gemm_d_nn.json tables/sm_90/gemm_d_tn.json tables/sm_90/gemm_d_tt.json
  rm -rf "$OUT/tables" "$OUT/summary.txt" "$OUT"/tune-*.log "$OUT/env.txt"
  ;;
h)
  SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,8192x8192x128,16x8192x8192" PRECISIONS="hss bss h" \
    LAYOUTS=NN VARIANTS=wgmma MAX_CANDIDATES=20 DEADLINE=330 STEP_TIMEOUT=150 bash benches/device/run-tune.sh || status=1
  cp "$OUT/summary.txt" "$OUT/s14-h-tune-summary.txt"
  tar czf "$OUT/s14-h-logs.tgz" -C "$OUT" tune-hss-NN.log tune-bss-NN.log tune-h-NN.log
  for p in hss bss h; do
    for shape in "1024 1024 1024" "2048 2048 2048" "4096 4096 4096" "8192 8192 8192" "8192 8192 128" "16 8192 8192"; do
      set -- $shape
      ROCMATH_TUNING_DIR="$OUT/tables" bench_line s14-h "$p NN $1x$2x$3" --transA N --transB N --precision $p -m $1 -n $2 -k $3
    done
  done
  tar czf "$OUT/s14-h-tables.tgz" -C "$OUT" tables/sm_90/gemm_hss_nn.json tables/sm_90/gemm_bss_nn.json tables/sm_90/gemm_h_nn.json
  rm -rf "$OUT/tables" "$OUT/summary.txt" "$OUT"/tune-*.log "$OUT/env.txt"
  ;;
esac
