#!/usr/bin/env python3
"""PreToolUse: turn a deploy into a dry run through updatedInput."""
import json
import shlex
import sys

data = json.load(sys.stdin)
cmd = data.get("tool_input", {}).get("command", "")
if "deploy" in cmd:
    new = dict(data["tool_input"], command="echo " + shlex.quote("dry-run: " + cmd + " (python hook)"))
    json.dump({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": new,
    }}, sys.stdout)
