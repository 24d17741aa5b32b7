#!/usr/bin/env bash
# Twenty-third session (f64 GEMM at 1024^3 and 2048^3: where the time goes). After stage.sh (or
# with the previous session's .carry: the d kernels are unchanged), carry .carry.
# Output: $OUT/s23-$PHASE*.
# PHASE=a: Nsight Compute (full set, stall reasons, and the per-instruction SASS page with its
#          samples) on ours and cuBLAS at d NT 1024^3 and 2048^3; the d lines (s23-a.txt,
#          s23-a-ncu.tgz).
# PHASE=b: (fragment prefetch, `f` configs) d and s NT tuned at the squares over the prefetch
#          candidates, the incumbents timed beside them (s23-b-tune.tgz); the d and s NT lines with
#          the committed and the tuned tables in turns, two rounds (s23-b.txt); the tuned NT
#          tables in tables-b/.
# PHASE=e: (final build) d NN, TN and TT tuned at 1024^3 and 2048^3 over the prefetch candidates,
#          incumbents beside them (s23-e-tune.tgz; tables in tables-e/); the d NT lines with the
#          embedded tables, and NN, TN, TT with the committed and tuned tables in turns (s23-e.txt).
# PHASE=f: (final build) gemm-test every_table_config_matches_reference and gemm_batched-test,
#          in parallel (s23-f-tests.txt).
# PHASE=c: gemm-test dmma_configs_at_tile_edges and warp_fma_configs_at_tile_edges, gemm_batched-test
#          split_k_configs_match_reference, in parallel (s23-c-tests.txt); then Nsight Compute as in
#          PHASE=a on two prefetch configs pinned at d NT 1024^3 (s23-c-ncu.tgz).
# PHASE=d: (the copy plans made per tile; a 64x64x16 s4f o2 candidate) d NT tuned again as in
#          PHASE=b (s23-d-tune.tgz; table in tables-d/), the lines as in PHASE=b for d
#          (s23-d.txt); gemm-test dmma_configs_at_tile_edges (s23-d-tests.txt).
export PATH=/usr/local/cuda/bin:$PATH ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
OUT=${OUT:-/tmp/out}
P=${PHASE:-a}
status=0
source benches/device/gemm-lib.sh
# sass_case NAME SIZE WHICH [BENCH-ARGS...]: a report of one kernel (WHICH ours or cublas) at d NT SIZE^3, then
# its details and its SASS page (per-instruction samples) as text in $OUT/ncu/.
sass_case() {
  local args="gemm --precision d --transA N --transB T -m $2 -n $2 -k $2 --device cuda --iters 1 --warmup 0 ${*:4}"
  local filter='regex:gemm_' peer=--no-peer
  [ "$3" = cublas ] && { filter='regex:^(?!gemm_)'; peer=; }
  local stalls='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
  timeout 200 ncu -k "$filter" --launch-count 1 --set full $stalls -o "/tmp/$1-$3" -f .carry/rocmath-bench $args $peer > "$OUT/ncu/$1-$3-run.txt" 2>&1 || status=1
  ncu -i "/tmp/$1-$3.ncu-rep" --page details > "$OUT/ncu/$1-$3.txt" 2>&1 || status=1
  ncu -i "/tmp/$1-$3.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu/$1-$3-sass.csv" 2>&1 \
    || ncu -i "/tmp/$1-$3.ncu-rep" --page source --csv > "$OUT/ncu/$1-$3-sass.csv" 2>&1 || status=1
}
case $P in
a)
  nvidia-smi -L > "$OUT/s23-a-gpu.txt"
  ncu --version >> "$OUT/s23-a-gpu.txt"
  mkdir -p "$OUT/ncu"
  for n in 1024 2048; do
    sass_case d$n $n ours
    sass_case d$n $n cublas
  done
  tar czf "$OUT/s23-a-ncu.tgz" -C "$OUT" ncu && rm -rf "$OUT/ncu"
  for n in 1024 2048; do
    bench_line s23-a "d NT $n^3" --precision d --transA N --transB T -m $n -n $n -k $n
  done
  ;;
