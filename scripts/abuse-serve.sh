#!/usr/bin/env bash
# Abuse of `agent serve`: builds the agent and a hostile client
# (internal/serveabuse), then for each abuse starts a fresh server on a
# loopback port, runs the abuse with a well-behaved client beside it, reads
# the server's peak resident memory (VmHWM in /proc) and times SIGTERM.
#
#   scripts/abuse-serve.sh            all three
#   scripts/abuse-serve.sh hello      one: hello, deaf or wait
#
# Fails when the server dies, a peak is over 200 MB, a well-behaved client
# is not served, or SIGTERM takes more than 2 s.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/agent" ./cmd/agent
go build -o "$tmp/serveabuse" ./internal/serveabuse
limit_kb=$((200 * 1000))
status=0

start_server() {
	port=$("$tmp/serveabuse" port)
	addr=127.0.0.1:$port
	"$tmp/agent" serve --body sim --listen "tcp://$addr" --write-timeout 3s "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 100); do
		grep -q '^serving ' "$tmp/out" 2>/dev/null && return
		kill -0 "$pid" 2>/dev/null || { echo "agent serve did not start:"; cat "$tmp/err"; exit 1; }
		sleep 0.1
	done
	echo "agent serve did not start in 10 s"; exit 1
}

# stop_server NAME: checks the server is alive, reads its peak memory, then
# times SIGTERM.
stop_server() {
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "  FAIL: agent serve died"; tail -5 "$tmp/err"; status=1; return
	fi
	hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
	echo "  peak RSS of agent serve: $((hwm / 1024)) MiB (VmHWM $hwm kB; bound 200 MB)"
	[ "$hwm" -le "$limit_kb" ] || { echo "  FAIL: peak over 200 MB"; status=1; }
	t0=$(date +%s%N)
	kill -TERM "$pid"
	wait "$pid" || true
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "  SIGTERM $1: exited in $ms ms (bound 2000 ms)"
	[ "$ms" -le 2000 ] || { echo "  FAIL: SIGTERM took over 2 s"; status=1; }
	drops=$(grep -c 'dropping a' "$tmp/err" || true)
	refusals=$(grep -c 'refusing a connection' "$tmp/err" || true)
	echo "  server log: $drops connections dropped with a reason, $refusals refusals logged (sampled)"
	{ grep -o '"reason":"[^"]*"' "$tmp/err" || true; } | sort | uniq -c | sort -rn | head -4 | sed 's/^/   /'
}

# sigterm_during NAME ARGS...: SIGTERM while the abuse is still going on.
sigterm_during() {
	local name=$1
	shift
	start_server
	"$tmp/serveabuse" "$@" -addr "$addr" >/dev/null 2>&1 &
	local abuser=$!
	sleep 1.5
	stop_server "during $name"
	kill "$abuser" 2>/dev/null || true
	wait "$abuser" 2>/dev/null || true
}

run() {
	echo "== $1"
	start_server
	"$tmp/serveabuse" "$@" -addr "$addr" || status=1
	stop_server "after $1"
}

for mode in ${1:-hello deaf wait}; do
	case $mode in
	hello)
		run hello -conns 400 -hold 4s
		sigterm_during "a hello flood" hello -conns 400 -hold 10s
		;;
	deaf)
		run deaf -conns 6 -hold 6s
		sigterm_during "deaf clients" deaf -conns 6 -hold 10s
		;;
	wait)
		run wait
		echo "== idle"
		start_server
		stop_server "when idle"
		;;
	*) echo "unknown abuse $mode (hello, deaf or wait)"; exit 2 ;;
	esac
done
exit $status
