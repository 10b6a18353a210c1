#!/usr/bin/env python3
"""10 MB on stdout, starting like JSON: must be cut before it reaches Temporal history."""
import sys

sys.stdin.read()
sys.stdout.write('{"padding": "' + "y" * (10 * 1024 * 1024) + '"}')
