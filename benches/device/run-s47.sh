#!/usr/bin/env bash
# The forty-seventh session's device calls. Staging: `TESTS="gemm_i8_xf32" bash
# benches/device/stage.sh`, then rebuilt bench and GEMM test binaries copied into .carry.
# Output: $OUT/s47-$PHASE*.txt. (Phases a and b, prepared for this session and not run, moved to
# run-s48.sh as its a and c.)
# PHASE=c: the tf32 wgmma configs that transpose in shared memory: xf32 batch lines, then tests.
# PHASE=d: those configs' TN kernels against NT, and transposers with more loads in flight.
# PHASE=e: the transposers rewritten after d: every `t` candidate, then their tests.
# PHASE=f: the xf32 table with e's picks: its test, the batches three times, squares against `t`.
# PHASE=g: two blocks per SM (one-consumer `t` tiles, `o2`) at the xf32 batches, then its test.
# PHASE=h: the table with g's pick, and the wgmma tests of every family.
# PHASE=i: the xf32 batches in NN, TT and TN: table picks against the NT ones.
source benches/device/session.sh
case $P in
c)
  # tf32 wgmma transposing MN-major operands in shared memory (`t` configs, new in s47): one bench
  # line first (a deadlock shows as a timeout there), the candidate test at tile edges in every
  # layout, then every `t` config against the table's pick at the two xf32 batch sizes (NT).
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-c-gpu.txt"
  XT="mt128x128x32_w2x1_s2t mt128x128x32_w2x1_s3t mt128x64x32_w2x1_s3t mt128x64x32_w2x1_s4t mt64x128x32_w2x1_s3t mt64x128x32_w2x1_s4t mt64x64x32_w2x1_s4t mt64x64x32_w2x1_s6t mt64x64x32_w1x1_s4t mt64x64x32_w1x1_s6t"
  x64="--precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096"
  x128="--precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048"
  # (the first try, s47-c1, hung: setmaxnreg.inc asked for more registers than the block had)
  BENCH_TIMEOUT=30 bench_line s47-c "64^3 first" $x64 --config mt64x64x32_w2x1_s6t_x_g8_o1_wgmma64xnx8tf32 > /dev/null
  BENCH_TIMEOUT=30 bench_line s47-c "64^3 first w1x1" $x64 --config mt64x64x32_w1x1_s4t_x_g8_o1_wgmma64xnx8tf32 > /dev/null
  if [ $(grep -c ratio "$OUT/s47-c.txt") != 2 ]; then lines_table s47-c; exit 1; fi
  for size in 64 128; do
    args=$([ $size = 64 ] && echo "$x64" || echo "$x128")
    bench_line s47-c "$size^3 table" $args > /dev/null
    for t in $XT; do BENCH_TIMEOUT=30 bench_line s47-c "$size^3 $t" $args --config ${t}_x_g8_o1_wgmma64xnx8tf32 > /dev/null; done
  done
  lines_table s47-c
  ROCMATH_TEST_CONFIGS=t_x_g8 TEST_TIMEOUT=240 run_test s47-c-tests.txt gemm_i8_xf32-test xf32_candidates_at_tile_edges
  grep -E "^test |test result|FAILED|configs checked|candidates checked|panicked" "$OUT/s47-c-tests.txt"
  ;;
