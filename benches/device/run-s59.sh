#!/usr/bin/env bash
# Fifty-ninth session: run-s58.sh's phase a without its goals run (its PHASE=t), for a machine
# that need not be the H100 (no H100 could be started): the table tests of the configs new to
# their family's tables, then every table config of the gemm-test groups and of xf32. Same
# staging and carry as run-s58.sh. Output: $OUT/s59-t*.
PHASE=t TAG=s59 exec bash benches/device/run-s58.sh
