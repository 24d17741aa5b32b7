# Sourced by the session scripts (run-s10.sh and later; from run-s15.sh on through session.sh)
# after setting B (the bench binary).
# line LABEL [ENV=VALUE ...] -- FFT-ARGS: one bench run of ours and cuFFT's, their time lines
# (and any failure) under a "== LABEL" header.
line() {
  local label=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "== $label: $*"
  env ROCMATH_CACHE_DIR=/tmp/rmc "${envs[@]}" timeout 120 $B fft "$@" --device cuda 2>&1 | grep -E "rocmath |cuFFT  |FAIL|error|check: [^o]"
}
# batch_for N: transforms of N points in about 2^26 elements (at least 1).
batch_for() { local b=$(( (1 << 26) / $1 )); echo $(( b > 0 ? b : 1 )); }
# sweep_case C: n, p and b of a sweep entry ("6561" single, "d6561" double at half the batch,
# "h6561" half).
sweep_case() {
  n=${1#[dh]}; p=single
  case $1 in d*) p=double ;; h*) p=half ;; esac
  b=$(batch_for $n); [ $p = double ] && b=$(( (b + 1) / 2 ))
}
# env_ab TYPES CASES TAIL LABEL_A LABEL_B ENV=VALUE: for each sweep case, each transform type's
# line as it is (labelled LABEL_A) and with ENV=VALUE (LABEL_B), labels ending in TAIL.
env_ab() {
  local types=$1 cases=$2 tail=$3 label_a=$4 label_b=$5 setting=$6 c t args
  for c in $cases; do
    sweep_case $c
    for t in $types; do
      args=(--precision $p --type $t --length $n --batch $b)
      line "$t $p $n $label_a$tail" -- "${args[@]}"
      line "$t $p $n $label_b$tail" $setting -- "${args[@]}"
    done
  done
}
# test_run SECONDS BINARY [FILTER ...]: one carried test binary with ROCMATH_REQUIRE_GPU=1: its
# test lines and failures (read them: the pipeline's status is cut's, not the tests'). Every
# FILTER is passed (until the forty-first session only the first was).
test_run() {
  local seconds=$1 binary=$2; shift 2
  ROCMATH_REQUIRE_GPU=1 ROCMATH_CACHE_DIR=/tmp/rmc timeout "$seconds" .carry/tests/"$binary" "$@" 2>&1 | grep -E "^test |test result|panicked|failed|FAIL|error| checked" | cut -c1-400 || status=1
}