d)
  # Where the `t` configs' time goes: their TN kernels (no transposes: the wgmma mainloop alone)
  # against NT, and NT with the transposers taking one item at a time (rocmath-bench, as
  # committed in 3c5e993) or four (rocmath-bench-ilp4, a build with ILP = 4), whose tests run last.
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-d-gpu.txt"
  x64="--precision xf32 -m 64 -n 64 -k 64 --batch 4096"
  x128="--precision xf32 -m 128 -n 128 -k 128 --batch 2048"
  w1=mt64x64x32_w1x1_s4t_x_g8_o1_wgmma64xnx8tf32; pp=mt64x64x32_w2x1_s6t_x_g8_o1_wgmma64xnx8tf32; big=mt128x128x32_w2x1_s3t_x_g8_o1_wgmma64xnx8tf32
  export BENCH_TIMEOUT=30
  for bin in rocmath-bench rocmath-bench-ilp4; do
    BENCH=.carry/$bin bench_line s47-d "$bin 64^3 NT w1x1 s4t" $x64 --transA N --transB T --config $w1 > /dev/null
    BENCH=.carry/$bin bench_line s47-d "$bin 64^3 NT pp s6t" $x64 --transA N --transB T --config $pp > /dev/null
    BENCH=.carry/$bin bench_line s47-d "$bin 128^3 NT s3t" $x128 --transA N --transB T --config $big > /dev/null
  done
  bench_line s47-d "64^3 TN table" $x64 --transA T --transB N > /dev/null
  bench_line s47-d "64^3 TN w1x1 s4t" $x64 --transA T --transB N --config $w1 > /dev/null
  bench_line s47-d "64^3 TN pp s6t" $x64 --transA T --transB N --config $pp > /dev/null
  bench_line s47-d "128^3 TN table" $x128 --transA T --transB N > /dev/null
  bench_line s47-d "128^3 TN s3t" $x128 --transA T --transB N --config $big > /dev/null
  lines_table s47-d
  echo "== ilp4" > "$OUT/s47-d-tests.txt"
  ROCMATH_REQUIRE_GPU=1 ROCMATH_TEST_CONFIGS=t_x_g8 timeout 200 .carry/tests/gemm_i8_xf32-test-ilp4 xf32_candidates_at_tile_edges --nocapture >> "$OUT/s47-d-tests.txt" 2>&1 || { status=1; echo FAILED >> "$OUT/s47-d-tests.txt"; }
  grep -E "^test |test result|FAILED|candidates checked|panicked" "$OUT/s47-d-tests.txt"
  ;;
e)
  # The transposers rewritten after phase d (each of the three warps takes every third stage,
  # offsets from 8 per-lane bases, 56 producer registers): every `t` candidate at both sizes, NT,
  # then their test at tile edges in every layout.
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-e-gpu.txt"
  XT="mt128x128x32_w2x1_s3t mt128x64x32_w2x1_s3t mt128x64x32_w2x1_s4t mt64x128x32_w2x1_s3t mt64x128x32_w2x1_s4t mt64x64x32_w2x1_s3t mt64x64x32_w2x1_s6t mt64x64x32_w1x1_s3t mt64x64x32_w1x1_s6t"
  export BENCH_TIMEOUT=30
  BENCH_TIMEOUT=30 bench_line s47-e "64^3 first" --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 --config mt64x64x32_w1x1_s3t_x_g8_o1_wgmma64xnx8tf32 > /dev/null
  grep -q ratio "$OUT/s47-e.txt" || { lines_table s47-e; exit 1; }
  for size in 64 128; do
    batch=$([ $size = 64 ] && echo 4096 || echo 2048)
    args="--precision xf32 --transA N --transB T -m $size -n $size -k $size --batch $batch"
    bench_line s47-e "$size^3 table" $args > /dev/null
    for t in $XT; do bench_line s47-e "$size^3 $t" $args --config ${t}_x_g8_o1_wgmma64xnx8tf32 > /dev/null; done
  done
  lines_table s47-e
  ROCMATH_TEST_CONFIGS=t_x_g8 TEST_TIMEOUT=200 run_test s47-e-tests.txt gemm_i8_xf32-test xf32_candidates_at_tile_edges
  grep -E "^test |test result|FAILED|candidates checked|panicked" "$OUT/s47-e-tests.txt"
  ;;
f)
  # The committed xf32 NT table with phase e's picks: its test (the new picks in every layout),
  # the two batch sizes three times, then the squares against the two-consumer `t` tiles (the
  # table's picks there pay the host's copy: whether the transposing tiles should be tuned there).
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-f-gpu.txt"
  ROCMATH_TEST_CONFIGS=t_x_g8 TEST_TIMEOUT=120 run_test s47-f-tests.txt gemm_i8_xf32-test every_xf32_table_config_matches_reference
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/s47-f-tests.txt"
  for r in 1 2 3; do
    bench_line s47-f "64^3 x 4096 table r$r" --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 > /dev/null
    bench_line s47-f "128^3 x 2048 table r$r" --precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
  done
  for size in 1024 2048 4096; do
    args="--precision xf32 --transA N --transB T -m $size -n $size -k $size"
    bench_line s47-f "$size^3 table" $args > /dev/null
    for t in mt128x128x32_w2x1_s3t mt128x64x32_w2x1_s4t mt64x128x32_w2x1_s4t; do
      bench_line s47-f "$size^3 $t" $args --config ${t}_x_g8_o1_wgmma64xnx8tf32 > /dev/null
    done
  done
  lines_table s47-f
  ;;
