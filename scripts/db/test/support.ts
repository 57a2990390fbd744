import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, escapeIdentifier as id, type QueryResultRow } from 'pg';
import { withDatabase, withLogin } from '../urls';

const run = promisify(execFile);
const MIGRATE = path.join(__dirname, '../migrate.ts');

/** Where one test file provisions: its own database and role prefix (roles are server-wide). */
export interface Target {
  adminUrl: string;
  database: string;
  rolePrefix: string;
}

export interface MigrateRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `tsx scripts/db/migrate.ts --services-root <servicesRoot>` in a child process, as `pnpm db:migrate` runs. */
export async function migrate(
  target: Target,
  servicesRoot: string,
  env: NodeJS.ProcessEnv = {},
): Promise<MigrateRun> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', MIGRATE, '--services-root', servicesRoot],
      {
        env: {
          ...process.env,
          DATABASE_ADMIN_URL: target.adminUrl,
          SIKA_DB_NAME: target.database,
          SIKA_DB_ROLE_PREFIX: target.rolePrefix,
          ...env,
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** How a statement ended: 'ok', or the SQLSTATE and message it failed with. */
export type Verdict = 'ok' | { code: string; message: string };

/** Runs SQL (one or more statements) logged in as `role`, whose password is its name (the local convention). */
export async function asRole(target: Target, role: string, sql: string): Promise<Verdict> {
  const client = new Client({
    connectionString: withLogin(withDatabase(target.adminUrl, target.database), role, role),
  });
  await client.connect();
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  } finally {
    await client.end();
  }
}

/** Runs SQL as the administrator, in the test database unless told otherwise; returns the last rows. */
export async function asAdmin<Row extends QueryResultRow>(
  target: Target,
  sql: string,
  database = target.database,
): Promise<Row[]> {
  const client = new Client({ connectionString: withDatabase(target.adminUrl, database) });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Drops the test database and every role of the prefix (they own nothing elsewhere). */
export async function dropTarget(target: Target): Promise<void> {
  await asAdmin(target, `DROP DATABASE IF EXISTS ${id(target.database)} WITH (FORCE)`, 'postgres');
  const client = new Client({ connectionString: target.adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ rolname: string }>(
      `SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1)`,
      [target.rolePrefix],
    );
    for (const { rolname } of rows) await client.query(`DROP ROLE ${id(rolname)}`);
  } finally {
    await client.end();
  }
}

export const INSUFFICIENT_PRIVILEGE = '42501';

/** What Postgres answers a role that tries to change an object it does not own. */
export function notOwner(kind: 'table' | 'relation' | 'function', name: string): Verdict {
  return { code: INSUFFICIENT_PRIVILEGE, message: `must be owner of ${kind} ${name}` };
}

/** What Postgres answers a role that lacks a privilege (before any trigger could run). */
export function permissionDenied(kind: 'table' | 'schema', name: string): Verdict {
  return { code: INSUFFICIENT_PRIVILEGE, message: `permission denied for ${kind} ${name}` };
}
