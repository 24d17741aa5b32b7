#!/usr/bin/env bash
# Twenty-second session (GEMM host time: table picks remembered per shape, modules per kernel,
# a function's shared-memory limit and occupancy asked once; the bench times samples of
# back-to-back calls and prints the host's time to issue one). After stage.sh, carry .carry,
# with .carry/rocmath-bench-before: the bench built at 7556883 (the new timing, the old host
# path). Output: $OUT/s22-$PHASE*.
# PHASE=a: the small calls (16-bit, s, d, xf32 1024^3; 16-bit 64^3 and 128^3 batches) with the
#          old and the new host path, each timed both ways (--group 1: single calls from an idle
#          device, as every session before; the default: back-to-back samples) (s22-a.txt);
#          then the goal lines with the new host path and the new timing
#          (s22-a-goals.txt).
# PHASE=b: in parallel: gemm-test, gemm_batched-test, gemm_i8_xf32-test (s22-b-tests.txt).
# PHASE=c: re-tuned with the new timing (NT): d at 1024^3 and 2048^3, s at 1024^3, and the
#          16-bit batches short of cuBLAS (hss, bss, h at 128^3 x 2048; h at 64^3 x 4096)
#          (s22-c-tune.tgz); their lines with the committed and the new tables (s22-c.txt).
# PHASE=d: both operand copies in one launch (.carry/rocmath-bench-before: 3fbc5aa, one launch
#          a copy). In parallel: gemm_i8_xf32-test xf32_, gemm_batched-test repacking_, gemm-test
#          every_table_config (s22-d-tests.txt); then the lines that copy (xf32 NT, NN, TT; s NN
#          and TT, which repack), before and after, twice (s22-d.txt).
# PHASE=e: xf32 NT tuned at the three small batches over 24 candidates of every variant
#          (s22-e-tune.tgz, tables in $OUT/tune/tables); their lines (NT, NN, TN) with the
#          committed and the new tables (s22-e.txt).
# PHASE=f: after the new xf32 NT table is committed and restaged: gemm_i8_xf32-test
#          every_xf32_table_config and xf32_math_mode, and aot-test (s22-f-tests.txt); the
#          xf32 batch lines with the embedded tables (s22-f.txt).
# PHASE=g: the FFT suite against cuFFT with the new timing (s22-g-fft-suite.txt).
# PHASE=h: as e, for xf32 TN (its own table; wgmma there needs no copies) (s22-h-tune.tgz,
#          s22-h.txt, $OUT/tables-xf32/gemm_xf32_tn.json).
# PHASE=i: after the new xf32 TN table is committed and restaged: as f, with the TN lines
#          (s22-i-tests.txt, s22-i.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s22-$P-gpu.txt"
case $P in
a)
  small=("hss 1024 1024 1024 1" "bss 1024 1024 1024 1" "h 1024 1024 1024 1" "s 1024 1024 1024 1" "d 1024 1024 1024 1"
         "xf32 1024 1024 1024 1" "hss 64 64 64 4096" "h 64 64 64 4096" "hss 128 128 128 2048" "bss 128 128 128 2048")
  for build in before after; do
    bench=.carry/rocmath-bench; [ $build = before ] && bench=.carry/rocmath-bench-before
    for group in "--group 1" ""; do
      for sc in "${small[@]}"; do
        set -- $sc
        BENCH=$bench bench_line s22-a "$build ${group:-grouped} $1 ${2}x${3}x$4 b$5" --precision $1 --transA N --transB T -m $2 -n $3 -k $4 --batch $5 $group
      done
    done
  done
  OUT=$OUT/goals bash benches/device/run-gemm-goals.sh > /dev/null || status=1
  mv "$OUT/goals/goals.txt" "$OUT/s22-a-goals.txt"; mv "$OUT/goals/goals-full.txt" "$OUT/s22-a-goals-full.txt"; rmdir "$OUT/goals"
  cut -c1-230 "$OUT/s22-a-goals.txt"
  ;;
c)
  OUT=$OUT/tune PRECISIONS="d s" LAYOUTS=NT SIZES=1024x1024x1024,2048x2048x2048 MAX_CANDIDATES=40 \
    DEADLINE=200 STEP_TIMEOUT=150 bash benches/device/run-tune.sh || status=1
  OUT=$OUT/tune PRECISIONS="hss bss h" LAYOUTS=NT SIZES=128x128x128x2048 MAX_CANDIDATES=40 \
    DEADLINE=330 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  OUT=$OUT/tune PRECISIONS="h" LAYOUTS=NT SIZES=64x64x64x4096 MAX_CANDIDATES=40 \
    DEADLINE=400 STEP_TIMEOUT=80 bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s22-c-tune.tgz" -C "$OUT" tune
  for sc in "d 1024 1024 1024 1" "d 2048 2048 2048 1" "s 1024 1024 1024 1" "hss 128 128 128 2048" "bss 128 128 128 2048" \
            "h 128 128 128 2048" "h 64 64 64 4096"; do
    set -- $sc
    for tables in committed tuned; do
      dir=; [ $tables = tuned ] && dir=$OUT/tune/tables
      ROCMATH_TUNING_DIR=$dir bench_line s22-c "$tables $1 ${2}x${3}x$4 b$5" --precision $1 --transA N --transB T -m $2 -n $3 -k $4 --batch $5
    done
  done
  ;;
