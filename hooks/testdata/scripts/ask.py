#!/usr/bin/env python3
"""PreToolUse: a person must approve every call this hook sees."""
import json
import sys

sys.stdin.read()
json.dump({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                                  "permissionDecisionReason": "the python hook wants a human to look"}}, sys.stdout)
