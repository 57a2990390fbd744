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
 * usable place is its own schema. REVOKE of a privilege not held is a no-op, so this is idempotent.
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
 * A login role with no power beyond its schema: not superuser, cannot create databases or roles, and does
 * not inherit privileges of roles it might be granted. An existing role keeps its password: rotating it is
 * a deliberate act (ALTER ROLE), not a side effect of migrating.
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

/** The schema belongs to the service role, which therefore may do anything inside it and nothing outside. */
export async function ensureSchemaOwnedBy(db: Client, schema: string, role: string): Promise<SchemaOutcome> {
  const { rows } = await db.query<{ owner: string }>(
    'SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = $1',
    [schema],
  );
  const owner = rows[0]?.owner;
  if (owner === undefined) {
    await db.query(`CREATE SCHEMA ${id(schema)} AUTHORIZATION ${id(role)}`);
    return 'created';
  }
  if (owner === role) return 'exists';
  await db.query(`ALTER SCHEMA ${id(schema)} OWNER TO ${id(role)}`);
  return 'owner changed';
}

/**
 * CONNECT to the database (PUBLIC lost it in lockDownDatabase), and the schema as the role's default
 * search_path in this database, so `psql` as the role and a URL without options land in the right place.
 */
export async function grantServiceAccess(
  db: Client,
  database: string,
  service: ServiceDatabase,
): Promise<void> {
  await db.query(`GRANT CONNECT ON DATABASE ${id(database)} TO ${id(service.role)}`);
  await db.query(`REVOKE ALL ON SCHEMA ${id(service.schema)} FROM PUBLIC`);
  await db.query(
    `ALTER ROLE ${id(service.role)} IN DATABASE ${id(database)} SET search_path TO ${id(service.schema)}`,
  );
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
