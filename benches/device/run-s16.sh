#!/usr/bin/env bash
# Sixteenth session (FFT: shared-memory indices as the thread's base plus an immediate, the
# four-step twiddle by products; GEMM: a register-staged interior loop, tried and reverted).
# After stage.sh, carry .carry. Output: $OUT/s16-$PHASE*.txt.
# PHASE=a: the FFT suite; streaming stores in the column kernels (ROCMATH_FFT_STORE_STREAM=1, a
#          switch of that build only, removed after the run) against none at 2^20-2^24, double
#          2^20 and 256^3; ncu of 2^22 and 2^23 (instructions, DRAM throughput, duration of each
#          pass).
# PHASE=b: the FFT tests (fft-test, fft_args-test, aot-test) with ROCMATH_REQUIRE_GPU=1.
# PHASE=c: the padding fold against none (ROCMATH_FFT_PAD_FOLD=0) at 8192-65536, twice each in
#          turn; the four-step twiddle by products (ROCMATH_FFT_BIG_RECURRENCE=1) against the
#          step table at 2^20-2^24, double 2^20 and 256^3; ncu memory and stall metrics of the
#          2^22 passes, ours (both twiddles) and cuFFT's.
# PHASE=d: fft-test with ROCMATH_FFT_BIG_RECURRENCE=1 (not run: phase f ran the tests once
#          products had become the default).
# PHASE=e: (products now the f32 default) the suite; the fold of loads only, stores only, both
#          and neither at 16384 (twice in turn), 8192 and 32768; products in f64 too
#          (ROCMATH_FFT_BIG_RECURRENCE=2) against the table at double 2^16-2^22.
# PHASE=f: the FFT tests on the build of phase e (as b).
# PHASE=h: GEMM, the register-staged mainloop's interior loop (commit "gemm: register-staged
#          mainloop's interior loop", reverted after this run): s NN, TN, TT squares and s TT
#          128^3 x 2048 with that build and with the build before it (.carry/old/rocmath-bench,
#          copied there by hand after stage.sh; run without the ahead-of-time file, which holds
#          this build's kernels), in turns.
# PHASE=j: the column kernels' strided loads with L1::no_allocate (ROCMATH_FFT_L1_NO_ALLOCATE=1,
#          a switch of that build only, removed after the run) against without, twice in turn at 2^20-2^24, once at double 2^20, 256^3 and 512^3 r2c;
#          ncu L2 read sectors and time of the 2^22 passes with it.
# PHASE=k: after the review change (the step table uploaded only for kernels that read it): the
#          FFT tests and the suite.
# PHASE=g: (folds: both sides in column kernels, stores only elsewhere) the suite, 8192-65536
#          against both sides folded everywhere (ROCMATH_FFT_PAD_FOLD=3), and the FFT tests.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s16-a-gpu.txt"
  timeout 300 $B suite --only fft --device cuda > "$OUT/s16-a-fft-suite.txt" 2>&1 || status=1
  for c in "single 1048576 64" "single 2097152 32" "single 4194304 16" "single 8388608 8" "single 16777216 4" "double 1048576 64" "single 256x256x256 1"; do
    set -- $c
    line "$2 $1 default" -- --precision $1 --type c2c --length $2 --batch $3
    line "$2 $1 streaming stores" ROCMATH_FFT_STORE_STREAM=1 -- --precision $1 --type c2c --length $2 --batch $3
  done > "$OUT/s16-a-fft.txt" 2>&1
  for c in "4194304 16" "8388608 8"; do
    set -- $c
    echo "#### $1 x $2"
    ROCMATH_CACHE_DIR=/tmp/rmc timeout 120 ncu --clock-control none --cache-control none --kernel-name regex:fft_ --launch-count 4 \
      --section SpeedOfLight --section LaunchStats --metrics smsp__inst_executed.sum \
      $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 2 --warmup 0 2>&1 \
      | grep -E "^  [a-zA-Z_0-9<>]+.*\(|Duration|DRAM Throughput|Registers Per|inst_executed|rocmath |cuFFT  "
  done > "$OUT/s16-a-ncu.txt" 2>&1
  ;;
