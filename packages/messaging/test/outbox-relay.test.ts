import { sql } from 'kysely';
import { createMetrics } from '@sika/platform';
import { waitFor, type SpawnedProcess } from '@sika/testing';
import {
  OutboxRelay,
  createBroker,
  enqueue,
  modeHeader,
  startConsumer,
  type Broker,
  type Consumer,
  type TransactionOptions,
  type TransactionRunner,
} from '../src';
import { createTestDatabase, type TestDatabase } from './support/database';
import { testLogger } from './support/logger';
import { RabbitAdmin } from './support/rabbit';
import { confirmedBy, startRelayProcess, type RelayEnv } from './support/relay-process';

const EVENTS = 1_000;
const EVENTS_PER_TRANSACTION = 10;
const CONCURRENT_TRANSACTIONS = 4;
const STALL_AFTER_CONFIRMS = 10;

jest.setTimeout(60_000);

describe('outbox relay', () => {
  let db: TestDatabase;
  let admin: RabbitAdmin;
  let broker: Broker;
  let consumer: Consumer | undefined;
  const relays: SpawnedProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await RabbitAdmin.open();
    broker = await createBroker({ url: admin.amqpUrl, logger: testLogger('outbox-relay-test') });
  });

  afterAll(async () => {
    await Promise.all(relays.map((relay) => relay.stop({ signal: 'SIGKILL' })));
    await consumer?.close();
    await broker.close();
    await admin.cleanup();
    await db.drop();
  });

  it('does not publish what a rolled-back transaction enqueued', async () => {
    const rollback = db.database.transact(async (tx) => {
      await enqueue(tx, { routingKey: 'test.event', type: 'test.Event', payload: Buffer.from('x') });
      throw new Error('state change failed');
    });
    await expect(rollback).rejects.toThrow('state change failed');
    expect(await db.query('SELECT id FROM outbox')).toEqual([]);
  });

  /** Enqueues one row, wakes `relay`, and waits until the row is marked published. */
  async function publishOneThrough(relay: OutboxRelay, payload: string): Promise<void> {
    const id = await db.database.transact((tx) =>
      enqueue(tx, { routingKey: 'test.event', type: 'test.Event', payload: Buffer.from(payload) }),
    );
    relay.wake();
    await waitFor(
      async () =>
        (await db.query('SELECT 1 FROM outbox WHERE id = $1 AND published_at IS NOT NULL', [id])).length ===
        1,
      { description: 'the woken relay to publish', timeoutMs: 2_000 },
    );
  }

  it('publishes at once when woken, and stops without waiting out its pause', async () => {
    const { exchange } = admin.names('wake');
    const relay = new OutboxRelay({ database: db.database, broker, exchange, idleIntervalMs: 60_000 });
    await relay.start();
    await publishOneThrough(relay, 'now');
    const stopping = Date.now();
    await relay.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
  });

  it('shows its backlog on scrape and counts what it published by routing key and mode', async () => {
    const { exchange } = admin.names('metrics');
    const metrics = createMetrics({ service: 'relay-test' });
    const relay = new OutboxRelay({
      database: db.database,
      broker,
      exchange,
      idleIntervalMs: 60_000,
      metrics,
    });
    await relay.start();
    await relay.stop();
    await db.database.transact((tx) =>
      enqueue(tx, {
        routingKey: 'payments.payment.succeeded',
        type: 'test.Event',
        payload: Buffer.from('x'),
        headers: modeHeader(true),
      }),
    );
    const scrape = () => metrics.registry.metrics();

    const before = await scrape();
    expect(before).toContain('sika_outbox_unsent_messages{service="relay-test"} 1');
    const age = /sika_outbox_oldest_unsent_age_seconds\{service="relay-test"\} (\S+)/.exec(before)?.[1];
    expect(Number(age)).toBeGreaterThan(0);
    expect(await relay.publishBatch()).toBe(1);
    // A reading serves the scrapes of a second: the next one after it reads the published row.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const after = await scrape();
    expect(after).toContain('sika_outbox_unsent_messages{service="relay-test"} 0');
    expect(after).toContain(
      'sika_events_published_total{routing_key="payments.payment.succeeded",mode="live",service="relay-test"} 1',
    );
  });

  it('marks what it published in transactions that commit without waiting for the disk', async () => {
    const { exchange } = admin.names('unflushed');
    const asked: (TransactionOptions | undefined)[] = [];
    const runner: TransactionRunner = {
      transact(fn, options) {
        asked.push(options);
        return db.database.transact(fn, options);
      },
    };
    const relay = new OutboxRelay({ database: runner, broker, exchange, idleIntervalMs: 60_000 });
    await relay.start();
    await publishOneThrough(relay, 'unflushed');
    await relay.stop();

    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((options) => options?.asynchronousCommit !== true)).toEqual([]);
  });

  it('looks at recent rows in routine batches, and at older ones in its full scans', async () => {
    const { exchange } = admin.names('window');
    const relay = new OutboxRelay({
      database: db.database,
      broker,
      exchange,
      idleIntervalMs: 60_000,
      recentWindowMs: 60_000,
      fullScanIntervalMs: 2_000,
    });
    // Its first round, a full scan, publishes what earlier tests left; then it pauses for a minute.
    await relay.start();
    await relay.publishBatch();
    await db.database.transact((tx) =>
      enqueue(tx, { routingKey: 'test.event', type: 'test.Event', payload: Buffer.from('recent') }),
    );
    // A row whose transaction committed long after its insert, or that a dead relay left behind.
    await db.query(
      `INSERT INTO outbox (id, routing_key, type, payload, created_at)
       VALUES ('msg_straggler', 'test.event', 'test.Event', decode('00', 'hex'), now() - interval '1 hour')`,
    );
    const unpublished = () =>
      db.query<{ id: string }>('SELECT id FROM outbox WHERE published_at IS NULL ORDER BY id');

    expect(await relay.publishBatch()).toBe(1);
    expect(await unpublished()).toEqual([{ id: 'msg_straggler' }]);

    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await relay.publishBatch()).toBe(1);
    expect(await unpublished()).toEqual([]);
    await relay.stop();
  });

  it('delivers 1,000 events, each applied once, with two relays and one killed mid-batch', async () => {
    const { exchange, queue } = admin.names('outbox');
    const deliveries = new Map<number, number>();
    const garbled: string[] = [];
    consumer = await startConsumer({
      broker,
      database: db.database,
      exchange,
      queue,
      bindings: ['test.#'],
      consumerName: 'outbox-test',
      prefetch: 50,
      decode: (bytes) => {
        const seq = Number(Buffer.from(bytes).toString('utf8'));
        deliveries.set(seq, (deliveries.get(seq) ?? 0) + 1);
        return seq;
      },
      handle: async (message, tx) => {
        if (message.type !== 'test.Event' || message.headers['x-test-seq'] !== String(message.body)) {
          garbled.push(message.id);
        }
        await sql`INSERT INTO effects (message_id, body) VALUES (${message.id}, ${String(message.body)})`.execute(
          tx,
        );
      },
    });

    const relayEnv: RelayEnv = {
      DATABASE_URL: db.databaseUrl,
      DB_SCHEMA: db.schema,
      AMQP_URL: admin.amqpUrl,
      EXCHANGE: exchange,
      BATCH_SIZE: '25',
    };
    const [doomed, steady] = await Promise.all([
      startRelayProcess('relay-a', { ...relayEnv, STALL_AFTER: String(STALL_AFTER_CONFIRMS) }),
      startRelayProcess('relay-b', relayEnv),
    ]);
    relays.push(doomed, steady);

    // Written while the relays poll, so they compete for rows as transactions commit. The doomed relay
    // stalls after its tenth confirm, between confirms and commit of a batch, and is killed there; the second half is
    // written once its replacement runs alongside relay B.
    const ids = await writeEvents(db, 0, EVENTS / 2);
    await doomed.waitForLine((line) => line === 'stalled');
    // Confirms of earlier, committed batches are published; the stalled batch's are not, yet are on the broker.
    const confirmedUncommitted = await db.query<{ id: string }>(
      'SELECT id FROM outbox WHERE id = ANY($1) AND published_at IS NULL',
      [confirmedBy(doomed)],
    );
    expect(confirmedUncommitted.length).toBeGreaterThan(0);
    expect(await doomed.stop({ signal: 'SIGKILL' })).toEqual({ code: null, signal: 'SIGKILL' });
    const restarted = await startRelayProcess('relay-a-restarted', relayEnv);
    relays.push(restarted);
    ids.push(...(await writeEvents(db, EVENTS / 2, EVENTS)));

    await waitFor(async () => (await db.query('SELECT 1 FROM effects')).length === EVENTS, {
      description: 'every event applied',
      timeoutMs: 30_000,
    });
    expect(await steady.stop()).toEqual({ code: 0, signal: null });
    expect(await restarted.stop()).toEqual({ code: 0, signal: null });

    const unpublished = await db.query('SELECT id FROM outbox WHERE published_at IS NULL');
    expect(unpublished).toEqual([]);
    const effects = await db.query<{ message_id: string }>(
      'SELECT message_id FROM effects ORDER BY message_id',
    );
    expect(effects.map((row) => row.message_id)).toEqual([...ids].sort());
    expect(deliveries.size).toBe(EVENTS);
    expect(garbled).toEqual([]);
    expect(confirmedBy(steady).length).toBeGreaterThan(0);
    expect(confirmedBy(restarted).length).toBeGreaterThan(0);

    const redeliveries = [...deliveries.values()].reduce((sum, count) => sum + count - 1, 0);
    // The doomed relay's confirmed but uncommitted publishes went out again after its death.
    expect(redeliveries).toBeGreaterThanOrEqual(confirmedUncommitted.length);
    process.stdout.write(
      `outbox relay: ${EVENTS} events, ${redeliveries} raw redeliveries (absorbed by the inbox); confirms: ` +
        `${relays.map((relay) => `${relay.name} ${confirmedBy(relay).length}`).join(', ')}\n`,
    );
  });
});

/**
 * Writes events `from` to `to` (exclusive), EVENTS_PER_TRANSACTION per transaction, a few
 * transactions at a time as concurrent requests of a service would. Returns their message ids.
 */
async function writeEvents(db: TestDatabase, from: number, to: number): Promise<string[]> {
  const firsts: number[] = [];
  for (let first = from; first < to; first += EVENTS_PER_TRANSACTION) firsts.push(first);
  const ids: string[] = [];
  for (let i = 0; i < firsts.length; i += CONCURRENT_TRANSACTIONS) {
    const written = await Promise.all(
      firsts.slice(i, i + CONCURRENT_TRANSACTIONS).map((first) => writeTransaction(db, first)),
    );
    ids.push(...written.flat());
  }
  return ids;
}

function writeTransaction(db: TestDatabase, first: number): Promise<string[]> {
  return db.database.transact(async (tx) => {
    const ids: string[] = [];
    for (let seq = first; seq < first + EVENTS_PER_TRANSACTION; seq++) {
      const event = { routingKey: 'test.event', type: 'test.Event', payload: Buffer.from(String(seq)) };
      ids.push(await enqueue(tx, { ...event, headers: { 'x-test-seq': String(seq) } }));
    }
    return ids;
  });
}
