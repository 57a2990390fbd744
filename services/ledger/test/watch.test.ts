import { paymentsV1, payoutsV1 } from '@sika/contracts';
import {
  createLogger,
  newId,
  startGrpcServer,
  unaryHandler,
  type GrpcServiceRegistration,
  type RunningGrpcServer,
} from '@sika/platform';
import { allowEveryMethod, testIdentity, waitFor } from '@sika/testing';
import { startLedger, testScope, type LedgerHarness } from './support';

/**
 * The books watch, continuously: what the ledger booked is checked against what payments and payouts decided
 * (here real gRPC servers playing them, over mutual TLS as those services), and a violation is counted in
 * sika_audit_violations_total on the operations port, once, within a round.
 */
describe('ledger: the books watch', () => {
  const succeeded = new Set<string>();
  /** Answers of payments' peer to fail from now on, as while payments is stopped. */
  let failingAnswers = 0;
  let answers = 0;
  const payoutStatuses = new Map<string, string>();
  const servers: RunningGrpcServer[] = [];
  let ledger: LedgerHarness;

  const serve = async (identity: string, registration: Omit<GrpcServiceRegistration, 'callers'>) => {
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: createLogger({ service: `${identity}-peer`, level: 'silent' }),
      services: [{ ...registration, callers: allowEveryMethod(registration.definition, ['ledger']) }],
      tls: (await testIdentity(identity)).tls,
    });
    servers.push(server);
    return `127.0.0.1:${server.port}`;
  };

  beforeAll(async () => {
    const payments = await serve('payments', {
      definition: paymentsV1.PaymentsServiceService,
      implementation: {
        findSucceededPayments: unaryHandler(async (request: paymentsV1.FindSucceededPaymentsRequest) => {
          answers += 1;
          if (failingAnswers > 0) {
            failingAnswers -= 1;
            throw new Error('payments is not answering');
          }
          return { paymentIds: request.paymentIds.filter((id) => succeeded.has(id)) };
        }),
      },
    });
    const payouts = await serve('payouts', {
      definition: payoutsV1.PayoutsServiceService,
      implementation: {
        findPayoutStatuses: unaryHandler(async (request: payoutsV1.FindPayoutStatusesRequest) => ({
          payouts: request.payoutIds.flatMap((payoutId) => {
            const status = payoutStatuses.get(payoutId);
            return status === undefined ? [] : [{ payoutId, status }];
          }),
        })),
      },
    });
    ledger = await startLedger({
      PAYMENTS_GRPC_ADDRESS: payments,
      PAYOUTS_GRPC_ADDRESS: payouts,
      BOOKS_WATCH_INTERVAL: '200ms',
    });
  });

  afterAll(async () => {
    await ledger?.close();
    await Promise.all(servers.map((server) => server.shutdown(1_000)));
  });

  /** sika_audit_violations_total of one invariant, as Prometheus scrapes it. */
  async function violations(invariant: string): Promise<number> {
    const text = await (await fetch(ledger.metricsUrl)).text();
    const line = text
      .split('\n')
      .find(
        (each) =>
          each.startsWith('sika_audit_violations_total{') && each.includes(`invariant="${invariant}"`),
      );
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  }

  it('counts a credit of a payment payments says did not succeed, once, and nothing for one that did', async () => {
    const scope = testScope();
    const fine = newId('pay');
    succeeded.add(fine);
    await ledger.credit(scope, 1_000n, 10n, fine);
    const before = await violations('one credit per success');

    // A credit with no succeeded payment behind it: the money paid twice this watch exists to catch.
    await ledger.credit(scope, 2_000n, 20n);
    await waitFor(async () => (await violations('one credit per success')) === before + 1, {
      description: 'the violation counted',
    });
    // Rounds go on: it stays counted once.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await violations('one credit per success')).toBe(before + 1);
  });

  it('counts a payout reversed while payouts has it paid, and passes one reserved and released as decided', async () => {
    const scope = testScope();
    await ledger.credit(scope, 5_000n, 0n);
    const [paid, mismatched] = [
      { id: newId('po'), amount: 1_000n },
      { id: newId('po'), amount: 2_000n },
    ];
    payoutStatuses.set(paid.id, 'paid');
    payoutStatuses.set(mismatched.id, 'paid');
    const before = await violations('payout reservations');
    for (const payout of [paid, mismatched]) {
      await ledger.client.reservePayout({ scope, payoutId: payout.id, amount: payout.amount });
    }
    await ledger.publishPayoutOutcome(scope, paid, 'paid');
    await ledger.publishPayoutOutcome(scope, mismatched, 'failed');
    await ledger.movementsOf(scope, mismatched.id, 2);
    await waitFor(async () => (await violations('payout reservations')) === before + 1, {
      description: 'the violation counted',
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await violations('payout reservations')).toBe(before + 1);
  });

  it('checks a transaction that commits after later ones were read: a stall does not hide it', async () => {
    const before = await violations('double entry');
    // A ledger transaction takes its id when written and stays uncommitted, as in a stalled writer; with no
    // postings at all, it breaks double entry once it commits.
    const stalled = await ledger.db.pool.connect();
    try {
      await stalled.query('BEGIN');
      const [{ id }] = (
        await stalled.query<{ id: string }>(
          `INSERT INTO ledger_transactions (kind, source_id, created_at)
           VALUES ('adjustment', $1, now()) RETURNING id::text`,
          [newId('adj')],
        )
      ).rows as [{ id: string }];
      // Later transactions commit and are read past the stalled one's id.
      const scope = testScope();
      const paymentId = newId('pay');
      succeeded.add(paymentId);
      await ledger.credit(scope, 1_000n, 10n, paymentId);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await violations('double entry')).toBe(before);

      await stalled.query('COMMIT');
      await waitFor(async () => (await violations('double entry')) === before + 1, {
        description: `ledger transaction ${id}, committed late, found unbalanced`,
      });
    } finally {
      stalled.release();
    }
  });

  it('checks balances against what each round read: none wrong after many credits, a drift counted once', async () => {
    const scope = testScope();
    const before = await violations('balance');
    for (let round = 0; round < 3; round += 1) {
      const paymentId = newId('pay');
      succeeded.add(paymentId);
      await ledger.credit(scope, 1_000n, 10n, paymentId);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    expect(await violations('balance')).toBe(before);

    // A balance changed with no posting behind it, as a bug would: the schema refuses it, so the test lifts its
    // guard for this one change.
    const session = await ledger.db.pool.connect();
    try {
      await session.query('BEGIN');
      await session.query('ALTER TABLE accounts DISABLE TRIGGER accounts_balance_from_postings');
      await session.query(
        `UPDATE accounts SET balance = balance + 1 WHERE owner_id = $1 AND kind = 'available'`,
        [scope.merchantId],
      );
      await session.query('ALTER TABLE accounts ENABLE TRIGGER accounts_balance_from_postings');
      await session.query('COMMIT');
    } finally {
      session.release();
    }
    const next = newId('pay');
    succeeded.add(next);
    await ledger.credit(scope, 1_000n, 10n, next);
    await waitFor(async () => (await violations('balance')) === before + 1, {
      description: 'the drift counted',
    });
  });

  it('reads a round again whole when payments did not answer it, and finds no balance wrong for it', async () => {
    const scope = testScope();
    const before = await violations('balance');
    const first = newId('pay');
    succeeded.add(first);
    await ledger.credit(scope, 1_000n, 10n, first);
    await new Promise((resolve) => setTimeout(resolve, 600));

    failingAnswers = 2;
    const second = newId('pay');
    succeeded.add(second);
    await ledger.credit(scope, 1_000n, 10n, second);
    const failedBy = answers + 2;
    await waitFor(async () => answers > failedBy || undefined, {
      description: 'two rounds that failed, then one that went through',
    });
    expect(await violations('balance')).toBe(before);
  });
});
