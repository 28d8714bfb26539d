#!/usr/bin/env bash
# view-cpu.sh: the CPU time of whole `agent run` processes without the web
# view, with it served (--ui) and nobody watching, and with the metrics
# served too (--ui and --metrics), alternated so that the machine's load
# falls on all alike (docs/view.md quotes the figures). Usage:
#   scripts/view-cpu.sh [RUNS] [agent run flags...]
# e.g. scripts/view-cpu.sh 4 --scenario fresh_start --max-steps 400 \
#        --goal "build coke_oven and collect 8 minecraft:coal:1"
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
shift || true
. scripts/cpu-lib.sh

without=() ui=() both=()
for ((i = 0; i < runs; i++)); do
	without+=("$(cpu_ms run --json "$@")")
	ui+=("$(cpu_ms run --json --ui 127.0.0.1:0 "$@")")
	both+=("$(cpu_ms run --json --ui 127.0.0.1:0 --metrics 127.0.0.1:0 "$@")")
done
mw=$(median "${without[@]}") aw=$(mean "${without[@]}")
echo "without the view:       median ${mw} ms, mean ${aw} ms ($runs runs)"
for name in ui both; do
	declare -n xs=$name
	m=$(median "${xs[@]}") a=$(mean "${xs[@]}")
	label="--ui"
	[ "$name" = both ] && label="--ui --metrics"
	awk -v l="$label" -v m="$m" -v a="$a" -v mw="$mw" -v aw="$aw" 'BEGIN {
		printf "%-23s median %s ms, mean %s ms: more CPU median %+.1f %%, mean %+.1f %%\n", "with " l ":", m, a, 100 * (m - mw) / mw, 100 * (a - aw) / aw }'
done
