#!/bin/sh
# Registers the namespace toolpipe runs in, with toolpipe's search attributes; run
# by the temporal-namespace service of docker-compose.yml (temporalio/admin-tools
# image, so the temporal CLI). Idempotent: it only adds what is missing, like
# scripts/cluster.sh does without Docker.
set -eu

: "${TEMPORAL_ADDRESS:=temporal:7233}" "${NAMESPACE:=default}"
host=${TEMPORAL_ADDRESS%:*}
port=${TEMPORAL_ADDRESS##*:}

echo "waiting for the Temporal frontend at $TEMPORAL_ADDRESS"
until nc -z "$host" "$port"; do sleep 1; done
# Resolved once to an address, as Temporal's own compose setup does: the CLI's
# resolver has been seen to pick an address the server does not listen on.
addr="$(getent ahosts "$host" | awk '/STREAM/ { print $1; exit }'):$port"
until temporal operator cluster health --address "$addr" >/dev/null 2>&1; do sleep 2; done

if ! temporal operator namespace describe --address "$addr" -n "$NAMESPACE" >/dev/null 2>&1; then
  temporal operator namespace create --address "$addr" -n "$NAMESPACE" --retention 72h
fi
# A new namespace reaches every service's cache a moment later.
until temporal operator search-attribute list --address "$addr" -n "$NAMESPACE" >/tmp/sa 2>/dev/null; do sleep 2; done
for name in ToolpipeSessionID ToolpipeStatus; do
  if ! grep -q "$name" /tmp/sa; then
    temporal operator search-attribute create --address "$addr" -n "$NAMESPACE" --name "$name" --type Keyword
  fi
done
echo "namespace $NAMESPACE is ready"
