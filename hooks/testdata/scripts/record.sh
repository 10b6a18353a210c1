#!/usr/bin/env bash
# Appends the hook input (one JSON line) to $CLAUDE_PROJECT_DIR/hook-inputs.jsonl.
{ cat; echo; } >> "$CLAUDE_PROJECT_DIR/hook-inputs.jsonl"
