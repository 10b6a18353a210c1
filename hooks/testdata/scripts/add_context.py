#!/usr/bin/env python3
"""PostToolUse: remind the model of a project convention."""
import json
import sys

data = json.load(sys.stdin)
json.dump({"hookSpecificOutput": {
    "hookEventName": data["hook_event_name"],
    "additionalContext": "Project convention: run make lint after changing files (python hook, saw %s)" % data["tool_name"],
}}, sys.stdout)
