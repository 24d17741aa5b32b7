#!/usr/bin/env bash
# Prepared at the end of the forty-fifth session for the next one (edit freely). Stage first:
# `GEMM_AOT=1 bash benches/device/stage.sh` (binaries, tests, and the ahead-of-time file with
# the GEMM modules, gzipped; session.sh unpacks it), carry .carry. Output: $OUT/s46-$PHASE*.txt.
# PHASE=a: what the forty-fifth session left unchecked: fft-test real_lengths with the twiddle
#          products default (never run to its end with products), fft_args-test, aot-test; then
#          the FFT suite on that build.
# PHASE=b: GEMM tuning on this machine where the H200 lines fall short: xf32 NT 64^3 x 4096 and
#          128^3 x 2048 (0.82, 0.87); their bench lines with the committed tables and the new ones.
# PHASE=c: the same for hss, bss and h NT 128^3 x 2048 (cut short in s45-c).
source benches/device/session.sh
case $P in
a)
  nvidia-smi -L > "$OUT/s46-a-gpu.txt"
  {
    test_run 400 fft-test real_lengths
    test_run 60 fft_args-test
    test_run 60 aot-test
  } > "$OUT/s46-a-tests.txt" 2>&1
  timeout 200 $B suite --only fft --device cuda > "$OUT/s46-a-fft-suite.txt" 2>&1 || status=1
  ;;
b|c)
  # b: xf32 at both sizes; c: the 16-bit families at 128^3 (each call under the 10 minutes).
  nvidia-smi -L > "$OUT/s46-$P-gpu.txt"
  # (sizes as "m batch": m^3 x batch)
  if [ $P = b ]; then
    families=xf32; sizes=("64 4096" "128 2048"); settings=(MAX_CANDIDATES=60 STEP_TIMEOUT=400)
  else
    families="hss bss h"; sizes=("128 2048"); settings=(MAX_CANDIDATES=40 STEP_TIMEOUT=130)
  fi
  tune_sizes=$(for sb in "${sizes[@]}"; do set -- $sb; echo -n "${1}x${1}x${1}x$2,"; done)
  env OUT=$OUT/tune PRECISIONS="$families" SIZES="${tune_sizes%,}" LAYOUTS=NT ITERS=10 WARMUP=3 DEADLINE=300 "${settings[@]}" \
    bash benches/device/run-tune.sh > /dev/null 2>&1 || status=1
  (cd "$OUT/tune" && tar czf ../s46-$P-tune.tgz .) && cp "$OUT/tune/summary.txt" "$OUT/s46-$P-tune-summary.txt"
  source benches/device/gemm-lib.sh
  for p in $families; do
    for sb in "${sizes[@]}"; do
      set -- $sb
      bench_line s46-$P "$p $1^3 x $2 committed" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
      ROCMATH_TUNING_DIR=$OUT/tune/tables bench_line s46-$P "$p $1^3 x $2 re-tuned" --precision $p --transA N --transB T -m $1 -n $1 -k $1 --batch $2
    done
  done
  ;;
esac
exit $status
