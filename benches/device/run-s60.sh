#!/usr/bin/env bash
# After the fifty-ninth session's merge of the 16-bit TN/TT squares (tuner timings only, no
# device time left for bench lines): the six changed entries against cuBLAS, each with its new
# table pick and with the config it replaced (--config), two rounds in turns; then issue 3's goals
# run (NT, every batched precision) while A_UNTIL (default 560 s) allows. Stage first
# (`GEMM_AOT=1 bash benches/device/stage.sh`); carry .carry/rocmath-bench,
# .carry/rocmath-kernels.aot.gz (and .carry/rocmath-tune for run-s58.sh's phase b: the four entries
# still measured on the H200 are its steps 28-31, `PHASE=b B_FROM=27 bash benches/device/run-s58.sh`).
# PHASE=c, d: see below. Kind nvidia-h100-x1. Output: $OUT/s60-$PHASE*.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s60-$P-gpu.txt"
# precision layout size config-it-replaced
changed=(
  "bss TN 1024 mt64x64x64_w1x1_s4_x_g8_o3_wgmma64xnx16bf16"
  "hss TN 1024 mt64x128x64_w1x1_s8_x_g8_o1_wgmma64xnx16f16"
  "hss TN 4096 mt128x256x64_w2x1_s3_x_g8_o1_wgmma64xnx16f16"
  "hss TT 4096 mt128x256x64_w2x1_s3_x_g8_o1_wgmma64xnx16f16"
  "h TN 4096 mt128x256x64_w2x1_s3_x_g8_o1_wgmma64xnx16f16"
  "h TN 8192 mt128x256x64_w2x1_s3_x_g8_o1_wgmma64xnx16f16"
)
case $P in
a)
  for round in 1 2; do
    for c in "${changed[@]}"; do
      set -- $c
      args=(--precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $3 -k $3)
      bench_line s60-a-lines "r$round $1 $2 $3 table" "${args[@]}"
      bench_line s60-a-lines "r$round $1 $2 $3 replaced" "${args[@]}" --config $4
    done
  done
  lines_table s60-a-lines
  left=$(( ${A_UNTIL:-560} - SECONDS )); [ $left -gt 30 ] || left=30
  BATCH_PRECISIONS="hss bss h s d xf32" timeout $left bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv "$OUT/goals.txt" "$OUT/s60-a-goals.txt"; mv "$OUT/goals-full.txt" "$OUT/s60-a-goals-full.txt"
  goals_table s60-a-goals
  ;;
c)
  # Phase a's lines ran each pair in the same order (table pick first); for the two entries where
  # they disagreed with the tuner (hss TN 1024, h TN 8192), three rounds with the order turned
  # every round. Then the last entry still measured on the H200 (h TT 4096 x 4096 x 65536), which
  # the 60 s and 120 s step limits stopped twice, with C_STEP_TIMEOUT (default 300).
  pairs=(
    "hss TN 1024 mt128x64x64_w2x1_s6_x_g8_o1_wgmma64xnx16f16 mt64x128x64_w1x1_s8_x_g8_o1_wgmma64xnx16f16"
    "h TN 8192 mt128x256x64_w2x1_s3m_x_g8_o1_wgmma64xnx16f16 mt128x256x64_w2x1_s3_x_g8_o1_wgmma64xnx16f16"
  )
  for round in 1 2 3; do
    for c in "${pairs[@]}"; do
      set -- $c
      args=(--precision $1 --transA ${2:0:1} --transB ${2:1:1} -m $3 -n $3 -k $3)
      first=$4 second=$5
      [ $((round % 2)) = 0 ] && first=$5 second=$4
      bench_line s60-c-lines "r$round $1 $2 $3 ${first%%_x_*}" "${args[@]}" --config $first
      bench_line s60-c-lines "r$round $1 $2 $3 ${second%%_x_*}" "${args[@]}" --config $second
    done
  done
  lines_table s60-c-lines
  STEP_TIMEOUT=${C_STEP_TIMEOUT:-300} tune_step s60-c-summary.txt h TT 4096x4096x65536
  (cd "$OUT" && tar czf s60-c-tables.tgz tables tune-*.log && rm -rf tables tune-*.log)
  ;;
d)
  # Nsight Compute (full set and stall reasons) on ours and cuBLAS at h 128^3 x 2048 NT, the
  # furthest-short batched case (0.937 in phase a), for the next kernel change.
  mkdir -p "$OUT/ncu"
  ncu_case h128 h 128 2048
  grep -E "Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Block Size|Grid Size|Shared Memory Config" "$OUT"/ncu/h128-*.txt | cut -c1-160
  (cd "$OUT" && tar czf s60-d-ncu.tgz ncu && rm -rf ncu)
  ;;
esac
exit $status
