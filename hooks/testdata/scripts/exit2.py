#!/usr/bin/env python3
"""Blocking: exit 2 with the reason on stderr."""
import sys

sys.stdin.read()
print("blocked by policy: this tool is frozen today (python hook)", file=sys.stderr)
sys.exit(2)
