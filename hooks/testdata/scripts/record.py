#!/usr/bin/env python3
"""Appends the hook input (one JSON line) to $CLAUDE_PROJECT_DIR/hook-inputs.jsonl."""
import json
import os
import sys

data = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "hook-inputs.jsonl"), "a") as f:
    f.write(json.dumps(data) + "\n")
