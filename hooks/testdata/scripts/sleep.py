#!/usr/bin/env python3
"""Sleeps argv[1] seconds (default 30), then would deny: a timed-out hook must not block."""
import json
import sys
import time

sys.stdin.read()
time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 30)
json.dump({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                  "permissionDecisionReason": "too late"}}, sys.stdout)
