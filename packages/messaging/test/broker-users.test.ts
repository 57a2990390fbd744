import {
  CONSUMER_QUEUES,
  EVENTS_EXCHANGE,
  PAYMENT_REQUEST_UPDATES,
  PAYOUT_TRANSFER_REQUESTS,
  pspV1,
} from '@sika/contracts';
import { waitFor } from '@sika/testing';
import type { GetMessage } from 'amqplib';
import {
  BROKER_SERVICES,
  HEADERS,
  SERVICE_EVENTS,
  createBroker,
  deadLetterQueueName,
  declareConsumerTopology,
  startConsumer,
  type Broker,
  type Consumer,
} from '../src';
import { BrokerUsers, type RefusableChannel } from './support/broker-users';
import { createTestDatabase, type TestDatabase } from './support/database';
import { testLogger } from './support/logger';

/** Above waitFor's 10 s, so a stuck wait fails with its own description. */
jest.setTimeout(30_000);

const UPDATES = CONSUMER_QUEUES.paymentsPaymentRequestUpdates;
/** Every declaration of a queue in the vhost must use the same arguments, the retry delay among them. */
const RETRY_DELAY_MS = 50;

/** A PaymentRequestUpdated for a tx id; what it says does not matter here, only who sent it. */
const anUpdate = (txId: string): Buffer =>
  Buffer.from(
    PAYMENT_REQUEST_UPDATES.codec.encode(pspV1.PaymentRequestUpdated.fromPartial({ txId })).finish(),
  );

