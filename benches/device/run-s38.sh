#!/usr/bin/env bash
# Thirty-eighth session (FFT: the waits of transforms inside one warp; one twiddle entry per
# real pair). After stage.sh, carry .carry and target/prev (the previous build's bench, from the
# session's starting commit). Output: $OUT/s38-$PHASE*.txt.
# PHASE=a: real transforms and short c2c rows, this build against the previous one and against
#          block barriers everywhere (ROCMATH_FFT_WARP_SYNC=0); c2r/r2c with room for 4 blocks
#          (ROCMATH_FFT_MIN_BLOCKS=4) and with radix-8 / radix-32 rows (ROCMATH_FFT_ROW_RADIX).
# PHASE=b: with ROCMATH_REQUIRE_GPU=1: the real-transform test with batch-interleaved launches
#          fused (ROCMATH_FFT_REAL_PRE=2), then fft-test, fft_args-test and aot-test.
# PHASE=d: (target/varA and target/varB: benches of two forms of the real inverse's loads, both
#          asking room for 4 blocks of the 256-thread real kernels) c2r and r2c, each form
#          against the previous build and against one block (ROCMATH_FFT_MIN_BLOCKS=1).
# PHASE=e: the final build: real lines; then, at once, fft-test, the batch-interleaved fused
#          real test (ROCMATH_FFT_REAL_PRE=2), fft_args-test and aot-test in one process chain
#          and gemm_batched-test's split-K sweep in another (its binary carried in .carry/tests).
# PHASE=f: the final build: real 1024 (a 512-point half on 32 threads, which spills 60 bytes
#          under the 4-block bound) with room for 3 blocks and for 1, and with block barriers;
#          two rounds.
# PHASE=g: the final build: real 2048-8192 and half 4096 with room for 4 blocks (default) and
#          for 3; two rounds.
# PHASE=c: (a GEMM carry: stage.sh without the FFT test binaries; not run this session)
#          gemm_batched-test's split-K sweep in three shards at once (ROCMATH_TEST_SHARD).
source benches/device/session.sh
# both LABEL [ENV=VALUE ...] -- ARGS: the line with this build, then with the previous one.
both() {
  local label=$1; shift
  line "$label this build" "$@"
  B=target/prev/rocmath-bench line "$label previous build" "$@"
}
case $P in
a)
  nvidia-smi -L > "$OUT/s38-a-gpu.txt"
  {
    for c in 128 256 1024 2048 4096 8192 32768 d1024 h4096; do
      sweep_case $c
      for t in c2r r2c; do
        args=(--precision $p --type $t --length $n --batch $b)
        both "$t $p $n" -- "${args[@]}"
        line "$t $p $n block barriers" ROCMATH_FFT_WARP_SYNC=0 -- "${args[@]}"
      done
    done
    for n in 64 256 512; do
      args=(--precision single --type c2c --length $n --batch $(batch_for $n))
      both "c2c single $n" -- "${args[@]}"
      line "c2c single $n block barriers" ROCMATH_FFT_WARP_SYNC=0 -- "${args[@]}"
    done
    for c in 1024 2048 4096 8192; do
      sweep_case $c
      for t in c2r r2c; do
        line "$t $p $n min blocks 4" ROCMATH_FFT_MIN_BLOCKS=4 -- --precision $p --type $t --length $n --batch $b
      done
    done
    for c in 512 1024 4096; do
      sweep_case $c
      for r in 8 32; do
        line "c2r $p $n row radix $r" ROCMATH_FFT_ROW_RADIX=$r -- --precision $p --type c2r --length $n --batch $b
      done
    done
  } > "$OUT/s38-a.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s38-b-gpu.txt"
  {
    ROCMATH_FFT_REAL_PRE=2 test_run 150 fft-test real_transforms_in_one_launch
    test_run 380 fft-test
    test_run 30 fft_args-test
    test_run 30 aot-test
  } > "$OUT/s38-b-tests.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s38-d-gpu.txt"
  {
    for c in 512 1024 2048 4096 8192 16384 32768 d1024 h4096; do
      sweep_case $c
      for t in c2r r2c; do
        args=(--precision $p --type $t --length $n --batch $b)
        B=target/varA/rocmath-bench line "$t $p $n loads first (A)" -- "${args[@]}"
        [ $t = c2r ] && B=target/varB/rocmath-bench line "$t $p $n loads in the loop (B)" -- "${args[@]}"
        B=target/prev/rocmath-bench line "$t $p $n previous build" -- "${args[@]}"
        B=target/varA/rocmath-bench line "$t $p $n A, one block" ROCMATH_FFT_MIN_BLOCKS=1 -- "${args[@]}"
      done
    done
    for n in 512 1024; do
      B=target/varA/rocmath-bench line "c2r single $n A, row radix 8" ROCMATH_FFT_ROW_RADIX=8 -- --precision single --type c2r --length $n --batch $(batch_for $n)
    done
  } > "$OUT/s38-d.txt" 2>&1
  ;;
e)
  nvidia-smi -L > "$OUT/s38-e-gpu.txt"
  {
    for c in 1024 4096 8192 16384 h4096; do
      sweep_case $c
      for t in c2r r2c; do
        line "$t $p $n final build" -- --precision $p --type $t --length $n --batch $b
      done
    done
  } > "$OUT/s38-e.txt" 2>&1
  {
    test_run 400 fft-test
    ROCMATH_FFT_REAL_PRE=2 test_run 80 fft-test real_transforms_in_one_launch
    test_run 30 fft_args-test
    test_run 30 aot-test
  } > "$OUT/s38-e-tests.txt" 2>&1 &
  test_run 540 gemm_batched-test split_k_configs_match_reference > "$OUT/s38-e-split-k.txt" 2>&1
  wait
  ;;
f)
  nvidia-smi -L > "$OUT/s38-f-gpu.txt"
  {
    for round in 1 2; do
      for t in c2r r2c; do
        args=(--precision single --type $t --length 1024 --batch 65536)
        line "$t single 1024 default (4 blocks), round $round" -- "${args[@]}"
        line "$t single 1024 3 blocks, round $round" ROCMATH_FFT_MIN_BLOCKS=3 -- "${args[@]}"
        line "$t single 1024 1 block, round $round" ROCMATH_FFT_MIN_BLOCKS=1 -- "${args[@]}"
        [ $t = c2r ] && line "$t single 1024 block barriers, round $round" ROCMATH_FFT_WARP_SYNC=0 -- "${args[@]}"
      done
    done
  } > "$OUT/s38-f.txt" 2>&1
  ;;
g)
  nvidia-smi -L > "$OUT/s38-g-gpu.txt"
  {
    for round in 1 2; do
      for c in 2048 4096 8192 h4096; do
        sweep_case $c
        for t in c2r r2c; do
          args=(--precision $p --type $t --length $n --batch $b)
          line "$t $p $n default (4 blocks), round $round" -- "${args[@]}"
          line "$t $p $n 3 blocks, round $round" ROCMATH_FFT_MIN_BLOCKS=3 -- "${args[@]}"
        done
      done
    done
  } > "$OUT/s38-g.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s38-c-gpu.txt"
  for i in 0 1 2; do
    ROCMATH_TEST_SHARD=$i/3 test_run 570 gemm_batched-test "split_k_configs_match_reference --nocapture" > "$OUT/s38-c-split-k-$i.txt" 2>&1 &
  done
  wait
  ;;
esac
exit $status