b)
  nvidia-smi -L > "$OUT/s23-b-gpu.txt"
  OUT=$OUT/tune PRECISIONS="d s" LAYOUTS=NT FILTER=f_ MAX_CANDIDATES=24 DEADLINE=200 STEP_TIMEOUT=200 \
    bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s23-b-tune.tgz" -C "$OUT" tune
  for round in 1 2; do
    for p in d s; do
      for n in 1024 2048 4096 8192; do
        for tables in committed tuned; do
          dir=; [ $tables = tuned ] && dir=$OUT/tune/tables
          ROCMATH_TUNING_DIR=$dir bench_line s23-b "$tables $p NT $n^3 r$round" --precision $p --transA N --transB T -m $n -n $n -k $n
        done
      done
    done
  done
  mkdir -p "$OUT/tables-b" && cp "$OUT"/tune/tables/sm_90/gemm_{d,s}_nt.json "$OUT/tables-b/" || status=1
  ;;
d)
  nvidia-smi -L > "$OUT/s23-d-gpu.txt"
  OUT=$OUT/tune PRECISIONS=d LAYOUTS=NT FILTER=f_ MAX_CANDIDATES=24 DEADLINE=100 STEP_TIMEOUT=200 \
    bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s23-d-tune.tgz" -C "$OUT" tune
  for round in 1 2; do
    for n in 1024 2048 4096 8192; do
      for tables in committed tuned; do
        dir=; [ $tables = tuned ] && dir=$OUT/tune/tables
        ROCMATH_TUNING_DIR=$dir bench_line s23-d "$tables d NT $n^3 r$round" --precision d --transA N --transB T -m $n -n $n -k $n
      done
    done
  done
  mkdir -p "$OUT/tables-d" && cp "$OUT/tune/tables/sm_90/gemm_d_nt.json" "$OUT/tables-d/" || status=1
  run_test s23-d-tests.txt gemm-test dmma_configs_at_tile_edges
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s23-d-tests.txt"
  ;;
e)
  nvidia-smi -L > "$OUT/s23-e-gpu.txt"
  OUT=$OUT/tune PRECISIONS=d LAYOUTS="NN TN TT" SIZES=1024x1024x1024,2048x2048x2048 FILTER=f_ MAX_CANDIDATES=24 \
    DEADLINE=200 STEP_TIMEOUT=120 bash benches/device/run-tune.sh || status=1
  tar czf "$OUT/s23-e-tune.tgz" -C "$OUT" tune
  for n in 1024 2048; do
    bench_line s23-e "committed d NT $n^3" --precision d --transA N --transB T -m $n -n $n -k $n
    for layout in NN TN TT; do
      for tables in committed tuned; do
        dir=; [ $tables = tuned ] && dir=$OUT/tune/tables
        ROCMATH_TUNING_DIR=$dir bench_line s23-e "$tables d $layout $n^3" --precision d --transA ${layout:0:1} --transB ${layout:1:1} -m $n -n $n -k $n
      done
    done
  done
  mkdir -p "$OUT/tables-e" && cp "$OUT"/tune/tables/sm_90/gemm_d_{nn,tn,tt}.json "$OUT/tables-e/" || status=1
  ;;
f)
  nvidia-smi -L > "$OUT/s23-f-gpu.txt"
  TEST_TIMEOUT=560 tests_in_parallel s23-f-tests.txt "gemm-test every_table_config_matches_reference" "gemm_batched-test"
  ;;
c)
  nvidia-smi -L > "$OUT/s23-c-gpu.txt"
  tests_in_parallel s23-c-tests.txt "gemm-test dmma_configs_at_tile_edges" "gemm-test warp_fma_configs_at_tile_edges" \
    "gemm_batched-test split_k_configs_match_reference" || status=1
  mkdir -p "$OUT/ncu"
  for c in mt64x64x16_w2x2_s4f_p4x4_g8_o3_mma16x8x8f64 mt128x64x32_w4x2_s3f_p4x4_g8_o1_mma16x8x16f64; do
    sass_case "d1024-$c" 1024 ours --config $c
  done
  tar czf "$OUT/s23-c-ncu.tgz" -C "$OUT" ncu && rm -rf "$OUT/ncu"
  ;;
esac
exit $status
