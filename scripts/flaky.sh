#!/usr/bin/env bash
# flaky.sh [RUNS] [PACKAGES...]: runs the test suite RUNS times in a row
# (default 3, packages default ./...) while two CPU-bound processes keep the
# machine busy, and fails on the first failing run. A test whose outcome
# depends on the wall clock or on the machine's load shows up here; the
# tests are meant to pass it every time.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
pkgs=("$@")
[ ${#pkgs[@]} -eq 0 ] && pkgs=(./...)

burn() { while :; do :; done; }
burn & b1=$!
burn & b2=$!
trap 'kill $b1 $b2 2>/dev/null || true' EXIT

for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  echo "== run $i of $runs (two CPU burners running): go test -count=1 ${pkgs[*]}"
  if ! go test -count=1 "${pkgs[@]}"; then
    echo "FAIL: run $i of $runs failed under load"
    exit 1
  fi
  echo "== run $i passed in $(( $(date +%s) - start )) s"
done
echo "all $runs runs passed under load"
