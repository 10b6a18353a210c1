#!/usr/bin/env python3
"""Plain text on stdout with exit 0: shown to people, never to the model."""
import sys

sys.stdin.read()
print("hello from a plain python hook")
