#!/usr/bin/env bash
# build-memory.sh: peak memory and time of a first `go build ./cmd/agent`
# with the module cache warm and the build cache empty, as on a fresh
# machine after `go mod download`; fails when the peak is over the bound
# (BUILD_MEM_LIMIT_MB, default 1024).
set -euo pipefail
cd "$(dirname "$0")/.."
limit_mb=${BUILD_MEM_LIMIT_MB:-1024}
if [ ! -x /usr/bin/time ]; then
	echo "build-memory.sh: needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2
	exit 2
fi
go mod download
cache=$(mktemp -d)
out=$(mktemp -d)
trap 'chmod -R u+w "$cache" 2>/dev/null; rm -rf "$cache" "$out"' EXIT
GOCACHE=$cache /usr/bin/time -v go build -o "$out/agent" ./cmd/agent 2>"$out/time" || {
	cat "$out/time" >&2
	exit 1
}
peak_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/time")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/time")
user=$(awk -F': ' '/User time/ {print $2}' "$out/time")
peak_mb=$((peak_kb / 1024))
echo "first build of cmd/agent: peak RSS ${peak_mb} MB (bound ${limit_mb} MB), wall ${wall}, CPU ${user} s user, $(nproc) cores"
if [ "$peak_mb" -gt "$limit_mb" ]; then
	echo "build-memory.sh: peak RSS ${peak_mb} MB is over the bound ${limit_mb} MB" >&2
	exit 1
fi
