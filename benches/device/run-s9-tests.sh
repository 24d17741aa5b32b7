#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh), session 9: the GEMM test
# binaries with ROCMATH_REQUIRE_GPU=1 after the refactor of gemm.hip's direct mainloop and
# epilogue (every non-wgmma kernel) and the persistent grid. TESTS: which binaries (filter after a
# space). Output to $OUT/s9-final-tests.txt.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_CACHE_DIR=${ROCMATH_CACHE_DIR:-/tmp/rocmath-cache} ROCMATH_REQUIRE_GPU=1
status=0
while read -r t; do
  [ -z "$t" ] && continue
  echo "== $t (at ${SECONDS} s)" >> "$OUT/s9-final-tests.txt"
  timeout 420 .carry/tests/$t >> "$OUT/s9-final-tests.txt" 2>&1 || { status=1; echo "FAILED $t" >> "$OUT/s9-final-tests.txt"; }
done <<< "${TESTS:-gemm-test
gemm_args-test
gemm_i8_xf32-test}"
grep -E "^== |test result|FAILED|panicked" "$OUT/s9-final-tests.txt"
echo "exit status $status (${SECONDS} s)"
exit $status
