#!/usr/bin/env bash
# continue: false ends the session after this turn.
cat >/dev/null
printf '%s\n' '{"continue":false,"stopReason":"daily budget reached (bash hook)","systemMessage":"stopping the agent"}'
