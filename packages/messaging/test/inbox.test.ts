import { sql } from 'kysely';
import { waitFor } from '@sika/testing';
import {
  HEADERS,
  createBroker,
  deadLetterQueueName,
  startConsumer,
  type Broker,
  type Consumer,
} from '../src';
import { createTestDatabase, type TestDatabase } from './support/database';
import { testLogger } from './support/logger';
import { RabbitAdmin } from './support/rabbit';

/** Above waitFor's 10 s, so a stuck wait fails with its own description. */
jest.setTimeout(20_000);

describe('inbox', () => {
  let db: TestDatabase;
  let admin: RabbitAdmin;
  let broker: Broker;
  let consumer: Consumer | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await RabbitAdmin.open();
    broker = await createBroker({ url: admin.amqpUrl, logger: testLogger('inbox-test') });
  });

  afterAll(async () => {
    await consumer?.close();
    await broker.close();
    await admin.cleanup();
    await db.drop();
  });

  it('applies a message delivered 5 times exactly once', async () => {
    const { exchange, queue } = admin.names('inbox');
    let deliveries = 0;
    consumer = await startConsumer({
      broker,
      database: db.database,
      exchange,
      queue,
      bindings: ['payment.*'],
      consumerName: 'inbox-test',
      decode: (bytes) => {
        deliveries += 1;
        return Buffer.from(bytes).toString('utf8');
      },
      handle: async (message, tx) => {
        await sql`INSERT INTO effects (message_id, body) VALUES (${message.id}, ${message.body})`.execute(tx);
      },
    });

    for (let copy = 0; copy < 5; copy++) {
      await broker.publish(exchange, 'payment.succeeded', Buffer.from('pay_1 succeeded'), {
        messageId: 'msg_duplicated',
        type: 'test.PaymentSucceeded',
      });
    }

    await waitFor(() => deliveries === 5, { description: '5 deliveries' });
    await waitFor(async () => (await admin.messageCount(queue)) === 0, { description: 'all acked' });
    await consumer.close();
    consumer = undefined;

    const effects = await db.query('SELECT message_id, body FROM effects');
    expect(effects).toEqual([{ message_id: 'msg_duplicated', body: 'pay_1 succeeded' }]);
    const inbox = await db.query('SELECT consumer, message_id FROM inbox');
    expect(inbox).toEqual([{ consumer: 'inbox-test', message_id: 'msg_duplicated' }]);
  });

  it('leaves a handler that deduplicates by itself to do so: no inbox row, no transaction of its own', async () => {
    const { exchange, queue } = admin.names('dedup-by-handler');
    await db.query('CREATE TABLE effects_once (message_id text PRIMARY KEY, body text NOT NULL)');
    /** Whether the handler's effect was visible to another connection before the handler returned. */
    const calls: { committed: boolean }[] = [];
    consumer = await startConsumer({
      broker,
      exchange,
      queue,
      bindings: ['payment.*'],
      consumerName: 'dedup-by-handler-test',
      deduplication: 'handler',
      decode: (bytes) => Buffer.from(bytes).toString('utf8'),
      handle: async (message) => {
        await sql`
          INSERT INTO effects_once (message_id, body) VALUES (${message.id}, ${message.body})
          ON CONFLICT DO NOTHING`.execute(db.database);
        const seen = await db.query('SELECT 1 FROM effects_once WHERE message_id = $1', [message.id]);
        calls.push({ committed: seen.length === 1 });
      },
    });

    for (let copy = 0; copy < 5; copy++) {
      await broker.publish(exchange, 'payment.succeeded', Buffer.from('pay_2 succeeded'), {
        messageId: 'msg_deduplicated_by_handler',
        type: 'test.PaymentSucceeded',
      });
    }

    await waitFor(() => calls.length === 5, { description: '5 handler calls' });
    await waitFor(async () => (await admin.messageCount(queue)) === 0, { description: 'all acked' });
    await consumer.close();
    consumer = undefined;

    expect(calls).toEqual(Array.from({ length: 5 }, () => ({ committed: true })));
    expect(await db.query('SELECT message_id, body FROM effects_once')).toEqual([
      { message_id: 'msg_deduplicated_by_handler', body: 'pay_2 succeeded' },
    ]);
    expect(
      await db.query('SELECT message_id FROM inbox WHERE consumer = $1', ['dedup-by-handler-test']),
    ).toEqual([]);
  });

  describe('handleAll: the messages that arrive together, in one transaction', () => {
    /** Numbered messages queued while no consumer runs, so that the broker hands them over together. */
    async function queued(name: string, messages: { id: string; n: number }[]) {
      const { exchange, queue } = admin.names(name);
      const options = {
        broker,
        database: db.database,
        exchange,
        queue,
        bindings: ['test.#'],
        consumerName: `${name}-test`,
        maxAttempts: 1,
        decode: (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8')) as { n: number },
        handleAll: async () => {},
      };
      await (await startConsumer(options)).close();
      for (const { id, n } of messages) {
        await broker.publish(exchange, 'test.numbered', Buffer.from(JSON.stringify({ n })), {
          messageId: id,
        });
      }
      await waitFor(async () => (await admin.messageCount(queue)) === messages.length, {
        description: 'the messages queued',
      });
      return { options, queue };
    }

    it('applies them with one inbox statement and one handler call, each message once', async () => {
      const ids = ['msg_a', 'msg_b', 'msg_a', 'msg_c', 'msg_a'];
      const { options, queue } = await queued(
        'together',
        ids.map((id, n) => ({ id, n })),
      );
      await db.query(`INSERT INTO inbox (consumer, message_id) VALUES ('together-test', 'msg_c')`);
      /** Whether the inbox rows of the messages were there for the handler's transaction, and for another. */
      const calls: { ids: string[]; inboxed: boolean; visibleOutside: boolean }[] = [];
      consumer = await startConsumer({
        ...options,
        handleAll: async (messages, tx) => {
          const ids = messages.map((message) => message.id);
          const inboxed = (
            await sql<unknown>`
            SELECT 1 FROM inbox WHERE consumer = 'together-test' AND message_id = ANY(${ids}::text[])`.execute(
              tx,
            )
          ).rows;
          const outside = await db.query(
            `SELECT 1 FROM inbox WHERE consumer = 'together-test' AND message_id = ANY($1)`,
            [ids],
          );
          calls.push({ ids, inboxed: inboxed.length === ids.length, visibleOutside: outside.length > 0 });
          for (const message of messages) {
            await sql`INSERT INTO effects (message_id, body) VALUES (${message.id}, ${String(message.body.n)})`.execute(
              tx,
            );
          }
        },
      });

      await waitFor(async () => (await admin.messageCount(queue)) === 0, { description: 'all acked' });
      await consumer.close();
      consumer = undefined;

      // The first copy of msg_a is applied; msg_c was applied before.
      expect(calls).toEqual([{ ids: ['msg_a', 'msg_b'], inboxed: true, visibleOutside: false }]);
      expect(
        await db.query(
          `SELECT message_id, body FROM effects WHERE message_id IN ('msg_a', 'msg_b', 'msg_c') ORDER BY 1`,
        ),
      ).toEqual([
        { message_id: 'msg_a', body: '0' },
        { message_id: 'msg_b', body: '1' },
      ]);
    });

    it('applies a batch that failed one message per transaction: the failing one alone is dead-lettered', async () => {
      const { options, queue } = await queued(
        'together-failing',
        [1, 2, 13, 4].map((n) => ({ id: `msg_failing_${n}`, n })),
      );
      const calls: number[][] = [];
      consumer = await startConsumer({
        ...options,
        handleAll: async (messages, tx) => {
          calls.push(messages.map((message) => message.body.n));
          for (const message of messages) {
            // Written, then rolled back with the batch's inbox rows when a message of the batch fails.
            await sql`INSERT INTO effects (message_id, body) VALUES (${message.id}, 'failing')`.execute(tx);
            if (message.body.n === 13) throw new Error('ledger unavailable');
          }
        },
      });

      await waitFor(async () => (await admin.messageCount(deadLetterQueueName(queue))) === 1, {
        description: 'the failing message dead-lettered',
      });
      await waitFor(async () => (await admin.messageCount(queue)) === 0, { description: 'all settled' });
      await consumer.close();
      consumer = undefined;

      // Queued before the consumer started, the four normally come in one batch ([1, 2, 13, 4]); on a busy
      // machine the broker may hand the first ones over in an earlier turn. The batch holding 13 fails as a
      // whole, and then each of its messages is applied alone, at the same time.
      const failedAt = calls.findIndex((call) => call.includes(13));
      const failedBatch = calls[failedAt] ?? [];
      expect(calls.slice(0, failedAt + 1).flat()).toEqual([1, 2, 13, 4]);
      if (failedBatch.length > 1) {
        expect(calls.slice(failedAt + 1).sort((a, b) => a[0]! - b[0]!)).toEqual(
          [...failedBatch].sort((a, b) => a - b).map((n) => [n]),
        );
      }
      const [dead] = await admin.drain(deadLetterQueueName(queue));
      expect(dead?.properties.messageId).toBe('msg_failing_13');
      expect(dead?.properties.headers?.[HEADERS.reason]).toBe('Error: ledger unavailable');
      expect(await db.query(`SELECT message_id FROM effects WHERE body = 'failing' ORDER BY 1`)).toEqual([
        { message_id: 'msg_failing_1' },
        { message_id: 'msg_failing_2' },
        { message_id: 'msg_failing_4' },
      ]);
      expect(
        await db.query(`SELECT message_id FROM inbox WHERE consumer = 'together-failing-test' ORDER BY 1`),
      ).toEqual([
        { message_id: 'msg_failing_1' },
        { message_id: 'msg_failing_2' },
        { message_id: 'msg_failing_4' },
      ]);
    });
  });
});
