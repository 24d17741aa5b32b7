# Sourced by the GEMM session scripts (run-s13.sh on): OUT, ROCMATH_CACHE_DIR and `status` set.
# bench_line FILE LABEL BENCH-ARGS...: one bench line against cuBLAS; the whole output to
# $OUT/FILE-full.txt, a summary headed LABEL to $OUT/FILE.txt and the console. BENCH names
# another bench binary (e.g. a previous build's, for before/after lines).
bench_line() {
  local file=$1 label=$2; shift 2
  local line
  line=$(ROCMATH_REQUIRE_GPU=1 timeout 60 ${BENCH:-.carry/rocmath-bench} gemm --device cuda --iters 10 "$@" 2>&1) || status=1
  echo "$line" >> "$OUT/$file-full.txt"
  echo "$label | $(echo "$line" | grep -E "rocmath|ratio|FAILED|wrong" | sed 's/lda=.*kernel=/kernel=/' | tr '\n' ' ')" | tee -a "$OUT/$file.txt" | cut -c1-250
}
# run_test FILE BINARY FILTER: one test binary of .carry/tests with ROCMATH_REQUIRE_GPU=1.
run_test() {
  echo "== $2 $3" >> "$OUT/$1"
  ROCMATH_REQUIRE_GPU=1 timeout ${TEST_TIMEOUT:-300} .carry/tests/$2 $3 --nocapture >> "$OUT/$1" 2>&1 || { status=1; echo "FAILED $2 $3" >> "$OUT/$1"; }
}
