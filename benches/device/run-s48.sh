#!/usr/bin/env bash
# Prepared at the end of the forty-seventh session (a-c), run and extended in the forty-eighth
# (d-f; a ran there too). Stage first:
# `GEMM_AOT=1 TESTS="fft gemm gemm_i8_xf32" bash benches/device/stage.sh`, carry .carry.
# Output: $OUT/s48-$PHASE*.txt.
# PHASE=a: issue 3's shapes with the committed tables (xf32 batches now on the transposing tf32
#          wgmma tiles): one record of the GEMM goals on whatever GPU the call gets (the tables
#          mix H100 and H200 picks; an H100 would show whether the H200's picks hold there).
#          run-s47.sh's phase a, never run; its FFT suite moved to phase f.
# PHASE=b: the tuner over the xf32 `t` candidates (tf32 wgmma transposing in shared memory, and
#          the two-block `o2` one) at the two xf32 batches, NT and NN: the committed picks came
#          from bench lines, not from a tuner run.
# PHASE=c: the 16-bit batch picks against the ones they replaced, three rounds in one process
#          each (hss and bss 64^3 and 128^3: the run-to-run spread was about 2 % on the H200).
#          run-s47.sh's phase b, never run.
# PHASE=d: (first call of the forty-eighth session) the FFT's L2 prefetch of the next block's
#          input (`next_prefetch`): the rule against none and against every plain one-transform
#          row kernel, two rounds; its fft-test; then the GEMM refactor of 36f5fcf on a GPU: the
#          xf32 table lines of s47-h and the wgmma tests of every family.
# PHASE=e: the prefetch before the last pass, before pass 1 and before the first, against none.
# PHASE=f: the FFT suite with the prefetch (before evict-last); evict-first stores A/B; fft-test, aot-test.
# PHASE=g: the prefetch in parts, and marked evict-last, against one part before the last pass
#          (ROCMATH_FFT_NEXT_PREFETCH_PARTS and _EVICT_LAST: switches of that build only; evict-last
#          became the default and both switches were removed).
# PHASE=h: the prefetch inside the last pass, before its stores, against before the pass
#          (ROCMATH_FFT_NEXT_PREFETCH_STORES: a switch of that build only, removed after).
source benches/device/session.sh
case $P in
d)
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s48-d-gpu.txt"
  export TEST_TIMEOUT=240
  ROCMATH_TEST_CONFIGS=wgmma tests_in_parallel s48-d-tests.txt "gemm-test wgmma_kernels_at_tile_edges" "gemm-test wgmma_strided_batches" \
    "gemm-test wgmma_pingpong_strided_batches" "gemm-test table_configs_match_reference_16_bit" "gemm_i8_xf32-test i8_wgmma_every_layout" \
    "gemm_i8_xf32-test every_xf32_table_config_matches_reference" "gemm_i8_xf32-test xf32_wgmma_every_layout"
  ROCMATH_TEST_CONFIGS=t_x_g8 TEST_TIMEOUT=150 run_test s48-d-tests-t.txt gemm_i8_xf32-test xf32_candidates_at_tile_edges
  for r in 1 2; do
    bench_line s48-d "xf32 64^3 x 4096 table r$r" --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 > /dev/null
    bench_line s48-d "xf32 128^3 x 2048 table r$r" --precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
  done
  lines_table s48-d
  for r in r1 r2; do
    env_ab c2c "16384 8192 d8192 h16384" " $r" rule none ROCMATH_FFT_NEXT_PREFETCH=0
    env_ab "r2c c2r" "32768" " $r" rule none ROCMATH_FFT_NEXT_PREFETCH=0
  done > "$OUT/s48-d-fft.txt" 2>&1
  env_ab c2c "4096 2048 d4096 h8192" " r1" rule every ROCMATH_FFT_NEXT_PREFETCH=2 >> "$OUT/s48-d-fft.txt" 2>&1
  test_run 150 fft-test long_rows_in_batches_past_one_wave powers_of_2_3_5 real_transforms_in_one_launch > "$OUT/s48-d-fft-tests.txt"
  ;;
e)
  # The prefetch asked before the last pass (the new default), before pass 1 and before the
  # first (phase d's build, which was 10-55 % slower but for half), against none; two rounds.
  nvidia-smi -L > "$OUT/s48-e-gpu.txt"
  for r in r1 r2; do
    for c in 16384 8192 h16384 d8192; do
      sweep_case $c
      args=(--precision $p --type c2c --length $n --batch $b)
      line "c2c $p $n none $r" ROCMATH_FFT_NEXT_PREFETCH=0 -- "${args[@]}"
      line "c2c $p $n last $r" -- "${args[@]}"
      line "c2c $p $n at1 $r" ROCMATH_FFT_NEXT_PREFETCH_AT=1 -- "${args[@]}"
      line "c2c $p $n at0 $r" ROCMATH_FFT_NEXT_PREFETCH_AT=0 -- "${args[@]}"
    done
    for t in r2c c2r; do
      line "$t single 32768 none $r" ROCMATH_FFT_NEXT_PREFETCH=0 -- --precision single --type $t --length 32768 --batch 2048
      line "$t single 32768 last $r" -- --precision single --type $t --length 32768 --batch 2048
    done
  done > "$OUT/s48-e-fft.txt" 2>&1
  test_run 100 fft-test long_rows_in_batches_past_one_wave > "$OUT/s48-e-fft-tests.txt"
  ;;
