#!/usr/bin/env bash
# Sixty-third session: the memory ceiling of the small-batch GEMM traffic (bw_probe) beside the
# h / hss 128^3 x 2048 lines, ours (table pick and 128x128 s6) and cuBLAS, on one machine.
# Carry: .carry/rocmath-bench and .carry/bw_probe (cargo build --release -p rocmath-bench --example bw_probe).
set -uo pipefail
source benches/device/session.sh
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/s63-gpu.txt"
{
  echo "== h 128^3 x 2048 (32 KiB A, B, D)"; .carry/bw_probe
  echo "== hss 128^3 x 2048 (D f32)"; .carry/bw_probe 32768 65536 2048
  echo "== xf32 64^3 x 4096"; .carry/bw_probe 16384 16384 4096
  echo "== d 128^3 x 2048"; .carry/bw_probe 131072 131072 2048
} 2>&1 | tee "$OUT/s63-probe.txt"
g() { $B gemm --device cuda --iters 10 --transA N --transB T "$@" 2>&1 | grep -E "ratio|error|Error"; }
{
  for r in 1 2; do
    echo "== round $r"
    g --precision h -m 128 -n 128 -k 128 --batch 2048
    g --precision h -m 128 -n 128 -k 128 --batch 2048 --config mt128x128x64_w2x1_s6_x_g8_o1_wgmma64xnx16f16
    g --precision hss -m 128 -n 128 -k 128 --batch 2048
    g --precision xf32 -m 64 -n 64 -k 64 --batch 4096
  done
} | tee "$OUT/s63-lines.txt"
