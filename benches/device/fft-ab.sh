#!/usr/bin/env bash
# A/B timings of the FFT tuning switches on the GPU machine (.carry/rocmath-bench from stage.sh):
# the plain load/store kernels on and off (ROCMATH_FFT_PLAIN) and 32-byte columns
# (ROCMATH_FFT_COLUMN_BYTES). (Its first run also timed a third four-step pass for long second
# steps, ROCMATH_FFT_STAGED_BYTES, since removed: 2x slower at 2^23 and 2^24.) Each line: our time and cuFFT's from the same run.
export ROCMATH_CACHE_DIR=/tmp/rmc
B=.carry/rocmath-bench
run() {  # label, env..., -- bench args
  local label=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "== $label: $*"
  env "${envs[@]}" $B fft "$@" --device cuda 2>&1 | grep -E "rocmath |cuFFT  |FAIL"
}
for c in "8192 8192" "16384 4096" "65536 1024" "1048576 64"; do
  set -- $c
  run "plain=0" ROCMATH_FFT_PLAIN=0 -- --precision single --type c2c --length $1 --batch $2
  run "plain=1" ROCMATH_FFT_PLAIN=1 -- --precision single --type c2c --length $1 --batch $2
done
for c in "1048576 64" "2097152 32" "4194304 16"; do
  set -- $c
  run "column=32" ROCMATH_FFT_COLUMN_BYTES=32 -- --precision single --type c2c --length $1 --batch $2
  run "column=64" ROCMATH_FFT_COLUMN_BYTES=64 -- --precision single --type c2c --length $1 --batch $2
done
