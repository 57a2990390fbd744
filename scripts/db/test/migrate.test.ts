import path from 'node:path';
import { randomSuffix, resolveDatabaseUrl } from '@sika/testing';
import {
  asAdmin,
  asRole,
  dropTarget,
  migrate,
  notOwner,
  permissionDenied,
  type MigrateRun,
  type Target,
} from './support';

// Each migrate() is a tsx child process: with the rest of the suite on two cores, two of them in parallel
// can take longer than jest's 5-second default.
jest.setTimeout(60_000);
const SERVICES_ROOT = path.join(__dirname, 'fixtures/services');

const suffix = randomSuffix(8);
const target: Target = { adminUrl: '', database: `t_migrate_${suffix}`, rolePrefix: `t${suffix}_` };
const ledger = { owner: `${target.rolePrefix}ledger_owner`, runtime: `${target.rolePrefix}ledger` };
const psp = { owner: `${target.rolePrefix}psp_owner`, runtime: `${target.rolePrefix}psp` };

async function migrateFixtures(): Promise<string> {
  const run: MigrateRun = await migrate(target, SERVICES_ROOT);
  if (run.code !== 0) throw new Error(`migrate.ts failed:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

beforeAll(async () => {
  target.adminUrl = await resolveDatabaseUrl();
});

afterAll(async () => {
  await dropTarget(target);
});

describe('scripts/db/migrate.ts', () => {
  it('provisions every service once, even when two runs race, and a later run changes nothing', async () => {
    const [first, second] = await Promise.all([migrateFixtures(), migrateFixtures()]);
    const both = first + second;
    expect(
      both.match(
        new RegExp(
          `ledger +owner ${ledger.owner} created, runtime ${ledger.runtime} created, schema ledger created, ` +
            '2 migrations applied \\(2 in total\\)',
          'g',
        ),
      ),
    ).toHaveLength(1);
    expect(
      both.match(
        new RegExp(
          `psp-connector +owner ${psp.owner} created, runtime ${psp.runtime} created, schema psp created, ` +
            '1 migration applied \\(1 in total\\)',
          'g',
        ),
      ),
    ).toHaveLength(1);

    const again = await migrateFixtures();
    expect(again).toContain(`database 127.0.0.1:5432/${target.database} exists`);
    expect(again).toMatch(
      new RegExp(
        `ledger +owner ${ledger.owner} exists, runtime ${ledger.runtime} exists, schema ledger exists, ` +
          'up to date \\(2 migrations\\)',
      ),
    );
    expect(again).toMatch(
      /psp-connector +owner \S+ exists, runtime \S+ exists, schema psp exists, up to date/,
    );
    expect(again).toMatch(/gateway +no prisma\/schema\.prisma nor prisma\/schema\/, no database/);
  });

  it('lets each role work in its own schema only', async () => {
    expect(
      await asRole(target, ledger.runtime, `INSERT INTO "Account" (id, currency) VALUES ('acct_1', 'XOF')`),
    ).toBe('ok');
    expect(
      await asRole(target, psp.runtime, `INSERT INTO scheme_request (tx_id, status) VALUES ('tx1', 'sent')`),
    ).toBe('ok');

    expect(await asRole(target, ledger.runtime, 'SELECT * FROM psp.scheme_request')).toEqual(
      permissionDenied('schema', 'psp'),
    );
    expect(await asRole(target, ledger.owner, 'SELECT * FROM psp.scheme_request')).toEqual(
      permissionDenied('schema', 'psp'),
    );
    expect(await asRole(target, ledger.owner, 'CREATE TABLE psp.intruder (id INT)')).toEqual(
      permissionDenied('schema', 'psp'),
    );
    expect(await asRole(target, psp.runtime, 'SELECT * FROM ledger."Account"')).toEqual(
      permissionDenied('schema', 'ledger'),
    );
    expect(await asRole(target, psp.owner, 'CREATE TABLE public.stray (id INT)')).toEqual(
      permissionDenied('schema', 'public'),
    );
    expect(await asRole(target, psp.owner, 'CREATE SCHEMA extra')).toMatchObject({ code: '42501' });
  });

  it('splits each schema between its owner (migrations, DDL) and its runtime role (rows only)', async () => {
    expect(await asRole(target, ledger.runtime, 'CREATE TABLE ledger.extra (id INT)')).toEqual(
      permissionDenied('schema', 'ledger'),
    );
    expect(await asRole(target, ledger.runtime, 'ALTER TABLE "Account" ADD COLUMN note TEXT')).toEqual(
      notOwner('table', 'Account'),
    );
    expect(await asRole(target, ledger.runtime, 'DROP TABLE "Account"')).toEqual(
      notOwner('table', 'Account'),
    );
    expect(await asRole(target, ledger.runtime, `UPDATE "Account" SET balance = 1 WHERE id = 'acct_1'`)).toBe(
      'ok',
    );
    expect(await asRole(target, ledger.runtime, `DELETE FROM "Account" WHERE id = 'acct_1'`)).toBe('ok');
    // A table created by a later migration is covered too (ALTER DEFAULT PRIVILEGES).
    expect(
      await asRole(
        target,
        ledger.owner,
        'CREATE TABLE later (id BIGSERIAL PRIMARY KEY, note TEXT); ALTER TABLE "Account" ADD COLUMN note TEXT',
      ),
    ).toBe('ok');
    expect(
      await asRole(
        target,
        ledger.runtime,
        `INSERT INTO later (note) VALUES ('x'); UPDATE later SET note = 'y'`,
      ),
    ).toBe('ok');
    expect(await asRole(target, ledger.runtime, 'TRUNCATE later')).toEqual(
      permissionDenied('table', 'later'),
    );
  });

  it('hands a schema of the one-role layout over to a new owner role, the rows staying usable', async () => {
    // The layout before owner roles: the service's role owns its schema, its tables and its sequences.
    await asAdmin(
      target,
      `REASSIGN OWNED BY ${ledger.owner} TO ${ledger.runtime}; DROP OWNED BY ${ledger.owner}; ` +
        `DROP ROLE ${ledger.owner}`,
    );

    const upgraded = await migrateFixtures();

    expect(upgraded).toMatch(
      new RegExp(
        `ledger +owner ${ledger.owner} created, runtime ${ledger.runtime} exists, schema ledger owner changed, ` +
          '\\d+ objects handed from runtime to owner, up to date \\(2 migrations\\)',
      ),
    );
    expect(await asRole(target, ledger.runtime, `INSERT INTO later (note) VALUES ('after')`)).toBe('ok');
    expect(await asRole(target, ledger.runtime, 'ALTER TABLE later ADD COLUMN extra TEXT')).toEqual(
      notOwner('table', 'later'),
    );
    expect(await migrateFixtures()).toMatch(
      new RegExp(`ledger +owner \\S+ exists, runtime \\S+ exists, schema ledger exists, up to date`),
    );
  });

  it('refuses, before connecting anywhere, a password left to its local default on another server', async () => {
    const refused = await migrate(target, SERVICES_ROOT, {
      DATABASE_ADMIN_URL: 'postgres://admin@db.invalid:5432/postgres',
      SIKA_DB_OWNER_PASSWORD_LEDGER: 'a-real-secret',
      SIKA_DB_PASSWORD_LEDGER: 'another-real-secret',
    });

    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'db:migrate  failed: set SIKA_DB_OWNER_PASSWORD_PSP: the password of ' +
        `${psp.owner} may be its own name only on a local server`,
    );
  });
});
