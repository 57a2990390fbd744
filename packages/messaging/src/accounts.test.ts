import * as contracts from '@sika/contracts';
import {
  BROKER_SERVICES,
  SERVICE_EVENTS,
  brokerDefinitions,
  brokerIdentity,
  brokerUser,
  permissionsOf,
  producerCheckFor,
  topicPatternRegex,
  type ServiceEvents,
} from './accounts';

const everyService: ReadonlyArray<[string, ServiceEvents]> = Object.entries(SERVICE_EVENTS);

describe('the services on the broker', () => {
  it('has one producer for every event stream of the contract, and one consumer for every queue', () => {
    const streams = Object.values(contracts as Record<string, unknown>).filter(
      (value): value is contracts.EventStream<unknown> =>
        typeof value === 'object' && value !== null && 'messageType' in value,
    );
    expect(streams.length).toBeGreaterThan(0);
    for (const stream of streams) {
      const producers = everyService.filter(([, events]) =>
        events.publishes.some(({ messageType }) => messageType === stream.messageType),
      );
      expect({ stream: stream.messageType, producers: producers.length }).toEqual({
        stream: stream.messageType,
        producers: 1,
      });
    }
    const consumed = everyService.flatMap(([, events]) => events.consumes.map(({ queue }) => queue));
    expect(consumed.sort()).toEqual(
      Object.values(contracts.CONSUMER_QUEUES)
        .map(({ queue }) => queue)
        .sort(),
    );
  });

  it('binds each queue only to routing keys some service publishes', () => {
    const publishedKeys = everyService.flatMap(([, events]) => events.publishes.map((p) => p.routingKeys));
    // A published pattern covers a binding when each word is the same or the pattern's `*` (one word).
    const covers = (pattern: string, binding: string): boolean => {
      const [words, bound] = [pattern.split('.'), binding.split('.')];
      return words.length === bound.length && words.every((word, i) => word === '*' || word === bound[i]);
    };
    for (const [, events] of everyService) {
      for (const { bindings } of events.consumes) {
        for (const binding of bindings) {
          expect(publishedKeys.filter((pattern) => covers(pattern, binding))).not.toEqual([]);
        }
      }
    }
    expect(covers('payments.payment.*', 'payments.payment.succeeded')).toBe(true);
    expect(covers('payments.payment.*', 'payments.refund.requested')).toBe(false);
  });

  it('tells a service user and its prefix from its name, and nobody from any other name', () => {
    expect(brokerIdentity(brokerUser('psp-connector'))).toEqual({
      service: 'psp-connector',
      prefix: 'sika-',
    });
    expect(brokerIdentity('t1234.payouts')).toEqual({ service: 'payouts', prefix: 't1234.' });
    expect(brokerIdentity('guest')).toBeUndefined();
    expect(brokerIdentity('sika')).toBeUndefined();
    for (const service of BROKER_SERVICES) {
      expect(BROKER_SERVICES.filter((other) => other.endsWith(service))).toEqual([service]);
    }
  });
});

