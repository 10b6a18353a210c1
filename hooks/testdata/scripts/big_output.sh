#!/usr/bin/env bash
# 10 MB on stdout: must be cut before it reaches Temporal history.
cat >/dev/null
head -c 10485760 /dev/zero | tr '\0' 'x'
