import { escapeIdentifier as id, escapeLiteral as literal, type Client } from 'pg';
import type { ServiceDatabase } from './service-databases';

export type Outcome = 'created' | 'exists';

/**
 * Two runs racing to create the same database or role: the loser gets 42P04/42710, or 23505 when both
 * passed the catalog check before either committed. Either way the object now exists, which is the goal.
 */
const LOST_CREATE_RACE = new Set(['42P04', '42710', '23505']);

function lostCreateRace(error: unknown): boolean {
  return LOST_CREATE_RACE.has((error as { code?: string }).code ?? '');
}

/** Creates the database unless it exists. */
export async function ensureDatabase(admin: Client, database: string): Promise<Outcome> {
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (rowCount) return 'exists';
  try {
    await admin.query(`CREATE DATABASE ${id(database)}`);
    return 'created';
  } catch (error) {
    if (lostCreateRace(error)) return 'exists';
    throw error;
  }
}

/**
 * Nobody gets anything by default: only the service roles granted CONNECT below may connect, and schema
 * public (where Postgres lets every role create tables up to version 14) is closed, so a role's only
 * usable place is its own service's schema. REVOKE of a privilege not held is a no-op, so this is
 * idempotent.
 */
export async function lockDownDatabase(db: Client, database: string): Promise<void> {
  await db.query(`REVOKE ALL ON DATABASE ${id(database)} FROM PUBLIC`);
  await db.query('REVOKE ALL ON SCHEMA public FROM PUBLIC');
}

/**
 * Serialises concurrent runs against one database (say the start command and a test run). Held until the
 * session ends. Prisma's own lock is per database too, but would not cover roles and schemas.
 */
export async function takeMigrationLock(db: Client): Promise<void> {
  await db.query("SELECT pg_advisory_lock(hashtext('sika scripts/db/migrate'))");
}

/**
 * A login role with no power beyond what grantServiceAccess gives it: not superuser, cannot create
 * databases or roles, and does not inherit privileges of roles it might be granted. An existing role keeps
 * its password: rotating it is a deliberate act (ALTER ROLE), not a side effect of migrating.
 */
export async function ensureRole(db: Client, role: string, password: string): Promise<Outcome> {
  const { rowCount } = await db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (rowCount) return 'exists';
  try {
    // Utility statements take no bind parameters, hence the quoted literal.
    await db.query(
      `CREATE ROLE ${id(role)} LOGIN PASSWORD ${literal(password)} ` +
        'NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS',
    );
    return 'created';
  } catch (error) {
    // Roles are server-wide: a run on another database of the same server may have created it first.
    if (lostCreateRace(error)) return 'exists';
    throw error;
  }
}

export type SchemaOutcome = Outcome | 'owner changed';

/** The schema belongs to the owner role, which therefore may do anything inside it and nothing outside. */
export async function ensureSchemaOwnedBy(db: Client, schema: string, owner: string): Promise<SchemaOutcome> {
  const { rows } = await db.query<{ owner: string }>(
    'SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = $1',
    [schema],
  );
  const current = rows[0]?.owner;
  if (current === undefined) {
    await db.query(`CREATE SCHEMA ${id(schema)} AUTHORIZATION ${id(owner)}`);
    return 'created';
  }
  if (current === owner) return 'exists';
  await db.query(`ALTER SCHEMA ${id(schema)} OWNER TO ${id(owner)}`);
  return 'owner changed';
}

/**
 * The runtime role must own nothing: an owner may ALTER, DROP or DISABLE TRIGGER whatever the privileges
 * say. Before owner roles existed the service's one role owned its schema's tables, functions and
 * sequences; they pass to the owner here (in this database). Returns how many objects changed hands.
 */
export async function handOverOwnedObjects(db: Client, from: string, to: string): Promise<number> {
  const { rows } = await db.query<{ owned: number }>(
    `SELECT count(*)::int AS owned FROM pg_shdepend
      WHERE deptype = 'o' AND refobjid = $1::regrole
        AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [from],
  );
  const owned = rows[0]?.owned ?? 0;
  if (owned > 0) await db.query(`REASSIGN OWNED BY ${id(from)} TO ${id(to)}`);
  return owned;
}

const RUNTIME_TABLE_PRIVILEGES = 'SELECT, INSERT, UPDATE, DELETE';
const RUNTIME_SEQUENCE_PRIVILEGES = 'USAGE, SELECT';

/**
 * Both roles may connect and land in the schema (the default search_path, so `psql` and a URL without
 * options work). The runtime role gets USAGE on the schema (not CREATE) and row privileges on what the
 * owner creates: ALTER DEFAULT PRIVILEGES covers the tables migrations will create, the GRANTs below the
 * ones that already exist. A table on which the runtime role already holds some privilege is left as it
 * is, because a migration may have narrowed it on purpose (the ledger's append-only books).
 */
export async function grantServiceAccess(
  db: Client,
  database: string,
  service: ServiceDatabase,
): Promise<void> {
  const schema = id(service.schema);
  const owner = id(service.ownerRole);
  const runtime = id(service.runtimeRole);
  await db.query(`GRANT CONNECT ON DATABASE ${id(database)} TO ${owner}, ${runtime}`);
  await db.query(`REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC`);
  await db.query(`GRANT USAGE ON SCHEMA ${schema} TO ${runtime}`);
  for (const role of [owner, runtime]) {
    await db.query(`ALTER ROLE ${role} IN DATABASE ${id(database)} SET search_path TO ${schema}`);
  }
  await db.query(
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} ` +
      `GRANT ${RUNTIME_TABLE_PRIVILEGES} ON TABLES TO ${runtime}`,
  );
  await db.query(
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} ` +
      `GRANT ${RUNTIME_SEQUENCE_PRIVILEGES} ON SEQUENCES TO ${runtime}`,
  );
  await db.query(`GRANT ${RUNTIME_SEQUENCE_PRIVILEGES} ON ALL SEQUENCES IN SCHEMA ${schema} TO ${runtime}`);
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm')
        AND NOT has_table_privilege($2, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')`,
    [service.schema, service.runtimeRole],
  );
  if (rows.length > 0) {
    const tables = rows.map((row) => `${schema}.${id(row.name)}`).join(', ');
    await db.query(`GRANT ${RUNTIME_TABLE_PRIVILEGES} ON TABLE ${tables} TO ${runtime}`);
  }
}

export interface MigrationState {
  /** Names Prisma recorded as applied. */
  applied: Set<string>;
  /** Names Prisma recorded as started but neither finished nor rolled back: deploy refuses to go on. */
  failed: string[];
}

export async function readMigrationState(db: Client, schema: string): Promise<MigrationState> {
  const table = `${id(schema)}._prisma_migrations`;
  const { rows: exists } = await db.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [
    table,
  ]);
  if (!exists[0]?.found) return { applied: new Set(), failed: [] };
  const { rows } = await db.query<{ migration_name: string; finished: boolean; rolled_back: boolean }>(
    `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM ${table}`,
  );
  return {
    applied: new Set(rows.filter((row) => row.finished && !row.rolled_back).map((row) => row.migration_name)),
    failed: rows.filter((row) => !row.finished && !row.rolled_back).map((row) => row.migration_name),
  };
}
