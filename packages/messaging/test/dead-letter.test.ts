import { sql } from 'kysely';
import { createMetrics } from '@sika/platform';
import { waitFor } from '@sika/testing';
import {
  HEADERS,
  createBroker,
  deadLetterQueueName,
  startConsumer,
  type Broker,
  type Consumer,
  type ConsumerOptions,
  type ReceivedMessage,
} from '../src';
import { createTestDatabase, type TestDatabase, type TestTransaction } from './support/database';
import { testLogger } from './support/logger';
import { RabbitAdmin } from './support/rabbit';

/** The test's wire format: JSON `{ "n": <integer> }`; anything else is poison. */
function decodeNumbered(bytes: Uint8Array): { n: number } {
  const parsed: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null || !Number.isInteger((parsed as { n?: unknown }).n)) {
    throw new Error('not a numbered message');
  }
  return parsed as { n: number };
}

/** Above waitFor's 10 s, so a stuck wait fails with its own description. */
jest.setTimeout(20_000);

describe('dead-letter queue', () => {
  let db: TestDatabase;
  let admin: RabbitAdmin;
  let broker: Broker;
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await RabbitAdmin.open();
    broker = await createBroker({
      url: admin.amqpUrl,
      logger: testLogger('dead-letter-test'),
      reconnectSeconds: 0.1,
    });
  });

  afterAll(async () => {
    for (const consumer of consumers) await consumer.close();
    await broker.close();
    await admin.cleanup();
    await db.drop();
  });

  /** Consumes numbered messages as `<name>-test`, from a fresh exchange and queue bound to `test.#`. */
  async function consumeNumbered(
    name: string,
    options: Pick<
      ConsumerOptions<{ n: number }, TestTransaction>,
      'maxAttempts' | 'prefetch' | 'retryDelayMs' | 'metrics'
    > & {
      handle: (message: ReceivedMessage<{ n: number }>, tx: TestTransaction) => Promise<void>;
    },
  ): Promise<{ exchange: string; queue: string }> {
    const names = admin.names(name);
    consumers.push(
      await startConsumer({
        broker,
        database: db.database,
        ...names,
        bindings: ['test.#'],
        consumerName: `${name}-test`,
        decode: decodeNumbered,
        ...options,
      }),
    );
    return names;
  }

  it('moves an unparseable message to the DLQ with its reason, and the messages behind it still flow', async () => {
    const handled: number[] = [];
    const { exchange, queue } = await consumeNumbered('poison', {
      prefetch: 1,
      handle: async (message) => {
        handled.push(message.body.n);
      },
    });

    await broker.publish(exchange, 'test.numbered', Buffer.from('{not json'), { messageId: 'msg_poison' });
    for (let n = 1; n <= 3; n++) {
      await broker.publish(exchange, 'test.numbered', Buffer.from(JSON.stringify({ n })), {
        messageId: `msg_${n}`,
      });
    }

    await waitFor(() => handled.length === 3, { description: 'the good messages' });
    expect(handled).toEqual([1, 2, 3]);
    const [dead, ...others] = await drainWhenPresent(admin, deadLetterQueueName(queue));
    expect(others).toHaveLength(0);
    expect(dead?.properties.messageId).toBe('msg_poison');
    expect(dead?.content.toString()).toBe('{not json');
    expect(dead?.properties.headers?.[HEADERS.reason]).toMatch(/^decode failed: SyntaxError/);
    expect(dead?.properties.headers?.[HEADERS.consumer]).toBe('poison-test');
    expect(dead?.properties.headers?.[HEADERS.routingKey]).toBe('test.numbered');
  });

  it('retries a failing handler, then moves the message to the DLQ with the error after maxAttempts', async () => {
    const attempts: number[] = [];
    const metrics = createMetrics({ service: 'dead-letter-test' });
    const { exchange, queue } = await consumeNumbered('failing', {
      metrics,
      maxAttempts: 3,
      retryDelayMs: 50,
      handle: async (message, tx) => {
        attempts.push(message.attempt);
        // Written, then rolled back with the inbox row: a retry must find neither.
        await sql`INSERT INTO effects (message_id, body) VALUES (${message.id}, 'partial')`.execute(tx);
        if (message.body.n === 13) throw new Error('ledger unavailable');
      },
    });

    await broker.publish(exchange, 'test.numbered', Buffer.from('{"n":13}'), { messageId: 'msg_unlucky' });
    await broker.publish(exchange, 'test.numbered', Buffer.from('{"n":14}'), { messageId: 'msg_fine' });
    // Read from the broker on scrape, while the message waits for an operator.
    const waiting = `sika_dead_letter_messages{queue="${queue}",service="dead-letter-test"} 1`;
    await waitFor(async () => (await metrics.registry.metrics()).includes(waiting), {
      description: 'the dead letter on the gauge',
    });

    const [dead, ...others] = await drainWhenPresent(admin, deadLetterQueueName(queue));
    expect(others).toHaveLength(0);
    expect(dead?.properties.messageId).toBe('msg_unlucky');
    expect(dead?.properties.headers?.[HEADERS.reason]).toBe('Error: ledger unavailable');
    expect(dead?.properties.headers?.[HEADERS.attempts]).toBe(3);
    expect(dead?.properties.headers?.[HEADERS.routingKey]).toBe('test.numbered');
    expect(attempts.filter((attempt) => attempt > 1)).toEqual([2, 3]);
    const effects = await db.query('SELECT message_id FROM effects WHERE message_id IN ($1, $2)', [
      'msg_unlucky',
      'msg_fine',
    ]);
    expect(effects).toEqual([{ message_id: 'msg_fine' }]);
    const inbox = await db.query('SELECT message_id FROM inbox WHERE consumer = $1', ['failing-test']);
    expect(inbox).toEqual([{ message_id: 'msg_fine' }]);
    const settled = await metrics.registry.getSingleMetricAsString('sika_messages_settled_total');
    for (const [outcome, count] of [
      ['applied', 1],
      ['retried', 2],
      ['dead_lettered', 1],
    ] as const) {
      expect(settled).toContain(
        `{queue="${queue}",outcome="${outcome}",service="dead-letter-test"} ${count}`,
      );
    }
  });
  it('keeps a poison message whose dead-letter queue was deleted, and declares the queue again', async () => {
    const { exchange, queue } = await consumeNumbered('missing-dlq', { handle: async () => {} });
    await admin.channel.deleteQueue(deadLetterQueueName(queue));

    await broker.publish(exchange, 'test.numbered', Buffer.from('garbage'), { messageId: 'msg_garbage' });

    // The copy to the missing queue is returned unroutable, the original stays unacked, the channel is
    // closed and reopened, and the setup declares the dead-letter queue again before redelivery.
    const [dead] = await drainWhenPresent(admin, deadLetterQueueName(queue));
    expect(dead?.properties.messageId).toBe('msg_garbage');
    expect(await admin.messageCount(queue)).toBe(0);
  });
});

async function drainWhenPresent(admin: RabbitAdmin, queue: string) {
  await waitFor(async () => (await admin.messageCount(queue)) > 0, { description: `a message in ${queue}` });
  return admin.drain(queue);
}
