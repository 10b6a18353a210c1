#!/usr/bin/env bash
# Plain text on stdout with exit 0: shown to people, never to the model.
cat >/dev/null
echo "hello from a plain bash hook"
