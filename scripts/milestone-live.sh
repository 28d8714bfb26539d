#!/usr/bin/env bash
# milestone-live.sh: GTNH's Stone Age milestone ("build coke_oven and
# collect 8 minecraft:coal:1") from an empty inventory, live against the
# project's test server, in the fresh_start worlds of the given seeds
# (default 0 to 5). Prints each world's steps, game ticks and wall time.
#
#   scripts/milestone-live.sh          # seeds 0,1,2,3,4,5
#   scripts/milestone-live.sh 1,3      # seeds 1 and 3
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-0,1,2,3,4,5}
GTNH_LIVE_MILESTONE="$seeds" go test ./cmd/agent -run '^TestStoneAgeMilestoneLive$' -count=1 -v -timeout 30m |
	grep -E '^(---|ok|FAIL|PASS)|seed [0-9]+:'
