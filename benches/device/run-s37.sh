#!/usr/bin/env bash
# Thirty-seventh session (FFT: even real transforms in one launch both ways; short halves
# staged). After stage.sh, carry .carry. Output: $OUT/s37-$PHASE*.txt.
# PHASE=a: real transforms against cuFFT: c2r fused (the default) and in two launches
#          (ROCMATH_FFT_REAL_PRE=0); r2c of short halves staged (the default) and not
#          (ROCMATH_FFT_STAGED_ROWS=0); then the new test, fft-test, fft_args-test and aot-test
#          with ROCMATH_REQUIRE_GPU=1.
# PHASE=b: real transforms of 256-8192 points as planned and with both sides staged
#          (ROCMATH_FFT_STAGED_ROWS=4096); c2c of the same volume; ncu of c2r 1024 and of the
#          fused Bluestein c2c 1031 (0.45 of cuFFT), ours and cuFFT's.
# PHASE=c: ncu of single c2c 1031 (fused Bluestein, 0.45 of cuFFT) and 38, ours and cuFFT's.
# PHASE=d: (with the previous build's bench at target/prev/rocmath-bench) the real-path tests of
#          fft-test with ROCMATH_REQUIRE_GPU=1; r2c and c2r, this build against the previous one
#          (the inverse's pre-processing on a staged row, the forward's post one output a
#          thread) and against two launches (ROCMATH_FFT_REAL_PRE=0).
# PHASE=g: (a GEMM carry: stage.sh without the FFT test binaries) the GEMM tests the last
#          session did not run: gemm_i8_xf32-test, rocblas-cdylib, and gemm_batched-test's
#          split-K sweep (PHASE=h), each alone.
source benches/device/session.sh
# Real lengths (the complex half is n / 2; sweep_case: single unless prefixed d or h, 2^26 real
# elements a call, half that for double).
C2R="8 16 32 64 128 256 1024 4096 8192 32768 d64 d1024 d8192 h64 h4096"
R2C="8 16 32 64 128 256 d32 d64 h64"
real_lines() {
  for c in $C2R; do
    sweep_case $c
    line "c2r $p $n one launch" -- --precision $p --type c2r --length $n --batch $b
    line "c2r $p $n two launches" ROCMATH_FFT_REAL_PRE=0 -- --precision $p --type c2r --length $n --batch $b
  done
  for c in $R2C; do
    sweep_case $c
    line "r2c $p $n staged" -- --precision $p --type r2c --length $n --batch $b
    line "r2c $p $n not staged" ROCMATH_FFT_STAGED_ROWS=0 -- --precision $p --type r2c --length $n --batch $b
  done
}
case $P in
a)
  nvidia-smi -L > "$OUT/s37-a-gpu.txt"
  real_lines > "$OUT/s37-a.txt" 2>&1
  {
    test_run 240 fft-test real_transforms_in_one_launch
    test_run 400 fft-test
    test_run 200 fft_args-test
    test_run 200 aot-test
  } > "$OUT/s37-a-tests.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s37-b-gpu.txt"
  {
    for c in 256 1024 4096 8192 d1024; do
      sweep_case $c
      for t in r2c c2r; do
        line "$t $p $n default" -- --precision $p --type $t --length $n --batch $b
        line "$t $p $n staged both ways" ROCMATH_FFT_STAGED_ROWS=4096 -- --precision $p --type $t --length $n --batch $b
      done
    done
    # c2c of the same complex volume (2^25 elements a call) for reference.
    for n in 512 4096; do
      line "c2c single $n, 2^25 elements" -- --precision single --type c2c --length $n --batch $(( (1 << 25) / n ))
    done
  } > "$OUT/s37-b.txt" 2>&1
  {
    bash benches/device/fft-ncu-case.sh single c2r 1024 65536
    bash benches/device/fft-ncu-case.sh single c2c 1031 65091
  } > "$OUT/s37-b-ncu.txt" 2>&1
  ;;
c)
  {
    bash benches/device/fft-ncu-case.sh single c2c 1031 65091
    bash benches/device/fft-ncu-case.sh single c2c 38 1766022
  } > "$OUT/s37-c-ncu.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s37-d-gpu.txt"
  {
    for c in 16 256 1024 4096 8192 32768 d1024 d8192 h4096; do
      sweep_case $c
      for t in r2c c2r; do
        line "$t $p $n this build" -- --precision $p --type $t --length $n --batch $b
        B=target/prev/rocmath-bench line "$t $p $n previous build" -- --precision $p --type $t --length $n --batch $b
      done
      line "c2r $p $n two launches" ROCMATH_FFT_REAL_PRE=0 -- --precision $p --type c2r --length $n --batch $b
    done
  } > "$OUT/s37-d.txt" 2>&1
  {
    for t in real layouts multi_dimensional_mixes inverse_round_trips short_rows_staged_both_ways; do
      test_run 200 fft-test $t
    done
  } > "$OUT/s37-d-tests.txt" 2>&1
  ;;
g)
  nvidia-smi -L > "$OUT/s37-g-gpu.txt"
  {
    test_run 300 gemm_i8_xf32-test
    test_run 270 rocblas-cdylib
  } > "$OUT/s37-g-tests.txt" 2>&1
  ;;
h)
  nvidia-smi -L > "$OUT/s37-h-gpu.txt"
  test_run 560 gemm_batched-test split_k_configs_match_reference > "$OUT/s37-h-split-k.txt" 2>&1
  ;;
esac
exit $status
