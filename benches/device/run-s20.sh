#!/usr/bin/env bash
# Twentieth session (GEMM: split-K for the blocked kernels). After stage.sh, carry .carry.
# Output: $OUT/s20-$PHASE*.
# PHASE=a: in parallel: gemm_batched-test split_k_configs_match_reference (every blocked split-K
#          candidate pinned), gemm-test wgmma_split_k_strided_batches (the wgmma reduce, now shared)
#          (s20-a-tests.txt); then s and d NT at 256 x 256 x 65536 and 1024^3: the table's
#          config against split-K configs pinned, two rounds (s20-a.txt).
# PHASE=b: s and d in NT, NN, TN and TT tuned at 256 x 256 x 65536, 1024^3 and 1024 x 1024 x
#          65536 over the split-K
#          candidates (FILTER _k; at 1024^3 the table's pick is timed beside them) (tables and
#          logs in s20-b-tune.tgz); the lines with those tables (s20-b.txt). (d TN and TT did
#          not fit in the step deadline: phase c.)
# PHASE=c: (s20-b's s and d NT/NN tables committed; this phase reads the repository's tables
#          through ROCMATH_TUNING_DIR, since the staged binaries embed the older ones) d TN and TT
#          tuned as in phase b (s20-c-tune.tgz); the s and d lines in all four layouts at the
#          three sizes with the tables (s20-c.txt).
# PHASE=d: (every table committed and staged) gemm_batched-test (split_k_configs_match_reference
#          with the 32- and 64-slice candidates too), gemm-test every_table_config_matches_reference,
#          aot-test (s20-d-tests.txt).
# PHASE=e: (rocmath-bench rebuilt with the i8 line and copied into .carry; the rest as staged for
#          phase d) i8 TN and NT at 1024^3, 4096^3 and 8192^3 against cuBLAS COMPUTE_32I; s and d
#          NT at the four squares with the final tables (s20-e.txt).
# PHASE=f: (split-K candidates for the 16-bit mma.sync tiles) hss, bss and h NT at 256 x 256 x
#          65536 with the committed tables; hss, bss and h NT and NN tuned there, s and d NT at
#          2048^3, over the split-K candidates (s20-f-tune.tgz); the lines with those tables
#          (s20-f.txt).
# PHASE=i: (review: the bench's peer report and the batched tests' family dispatch shared;
#          rocmath-bench and gemm_batched-test rebuilt and copied into .carry) gemm_batched-test
#          (s20-i-tests.txt); s NT 1024^3 and i8 TN 1024^3 lines (s20-i.txt).
# PHASE=g: gemm_batched-test split_k_configs_match_reference with the 16-bit candidates
#          (s20-g-tests.txt).
# PHASE=h: (phase f's 16-bit tables committed) hss, bss and h NT tuned at 1024 x 1024 x 65536
#          over the split-K candidates (else that size ties between 256 x 256 x 65536's 64
#          slices and 4096 x 4096 x 65536's entry) (s20-h-tune.tgz); the lines (s20-h.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s20-$P-gpu.txt"
case $P in
a)
  tests_in_parallel s20-a-tests.txt "gemm_batched-test split_k_configs_match_reference" "gemm-test wgmma_split_k_strided_batches"
  for round in 1 2; do
    for sc in "s 256 256 65536 mt64x64x16_w2x2_s3_p4x4_g8_o1_k4_fmaw32x16 mt64x64x16_w2x2_s3_p4x4_g8_o1_k8_fmaw32x16 mt64x64x16_w2x2_s3_p4x4_g8_o1_k16_fmaw32x16" \
              "d 256 256 65536 mt64x64x16_w2x2_s3_p4x4_g8_o3_k4_mma16x8x16f64 mt64x64x16_w2x2_s3_p4x4_g8_o3_k8_mma16x8x16f64 mt64x64x16_w2x2_s3_p4x4_g8_o3_k16_mma16x8x16f64" \
              "s 1024 1024 1024 mt128x128x16_w2x4_s3_p4x4_g8_o2_k2_fmaw32x16 mt128x128x16_w2x4_s3_p4x4_g8_o2_k4_fmaw32x16 mt64x64x16_w2x2_s3_p4x4_g8_o1_k2_fmaw32x16" \
              "d 1024 1024 1024 mt128x64x16_w2x2_s3_p4x4_g8_o1_k2_mma16x8x16f64 mt64x64x16_w2x2_s3_p4x4_g8_o3_k2_mma16x8x16f64"; do
      set -- $sc
      args="--precision $1 --transA N --transB T -m $2 -n $3 -k $4"
      bench_line s20-a "$1 ${2}x${3}x$4 table r$round" $args
      for c in "${@:5}"; do bench_line s20-a "$1 ${2}x${3}x$4 $c r$round" $args --config $c; done
    done
  done
  ;;
