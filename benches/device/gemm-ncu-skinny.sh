#!/usr/bin/env bash
# Nsight Compute on the skinny GEMM shapes (session 13): ours with the table's pick, then the
# kernels cuBLAS runs for the same call. Full reports to $OUT/ncu-skinny-full.txt.
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
B=.carry/rocmath-bench
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section SourceCounters"
METRICS="--metrics dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg"
while read -r p m n k; do
  [ -z "$p" ] && continue
  args="gemm --precision $p --transA N --transB T -m $m -n $n -k $k --device cuda --iters 1 --warmup 0"
  echo "#### ours $p $m x $n x $k"
  timeout 150 ncu -k regex:gemm_ --launch-count 1 $SECTIONS $METRICS $B $args --no-peer 2>&1
  echo "#### cuBLAS $p $m x $n x $k"
  timeout 150 ncu -k regex:'^(?!gemm_)' --launch-count 2 $SECTIONS $METRICS $B $args 2>&1
done <<< "${CASES:-h 8192 8192 128
hss 8192 8192 128}" 2>&1 | tee "$OUT/ncu-skinny-full.txt" | grep -E "####|Duration|DRAM Throughput|dram__|lts__|l1tex__|smsp__inst|Stall|Warp Cycles|Registers|Grid Size|Block Size|Issued|Eligible|\(" | cut -c1-200
