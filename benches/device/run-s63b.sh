#!/usr/bin/env bash
# Sixty-third session, second call: bw_probe with the shared-memory staged variants (h, hss, xf32 shapes).
set -uo pipefail
source benches/device/session.sh
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > "$OUT/s63b-gpu.txt"
{
  echo "== h 128^3 x 2048 (32 KiB A, B, D)"; .carry/bw_probe
  echo "== hss 128^3 x 2048 (D f32)"; .carry/bw_probe 32768 65536 2048
  echo "== xf32 64^3 x 4096"; .carry/bw_probe 16384 16384 4096
} 2>&1 | tee "$OUT/s63b-probe.txt" | grep -E "==|copy|staged|entry a block, 512|bulk copies, one block an SM, 2"
