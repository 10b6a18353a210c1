#!/usr/bin/env python3
"""PreToolUse: refuse any Bash command that contains "rm -rf"."""
import json
import sys

data = json.load(sys.stdin)
if "rm -rf" in data.get("tool_input", {}).get("command", ""):
    json.dump({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "rm -rf is not allowed in this project (python hook)",
    }}, sys.stdout)