f)
  # The FFT suite with the next-block prefetch (the ahead-of-time file rebuilt with it); then
  # evict-first stores in the prefetching kernels against the default, two rounds; fft-test.
  nvidia-smi -L > "$OUT/s48-f-gpu.txt"
  timeout 200 $B suite --only fft --device cuda > "$OUT/s48-f-fft-suite.txt" 2>&1 || status=1
  for r in r1 r2; do
    env_ab c2c "16384 8192 d8192 h16384" " $r" default cs ROCMATH_FFT_STORE_CS=1
  done > "$OUT/s48-f-fft.txt" 2>&1
  test_run 200 fft-test long_rows_in_batches_past_one_wave powers_of_2_3_5 real_transforms_in_one_launch large_batches > "$OUT/s48-f-fft-tests.txt"
  test_run 60 aot-test >> "$OUT/s48-f-fft-tests.txt"
  ;;
g)
  # The next-block prefetch in parts over the last passes, and marked evict-last, against the
  # default (one part before the last pass); two rounds.
  nvidia-smi -L > "$OUT/s48-g-gpu.txt"
  for r in r1 r2; do
    for c in 16384 8192 d8192; do
      sweep_case $c
      args=(--precision $p --type c2c --length $n --batch $b)
      line "c2c $p $n default $r" -- "${args[@]}"
      line "c2c $p $n parts2 $r" ROCMATH_FFT_NEXT_PREFETCH_PARTS=2 -- "${args[@]}"
      line "c2c $p $n parts3 $r" ROCMATH_FFT_NEXT_PREFETCH_PARTS=3 -- "${args[@]}"
      line "c2c $p $n evict-last $r" ROCMATH_FFT_NEXT_PREFETCH_EVICT_LAST=1 -- "${args[@]}"
      line "c2c $p $n parts2 evict-last $r" ROCMATH_FFT_NEXT_PREFETCH_PARTS=2 ROCMATH_FFT_NEXT_PREFETCH_EVICT_LAST=1 -- "${args[@]}"
      line "c2c $p $n at1 evict-last $r" ROCMATH_FFT_NEXT_PREFETCH_AT=1 ROCMATH_FFT_NEXT_PREFETCH_EVICT_LAST=1 -- "${args[@]}"
    done
  done > "$OUT/s48-g-fft.txt" 2>&1
  ;;
h)
  # The prefetch inside the last pass, between its butterflies and its stores, against before
  # the pass (the default); two rounds.
  nvidia-smi -L > "$OUT/s48-h-gpu.txt"
  for r in r1 r2; do
    env_ab c2c "16384 8192 d8192 h16384" " $r" default stores ROCMATH_FFT_NEXT_PREFETCH_STORES=1
  done > "$OUT/s48-h-fft.txt" 2>&1
  ;;
a)
  # Issue 3's shapes (GEMM goals; the FFT suite is phase f's).
  nvidia-smi -L > "$OUT/s48-a-gpu.txt"
  BATCH_PRECISIONS="hss bss h s d xf32" bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv $OUT/goals.txt $OUT/s48-a-goals.txt; mv $OUT/goals-full.txt $OUT/s48-a-goals-full.txt
  ;;
b)
  nvidia-smi -L > "$OUT/s48-b-gpu.txt"
  PRECISIONS=xf32 LAYOUTS="NT NN" SIZES="64x64x64x4096,128x128x128x2048" FILTER=t_x_g8 VARIANTS=wgmma \
    MAX_CANDIDATES=20 DEADLINE=420 bash benches/device/run-tune.sh > "$OUT/s48-b-tune.txt" 2>&1 || status=1
  awk '/^winner/ {print $3}' "$OUT/summary.txt" > "$OUT/s48-b-winners.txt" 2>/dev/null
  ;;
c)
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s48-c-gpu.txt"
  for r in 1 2 3; do
    for p in hss bss; do
      t=$([ $p = hss ] && echo f16 || echo bf16)
      bench_line s48-c "$p 64^3 x 4096 table r$r" --precision $p --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 > /dev/null
      bench_line s48-c "$p 64^3 x 4096 mma 64x64x32 s4 r$r" --precision $p --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 --config mt64x64x32_w2x2_s4_x_g8_o1_mma16x8x16$t > /dev/null
      bench_line s48-c "$p 128^3 x 2048 table r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
      bench_line s48-c "$p 128^3 x 2048 wgmma 64x128x64 s6 r$r" --precision $p --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config mt64x128x64_w2x1_s6_x_g8_o1_wgmma64xnx16$t > /dev/null
    done
    # (h 128^3 x 2048 read 0.947 in phase a, 1.005 in the forty-sixth session's goals run.)
    bench_line s48-c "h 128^3 x 2048 table r$r" --precision h --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
  done
  lines_table s48-c
  ;;
esac
exit $status
