#!/usr/bin/env bash
# Fifty-seventh session: the first H100 (not H200) since the forty-fourth session. No library
# change: the goals of issues 3 and 4 measured on the card they name, the table entries that
# were tuned on an H200 re-tuned on the H100, then the committed tables against the re-tuned ones.
# Stage first (`GEMM_AOT=1 bash benches/device/stage.sh`), carry .carry; call with
# kind nvidia-h100-x1. Output: $OUT/s57-$PHASE*.
# PHASE=a: the GEMM goals run (every goal shape, xf32 batches too) and the FFT suite against
#          cuBLAS / cuFFT; then FFT single 16384 and 8192 x 2^26 elements (% of copy) while time
#          is left.
# PHASE=b: rocmath-tune on the H100 over the sizes whose entries name the H200 (sm_90 tables,
#          NT and NN: hss, bss, h; NT: d, xf32); tables to $OUT/tables, tarred as s57-b-tables.tgz.
#          Each step gets STEP_TIMEOUT seconds (default 120; on a new machine nvrtc compiling
#          the candidates takes most of it: in the fifty-eighth session the 16-bit NT steps needed
#          more than 110 s cold and 30-45 s warm; a stopped step keeps the sizes it finished).
#          All of it does not fit one call: LAYOUTS="NT" (then the xf32 and d steps) and
#          LAYOUTS="NN" NO_32=1 in two.
# PHASE=c: (phase b's tables unpacked into .carry/tables) each re-tuned shape with the committed
#          tables and with ROCMATH_TUNING_DIR=.carry/tables, in turns. ROUNDS (default "r1 r2"),
#          C_LAYOUTS (default "T N": NT, NN), C_UNTIL (default 560 s) and C_TABLES may narrow it.
# PHASE=d: (added in the fifty-eighth session) the sm_90 entries that phase b left: xf32 NN/TN/TT at the batched sizes,
#          then hss/bss/h TN and TT, small and skinny sizes first, then the squares, while
#          D_UNTIL (default 560 s) allows; tables to $OUT/tables and /tmp/h100-tables (kept on
#          a warm machine for a phase c right after: C_TABLES=/tmp/h100-tables).
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s57-$P-gpu.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >> "$OUT/s57-$P-gpu.txt"
case $P in
a)
  BATCH_PRECISIONS="hss bss h s d xf32" timeout 380 bash benches/device/run-gemm-goals.sh > /dev/null 2>&1 || status=1
  mv "$OUT/goals.txt" "$OUT/s57-a-goals.txt"; mv "$OUT/goals-full.txt" "$OUT/s57-a-goals-full.txt"
  goals_table s57-a-goals
  echo "goals done at $SECONDS s"
  timeout 150 $B suite --only fft --device cuda > "$OUT/s57-a-fft-suite.txt" 2>&1 || status=1
  grep -E "ratio|copy|FAIL|error" "$OUT/s57-a-fft-suite.txt" | cut -c1-160 | tail -30
  echo "fft suite done at $SECONDS s"
  for r in r1 r2; do for c in 16384 8192; do
    [ $SECONDS -lt 540 ] || break 2
    sweep_case $c; line "c2c $p $n $r" -- --precision $p --type c2c --length $n --batch $b
  done; done > "$OUT/s57-a-fft.txt" 2>&1
  cat "$OUT/s57-a-fft.txt" | cut -c1-160
  ;;
b|d)
  tune() { tune_step s57-$P-summary.txt "$@"; }  # (gemm-lib.sh)
  ;;&
b)
  small=16x8192x8192,128x128x128x2048,64x64x64x4096
  for l in ${LAYOUTS:-NT NN}; do
    tune hss $l $small; tune bss $l $small; tune h $l $small,8192x8192x128
  done
  if [ -z "${NO_32:-}" ]; then
    tune xf32 NT 128x128x128x2048,64x64x64x4096
    tune d NT 32x32x32x10000,64x64x64x4096,128x128x128x2048
  fi
  (cd "$OUT" && tar czf s57-b-tables.tgz tables tune-*.log && rm -rf tables tune-*.log)
  echo "tuned at $SECONDS s"
  ;;
c)
  shapes=("hss 16 8192 8192 1" "bss 16 8192 8192 1" "h 16 8192 8192 1" "h 8192 8192 128 1" "hss 128 128 128 2048"
          "bss 128 128 128 2048" "h 128 128 128 2048" "hss 64 64 64 4096" "bss 64 64 64 4096" "h 64 64 64 4096"
          "xf32 128 128 128 2048" "xf32 64 64 64 4096" "d 32 32 32 10000" "d 64 64 64 4096" "d 128 128 128 2048")
  for r in ${ROUNDS:-r1 r2}; do for l in ${C_LAYOUTS:-T N}; do for sh in "${shapes[@]}"; do
    set -- $sh
    [ $l = N ] && case $1 in xf32|d) continue;; esac
    [ $SECONDS -lt ${C_UNTIL:-560} ] || break 3
    a=(--precision $1 --transA N --transB $l -m $2 -n $3 -k $4 --batch $5)
    bench_line s57-c "$1 N$l ${2}x${3}x${4}x$5 committed $r" "${a[@]}" > /dev/null
    ROCMATH_TUNING_DIR=${C_TABLES:-.carry/tables} bench_line s57-c "$1 N$l ${2}x${3}x${4}x$5 h100-tuned $r" "${a[@]}" > /dev/null
  done; done; done
  lines_table s57-c
  echo "lines done at $SECONDS s"
  ;;
d)
  mkdir -p "$OUT/tables/sm_90"
  [ -d .carry/tables/sm_90 ] && cp .carry/tables/sm_90/*.json "$OUT/tables/sm_90/"
  batched=128x128x128x2048,64x64x64x4096
  steps=("xf32 NN $batched" "xf32 TN $batched" "xf32 TT $batched")
  for l in TN TT; do for p in hss bss h; do steps+=("$p $l 16x8192x8192,$batched,32x32x32x10000,8192x8192x128"); done; done
  for l in TN TT; do for p in hss bss h; do
    big=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192
    [ $l = TN ] && big+=,4096x4096x65536
    steps+=("$p $l $big")
  done; done
  for st in "${steps[@]}"; do
    [ $SECONDS -lt ${D_UNTIL:-560} ] || { echo "stopped before $st at $SECONDS s" | tee -a "$OUT/s57-d-summary.txt"; break; }
    set -- $st; tune $1 $2 $3
  done
  rm -rf /tmp/h100-tables && cp -r "$OUT/tables" /tmp/h100-tables
  (cd "$OUT" && tar czf s57-d-tables.tgz tables tune-*.log && rm -rf tables tune-*.log)
  echo "tuned at $SECONDS s"
  ;;
esac
exit $status
