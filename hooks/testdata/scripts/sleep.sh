#!/usr/bin/env bash
# Sleeps $1 seconds (default 30), then would deny: a timed-out hook must not block.
cat >/dev/null
sleep "${1:-30}"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"too late"}}'