g)
  # Two blocks per SM (wgmma `o2`, one consumer, two stages a ring): against the table's picks,
  # three rounds, first a line that shows a hang quickly; then its test in every layout.
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-g-gpu.txt"
  o2=mt64x64x32_w1x1_s2t_x_g8_o2_wgmma64xnx8tf32
  x64="--precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096"
  x128="--precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048"
  BENCH_TIMEOUT=30 bench_line s47-g "64^3 o2 first" $x64 --config $o2 > /dev/null
  grep -q ratio "$OUT/s47-g.txt" || { lines_table s47-g; exit 1; }
  for r in 1 2 3; do
    bench_line s47-g "64^3 table r$r" $x64 > /dev/null
    bench_line s47-g "64^3 o2 r$r" $x64 --config $o2 > /dev/null
    bench_line s47-g "128^3 table r$r" $x128 > /dev/null
    bench_line s47-g "128^3 o2 r$r" $x128 --config $o2 > /dev/null
  done
  lines_table s47-g
  ROCMATH_TEST_CONFIGS=o2_wgmma TEST_TIMEOUT=120 run_test s47-g-tests.txt gemm_i8_xf32-test xf32_candidates_at_tile_edges
  grep -E "^test |test result|FAILED|candidates checked|panicked" "$OUT/s47-g-tests.txt"
  ;;
h)
  # The table with g's 64^3 pick (three rounds of both batches), and the wgmma tests of every
  # family after this session's changes to gemm_sm90.hip (16-bit, i8, xf32; wgmma configs of the
  # 16-bit tables only), in parallel.
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-h-gpu.txt"
  for r in 1 2 3; do
    bench_line s47-h "64^3 x 4096 table r$r" --precision xf32 --transA N --transB T -m 64 -n 64 -k 64 --batch 4096 > /dev/null
    bench_line s47-h "128^3 x 2048 table r$r" --precision xf32 --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 > /dev/null
  done
  lines_table s47-h
  export TEST_TIMEOUT=240
  ROCMATH_TEST_CONFIGS=wgmma tests_in_parallel s47-h-tests.txt "gemm-test wgmma_kernels_at_tile_edges" "gemm-test wgmma_strided_batches" \
    "gemm-test wgmma_pingpong_strided_batches" "gemm-test table_configs_match_reference_16_bit" "gemm_i8_xf32-test i8_wgmma_every_layout" \
    "gemm_i8_xf32-test every_xf32_table_config_matches_reference" "gemm_i8_xf32-test xf32_wgmma_every_layout"
  ;;
i)
  # The xf32 batches in the other layouts (NN, TT, TN): their tables' picks against the NT picks
  # of phases e and g (whose kernels for every layout the candidate test has checked).
  source benches/device/gemm-lib.sh
  nvidia-smi -L > "$OUT/s47-i-gpu.txt"
  for l in NN TT TN; do
    ta=${l:0:1}; tb=${l:1:1}
    x64="--precision xf32 --transA $ta --transB $tb -m 64 -n 64 -k 64 --batch 4096"
    x128="--precision xf32 --transA $ta --transB $tb -m 128 -n 128 -k 128 --batch 2048"
    bench_line s47-i "$l 64^3 table" $x64 > /dev/null
    bench_line s47-i "$l 64^3 o2 s2t" $x64 --config mt64x64x32_w1x1_s2t_x_g8_o2_wgmma64xnx8tf32 > /dev/null
    bench_line s47-i "$l 128^3 table" $x128 > /dev/null
    bench_line s47-i "$l 128^3 64x128 s4t" $x128 --config mt64x128x32_w2x1_s4t_x_g8_o1_wgmma64xnx8tf32 > /dev/null
  done
  lines_table s47-i
  ;;
esac
exit $status
