# Sourced by the GEMM session scripts (run-s13.sh on): OUT, ROCMATH_CACHE_DIR and `status` set.
# bench_line FILE LABEL BENCH-ARGS...: one bench line against cuBLAS; the whole output to
# $OUT/FILE-full.txt, a summary headed LABEL to $OUT/FILE.txt and the console. BENCH names
# another bench binary (e.g. a previous build's, for before/after lines).
bench_line() {
  local file=$1 label=$2; shift 2
  local line
  line=$(ROCMATH_REQUIRE_GPU=1 timeout ${BENCH_TIMEOUT:-60} ${BENCH:-.carry/rocmath-bench} gemm --device cuda --iters 10 "$@" 2>&1) || status=1
  echo "$line" >> "$OUT/$file-full.txt"
  echo "$label | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong|unavailable" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/$file.txt" | cut -c1-250
}
# lines_table FILE: bench_line's summaries in $OUT/FILE.txt shortened to "LABEL| CONFIG ours MS
# cublas MS ratio R" (for the console of a device call).
lines_table() {
  sed 's/^\([^|]*\)|.*kernel=gemm_[a-z0-9]*_\([^:]*\):.*GFLOP\/s (\([0-9.]*\) ms.*cublas [0-9.]* GFLOP\/s (\([0-9.]*\) ms.*ratio \([0-9.]*\).*/\1| \2 ours \3 cublas \4 ratio \5/' "$OUT/$1.txt" | cut -c1-200
}
# goals_table FILE: run-gemm-goals.sh's lines in $OUT/FILE.txt shortened to "PRECISION MxNxK[ --batch B]
# | CONFIG ours MS cublas MS ratio R" (for the console of a device call).
goals_table() {
  sed 's/^--precision \([a-z0-9]*\) -m \([0-9]*\) -n \([0-9]*\) -k \([0-9]*\)\( --batch [0-9]*\)\?.*kernel=gemm_[a-z0-9]*_\([^:]*\):.*(\([0-9.]*\) ms.*cublas.*(\([0-9.]*\) ms.*ratio \([0-9.]*\).*/\1 \2x\3x\4\5 | \6 ours \7 cublas \8 ratio \9/' "$OUT/$1.txt" | cut -c1-160
}
# run_test FILE BINARY FILTER: one test binary of .carry/tests with ROCMATH_REQUIRE_GPU=1.
run_test() {
  echo "== $2 $3" >> "$OUT/$1"
  ROCMATH_REQUIRE_GPU=1 timeout ${TEST_TIMEOUT:-300} .carry/tests/$2 $3 --nocapture >> "$OUT/$1" 2>&1 || { status=1; echo "FAILED $2 $3" >> "$OUT/$1"; }
}
# tests_in_parallel FILE "BINARY FILTER"...: run_test each at once, into $OUT/FILE; sets status=1
# on a failure.
tests_in_parallel() {
  local file=$1 i=0; shift
  for t in "$@"; do i=$((i + 1)); run_test "t$i" $t & done
  wait
  for j in $(seq 1 $i); do cat "$OUT/t$j"; rm -f "$OUT/t$j"; done > "$OUT/$file"
  grep -E "^test |test result|FAILED|configs checked|panicked" "$OUT/$file"
  if grep -q FAILED "$OUT/$file"; then status=1; fi
}
# ncu_case NAME PRECISION SIZE BATCH [BENCH-ARGS...]: Nsight Compute (full set and the stall
# reasons) on ours (the first gemm_ kernel) and on cuBLAS's kernel, NT, into
# $OUT/ncu/NAME-{ours,cublas}.txt; further bench arguments (e.g. --config) go to both runs.
ncu_case() {
  local args="gemm --precision $2 --transA N --transB T -m $3 -n $3 -k $3 --batch $4 --device cuda --iters 1 --warmup 0 ${*:5}"
  local stalls='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
  timeout 200 ncu -k regex:gemm_ --launch-count 1 --set full $stalls .carry/rocmath-bench $args --no-peer > "$OUT/ncu/$1-ours.txt" 2>&1 || status=1
  timeout 200 ncu -k 'regex:^(?!gemm_)' --launch-count 1 --set full $stalls .carry/rocmath-bench $args > "$OUT/ncu/$1-cublas.txt" 2>&1 || status=1
}
# tune_step SUMMARY PRECISION LAYOUT SIZES: rocmath-tune on the sm_90 table PRECISION/LAYOUT
# (seeded from the committed one unless $OUT/tables holds it already) into $OUT/tables, for at
# most STEP_TIMEOUT seconds (default 120; a stopped step keeps the sizes it finished). The log
# goes to $OUT/tune-PRECISION-LAYOUT.log; winners and notes to $OUT/SUMMARY and the console.
# On a machine whose kernel cache is cold, each 16-bit step spends most of its time in nvrtc.
tune_step() {
  local table=sm_90/gemm_$2_${3,,}.json
  mkdir -p "$OUT/tables/sm_90"
  [ -f "$OUT/tables/$table" ] || cp "tuning/tables/$table" "$OUT/tables/$table"
  echo "== $2 $3 $4 (at $SECONDS s)" | tee -a "$OUT/$1"
  timeout ${STEP_TIMEOUT:-120} .carry/rocmath-tune gemm --precision $2 --transA ${3:0:1} --transB ${3:1:1} --sizes $4 \
    --device cuda --out "$OUT/tables" --max-candidates 12 --iters 5 --warmup 2 >> "$OUT/tune-$2-$3.log" 2>&1 || { status=1; echo "FAILED $2 $3"; }
  grep -E "^(winner|note|wrote)|REJECTED|rocmath-tune:" "$OUT/tune-$2-$3.log" | cut -c1-200 | tee -a "$OUT/$1"
}
