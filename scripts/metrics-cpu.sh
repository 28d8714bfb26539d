#!/usr/bin/env bash
# metrics-cpu.sh: the CPU time of whole `agent run` processes with and
# without --metrics, alternated so that the machine's load falls on both
# alike (docs/metrics.md quotes the figures). Usage:
#   scripts/metrics-cpu.sh [RUNS] [agent run flags...]
# e.g. scripts/metrics-cpu.sh 6 --scenario fresh_start --max-steps 400 \
#        --goal "build coke_oven and collect 8 minecraft:coal:1"
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-40}
shift || true
. scripts/cpu-lib.sh

without=() with=()
for ((i = 0; i < runs; i++)); do
	without+=("$(cpu_ms run --json "$@")")
	with+=("$(cpu_ms run --json --metrics 127.0.0.1:0 "$@")")
done
mw=$(median "${without[@]}") mm=$(median "${with[@]}")
aw=$(mean "${without[@]}") am=$(mean "${with[@]}")
echo "without --metrics: median ${mw} ms, mean ${aw} ms ($runs runs)"
echo "with --metrics:    median ${mm} ms, mean ${am} ms"
awk -v a="$mw" -v b="$mm" -v c="$aw" -v d="$am" 'BEGIN {printf "more CPU: median %+.1f %%, mean %+.1f %%\n", 100 * (b - a) / a, 100 * (d - c) / c}'
