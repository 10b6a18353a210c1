#!/usr/bin/env bash
# Builds the release binaries, cmd/starter and cmd/worker, into DIR (default dist/):
# without the symbol table and DWARF debug information (-ldflags "-s -w"), without
# the build machine's paths (-trimpath), and without cgo (every dependency, SQLite
# included, is pure Go), so they run on any Linux of the same architecture.
# Panics still print full stack traces with function names and lines: Go keeps
# its own tables for that. What is lost is debugging with dlv/gdb and `go tool
# nm`; build without this script for that. The worker leaves the embedded server
# out (-tags toolpipe_noserver). Sizes: BENCHMARKS.md, "Binary size".
#   scripts/build-release.sh [DIR]
#   GOOS=darwin GOARCH=arm64 scripts/build-release.sh dist/darwin-arm64
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.27.3}" GOFLAGS="${GOFLAGS:--buildvcs=false}" CGO_ENABLED=0
out="${1:-dist}"
mkdir -p "$out"
go build -trimpath -ldflags="-s -w" -o "$out/starter" ./cmd/starter
# The worker only ever connects to a cluster: built without the embedded Temporal
# server and its Web UI (worker --dev then says to use `starter dev`).
go build -trimpath -ldflags="-s -w" -tags toolpipe_noserver -o "$out/worker" ./cmd/worker
ls -l "$out/starter" "$out/worker"