d)
  TEST_TIMEOUT=560 tests_in_parallel s22-d-tests.txt "gemm_i8_xf32-test xf32_" "gemm_batched-test repacking_" "gemm-test every_table_config"
  for round in 1 2; do
    for sc in "xf32 NT 1024" "xf32 NN 1024" "xf32 TT 1024" "xf32 NT 2048" "s NN 1024" "s TT 1024" "xf32 NT 64 4096"; do
      set -- $sc
      for build in before after; do
        bench=.carry/rocmath-bench; [ $build = before ] && bench=.carry/rocmath-bench-before
        BENCH=$bench bench_line s22-d "$build $1 $2 ${3}^3 b${4:-1}" --precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $3 -k $3 --batch ${4:-1}
      done
    done
  done
  ;;
e)
  OUT=$OUT/tune PRECISIONS=xf32 LAYOUTS=NT SIZES=32x32x32x10000,64x64x64x4096,128x128x128x2048 MAX_CANDIDATES=24 \
    DEADLINE=100 STEP_TIMEOUT=330 bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s22-e-tune.tgz" -C "$OUT" tune
  for sc in "32 10000" "64 4096" "128 2048"; do
    set -- $sc
    for layout in NT NN TN; do
      for tables in committed tuned; do
        dir=; [ $tables = tuned ] && dir=$OUT/tune/tables
        ROCMATH_TUNING_DIR=$dir bench_line s22-e "$tables xf32 $layout ${1}^3 b$2" --precision xf32 --transA ${layout:0:1} --transB ${layout:1:1} -m $1 -n $1 -k $1 --batch $2
      done
    done
  done
  mkdir -p "$OUT/tables-xf32" && cp "$OUT/tune/tables/sm_90/gemm_xf32_nt.json" "$OUT/tables-xf32/" || status=1
  ;;
f)
  tests_in_parallel s22-f-tests.txt "gemm_i8_xf32-test every_xf32_table_config" "gemm_i8_xf32-test xf32_math_mode" "aot-test"
  for sc in "32 10000" "64 4096" "128 2048"; do
    set -- $sc
    for layout in NT NN TT; do
      bench_line s22-f "xf32 $layout ${1}^3 b$2" --precision xf32 --transA ${layout:0:1} --transB ${layout:1:1} -m $1 -n $1 -k $1 --batch $2
    done
  done
  ;;
i)
  tests_in_parallel s22-i-tests.txt "gemm_i8_xf32-test every_xf32_table_config" "aot-test"
  for sc in "32 10000" "64 4096" "128 2048"; do
    set -- $sc
    bench_line s22-i "xf32 TN ${1}^3 b$2" --precision xf32 --transA T --transB N -m $1 -n $1 -k $1 --batch $2
  done
  ;;
h)
  OUT=$OUT/tune PRECISIONS=xf32 LAYOUTS=TN SIZES=32x32x32x10000,64x64x64x4096,128x128x128x2048 MAX_CANDIDATES=24 \
    DEADLINE=100 STEP_TIMEOUT=330 bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s22-h-tune.tgz" -C "$OUT" tune
  for sc in "32 10000" "64 4096" "128 2048"; do
    set -- $sc
    for tables in committed tuned; do
      dir=; [ $tables = tuned ] && dir=$OUT/tune/tables
      ROCMATH_TUNING_DIR=$dir bench_line s22-h "$tables xf32 TN ${1}^3 b$2" --precision xf32 --transA T --transB N -m $1 -n $1 -k $1 --batch $2
    done
  done
  mkdir -p "$OUT/tables-xf32" && cp "$OUT/tune/tables/sm_90/gemm_xf32_tn.json" "$OUT/tables-xf32/" || status=1
  ;;
g)
  ROCMATH_REQUIRE_GPU=1 timeout 500 .carry/rocmath-bench suite --only fft --device cuda > "$OUT/s22-g-fft-suite.txt" 2>&1 || status=1
  sed -n '/fft summary/,$p' "$OUT/s22-g-fft-suite.txt"
  ;;
b)
  TEST_TIMEOUT=560 tests_in_parallel s22-b-tests.txt "gemm-test" "gemm_batched-test" "gemm_i8_xf32-test"
  ;;
esac
echo "exit status $status"
exit $status
