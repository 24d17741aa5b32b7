#!/usr/bin/env bash
# Prepared at the end of the forty-fifth session, run and extended in the forty-sixth. Stage
# first: `GEMM_AOT=1 TESTS="fft fft_args aot gemm gemm_i8_xf32" bash benches/device/stage.sh`
# (binaries, those tests, and the ahead-of-time file with the GEMM modules, gzipped; session.sh
# unpacks it), carry .carry. Output: $OUT/s46-$PHASE*.txt.
# PHASE=a: what the forty-fifth session left unchecked: fft-test real_lengths with the twiddle
#          products default (never run to its end with products), fft_args-test, aot-test.
# PHASE=b: the FFT suite on that build; GEMM tuning on this machine where the H200 lines fall
#          short: xf32 NT 64^3 x 4096 and 128^3 x 2048 (0.82, 0.87), tensor-core candidates
#          without split k (FILTER); their bench lines with the committed tables and the new ones.
# PHASE=c: the same for hss, bss and h NT 128^3 x 2048 (cut short in s45-c), wgmma candidates
#          and four mma.sync ones, no split k.
# PHASE=d: Nsight Compute on ours and cuBLAS at xf32 64^3 x 4096 and 128^3 x 2048.
# PHASE=e: xf32 mma.sync configs the generator does not list (other stages, K tiles, pads, and
#          min_waves capping registers), and hss/bss 128^3 x 2048 with phase c's winner, two rounds.
# PHASE=f: d NT tuning at the three strided batches; lines committed against re-tuned, two
#          rounds; the winners at tile edges.
# PHASE=g: issue 3's shapes with the tables committed after phases c and f (run-gemm-goals.sh,
#          xf32 batches included), on a bench binary rebuilt with them.
# PHASE=h: xf32 NT 64^3 x 4096 again with the generator's new 64x64x16 s4 p8x8 candidate (padded
#          candidates only); lines, two rounds; the new candidate and the new tables at tile edges.
#          (The candidate test ignored ROCMATH_TEST_CONFIGS then and ran out of time on the whole
#          list; it honours it now, and ran alone for the new config in a separate call,
#          s46-i-tests.txt.)
# Each phase fits one device call (10 minutes). Phases d-h were written during the session
# (phase d's call also ran bench lines with a mistyped --config, discarded). After it, phases
# b, c, f and h were folded into one branch with the same steps; b and c had labelled their
# lines without a round then.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s46-a-gpu.txt"
  {
    test_run 440 fft-test real_lengths
    test_run 40 fft_args-test
    test_run 40 aot-test
  } > "$OUT/s46-a-tests.txt" 2>&1
  ;;
b|c|f|h)
  # Re-tune where the H200 lines fall short, then compare and test: b xf32 at both sizes, c the
  # 16-bit families at 128^3, f d at the three batches, h xf32 64^3 among the padded candidates
  # (each call under the 10 minutes). Sizes as "m batch": m^3 x batch.
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s46-$P-gpu.txt"
  rounds=2
  case $P in
  b)
    timeout 200 $B suite --only fft --device cuda > "$OUT/s46-b-fft-suite.txt" 2>&1 || status=1
    families=xf32; sizes=("64 4096" "128 2048"); rounds=1
    settings=(MAX_CANDIDATES=60 STEP_TIMEOUT=240 FILTER=_x_g8_o1_wgmma,_x_g8_o1_mma,p8x8_g8_o1_mma)
    table_test="gemm_i8_xf32-test every_xf32_table_config_matches_reference" ;;
  c)
    families="hss bss h"; sizes=("128 2048"); rounds=1
    settings=(MAX_CANDIDATES=40 STEP_TIMEOUT=130 FILTER=_x_g8_o1_wgmma,w2x2_s3_x_g8_o1_mma,w2x4_s4_x_g8_o1_mma)
    table_test="gemm-test table_configs_match_reference_16_bit" ;;
  f)
    families=d; sizes=("32 10000" "64 4096" "128 2048")
    settings=(MAX_CANDIDATES=60 STEP_TIMEOUT=400 FILTER=mma)
    table_test="gemm-test table_configs_match_reference_d" ;;
  h)
    families=xf32; sizes=("64 4096")
    settings=(MAX_CANDIDATES=60 STEP_TIMEOUT=150 FILTER=p8x8)
    table_test="gemm_i8_xf32-test every_xf32_table_config_matches_reference" ;;
  esac
  tune_sizes=$(for sb in "${sizes[@]}"; do set -- $sb; echo -n "${1}x${1}x${1}x$2,"; done)
  env OUT=$OUT/tune PRECISIONS="$families" SIZES="${tune_sizes%,}" LAYOUTS=NT ITERS=10 WARMUP=3 DEADLINE=300 "${settings[@]}" \
    bash benches/device/run-tune.sh > /dev/null 2>&1 || status=1
  (cd "$OUT/tune" && tar czf ../s46-$P-tune.tgz .) && cp "$OUT/tune/summary.txt" "$OUT/s46-$P-tune-summary.txt"
  for r in $(seq 1 $rounds); do
    for p in $families; do
      for sb in "${sizes[@]}"; do
        set -- $sb
        bench_line s46-$P "$p $1^3 x $2 committed r$r" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2 > /dev/null
        ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s46-$P "$p $1^3 x $2 re-tuned r$r" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2 > /dev/null
      done
    done
  done
  # The winners, at tile edges in every layout, read from the new tables (ROCMATH_TUNING_DIR).
  winners=$(awk '/^winner/ {print $3}' "$OUT/tune/summary.txt" | sort -u | paste -sd,)
  [ $P = h ] && ROCMATH_TEST_CONFIGS=$winners TEST_TIMEOUT=120 run_test s46-h-tests.txt gemm_i8_xf32-test xf32_candidates_at_tile_edges
  ROCMATH_TUNING_DIR=$OUT/tune/tables ROCMATH_TEST_CONFIGS=$winners TEST_TIMEOUT=100 run_test s46-$P-tests.txt $table_test
  cat "$OUT/s46-$P-tune-summary.txt"
  lines_table s46-$P
  grep -E "test result|checked|FAILED|panicked" "$OUT/s46-$P-tests.txt"
  ;;
