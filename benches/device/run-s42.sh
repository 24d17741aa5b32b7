#!/usr/bin/env bash
# Forty-second session (FFT: where c2c 1000 loses to cuFFT). After staging rocmath-bench and
# the ahead-of-time file into .carry, carry .carry. Output: $OUT/s42-$PHASE*.txt.
# PHASE=a: ncu's speed-of-light, memory, warp-state, occupancy and scheduler sections for our c2c
#          1000 kernel (two transforms on 200 threads), the same with one transform a block
#          (ROCMATH_FFT_TARGET_THREADS=100) and cuFFT's; then transforms per block and blocks per
#          SM (ROCMATH_FFT_TARGET_THREADS, ROCMATH_FFT_MIN_BLOCKS) against the default, two rounds.
# PHASE=b: ncu's stall reasons per issued instruction and the source counters (SASS lines with
#          the most stall samples) for our c2c 1000 kernel and cuFFT's; then blocks per SM with
#          registers capped (ROCMATH_FFT_MIN_BLOCKS 6 and 7: 40 and 32 registers, small spills),
#          and 4 transforms a block with 3 blocks per SM, two rounds.
# PHASE=c: twiddles read ahead of the barriers (ROCMATH_FFT_TW_AHEAD=1) and 40 registers (room
#          for 6 blocks of 200-256 threads, 3 of 500: ROCMATH_FFT_MIN_BLOCKS), alone and together,
#          against the default, at radix-10 lengths, two rounds; then the FFT suite with
#          ROCMATH_FFT_TW_AHEAD=1.
# PHASE=d: (not run: phase f ran the full tests instead) fft-test and fft_args-test with ROCMATH_FFT_TW_AHEAD=1 (every kernel's
#          passes read their twiddles ahead of the barriers).
# PHASE=e: (the build with both as defaults: twiddles ahead in single and half kernels but
#          cluster ones, 6 blocks of 200 threads with radix-10 passes) the FFT suite; radix-10
#          and other lengths against ROCMATH_FFT_TW_AHEAD=0.
# PHASE=f: (the same build) fft-test, fft_args-test and aot-test with ROCMATH_REQUIRE_GPU=1.
# PHASE=g: (the same build) lengths with odd radices against ROCMATH_FFT_TW_AHEAD=0, two rounds
#          (6000 lost 4 % in phase e).
# PHASE=h: (the build with the per-pass rule: passes read ahead only where their butterflies
#          fill every thread's iterations alike) lengths that lost and won in phase g and the
#          suite's 1000 against ROCMATH_FFT_TW_AHEAD=0 and =1, one round; fft-test subsets.
source benches/device/session.sh
# stalls ENV=VALUE: ncu's sections for the first four kernels of one c2c 1000 bench run (ours
# three times, then cuFFT's).
stalls() {
  echo "######## $1"
  env "$1" ROCMATH_CACHE_DIR=/tmp/rmc-ncu timeout 200 ncu --clock-control none --cache-control none --launch-count 4 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section SchedulerStats --section LaunchStats \
    $B fft --precision single --type c2c --length 1000 --batch 65536 --device cuda --iters 1 --warmup 0 2>&1
}
case $P in
a)
  nvidia-smi -L > "$OUT/s42-a-gpu.txt"
  {
    stalls ROCMATH_FFT_TARGET_THREADS=256
    stalls ROCMATH_FFT_TARGET_THREADS=100
  } > "$OUT/s42-a-ncu.txt" 2>&1
  {
    for round in 1 2; do
      for t in 100 128 300 400 512; do
        env_ab c2c "1000" ", round $round" default "TARGET_THREADS=$t" ROCMATH_FFT_TARGET_THREADS=$t
      done
      for m in 2 3 4; do
        env_ab c2c "1000" ", round $round" default "MIN_BLOCKS=$m" ROCMATH_FFT_MIN_BLOCKS=$m
      done
      env_ab c2c "500 2000 4000 5000 100 d1000" ", round $round" default "TARGET_THREADS=128" ROCMATH_FFT_TARGET_THREADS=128
      env_ab c2c "500 2000 4000 5000 100 d1000" ", round $round" default "TARGET_THREADS=512" ROCMATH_FFT_TARGET_THREADS=512
    done
  } > "$OUT/s42-a.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s42-b-gpu.txt"
  for t in 256 400; do
    echo "######## ROCMATH_FFT_TARGET_THREADS=$t"
    ROCMATH_FFT_TARGET_THREADS=$t ROCMATH_CACHE_DIR=/tmp/rmc-ncu timeout 200 ncu --clock-control none --cache-control none --launch-skip 2 --launch-count 2 \
      --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,gpu__time_duration.sum,dram__bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
      --section SourceCounters --section InstructionStats \
      $B fft --precision single --type c2c --length 1000 --batch 65536 --device cuda --iters 1 --warmup 0 2>&1
  done > "$OUT/s42-b-ncu.txt" 2>&1
  {
    for round in 1 2; do
      for m in 6 7; do
        env_ab c2c "1000" ", round $round" default "MIN_BLOCKS=$m" ROCMATH_FFT_MIN_BLOCKS=$m
      done
      line "c2c single 1000 TARGET_THREADS=400 MIN_BLOCKS=3, round $round" ROCMATH_FFT_TARGET_THREADS=400 ROCMATH_FFT_MIN_BLOCKS=3 -- --precision single --type c2c --length 1000 --batch 67108
      line "c2c single 1000 TARGET_THREADS=400, round $round" ROCMATH_FFT_TARGET_THREADS=400 -- --precision single --type c2c --length 1000 --batch 67108
    done
  } > "$OUT/s42-b.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s42-c-gpu.txt"
  {
    for round in 1 2; do
      for c in 1000 100 500 2000 5000 d1000 h1000; do
        sweep_case $c
        m=6; [ $n = 5000 ] && m=3
        args=(--precision $p --type c2c --length $n --batch $b)
        line "c2c $p $n default, round $round" -- "${args[@]}"
        line "c2c $p $n TW_AHEAD=1, round $round" ROCMATH_FFT_TW_AHEAD=1 -- "${args[@]}"
        line "c2c $p $n MIN_BLOCKS=$m, round $round" ROCMATH_FFT_MIN_BLOCKS=$m -- "${args[@]}"
        line "c2c $p $n TW_AHEAD=1 MIN_BLOCKS=$m, round $round" ROCMATH_FFT_TW_AHEAD=1 ROCMATH_FFT_MIN_BLOCKS=$m -- "${args[@]}"
      done
    done
  } > "$OUT/s42-c.txt" 2>&1
  ROCMATH_FFT_TW_AHEAD=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 250 $B suite --only fft --device cuda > "$OUT/s42-c-fft-suite.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s42-d-gpu.txt"
  {
    ROCMATH_FFT_TW_AHEAD=1 test_run 420 fft-test
    ROCMATH_FFT_TW_AHEAD=1 test_run 40 fft_args-test
  } > "$OUT/s42-d-tests.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s42-e-gpu.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 $B suite --only fft --device cuda > "$OUT/s42-e-fft-suite.txt" 2>&1
  env_ab c2c "1000 2000 500 5000 100 375 6000 7000 h1000 2048 4096" "" default "TW_AHEAD=0" ROCMATH_FFT_TW_AHEAD=0 > "$OUT/s42-e.txt" 2>&1
  env_ab "r2c c2r" "1000 2048" "" default "TW_AHEAD=0" ROCMATH_FFT_TW_AHEAD=0 >> "$OUT/s42-e.txt" 2>&1
  ;;
