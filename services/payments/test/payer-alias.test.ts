import path from 'node:path';
import { SecretBox } from '@sika/platform';
import { createTestSchema, readMigrations, waitFor } from '@sika/testing';
import { Harness, PAYER_ALIAS_KEY } from './support/harness';
import type { Scope } from './support/harness';

const PAYING_ALIAS = '+225 0000000001';
const RETENTION_MS = 30 * 24 * 60 * 60_000;

interface AttemptRow {
  id: string;
  payer_alias: string | null;
  payer_alias_sealed: string | null;
  payer_alias_masked: string;
}

describe('payments: the payer alias at rest', () => {
  let harness: Harness;
  const box = new SecretBox(Buffer.from(PAYER_ALIAS_KEY, 'hex'));

  beforeAll(async () => {
    harness = await Harness.start('aliases');
  });

  afterAll(async () => {
    await harness?.close();
  });

  const testScope = (): Scope => ({ merchantId: harness.newMerchant(), livemode: false });

  async function attemptOf(paymentId: string): Promise<AttemptRow> {
    const [row] = await harness.db.query<AttemptRow>(
      'SELECT id, payer_alias, payer_alias_sealed, payer_alias_masked FROM payment_attempts WHERE payment_id = $1',
      [paymentId],
    );
    if (row === undefined) throw new Error(`no attempt for ${paymentId}`);
    return row;
  }

  async function requestSent(scope: Scope): Promise<string> {
    const created = await harness.create(scope, { customerAlias: PAYING_ALIAS });
    await harness.events.waitForEvent(created.id, 'payment.request_sent');
    return created.id;
  }

  async function succeeded(scope: Scope): Promise<string> {
    const paymentId = await requestSent(scope);
    const { txId } = await attemptTx(paymentId);
    await harness.publishPspUpdate({ txId });
    await harness.events.waitForEvent(paymentId, 'payment.succeeded');
    return paymentId;
  }

  async function attemptTx(paymentId: string): Promise<{ txId: string }> {
    const [row] = await harness.db.query<{ tx_id: string }>(
      'SELECT tx_id FROM payment_attempts WHERE payment_id = $1',
      [paymentId],
    );
    return { txId: row?.tx_id ?? '' };
  }

  it('stores the alias sealed with the attempt id as context, never in clear, and sends it in clear', async () => {
    const paymentId = await requestSent(testScope());
    const row = await attemptOf(paymentId);

    expect(row.payer_alias).toBeNull();
    expect(row.payer_alias_sealed).not.toContain('0000000001');
    expect(box.open(row.payer_alias_sealed ?? '', row.id)).toBe(PAYING_ALIAS);
    expect(row.payer_alias_masked).toBe('+225 00******01');
    const { txId } = await attemptTx(paymentId);
    expect(harness.peers.psp.calls.find((call) => call.txId === txId)?.payerAlias).toBe(PAYING_ALIAS);
  });

  it('erases the alias of payments final for PAYER_ALIAS_RETENTION, keeping the masked form', async () => {
    const scope = testScope();
    const old = await succeeded(scope);
    harness.clock.advance(RETENTION_MS / 2);
    const recent = await succeeded(scope);
    const open = await requestSent(scope);
    harness.clock.advance(RETENTION_MS / 2 + 1);

    harness.service.payerAliases.wake();
    await waitFor(async () => (await attemptOf(old)).payer_alias_sealed === null, {
      description: 'the payer-alias job to erase the alias of the old final payment',
    });

    expect((await attemptOf(old)).payer_alias_masked).toBe('+225 00******01');
    expect((await harness.get(scope, old)).payerAliasMasked).toBe('+225 00******01');
    expect((await attemptOf(recent)).payer_alias_sealed).not.toBeNull();
    expect((await attemptOf(open)).payer_alias_sealed).not.toBeNull();
  });
});

describe('the migration that ends the aliases kept in clear', () => {
  const MIGRATIONS = path.join(__dirname, '../prisma/migrations');
  const CLEAR_ERASED = '20261129141000_clear_payer_aliases_erased';

  /** A schema migrated up to CLEAR_ERASED, holding one payment with attempts of these statuses, in clear. */
  async function beforeMigration(statuses: string[]) {
    const schema = await createTestSchema({ prefix: 'payments_clear_aliases' });
    const migrations = await readMigrations(MIGRATIONS);
    for (const migration of migrations.filter(({ name }) => name < CLEAR_ERASED))
      await schema.query(migration.sql);
    await schema.query(`
      INSERT INTO payments (id, merchant_id, livemode, status, amount, currency, mode, fee_rate_bps,
                            fee_fixed_amount, return_url, checkout_url, expires_at, created_at, updated_at)
      VALUES ('pay_1', 'mer_1', false, 'request_sent', 1000, 'XOF', 'immediate', 0, 0, 'https://shop.example',
              'https://checkout.example', now(), now(), now())`);
    for (const [index, status] of statuses.entries()) {
      await schema.query(
        `INSERT INTO payment_attempts (id, payment_id, sequence, tx_id, status, payer_alias, payer_alias_masked,
                                       created_at, updated_at)
         VALUES ($1, 'pay_1', $2, $3, $4::attempt_status, $5, '+225 00******01', now(), now())`,
        [`att_${index}`, index + 1, `SIKA${index}`, status, PAYING_ALIAS],
      );
    }
    const rest = migrations.filter(({ name }) => name >= CLEAR_ERASED);
    return {
      schema,
      migrate: async () => {
        for (const { sql } of rest) await schema.query(sql);
      },
    };
  }

  it('erases the clear alias of every attempt that will not be sent again, keeping its masked form', async () => {
    const { schema, migrate } = await beforeMigration(['sent', 'failed', 'succeeded']);
    try {
      await migrate();
      expect(
        await schema.query('SELECT payer_alias, payer_alias_masked FROM payment_attempts ORDER BY id'),
      ).toEqual(Array(3).fill({ payer_alias: null, payer_alias_masked: '+225 00******01' }));
    } finally {
      await schema.drop();
    }
  });

  it('stops, changing nothing, while a pending attempt still needs its alias in clear', async () => {
    const { schema, migrate } = await beforeMigration(['sent', 'pending']);
    try {
      await expect(migrate()).rejects.toThrow(/pending attempts hold payer aliases in clear/);
      expect(
        await schema.query(
          'SELECT count(*)::int AS clear FROM payment_attempts WHERE payer_alias IS NOT NULL',
        ),
      ).toEqual([{ clear: 2 }]);
    } finally {
      await schema.drop();
    }
  });
});
