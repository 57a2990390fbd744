import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomSuffix, resolveDatabaseUrl } from '@sika/testing';
import { REPO_ROOT } from '../prisma-cli';
import { asAdmin, asRole, dropTarget, migrate, notOwner, permissionDenied, type Target } from './support';

// The real services' migrations, provisioned and applied by migrate.ts as they are for the local stack: two
// Prisma CLI runs, slow on a busy machine.
jest.setTimeout(180_000);

/** Services whose database is checked here: a copy of their Prisma folder and package.json (dbSchema). */
const SERVICES = ['ledger', 'webhook-dispatcher'];

const suffix = randomSuffix(8);
const target: Target = { adminUrl: '', database: `t_roles_${suffix}`, rolePrefix: `t${suffix}_` };
const ledger = { owner: `${target.rolePrefix}ledger_owner`, runtime: `${target.rolePrefix}ledger` };
const webhooks = { owner: `${target.rolePrefix}webhooks_owner`, runtime: `${target.rolePrefix}webhooks` };
let servicesRoot: string;

beforeAll(async () => {
  target.adminUrl = await resolveDatabaseUrl();
  servicesRoot = mkdtempSync(path.join(os.tmpdir(), 'sika-roles-'));
  for (const service of SERVICES) {
    const from = path.join(REPO_ROOT, 'services', service);
    // Links resolved: webhook-dispatcher's schema links to packages/messaging's.
    cpSync(path.join(from, 'prisma'), path.join(servicesRoot, service, 'prisma'), {
      recursive: true,
      dereference: true,
    });
    cpSync(path.join(from, 'package.json'), path.join(servicesRoot, service, 'package.json'));
  }
  const run = await migrate(target, servicesRoot);
  if (run.code !== 0) throw new Error(`migrate.ts failed:\n${run.stdout}${run.stderr}`);
});

afterAll(async () => {
  rmSync(servicesRoot, { recursive: true, force: true });
  await dropTarget(target);
});

/** One balanced ledger transaction (two postings) and its balance transaction, as the ledger writes them. */
const WRITE_BOOKS = `
  INSERT INTO accounts (owner_id, livemode, kind) VALUES ('mer_1', false, 'available'), ('sika', false, 'scheme_settlement');
  INSERT INTO ledger_transactions (kind, source_id, created_at) VALUES ('payment', 'pay_1', now());
  INSERT INTO postings (ledger_transaction_id, account_id, amount)
    SELECT t.id, a.id, CASE a.kind WHEN 'available' THEN 100 ELSE -100 END
      FROM ledger_transactions t CROSS JOIN accounts a;
  INSERT INTO balance_transactions
      (id, merchant_id, livemode, type, amount, currency, source_id, ledger_transaction_id, created_at)
    SELECT 'txn_1', 'mer_1', false, 'payment', 100, 'XOF', 'pay_1', id, now() FROM ledger_transactions;`;

describe("the ledger's runtime role", () => {
  it('writes and reads the books', async () => {
    expect(await asRole(target, ledger.runtime, WRITE_BOOKS)).toBe('ok');
    expect(
      await asRole(target, ledger.runtime, 'SELECT * FROM postings; SELECT * FROM balance_transactions'),
    ).toBe('ok');
  });

  it('cannot set the append-only triggers aside: they belong to the owner', async () => {
    expect(
      await asRole(target, ledger.runtime, 'ALTER TABLE postings DISABLE TRIGGER postings_append_only'),
    ).toEqual(notOwner('table', 'postings'));
    expect(await asRole(target, ledger.runtime, 'ALTER TABLE postings DISABLE TRIGGER ALL')).toEqual(
      notOwner('table', 'postings'),
    );
    expect(await asRole(target, ledger.runtime, 'DROP TRIGGER postings_append_only ON postings')).toEqual(
      notOwner('relation', 'postings'),
    );
    expect(
      await asRole(
        target,
        ledger.runtime,
        'ALTER TABLE balance_transactions DISABLE TRIGGER balance_transactions_append_only',
      ),
    ).toEqual(notOwner('table', 'balance_transactions'));
    expect(await asRole(target, ledger.runtime, 'DROP FUNCTION refuse_change()')).toEqual(
      notOwner('function', 'refuse_change'),
    );
  });

  // Refused by privilege, before the triggers would refuse them ("… is append-only").
  it.each(['postings', 'balance_transactions', 'ledger_transactions'])(
    'has no UPDATE, DELETE nor TRUNCATE on %s',
    async (table) => {
      for (const sql of [`UPDATE ${table} SET id = id`, `DELETE FROM ${table}`, `TRUNCATE ${table}`]) {
        expect({ sql, verdict: await asRole(target, ledger.runtime, sql) }).toEqual({
          sql,
          verdict: permissionDenied('table', table),
        });
      }
    },
  );

  it('changes an account only through its postings: a direct UPDATE is refused', async () => {
    expect(
      await asRole(target, ledger.runtime, `UPDATE accounts SET balance = 1 WHERE owner_id = 'mer_1'`),
    ).toMatchObject({ code: '42501' });
    expect(
      await asRole(
        target,
        ledger.runtime,
        `SELECT 1 / (balance = 100)::int FROM accounts WHERE owner_id = 'mer_1'`,
      ),
    ).toBe('ok');
  });
});

describe("webhook-dispatcher's runtime role", () => {
  it('reads and writes rows but runs no DDL', async () => {
    expect(
      await asRole(target, webhooks.runtime, 'SELECT count(*) FROM events; SELECT count(*) FROM outbox'),
    ).toBe('ok');
    expect(await asRole(target, webhooks.runtime, 'CREATE TABLE webhooks.extra (id INT)')).toEqual(
      permissionDenied('schema', 'webhooks'),
    );
    expect(
      await asRole(target, webhooks.runtime, 'ALTER TABLE events DISABLE TRIGGER events_immutable'),
    ).toEqual(notOwner('table', 'events'));
    expect(await asRole(target, webhooks.runtime, 'ALTER TABLE events ADD COLUMN note TEXT')).toEqual(
      notOwner('table', 'events'),
    );
    expect(await asRole(target, webhooks.runtime, 'CREATE INDEX events_extra_idx ON events (id)')).toEqual(
      notOwner('table', 'events'),
    );
    expect(await asRole(target, webhooks.runtime, 'DROP TABLE deliveries')).toEqual(
      notOwner('table', 'deliveries'),
    );
  });

  it('owns nothing: the owner role owns every table, sequence, index and function of the schema', async () => {
    const owners = await asAdmin<{ owner: string }>(
      target,
      `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'webhooks'::regnamespace
       UNION SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE pronamespace = 'webhooks'::regnamespace`,
    );
    expect(owners).toEqual([{ owner: webhooks.owner }]);
    expect(await asRole(target, webhooks.owner, 'CREATE TABLE scratch (id INT); DROP TABLE scratch')).toBe(
      'ok',
    );
  });
});
