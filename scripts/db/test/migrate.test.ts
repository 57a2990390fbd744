import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomSuffix, resolveDatabaseUrl } from '@sika/testing';
import { Client, escapeIdentifier as id } from 'pg';
import { withDatabase, withLogin } from '../urls';

const run = promisify(execFile);

// Each migrate() is a tsx child process: with the rest of the suite on two cores, two of them in parallel
// can take longer than jest's 5-second default.
jest.setTimeout(60_000);
const MIGRATE = path.join(__dirname, '../migrate.ts');
const SERVICES_ROOT = path.join(__dirname, 'fixtures/services');

// Roles are server-wide, so this run gets its own prefix as well as its own database.
const suffix = randomSuffix(8);
const database = `t_migrate_${suffix}`;
const rolePrefix = `t${suffix}_`;
const ledgerRole = `${rolePrefix}ledger`;
const pspRole = `${rolePrefix}psp`;
let adminUrl: string;

async function migrate(): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', MIGRATE, '--services-root', SERVICES_ROOT],
    {
      env: {
        ...process.env,
        DATABASE_ADMIN_URL: adminUrl,
        SIKA_DB_NAME: database,
        SIKA_DB_ROLE_PREFIX: rolePrefix,
      },
    },
  );
  return stdout;
}

/** Runs one statement as a service role and returns the SQLSTATE it failed with, or 'ok'. */
async function asRole(role: string, sql: string): Promise<string> {
  const client = new Client({ connectionString: withLogin(withDatabase(adminUrl, database), role, role) });
  await client.connect();
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  } finally {
    await client.end();
  }
}

async function asAdmin(sql: string, databaseName = 'postgres'): Promise<void> {
  const client = new Client({ connectionString: withDatabase(adminUrl, databaseName) });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const INSUFFICIENT_PRIVILEGE = '42501';

beforeAll(async () => {
  adminUrl = await resolveDatabaseUrl();
});

afterAll(async () => {
  await asAdmin(`DROP DATABASE IF EXISTS ${id(database)} WITH (FORCE)`);
  await asAdmin(`DROP ROLE IF EXISTS ${id(ledgerRole)}, ${id(pspRole)}`);
});

describe('scripts/db/migrate.ts', () => {
  it('provisions every service once, even when two runs race, and a later run changes nothing', async () => {
    const [first, second] = await Promise.all([migrate(), migrate()]);
    const both = first + second;
    expect(
      both.match(/ledger +role \S+ created, schema ledger created, 2 migrations applied \(2 in total\)/g),
    ).toHaveLength(1);
    expect(
      both.match(/psp-connector +role \S+ created, schema psp created, 1 migration applied \(1 in total\)/g),
    ).toHaveLength(1);

    const again = await migrate();
    expect(again).toContain(`database 127.0.0.1:5432/${database} exists`);
    expect(again).toMatch(
      new RegExp(`ledger +role ${ledgerRole} exists, schema ledger exists, up to date \\(2 migrations\\)`),
    );
    expect(again).toMatch(
      new RegExp(`psp-connector +role ${pspRole} exists, schema psp exists, up to date \\(1 migration\\)`),
    );
    expect(again).toMatch(/gateway +no prisma\/schema\.prisma nor prisma\/schema\/, no database/);
  });

  it('lets each role work in its own schema only', async () => {
    expect(await asRole(ledgerRole, `INSERT INTO "Account" (id, currency) VALUES ('acct_1', 'XOF')`)).toBe(
      'ok',
    );
    expect(await asRole(pspRole, `INSERT INTO scheme_request (tx_id, status) VALUES ('tx1', 'sent')`)).toBe(
      'ok',
    );

    expect(await asRole(ledgerRole, 'SELECT * FROM psp.scheme_request')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await asRole(ledgerRole, 'CREATE TABLE psp.intruder (id INT)')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await asRole(pspRole, 'SELECT * FROM ledger."Account"')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await asRole(pspRole, 'CREATE TABLE public.stray (id INT)')).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await asRole(pspRole, 'CREATE SCHEMA extra')).toBe(INSUFFICIENT_PRIVILEGE);
  });
});
