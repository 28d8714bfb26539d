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

without=() with=()
for ((i = 0; i < runs; i++)); do
	without+=("$(cpu_ms run --json "$@")")
	with+=("$(cpu_ms run --json --metrics 127.0.0.1:0 "$@")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
mean() { printf '%s\n' "$@" | awk '{t += $1} END {printf "%.1f\n", t / NR}'; }
mw=$(median "${without[@]}") mm=$(median "${with[@]}")
aw=$(mean "${without[@]}") am=$(mean "${with[@]}")
echo "without --metrics: median ${mw} ms, mean ${aw} ms ($runs runs)"
echo "with --metrics:    median ${mm} ms, mean ${am} ms"
awk -v a="$mw" -v b="$mm" -v c="$aw" -v d="$am" 'BEGIN {printf "more CPU: median %+.1f %%, mean %+.1f %%\n", 100 * (b - a) / a, 100 * (d - c) / c}'
