#!/usr/bin/env bash
# PreToolUse: refuse any Bash command that contains "rm -rf".
input=$(cat)
if printf '%s' "$input" | grep -q 'rm -rf'; then
  printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed in this project (bash hook)"}}'
fi
exit 0
