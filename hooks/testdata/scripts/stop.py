#!/usr/bin/env python3
"""continue: false ends the session after this turn."""
import json
import sys

sys.stdin.read()
json.dump({"continue": False, "stopReason": "daily budget reached (python hook)",
           "systemMessage": "stopping the agent"}, sys.stdout)