b)
  export ROCMATH_REQUIRE_GPU=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s16-b-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 60 .carry/tests/fft_args-test 2>&1 | grep -E "test result|panicked" >> "$OUT/s16-b-tests.txt" || status=1
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 120 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked" >> "$OUT/s16-b-tests.txt" || status=1
  ;;
c)
  for c in "8192 8192" "16384 4096" "32768 2048" "65536 1024"; do
    set -- $c
    for round in 1 2; do
      line "$1 fold ($round)" -- --precision single --type c2c --length $1 --batch $2
      line "$1 no fold ($round)" ROCMATH_FFT_PAD_FOLD=0 -- --precision single --type c2c --length $1 --batch $2
    done
  done > "$OUT/s16-c-fold.txt" 2>&1
  for c in "single 1048576 64" "single 2097152 32" "single 4194304 16" "single 8388608 8" "single 16777216 4" "double 1048576 64" "single 256x256x256 1"; do
    set -- $c
    line "$2 $1 step table" -- --precision $1 --type c2c --length $2 --batch $3
    line "$2 $1 products" ROCMATH_FFT_BIG_RECURRENCE=1 -- --precision $1 --type c2c --length $2 --batch $3
  done > "$OUT/s16-c-fft.txt" 2>&1
  M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_op_read_hit_rate.pct,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
  M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__warps_active.avg.pct_of_peak_sustained_active
  for tw in 0 1; do
    echo "#### 4194304 x 16, ROCMATH_FFT_BIG_RECURRENCE=$tw"
    ROCMATH_FFT_BIG_RECURRENCE=$tw ROCMATH_CACHE_DIR=/tmp/rmc timeout 150 ncu --clock-control none --cache-control none --kernel-name regex:fft --launch-count 8 --metrics $M \
      $B fft --precision single --type c2c --length 4194304 --batch 16 --device cuda --iters 1 --warmup 0 2>&1 \
      | grep -E "^  [a-zA-Z_0-9<>]+.*\(|dram__|lts__|smsp__|gpu__|rocmath |cuFFT  "
  done > "$OUT/s16-c-ncu.txt" 2>&1
  ;;
e)
  timeout 300 $B suite --only fft --device cuda > "$OUT/s16-e-fft-suite.txt" 2>&1 || status=1
  for c in "16384 4096" "16384 4096" "8192 8192" "32768 2048"; do
    set -- $c
    for f in 3 0 1 2; do line "$1 fold $f" ROCMATH_FFT_PAD_FOLD=$f -- --precision single --type c2c --length $1 --batch $2; done
  done > "$OUT/s16-e-fold.txt" 2>&1
  for c in "65536 1024" "262144 256" "1048576 64" "4194304 16"; do
    set -- $c
    line "double $1 table" -- --precision double --type c2c --length $1 --batch $2
    line "double $1 products" ROCMATH_FFT_BIG_RECURRENCE=2 -- --precision double --type c2c --length $1 --batch $2
  done > "$OUT/s16-e-double.txt" 2>&1
  ;;
f)
  PHASE=b bash "$0"; status=$?
  for f in "$OUT"/s16-b-*; do mv "$f" "${f/s16-b-/s16-f-}"; done
  ;;
g)
  timeout 300 $B suite --only fft --device cuda > "$OUT/s16-g-fft-suite.txt" 2>&1 || status=1
  for c in "8192 8192" "16384 4096" "32768 2048" "65536 1024"; do
    set -- $c
    line "$1 default" -- --precision single --type c2c --length $1 --batch $2
    line "$1 fold 3" ROCMATH_FFT_PAD_FOLD=3 -- --precision single --type c2c --length $1 --batch $2
  done > "$OUT/s16-g-fold.txt" 2>&1
  PHASE=b bash "$0" || status=1
  for f in "$OUT"/s16-b-*; do mv "$f" "${f/s16-b-/s16-g-}"; done
  ;;
