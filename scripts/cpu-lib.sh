# cpu-lib.sh: shared by scripts/metrics-cpu.sh and scripts/view-cpu.sh,
# which source it after `cd` to the repository: builds the agent once into
# $bin and gives cpu_ms, median and mean.
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

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
mean() { printf '%s\n' "$@" | awk '{t += $1} END {printf "%.1f\n", t / NR}'; }
