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
bin=$(mktemp -d)/agent
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/agent

# cpu_ms ARGS...: the user+system CPU of one agent process, in ms (bash's
# times builtin reports the children of a subshell to the millisecond).
cpu_ms() {
	(
		"$bin" "$@" >/dev/null 2>&1 || true
		times
	) | awk 'NR == 2 {
		split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "%.0f\n", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000
	}'
}

without=() ui=() both=()
for ((i = 0; i < runs; i++)); do
	without+=("$(cpu_ms run --json "$@")")
	ui+=("$(cpu_ms run --json --ui 127.0.0.1:0 "$@")")
	both+=("$(cpu_ms run --json --ui 127.0.0.1:0 --metrics 127.0.0.1:0 "$@")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
mean() { printf '%s\n' "$@" | awk '{t += $1} END {printf "%.1f\n", t / NR}'; }
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