h)
  source benches/device/gemm-lib.sh
  for c in "NN 2048" "TN 2048" "TT 2048" "NN 4096" "TN 4096" "TT 4096" "NN 8192" "TN 8192" "TT 8192"; do
    set -- $c
    args="--precision s --transA ${1:0:1} --transB ${1:1:1} -m $2 -n $2 -k $2"
    bench_line s16-h "s $1 $2^3 new" $args
    echo "s $1 $2^3 old | $(ROCMATH_AOT_CACHE= ROCMATH_REQUIRE_GPU=1 timeout 90 .carry/old/rocmath-bench gemm --device cuda --iters 10 $args 2>&1 | grep -E "rocmath|ratio|FAILED|wrong" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/s16-h.txt" | cut -c1-250
  done
  args="--precision s --transA T --transB T -m 128 -n 128 -k 128 --batch 2048"
  bench_line s16-h "s TT 128^3 x 2048 new" $args
  echo "s TT 128^3 x 2048 old | $(ROCMATH_AOT_CACHE= ROCMATH_REQUIRE_GPU=1 timeout 90 .carry/old/rocmath-bench gemm --device cuda --iters 10 $args 2>&1 | grep -E "rocmath|ratio|FAILED|wrong" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/s16-h.txt" | cut -c1-250
  ;;
j)
  for c in "single 1048576 64 2" "single 2097152 32 2" "single 4194304 16 2" "single 8388608 8 2" "single 16777216 4 2" "double 1048576 64 1" "single 256x256x256 1 1"; do
    set -- $c
    for round in $(seq $4); do
      line "$2 $1 default ($round)" -- --precision $1 --type c2c --length $2 --batch $3
      line "$2 $1 L1::no_allocate ($round)" ROCMATH_FFT_L1_NO_ALLOCATE=1 -- --precision $1 --type c2c --length $2 --batch $3
    done
  done > "$OUT/s16-j-fft.txt" 2>&1
  line "512^3 r2c default" -- --precision single --type r2c --length 512x512x512 --batch 1 >> "$OUT/s16-j-fft.txt" 2>&1
  line "512^3 r2c L1::no_allocate" ROCMATH_FFT_L1_NO_ALLOCATE=1 -- --precision single --type r2c --length 512x512x512 --batch 1 >> "$OUT/s16-j-fft.txt" 2>&1
  M=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
  for na in 0 1; do
    echo "#### 4194304 x 16, ROCMATH_FFT_L1_NO_ALLOCATE=$na"
    ROCMATH_FFT_L1_NO_ALLOCATE=$na ROCMATH_CACHE_DIR=/tmp/rmc timeout 150 ncu --clock-control none --cache-control none --kernel-name regex:fft_ss --launch-count 4 --metrics $M \
      $B fft --precision single --type c2c --length 4194304 --batch 16 --device cuda --iters 1 --warmup 0 --no-peer 2>&1 \
      | grep -E "^  [a-zA-Z_0-9<>]+.*\(|dram__|lts__|l1tex__|smsp__|gpu__|rocmath "
  done > "$OUT/s16-j-ncu.txt" 2>&1
  ;;
k)
  PHASE=b bash "$0" || status=1
  for f in "$OUT"/s16-b-*; do mv "$f" "${f/s16-b-/s16-k-}"; done
  timeout 300 $B suite --only fft --device cuda > "$OUT/s16-k-fft-suite.txt" 2>&1 || status=1
  ;;
d)
  export ROCMATH_REQUIRE_GPU=1 ROCMATH_FFT_BIG_RECURRENCE=1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s16-d-tests.txt" || status=1
  ;;
esac
exit $status
