#!/usr/bin/env bash
# scripts/cluster.sh up|down|status|env|purge — toolpipe's cluster mode without Docker.
#
# The topology of docker-compose.yml on one machine with no container engine (CI,
# a developer box): PostgreSQL from Debian's package, the Temporal server and its
# SQL schema tool built from go.temporal.io/server at the version go.mod pins, the
# Web UI built from the ui-server go.mod pins, and a toolpipe worker connected to
# the server through TEMPORAL_ADDRESS, as a team's would be.
#
#   up      install/start PostgreSQL, build, set up the schema, start the server
#           (namespace registered), the UI and the worker; prints how to use them
#   down    stop the worker, the UI, the server, and PostgreSQL if `up` started it;
#           the data stays (`up` again resumes every open turn)
#   status  what runs; exits 1 unless everything does
#   env     the variables a starter needs to use this cluster, for eval
#   purge   down, and drop the databases and the worker's state: a clean slate
#
# Every step checks before it acts, so `up` can be run again at any time.
#
# Environment (all optional):
#   TOOLPIPE_CLUSTER_DIR        binaries, logs, pids and the worker's state dir
#                               (default: .state/cluster in the repository, git-ignored)
#   TOOLPIPE_CLUSTER_PORT       the frontend's gRPC port on 127.0.0.1 (default 7233;
#                               the server also takes +1, +2, +6, +10 and 300 below each)
#   TOOLPIPE_CLUSTER_NAMESPACE  (default: default)
#   TOOLPIPE_CLUSTER_UI_PORT    the Web UI's port on 127.0.0.1 (default 8080)
#   TOOLPIPE_CLUSTER_UI=0       start no Web UI
#   TOOLPIPE_CLUSTER_WORKER=0   start no worker
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# The Temporal server needs a newer Go than the machine's: GOTOOLCHAIN fetches
# it through the module proxy, as for the tests.
export GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.3}
export GOFLAGS=${GOFLAGS:--buildvcs=false}

STATE=${TOOLPIPE_CLUSTER_DIR:-$ROOT/.state/cluster}
PORT=${TOOLPIPE_CLUSTER_PORT:-7233}
NAMESPACE=${TOOLPIPE_CLUSTER_NAMESPACE:-default}
START_WORKER=${TOOLPIPE_CLUSTER_WORKER:-1}
START_UI=${TOOLPIPE_CLUSTER_UI:-1}
UI_PORT=${TOOLPIPE_CLUSTER_UI_PORT:-8080}
ADDRESS=127.0.0.1:$PORT
BIN=$STATE/bin
LOGS=$STATE/logs
RUN=$STATE/run
# The database role of the server. A local, loopback-only development cluster:
# the password is no secret, as in Temporal's own compose files.
PG_USER=temporal
PG_PASSWORD=temporal
PG_PORT=

log() { printf 'cluster: %s\n' "$*" >&2; }
die() { printf 'cluster: error: %s\n' "$*" >&2; exit 1; }
is_root() { [ "$(id -u)" -eq 0 ]; }

# --- PostgreSQL -------------------------------------------------------------

# as_postgres runs a command as the postgres OS user (peer authentication is how
# Debian's PostgreSQL lets an administrator in), from / so it can read its cwd.
as_postgres() {
  if is_root; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && sudo -n -u postgres -- "$@")
  fi
}

# pg_cluster_ctl VERSION NAME start|stop: no systemd here, and pg_ctlcluster is
# Debian's way to start one cluster. Root may need to recreate the socket
# directory; the cluster's owner can do the rest.
pg_cluster_ctl() {
  if is_root; then
    pg_ctlcluster "$@"
  else
    as_postgres pg_ctlcluster "$@"
  fi
}

psql_admin() { as_postgres psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qtAX "$@"; }

pg_install() {
  command -v pg_ctlcluster >/dev/null && command -v psql >/dev/null && return
  is_root || die "PostgreSQL is not installed: run this as root, or install it (apt-get install postgresql)"
  log "installing PostgreSQL (apt-get install postgresql)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
}

