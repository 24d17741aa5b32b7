#!/usr/bin/env bash
# Twenty-seventh session. Output: $OUT/s27-$PHASE*. Run after stage.sh (carry .carry).
# PHASE=a: gemm_batched's persistent_configs_match_reference alone (s27-a-tests.txt); session 26
#          ran it beside two other tests and it was killed at 400 s.
# PHASE=b: rocmath-tune NT at the skinny shapes with the new 16-row (and 32-row warp) split-K
#          candidates: s, d and xf32 at 16x8192x8192 (FILTER: those candidates, plus the fallback
#          and the incumbent), then d at 8192x8192x128 over 24 of all candidates; tables and logs
#          in $OUT/s27-b-tune/. Then the skinny lines on the committed tables and on the tuned
#          ones (ROCMATH_TUNING_DIR) in turns (s27-b.txt).
# PHASE=c: (the build with phase b's entries committed) every table config (s27-c-tests.txt), then
#          the skinny lines (s27-c.txt).
# PHASE=d: rocmath-tune d NT at 8192x8192x128 over the persistent candidates (FILTER p_; the
#          epilogue of one tile could overlap the next tile's loads), tables and logs in
#          $OUT/s27-d-tune/; the line on the committed and the tuned tables (s27-d.txt).
# PHASE=e: rocmath-tune s, d and xf32 at 16x8192x8192 in NN, TN and TT over phase b's candidates
#          (tables copied flat to $OUT/s27-e-tables/), then those lines on the committed and the
#          tuned tables (s27-e.txt).
# PHASE=f: (the build with phase e's entries committed) every table config (s27-f-tests.txt), then
#          16x8192x8192 in every layout of s, d and xf32 and d 8192x8192x128 NT (s27-f.txt).
#          (Cut at its 420 s limit on a cold kernel cache; run again alone on the warm machine,
#          s27-g-tests.txt. The split-K tests alone: s27-h-tests.txt. Commands in the results file.)
# PHASE=i: (.carry's bench and tuner rebuilt with K-32 scalar 16-row tiles) rocmath-tune s and d NN
#          and TN at 16x8192x8192 over those candidates (tables flat in $OUT/s27-i-tables/), then
#          the lines on the committed and the tuned tables in turns (s27-i.txt).
# PHASE=j: phase i's new table config (mt16x128x32_t4x32_s3_p4x4_g8_o2_k4_fma) pinned with
#          --config at edge shapes in every layout, each checked against the f64 reference by the
#          bench (s27-j.txt); every_table_config_matches_reference on a cold kernel cache does
#          not fit the 10-minute call (s27-f), and the ahead-of-time file of every table kernel
#          (60 MB) does not fit the carry.
# PHASE=k: d NT 8192x8192x128 with phase b's pick pinned (split cap 4, which runs unsplit at this
#          size) and its unsplit twin, in turns, three rounds (s27-k.txt): the table must name the
#          config that runs (blas's table_entries_keep_their_split_counts).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
SKINNY_LINES=("s 16 8192 8192" "d 16 8192 8192" "xf32 16 8192 8192" "d 8192 8192 128")
skinny_line() {  # FILE LABEL "PRECISION M N K"
  set -- "$1" "$2" $3
  bench_line "$1" "$2 $3 NT $4x$5x$6" --precision $3 --transA N --transB T -m $4 -n $5 -k $6
}
case $P in
a)
  nvidia-smi -L > "$OUT/s27-a-tests.txt"
  TEST_TIMEOUT=540 run_test s27-a-tests.txt gemm_batched-test persistent_configs_match_reference
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s27-a-tests.txt"
  grep -q FAILED "$OUT/s27-a-tests.txt" && status=1
  ;;
b)
  T="$OUT/s27-b-tune"; mkdir -p "$T"
  OUT="$T" PRECISIONS="s d xf32" LAYOUTS=NT SIZES=16x8192x8192 FILTER=mt16x,mt32x128x16_w1x4 MAX_CANDIDATES=40 \
    DEADLINE=300 STEP_TIMEOUT=110 bash benches/device/run-tune.sh || status=1
  OUT="$T" PRECISIONS=d LAYOUTS=NT SIZES=8192x8192x128 MAX_CANDIDATES=24 \
    DEADLINE=$((SECONDS > 420 ? 0 : 420 - SECONDS)) STEP_TIMEOUT=$((SECONDS > 420 ? 1 : 480 - SECONDS)) \
    bash benches/device/run-tune.sh || status=1
  nvidia-smi -L > "$OUT/s27-b.txt"
  for line in "${SKINNY_LINES[@]}"; do
    skinny_line s27-b committed "$line"
    ROCMATH_TUNING_DIR="$T/tables" skinny_line s27-b tuned "$line"
  done
  ;;
c)
  TEST_TIMEOUT=360 run_test s27-c-tests.txt gemm-test every_table_config_matches_reference
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s27-c-tests.txt"
  grep -q FAILED "$OUT/s27-c-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s27-c.txt"
  for line in "${SKINNY_LINES[@]}"; do skinny_line s27-c "this build" "$line"; done
  ;;
