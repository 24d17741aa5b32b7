#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh), session 13: the wgmma
# kernels' epilogue through shared memory and TMA stores. PHASE=a: the wgmma tests of gemm-test
# and gemm_i8_xf32-test (both epilogue paths: ldc TMA can describe and not), then the 16-bit and
# xf32 goal lines (squares, skinny shapes, the deep K) against cuBLAS. PHASE=b: ncu of h
# 8192x8192x128 (stall samples per SASS instruction) and pinned configs; c: the same after the
# beta * C pass moved out of the chunk loop; d: split-K tests and pinned split configs on
# 16 x 8192 x 8192; e: hss/bss/h NT re-tuned (wgmma candidates) and their lines; f (tables
# committed): every GEMM test and the goal lines of every family; g: a trial (reverted) in which
# consumers whose 64 rows lie wholly past m skip their multiplies and epilogue (tests,
# 16 x 8192 x 8192 table and pinned configs, two sanity lines); i: xf32 NT and TN re-tuned (wgmma
# candidates, split-K included) and their NT lines; j: one-consumer 64-row tiles (wgmma tests,
# hss/bss/h NT re-tuned at the two skinny sizes, their lines and 8192^3). Output: s13-$PHASE*.txt.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
status=0
source benches/device/gemm-lib.sh
P=${PHASE:-a}
case $P in
a)
  run_test s13-$P-tests.txt gemm-test wgmma
  run_test s13-$P-tests.txt gemm-test every_table_config
  run_test s13-$P-tests.txt gemm_i8_xf32-test xf32
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s13-$P-tests.txt"
  for p in hss bss h; do
    bench_line s13-$P "$p 8192x8192x128" --transA N --transB T --precision $p -m 8192 -n 8192 -k 128
    bench_line s13-$P "$p 16x8192x8192" --transA N --transB T --precision $p -m 16 -n 8192 -k 8192
  done
  bench_line s13-$P "hss 4096x4096x65536" --transA N --transB T --precision hss -m 4096 -n 4096 -k 65536
  for p in hss bss h; do
    for s in 1024 2048 4096 8192; do bench_line s13-$P "$p NT $s^3" --transA N --transB T --precision $p -m $s -n $s -k $s; done
  done
  for s in 1024 2048 4096 8192; do bench_line s13-$P "xf32 NT $s^3" --transA N --transB T --precision xf32 -m $s -n $s -k $s; done
  ;;
b)
  run_test s13-$P-tests.txt gemm-test wgmma
  run_test s13-$P-tests.txt gemm_i8_xf32-test xf32
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s13-$P-tests.txt"
  # Where h 8192x8192x128 spends its time: stall samples per SASS instruction.
  args="gemm --precision h --transA N --transB T -m 8192 -n 8192 -k 128 --device cuda --iters 1 --warmup 0 --no-peer"
  timeout 200 ncu -k regex:gemm_ --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters \
    --section MemoryWorkloadAnalysis --metrics smsp__inst_executed.sum,dram__bytes_write.sum -o "$OUT/s13-h-skinny" .carry/rocmath-bench $args > "$OUT/s13-ncu.txt" 2>&1
  timeout 100 ncu -i "$OUT/s13-h-skinny.ncu-rep" --page details >> "$OUT/s13-ncu.txt" 2>&1
  timeout 100 ncu -i "$OUT/s13-h-skinny.ncu-rep" --page source --csv --print-source sass > "$OUT/s13-h-skinny-sass.csv" 2>&1
  grep -E "Duration|smsp__inst|dram__|Warp Cycles|Stall" "$OUT/s13-ncu.txt" | head -20
  for p in h hss; do
    for cfg in mt128x256x64_w2x1_s3_x_g8_o1 mt128x256x64_w2x1_s4_x_g8_o1 mt128x192x64_w2x1_s4_x_g8_o1 mt128x128x64_w2x1_s4_x_g8_o1 mt128x128x64_w2x1_s6_x_g8_o1; do
      bench_line s13-$P "$p 8192x8192x128 $cfg" --transA N --transB T --precision $p -m 8192 -n 8192 -k 128 --config ${cfg}_wgmma64xnx16f16
    done
  done
  ;;
c)
  run_test s13-$P-tests.txt gemm-test wgmma
  run_test s13-$P-tests.txt gemm_i8_xf32-test xf32
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s13-$P-tests.txt"
  for p in h hss bss; do
    for cfg in mt128x256x64_w2x1_s4_x_g8_o1 mt128x128x64_w2x1_s4_x_g8_o1 mt128x128x64_w2x1_s6_x_g8_o1; do
      atom=wgmma64xnx16f16; [ $p = bss ] && atom=wgmma64xnx16bf16
      bench_line s13-$P "$p 8192x8192x128 $cfg" --transA N --transB T --precision $p -m 8192 -n 8192 -k 128 --config ${cfg}_$atom
    done
    for s in 1024 2048 4096 8192; do bench_line s13-$P "$p NT $s^3" --transA N --transB T --precision $p -m $s -n $s -k $s; done
  done
  args="gemm --precision h --transA N --transB T -m 8192 -n 8192 -k 128 --device cuda --iters 1 --warmup 0 --no-peer"
  timeout 200 ncu -k regex:gemm_ --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters \
    --metrics smsp__inst_executed.sum,dram__bytes_write.sum -o "$OUT/s13-h-skinny-c" .carry/rocmath-bench $args > "$OUT/s13-ncu-c.txt" 2>&1
  timeout 100 ncu -i "$OUT/s13-h-skinny-c.ncu-rep" --page source --csv --print-source sass > "$OUT/s13-h-skinny-c-sass.csv" 2>&1
  rm -f "$OUT/s13-h-skinny-c.ncu-rep"
  ;;
