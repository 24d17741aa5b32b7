#!/usr/bin/env bash
# Runs on the GPU machine (repo root, .carry/ staged by stage.sh): optionally the test suite with
# ROCMATH_REQUIRE_GPU=1, then rocmath-bench gemm for each precision x size x pinned config
# (CONFIGS_<precision>, space-separated tags; "auto" = the library's own selection).
# Logs go to $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rocmath-cache RUST_BACKTRACE=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/env.txt" 2>&1
status=0
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  for t in .carry/tests/*; do
    echo "== $t" >> "$OUT/tests.txt"
    timeout 300 "$t" --test-threads=8 > "$OUT/t.log" 2>&1 || { status=1; echo "FAILED $t"; }
    grep -E "test result|FAILED|panicked|failed" "$OUT/t.log" | head -40 >> "$OUT/tests.txt"
  done
  grep -c "test result: ok" "$OUT/tests.txt"
fi
B=.carry/rocmath-bench
for p in ${PRECISIONS:-hss}; do
  var="CONFIGS_$p"; configs=${!var:-auto}
  for size in ${SIZES:-4096}; do
    for cfg in $configs; do
      pin=(); [ "$cfg" != auto ] && pin=(--config "$cfg")
      peer=(); [ "$cfg" != "${configs%% *}" ] && peer=(--no-peer)
      line=$(timeout 120 $B gemm --precision $p --transA N --transB T -m $size -n $size -k $size --device cuda --iters ${ITERS:-10} "${pin[@]}" "${peer[@]}" 2>&1) || status=1
      echo "$line" >> "$OUT/bench.txt"
      echo "$line" | grep -E "rocmath|ratio|FAILED|wrong|error" | sed 's/lda=.*kernel=/kernel=/' | cut -c1-230
    done
  done
done
echo "exit status $status"
exit $status
