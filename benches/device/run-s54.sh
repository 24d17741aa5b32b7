#!/usr/bin/env bash
# Fifty-fourth session. Stage first (the bench and the gemm test binary rebuilt into .carry),
# carry .carry. Output: $OUT/s54-$PHASE*.txt.
# (The `e` configs and the 256 x 128 tiles these phases pin were reverted after them: they are in
# commit 0461767 only. Phases a, c and d ran on that build.)
# PHASE=a: GEMM epilogue staging buffers (`e` configs, EPI_BUFS_ in gemm_sm90.hip): every module
#          compiled first (8 at a time); then, two rounds, 8192 x 8192 x 128 h NT and NN (128 x
#          256 s3, the tables' pick, against s3e8, s3e4 and 128 x 128 s6e4, s4e4), hss and bss NT
#          (128 x 128 s6 against 128 x 256 s3e4, 128 x 128 s5e4, s4e4), hss and bss NT 128^3 x
#          2048 (128 x 128 s6 against s5e4, s4e4); one round of h NT 4096^3 and 8192^3 (s3
#          against s3e8).
# PHASE=c: ping-pong 64 x 256 tiles (two consumers on 64-row tiles in turn: one stores while the
#          other multiplies) at h NT and NN 8192 x 8192 x 128, 4 and 5 stages, 4 with a staging
#          buffer per chunk (s4e8); and 256 x 128 tiles (two consumers of 128 rows, cuBLAS's
#          tile here) with 3 and 4 stages, s4e4 and s4m; against 128 x 256 s3, two rounds.
# PHASE=d: the tile walk's group height (g1 to g32, tables: g8) at h NT and NN 8192 x 8192 x
#          128, 128 x 256 s3, two rounds.
source benches/device/session.sh
source benches/device/gemm-lib.sh
nvidia-smi -L > "$OUT/s54-$P-gpu.txt"
atom() { [ ${1:0:1} = b ] && echo bf16 || echo f16; }
# compile_pin PRECISION LAYOUT CONFIG: one small call of the pinned config (wgmma atom appended),
# in the background, so that the timed lines find its module in the kernel cache.
compile_pin() {
  ( timeout 240 $B gemm --device cuda --iters 1 --warmup 0 --no-peer --precision $1 --transA N --transB ${2:1:1} -m 256 -n 256 -k 64 --config ${3}_wgmma64xnx16$(atom $1) > /dev/null 2>&1 ) &
}
case $P in
a)
  ecfg="mt128x256x64_w2x1_s3e8_x_g8_o1 mt128x256x64_w2x1_s3e4_x_g8_o1 mt128x128x64_w2x1_s6e4_x_g8_o1 mt128x128x64_w2x1_s5e4_x_g8_o1 mt128x128x64_w2x1_s4e4_x_g8_o1"
  for f in h hss bss; do for c in $ecfg; do for l in NT NN; do
    # (hss and bss: NT only, and not the two configs whose f32 staging does not fit)
    [[ $f != h && ( $l = NN || $c == *_s3e8_* || $c == *_s6e4_* ) ]] && continue
    compile_pin $f $l $c
    while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.2; done
  done; done; done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do
    for l in NT NN; do for c in mt128x256x64_w2x1_s3_x_g8_o1 mt128x256x64_w2x1_s3e8_x_g8_o1 mt128x256x64_w2x1_s3e4_x_g8_o1 mt128x128x64_w2x1_s6e4_x_g8_o1 mt128x128x64_w2x1_s4e4_x_g8_o1; do
      bench_line s54-a "h $l 8192x8192x128 $c $r" --precision h --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 --config ${c}_wgmma64xnx16f16 > /dev/null
    done; done
    for f in hss bss; do for c in mt128x128x64_w2x1_s6_x_g8_o1 mt128x256x64_w2x1_s3e4_x_g8_o1 mt128x128x64_w2x1_s5e4_x_g8_o1 mt128x128x64_w2x1_s4e4_x_g8_o1; do
      bench_line s54-a "$f NT 8192x8192x128 $c $r" --precision $f --transA N --transB T -m 8192 -n 8192 -k 128 --config ${c}_wgmma64xnx16$(atom $f) > /dev/null
    done; done
    for f in hss bss; do for c in mt128x128x64_w2x1_s6_x_g8_o1 mt128x128x64_w2x1_s5e4_x_g8_o1 mt128x128x64_w2x1_s4e4_x_g8_o1; do
      bench_line s54-a "$f NT 128^3x2048 $c $r" --precision $f --transA N --transB T -m 128 -n 128 -k 128 --batch 2048 --config ${c}_wgmma64xnx16$(atom $f) > /dev/null
    done; done
  done
  for s in 4096 8192; do for c in mt128x256x64_w2x1_s3_x_g8_o1 mt128x256x64_w2x1_s3e8_x_g8_o1; do
    bench_line s54-a "h NT ${s}^3 $c" --precision h --transA N --transB T -m $s -n $s -k $s --config ${c}_wgmma64xnx16f16 > /dev/null
  done; done
  lines_table s54-a
  echo "lines done at $SECONDS s"
  ;;
c)
  pp="mt64x256x64_w2x1_s4_x_g8_o1 mt64x256x64_w2x1_s5_x_g8_o1 mt64x256x64_w2x1_s4e8_x_g8_o1 mt256x128x64_w2x1_s4_x_g8_o1 mt256x128x64_w2x1_s3_x_g8_o1 mt256x128x64_w2x1_s4e4_x_g8_o1 mt256x128x64_w2x1_s4m_x_g8_o1"
  for c in $pp; do for l in NT NN; do compile_pin h $l $c; done; done
  wait
  echo "compiled at $SECONDS s"
  for r in r1 r2; do for l in NT NN; do for c in mt128x256x64_w2x1_s3_x_g8_o1 $pp; do
    bench_line s54-c "h $l 8192x8192x128 $c $r" --precision h --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 --config ${c}_wgmma64xnx16f16 > /dev/null
  done; done; done
  lines_table s54-c
  ;;
d)
  for g in 1 2 4 16 32; do for l in NT NN; do compile_pin h $l mt128x256x64_w2x1_s3_x_g${g}_o1; done; done
  wait
  for r in r1 r2; do for l in NT NN; do for g in 8 1 2 4 16 32; do
    bench_line s54-d "h $l 8192x8192x128 g$g $r" --precision h --transA N --transB ${l:1:1} -m 8192 -n 8192 -k 128 --config mt128x256x64_w2x1_s3_x_g${g}_o1_wgmma64xnx16f16 > /dev/null
  done; done; done
  lines_table s54-d
  ;;
esac
exit $status
