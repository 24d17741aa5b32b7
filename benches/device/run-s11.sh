#!/usr/bin/env bash
# Eleventh session (H100): the ahead-of-time kernel cache. Run from the repository root on the
# device machine after benches/device/stage.sh (which puts .carry/rocmath-kernels.aot, built
# without a GPU by rocmath-aot with nvrtc 13.0, beside .carry/rocmath-bench).
#   PHASE=a : the GPU and driver; the aot GPU test; truly cold plan creation (fresh process,
#             empty kernel cache, CUDA_CACHE_DISABLE=1) of seven cases with the file and
#             without it (ROCMATH_AOT_CACHE= set empty), alternating; the FFT suite with the
#             file, driver cache off and an empty kernel cache (every case's cold plan, and its
#             speed with the ahead-of-time kernels).
#   PHASE=b : every FFT GPU test (no file beside the test binaries: kernels compiled at run
#             time, as before).
#   PHASE=c : staged loads by cp.async against through registers (ROCMATH_FFT_STAGE_ASYNC=0),
#             alternating, two rounds, on the four-step cases and a 3D one; then the register
#             and occupancy figures of the 2^20 kernels under ncu. Output: s11-stage-async.txt,
#             s11-ncu-stage.txt.
set -uo pipefail
B=.carry/rocmath-bench
OUT=${OUT:-/tmp/out}
PHASE=${PHASE:-a}
export ROCMATH_REQUIRE_GPU=1
source "$(dirname "$0")/line.sh"
if [ "$PHASE" = a ]; then
  { nvidia-smi --query-gpu=name,driver_version --format=csv; nvidia-smi | grep -o "CUDA Version: [0-9.]*"; ls -la .carry/rocmath-kernels.aot; } 2>&1 | tee "$OUT/s11-gpu.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 300 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked|assert" | tee "$OUT/s11-aot-test.txt"
  {
    for c in "--precision single --type c2c --length 4096 --batch 8" "--precision single --type c2c --length 16384 --batch 8" \
             "--precision single --type c2c --length 1048576 --batch 2" "--precision double --type c2c --length 1048576 --batch 2" \
             "--precision half --type c2c --length 1024 --batch 8" "--precision single --type r2c --length 512x512x512 --batch 1" \
             "--precision single --type c2c --length 4099 --batch 8"; do
      for aot in with without; do
        d=/tmp/cold-$RANDOM; echo "== $c ($aot the AOT file)"
        if [ $aot = with ]; then
          CUDA_CACHE_DISABLE=1 ROCMATH_CACHE_DIR=$d timeout 120 $B fft $c --device cuda --no-peer 2>&1 | grep -E "compiler start|plan:|check"
        else
          ROCMATH_AOT_CACHE= CUDA_CACHE_DISABLE=1 ROCMATH_CACHE_DIR=$d timeout 120 $B fft $c --device cuda --no-peer 2>&1 | grep -E "compiler start|plan:|check"
        fi
        rm -rf $d
      done
    done
  } 2>&1 | tee "$OUT/s11-cold-aot.txt"
  CUDA_CACHE_DISABLE=1 ROCMATH_CACHE_DIR=/tmp/rmc-suite timeout 400 $B suite --only fft --device cuda 2>&1 | tee "$OUT/s11-fft-suite-aot.txt"
fi
if [ "$PHASE" = b ]; then
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 400 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked" | tee "$OUT/s11-fft-test.txt"
fi
if [ "$PHASE" = c ]; then
  {
    for round in 1 2; do
      for c in "single 131072 512" "single 262144 256" "single 524288 128" "single 1048576 64" "single 2097152 32" "single 4194304 16" \
               "single 8388608 8" "single 16777216 4" "double 1048576 64" "single 512x512x512 1 r2c"; do
        set -- $c
        for a in 1 0; do line "round $round async=$a" ROCMATH_FFT_STAGE_ASYNC=$a -- --precision $1 --type ${4:-c2c} --length $2 --batch $3; done
      done
    done
  } 2>&1 | tee "$OUT/s11-stage-async.txt"
  export PATH=/usr/local/cuda/bin:$PATH
  for a in 1 0; do
    echo "== async=$a"
    ROCMATH_FFT_STAGE_ASYNC=$a ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 ncu --launch-count 2 --section SpeedOfLight --section Occupancy --section LaunchStats \
      $B fft --precision single --type c2c --length 1048576 --batch 64 --device cuda --iters 1 --warmup 0 --no-peer 2>&1 \
      | grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy"
  done 2>&1 | tee "$OUT/s11-ncu-stage.txt"
