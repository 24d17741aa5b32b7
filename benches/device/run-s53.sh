#!/usr/bin/env bash
# Fifty-third session. Stage first (the bench and the fft and gemm test binaries rebuilt into
# .carry), carry .carry. Output: $OUT/s53-$PHASE*.txt.
# PHASE=a: FFT: the last pass's stores as bulk copies from shared memory (ROCMATH_FFT_BULK_STORE=1,
#          an A/B switch: `bulk_store` in kernels/src/gen/fft.rs) against the default at 16384
#          single and half, 8192 single and double 8192, two rounds; fft-test with it. GEMM:
#          Nsight Compute on cuBLAS's kernel and ours at h NT 8192 x 8192 x 128 (launch stats,
#          memory workload: is the L2 the bound?).
# PHASE=b: GEMM clusters of two sharing B by multicast (`m` configs, MULTICAST in gemm_sm90.hip):
#          every module compiled first (8 at a time); h NT 8192 x 8192 x 128 and the other
#          16-bit families, NT and NN, 128 x 256 s3 against s3m and s4m, and the 128 x 128
#          ones, two rounds; then gemm-test's multicast test and the split-K one on the
#          multicast split config. Run twice: first with the consumers' remote arrivals as
#          releases at cluster scope (s53-b-first.txt: 30-50 % slower, phase c says why), then
#          with the default release (s53-b.txt).
# PHASE=d: (after the review: the tile-edge tests' shared loop, rm_cluster_rank in the prelude)
#          the multicast and split-K tile-edge tests again.
# PHASE=c: Nsight Compute on the multicast kernel and its plain twin (clusters resident, SMs
#          busy, barrier and memory-barrier stalls).
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s53-$P-gpu.txt"
# ncu_shape NAME BENCH-ARGS...: ncu (full set) on ours (the first gemm_ kernel) and cuBLAS's
# kernel into $OUT/ncu/NAME-{ours,cublas}.txt.
ncu_shape() {
  local name=$1; shift
  mkdir -p "$OUT/ncu"
  timeout 200 ncu --clock-control none -k regex:gemm_ --launch-count 1 --set full $B gemm --device cuda --iters 1 --warmup 0 --no-peer "$@" > "$OUT/ncu/$name-ours.txt" 2>&1 || status=1
  timeout 200 ncu --clock-control none -k 'regex:^(?!gemm_)' --launch-count 1 --set full $B gemm --device cuda --iters 1 --warmup 0 "$@" > "$OUT/ncu/$name-cublas.txt" 2>&1 || status=1
  grep -E "^  [a-zA-Z_]|Duration|L2 Cache Throughput|DRAM Throughput|Memory Throughput|Cluster Size|Grid Size|Block Size|Registers Per|Shared Memory Config|L1/TEX Hit|L2 Hit|Compute \(SM\)" "$OUT/ncu/$name-ours.txt" "$OUT/ncu/$name-cublas.txt" | cut -c1-160
}
case $P in
a)
  for r in r1 r2; do
    for c in 16384 h16384 8192 d8192; do
      sweep_case $c
      a=(--precision $p --type c2c --length $n --batch $b)
      line "c2c $p $n default $r" -- "${a[@]}"
      line "c2c $p $n bulk $r" ROCMATH_FFT_BULK_STORE=1 -- "${a[@]}"
    done
  done > "$OUT/s53-a-fft.txt" 2>&1
  grep -E "^==|rocmath " "$OUT/s53-a-fft.txt" | paste - - | sed 's/: --precision.*rocmath//' | cut -c1-150
  echo "fft lines done at $SECONDS s"
  ROCMATH_FFT_BULK_STORE=1 test_run 240 fft-test long_rows_in_batches_past_one_wave powers_of_2_3_5 > "$OUT/s53-a-fft-tests.txt"
  cat "$OUT/s53-a-fft-tests.txt" | tail -5
  echo "fft tests done at $SECONDS s"
  ncu_shape h8192x8192x128 --precision h --transA N --transB T -m 8192 -n 8192 -k 128
  ;;