describe('permissionsOf', () => {
  it('limits a producer and consumer to the exchange, its own queues and its own routing keys', () => {
    expect(permissionsOf('payouts')).toEqual({
      configure:
        '^(sika\\.events|payouts\\.transfer-updates|payouts\\.transfer-updates\\.retry|payouts\\.transfer-updates\\.dlq)$',
      write:
        '^(sika\\.events|amq\\.default|payouts\\.transfer-updates|payouts\\.transfer-updates\\.retry|payouts\\.transfer-updates\\.dlq)$',
      read: '^(sika\\.events|payouts\\.transfer-updates|payouts\\.transfer-updates\\.retry|payouts\\.transfer-updates\\.dlq)$',
      topic: {
        exchange: 'sika.events',
        write: '^(payouts\\.payout\\.[^.]+|payouts\\.transfer\\.requested)$',
        read: '^(psp\\.payout_transfer\\.updated)$',
      },
    });
  });

  it('lets a service publish exactly its own routing keys', () => {
    const write = new RegExp(permissionsOf('payments').topic.write);
    expect(write.test('payments.payment.succeeded')).toBe(true);
    expect(write.test('payments.refund.requested')).toBe(true);
    expect(write.test('payments.payment.succeeded.extra')).toBe(false);
    expect(write.test('psp.payment_request.updated')).toBe(false);
    expect(write.test('payouts.payout.paid')).toBe(false);
  });

  it('gives a service that only consumes no write on the exchange and no routing key', () => {
    const permissions = permissionsOf('webhook-dispatcher');
    expect(new RegExp(permissions.write).test('sika.events')).toBe(false);
    expect(new RegExp(permissions.write).test('amq.default')).toBe(true);
    expect(permissions.topic.write).toBe('^$');
    expect(permissions.topic.read).toBe('^(payments\\.payment\\.\\*|payouts\\.payout\\.\\*)$');
  });

  it('refuses # in a producer pattern rather than granting more than meant', () => {
    expect(topicPatternRegex('payments.*')).toBe('payments\\.[^.]+');
    expect(() => topicPatternRegex('payments.#')).toThrow(/not #/);
  });
});

describe('brokerDefinitions', () => {
  it('holds the vhost, and each service user with its password and permissions', () => {
    const definitions = brokerDefinitions({ vhost: '/', passwordOf: (service) => `pw-${service}` });
    expect(definitions.vhosts).toEqual([{ name: '/' }]);
    expect(definitions.users).toContainEqual({ name: 'sika-payments', password: 'pw-payments', tags: '' });
    expect(definitions.users).toHaveLength(BROKER_SERVICES.length);
    expect(definitions.permissions).toContainEqual({
      user: 'sika-webhook-dispatcher',
      vhost: '/',
      configure: permissionsOf('webhook-dispatcher').configure,
      write: permissionsOf('webhook-dispatcher').write,
      read: permissionsOf('webhook-dispatcher').read,
    });
    expect(definitions.topic_permissions).toContainEqual({
      user: 'sika-psp-connector',
      vhost: '/',
      ...permissionsOf('psp-connector').topic,
    });
  });

  it('names the users under another prefix', () => {
    const definitions = brokerDefinitions({ vhost: 'v', prefix: 'x-', passwordOf: () => 'p' });
    expect(definitions.users.map(({ name }) => name)).toContain('x-payouts');
  });
});

describe('producerCheckFor', () => {
  const requestUpdate = contracts.PAYMENT_REQUEST_UPDATES.messageType;
  const check = producerCheckFor('t9.payments')!;

  it('accepts a message from the producer of its type, or moved by the consumer itself', () => {
    expect(check({ userId: 't9.psp-connector', type: requestUpdate })).toBeUndefined();
    expect(check({ userId: 't9.payments', type: requestUpdate })).toBeUndefined();
  });

  it('refuses a message without user_id, from another user, or of a type no service publishes', () => {
    expect(check({ userId: undefined, type: requestUpdate })).toBe('message has no user_id');
    expect(check({ userId: 't9.payouts', type: requestUpdate })).toBe(
      'published by t9.payouts, expected t9.psp-connector',
    );
    expect(check({ userId: 'sika-psp-connector', type: requestUpdate })).toBe(
      'published by sika-psp-connector, expected t9.psp-connector',
    );
    expect(check({ userId: 't9.psp-connector', type: 'sika.forged.v1.Thing' })).toBe(
      'no service publishes messages of type sika.forged.v1.Thing',
    );
    expect(check({ userId: 't9.psp-connector', type: undefined })).toMatch(/type \(none\)/);
  });

  it('checks nothing for a user that is no service (guest, in tests that provision no users)', () => {
    expect(producerCheckFor('guest')).toBeUndefined();
  });
});