f)
  nvidia-smi -L > "$OUT/s42-f-gpu.txt"
  {
    test_run 420 fft-test
    test_run 40 fft_args-test
    test_run 40 aot-test
  } > "$OUT/s42-f-tests.txt" 2>&1
  ;;
g)
  nvidia-smi -L > "$OUT/s42-g-gpu.txt"
  for round in 1 2; do
    env_ab c2c "6000 3000 5400 1200 3600 6561 2187 625 10000 8192" ", round $round" default "TW_AHEAD=0" ROCMATH_FFT_TW_AHEAD=0
  done > "$OUT/s42-g.txt" 2>&1
  ;;
h)
  nvidia-smi -L > "$OUT/s42-h-gpu.txt"
  {
    env_ab c2c "3000 6000 1200 3600 7000 5400 2187 10000 1000" "" default "TW_AHEAD=0" ROCMATH_FFT_TW_AHEAD=0
    env_ab c2c "7000 3000" "" default "TW_AHEAD=1" ROCMATH_FFT_TW_AHEAD=1
  } > "$OUT/s42-h.txt" 2>&1
  test_run 170 fft-test spread_of_lengths odd_composite radix_10_passes powers_of_2_3_5 layouts_ > "$OUT/s42-h-tests.txt" 2>&1
  ;;
esac
exit $status
