#!/usr/bin/env bash
# Forty-fifth session. Stage rocmath-bench and the ahead-of-time file (FFT and GEMM modules:
# rocmath-aot --gemm; 91 MiB, so gzipped to fit the carry: .carry/rocmath-kernels.aot.gz, which
# session.sh unpacks) into .carry, carry .carry. Output: $OUT/s45-$PHASE*.txt.
# PHASE=a: issue 3's shapes with the library's selection (run-gemm-goals.sh; first run on an
#          H200).
# PHASE=b: the 17 radix-2 lengths of s44-b-layouts.txt not measured since the
#          pairing, ROCMATH_FFT_PAIR_TWO rules 2 (default), 1 and 0 (no pairing); 8192 and
#          16384 under eight tuning settings each.
# PHASE=c: (rocmath-tune in .carry too) hss, bss and h NT re-tuned at 64^3 x 4096 and 128^3 x
#          2048 (run-tune.sh, every candidate); their bench lines with the committed tables and
#          the new ones, two rounds; xf32's three batch lines; FFT twiddles by products against
#          the table at 16 cases.
# PHASE=d: (gemm-test and fft-test in .carry/tests, built with phase c's tables) the new table
#          configs' tests beside fft-test with ROCMATH_FFT_TW_PRODUCTS=1; then products against
#          the table at 18 more cases.
# PHASE=e: (the build with products by default where a block holds one transform) fft-test's
#          real_lengths; the default against none at 9 cases not timed before.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s45-a-gpu.txt"
  OUT=$OUT/gemm timeout 560 bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv "$OUT/gemm/goals.txt" "$OUT/s45-a-goals.txt"; mv "$OUT/gemm/goals-full.txt" "$OUT/s45-a-goals-full.txt"
  ;;
b)
  nvidia-smi -L > "$OUT/s45-b-gpu.txt"
  for n in 3234 4158 5346 6318 6370 6534 6006 6050 5250 3510 990 3850 5070 5390 2002 2730 4550; do
    b=$(batch_for $n)
    for rule in 2 1 0; do
      line "c2c single $n rule $rule" ROCMATH_FFT_PAIR_TWO=$rule -- --precision single --type c2c --length $n --batch $b
    done
  done > "$OUT/s45-b-fft.txt" 2>&1
  # 8192 (0.915 of cuFFT, 88 % of copy) and 16384 (72.8 % of copy; goal 85 %) under the knobs
  # that change their kernels.
  for n in 8192 16384; do
    b=$(batch_for $n); args=(--precision single --type c2c --length $n --batch $b)
    line "c2c single $n default" -- "${args[@]}"
    for setting in ROCMATH_FFT_ROW_RADIX=16 ROCMATH_FFT_TW_AHEAD=1 ROCMATH_FFT_EXCHANGE_LAYOUTS=1 ROCMATH_FFT_MIN_BLOCKS=2 ROCMATH_FFT_MIN_BLOCKS=3 ROCMATH_FFT_TW_PRODUCTS=1 ROCMATH_FFT_PAD_FOLD=3 ROCMATH_FFT_CLUSTER=2; do
      line "c2c single $n $setting" $setting -- "${args[@]}"
    done
  done > "$OUT/s45-b-pow2.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s45-c-gpu.txt"
  # FFT: twiddles by products (ROCMATH_FFT_TW_PRODUCTS=1) against the table, alternating; first,
  # so that the tuning cannot crowd it out.
  env_ab c2c "256 512 1024 2048 4096 8192 16384 1000 4099 h4096 h8192 2250 9000 7938 4860 7560" " r1" \
    table products ROCMATH_FFT_TW_PRODUCTS=1 > "$OUT/s45-c-products.txt" 2>&1
  # The 16-bit batches short of 1.0 (s45-a-goals.txt), re-tuned on this H200 over every candidate.
  OUT=$OUT/tune PRECISIONS="hss bss h" LAYOUTS=NT SIZES=64x64x64x4096,128x128x128x2048 MAX_CANDIDATES=40 \
    ITERS=10 WARMUP=3 DEADLINE=250 STEP_TIMEOUT=120 bash benches/device/run-tune.sh > /dev/null 2>&1 || status=1
  (cd "$OUT/tune" && tar czf ../s45-c-tune.tgz .) && cp "$OUT/tune/summary.txt" "$OUT/s45-c-tune-summary.txt"
  # The committed tables against the new ones, bench timing, two rounds; xf32's batches (not in
  # run-gemm-goals.sh's list).
  source benches/device/gemm-lib.sh
  for round in 1 2; do
    for p in hss bss h; do
      for sb in "64 4096" "128 2048"; do
        set -- $sb
        bench_line s45-c-batches "$p $1^3 x $2 committed r$round" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
        ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s45-c-batches "$p $1^3 x $2 re-tuned r$round" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
      done
    done
  done
  for sb in "32 10000" "64 4096" "128 2048"; do
    set -- $sb
    bench_line s45-c-xf32 "xf32 $1^3 x $2" --precision xf32 --transA N --transB T -m $1 -n $1 -k $1 --batch $2
  done
  ;;
d)
  nvidia-smi -L > "$OUT/s45-d-gpu.txt"
  # GEMM: the 16-bit table configs that phase c's tuning put in the tables (ping-pong wgmma
  # 64 x 64 x 64, 8 and 12 stages) at tile edges in every transpose pair, and the ping-pong
  # strided-batch test; beside it, fft-test with twiddles by products in every single and half
  # kernel (the accuracy bounds with ROCMATH_FFT_TW_PRODUCTS=1).
  ( ROCMATH_TEST_CONFIGS=mt64x64x64_w2x1_s8_x_g8_o1_wgmma,mt64x64x64_w2x1_s12_x_g8_o1_wgmma ROCMATH_REQUIRE_GPU=1 \
      ROCMATH_CACHE_DIR=/tmp/rmc-gemm timeout 300 .carry/tests/gemm-test table_configs_match_reference_16_bit \
      wgmma_pingpong_strided_batches --nocapture > "$OUT/s45-d-gemm-tests.txt" 2>&1 || echo "FAILED: exit $?" >> "$OUT/s45-d-gemm-tests.txt" ) &
  ROCMATH_FFT_TW_PRODUCTS=1 test_run 340 fft-test > "$OUT/s45-d-fft-tests.txt" 2>&1
  wait
  grep -q FAILED "$OUT/s45-d-gemm-tests.txt" && status=1
  # Twiddles by products against the table, a second round at other cases, and real transforms.
  {
    env_ab c2c "8192 16384 1000 2250 9000 7560 4860 7938 5000 6000 3375 h1000" " r2" table products ROCMATH_FFT_TW_PRODUCTS=1
    env_ab "r2c c2r" "1024 2048 16384" " r2" table products ROCMATH_FFT_TW_PRODUCTS=1
  } > "$OUT/s45-d-products.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s45-e-gpu.txt"
  # The build with twiddles by products by default in one-transform blocks: real_lengths (not
  # reached in phase d's fft-test), then the default against none (ROCMATH_FFT_TW_PRODUCTS=0) at
  # the one-transform kernels phases c and d did not time.
  test_run 100 fft-test real_lengths > "$OUT/s45-e-tests.txt" 2>&1
  {
    env_ab c2c "2187 6561 3125 15625 2401 10000 4096" "" default none ROCMATH_FFT_TW_PRODUCTS=0
    env_ab r2c "8192 10000" "" default none ROCMATH_FFT_TW_PRODUCTS=0
  } > "$OUT/s45-e.txt" 2>&1
  ;;
esac
exit $status
