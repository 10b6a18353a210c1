#!/usr/bin/env python3
"""Prints something that starts like JSON but is not, then binary bytes."""
import sys

sys.stdin.read()
sys.stdout.write('{"decision": "block" "reason": missing commas}\n')
sys.stdout.flush()
sys.stdout.buffer.write(b"\xff\xfe\x00garbage\n")
