#!/usr/bin/env bash
# Thirtieth session: complex f32 (c) on the warp-tiled FMA atom. Output: $OUT/s30-$PHASE*. Run
# after stage.sh (carry .carry).
# PHASE=a: the warp-tiled c configs at tile edges in nine transpose pairs, the 32 x 128 split-K
#          ones (c and s) in gemm_batched's split-K test, the bitwise repeat test (s, d, c, z), and
#          the committed c and z tables' configs (s30-a-tests.txt); c NT lines on the committed
#          tables and pinned on four warp-tiled tiles (s30-a.txt).
# PHASE=b: rocmath-tune c in the four layouts at the issue's sizes but 8192^3 and
#          4096x4096x65536, every candidate (tables flat in $OUT/s30-b-tables/, logs in
#          $OUT/s30-b-tune/); the c lines on them, and s NN 8192x4096x8192 (the FLOPs and
#          shape of c 4096^3 as one real product, A expanded to 2 x 2 real blocks) (s30-b.txt);
#          Nsight Compute on c NT 2048^3, ours (128 x 128 warp-tiled) and cuBLAS's (s30-b-ncu.tgz;
#          tuning logs in s30-b-tune.tgz). (Its tuning steps ran into their 120 s timeouts on a
#          cold kernel cache, compiling 36 modules: no table came of it.)
# PHASE=c: PHASE=b's tuning alone, with room for the compiles (tables flat in $OUT/s30-c-tables/,
#          logs in s30-c-tune.tgz), then the c lines that time allows (s30-c.txt). (NT again ran
#          into its timeout before its first size was done, still compiling; NN, on the compiled
#          modules, finished; TN and TT were past the deadline.)
# PHASE=d: c NN lines on tuning/tables, read at run time (the c NN table from PHASE=c copied in
#          first), cuBLAS in the same run (s30-d.txt).
# PHASE=e: (on the machine PHASE=c left warm, its modules compiled) rocmath-tune c NT over the
#          warp-tiled candidates and the table's pick, at all PHASE=c sizes but 1024^3 and 2048^3
#          (s30-e-tune-c-NT.log; the table flat in $OUT).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
C_SIZES="1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x128,16x8192x8192,32x32x32x10000,64x64x64x4096,128x128x128x2048"
c_line() {  # FILE LABEL LAYOUT SIZE [BENCH-ARGS...]: one c line (LAYOUT e.g. NT) at SIZE (MxNxK[xBATCH])
  local file=$1 label=$2 layout=$3 s=$4; shift 4
  IFS=x read -r m n k b <<< "$s"
  bench_line "$file" "$label c $layout $s" --precision c --transA ${layout:0:1} --transB ${layout:1:1} -m $m -n $n -k $k --batch ${b:-1} "$@"
}
tune_c() {  # PHASE DEADLINE STEP_TIMEOUT: every c candidate in the four layouts at C_SIZES (tables
            # flat in $OUT/s30-PHASE-tables/); sets T to the tuning directory (tables under it)
  T="$OUT/s30-$1-tune"; mkdir -p "$T"
  OUT="$T" PRECISIONS=c LAYOUTS="NT NN TN TT" SIZES=$C_SIZES MAX_CANDIDATES=40 ITERS=5 WARMUP=2 \
    DEADLINE=$2 STEP_TIMEOUT=$3 bash benches/device/run-tune.sh || status=1
  mkdir -p "$OUT/s30-$1-tables"
  cp "$T"/tables/sm_90/gemm_c_*.json "$OUT/s30-$1-tables/" 2>/dev/null
}
case $P in
a)
  nvidia-smi -L > "$OUT/s30-a-tests.txt"
  ROCMATH_TEST_CONFIGS=fmaw TEST_TIMEOUT=240 run_test s30-a-tests.txt gemm-test c_fma_configs_at_tile_edges
  ROCMATH_TEST_CONFIGS=mt32x128x16_w1x4 TEST_TIMEOUT=120 run_test s30-a-tests.txt gemm_batched-test split_k_configs_match_reference
  TEST_TIMEOUT=60 run_test s30-a-tests.txt gemm_batched-test split_k_results_repeat_bitwise
  TEST_TIMEOUT=150 run_test s30-a-tests.txt gemm-test table_configs_match_reference_complex
  grep -E "^test |test result|FAILED|configs checked|configs of|panicked" "$OUT/s30-a-tests.txt"
  grep -q FAILED "$OUT/s30-a-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s30-a.txt"
  for s in 1024x1024x1024 4096x4096x4096; do
    c_line s30-a "committed tables" NT $s
    for cfg in mt64x64x8_w2x2_s3_p4x4_g8_o1_fmaw32x16 mt128x64x8_w4x2_s3_p4x4_g8_o1_fmaw32x16 mt64x128x8_w2x4_s3_p4x4_g8_o1_fmaw32x16 mt128x128x8_w4x4_s3_p4x4_g8_o1_fmaw32x16; do
      [ $SECONDS -lt 540 ] && c_line s30-a "pinned $cfg" NT $s --config $cfg
    done
  done
  ;;
