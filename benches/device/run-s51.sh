#!/usr/bin/env bash
# Fifty-first session. Stage first: `TESTS="gemm fft" bash benches/device/stage.sh` (or the bench
# rebuilt into .carry), carry .carry. Output: $OUT/s51-$PHASE*.txt.
# PHASE=a: hss 16 x 8192 x 8192 NT (read-bound on B, 64 tiles of 64 x 128 in the pick): deeper
#          rings on one-consumer tiles (64 x 128 s7/s8, 64 x 64 s8-s13: more of B in flight an
#          SM) against the pick, two rounds. FFT 16384 / 8192 single, double 8192, half 16384:
#          the next-block prefetch two waves ahead (ROCMATH_FFT_NEXT_WAVES=2) and asked earlier
#          (ROCMATH_FFT_NEXT_PREFETCH_AT), against the default, two rounds. (The switch
#          ROCMATH_FFT_NEXT_WAVES of that build multiplied `next_blocks` in fft/src/gpu.rs; not kept.)
# PHASE=b: (64 x 128 s8 among the candidates) rocmath-tune over the 16-bit families' TN and TT
#          layouts (no tables of their own before: they took NT's), the issue's sizes, tables to
#          $OUT/tables. (Its hss and bss TT steps hit the 150 s step timeout at 4096 x 4096 x
#          65536; its h steps were past the deadline; the tables of hss did not come back: the
#          device tool's file count. Its logs did.)
# PHASE=b2: phase b for h alone, tables in the archive.
# PHASE=c: (the TN and TT tables of phases b and b2 committed) gemm-test on 64 x 128 s8 (tile
#          edges, every layout) and on the new picks (the 16-bit table test); 16 x 8192 x 8192
#          NT and NN, the table's pick against 64 x 128 s8; TN and TT at 1024^3 and
#          128^3 x 2048 through the new tables against without them (NT's, as before), one round.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s51-$P-gpu.txt"
case $P in
a)
  skinny="table mt64x128x64_w1x1_s7_x_g8_o1 mt64x128x64_w1x1_s8_x_g8_o1 mt64x64x64_w1x1_s8_x_g8_o1 mt64x64x64_w1x1_s10_x_g8_o1 mt64x64x64_w1x1_s12_x_g8_o1 mt64x64x64_w1x1_s13_x_g8_o1"
  sk() { echo "--precision hss --transA N --transB T -m 16 -n 8192 -k 8192"; [ $1 = table ] || echo "--config $1_wgmma64xnx16f16"; }
  for c in $skinny; do ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer $(sk $c) > /dev/null 2>&1 ) & done
  wait
  for r in r1 r2; do
    for c in $skinny; do bench_line s51-a "hss 16x8192x8192 $c $r" $(sk $c) > /dev/null; done
  done
  lines_table s51-a
  for r in r1 r2; do
    for c in 16384 8192 d8192 h16384; do
      sweep_case $c
      args=(--precision $p --type c2c --length $n --batch $b)
      line "c2c $p $n default $r" -- "${args[@]}"
      line "c2c $p $n waves2 $r" ROCMATH_FFT_NEXT_WAVES=2 -- "${args[@]}"
      line "c2c $p $n at1 waves2 $r" ROCMATH_FFT_NEXT_WAVES=2 ROCMATH_FFT_NEXT_PREFETCH_AT=1 -- "${args[@]}"
      line "c2c $p $n at0 $r" ROCMATH_FFT_NEXT_PREFETCH_AT=0 -- "${args[@]}"
      line "c2c $p $n at0 waves2 $r" ROCMATH_FFT_NEXT_WAVES=2 ROCMATH_FFT_NEXT_PREFETCH_AT=0 -- "${args[@]}"
    done
  done > "$OUT/s51-a-fft.txt" 2>&1
  grep -E "^==|rocmath " "$OUT/s51-a-fft.txt" | paste - - | sed 's/: --precision.*rocmath//' | cut -c1-150
  ;;
