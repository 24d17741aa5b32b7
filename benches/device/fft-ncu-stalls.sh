#!/usr/bin/env bash
# Nsight Compute: where the warps of the FFT kernels stall (per issued instruction), instructions
# executed, shared-memory bank conflicts and DRAM bytes, for the two kernels of 2^20 (four-step)
# and the 8192 / 16384 single passes. Runs on the GPU machine with .carry/rocmath-bench staged.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=/tmp/rmc
B=.carry/rocmath-bench
stalls=""
for s in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait math_pipe_throttle not_selected selected dispatch_stall no_instruction branch_resolving drain membar tex_throttle imc_miss sleeping misc; do
  stalls="$stalls,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
metrics="smsp__inst_executed.sum,smsp__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__registers_per_thread,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum$stalls"
for c in "1048576 64 2" "8192 8192 1" "16384 4096 1"; do
  set -- $c
  $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 0 --no-peer > /dev/null 2>&1
  timeout 150 ncu -k regex:fft_ss --launch-skip $3 --launch-count $3 --metrics "$metrics" \
    $B fft --precision single --type c2c --length $1 --batch $2 --device cuda --iters 1 --warmup 1 --no-peer 2>&1 | grep -E "fft_ss|smsp__|l1tex__|dram__|gpu__|launch__" | grep -v "==PROF=="
done
