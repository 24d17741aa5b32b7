#!/usr/bin/env bash
# Forty-fourth session (FFT: leaner variants, s43-variants.patch). After staging rocmath-bench
# (this build), rocmath-bench-old (the build before the patch, 5be4c69), the ahead-of-time file
# and the fft, fft_args and aot test binaries into .carry, carry .carry.
# Output: $OUT/s44-$PHASE*.txt.
# PHASE=a: the new GPU test (leaner variants; plan print parse), then the full fft-test,
#          fft_args-test and aot-test, ROCMATH_REQUIRE_GPU=1.
# PHASE=b: the new build against the old one, same run, at the 13 lengths of s43-f.txt and the
#          32 that s43-variant-scan.txt predicts drop their exchange layouts (single c2c), and at
#          the 26 lengths of s43-a.txt (passes ahead: the 1.5x rule changes some picks); then the
#          FFT suite on the new build.
# PHASE=c: (the build where a radix-2 pass joins an odd pass, ROCMATH_FFT_PAIR_TWO rule 1 by
#          default) rule 1 against 0 (no pairing) and 2 (fewest lane slots) at 32 single c2c
#          lengths with a radix-2 pass (s44-c.txt); fft_args-test and aot-test (s44-c-tests.txt).
# PHASE=d: fft-test, ROCMATH_REQUIRE_GPU=1, with the rule in PAIR_RULE (s44-d-tests.txt).
source benches/device/session.sh
OLD=.carry/rocmath-bench-old
# bin_ab CASES: for each single c2c length, the new build's line and the old build's.
bin_ab() {
  local n b
  for n in $1; do
    b=$(batch_for $n)
    line "c2c single $n new" -- --precision single --type c2c --length $n --batch $b
    B=$OLD line "c2c single $n old" -- --precision single --type c2c --length $n --batch $b
  done
}
F_LENGTHS="5670 6174 2106 4914 7938 8190 9450 3402 1470 750 7000 375 6000"
SCAN_LENGTHS="990 1950 2002 2250 2366 2730 3234 3250 3510 3630 3750 3822 3850 4158 4550 4950 5070 5082 5250 5346 5390 5850 6006 6050 6318 6370 6534 7098 7150"
STEP_LENGTHS="96 104 234 250 936 972 1536 2106 2688 3072 3125 4116 4212 4860 5120 5625 5670 6174 6468 7203 7560 7680 8748 9000 9375 9720"
case $P in
a)
  nvidia-smi -L > "$OUT/s44-a-gpu.txt"
  {
    # Unfiltered: the test prints each plan's Stockham line (the kernel run, every block count).
    ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 .carry/tests/fft-test leaner_variants_only_where_they_hold_more_blocks plan_print_parses --nocapture 2>&1 | cut -c1-600
    test_run 340 fft-test
    test_run 40 fft_args-test
    test_run 40 aot-test
  } > "$OUT/s44-a-tests.txt" 2>&1
  ;;
b)
  nvidia-smi -L > "$OUT/s44-b-gpu.txt"
  bin_ab "$F_LENGTHS $SCAN_LENGTHS" > "$OUT/s44-b-layouts.txt" 2>&1
  bin_ab "$(echo $STEP_LENGTHS | tr ' ' '\n' | grep -vxE "$(echo $F_LENGTHS | tr ' ' '|')" | tr '\n' ' ')" > "$OUT/s44-b-ahead.txt" 2>&1
  ROCMATH_CACHE_DIR=/tmp/rmc timeout 200 $B suite --only fft --device cuda > "$OUT/s44-b-fft-suite.txt" 2>&1
  ;;
c)
  nvidia-smi -L > "$OUT/s44-c-gpu.txt"
  for n in 8190 7938 6174 5670 4914 4950 5850 3822 3750 7150 2250 5082 3630 1470 9450 1950 2106 7098 3250 2366 1536 96 7680 4374 882 1458 2646 8262 242 6 30 126; do
    b=$(batch_for $n)
    for rule in 1 0 2; do
      line "c2c single $n rule $rule" ROCMATH_FFT_PAIR_TWO=$rule -- --precision single --type c2c --length $n --batch $b
    done
  done > "$OUT/s44-c.txt" 2>&1
  {
    test_run 40 fft_args-test
    test_run 60 aot-test
  } > "$OUT/s44-c-tests.txt" 2>&1
  ;;
d)
  nvidia-smi -L > "$OUT/s44-d-gpu.txt"
  ROCMATH_FFT_PAIR_TWO=${PAIR_RULE:-1} test_run 400 fft-test > "$OUT/s44-d-tests.txt" 2>&1
  ;;
esac
exit $status