b)
  mc="mt128x256x64_w2x1_s3m_x_g8_o1 mt128x256x64_w2x1_s4m_x_g8_o1 mt128x128x64_w2x1_s4m_x_g8_o1 mt128x128x64_w2x1_s6m_x_g8_o1 mt128x128x64_w2x1_s4m_x_g8_o1_k2"
  base="mt128x256x64_w2x1_s3_x_g8_o1 mt128x128x64_w2x1_s6_x_g8_o1"
  atom() { [ ${1:0:1} = b ] && echo bf16 || echo f16; }
  for f in h hss bss hhs; do for c in $mc $base; do
    ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $f --transA N --transB T -m 256 -n 256 -k 64 --config ${c}_wgmma64xnx16$(atom $f) > /dev/null 2>&1 ) &
    while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
  done; done
  wait
  echo "compiled at $SECONDS s"
  # (a quick line first: a cluster kernel that hangs shows here, under a short timeout)
  BENCH_TIMEOUT=30 bench_line s53-b "probe h NT s3m" --precision h --transA N --transB T -m 8192 -n 8192 -k 128 --config mt128x256x64_w2x1_s3m_x_g8_o1_wgmma64xnx16f16
  grep -q "ratio" "$OUT/s53-b.txt" || { echo "probe failed"; exit 1; }
  for r in r1 r2; do for f in h hss bss; do for l in NT NN; do for c in $base ${mc% *}; do
    [ $c = mt128x128x64_w2x1_s4m_x_g8_o1 ] && continue
    [ $l = NN ] && [ $f != h ] && continue
    bench_line s53-b "$f $l 8192x8192x128 $c $r" --precision $f --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 --config ${c}_wgmma64xnx16$(atom $f) > /dev/null
  done; done; done; done
  for r in r1 r2; do for s in 4096 8192; do for c in mt128x256x64_w2x1_s3_x_g8_o1 mt128x256x64_w2x1_s4_x_g8_o1 mt128x256x64_w2x1_s3m_x_g8_o1 mt128x256x64_w2x1_s4m_x_g8_o1; do
    bench_line s53-b "h NT ${s}^3 $c $r" --precision h --transA N --transB T -m $s -n $s -k $s --config ${c}_wgmma64xnx16f16 > /dev/null
  done; done; done
  lines_table s53-b
  echo "lines done at $SECONDS s"
  ROCMATH_TEST_CONFIGS=s3m,s4m,s6m TEST_TIMEOUT=300 tests_in_parallel s53-b-tests.txt \
    "gemm-test wgmma_multicast_configs_at_tile_edges" "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges"
  echo "tests done at $SECONDS s"
  ;;
c)
  # Nsight Compute on the multicast kernel against its plain twin (phase b: 30-50 % slower):
  # how many clusters run at once, and whether some SMs idle.
  mkdir -p "$OUT/ncu"
  for c in mt128x256x64_w2x1_s3m_x_g8_o1 mt128x256x64_w2x1_s3_x_g8_o1; do for k in 128 8192; do
    timeout 200 ncu --clock-control none -k regex:gemm_ --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
      --metrics sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg,smsp__warps_issue_stalled_barrier,smsp__warps_issue_stalled_membar \
      $B gemm --device cuda --iters 1 --warmup 0 --no-peer --precision h --transA N --transB T -m 8192 -n 8192 -k $k --config ${c}_wgmma64xnx16f16 > "$OUT/ncu/$c-k$k.txt" 2>&1 || status=1
    echo "== $c k=$k"; grep -E "Duration|Cluster|cycles_active|Waves|Stall|stalled|Achieved Occ|Block Limit|Grid Size" "$OUT/ncu/$c-k$k.txt" | cut -c1-140
  done; done
  ;;
d)
  ROCMATH_TEST_CONFIGS=s3m,s6m,s4m TEST_TIMEOUT=300 tests_in_parallel s53-d-tests.txt \
    "gemm-test wgmma_multicast_configs_at_tile_edges" "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges"
  ;;
esac
exit $status