d)
  T="$OUT/s27-d-tune"; mkdir -p "$T"
  OUT="$T" PRECISIONS=d LAYOUTS=NT SIZES=8192x8192x128 FILTER=p_ MAX_CANDIDATES=40 DEADLINE=60 STEP_TIMEOUT=300 \
    bash benches/device/run-tune.sh || status=1
  nvidia-smi -L > "$OUT/s27-d.txt"
  for i in 1 2; do
    skinny_line s27-d committed "d 8192 8192 128"
    ROCMATH_TUNING_DIR="$T/tables" skinny_line s27-d tuned "d 8192 8192 128"
  done
  cp "$T/tables/sm_90/gemm_d_nt.json" "$OUT/s27-d-gemm_d_nt.json"
  ;;
e)
  T="$OUT/s27-e-tune"; mkdir -p "$T" "$OUT/s27-e-tables"
  OUT="$T" PRECISIONS="s d xf32" LAYOUTS="NN TN TT" SIZES=16x8192x8192 FILTER=mt16x,mt32x128x16_w1x4 MAX_CANDIDATES=40 \
    DEADLINE=420 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  for f in "$T"/tables/sm_90/gemm_{s,d,xf32}_{nn,tn,tt}.json; do cp "$f" "$OUT/s27-e-tables/"; done
  nvidia-smi -L > "$OUT/s27-e.txt"
  for p in s d xf32; do
    for layout in NN TN TT; do
      args="--precision $p --transA ${layout:0:1} --transB ${layout:1:1} -m 16 -n 8192 -k 8192"
      bench_line s27-e "committed $p $layout 16x8192x8192" $args
      ROCMATH_TUNING_DIR="$T/tables" bench_line s27-e "tuned $p $layout 16x8192x8192" $args
    done
  done
  ;;
f)
  TEST_TIMEOUT=420 run_test s27-f-tests.txt gemm-test every_table_config_matches_reference
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s27-f-tests.txt"
  grep -q FAILED "$OUT/s27-f-tests.txt" && status=1
  nvidia-smi -L > "$OUT/s27-f.txt"
  for p in s d xf32; do
    for layout in NT NN TN TT; do
      bench_line s27-f "$p $layout 16x8192x8192" --precision $p --transA ${layout:0:1} --transB ${layout:1:1} -m 16 -n 8192 -k 8192
    done
  done
  skinny_line s27-f "this build" "d 8192 8192 128"
  ;;
i)
  T="$OUT/s27-i-tune"; mkdir -p "$T" "$OUT/s27-i-tables"
  OUT="$T" PRECISIONS="s d" LAYOUTS="NN TN" SIZES=16x8192x8192 FILTER=mt16x128x32_t4x32 MAX_CANDIDATES=40 \
    DEADLINE=300 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  for f in "$T"/tables/sm_90/gemm_{s,d}_{nn,tn}.json; do cp "$f" "$OUT/s27-i-tables/"; done
  cp "$T/summary.txt" "$OUT/s27-i-tune-summary.txt"
  nvidia-smi -L > "$OUT/s27-i.txt"
  for p in s d; do
    for layout in NN TN; do
      args="--precision $p --transA ${layout:0:1} --transB ${layout:1:1} -m 16 -n 8192 -k 8192"
      for i in 1 2; do
        bench_line s27-i "committed $p $layout 16x8192x8192" $args
        ROCMATH_TUNING_DIR="$T/tables" bench_line s27-i "tuned $p $layout 16x8192x8192" $args
      done
    done
  done
  ;;
j)
  nvidia-smi -L > "$OUT/s27-j.txt"
  cfg=mt16x128x32_t4x32_s3_p4x4_g8_o2_k4_fma
  for layout in NT NN TN TT; do
    for shape in "17 131 259 0 0" "15 300 97 0.5 3" "16 256 33 1 0" "40 129 1000 0.5 5" "1 1 1 0.5 0"; do
      set -- $shape
      ta=${layout:0:1} tb=${layout:1:1}
      ra=$([ $ta = N ] && echo $1 || echo $3); rb=$([ $tb = N ] && echo $3 || echo $2)
      bench_line s27-j "s $layout ${1}x${2}x${3} beta $4 pad $5" --precision s --transA $ta --transB $tb -m $1 -n $2 -k $3 \
        --lda $((ra + $5)) --ldb $((rb + $5)) --ldc $(($1 + $5)) --alpha 1.5 --beta $4 --config $cfg --iters 1 --warmup 0
    done
  done
  grep -c "kernel=gemm_s_$cfg:" "$OUT/s27-j-full.txt" | sed 's/^/lines that ran the pinned kernel: /' | tee -a "$OUT/s27-j.txt"
  grep -c "^  check: ok" "$OUT/s27-j-full.txt" | sed "s/^/our reference checks passed: /" | tee -a "$OUT/s27-j.txt"
  ;;
k)
  nvidia-smi -L > "$OUT/s27-k.txt"
  for i in 1 2 3; do
    for cfg in mt64x64x16_w2x2_s3_p4x4_g8_o3_k4_mma16x8x16f64 mt64x64x16_w2x2_s3_p4x4_g8_o3_mma16x8x16f64; do
      bench_line s27-k "$cfg" --precision d --transA N --transB T -m 8192 -n 8192 -k 128 --config $cfg
    done
  done
  ;;
esac
exit $status
