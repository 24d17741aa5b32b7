# Sourced by the session scripts (run-s10.sh, run-s11.sh) after setting B (the bench binary).
# line LABEL [ENV=VALUE ...] -- FFT-ARGS: one bench run of ours and cuFFT's, their time lines
# (and any failure) under a "== LABEL" header.
line() {
  local label=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "== $label: $*"
  env ROCMATH_CACHE_DIR=/tmp/rmc "${envs[@]}" timeout 120 $B fft "$@" --device cuda 2>&1 | grep -E "rocmath |cuFFT  |FAIL|error|check: [^o]"
}
