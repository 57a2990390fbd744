import { randomBytes } from 'node:crypto';
import { sql as kyselySql, type Kysely } from 'kysely';
import { createMetrics, ManualClock, newId, SecretBox } from '@sika/platform';
import { createTestSchema, scanIndexOf, type TestSchema } from '@sika/testing';
import type { paymentsV1 } from '@sika/contracts';
import { Registry } from 'prom-client';
import type { ClaimedDelivery } from '../src/app/ports';
import { RecordEvent } from '../src/app/record-event';
import { paymentChangeOf } from '../src/transport/events-consumers';
import { BatchedDeliveryQueue } from '../src/infra/batched-delivery-queue';
import { createDatabase, type WebhooksDatabase } from '../src/infra/database';
import { deliveryMetrics, pendingDeliveryGauges } from '../src/infra/delivery-metrics';
import { OpenedSecrets } from '../src/infra/opened-secrets';
import { SqlDeliveryQueue } from '../src/infra/sql-delivery-queue';
import { SqlEndpointRepository } from '../src/infra/sql-endpoint-repository';
import { SqlEventAudit } from '../src/infra/sql-event-audit';
import { SqlEventRecorder } from '../src/infra/sql-event-recorder';
import { eventStoreTransactions } from '../src/infra/sql-event-store';
import type { DB } from '../src/generated/database';
import { MIGRATIONS_DIR, paymentEvent, testLogger } from './support/dispatcher';

