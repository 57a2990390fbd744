import { payoutsV1 } from '@sika/contracts';
import { Harness } from './support';

// A real ledger process (tsx compiles at start) on 2 shared cores: generous bounds, though a run takes seconds.
jest.setTimeout(60_000);

const { PayoutMethod: Method, PayoutSchedule: Schedule } = payoutsV1;

describe('the daily automatic payout', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await Harness.start('daily', new Date('2026-11-25T05:59:00.000Z'));
  });

  afterAll(async () => {
    await harness?.close();
  });

  const payoutsOf = async (scope: { merchantId: string; livemode: boolean }) =>
    (await harness.list({ scope })).payouts;

  it('pays each daily merchant once at 06:00, even with two replicas racing, and never twice a day', async () => {
    const daily = [harness.newScope(), harness.newScope(), harness.newScope()];
    const manual = harness.newScope();
    const liveWithoutAccount = harness.newScope(true);
    for (const scope of [...daily, manual, liveWithoutAccount]) await harness.fund(scope, 5_000n);
    await harness.client.setPayoutSchedule({ scope: manual, schedule: Schedule.PAYOUT_SCHEDULE_MANUAL });
    const replica = await harness.startReplica();
    const [first] = harness.replicas;

    // Before 06:00 the due run is yesterday's, which the harness saw complete before these merchants had money.
    first!.dailyRun.wake();
    replica.dailyRun.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const scope of daily) expect(await payoutsOf(scope)).toEqual([]);

    harness.clock.set(new Date('2026-11-25T06:00:30.000Z'));
    first!.dailyRun.wake();
    replica.dailyRun.wake();
    await harness.waitForRun('2026-11-25');

    // The run is complete once each payout is recorded; the replica that recorded one may still be reserving
    // it (shown once pending).
    for (const scope of daily) {
      const payouts = await harness.waitForPayouts(scope, 1);
      expect(payouts).toHaveLength(1);
      expect(payouts[0]).toMatchObject({ method: Method.PAYOUT_METHOD_AUTOMATIC, amount: 5_000n });
      expect(await harness.balance(scope)).toMatchObject({ available: 0n, pendingPayout: 5_000n });
    }
    expect(await payoutsOf(manual)).toEqual([]);
    expect(await payoutsOf(liveWithoutAccount)).toEqual([]);

    // New money the same day waits for tomorrow's run.
    await harness.fund(daily[0]!, 1_000n);
    harness.clock.set(new Date('2026-11-25T18:00:00.000Z'));
    first!.dailyRun.wake();
    replica.dailyRun.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await payoutsOf(daily[0]!)).toHaveLength(1);

    harness.clock.set(new Date('2026-11-26T06:01:00.000Z'));
    first!.dailyRun.wake();
    await harness.waitForRun('2026-11-26');
    const next = await harness.waitForPayouts(daily[0]!, 2);
    expect(next.map((payout) => payout.amount)).toEqual([1_000n, 5_000n]);
  });

  it('finishes a run cut short without paying anyone twice', async () => {
    const scopes = [harness.newScope(), harness.newScope()];
    for (const scope of scopes) await harness.fund(scope, 700n);
    harness.clock.set(new Date('2026-11-27T06:00:00.000Z'));
    // A crash after the first merchant's payout: it exists, the run is not marked complete.
    const [paidBeforeCrash] = scopes;
    await harness.db.query(
      `INSERT INTO payouts (id, merchant_id, livemode, status, method, currency, alias_type, alias, alias_masked,
         holder_name, automatic_for, reserve_lease_until, created_at)
       VALUES ('po_crashed00000000000000001', $1, false, 'reserving', 'automatic', 'XOF', 'phone',
         '+2250000000100', '+225 00******00', 'Marchand Test Sika', '2026-11-27', $2, $2)`,
      [paidBeforeCrash!.merchantId, harness.clock.now()],
    );
    harness.replicas[0]!.dailyRun.wake();
    await harness.waitForRun('2026-11-27');
    harness.clock.advance(60_000);
    harness.replicas[0]!.sweeper.wake();
    for (const scope of scopes) {
      await expect(harness.waitForPayouts(scope, 1)).resolves.toHaveLength(1);
      expect(await harness.balance(scope)).toMatchObject({ available: 0n, pendingPayout: 700n });
    }
  });

  it('pays each merchant once when the ledger commits the reservations after payouts gave up on them', async () => {
    const scopes = [harness.newScope(), harness.newScope()];
    for (const scope of scopes) await harness.fund(scope, 900n);
    // Longer than payouts' 5 s deadline on the ledger: each reservation is left to the sweeper, and the ledger
    // commits it once the lock is gone, after payouts stopped waiting for it.
    const locked = await harness.lockLedger(7_000);
    harness.clock.set(new Date('2026-11-28T06:00:00.000Z'));
    harness.replicas[0]!.dailyRun.wake();
    await harness.waitForRun('2026-11-28');
    await locked.released;

    harness.clock.advance(60_000);
    harness.replicas[0]!.sweeper.wake();
    for (const scope of scopes) {
      const [payout] = await harness.waitForPayouts(scope, 1);
      expect(payout).toMatchObject({ method: Method.PAYOUT_METHOD_AUTOMATIC, amount: 900n });
      expect(await harness.balance(scope)).toMatchObject({ available: 0n, pendingPayout: 900n });
    }
    // Reserved once each: the sweeper's second ask was answered with the reservation the ledger committed late.
    harness.clock.advance(60_000);
    harness.replicas[0]!.sweeper.wake();
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const scope of scopes) {
      expect((await harness.list({ scope })).payouts).toHaveLength(1);
      expect(await harness.balance(scope)).toMatchObject({ available: 0n, pendingPayout: 900n });
    }
  });
});
