#!/usr/bin/env bash
# The quest benchmark: "And So, It Begins" and "Tier 0 - Stone Age" in the
# simulated world, from an empty inventory in fresh_start played as GTNH
# plays it (--survival: day and night, hostile mobs, hunger; every survival
# reflex on, as agent run has them), with the goal planner. Runs the two
# lines three times: as the quest book stands
# (checkbox tasks need a person, so their quests and everything behind
# them are skipped), with --quests-checkbox, and with --quests-checkbox
# --quests-unlocked (each quest tried even when a prerequisite was not
# completed: what the agent can do quest by quest). Prints, for each, the figure
# ("N of M quests", and per line), every quest not completed with its
# reason, the blockers, the most quests blocked first, the deaths, and the
# steps spent storing items in chests and throwing junk away.
#
#   scripts/quests-bench.sh PATH          PATH: your modpack's quest book
#                                         (config/betterquesting, its
#                                         DefaultQuests directory, or a
#                                         DefaultQuests.json)
#   scripts/quests-bench.sh PATH SEED     another world seed (default 0)
#
# Exit 0 when both runs finished (whatever their figures), 2 when the
# agent could not start (a book it cannot read, a line it lacks).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/quests-bench.sh PATH [SEED]" >&2
  exit 2
fi
book=$1
seed=${2:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/agent" ./cmd/agent || exit 2
goal='line "And So, It Begins" and line "Tier 0 - Stone Age"'
for mode in "" "--quests-checkbox" "--quests-checkbox --quests-unlocked"; do
  echo "== fresh_start --survival, seed $seed, ${mode:-checkbox tasks left to a person}"
  "$tmp/agent" run --scenario fresh_start --survival --seed "$seed" --quests "$book" $mode --goal "$goal" --trace "$tmp/trace" >"$tmp/out" 2>"$tmp/err"
  code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
    cat "$tmp/err" >&2
    exit 2
  fi
  # The summary follows the blank line after the steps.
  sed -n '/^$/,$p' "$tmp/out" | sed '1d'
  # A death is a step result that says so (the trace's "died": true).
  echo "deaths: $(grep -o '"died":true' "$tmp/trace" | wc -l | tr -d ' ')"
  # What a full inventory cost: steps putting items into chests, and
  # steps throwing junk away.
  echo "storing steps: $(grep -cE '^ +step +[0-9]+ +store_items ' "$tmp/out"), throwing steps: $(grep -cE '^ +step +[0-9]+ +drop_items ' "$tmp/out")"
  echo
done
