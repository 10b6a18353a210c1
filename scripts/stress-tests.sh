#!/usr/bin/env bash
# The flake hunt (issue 39): runs the README's test command, or the packages named,
# N times with CPU hogs beside it, as a busy machine would, and prints each failing
# test with its package and run. A test that fails once in such runs is a defect:
# fix its cause, never retry it.
#
#   scripts/stress-tests.sh                      # ./... three times, two hogs
#   RUNS=10 HOGS=2 scripts/stress-tests.sh ./test/claudesdk/ ./workflows/
#   RUN='TestKilledMidBash' RUNS=20 scripts/stress-tests.sh ./test/claudesdk/
#
# RUNS (default 3) runs; HOGS (default 2) busy loops (stress-ng --cpu when it is
# installed, shell loops otherwise); RUN a -run pattern; STOP_ON_FAIL=1 stops at the
# first failing run. Each run's output is kept in $OUT (default a new temporary
# directory), run-N.json in go test -json form. Exit status 1 if any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.27.3}"
runs="${RUNS:-3}"
hogs="${HOGS:-2}"
out="${OUT:-$(mktemp -d -t toolpipe-stress.XXXXXX)}"
mkdir -p "$out"
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
args=(-count=1 -timeout 25m -json)
[ -n "${RUN:-}" ] && args+=(-run "$RUN")

if ! [[ $runs =~ ^[1-9][0-9]*$ ]] || ! [[ $hogs =~ ^[0-9]+$ ]]; then
  echo "stress-tests: RUNS must be a positive number and HOGS a number (got RUNS=$runs HOGS=$hogs)" >&2
  exit 2
fi

# The build is not what is measured: compile the tests once, without hogs.
go test -count=1 -run '^$' "${pkgs[@]}" >"$out/build.txt" 2>&1 || {
  echo "stress-tests: the packages do not build:" >&2
  tail -20 "$out/build.txt" >&2
  exit 2
}

hog_pids=()
stop_hogs() {
  for p in "${hog_pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  hog_pids=()
}
trap stop_hogs EXIT
start_hogs() {
  [ "$hogs" -gt 0 ] || return 0
  if command -v stress-ng >/dev/null; then
    stress-ng --cpu "$hogs" --quiet >/dev/null 2>&1 &
    hog_pids+=($!)
  else
    for _ in $(seq "$hogs"); do
      (while :; do :; done) &
      hog_pids+=($!)
    done
  fi
}

failed_runs=0
for i in $(seq "$runs"); do
  start_hogs
  t0=$(date +%s)
  go test "${args[@]}" "${pkgs[@]}" >"$out/run-$i.json" 2>"$out/run-$i.stderr"
  rc=$?
  t1=$(date +%s)
  stop_hogs
  # Failing tests (top-level and subtests) and failing packages, from the JSON.
  fails=$(python3 - "$out/run-$i.json" <<'EOF'
import json, sys
seen = []
for line in open(sys.argv[1], errors="replace"):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("Action") == "fail":
        name = e.get("Package", "?") + (" " + e["Test"] if e.get("Test") else " (package)")
        if name not in seen:
            seen.append(name)
for n in seen:
    print(n)
EOF
)
  if [ "$rc" -eq 0 ]; then
    echo "run $i/$runs: ok in $((t1 - t0)) s"
  else
    failed_runs=$((failed_runs + 1))
    echo "run $i/$runs: FAILED (exit $rc) in $((t1 - t0)) s; output in $out/run-$i.json"
    if [ -n "$fails" ]; then
      sed 's/^/  FAIL /' <<<"$fails"
    else
      sed 's/^/  /' "$out/run-$i.stderr" | tail -20
    fi
    [ "${STOP_ON_FAIL:-0}" = 1 ] && break
  fi
done
echo "$((runs - failed_runs)) passed, $failed_runs failed"
[ "$failed_runs" -eq 0 ]
