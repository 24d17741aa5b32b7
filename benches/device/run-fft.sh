#!/usr/bin/env bash
# Runs on the GPU machine (from the repo root, with .carry/rocmath-bench staged by stage.sh):
# single fft command lines covering every transform kind, placement and precision (each checked
# against the f64 reference; the cuFFT peer on the same buffers), then the FFT suite.
# Logs go to $OUT (the device tool brings them back).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_CACHE_DIR=/tmp/rocmath-cache RUST_BACKTRACE=1
B=.carry/rocmath-bench
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; ls /usr/local/cuda/lib64 2>/dev/null | grep -E "libcufft.so" | head; } 2>&1 | tee "$OUT/env.txt"
status=0
while read -r line; do
  [ -z "$line" ] && continue
  echo "== fft $line" | tee -a "$OUT/fft-lines.txt"
  timeout 120 $B fft $line --device cuda 2>&1 | tee -a "$OUT/fft-lines.txt" || status=1
done <<'CASES'
--precision single --type c2c --length 4096 --batch 64
--precision single --type c2c --inverse --length 1000x12 --batch 5 --inplace
--precision double --type r2c --length 64x30x7 --batch 3
--precision double --type r2c --length 64x30x7 --batch 3 --inplace
--precision single --type c2r --length 128x96 --batch 2
--precision single --type c2r --length 127x5x6 --batch 2 --inplace
--precision half --type c2c --length 1024 --batch 128
--precision half --type r2c --length 256x16 --batch 4
--precision single --type c2c --length 2048x2048x40
CASES
if [ "${SKIP_SUITE:-0}" != 1 ]; then
  timeout 500 $B suite --only fft --device cuda 2>&1 | tee "$OUT/fft-suite.txt" || status=1
fi
echo "exit status $status"
exit $status
