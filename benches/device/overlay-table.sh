# Sourced: overlay_table DIR FAMILY LAYOUT CONFIG... writes DIR/sm_90/gemm_FAMILY_LAYOUT.json, a
# table that lists each CONFIG once (at made-up sizes m = 1001, 1002, ...), so that the table
# tests (`table_configs_*`, `every_xf32_table_config_matches_reference`) run configs that a bench
# sweep timed, before a committed table takes one. Point ROCMATH_TUNING_DIR at DIR.
overlay_table() {
  local dir=$1 fam=$2 layout=$3 i=0 c
  shift 3
  mkdir -p "$dir/sm_90"
  {
    printf '{"format": 1, "op": "gemm", "arch": "sm_90", "types": "%s", "layout": "%s",' "$fam" "$layout"
    printf ' "generator": "rocmath-gemm/2", "device": "sweep overlay", "tuned": true, "date": "%s",' "$(date +%F)"
    printf ' "fallback": "%s", "entries": [' "$1"
    for c; do
      i=$((i + 1))
      [ $i -gt 1 ] && printf ', '
      printf '{"m": %d, "n": 64, "k": 64, "batch": 1, "solution": "%s", "gflops": 1.0}' $((1000 + i)) "$c"
    done
    printf ']}\n'
  } > "$dir/sm_90/gemm_${fam}_${layout}.json"
}