b)
  OUT=$OUT/tune PRECISIONS="s d" LAYOUTS="NT NN TN TT" SIZES=256x256x65536,1024x1024x1024,1024x1024x65536 FILTER=_k MAX_CANDIDATES=40 \
    DEADLINE=380 STEP_TIMEOUT=110 bash benches/device/run-tune.sh || status=1
  for p in s d; do
    for layout in NT NN TN TT; do
      for size in "256 256 65536" "1024 1024 1024"; do
        set -- $size
        ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s20-b "$p $layout ${1}x${2}x$3 tuned" --precision $p --transA ${layout:0:1} --transB ${layout:1:1} -m $1 -n $2 -k $3
      done
    done
  done
  tar czf "$OUT/s20-b-tune.tgz" -C "$OUT" tune && rm -rf "$OUT/tune"
  ;;
c)
  OUT=$OUT/tune PRECISIONS=d LAYOUTS="TN TT" SIZES=256x256x65536,1024x1024x1024,1024x1024x65536 FILTER=_k MAX_CANDIDATES=40 \
    DEADLINE=300 STEP_TIMEOUT=150 bash benches/device/run-tune.sh || status=1
  for p in s d; do
    for layout in NT NN TN TT; do
      for size in "256 256 65536" "1024 1024 1024" "1024 1024 65536"; do
        set -- $size
        ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s20-c "$p $layout ${1}x${2}x$3 tables" --precision $p --transA ${layout:0:1} --transB ${layout:1:1} -m $1 -n $2 -k $3
      done
    done
  done
  tar czf "$OUT/s20-c-tune.tgz" -C "$OUT" tune && rm -rf "$OUT/tune"
  ;;
d)
  TEST_TIMEOUT=540 tests_in_parallel s20-d-tests.txt gemm_batched-test "gemm-test every_table_config_matches_reference" aot-test
  ;;
e)
  for layout in TN NT; do
    for n in 1024 4096 8192; do
      bench_line s20-e "i8 $layout ${n}^3" --precision i8 --transA ${layout:0:1} --transB ${layout:1:1} -m $n -n $n -k $n
    done
  done
  for p in s d; do
    for n in 1024 2048 4096 8192; do bench_line s20-e "$p NT ${n}^3" --precision $p --transA N --transB T -m $n -n $n -k $n; done
  done
  ;;
f)
  for p in hss bss h; do
    bench_line s20-f "$p NT 256x256x65536 committed" --precision $p --transA N --transB T -m 256 -n 256 -k 65536
  done
  OUT=$OUT/tune PRECISIONS="hss bss h" LAYOUTS="NT NN" SIZES=256x256x65536 FILTER=_k MAX_CANDIDATES=40 \
    DEADLINE=250 STEP_TIMEOUT=120 bash benches/device/run-tune.sh || status=1
  OUT=$OUT/tune PRECISIONS="s d" LAYOUTS=NT SIZES=2048x2048x2048 FILTER=_k MAX_CANDIDATES=40 \
    DEADLINE=150 STEP_TIMEOUT=100 bash benches/device/run-tune.sh || status=1
  for p in hss bss h; do
    for layout in NT NN; do
      ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s20-f "$p $layout 256x256x65536 tuned" --precision $p --transA ${layout:0:1} --transB ${layout:1:1} -m 256 -n 256 -k 65536
    done
  done
  for p in s d; do
    ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s20-f "$p NT 2048^3 tuned" --precision $p --transA N --transB T -m 2048 -n 2048 -k 2048
  done
  tar czf "$OUT/s20-f-tune.tgz" -C "$OUT" tune && rm -rf "$OUT/tune"
  ;;
h)
  OUT=$OUT/tune PRECISIONS="hss bss h" LAYOUTS=NT SIZES=1024x1024x65536 FILTER=_k MAX_CANDIDATES=40 \
    DEADLINE=250 STEP_TIMEOUT=120 bash benches/device/run-tune.sh || status=1
  for p in hss bss h; do
    bench_line s20-h "$p NT 1024x1024x65536 staged tables (before s20-f)" --precision $p --transA N --transB T -m 1024 -n 1024 -k 65536
    ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s20-h "$p NT 1024x1024x65536 tuned" --precision $p --transA N --transB T -m 1024 -n 1024 -k 65536
  done
  tar czf "$OUT/s20-h-tune.tgz" -C "$OUT" tune && rm -rf "$OUT/tune"
  ;;
i)
  TEST_TIMEOUT=560 tests_in_parallel s20-i-tests.txt gemm_batched-test
  bench_line s20-i "s NT 1024^3" --precision s --transA N --transB T -m 1024 -n 1024 -k 1024
  bench_line s20-i "i8 TN 1024^3" --precision i8 --transA T --transB N -m 1024 -n 1024 -k 1024
  ;;
g)
  TEST_TIMEOUT=560 tests_in_parallel s20-g-tests.txt "gemm_batched-test split_k_configs_match_reference"
  ;;
esac
exit $status