d)
  source benches/device/gemm-lib.sh
  mkdir -p $OUT/ncu; nvidia-smi -L > $OUT/s46-d-gpu.txt
  ncu_case xf32-64 xf32 64 4096; ncu_case xf32-128 xf32 128 2048
  ;;
e)
  source benches/device/gemm-lib.sh
  nvidia-smi -L > $OUT/s46-e-gpu.txt
  for c in mt64x64x32_w2x2_s3_p8x8_g8_o1 mt64x64x32_w2x2_s2_p8x8_g8_o4 mt64x64x32_w2x2_s3_p8x8_g8_o4 mt64x64x16_w2x2_s4_p8x8_g8_o4 mt64x64x16_w2x2_s4_p8x8_g8_o1 mt64x64x16_w2x2_s6_p8x8_g8_o1 mt64x64x32_w2x2_s2_p4x4_g8_o4 mt64x64x32_w2x2_s3_p4x4_g8_o4 mt64x64x16_w2x2_s6_p4x4_g8_o4 mt64x64x32_w2x4_s3_p8x8_g8_o1 mt64x64x32_w2x4_s2_p8x8_g8_o2; do
    bench_line s46-e "xf32 64 $c" --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 --config ${c}_mma16x8x8tf32 > /dev/null
  done
  for c in mt128x128x32_w2x2_s2_p8x8_g8_o1 mt128x128x32_w2x4_s2_p8x8_g8_o1 mt128x128x32_w2x4_s2_p8x8_g8_o2 mt128x128x16_w2x4_s4_p8x8_g8_o1 mt128x128x16_w2x4_s3_p8x8_g8_o2 mt128x128x32_w4x2_s2_p8x8_g8_o1 mt64x128x32_w2x2_s3_p8x8_g8_o2 mt128x64x32_w2x2_s3_p8x8_g8_o2 mt64x64x32_w2x2_s2_p8x8_g8_o4; do
    bench_line s46-e "xf32 128 $c" --precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config ${c}_mma16x8x8tf32 > /dev/null
  done
  for r in 1 2; do for p in hss bss; do
    bench_line s46-e "$p 128^3 x 2048 committed r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
    t=$([ $p = hss ] && echo f16 || echo bf16)
    bench_line s46-e "$p 128^3 x 2048 128x128x64 s6 r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config mt128x128x64_w2x1_s6_x_g8_o1_wgmma64xnx16$t > /dev/null
  done; done
  lines_table s46-e
  ;;
g)
  nvidia-smi -L > $OUT/s46-g-gpu.txt
  BATCH_PRECISIONS="hss bss h s d xf32" bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv $OUT/goals.txt $OUT/s46-g-goals.txt; mv $OUT/goals-full.txt $OUT/s46-g-goals-full.txt
  ;;
esac
exit $status
