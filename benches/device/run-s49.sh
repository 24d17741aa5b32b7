#!/usr/bin/env bash
# Forty-ninth session. Stage first: `TESTS="fft aot" bash benches/device/stage.sh`, carry .carry.
# Output: $OUT/s49-$PHASE*.txt.
# PHASE=a: persistent one-transform row kernels (`StockhamKernel::persistent`, RM_FFT_PERSISTENT:
#          a block per resident slot, each taking every grid-th transform): fft-test on them;
#          the default (16384 and 8192 single and half) against ROCMATH_FFT_PERSISTENT=0, two
#          rounds; the other lengths the next-block prefetch covers (and 4096, 2048) with every
#          plain one-transform row kernel persistent (=2) against the default, one round.
# PHASE=b: the next-block prefetch's distance from the driver's occupancy figure (`next_blocks`,
#          the default now) against the generator's estimate (ROCMATH_FFT_NEXT_BLOCKS=model),
#          two rounds, over the lengths whose kernels prefetch; fft-test and aot-test.
# PHASE=c: (with the runtime gate: no prefetch where the driver says an SM holds more than two
#          blocks) every plain one-transform row kernel compiled with the prefetch
#          (ROCMATH_FFT_NEXT_PREFETCH=2) against the default rule (the generator's estimate
#          of at most two), two rounds; fft-test.
# PHASE=d: the pass before which the prefetch is asked for (ROCMATH_FFT_NEXT_PREFETCH_AT 0-3,
#          the last by default) and none, at lengths whose kernels an SM holds two of or whose
#          distance changed in phase b; one round.
# PHASE=e: (the final build, without the gate) fft-test; the largest odd composite radix
#          (ROCMATH_FFT_ODD_RADIX) at the weakest mid lengths (3375, 9000, 4860, 10000), one
#          round.
# PHASE=f: a larger odd cap where it saves two passes (`cuts_passes`: 3375 as 15 15 15, 6000 as
#          16 25 15) against ROCMATH_FFT_CUT_PASSES=0, every precision, two rounds; fft-test
#          odd_composite_radices (which now holds both).
# PHASE=g: (the review's build: next_blocks recorded at plan creation, not asked per launch)
#          fft-test; 9000 and 7560 single against the estimate, one round.
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s49-a-gpu.txt"
  test_run 200 fft-test long_rows_in_batches_past_one_wave powers_of_2_3_5 > "$OUT/s49-a-fft-tests.txt"
  for r in r1 r2; do
    env_ab c2c "16384 8192 h16384 h8192" " $r" persistent none ROCMATH_FFT_PERSISTENT=0
  done > "$OUT/s49-a-fft.txt" 2>&1
  env_ab c2c "9000 10000 12000 4860 7560 6561 4096 2048 d8192" " r1" rule every ROCMATH_FFT_PERSISTENT=2 >> "$OUT/s49-a-fft.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s49-b-gpu.txt"
  test_run 150 fft-test long_rows_in_batches_past_one_wave powers_of_2_3_5 odd_composite_radices > "$OUT/s49-b-fft-tests.txt"
  test_run 60 aot-test >> "$OUT/s49-b-fft-tests.txt"
  for r in r1 r2; do
    env_ab c2c "9000 4860 5000 6561 7560 10000 12000 15625 6144 3375 16384 8192 h16384 h10000 d8192 d4096 d5000" " $r" driver model ROCMATH_FFT_NEXT_BLOCKS=model
  done > "$OUT/s49-b-fft.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s49-c-gpu.txt"
  test_run 120 fft-test long_rows_in_batches_past_one_wave powers_of_2_3_5 > "$OUT/s49-c-fft-tests.txt"
  for r in r1 r2; do
    env_ab c2c "2048 2187 2401 3000 3125 4096 4374 5400 6000 7000 7203 9000 h4096 h8192 d2048 d3000 d4096" " $r" default every ROCMATH_FFT_NEXT_PREFETCH=2
  done > "$OUT/s49-c-fft.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s49-d-gpu.txt"
  for c in 9000 7560 4860 3375 5000; do
    sweep_case $c
    args=(--precision $p --type c2c --length $n --batch $b)
    line "c2c $p $n default" -- "${args[@]}"
    line "c2c $p $n none" ROCMATH_FFT_NEXT_PREFETCH=0 -- "${args[@]}"
    for at in 0 1 2 3; do line "c2c $p $n at$at" ROCMATH_FFT_NEXT_PREFETCH_AT=$at -- "${args[@]}"; done
  done > "$OUT/s49-d-fft.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s49-e-gpu.txt"
  test_run 120 fft-test long_rows_in_batches_past_one_wave powers_of_2_3_5 > "$OUT/s49-e-fft-tests.txt"
  for c in 3375 9000 4860 10000; do
    sweep_case $c
    args=(--precision $p --type c2c --length $n --batch $b)
    line "c2c $p $n default" -- "${args[@]}"
    for cap in 1 9 15 25 27; do line "c2c $p $n odd$cap" ROCMATH_FFT_ODD_RADIX=$cap -- "${args[@]}"; done
  done > "$OUT/s49-e-fft.txt" 2>&1
  ;;
f)
  nvidia-smi -L > "$OUT/s49-f-gpu.txt"
  test_run 150 fft-test odd_composite_radices > "$OUT/s49-f-fft-tests.txt"
  for r in r1 r2; do
    env_ab c2c "3375 6000 d3375 d6000 h3375 h6000" " $r" cut kept ROCMATH_FFT_CUT_PASSES=0
  done > "$OUT/s49-f-fft.txt" 2>&1
  ;;
g)
  nvidia-smi -L > "$OUT/s49-g-gpu.txt"
  test_run 100 fft-test long_rows_in_batches_past_one_wave > "$OUT/s49-g-fft-tests.txt"
  env_ab c2c "9000 7560" " r1" driver model ROCMATH_FFT_NEXT_BLOCKS=model > "$OUT/s49-g-fft.txt" 2>&1
  ;;
esac
exit $status
