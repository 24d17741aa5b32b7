#!/usr/bin/env bash
# Times two settings of ROCMATH_FFT_COLUMN_BYTES on the four-step and 3D cases (compiles logged).
# Runs on the GPU machine with .carry/rocmath-bench staged by stage.sh.
export ROCMATH_CACHE_DIR=/tmp/rmc ROCMATH_LOG_COMPILE=1
B=.carry/rocmath-bench
for cb in 128 64; do
  export ROCMATH_FFT_COLUMN_BYTES=$cb
  for c in "32768 2048" "65536 1024" "1048576 64" "4194304 16" "16777216 4"; do
    set -- $c
    echo "== cb $cb single $1 x $2"; $B fft --precision single --type c2c --length $1 --batch $2 --device cuda 2>&1 | grep -E "compiled|rocmath |cuFFT  |FAIL"
  done
  echo "== cb $cb double 2^20"; $B fft --precision double --type c2c --length 1048576 --batch 64 --device cuda 2>&1 | grep -E "compiled|rocmath |cuFFT  |FAIL"
  echo "== cb $cb 512^3 r2c"; $B fft --precision single --type r2c --length 512x512x512 --batch 1 --device cuda 2>&1 | grep -E "compiled|rocmath |cuFFT  |FAIL"
  echo "== cb $cb 256^3"; $B fft --precision single --type c2c --length 256x256x256 --batch 1 --device cuda 2>&1 | grep -E "compiled|rocmath |cuFFT  |FAIL"
done
