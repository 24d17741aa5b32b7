#!/usr/bin/env bash
# Nsight Compute: every kernel of one rocmath-bench fft line, ours and cuFFT's (one run each, no
# warm-up): time, warps active, instructions, shared-memory bank conflicts, DRAM bytes, registers
# and the main stall reasons per issued instruction.
#   bash benches/device/fft-ncu-case.sh single c2c 1031 65091
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=/tmp/rmc
B=.carry/rocmath-bench
stalls=""
for s in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait math_pipe_throttle not_selected selected no_instruction membar; do
  stalls="$stalls,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
metrics="gpu__time_duration.sum,smsp__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem$stalls"
args=(fft --precision "$1" --type "$2" --length "$3" --batch "$4" --device cuda --iters 1 --warmup 0)
$B "${args[@]}" > /dev/null 2>&1
timeout 240 ncu --launch-count 16 --metrics "$metrics" $B "${args[@]}" 2>&1 | grep -vE "==PROF==|^  check" | grep -E "^  [a-zA-Z_]|smsp__|l1tex__|dram__|gpu__|launch__|rocmath |cuFFT "