fi
#   PHASE=d : ncu metrics of the four-step kernels, ours (cp.async staging) and cuFFT's, for
#             2^20 x 64 and 2^22 x 16: instructions, DRAM bytes, stall reasons per issue.
#             Output: s11-ncu-metrics.txt.
if [ "$PHASE" = d ]; then
  export PATH=/usr/local/cuda/bin:$PATH
  m=gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
  m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  for r in long_scoreboard barrier mio_throttle lg_throttle short_scoreboard wait math_pipe_throttle not_selected selected drain membar; do
    m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  for c in "1048576 64" "4194304 16"; do
    set -- $c
    echo "== single $1 x $2"
    ROCMATH_CACHE_DIR=/tmp/rmc $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 > /dev/null 2>&1
    ROCMATH_CACHE_DIR=/tmp/rmc timeout 250 ncu --launch-count 8 --metrics $m \
      $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 2>&1 | grep -v "^  check\|^\[\|^  cuFFT check\|^  plan"
  done 2>&1 | tee "$OUT/s11-ncu-metrics.txt"
fi
#   PHASE=e : after the four-step twiddle change (a per-thread base and a coalesced step table)
#             and the cheaper cp.async addressing: the stage A/B again (one round), then every
#             FFT GPU test. Output: s11-twiddle-ab.txt, s11-fft-test-2.txt.
if [ "$PHASE" = e ]; then
  {
    for c in "single 131072 512" "single 262144 256" "single 524288 128" "single 1048576 64" "single 2097152 32" "single 4194304 16" \
             "single 8388608 8" "single 16777216 4" "double 1048576 64" "single 512x512x512 1 r2c"; do
      set -- $c
      for a in 1 0; do line "async=$a" ROCMATH_FFT_STAGE_ASYNC=$a -- --precision $1 --type ${4:-c2c} --length $2 --batch $3; done
    done
  } 2>&1 | tee "$OUT/s11-twiddle-ab.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" | tee "$OUT/s11-fft-test-2.txt"
fi
#   PHASE=f : three builds of rocmath-bench side by side (stage .carry/rocmath-bench-A and -B by
#             hand): A = d9cafca (cp.async staging), B = 71d6f8e (+ four-step twiddle base read
#             before the passes, compile-time staging offsets), C = .carry/rocmath-bench (base
#             read in the last pass). Two rounds over 2^17-2^24, alternating. Output:
#             s11-twiddle-abc.txt.
if [ "$PHASE" = f ]; then
  {
    for round in 1 2; do
      for c in "131072 512" "262144 256" "524288 128" "1048576 64" "2097152 32" "4194304 16" "8388608 8" "16777216 4"; do
        set -- $c
        for v in A B C; do
          b=$B; [ $v = C ] || b=$B-$v
          echo "== round $round build $v: $1 x $2"
          ROCMATH_CACHE_DIR=/tmp/rmc timeout 120 $b fft --precision single --type c2c --length $1 --batch $2 --device cuda 2>&1 | grep -E "rocmath |cuFFT  |FAIL|error|check: [^o]"
        done
      done
    done
  } 2>&1 | tee "$OUT/s11-twiddle-abc.txt"
fi
#   PHASE=g : column width 32 against 64 bytes (ROCMATH_FFT_COLUMN_BYTES) on 2^17-2^24 with the
#             final kernels, two rounds alternating. Output: s11-column-bytes.txt.
if [ "$PHASE" = g ]; then
  {
    for round in 1 2; do
      for c in "131072 512" "262144 256" "524288 128" "1048576 64" "2097152 32" "4194304 16" "8388608 8" "16777216 4"; do
        set -- $c
        for cb in 64 32; do line "round $round column bytes $cb" ROCMATH_FFT_COLUMN_BYTES=$cb -- --precision single --type c2c --length $1 --batch $2; done
      done
    done
  } 2>&1 | tee "$OUT/s11-column-bytes.txt"
fi
#   PHASE=h : the build with 512-thread column blocks (column_tpb): every FFT GPU test, the aot
#             test, the FFT suite, and double 2^20 with room for 3 and 4 blocks per SM
#             (ROCMATH_FFT_MIN_BLOCKS) against the default, alternating. Output:
#             s11-fft-test-3.txt, s11-fft-suite.txt, s11-double-blocks.txt.
if [ "$PHASE" = h ]; then
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s11-fft-test-3.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 120 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked" >> "$OUT/s11-fft-test-3.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 $B suite --only fft --device cuda > "$OUT/s11-fft-suite.txt" 2>&1
  {
    for round in 1 2; do
      for mb in default 3 4; do
        if [ $mb = default ]; then line "round $round min blocks default" -- --precision double --type c2c --length 1048576 --batch 64
        else line "round $round min blocks $mb" ROCMATH_FFT_MIN_BLOCKS=$mb -- --precision double --type c2c --length 1048576 --batch 64; fi
      done
    done
  } > "$OUT/s11-double-blocks.txt" 2>&1
fi
#   PHASE=i : 16-byte column blocks (ROCMATH_FFT_COLUMN_BYTES=16: every column kernel takes 2
#             transforms, so the 4096-point ones get 512 threads) against the default at 2^23 and
#             2^24, three rounds alternating. Output: s11-column-16.txt.
if [ "$PHASE" = i ]; then
  {
    for round in 1 2 3; do
      for c in "8388608 8" "16777216 4"; do
        set -- $c
        for cb in 64 16; do line "round $round column bytes $cb" ROCMATH_FFT_COLUMN_BYTES=$cb -- --precision single --type c2c --length $1 --batch $2; done
      done
    done
  } 2>&1 | tee "$OUT/s11-column-16.txt"
