#!/usr/bin/env bash
# Runs every fuzz target for a short while (FUZZTIME, default 10s each), one target
# per `go test -fuzz` invocation as Go requires. CI runs it; for a longer hunt:
#   FUZZTIME=10m scripts/fuzz-short.sh
# A failure leaves its input under <package>/testdata/fuzz/<Target>/: commit it as a
# regression seed once the bug is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.27.3}"
fuzztime="${FUZZTIME:-10s}"

targets=(
  "./tool/readonly FuzzIsReadOnlyBash"  # a write, a redirect to a file or an unknown program is never read-only
  "./tool/readonly FuzzReadOnlyAgainstBash" # run in bubblewrap by bash, a read-only command writes nothing, runs nothing else
  "./permissions FuzzParseRule"       # rules round-trip; errors are clear; Decide accepts every parsed rule
  "./permissions FuzzDecideBash"      # deterministic; a command running a program no rule covers is never allowed
  "./hooks FuzzParse"                 # any hook output: no panic, deterministic, invariants of the outcome
  "./hooks FuzzParsePrompt"           # any model answer to a prompt hook: no panic, deterministic, only ok: false blocks
  "./internal/preview FuzzPreview"          # the preview cut: a prefix, within the limit, UTF-8 kept, newline rule
)
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  if [[ $name == FuzzReadOnlyAgainstBash ]] && ! { command -v bwrap && command -v strace; } >/dev/null; then
    echo "skip $name ($pkg): it runs commands in bubblewrap under strace; install them (apt-get install bubblewrap strace)"
    continue
  fi
  echo "fuzz $name ($pkg) for $fuzztime"
  # Minimizing a large new input could take the whole budget: keep it short.
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 3s "$pkg"
done