b)
  tune_c b 300 120
  nvidia-smi -L > "$OUT/s30-b.txt"
  for s in 1024x1024x1024 4096x4096x4096 8192x8192x128 16x8192x8192 128x128x128x2048 32x32x32x10000; do
    [ $SECONDS -lt 450 ] && ROCMATH_TUNING_DIR="$T/tables" c_line s30-b tuned NT $s
  done
  [ $SECONDS -lt 460 ] && bench_line s30-b "s NN 8192x4096x8192" --precision s --transA N --transB N -m 8192 -n 4096 -k 8192
  mkdir -p "$OUT/ncu"
  [ $SECONDS -lt 470 ] && ncu_case c2048 c 2048 1 --config mt128x128x8_w4x4_s3_p4x4_g8_o1_fmaw32x16
  # (archives: the device tool brings back about eight files)
  tar czf "$OUT/s30-b-ncu.tgz" -C "$OUT" ncu && rm -rf "$OUT/ncu"
  tar czf "$OUT/s30-b-tune.tgz" -C "$OUT" s30-b-tune && rm -rf "$OUT/s30-b-tune"
  ;;
c)
  tune_c c 360 270
  nvidia-smi -L > "$OUT/s30-c.txt"
  for s in 16x8192x8192 32x32x32x10000 8192x8192x128 4096x4096x4096; do
    [ $SECONDS -lt 420 ] && ROCMATH_TUNING_DIR="$T/tables" c_line s30-c tuned NT $s
  done
  tar czf "$OUT/s30-c-tune.tgz" -C "$OUT" s30-c-tune && rm -rf "$OUT/s30-c-tune"
  ;;
d)
  nvidia-smi -L > "$OUT/s30-d.txt"
  for s in 32x32x32x10000 16x8192x8192 4096x4096x4096 128x128x128x2048; do
    ROCMATH_TUNING_DIR=tuning/tables BENCH_TIMEOUT=25 c_line s30-d tables NN $s
  done
  ;;
e)
  OUT=$OUT/t PRECISIONS=c LAYOUTS=NT SIZES=16x8192x8192,32x32x32x10000,4096x4096x4096,128x128x128x2048,8192x8192x128,64x64x64x4096 \
    FILTER=fmaw MAX_CANDIDATES=40 ITERS=5 WARMUP=2 DEADLINE=60 STEP_TIMEOUT=70 bash benches/device/run-tune.sh || status=1
  cp $OUT/t/tables/sm_90/gemm_c_nt.json $OUT/; cp $OUT/t/tune-c-NT.log $OUT/s30-e-tune-c-NT.log; rm -rf $OUT/t
  ;;
esac
exit $status
