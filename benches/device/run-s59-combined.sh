#!/usr/bin/env bash
# One call for a session short of device time: the table tests (run-s59.sh), then, on an H100
# only, run-s58.sh's phase b (the H200-measured tuning entries) for what is left of LIMIT
# seconds (default 560). Same staging and carry as run-s58.sh.
start=$SECONDS
bash benches/device/run-s59.sh; status=$?
if nvidia-smi -L | grep -q H100; then
  left=$(( ${LIMIT:-560} - (SECONDS - start) ))
  # (a step may run STEP_TIMEOUT, 120 s, past B_UNTIL)
  if [ $left -gt 180 ]; then PHASE=b B_FROM=${B_FROM:-0} B_UNTIL=$((left - 120)) bash benches/device/run-s58.sh || status=1; fi
fi
exit $status
