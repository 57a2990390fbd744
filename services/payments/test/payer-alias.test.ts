import { SecretBox } from '@sika/platform';
import { waitFor } from '@sika/testing';
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

  it('seals the aliases stored in clear before aliases were sealed', async () => {
    const paymentId = await requestSent(testScope());
    const { id } = await attemptOf(paymentId);
    await harness.service.payerAliases.stop();
    await harness.db.query(
      'UPDATE payment_attempts SET payer_alias = $1, payer_alias_sealed = NULL WHERE id = $2',
      [PAYING_ALIAS, id],
    );

    await harness.service.payerAliases.start();
    await waitFor(async () => (await attemptOf(paymentId)).payer_alias === null, {
      description: 'the payer-alias job to seal the clear alias',
    });

    const row = await attemptOf(paymentId);
    expect(box.open(row.payer_alias_sealed ?? '', id)).toBe(PAYING_ALIAS);
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