describe('one broker user per service', () => {
  let users: BrokerUsers;

  beforeAll(async () => {
    users = await BrokerUsers.provision();
  });

  afterAll(async () => {
    await users.drop();
  });

  async function expectRefused(channel: RefusableChannel, attempt: Promise<unknown>): Promise<string> {
    await expect(attempt).rejects.toThrow();
    const refusal = await channel.refused;
    expect(refusal.code).toBe(403);
    expect(refusal.message).toContain('ACCESS_REFUSED');
    return refusal.message;
  }

  describe('publishing', () => {
    it("lets a service publish its own routing keys, and closes its channel on another's", async () => {
      const payouts = await users.channelAs('payouts');
      await payouts.channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
      await payouts.publish(EVENTS_EXCHANGE, PAYOUT_TRANSFER_REQUESTS.routingKey, Buffer.from('x'), {
        userId: users.user('payouts'),
      });

      const refusal = await expectRefused(
        payouts,
        payouts.publish(EVENTS_EXCHANGE, PAYMENT_REQUEST_UPDATES.routingKey, Buffer.from('x'), {
          userId: users.user('payouts'),
        }),
      );
      expect(refusal).toContain(
        `access to topic '${PAYMENT_REQUEST_UPDATES.routingKey}' in exchange '${EVENTS_EXCHANGE}'`,
      );
    });

    it('lets a service that only consumes publish nothing on the events exchange', async () => {
      const dispatcher = await users.channelAs('webhook-dispatcher');
      await expectRefused(
        dispatcher,
        dispatcher.publish(EVENTS_EXCHANGE, 'payments.payment.succeeded', Buffer.from('x'), {}),
      );
    });

    it("refuses a user_id that is not the connection's own user", async () => {
      const payouts = await users.channelAs('payouts');
      await payouts.channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
      const attempt = payouts.publish(
        EVENTS_EXCHANGE,
        PAYOUT_TRANSFER_REQUESTS.routingKey,
        Buffer.from('x'),
        {
          userId: users.user('psp-connector'),
        },
      );
      await expect(attempt).rejects.toThrow();
      expect((await payouts.refused).message).toContain('PRECONDITION_FAILED');
    });
  });

  describe('each service', () => {
    afterAll(async () => {
      // What they published would reach the consumer tested below.
      const admin = await users.channelAs('administrator');
      for (const service of BROKER_SERVICES) {
        for (const { queue } of SERVICE_EVENTS[service].consumes) await admin.channel.purgeQueue(queue);
      }
    });

    it.each(BROKER_SERVICES)(
      'lets %s declare and consume its own queues and publish each of its routing keys',
      async (service) => {
        const own = await users.channelAs(service);
        await own.channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
        for (const consumed of SERVICE_EVENTS[service].consumes) {
          await declareConsumerTopology(own.channel, { ...consumed, retryDelayMs: RETRY_DELAY_MS });
          const { consumerTag } = await own.channel.consume(consumed.queue, () => {});
          await own.channel.cancel(consumerTag);
        }
        for (const { routingKeys } of SERVICE_EVENTS[service].publishes) {
          const routingKey = routingKeys.replaceAll('*', 'any');
          await own.publish(EVENTS_EXCHANGE, routingKey, Buffer.from('x'), { userId: users.user(service) });
        }
      },
    );
  });

  describe('queues', () => {
    beforeAll(async () => {
      const payments = await users.channelAs('payments');
      await declareConsumerTopology(payments.channel, { ...UPDATES, retryDelayMs: RETRY_DELAY_MS });
    });

    it("does not let a service consume another's queue", async () => {
      const payouts = await users.channelAs('payouts');
      const refusal = await expectRefused(
        payouts,
        payouts.channel.consume(UPDATES.queue, () => {}),
      );
      expect(refusal).toContain(`queue '${UPDATES.queue}'`);
    });

    it("does not let a service bind its own queue to another's routing keys", async () => {
      const payouts = await users.channelAs('payouts');
      const own = CONSUMER_QUEUES.payoutsTransferUpdates;
      await declareConsumerTopology(payouts.channel, { ...own, retryDelayMs: RETRY_DELAY_MS });
      await expectRefused(
        payouts,
        payouts.channel.bindQueue(own.queue, EVENTS_EXCHANGE, 'payments.payment.*'),
      );
    });
  });

  describe('a consumer connected as its service', () => {
    let db: TestDatabase;
    let payments: Broker;
    let psp: Broker;
    let consumer: Consumer;
    const handled: string[] = [];
    /** Message ids whose first try fails, to send them through the retry queue. */
    const failOnce = new Set<string>();

    beforeAll(async () => {
      db = await createTestDatabase();
      payments = await createBroker({ url: users.urlOf('payments'), logger: testLogger('payments') });
      psp = await createBroker({ url: users.urlOf('psp-connector'), logger: testLogger('psp-connector') });
      consumer = await startConsumer({
        broker: payments,
        database: db.database,
        ...UPDATES,
        retryDelayMs: RETRY_DELAY_MS,
        consumerName: UPDATES.queue,
        decode: (bytes) => PAYMENT_REQUEST_UPDATES.codec.decode(bytes),
        handle: async (message) => {
          if (failOnce.delete(message.id)) throw new Error('not yet');
          handled.push(message.id);
        },
      });
    });

    afterAll(async () => {
      await consumer.close();
      await payments.close();
      await psp.close();
      await db.drop();
    });

    const publishUpdate = (messageId: string) =>
      psp.publish(EVENTS_EXCHANGE, PAYMENT_REQUEST_UPDATES.routingKey, anUpdate(messageId), {
        messageId,
        type: PAYMENT_REQUEST_UPDATES.messageType,
      });

    it("accepts a message from its type's producer, also after a retry through its own queue", async () => {
      failOnce.add('msg_retried');
      await publishUpdate('msg_right');
      await publishUpdate('msg_retried');

      await waitFor(() => handled.includes('msg_right') && handled.includes('msg_retried'), {
        description: 'both messages handled',
      });
    });

    it('dead-letters a message from another user, or without user_id, and handles the right one', async () => {
      const admin = await users.channelAs('administrator');
      const payouts = await users.channelAs('payouts');
      const properties = { type: PAYMENT_REQUEST_UPDATES.messageType, persistent: true };
      // payouts may write to the default exchange (it moves its own messages so), hence to any queue by
      // name: only user_id tells its message from psp-connector's.
      await payouts.publish('', UPDATES.queue, anUpdate('msg_forged'), {
        ...properties,
        messageId: 'msg_forged',
        userId: users.user('payouts'),
      });
      await admin.publish(EVENTS_EXCHANGE, PAYMENT_REQUEST_UPDATES.routingKey, anUpdate('msg_anonymous'), {
        ...properties,
        messageId: 'msg_anonymous',
      });
      await publishUpdate('msg_genuine');

      await waitFor(() => handled.includes('msg_genuine'), { description: 'the genuine message handled' });
      const dead = await drainWhen(admin, deadLetterQueueName(UPDATES.queue), 2);
      expect(handled).not.toContain('msg_forged');
      expect(handled).not.toContain('msg_anonymous');
      const reasons = Object.fromEntries(
        dead.map((message) => [message.properties.messageId, message.properties.headers?.[HEADERS.reason]]),
      );
      expect(reasons).toEqual({
        msg_forged: `published by ${users.user('payouts')}, expected ${users.user('psp-connector')}`,
        msg_anonymous: 'message has no user_id',
      });
    });
  });
});

async function drainWhen(admin: RefusableChannel, queue: string, count: number): Promise<GetMessage[]> {
  await waitFor(async () => (await admin.channel.checkQueue(queue)).messageCount >= count, {
    description: `${count} messages in ${queue}`,
  });
  const messages: GetMessage[] = [];
  for (;;) {
    const message = await admin.channel.get(queue, { noAck: true });
    if (message === false) return messages;
    messages.push(message);
  }
}