b|b2)
  # the configs the hss, bss and h NT/NN tables name (for the issue's sizes), and 64 x 128 s8
  picks="mt128x128x64_w2x1_s4_x_g8_o1 mt128x128x64_w2x1_s6_x_g8_o1 mt128x192x64_w2x1_s4_x_g8_o1 mt128x256x64_w2x1_s3_x_g8_o1
    mt128x256x64_w2x1_s4_x_g8_o1 mt128x64x64_w2x1_s6_x_g8_o1 mt128x64x64_w2x1_s8_x_g8_o1 mt32x32x32_w1x1_s2_x_g8_o1
    mt32x32x32_w1x1_s3p_x_g8_o1 mt32x32x32_w1x1_s4p_x_g8_o1 mt32x32x32_w2x1_s2_x_g8_o1 mt64x128x64_w1x1_s6_x_g8_o1
    mt64x128x64_w1x1_s8_x_g8_o1 mt64x64x64_w1x1_s2_x_g8_o3 mt64x64x64_w1x1_s3_x_g8_o3 mt64x64x64_w1x1_s4_x_g8_o3
    mt64x64x64_w1x1_s5_x_g8_o2 mt64x64x64_w1x1_s8_x_g8_o1 mt64x64x64_w2x1_s3_x_g8_o2"
  # (their modules compiled first, 12 at a time, into the kernel cache the tuner reads)
  for f in $([ $P = b ] && echo "hss bss h" || echo h); do
    atom=$([ $f = bss ] && echo bf16 || echo f16)
    for c in $picks; do
      case $c in *w1x1_s2_x_g8_o1|*s3p*|*s4p*|mt32x32x32_w2x1*) a=mma16x8x16$atom ;; *) a=wgmma64xnx16$atom ;; esac
      ( timeout 200 $B gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $f --transA T --transB N -m 256 -n 256 -k 256 --config ${c}_$a > /dev/null 2>&1 ) &
      while [ "$(jobs -r | wc -l)" -ge 12 ]; do sleep 0.2; done
    done
  done
  wait
  echo "compiled at $SECONDS s"
  PRECISIONS=$([ $P = b ] && echo "hss bss h" || echo h) LAYOUTS="TN TT" FILTER=$(echo $picks | tr ' ' ,) DEADLINE=480 STEP_TIMEOUT=$([ $P = b ] && echo 150 || echo 200) \
    bash benches/device/run-tune.sh > /dev/null 2>&1 || status=1
  mv "$OUT/summary.txt" "$OUT/s51-$P-tune-summary.txt"
  # (the tables in the archive too: the device tool brings back a limited number of files)
  tar czf "$OUT/s51-$P-tune.tgz" -C "$OUT" tables $(cd "$OUT" && ls tune-*.log) && rm -rf "$OUT"/tune-*.log "$OUT/tables"
  grep -E "^==|winner|FAILED|REJECT|total" "$OUT/s51-$P-tune-summary.txt" | cut -c1-160
  ;;
c)
  ROCMATH_TEST_CONFIGS=w1x1_s8_x_g8_o1,mt64x64x64_w1x1_s4_x_g8_o3,mt128x128x64_w2x1_s4_x_g8_o1 TEST_TIMEOUT=240 tests_in_parallel s51-c-tests.txt \
    "gemm-test wgmma_split_k_and_64_row_configs_at_tile_edges" "gemm-test table_configs_match_reference_16_bit"
  # (the committed tables are embedded in the binaries; ROCMATH_TUNING_DIR overlays them: "old"
  # overlays TN and TT with copies of NT's, which those layouts took before)
  mkdir -p /tmp/old-tables/sm_90
  for f in hss bss h; do for l in tn tt; do
    sed "s/\"layout\": \"nt\"/\"layout\": \"$l\"/" tuning/tables/sm_90/gemm_${f}_nt.json > /tmp/old-tables/sm_90/gemm_${f}_$l.json
  done; done
  for f in hss bss h; do
    atom=$([ $f = bss ] && echo bf16 || echo f16)
    for l in NT NN; do
      a=(--precision $f --transA ${l:0:1} --transB ${l:1:1} -m 16 -n 8192 -k 8192)
      bench_line s51-c "$f 16x8192x8192 $l table" "${a[@]}" > /dev/null
      bench_line s51-c "$f 16x8192x8192 $l s8" "${a[@]}" --config mt64x128x64_w1x1_s8_x_g8_o1_wgmma64xnx16$atom > /dev/null
    done
    for l in TN TT; do
      for s in 1024x1 128x2048; do
        a=(--precision $f --transA ${l:0:1} --transB ${l:1:1} -m ${s%x*} -n ${s%x*} -k ${s%x*})
        [ ${s#*x} = 1 ] || a+=(--batch ${s#*x})
        bench_line s51-c "$f ${s%x*}^3 b${s#*x} $l new" "${a[@]}" > /dev/null
        ROCMATH_TUNING_DIR=/tmp/old-tables bench_line s51-c "$f ${s%x*}^3 b${s#*x} $l old" "${a[@]}" > /dev/null
      done
    done
  done
  lines_table s51-c
  ;;
esac
exit $status
