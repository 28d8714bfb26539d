#!/usr/bin/env bash
# Soak: the plan-act loop for many steps in the simulated world with faults
# injected into the body (refused actions, timeouts, disconnects, position
# corrections). Prints steps, wall time, heap and goroutines at the start
# (after warm-up) and the end, trace lines and the metrics check.
#
#   scripts/soak.sh            100,000 steps
#   scripts/soak.sh 20000      another count
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-100000}
GTNH_SOAK_STEPS=$steps go test ./internal/soak -run '^TestSoak$' -count=1 -v -timeout 3h 2>&1 |
  sed -n 's/^ *soak_test.go:[0-9]*: //p; /^--- \|^ok\|^FAIL\|Error/p'
