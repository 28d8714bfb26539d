#!/usr/bin/env bash
# Fuzz campaign: runs every fuzz target in the repository for a budget.
#
#   scripts/fuzz.sh 60s            each target for 60 seconds
#   scripts/fuzz.sh 5000x          each target for 5000 inputs (CI smoke)
#   scripts/fuzz.sh 30s FuzzParse  only targets whose name matches the regex
#
# Targets are discovered from `func FuzzX(` in *_test.go, so a new target is
# picked up without editing this file. One line per target:
#
#   ./skills FuzzParseSpec  ok  execs=123456  new=3  corpus=21
#
# execs is the coordinator's last count; new is the number of inputs the run
# added to the cache corpus ("new interesting"); corpus is the committed seed
# corpus size. The exit status is non-zero when a target fails, and the line
# names the crasher file go wrote under the package's testdata/fuzz/FuzzX/.
#
# A timed budget (60s) can end with a spurious "context deadline exceeded"
# from Go 1.26's fuzz coordinator (golang/go#75804): the run found nothing,
# but go test exits 1. When that exact message is the failure and no crasher
# file was written, the line says "ok (spurious deadline)". Counted budgets
# (5000x) do not hit it. Logs of every target are kept in $FUZZ_LOG_DIR
# (default: a temporary directory, printed at the end). FUZZ_JOBS=N runs N
# targets at once; the lines come out in target order all the same.
# FUZZ_WORKERS=N gives each target N worker processes (go's -parallel; by
# default one per core): for a short counted smoke one worker is faster,
# since starting and feeding a second worker costs more than it fuzzes
# (a 500x target: 0.5-0.7 s with one worker, 1.2-2.0 s with two).
# FUZZ_PKGS=REGEX keeps only the targets of the package directories it
# matches (^[.]/proto17$, ...): CI's smoke fuzzes the decoders of
# bytes from servers, sockets, clients and models, whose packages' fuzzing
# builds are a fraction of the whole; every target's seeds run in go test.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/fuzz.sh DURATION|COUNTx [TARGET-REGEX]" >&2
  exit 2
fi
budget=$1
filter=${2:-.}
case "$budget" in
  *x) minimize=200x ;;              # counted budget: bounded minimization too
  *[0-9]s|*m|*h|*ms) minimize=30s ;;
  *) echo "fuzz.sh: budget must look like 60s, 2m or 5000x, got $budget" >&2; exit 2 ;;
esac
logdir=${FUZZ_LOG_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/gtnh-fuzz.XXXXXX")}
mkdir -p "$logdir"

# pkg-dir<TAB>FuzzName, sorted, without duplicates.
targets=$(grep -rHoE --include='*_test.go' --exclude-dir=node_modules --exclude-dir=.git \
            '^func Fuzz[A-Za-z0-9_]*\(' . |
          sed -E 's#^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\($#\1\t\2#' |
          sort -u | awk -F'\t' -v re="$filter" -v pre="${FUZZ_PKGS:-.}" '$2 ~ re && $1 ~ pre')
if [ -z "$targets" ]; then
  echo "fuzz.sh: no fuzz target matches $filter" >&2
  exit 2
fi

# Each package's test binary is built once with the fuzzing instrumentation
# and every target of the package runs from it: go test -fuzz would link a
# new binary for each target, and that link, not the fuzzing, was most of a
# 500x smoke (3.3 s against 0.3 s for a target).
#
# FUZZ_INSTRUMENT says what the instrumentation covers:
# - all (the default): what go test -fuzz instruments, the package and
#   everything it imports, the standard library too. go test -fuzz takes
#   one package, so each package is built by its own go test -c -fuzz,
#   FUZZ_JOBS at once; with an empty build cache each of them compiles the
#   standard library and the dependencies again with the instrumentation.
# - module: only this module's packages (the compiler's -d=libfuzzer, which
#   is what go test -fuzz passes), every package's binary built by one go
#   test -c: the standard library and the dependencies are the ones the
#   tests compiled, found in the build cache. Coverage guides the inputs
#   through this module's code only, which a short smoke does not need
#   more of: the smoke proves that each target fuzzes.
bindir=$(mktemp -d "${TMPDIR:-/tmp}/gtnh-fuzzbin.XXXXXX")
trap 'rm -rf "$bindir"' EXIT
cachedir=${FUZZ_CACHE_DIR:-$(go env GOCACHE)/fuzz}
instrument=${FUZZ_INSTRUMENT:-all}
case "$instrument" in
  all|module) ;;
  *) echo "fuzz.sh: FUZZ_INSTRUMENT must be all or module, got $instrument" >&2; exit 2 ;;
esac
module=$(go list -m)

