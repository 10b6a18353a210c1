#!/usr/bin/env bash
# Prints something that starts like JSON but is not, then binary bytes.
cat >/dev/null
printf '{"hookSpecificOutput": {"permissionDecision": "deny",, oops\n'
printf '\xff\xfe\x00garbage\n'
