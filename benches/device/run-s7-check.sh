#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh), session 7: the GEMM test
# binaries with ROCMATH_REQUIRE_GPU=1 (every config the committed tables select is pinned and
# checked by gemm-test's every_table_config_matches_reference), then run-gemm-goals.sh with the
# committed tables. Everything tarred into $OUT/s7-check.tgz.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache}
status=0
for t in ${TESTS:-gemm-test gemm_args-test gemm_batched-test gemm_i8_xf32-test}; do
  echo "== $t" >> "$OUT/s7-tests.txt"
  timeout ${TEST_TIMEOUT:-200} .carry/tests/$t >> "$OUT/s7-tests.txt" 2>&1 || { status=1; echo "FAILED $t" >> "$OUT/s7-tests.txt"; }
done
grep -E "^== |test result|FAILED|panicked|table configs" "$OUT/s7-tests.txt"
[ "${GOALS:-1}" = 1 ] && { bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1; }
tar czf "$OUT/s7-check.tgz" -C "$OUT" $(cd "$OUT" && ls *.txt)
echo "exit status $status"
exit $status
