#!/usr/bin/env bash
# Blocking: exit 2 with the reason on stderr.
cat >/dev/null
echo "blocked by policy: this tool is frozen today (bash hook)" >&2
exit 2