# pg_cluster sets PG_VERSION PG_NAME PG_PORT PG_STATUS from Debian's first cluster.
pg_cluster() {
  local line
  line=$(pg_lsclusters --no-header 2>/dev/null | head -n1)
  if [ -z "$line" ]; then
    # The package creates main/ at install; it may have been dropped since.
    local ver
    ver=$(ls /usr/lib/postgresql | sort -V | tail -n1)
    is_root || die "PostgreSQL $ver has no cluster: run this as root, or create one (pg_createcluster $ver main)"
    log "creating PostgreSQL cluster $ver/main"
    pg_createcluster "$ver" main >/dev/null
    line=$(pg_lsclusters --no-header | head -n1)
  fi
  read -r PG_VERSION PG_NAME PG_PORT PG_STATUS _ <<<"$line"
}

pg_up() {
  pg_install
  mkdir -p "$RUN"
  pg_cluster
  if [[ $PG_STATUS != online* ]]; then
    log "starting PostgreSQL $PG_VERSION/$PG_NAME on port $PG_PORT"
    pg_cluster_ctl "$PG_VERSION" "$PG_NAME" start
    # Remember that this script started it, so `down` stops only what `up` started.
    echo "$PG_VERSION $PG_NAME" >"$RUN/postgres.started"
  else
    log "PostgreSQL $PG_VERSION/$PG_NAME is running on port $PG_PORT"
  fi
  local i
  for i in $(seq 60); do
    pg_isready -q -h 127.0.0.1 -p "$PG_PORT" && break
    [ "$i" -eq 60 ] && die "PostgreSQL does not accept connections on 127.0.0.1:$PG_PORT (see /var/log/postgresql/)"
    sleep 0.5
  done
  if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$PG_USER'")" != 1 ]; then
    log "creating PostgreSQL role $PG_USER"
    psql_admin -c "CREATE ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD'"
  fi
  local db
  for db in temporal temporal_visibility; do
    if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
      log "creating database $db"
      psql_admin -c "CREATE DATABASE $db OWNER $PG_USER"
    fi
  done
}

# --- build ------------------------------------------------------------------

# server_dir is the module cache copy of go.temporal.io/server at the pinned version.
server_dir() {
  local dir
  dir=$(go list -m -f '{{.Dir}}' go.temporal.io/server)
  if [ -z "$dir" ]; then
    go mod download go.temporal.io/server
    dir=$(go list -m -f '{{.Dir}}' go.temporal.io/server)
  fi
  echo "$dir"
}