/** `db` as a client that counts the statements sent through it. */
function countingClient(db: WebhooksDatabase): { client: Kysely<DB>; statements: () => number } {
  let statements = 0;
  const client = db.withPlugin({
    transformQuery: ({ node }) => {
      statements += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  return { client, statements: () => statements };
}

/** Claims not limited per endpoint: what these tests check is the queue's own rules. */
const NO_SHARES = { perEndpoint: 1_000, inFlight: new Map<string, number>() };

describe('event store and delivery claims', () => {
  let db: TestSchema;
  let sql: WebhooksDatabase;
  const secrets = new SecretBox(randomBytes(32));
  const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
  const opened = new OpenedSecrets(secrets);
  const metrics = new Registry();
  const observer = deliveryMetrics(metrics);
  /** webhook_events_stored_total of a type so far. */
  const storedCount = async (type: string) =>
    (await metrics.getSingleMetric('webhook_events_stored_total')?.get())?.values.find(
      (sample) => sample.labels.type === type,
    )?.value ?? 0;
  /** The end of the lease a consumer's transaction takes on the delivery it schedules now. */
  const consumerLease = () => new Date(clock.now().getTime() + 10_000 + 60_000);
  /**
   * Records `messages` as the consumer does when they arrive together (each PaymentEvent mapped, then stored
   * through one recorder, as the service has, over a client that counts the statements sent through it);
   * resolves with what was handed over once committed, never attempted here (as if the process died before
   * sending), and the number of statements.
   */
  async function consumeTogether(
    messages: { id: string; body: paymentsV1.PaymentEvent }[],
  ): Promise<{ handedOver: ClaimedDelivery[]; statements: number }> {
    const { client, statements } = countingClient(sql);
    const handedOver: ClaimedDelivery[] = [];
    const recorder = new SqlEventRecorder(client, new SqlDeliveryQueue(sql, opened), (claimed) =>
      handedOver.push(...claimed),
    );
    const recordEvent = new RecordEvent({
      recorder,
      clock,
      logger: testLogger(),
      attemptTimeoutMs: 10_000,
      observer,
    });
    await Promise.all(
      messages.map((message) => recordEvent.execute({ id: message.id, body: paymentChangeOf(message.body) })),
    );
    return { handedOver, statements: statements() };
  }
  /** Records one message; resolves with what was handed over for it. */
  async function consume(message: { id: string; body: paymentsV1.PaymentEvent }): Promise<ClaimedDelivery[]> {
    return (await consumeTogether([message])).handedOver;
  }
  /** A new message announcing that one of the merchant's payments succeeded. */
  const succeeded = (merchantId: string) => ({
    id: newId('msg'),
    body: paymentEvent(merchantId, 'payment.succeeded'),
  });
  /** Transactions of the kind ResendEvent and SendTestEvent run. */
  const storeTransactions = () => eventStoreTransactions(sql);

  beforeAll(async () => {
    db = await createTestSchema({ prefix: 'webhooks_store', migrationsDir: MIGRATIONS_DIR });
    sql = createDatabase({ url: db.databaseUrl, schema: db.schema });
  });

  afterAll(async () => {
    await sql.destroy();
    await db.drop();
  });

  async function merchantWithEndpoint(sealedWith: SecretBox = secrets): Promise<string> {
    const merchantId = newId('mer');
    await new SqlEndpointRepository(sql, sealedWith).setUrl(
      { merchantId, livemode: false },
      'https://shop.example/hooks',
      { id: newId('whe'), secret: 'whsec_0123456789abcdefghijklmnopqrstuv' },
      clock.now(),
    );
    return merchantId;
  }

  it('stores one event and one delivery per source message, without an inbox', async () => {
    const merchantId = await merchantWithEndpoint();
    const message = succeeded(merchantId);
    const storedBefore = await storedCount('payment.succeeded');
    for (let copy = 0; copy < 3; copy++) {
      await consume(message);
    }
    const events = await db.query('SELECT id FROM events WHERE source_message_id = $1', [message.id]);
    expect(events).toHaveLength(1);
    // Logged at debug only: the metric counts each event stored, once.
    expect((await storedCount('payment.succeeded')) - storedBefore).toBe(1);
    expect(await db.query('SELECT id FROM deliveries')).toHaveLength(1);

    // The delivery, never attempted here, is the backlog a scrape reads.
    const scraped = createMetrics({ service: 'event-store-test' });
    pendingDeliveryGauges(scraped, sql);
    const text = await scraped.registry.metrics();
    expect(text).toContain('webhook_deliveries_pending{service="event-store-test"} 1');
    expect(text).toMatch(/webhook_oldest_pending_delivery_age_seconds\{service="event-store-test"\} \d/);
  });

  it('never lets two workers claim the same delivery', async () => {
    const merchantId = await merchantWithEndpoint();
    for (let index = 0; index < 20; index++) {
      const message = { id: newId('msg'), body: paymentEvent(merchantId, 'payment.request_sent') };
      await consume(message);
    }
    const due = await db.query<{ id: string }>("SELECT id FROM deliveries WHERE status = 'pending'");
    const workers = [
      new SqlDeliveryQueue(sql, new OpenedSecrets(secrets)),
      new SqlDeliveryQueue(sql, new OpenedSecrets(secrets)),
    ];
    // Past the lease the consumer took: every delivery it handed over, never attempted, is due again.
    const now = consumerLease();
    const lease = new Date(now.getTime() + 60_000);
    const claims = await Promise.all(
      [0, 1, 2, 3].map((index) => workers[index % 2]!.claimDue(now, 8, lease, NO_SHARES)),
    );

    const claimed = claims.flat().map((delivery) => delivery.deliveryId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual(due.map((row) => row.id).sort());
    expect(claims.flat().every((delivery) => delivery.attemptNumber === 2)).toBe(true);
    // Claimed deliveries are hidden until their lease ends, then come back for another attempt.
    expect(await workers[0]!.claimDue(now, 100, lease, NO_SHARES)).toEqual([]);
    const again = await workers[1]!.claimDue(lease, 100, new Date(lease.getTime() + 60_000), NO_SHARES);
    expect(again).toHaveLength(due.length);
    expect(again.every((delivery) => delivery.attemptNumber === 3)).toBe(true);
  });

  it('keeps a late worker from overwriting the outcome of a newer attempt, recording both attempts', async () => {
    const merchantId = await merchantWithEndpoint();
    const message = succeeded(merchantId);
    const [stale] = await consume(message);
    const queue = new SqlDeliveryQueue(sql, new OpenedSecrets(secrets));
    const now = stale!.leaseUntil;
    const [fresh] = await queue.claimDue(now, 1, new Date(now.getTime() + 60_000), NO_SHARES);
    expect([stale?.attemptNumber, fresh?.deliveryId]).toEqual([1, stale?.deliveryId]);

    const attempt = {
      deliveryId: fresh!.deliveryId,
      leaseUntil: fresh!.leaseUntil,
      attemptedAt: now,
      url: 'https://shop.example/hooks',
      durationMs: 3,
    };
    expect(
      await queue.recordAttempt(
        { ...attempt, number: 2, statusCode: 200 },
        { status: 'delivered', deliveredAt: now },
      ),
    ).toBe(true);
    expect(
      await queue.recordAttempt(
        { ...attempt, number: 1, leaseUntil: stale!.leaseUntil, statusCode: 500 },
        { status: 'failed' },
      ),
    ).toBe(false);
    const [delivery] = await db.query<{ status: string }>('SELECT status FROM deliveries WHERE id = $1', [
      fresh!.deliveryId,
    ]);
    expect(delivery?.status).toBe('delivered');
    expect(
      await db.query('SELECT number FROM delivery_attempts WHERE delivery_id = $1', [fresh!.deliveryId]),
    ).toHaveLength(2);
  });

  describe('the worker records the outcomes of attempts that end together', () => {
    /** The worker's queue over a client that counts the statements sent through it. */
    function countedWorkerQueue(): { queue: BatchedDeliveryQueue; statements: () => number } {
      const { client, statements } = countingClient(sql);
      return {
        queue: new BatchedDeliveryQueue(new SqlDeliveryQueue(client, new OpenedSecrets(secrets))),
        statements,
      };
    }

    it('in one statement, each told whether its outcome applied', async () => {
      const merchantId = await merchantWithEndpoint();
      const handedOver: ClaimedDelivery[] = [];
      for (let index = 0; index < 3; index++) {
        handedOver.push(...(await consume(succeeded(merchantId))));
      }
      const [first, second, third] = handedOver;
      // The third's first attempt outlived its lease: another worker claimed it again, as claimDue does.
      const now = third!.leaseUntil;
      const again = { ...third!, attemptNumber: 2, leaseUntil: new Date(now.getTime() + 60_000) };
      await db.query('UPDATE deliveries SET attempt_count = 2, next_attempt_at = $2 WHERE id = $1', [
        again.deliveryId,
        again.leaseUntil,
      ]);
      const { queue, statements } = countedWorkerQueue();
      const attempt = (delivery: ClaimedDelivery, statusCode: number) => ({
        deliveryId: delivery.deliveryId,
        number: delivery.attemptNumber,
        leaseUntil: delivery.leaseUntil,
        attemptedAt: now,
        url: 'https://shop.example/hooks',
        statusCode,
        durationMs: 4,
      });
      const retryAt = new Date(now.getTime() + 60_000);

      const applied = await Promise.all([
        queue.recordAttempt(attempt(first!, 200), { status: 'delivered', deliveredAt: now }),
        queue.recordAttempt(attempt(second!, 503), { status: 'pending', nextAttemptAt: retryAt }),
        queue.recordAttempt(attempt(third!, 500), { status: 'failed' }),
        queue.recordAttempt(attempt(again, 200), { status: 'delivered', deliveredAt: now }),
      ]);

      expect(applied).toEqual([true, true, false, true]);
      expect(statements()).toBe(1);
      const ids = [first!.deliveryId, second!.deliveryId, third!.deliveryId];
      const rows = await db.query<{
        id: string;
        status: string;
        next_attempt_at: Date | null;
        attempts: string;
      }>(
        `SELECT d.id, d.status, d.next_attempt_at,
                (SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id) AS attempts
           FROM deliveries d WHERE d.id = ANY($1)`,
        [ids],
      );
      expect(new Map(rows.map(({ id, ...row }) => [id, row]))).toEqual(
        new Map([
          [first!.deliveryId, { status: 'delivered', next_attempt_at: null, attempts: '1' }],
          [second!.deliveryId, { status: 'pending', next_attempt_at: retryAt, attempts: '1' }],
          [third!.deliveryId, { status: 'delivered', next_attempt_at: null, attempts: '2' }],
        ]),
      );
    });

    it('one at a time when their statement fails, so that an error stays its own', async () => {
      const merchantId = await merchantWithEndpoint();
      const [delivery] = await consume({
        id: newId('msg'),
        body: paymentEvent(merchantId, 'payment.succeeded'),
      });
      const { queue } = countedWorkerQueue();
      const now = clock.now();
      const attempt = {
        number: 1,
        attemptedAt: now,
        url: 'https://shop.example/hooks',
        statusCode: 200,
        durationMs: 4,
      };

      const [recorded, unknown] = await Promise.allSettled([
        queue.recordAttempt(
          { ...attempt, deliveryId: delivery!.deliveryId, leaseUntil: delivery!.leaseUntil },
          { status: 'delivered', deliveredAt: now },
        ),
        // No such delivery: its attempt breaks the foreign key, and the whole statement with it.
        queue.recordAttempt(
          { ...attempt, deliveryId: newId('dlv'), leaseUntil: delivery!.leaseUntil },
          { status: 'delivered', deliveredAt: now },
        ),
      ]);

      expect(recorded).toEqual({ status: 'fulfilled', value: true });
      expect(unknown).toMatchObject({
        status: 'rejected',
        reason: expect.objectContaining({ code: '23503' }),
      });
    });
  });

  it('keeps an attempt in flight during a resend from overwriting the resend, which is made next', async () => {
    const merchantId = await merchantWithEndpoint();
    const message = succeeded(merchantId);
    // The attempt in flight is the one the consumer's transaction handed over.
    const [inFlight] = await consume(message);
    const queue = new SqlDeliveryQueue(sql, new OpenedSecrets(secrets));
    const lease = inFlight!.leaseUntil;

    const [{ endpoint_id: endpointId } = { endpoint_id: '' }] = await db.query<{ endpoint_id: string }>(
      'SELECT endpoint_id FROM deliveries WHERE id = $1',
      [inFlight!.deliveryId],
    );
    // What ResendEvent does, while the attempt is in flight.
    await storeTransactions().run((store) =>
      store.scheduleDelivery({
        id: newId('dlv'),
        eventId: inFlight!.eventId,
        endpointId,
        dueAt: clock.now(),
      }),
    );
    const applied = await queue.recordAttempt(
      {
        deliveryId: inFlight!.deliveryId,
        number: 1,
        leaseUntil: lease,
        attemptedAt: clock.now(),
        url: 'https://shop.example/hooks',
        statusCode: 200,
        durationMs: 3,
      },
      { status: 'delivered', deliveredAt: clock.now() },
    );

    expect(applied).toBe(false);
    const [resent] = await queue.claimDue(clock.now(), 1, lease, NO_SHARES);
    expect([resent?.deliveryId, resent?.attemptNumber]).toEqual([inFlight!.deliveryId, 2]);
  });

  it('fails, on its own and recorded, a delivery whose endpoint secret cannot be decrypted', async () => {
    const readable = await merchantWithEndpoint();
    const unreadable = await merchantWithEndpoint(new SecretBox(randomBytes(32)));
    const failedAttempts = () =>
      db.query<{ status: string; number: number; error: string }>(
        `SELECT d.status, a.number, a.error FROM deliveries d
           JOIN endpoints p ON p.id = d.endpoint_id JOIN delivery_attempts a ON a.delivery_id = d.id
          WHERE p.merchant_id = $1 ORDER BY a.number`,
        [unreadable],
      );
    const failed = (number: number) => ({
      status: 'failed',
      number,
      error: expect.stringMatching(/cannot be decrypted/),
    });

    // By the consumer: failed at once, nothing handed over.
    const [fromUnreadable, fromReadable] = await Promise.all(
      [unreadable, readable].map((merchantId) => consume(succeeded(merchantId))),
    );
    expect([fromUnreadable, fromReadable?.length]).toEqual([[], 1]);
    expect(await failedAttempts()).toEqual([failed(1)]);

    // By a claim: the unreadable event resent, beside the readable one whose lease ended.
    const [{ id: eventId, endpoint_id: endpointId } = { id: '', endpoint_id: '' }] = await db.query<{
      id: string;
      endpoint_id: string;
    }>(
      'SELECT e.id, d.endpoint_id FROM events e JOIN deliveries d ON d.event_id = e.id WHERE e.merchant_id = $1',
      [unreadable],
    );
    await storeTransactions().run((store) =>
      store.scheduleDelivery({ id: newId('dlv'), eventId, endpointId, dueAt: clock.now() }),
    );
    const later = new Date(clock.now().getTime() + 3_600_000);
    const claimed = await new SqlDeliveryQueue(sql, new OpenedSecrets(secrets)).claimDue(
      later,
      100,
      later,
      NO_SHARES,
    );

    const claimedEvents = await db.query<{ merchant_id: string }>(
      'SELECT p.merchant_id FROM deliveries d JOIN endpoints p ON p.id = d.endpoint_id WHERE d.id = ANY($1)',
      [claimed.map((delivery) => delivery.deliveryId)],
    );
    expect(claimedEvents.map((row) => row.merchant_id)).toContain(readable);
    expect(claimedEvents.map((row) => row.merchant_id)).not.toContain(unreadable);
    expect(await failedAttempts()).toEqual([failed(1), failed(2)]);
  });

  it("schedules a consumed event's delivery claimed, handed over once committed, claimed again only after its lease", async () => {
    const merchantId = await merchantWithEndpoint();
    const message = succeeded(merchantId);
    const lease = consumerLease();

    const [handedOver, ...others] = await consume(message);

    const [event] = await db.query<{ id: string; payload: string }>(
      'SELECT id, payload FROM events WHERE source_message_id = $1',
      [message.id],
    );
    expect(others).toEqual([]);
    expect(handedOver).toEqual({
      deliveryId: expect.stringMatching(/^dlv_/),
      endpointId: expect.stringMatching(/^whe_/),
      attemptNumber: 1,
      eventId: event?.id,
      payload: event?.payload,
      url: 'https://shop.example/hooks',
      livemode: false,
      secret: 'whsec_0123456789abcdefghijklmnopqrstuv',
      previousSecret: null,
      leaseUntil: lease,
    });
    // Never attempted (the process died): no worker takes it before its lease ends, any worker after.
    const queue = new SqlDeliveryQueue(sql, new OpenedSecrets(secrets));
    const justBefore = new Date(lease.getTime() - 1);
    expect(await queue.claimDue(justBefore, 100, justBefore, NO_SHARES)).toEqual([]);
    const next = new Date(lease.getTime() + 70_000);
    const [claimed] = await queue.claimDue(lease, 100, next, NO_SHARES);
    expect(claimed).toEqual({ ...handedOver, attemptNumber: 2, leaseUntil: next });
  });

  describe('events consumed together', () => {
    it('are stored by one statement, each with its own delivery handed over', async () => {
      const merchantId = await merchantWithEndpoint();
      const messages = Array.from({ length: 5 }, () => succeeded(merchantId));

      const { handedOver, statements } = await consumeTogether(messages);

      expect(statements).toBe(1);
      const events = await db.query<{ id: string; payload: string }>(
        'SELECT id, payload FROM events WHERE source_message_id = ANY($1)',
        [messages.map((message) => message.id)],
      );
      expect(events).toHaveLength(5);
      expect(new Map(handedOver.map((delivery) => [delivery.eventId, delivery.payload]))).toEqual(
        new Map(events.map((event) => [event.id, event.payload])),
      );
      const deliveries = await db.query<{ id: string }>(
        'SELECT id FROM deliveries WHERE event_id = ANY($1)',
        [events.map((event) => event.id)],
      );
      expect(handedOver.map((delivery) => delivery.deliveryId).sort()).toEqual(
        deliveries.map((delivery) => delivery.id).sort(),
      );
    });

    it('store a message delivered twice once, with one delivery', async () => {
      const merchantId = await merchantWithEndpoint();
      const message = succeeded(merchantId);

      const { handedOver, statements } = await consumeTogether([message, message, message]);

      expect(statements).toBe(1);
      const events = await db.query<{ id: string }>('SELECT id FROM events WHERE source_message_id = $1', [
        message.id,
      ]);
      expect(events).toHaveLength(1);
      expect(handedOver.map((delivery) => delivery.eventId)).toEqual([events[0]?.id]);
      expect(await db.query('SELECT id FROM deliveries WHERE event_id = $1', [events[0]?.id])).toHaveLength(
        1,
      );
    });

    it("schedule deliveries only for the events whose merchant's endpoint has a URL", async () => {
      const withUrl = await merchantWithEndpoint();
      const withoutUrl = newId('mer');
      await new SqlEndpointRepository(sql, secrets).setUrl(
        { merchantId: withoutUrl, livemode: false },
        null,
        { id: newId('whe'), secret: 'whsec_0123456789abcdefghijklmnopqrstuv' },
        clock.now(),
      );
      const withoutEndpoint = newId('mer');
      const messages = [withoutUrl, withUrl, withoutEndpoint].map(succeeded);

      const { handedOver, statements } = await consumeTogether(messages);

      expect(statements).toBe(1);
      const events = await db.query<{ merchant_id: string; deliveries: string }>(
        `SELECT e.merchant_id, (SELECT count(*) FROM deliveries d WHERE d.event_id = e.id) AS deliveries
           FROM events e WHERE e.source_message_id = ANY($1)`,
        [messages.map((message) => message.id)],
      );
      expect(new Map(events.map((event) => [event.merchant_id, event.deliveries]))).toEqual(
        new Map([
          [withoutUrl, '0'],
          [withUrl, '1'],
          [withoutEndpoint, '0'],
        ]),
      );
      expect(handedOver).toHaveLength(1);
    });
  });

  it('audits as lost only the events stored while the endpoint had a URL and never queued', async () => {
    const merchantId = newId('mer');
    const scope = { merchantId, livemode: false };
    const endpoints = new SqlEndpointRepository(sql, secrets);
    const created = { id: newId('whe'), secret: 'whsec_0123456789abcdefghijklmnopqrstuv' };
    await endpoints.setUrl(scope, null, created, clock.now());
    const beforeUrl = { id: newId('msg'), body: paymentEvent(merchantId, 'payment.request_sent') };
    clock.advance(1_000);
    await consume(beforeUrl);
    clock.advance(1_000);
    await endpoints.setUrl(scope, 'https://shop.example/hooks', created, clock.now());
    clock.advance(1_000);
    await endpoints.setUrl(scope, 'https://shop.example/other-hooks', created, clock.now());
    // An event the store kept without its delivery while the URL was set: what the audit exists to find.
    const lostId = newId('evt');
    await db.query(
      `INSERT INTO events (id, source_message_id, merchant_id, livemode, type, payload, created_at)
       VALUES ($1, $2, $3, false, 'payment.succeeded', '{}', $4)`,
      [lostId, newId('msg'), merchantId, new Date(clock.now().getTime() - 500)],
    );

    const [stored] = await db.query<{ id: string }>('SELECT id FROM events WHERE source_message_id = $1', [
      beforeUrl.id,
    ]);
    const { undeliveredEventIds } = await new SqlEventAudit(sql).audit();
    expect(undeliveredEventIds).toContain(lostId);
    expect(undeliveredEventIds).not.toContain(stored?.id);
  });

  it('refuses to change a stored event', async () => {
    await expect(db.query("UPDATE events SET payload = '{}'")).rejects.toThrow(/immutable/);
  });

  it("reads the workers' scan through an index of pending deliveries only", async () => {
    // Recording a delivery's outcome then writes no entry there, and the scan never walks delivered history.
    expect(
      await scanIndexOf(
        db.pool,
        "SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at",
      ),
    ).toEqual({ index: 'deliveries_due_idx', predicate: "(status = 'pending'::text)" });
  });
});

describe('recording outcomes behind a backlog of pending deliveries', () => {
  let db: TestSchema;
  let sql: WebhooksDatabase;
  const opened = new OpenedSecrets(new SecretBox(randomBytes(32)));
  const at = new Date('2026-03-01T09:00:00.000Z');
  const lease = new Date(at.getTime() + 70_000);

  beforeAll(async () => {
    db = await createTestSchema({ prefix: 'webhooks_backlog', migrationsDir: MIGRATIONS_DIR });
    sql = createDatabase({ url: db.databaseUrl, schema: db.schema });
  });

  afterAll(async () => {
    await sql.destroy();
    await db.drop();
  });

  /** `count` events of one endpoint, each with its delivery, in `status` (pending ones leased until `lease`). */
  const deliveries = (endpointId: string, count: number, status: 'pending' | 'delivered', from: number) =>
    db.query(
      `WITH event AS (
         INSERT INTO events (id, merchant_id, livemode, type, payload, created_at)
         SELECT 'evt_backlog_' || n, 'mer_backlog', false, 'payment.succeeded', '{}', $2
           FROM generate_series($3::int, $3::int + $4::int - 1) AS n RETURNING id)
       INSERT INTO deliveries (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, delivered_at, created_at)
       SELECT 'dlv_' || substr(id, 5), id, $1, $5, 1, CASE WHEN $5 = 'pending' THEN $6::timestamptz END,
              CASE WHEN $5 = 'delivered' THEN $2::timestamptz END, $2
         FROM event`,
      [endpointId, at, from, count, status, lease],
    );

  it('finds the delivery by its key, though the statistics were taken when none was pending', async () => {
    // Autovacuum may analyze the table at a quiet moment and a backlog build up after it, as under load or while
    // an endpoint is down: the outcome must not walk every pending delivery to find its own.
    const endpointId = newId('whe');
    await new SqlEndpointRepository(sql, new SecretBox(randomBytes(32))).setUrl(
      { merchantId: 'mer_backlog', livemode: false },
      'https://shop.example/hooks',
      { id: endpointId, secret: 'whsec_0123456789abcdefghijklmnopqrstuv' },
      at,
    );
    await deliveries(endpointId, 500, 'delivered', 0);
    await db.query('ANALYZE deliveries');
    await deliveries(endpointId, 500, 'pending', 500);

    const { applied, dueIndexScans } = await sql.transaction().execute(async (transaction) => {
      const recorded = await new SqlDeliveryQueue(transaction, opened).recordAttempts([
        {
          attempt: {
            deliveryId: 'dlv_backlog_700',
            number: 1,
            leaseUntil: lease,
            attemptedAt: at,
            url: 'https://shop.example/hooks',
            statusCode: 200,
            durationMs: 3,
          },
          outcome: { status: 'delivered', deliveredAt: at },
        },
      ]);
      // This transaction's own counts, not yet reported to the statistics views.
      const { rows } = await kyselySql<{ scans: string }>`
        SELECT pg_stat_get_xact_numscans('deliveries_due_idx'::regclass) AS scans`.execute(transaction);
      return { applied: recorded, dueIndexScans: Number(rows[0]?.scans) };
    });
    expect(applied).toEqual([true]);
    expect(dueIndexScans).toBe(0);
  });
});
