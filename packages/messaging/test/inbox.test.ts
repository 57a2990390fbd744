import { SqlDatabase } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { createBroker, startConsumer, type Broker, type Consumer } from '../src';
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
      prisma: db.prisma,
      exchange,
      queue,
      bindings: ['payment.*'],
      consumerName: 'inbox-test',
      decode: (bytes) => {
        deliveries += 1;
        return Buffer.from(bytes).toString('utf8');
      },
      handle: async (message, tx) => {
        await tx.$executeRaw`INSERT INTO effects (message_id, body) VALUES (${message.id}, ${message.body})`;
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
    const sql = new SqlDatabase({ url: db.databaseUrl, schema: db.schema });
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
        await sql.$executeRaw`
          INSERT INTO effects_once (message_id, body) VALUES (${message.id}, ${message.body})
          ON CONFLICT DO NOTHING`;
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
    await sql.$disconnect();

    expect(calls).toEqual(Array.from({ length: 5 }, () => ({ committed: true })));
    expect(await db.query('SELECT message_id, body FROM effects_once')).toEqual([
      { message_id: 'msg_deduplicated_by_handler', body: 'pay_2 succeeded' },
    ]);
    expect(
      await db.query('SELECT message_id FROM inbox WHERE consumer = $1', ['dedup-by-handler-test']),
    ).toEqual([]);
  });
});
