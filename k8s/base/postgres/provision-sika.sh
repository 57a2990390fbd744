#!/bin/sh
# Dev clusters only. Run by the postStart hook at every start of the server: once it accepts TCP
# connections, makes sure the `sika` database exists with, per service, a schema, its owner role and its
# runtime role, as scripts/db/provision.ts does for local runs. Idempotent. The owner owns the schema and
# runs the migrations (the charts' pre-install/pre-upgrade Jobs); the runtime role, the service's own
# login, may only read and write rows (ALTER DEFAULT PRIVILEGES covers the tables the owner creates later).
# Every role logs in with its name as password (the local convention of scripts/db, for development only).
set -eu

# One Postgres schema per service with a database (services/*/prisma); the roles are sika_<schema>_owner
# and sika_<schema>.
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
    owner="sika_${schema}_owner"
    runtime="sika_${schema}"
    cat <<SQL
DO \$\$BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${owner}') THEN
    CREATE ROLE ${owner} LOGIN PASSWORD '${owner}' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${runtime}') THEN
    CREATE ROLE ${runtime} LOGIN PASSWORD '${runtime}' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
  END IF;
END\$\$;
CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${owner};
ALTER SCHEMA ${schema} OWNER TO ${owner};
-- A volume of the one-role layout: what the runtime role owned passes to the owner.
REASSIGN OWNED BY ${runtime} TO ${owner};
GRANT CONNECT ON DATABASE sika TO ${owner}, ${runtime};
REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC;
GRANT USAGE ON SCHEMA ${schema} TO ${runtime};
ALTER ROLE ${owner} IN DATABASE sika SET search_path TO ${schema};
ALTER ROLE ${runtime} IN DATABASE sika SET search_path TO ${schema};
ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${runtime};
ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} GRANT USAGE, SELECT ON SEQUENCES TO ${runtime};
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${runtime};
-- Existing tables the runtime role has no privilege on; one it has some on may have been narrowed by a
-- migration (the ledger's append-only books) and is left alone.
DO \$\$DECLARE t regclass;
BEGIN
  FOR t IN SELECT c.oid::regclass FROM pg_class c
            WHERE c.relnamespace = '${schema}'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm')
              AND NOT has_table_privilege('${runtime}', c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
  LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO ${runtime}', t);
  END LOOP;
END\$\$;
SQL
  done
} | psql -v ON_ERROR_STOP=1 -q -h 127.0.0.1 -U "$POSTGRES_USER" -d sika

echo "provision-sika: database sika ready for schemas: ${SCHEMAS}"
