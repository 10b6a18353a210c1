#!/usr/bin/env bash
# PostToolUse: remind the model of a project convention.
cat >/dev/null
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Project convention: run make lint after changing files (bash hook)"}}'
