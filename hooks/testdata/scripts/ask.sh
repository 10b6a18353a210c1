#!/usr/bin/env bash
# PreToolUse: a person must approve every call this hook sees.
cat >/dev/null
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"the bash hook wants a human to look"}}'