d)
  TEST_TIMEOUT=400 run_test s13-$P-tests.txt gemm-test wgmma
  run_test s13-$P-tests.txt gemm_i8_xf32-test xf32
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s13-$P-tests.txt"
  for p in hss h bss; do
    atom=wgmma64xnx16f16; [ $p = bss ] && atom=wgmma64xnx16bf16
    bench_line s13-$P "$p 16x8192x8192 table" --transA N --transB T --precision $p -m 16 -n 8192 -k 8192
    for cfg in mt128x128x64_w2x1_s4_x_g8_o1_k2 mt128x128x64_w2x1_s6_x_g8_o1_k2 mt128x128x64_w2x1_s4_x_g8_o1_k4 mt128x64x64_w2x1_s6_x_g8_o1_k2 mt128x256x64_w2x1_s4_x_g8_o1_k2; do
      bench_line s13-$P "$p 16x8192x8192 $cfg" --transA N --transB T --precision $p -m 16 -n 8192 -k 8192 --config ${cfg}_$atom
    done
  done
  ;;
e)
  SIZES="1024x1024x1024,4096x4096x4096,8192x8192x128,16x8192x8192" PRECISIONS="hss bss h" LAYOUTS=NT VARIANTS=wgmma \
    MAX_CANDIDATES=20 DEADLINE=330 STEP_TIMEOUT=140 bash benches/device/run-tune.sh || status=1
  for p in hss bss h; do
    for shape in "1024 1024 1024" "2048 2048 2048" "4096 4096 4096" "8192 8192 8192" "8192 8192 128" "16 8192 8192"; do
      set -- $shape
      ROCMATH_TUNING_DIR="$OUT/tables" bench_line s13-$P "$p $1x$2x$3" --transA N --transB T --precision $p -m $1 -n $2 -k $3
    done
  done
  tar czf "$OUT/s13-e-tables.tgz" -C "$OUT" tables
  ;;
f)
  TEST_TIMEOUT=360 run_test s13-$P-tests.txt gemm-test ""
  for t in gemm_i8_xf32-test gemm_args-test; do run_test s13-$P-tests.txt $t ""; done
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s13-$P-tests.txt"
  bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  for p in bss h; do
    bench_line s13-$P "$p 8192x8192x128" --transA N --transB T --precision $p -m 8192 -n 8192 -k 128
    bench_line s13-$P "$p 16x8192x8192" --transA N --transB T --precision $p -m 16 -n 8192 -k 8192
  done
  cut -c1-240 "$OUT/goals.txt"
  ;;
g)
  TEST_TIMEOUT=360 run_test s13-$P-tests.txt gemm-test ""
  run_test s13-$P-tests.txt gemm_i8_xf32-test ""
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s13-$P-tests.txt"
  for p in hss bss h; do
    atom=wgmma64xnx16f16; [ $p = bss ] && atom=wgmma64xnx16bf16
    bench_line s13-$P "$p 16x8192x8192" --transA N --transB T --precision $p -m 16 -n 8192 -k 8192
    for cfg in mt128x128x64_w2x1_s4_x_g8_o1_k2 mt128x128x64_w2x1_s4_x_g8_o1_k4 mt128x128x64_w2x1_s4_x_g8_o1; do
      bench_line s13-$P "$p 16x8192x8192 $cfg" --transA N --transB T --precision $p -m 16 -n 8192 -k 8192 --config ${cfg}_$atom
    done
    bench_line s13-$P "$p 8192x8192x128" --transA N --transB T --precision $p -m 8192 -n 8192 -k 128
    bench_line s13-$P "$p 8192^3" --transA N --transB T --precision $p -m 8192 -n 8192 -k 8192
  done
  ;;
i)
  SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192" PRECISIONS=xf32 LAYOUTS="NT TN" VARIANTS=wgmma \
    MAX_CANDIDATES=20 DEADLINE=200 STEP_TIMEOUT=140 bash benches/device/run-tune.sh || status=1
  for s in 1024 2048 4096 8192; do
    ROCMATH_TUNING_DIR="$OUT/tables" bench_line s13-$P "xf32 NT $s^3" --transA N --transB T --precision xf32 -m $s -n $s -k $s
  done
  tar czf "$OUT/s13-i-tables.tgz" -C "$OUT" tables/sm_90/gemm_xf32_nt.json tables/sm_90/gemm_xf32_tn.json
  ;;
j)
  TEST_TIMEOUT=300 run_test s13-$P-tests.txt gemm-test wgmma
  grep -E "^== |test result|FAILED|panicked|checked" "$OUT/s13-$P-tests.txt"
  SIZES="8192x8192x128,16x8192x8192" PRECISIONS="hss bss h" LAYOUTS=NT VARIANTS=wgmma \
    MAX_CANDIDATES=20 DEADLINE=250 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  for p in hss bss h; do
    for shape in "16 8192 8192" "8192 8192 128" "8192 8192 8192"; do
      set -- $shape
      ROCMATH_TUNING_DIR="$OUT/tables" bench_line s13-$P "$p $1x$2x$3" --transA N --transB T --precision $p -m $1 -n $2 -k $3
    done
  done
  tar czf "$OUT/s13-j-tables.tgz" -C "$OUT" tables/sm_90/gemm_hss_nt.json tables/sm_90/gemm_bss_nt.json tables/sm_90/gemm_h_nt.json
  ;;
esac
echo "exit status $status"
exit $status
