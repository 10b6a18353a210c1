#!/bin/sh
# Creates and upgrades the Temporal databases in the postgresql service; run by the
# temporal-schema service of docker-compose.yml (temporalio/admin-tools image, so
# temporal-sql-tool and the schema files of the same server version). Safe to run
# on every `docker compose up`: an existing database is kept, setup-schema -v 0.0
# is a no-op once done, and update-schema applies only the versions it lacks.
set -eu

: "${POSTGRES_SEEDS:=postgresql}" "${DB_PORT:=5432}" "${POSTGRES_USER:=temporal}"
export SQL_PASSWORD="${POSTGRES_PWD:-temporal}"
schema=/etc/temporal/schema/postgresql/v12

echo "waiting for PostgreSQL at $POSTGRES_SEEDS:$DB_PORT"
until nc -z "$POSTGRES_SEEDS" "$DB_PORT"; do sleep 1; done

sqltool() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" "$@"
}

for pair in temporal:temporal temporal_visibility:visibility; do
  db=${pair%%:*}
  dir=${pair#*:}
  # The tool has no "if not exists": tell "already exists" from a real failure.
  if ! out=$(sqltool --db "$db" create 2>&1); then
    case $out in
    *"already exists"*) echo "database $db exists" ;;
    *) echo "$out" >&2; exit 1 ;;
    esac
  fi
  sqltool --db "$db" setup-schema -v 0.0
  sqltool --db "$db" update-schema -d "$schema/$dir/versioned"
done
echo "PostgreSQL schema is up to date"