# run_one PKG FN N BIN IMPORTPATH: fuzzes one target with the package's
# binary BIN and writes its line (and, when it failed, the reasons) to
# $logdir/N.result; N.failed marks a failure.
run_one() {
  local pkg=$1 fn=$2 n=$3 bin=$4 importpath=$5
  local corpus="$pkg/testdata/fuzz/$fn"
  local before after crashers last execs newi size result rc
  before=$(ls "$corpus" 2>/dev/null | sort)
  local log="$logdir/$(echo "$pkg" | tr '/.' '__')_$fn.log"
  if [ -x "$bin" ]; then
    # The binary runs in its package's directory, as go test runs it: the
    # seed corpus and a crasher's file are under testdata/fuzz/ there.
    (cd "$pkg" && "$bin" -test.run='^$' -test.fuzz="^${fn}\$" -test.fuzztime="$budget" \
      -test.fuzzminimizetime="$minimize" -test.fuzzcachedir="$cachedir/$importpath" \
      ${FUZZ_WORKERS:+-test.parallel="$FUZZ_WORKERS"}) >"$log" 2>&1
    rc=$?
  else
    cat "$bin.log" >"$log" 2>/dev/null; echo "fuzz.sh: building $pkg's fuzzing test binary failed" >>"$log"
    rc=1
  fi
  after=$(ls "$corpus" 2>/dev/null | sort)
  crashers=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed '/^$/d')
  last=$(grep -E 'execs: [0-9]+' "$log" | tail -n 1)
  execs=$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' <<<"$last")
  newi=$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$last")
  size=$(printf '%s\n' "$before" | sed '/^$/d' | wc -l)
  result=ok
  if [ $rc -ne 0 ]; then
    # The race's signature: a bare "context deadline exceeded" line under
    # "--- FAIL: FuzzX", no crasher file, no panic, no failure message from
    # a test file (file.go:NN:), no "Failing input written".
    if [ -z "$crashers" ] && grep -qE '^\s*context deadline exceeded\s*$' "$log" &&
       ! grep -qE 'Failing input written|panic:|\.go:[0-9]+:' "$log"; then
      result="ok (spurious deadline)"
    else
      result=FAIL
      : >"$logdir/$n.failed"
    fi
  fi
  # A binary without coverage counters fuzzes blind: go says so in a
  # warning and goes on; here it is a failure, so that a build that lost
  # its instrumentation (FUZZ_INSTRUMENT=module's -gcflags) cannot pass.
  if [ "$result" != FAIL ] && grep -q 'not built with coverage instrumentation' "$log"; then
    result=FAIL
    : >"$logdir/$n.failed"
  fi
  {
    printf '%-20s %-24s %-24s execs=%-10s new=%-5s corpus=%s\n' "$pkg" "$fn" "$result" "${execs:-?}" "${newi:-?}" "$size"
    if [ "$result" = FAIL ]; then
      if [ -n "$crashers" ]; then
        while read -r c; do echo "    crasher: $corpus/$c"; done <<<"$crashers"
      fi
      grep -E -m 8 'Error|panic|FAIL|--- |failed|\.go:[0-9]+|coverage instrumentation' "$log" | sed 's/^/    /'
      echo "    log: $log"
    fi
  } >"$logdir/$n.result"
}

# pkg_key PKG: a file name for the package directory PKG.
pkg_key() { echo "$1" | tr '/.' '__'; }

# build_pkg PKG: builds PKG's fuzzing binary as go test -fuzz would
# (FUZZ_INSTRUMENT=all); its log is kept beside it.
build_pkg() {
  local bin
  bin="$bindir/$(pkg_key "$1").test"
  go test -c -fuzz=. -o "$bin" "$1" >"$bin.log" 2>&1 || rm -f "$bin"
}

# build_module PKG...: builds the binaries of every PKG with this module's
# packages instrumented (FUZZ_INSTRUMENT=module), in one go test -c per
# group of packages whose binaries' names differ (go test -c -o DIR/ names
# a binary after the last element of its import path).
build_module() {
  local groups g dir pkg elem
  # Package directory<TAB>group number: a package joins the first group
  # that has no binary of its name yet.
  groups=$(printf '%s\n' "$@" | awk '{
      n = split($0, parts, "/"); elem = parts[n]; if ($0 == ".") elem = "."
      g = 1; while ((g, elem) in used) g++
      used[g, elem] = 1; print $0 "\t" g }')
  for g in $(cut -f2 <<<"$groups" | sort -un); do
    dir="$bindir/group$g"
    mkdir -p "$dir"
    # shellcheck disable=SC2046 # package directories have no spaces
    go test -c -o "$dir/" -gcflags="$module/...=-d=libfuzzer" \
      $(awk -F'\t' -v g="$g" '$2 == g {print $1}' <<<"$groups") >"$dir/build.log" 2>&1
    while IFS=$'\t' read -r pkg _; do
      elem=${pkg##*/}
      [ "$pkg" = . ] && elem=${module##*/}
      if [ -x "$dir/$elem.test" ]; then
        mv "$dir/$elem.test" "$bindir/$(pkg_key "$pkg").test"
      else
        cp "$dir/build.log" "$bindir/$(pkg_key "$pkg").test.log"
      fi
    done < <(awk -F'\t' -v g="$g" '$2 == g' <<<"$groups")
  done
}

jobs_max=${FUZZ_JOBS:-1}
# Targets grouped by package, in the order they are listed.
pkgs=$(cut -f1 <<<"$targets" | uniq)
if [ "$instrument" = module ]; then
  # shellcheck disable=SC2086 # package directories have no spaces
  build_module $pkgs
else
  while read -r pkg; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    build_pkg "$pkg" &
  done <<<"$pkgs"
  wait
fi

# FUZZ_JOBS targets fuzz at once (default 1): a one-worker target for a
# short budget is mostly one core's work starting up.
count=0
while IFS=$'\t' read -r pkg fn; do
  count=$((count + 1))
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  run_one "$pkg" "$fn" "$count" "$bindir/$(pkg_key "$pkg").test" "$module${pkg#.}" &
done <<<"$targets"
wait
failed=0
for n in $(seq 1 "$count"); do
  cat "$logdir/$n.result"
  [ -e "$logdir/$n.failed" ] && failed=$((failed + 1))
done

echo "fuzz.sh: $count targets, budget $budget each, $failed failed; logs in $logdir"
[ $failed -eq 0 ]