build() {
  mkdir -p "$BIN" "$STATE/build"
  # The server's mains (and ui-server's) import urfave/cli, which toolpipe's own
  # packages do not, so go.sum lacks it. Rather than add a dependency to go.mod
  # for a dev script, build them with a copy of go.mod/go.sum plus urfave/cli
  # (go build -modfile): every other module, go.temporal.io/server first, stays
  # at the version go.mod pins.
  local mod=$STATE/build/server.mod sum=$STATE/build/server.sum stamp=$STATE/build/stamp want
  want=$(cat go.mod go.sum | sha256sum | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || [ ! -f "$mod" ]; then
    log "preparing the Temporal server's build file $mod"
    cp go.mod "$mod"
    cp go.sum "$sum"
    # The urfave/cli versions the server itself requires.
    local deps
    deps=$(awk '$1 == "github.com/urfave/cli" || $1 == "github.com/urfave/cli/v2" { print $1 "@" $2 }' "$(server_dir)/go.mod")
    [ -n "$deps" ] || die "cannot find urfave/cli in go.temporal.io/server's go.mod"
    # shellcheck disable=SC2086 # one word per module
    go get -modfile="$mod" $deps
    local m
    for m in go.temporal.io/server go.temporal.io/sdk go.temporal.io/api; do
      [ "$(go list -m -f '{{.Version}}' "$m")" = "$(go list -modfile="$mod" -m -f '{{.Version}}' "$m")" ] ||
        die "building the server would change the version of $m; see $mod"
    done
    echo "$want" >"$stamp"
  fi
  # go build recompiles only what changed, so this is quick when nothing did.
  log "building temporal-server, temporal-sql-tool ($(go list -m go.temporal.io/server)), temporal-ui, worker, starter, clusterctl"
  go build -modfile="$mod" -o "$BIN/temporal-server" go.temporal.io/server/cmd/server
  go build -modfile="$mod" -o "$BIN/temporal-sql-tool" go.temporal.io/server/cmd/tools/sql
  go build -modfile="$mod" -o "$BIN/temporal-ui" github.com/temporalio/ui-server/v2/cmd/server
  go build -o "$BIN/" ./cmd/worker ./cmd/starter ./scripts/clusterctl
}

# --- schema -----------------------------------------------------------------

# schema sets up or upgrades both databases with temporal-sql-tool, from the schema
# files of the pinned server: setup-schema -v 0.0 creates the version tables (a
# no-op once there), update-schema applies the versions the database lacks.
schema() {
  local dir sqltool
  dir=$(server_dir)/schema/postgresql/v12
  sqltool=("$BIN/temporal-sql-tool" --plugin postgres12 --ep 127.0.0.1 -p "$PG_PORT" -u "$PG_USER")
  mkdir -p "$LOGS"
  log "setting up the schema of temporal and temporal_visibility (log: $LOGS/schema.log)"
  local db sub
  for db in temporal:temporal temporal_visibility:visibility; do
    sub=${db#*:}
    db=${db%%:*}
    SQL_PASSWORD=$PG_PASSWORD "${sqltool[@]}" --db "$db" setup-schema -v 0.0 >>"$LOGS/schema.log" 2>&1 ||
      die "schema setup of $db failed; see $LOGS/schema.log"
    SQL_PASSWORD=$PG_PASSWORD "${sqltool[@]}" --db "$db" update-schema -d "$dir/$sub/versioned" >>"$LOGS/schema.log" 2>&1 ||
      die "schema update of $db failed; see $LOGS/schema.log"
  done
}

# --- processes --------------------------------------------------------------

pid_of() { cat "$RUN/$1.pid" 2>/dev/null || true; }
running() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start NAME LOG CMD...: in a session of its own, so it outlives this script and
# the terminal it ran in, with its pid recorded for `down` and its binary's
# identity for `current`.
start() {
  local name=$1 logfile=$2
  shift 2
  mkdir -p "$RUN" "$LOGS"
  setsid "$@" >>"$logfile" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
  go tool buildid "$1" >"$RUN/$name.bin"
}

# current NAME BINARY: is NAME running, from the binary as it is now? One that
# runs an older build is stopped, so that `up` after a code change runs the new
# code. By Go build id: go build rewrites the file even when nothing changed.
current() {
  running "$1" || return 1
  [ "$(cat "$RUN/$1.bin" 2>/dev/null)" = "$(go tool buildid "$2")" ] && return 0
  log "$1 runs an older build of $(basename "$2"): restarting it"
  stop "$1"
  return 1
}

stop() {
  local name=$1 pid i
  pid=$(pid_of "$name")
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$RUN/$name.pid" "$RUN/$name.bin"
    return
  fi
  log "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  # Graceful first: the worker cancels running tools, the server closes its shards.
  for i in $(seq 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name did not stop within 30s: killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$RUN/$name.pid" "$RUN/$name.bin"
}

server_up() {
  if current temporal "$BIN/temporal-server"; then
    log "Temporal server is running (pid $(pid_of temporal))"
  else
    local p
    for p in "$PORT" $((PORT + 1)) $((PORT + 2)) $((PORT + 6)) $((PORT + 10)) \
      $((PORT - 300)) $((PORT - 299)) $((PORT - 298)) $((PORT - 294)); do
      port_busy "$p" && die "port $p on 127.0.0.1 is in use (another Temporal server, or \`starter dev\`?): stop it, or set TOOLPIPE_CLUSTER_PORT"
    done
    log "starting the Temporal server on $ADDRESS (log: $LOGS/temporal.log)"
    TOOLPIPE_CLUSTER_PORT=$PORT TOOLPIPE_CLUSTER_PG_HOST=127.0.0.1 TOOLPIPE_CLUSTER_PG_PORT=$PG_PORT \
      TOOLPIPE_CLUSTER_PG_USER=$PG_USER TOOLPIPE_CLUSTER_PG_PASSWORD=$PG_PASSWORD \
      TOOLPIPE_CLUSTER_DYNAMIC_CONFIG=$ROOT/deploy/dynamicconfig/development-sql.yaml \
      start temporal "$LOGS/temporal.log" \
      "$BIN/temporal-server" --config-file "$ROOT/deploy/temporal-postgres.yaml" --allow-no-auth start
    # Fail fast on a server that exits at once (bad config, database refused).
    local i
    for i in $(seq 240); do
      port_busy "$PORT" && break
      running temporal || { tail -n 20 "$LOGS/temporal.log" >&2; die "the Temporal server exited; see $LOGS/temporal.log"; }
      [ "$i" -eq 240 ] && die "the Temporal server does not listen on $ADDRESS after 2 minutes; see $LOGS/temporal.log"
      sleep 0.5
    done
  fi
  # Waits for the frontend to serve, then registers what is missing.
  "$BIN/clusterctl" ensure-namespace --address "$ADDRESS" --namespace "$NAMESPACE" --wait 3m ||
    die "namespace $NAMESPACE is not ready; see $LOGS/temporal.log"
}

ui_up() {
  if current ui "$BIN/temporal-ui"; then
    log "Web UI is running (pid $(pid_of ui)) on http://127.0.0.1:$UI_PORT"
    return
  fi
  port_busy "$UI_PORT" && die "port $UI_PORT on 127.0.0.1 is in use: set TOOLPIPE_CLUSTER_UI_PORT, or TOOLPIPE_CLUSTER_UI=0"
  log "starting the Web UI on http://127.0.0.1:$UI_PORT (log: $LOGS/ui.log)"
  TOOLPIPE_CLUSTER_ADDRESS=$ADDRESS TOOLPIPE_CLUSTER_UI_PORT=$UI_PORT TOOLPIPE_CLUSTER_NAMESPACE=$NAMESPACE \
    start ui "$LOGS/ui.log" "$BIN/temporal-ui" --root "$ROOT/deploy" --config temporal-ui --env cluster start
  local i
  for i in $(seq 60); do
    port_busy "$UI_PORT" && return
    running ui || { tail -n 20 "$LOGS/ui.log" >&2; die "the Web UI exited; see $LOGS/ui.log"; }
    sleep 0.5
  done
  die "the Web UI does not listen on 127.0.0.1:$UI_PORT after 30s; see $LOGS/ui.log"
}

worker_up() {
  if current worker "$BIN/worker"; then
    log "worker is running (pid $(pid_of worker))"
    return
  fi
  log "starting the toolpipe worker against $ADDRESS (log: $LOGS/worker.log)"
  mkdir -p "$LOGS"
  local from
  from=$(($(stat -c %s "$LOGS/worker.log" 2>/dev/null || echo 0) + 1))
  TEMPORAL_ADDRESS=$ADDRESS TEMPORAL_NAMESPACE=$NAMESPACE TOOLPIPE_STATE_DIR=$STATE/toolpipe \
    start worker "$LOGS/worker.log" "$BIN/worker"
  local i
  for i in $(seq 120); do
    tail -c "+$from" "$LOGS/worker.log" | grep -q '^worker: running on' && return
    running worker || { tail -c "+$from" "$LOGS/worker.log" >&2; die "the worker exited; see $LOGS/worker.log"; }
    sleep 0.5
  done
  die "the worker did not report running within 60s; see $LOGS/worker.log"
}

print_env() {
  # The starter must share the worker's state directory: persisted outputs and
  # large payloads are kept there, by path.
  printf 'export TEMPORAL_ADDRESS=%q\n' "$ADDRESS"
  printf 'export TEMPORAL_NAMESPACE=%q\n' "$NAMESPACE"
  printf 'export TOOLPIPE_STATE_DIR=%q\n' "$STATE/toolpipe"
  # The starter (and worker) built from this checkout, first on the PATH.
  printf 'export PATH=%q:$PATH\n' "$BIN"
}

cmd_up() {
  local t0=$SECONDS
  pg_up
  build
  schema
  server_up
  if [ "$START_UI" != 0 ]; then ui_up; fi
  if [ "$START_WORKER" != 0 ]; then worker_up; fi
  log "up in $((SECONDS - t0))s. To run a turn on this cluster:"
  print_env | sed 's/^/    /' >&2
  echo "    starter run examples/turn.json" >&2
  if [ "$START_UI" != 0 ]; then log "Web UI: http://127.0.0.1:$UI_PORT"; fi
}

stop_all() {
  stop worker
  stop ui
  stop temporal
  if [ -f "$RUN/postgres.started" ]; then
    local ver name
    read -r ver name <"$RUN/postgres.started"
    log "stopping PostgreSQL $ver/$name"
    pg_cluster_ctl "$ver" "$name" stop || true
    rm -f "$RUN/postgres.started"
  fi
}

cmd_down() {
  stop_all
  log "down; the databases keep every turn, and \`up\` resumes the open ones"
}

cmd_purge() {
  stop worker
  stop ui
  stop temporal
  if command -v pg_lsclusters >/dev/null; then
    pg_cluster
    if [[ $PG_STATUS != online* ]]; then
      mkdir -p "$RUN"
      pg_cluster_ctl "$PG_VERSION" "$PG_NAME" start
      echo "$PG_VERSION $PG_NAME" >"$RUN/postgres.started"
    fi
    local db
    for db in temporal temporal_visibility; do
      log "dropping database $db"
      psql_admin -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"
    done
  fi
  stop_all
  # Binaries and their build files stay: they are no data, and costly to rebuild.
  rm -rf "$LOGS" "$STATE/toolpipe"
  log "purged: the next up starts from empty databases"
}

cmd_status() {
  local ok=0
  if command -v pg_lsclusters >/dev/null; then
    pg_cluster
    echo "postgresql: $PG_VERSION/$PG_NAME port $PG_PORT $PG_STATUS"
    [[ $PG_STATUS == online* ]] || ok=1
  else
    echo "postgresql: not installed"
    ok=1
  fi
  if running temporal; then
    echo "temporal: running (pid $(pid_of temporal)), log $LOGS/temporal.log"
    "$BIN/clusterctl" check --address "$ADDRESS" --namespace "$NAMESPACE" | sed 's/^/  /' || ok=1
  else
    echo "temporal: stopped"
    ok=1
  fi
  if running ui; then
    echo "ui: running (pid $(pid_of ui)) on http://127.0.0.1:$UI_PORT, log $LOGS/ui.log"
  else
    echo "ui: stopped"
    [ "$START_UI" = 0 ] || ok=1
  fi
  if running worker; then
    echo "worker: running (pid $(pid_of worker)), log $LOGS/worker.log"
  else
    echo "worker: stopped"
    [ "$START_WORKER" = 0 ] || ok=1
  fi
  return $ok
}

case ${1:-} in
up) cmd_up ;;
down) cmd_down ;;
purge) cmd_purge ;;
status) cmd_status ;;
env) print_env ;;
*)
  echo "usage: $0 up|down|status|env|purge" >&2
  exit 2
  ;;
esac
