#!/usr/bin/env bash
# Twenty-fourth session (f64 prefetch tiles without spills; tf32 small batches). Output: $OUT/s24-$PHASE*.
# PHASE=a: registers, spills and SASS of GEMM modules before and after a change, compiled by nvcc
#          with -Xptxas -v. Sources (carry target/s24src): `cargo run -q --release -p rocmath-kernels
#          --example gemm_source -- FAMILY CONFIG > target/s24src/{old,new}_FAMILY_CONFIG.cu`, from
#          the commit before and after (s24-a-ptxas.txt; the d NT kernels' SASS in s24-a-sass.tgz).
# PHASE=b: (after stage.sh, and the previous commit's rocmath-bench in .carry/old/) d tuned over the
#          prefetch tiles, incumbents beside them: NT, NN, TN, TT at 1024^3 and 2048^3, NT at 4096^3
#          and 8192^3 (s24-b-tune.tgz, tables in tables-b/); the d lines, the previous build with
#          the committed tables, this build with the committed and the tuned ones, in turns (s24-b.txt).
# PHASE=c: xf32 NT, NN, TT tuned at 64^3 x 4096 and 128^3 x 2048 over the tf32 mma.sync tiles
#          (s24-c-tune.tgz, tables in tables-c/); their lines as in PHASE=b; then s, hss and d lines
#          of kernels whose copies changed, previous build against this one (s24-c.txt).
# PHASE=d: (a third build in .carry/alt/: the prefetch K loop not unrolled over the stages, and its
#          sources in target/s24src as alt_*) PHASE=a's report on target/s24src; d prefetch tiles
#          pinned, NT and TN at 1024^3 and 2048^3, the previous build, this one and the alt one in
#          turns (s24-d.txt).
# PHASE=e: (the final kernels, the loop of PHASE=d's alt build) d tuned over the prefetch tiles,
#          incumbents beside them: NT, NN, TN, TT at 1024^3, 2048^3 and 4096^3, NT at 8192^3
#          (s24-e-tune.tgz, tables inside); the d lines, the previous build with the committed
#          tables, this build with the committed and the tuned ones, in turns (s24-e.txt).
# PHASE=f: (restaged with the tuned tables) the d lines with the embedded tables (s24-f.txt); d NT
#          tuned at 64^3 x 4096 and 128^3 x 2048 over the prefetch tiles (s24-f-tune.tgz) and those
#          lines, committed and tuned; then the tests, in parallel (s24-f-tests.txt): the DMMA and
#          warp-FMA candidates at tile edges, every xf32 candidate at tile edges, every table
#          config, every xf32 table config, gemm_batched-test, aot-test.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s24-a-gpu.txt"
  nvcc --version | tail -2 >> "$OUT/s24-a-gpu.txt"
  mkdir -p "$OUT/sass"
  for f in target/s24src/*.cu; do
    b=$(basename "$f" .cu)
    echo "== $b" >> "$OUT/s24-a-ptxas.txt"
    nvcc -arch=sm_90 -cubin -std=c++17 -Xptxas -v -o "/tmp/$b.cubin" "$f" > "/tmp/$b.log" 2>&1 || status=1
    grep -E "error|Compiling entry|registers|spill" "/tmp/$b.log" >> "$OUT/s24-a-ptxas.txt"
    case $b in
      *_d_*) cuobjdump -sass "/tmp/$b.cubin" | awk '/Function : gemm_d_nt/,/\.\.\.\.\.\.\.\.\.\./' > "$OUT/sass/$b-nt.sass" ;;
    esac
  done
  tar czf "$OUT/s24-a-sass.tgz" -C "$OUT" sass && rm -rf "$OUT/sass"
  ;;
b)
  nvidia-smi -L > "$OUT/s24-b-gpu.txt"
  OUT=$OUT/tune PRECISIONS=d LAYOUTS="NT NN TN TT" SIZES=1024x1024x1024,2048x2048x2048 FILTER=f_ MAX_CANDIDATES=24 \
    DEADLINE=200 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  OUT=$OUT/tune PRECISIONS=d LAYOUTS=NT SIZES=4096x4096x4096,8192x8192x8192 FILTER=f_ MAX_CANDIDATES=24 \
    STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s24-b-tune.tgz" -C "$OUT" tune
  d_lines() {  # LAYOUT SIZE
    local args="--precision d --transA ${1:0:1} --transB ${1:1:1} -m $2 -n $2 -k $2"
    BENCH=.carry/old/rocmath-bench bench_line s24-b "previous d $1 $2^3" $args
    bench_line s24-b "committed d $1 $2^3" $args
    ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s24-b "tuned d $1 $2^3" $args
  }
  for n in 1024 2048; do for layout in NT NN TN TT; do d_lines $layout $n; done; done
  for n in 4096 8192; do d_lines NT $n; done
  mkdir -p "$OUT/tables-b" && cp "$OUT"/tune/tables/sm_90/gemm_d_{nt,nn,tn,tt}.json "$OUT/tables-b/" || status=1
  ;;
c)
  nvidia-smi -L > "$OUT/s24-c-gpu.txt"
  OUT=$OUT/tune PRECISIONS=xf32 LAYOUTS="NT NN TT" SIZES=64x64x64x4096,128x128x128x2048 FILTER=mma16x8x8tf32 \
    MAX_CANDIDATES=24 DEADLINE=200 STEP_TIMEOUT=120 bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s24-c-tune.tgz" -C "$OUT" tune
  for layout in NT NN TT; do
    for size in "64 4096" "128 2048"; do
      set -- $size
      args="--precision xf32 --transA ${layout:0:1} --transB ${layout:1:1} -m $1 -n $1 -k $1 --batch $2"
      bench_line s24-c "committed xf32 $layout $1^3 x $2" $args
      ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s24-c "tuned xf32 $layout $1^3 x $2" $args
    done
  done
  for line in "s 1024 1024 1024 1" "s 4096 4096 4096 1" "s 128 128 128 2048" "hss 256 256 65536 1" "hss 64 64 64 4096" \
      "d 128 128 128 2048" "d 1024 1024 65536 1"; do
    set -- $line
    args="--precision $1 --transA N --transB T -m $2 -n $3 -k $4 --batch $5"
    BENCH=.carry/old/rocmath-bench bench_line s24-c "previous $line" $args
    bench_line s24-c "this build $line" $args
  done
  mkdir -p "$OUT/tables-c" && cp "$OUT"/tune/tables/sm_90/gemm_xf32_*.json "$OUT/tables-c/" || status=1
  ;;
d)
  PHASE=a bash benches/device/run-s24.sh || status=1
  for size in 1024 2048; do
    for layout in NT TN; do
      for c in mt64x64x16_w2x2_s3f_p4x4_g8_o3_mma16x8x8f64 mt64x64x16_w2x2_s4f_p4x4_g8_o3_mma16x8x8f64 \
          mt128x64x32_w4x2_s3f_p4x4_g8_o1_mma16x8x8f64; do
        args="--precision d --transA ${layout:0:1} --transB ${layout:1:1} -m $size -n $size -k $size --config $c"
        BENCH=.carry/old/rocmath-bench bench_line s24-d "previous d $layout $size^3" $args
        bench_line s24-d "unrolled d $layout $size^3" $args
        BENCH=.carry/alt/rocmath-bench bench_line s24-d "alt d $layout $size^3" $args
      done
    done
  done
  ;;
e)
  nvidia-smi -L > "$OUT/s24-e.txt"
  OUT=$OUT/tune PRECISIONS=d LAYOUTS="NT NN TN TT" SIZES=1024x1024x1024,2048x2048x2048,4096x4096x4096 FILTER=f_ \
    MAX_CANDIDATES=24 DEADLINE=200 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  OUT=$OUT/tune PRECISIONS=d LAYOUTS=NT SIZES=8192x8192x8192 FILTER=f_ MAX_CANDIDATES=24 STEP_TIMEOUT=100 \
    bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s24-e-tune.tgz" -C "$OUT" tune
  e_lines() {  # LAYOUT SIZE
    local args="--precision d --transA ${1:0:1} --transB ${1:1:1} -m $2 -n $2 -k $2"
    BENCH=.carry/old/rocmath-bench bench_line s24-e "previous d $1 $2^3" $args
    bench_line s24-e "committed d $1 $2^3" $args
    ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s24-e "tuned d $1 $2^3" $args
  }
  for n in 1024 2048 4096; do for layout in NT NN TN TT; do e_lines $layout $n; done; done
  e_lines NT 8192
  ;;
f)
  nvidia-smi -L > "$OUT/s24-f.txt"
  for n in 1024 2048 4096 8192; do
    for layout in NT NN TN TT; do
      bench_line s24-f "d $layout $n^3" --precision d --transA ${layout:0:1} --transB ${layout:1:1} -m $n -n $n -k $n
    done
  done
  OUT=$OUT/tune PRECISIONS=d LAYOUTS=NT SIZES=64x64x64x4096,128x128x128x2048 FILTER=f_ MAX_CANDIDATES=24 \
    STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s24-f-tune.tgz" -C "$OUT" tune
  for size in "64 4096" "128 2048"; do
    set -- $size
    args="--precision d --transA N --transB T -m $1 -n $1 -k $1 --batch $2"
    bench_line s24-f "committed d NT $1^3 x $2" $args
    ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s24-f "tuned d NT $1^3 x $2" $args
  done
  TEST_TIMEOUT=420 tests_in_parallel s24-f-tests.txt "gemm-test dmma_configs_at_tile_edges" \
    "gemm-test warp_fma_configs_at_tile_edges" "gemm-test every_table_config_matches_reference" \
    "gemm_i8_xf32-test xf32_" "gemm_batched-test" "aot-test"
  ;;
esac
exit $status
