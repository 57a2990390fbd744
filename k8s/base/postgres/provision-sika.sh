#!/bin/sh
# Dev clusters only. Run by the postStart hook at every start of the server: once it accepts TCP
# connections, makes sure the `sika` database exists with one role and one schema per service, as
# scripts/db/provision.ts does for local runs. Idempotent. Each role can use only its own schema, and logs in
# with its name as password (the local convention of scripts/db, for development only). The services' own
# migrations run later, as those roles, from the charts' pre-install/pre-upgrade Jobs.
set -eu

# One Postgres schema per service with a database (services/*/prisma); the role is sika_<schema>.
SCHEMAS="merchants payments psp simulator ledger webhooks payouts dashboard"
# "already exists, skipping" notices are the normal case here.
export PGOPTIONS='-c client_min_messages=warning'

waited=0
until pg_isready -q -h 127.0.0.1 -U "$POSTGRES_USER"; do
  waited=$((waited + 1))
  if [ "$waited" -gt 120 ]; then
    echo "provision-sika: the server did not accept connections within 120 s" >&2
    exit 1
  fi
  sleep 1
done

psql -v ON_ERROR_STOP=1 -q -h 127.0.0.1 -U "$POSTGRES_USER" -d postgres <<'SQL'
SELECT 'CREATE DATABASE sika' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'sika')\gexec
SQL

{
  echo 'REVOKE ALL ON DATABASE sika FROM PUBLIC;'
  echo 'REVOKE ALL ON SCHEMA public FROM PUBLIC;'
  for schema in $SCHEMAS; do
    role="sika_${schema}"
    cat <<SQL
DO \$\$BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN
    CREATE ROLE ${role} LOGIN PASSWORD '${role}' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
  END IF;
END\$\$;
CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${role};
ALTER SCHEMA ${schema} OWNER TO ${role};
GRANT CONNECT ON DATABASE sika TO ${role};
REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC;
ALTER ROLE ${role} IN DATABASE sika SET search_path TO ${schema};
SQL
  done
} | psql -v ON_ERROR_STOP=1 -q -h 127.0.0.1 -U "$POSTGRES_USER" -d sika

echo "provision-sika: database sika ready for schemas: ${SCHEMAS}"