fi
#   PHASE=j : column kernels with radix-8 passes (ROCMATH_FFT_COLUMN_RADIX=8: twice the threads
#             per transform, half the registers) against radix 16, two rounds alternating, on
#             the cases whose column passes are 512-2048 points. Output: s11-column-radix.txt.
if [ "$PHASE" = j ]; then
  {
    for round in 1 2; do
      for c in "single 131072 512" "single 262144 256" "single 524288 128" "single 1048576 64" "single 2097152 32" "single 4194304 16" \
               "double 1048576 64" "single 512x512x512 1 r2c" "single 256x256x256 1"; do
        set -- $c
        for r in 16 8; do line "round $round column radix $r" ROCMATH_FFT_COLUMN_RADIX=$r -- --precision $1 --type ${4:-c2c} --length $2 --batch $3; done
      done
    done
  } 2>&1 | tee "$OUT/s11-column-radix.txt"
fi
#   PHASE=k : the final build (f64 column kernels in radix-8 passes): every FFT GPU test, the aot
#             test and the FFT suite. Output: s11-fft-test-final.txt, s11-fft-suite-final.txt.
if [ "$PHASE" = k ]; then
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 300 .carry/tests/fft-test --test-threads 16 2>&1 | grep -E "^test |test result|panicked|failed" > "$OUT/s11-fft-test-final.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 100 .carry/tests/fft_args-test 2>&1 | grep -E "test result|panicked" >> "$OUT/s11-fft-test-final.txt"
  ROCMATH_CACHE_DIR=/tmp/rmc-aot-test timeout 120 .carry/tests/aot-test 2>&1 | grep -E "^test |test result|panicked" >> "$OUT/s11-fft-test-final.txt"
  CUDA_CACHE_DISABLE=1 ROCMATH_CACHE_DIR=/tmp/rmc-final timeout 300 $B suite --only fft --device cuda > "$OUT/s11-fft-suite-final.txt" 2>&1
fi
#   PHASE=l : single passes in radix 8 (ROCMATH_FFT_ROW_RADIX=8; 8192 then runs as a cluster of
#             two 4096-point blocks of 512 threads, or, with ROCMATH_FFT_CLUSTER=0, as one
#             1024-thread block) against the default (radix 16; 8192 spills 56 bytes at its
#             two-block bound), two rounds alternating. Output: s11-row-radix.txt.
if [ "$PHASE" = l ]; then
  {
    for round in 1 2; do
      for c in "2048 32768" "4096 16384" "8192 8192" "16384 4096"; do
        set -- $c
        line "round $round radix 16" -- --precision single --type c2c --length $1 --batch $2
        line "round $round radix 8" ROCMATH_FFT_ROW_RADIX=8 -- --precision single --type c2c --length $1 --batch $2
        line "round $round radix 8 no clusters" ROCMATH_FFT_ROW_RADIX=8 ROCMATH_FFT_CLUSTER=0 -- --precision single --type c2c --length $1 --batch $2
      done
    done
  } 2>&1 | tee "$OUT/s11-row-radix.txt"
fi
#   PHASE=m : GEMM kernels from the ahead-of-time file (stage by hand: .carry/rocmath-bench and a
#             `rocmath-aot --gemm` file beside it, no test binaries): a fresh process per case,
#             driver cache off, empty kernel cache, ROCMATH_LOG_COMPILE=1, with the file and
#             without it (ROCMATH_AOT_CACHE=). Output: s11-gemm-aot.txt.
if [ "$PHASE" = m ]; then
  {
    for c in "h N T 4096" "hss N T 1024" "s N T 1024" "d N T 1024" "xf32 N T 1024" "bss T N 64"; do
      set -- $c
      for aot in with without; do
        echo "== $1 $2$3 $4 ($aot the file)"
        d=/tmp/g-$RANDOM
        s=$(date +%s.%N)
        if [ $aot = with ]; then
          CUDA_CACHE_DISABLE=1 ROCMATH_CACHE_DIR=$d ROCMATH_LOG_COMPILE=1 timeout 120 $B gemm --precision $1 --transA $2 --transB $3 -m $4 -n $4 -k $4 --device cuda 2>&1 | grep -E "compiled|rocmath |cublas |check"
        else
          ROCMATH_AOT_CACHE= CUDA_CACHE_DISABLE=1 ROCMATH_CACHE_DIR=$d ROCMATH_LOG_COMPILE=1 timeout 120 $B gemm --precision $1 --transA $2 --transB $3 -m $4 -n $4 -k $4 --device cuda 2>&1 | grep -E "compiled|rocmath |cublas |check"
        fi
        echo "  process wall: $(python3 -c "print(round($(date +%s.%N) - $s, 2))") s"
        rm -rf $d
      done
    done
  } 2>&1 | tee "$OUT/s11-gemm-aot.txt"
fi
