#!/usr/bin/env bash
# PreToolUse: turn a deploy into a dry run through updatedInput.
input=$(cat)
if printf '%s' "$input" | grep -q '"command":"[^"]*deploy'; then
  printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"dry run only","updatedInput":{"command":"echo dry-run: deploy skipped by the bash hook"}}}'
fi
