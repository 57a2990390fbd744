import {
  CONSUMER_QUEUES,
  EVENTS_EXCHANGE,
  FUND_RETURN_UPDATES,
  PAYMENT_EVENTS,
  PAYMENT_REQUEST_UPDATES,
  PAYOUT_EVENTS,
  PAYOUT_TRANSFER_REQUESTS,
  PAYOUT_TRANSFER_UPDATES,
  REFUND_REQUESTS,
  type ConsumerQueue,
  type EventStream,
} from '@sika/contracts';
import { deadLetterQueueName, retryQueueName } from './topology';

/**
 * Who may do what on the broker: each service that talks to RabbitMQ has a user of its own, and this table,
 * built from the contract's streams and queues (packages/contracts/src/events.ts), is the one place that says
 * which events it publishes and which queues it consumes. The broker users' permissions (scripts/broker) and
 * the consumers' producer checks (delivery.ts) are both derived from it.
 */

/** One kind of event a service publishes: the AMQP `type`, and the routing keys as a topic pattern. */
export interface PublishedEvents {
  readonly messageType: string;
  /** Words and `*` (one word), as in a binding: `payments.payment.*`. */
  readonly routingKeys: string;
}

export interface ServiceEvents {
  readonly publishes: readonly PublishedEvents[];
  readonly consumes: readonly ConsumerQueue[];
}

const published = (stream: Pick<EventStream<unknown>, 'messageType'>, routingKeys: string) => ({
  messageType: stream.messageType,
  routingKeys,
});

export const SERVICE_EVENTS = {
  payments: {
    publishes: [
      published(PAYMENT_EVENTS, PAYMENT_EVENTS.everyPaymentChange),
      published(REFUND_REQUESTS, REFUND_REQUESTS.routingKey),
    ],
    consumes: [CONSUMER_QUEUES.paymentsPaymentRequestUpdates, CONSUMER_QUEUES.paymentsFundReturnUpdates],
  },
  'psp-connector': {
    publishes: [
      published(PAYMENT_REQUEST_UPDATES, PAYMENT_REQUEST_UPDATES.routingKey),
      published(FUND_RETURN_UPDATES, FUND_RETURN_UPDATES.routingKey),
      published(PAYOUT_TRANSFER_UPDATES, PAYOUT_TRANSFER_UPDATES.routingKey),
    ],
    consumes: [CONSUMER_QUEUES.pspRefundRequests, CONSUMER_QUEUES.pspPayoutTransferRequests],
  },
  payouts: {
    publishes: [
      published(PAYOUT_EVENTS, PAYOUT_EVENTS.everyPayoutChange),
      published(PAYOUT_TRANSFER_REQUESTS, PAYOUT_TRANSFER_REQUESTS.routingKey),
    ],
    consumes: [CONSUMER_QUEUES.payoutsTransferUpdates],
  },
  ledger: {
    publishes: [],
    consumes: [
      CONSUMER_QUEUES.ledgerPaymentCredits,
      CONSUMER_QUEUES.ledgerRefundRequests,
      CONSUMER_QUEUES.ledgerFundReturnUpdates,
      CONSUMER_QUEUES.ledgerPayoutSettlements,
    ],
  },
  'webhook-dispatcher': {
    publishes: [],
    consumes: [CONSUMER_QUEUES.webhooksPaymentEvents, CONSUMER_QUEUES.webhooksPayoutEvents],
  },
} as const satisfies Record<string, ServiceEvents>;

export type BrokerService = keyof typeof SERVICE_EVENTS;

export const BROKER_SERVICES = Object.keys(SERVICE_EVENTS) as BrokerService[];

/** The local stack, the dev cluster and the charts' documentation name the users `sika-<service>`. */
export const BROKER_USER_PREFIX = 'sika-';

/** `<prefix><service>`: tests provision users under a prefix of their own, in a vhost of their own. */
export function brokerUser(service: BrokerService, prefix = BROKER_USER_PREFIX): string {
  return `${prefix}${service}`;
}

/**
 * The service a broker user stands for, and the prefix its peers share, if the name is `<prefix><service>`
 * (no service's name ends with another's, so at most one matches). Anything else, e.g. `guest`, is no one.
 */
export function brokerIdentity(user: string): { service: BrokerService; prefix: string } | undefined {
  const service = BROKER_SERVICES.find((candidate) => user.endsWith(candidate));
  return service && { service, prefix: user.slice(0, user.length - service.length) };
}

/** The service that publishes events of this AMQP `type`, if any does. */
export function producerOf(messageType: string): BrokerService | undefined {
  return BROKER_SERVICES.find((service) =>
    SERVICE_EVENTS[service].publishes.some((events) => events.messageType === messageType),
  );
}

/**
 * Says why a delivery may not be trusted, or undefined when it may. RabbitMQ refuses a publish whose `user_id`
 * is not the connection's own user, so `user_id` names the publisher for certain. Messages the consumer moved
 * through its own retry queue carry its own user.
 */
export type ProducerCheck = (delivery: {
  userId: string | undefined;
  type: string | undefined;
}) => string | undefined;

/**
 * The check for a consumer connected as `connectionUser`, or undefined when that user is not a service's
 * (guest in tests that provision no users): then nothing can be checked, since no producer has a user.
 */
export function producerCheckFor(connectionUser: string): ProducerCheck | undefined {
  const identity = brokerIdentity(connectionUser);
  if (!identity) return undefined;
  return ({ userId, type }) => {
    if (userId === undefined || userId === '') return 'message has no user_id';
    if (userId === connectionUser) return undefined;
    const producer = type === undefined ? undefined : producerOf(type);
    if (producer === undefined) return `no service publishes messages of type ${type ?? '(none)'}`;
    const expected = brokerUser(producer, identity.prefix);
    return userId === expected ? undefined : `published by ${userId}, expected ${expected}`;
  };
}

/** RabbitMQ permission patterns (regular expressions on resource names) of one user in one vhost. */
export interface BrokerPermissions {
  configure: string;
  write: string;
  read: string;
  /** On the events exchange: `write` matches the routing keys it may publish, `read` the keys it may bind. */
  topic: { exchange: string; write: string; read: string };
}

/** RabbitMQ names the default exchange (through which consumers move messages to their queues) so. */
const DEFAULT_EXCHANGE = 'amq.default';

/**
 * Least privilege for one service: declare the events exchange (every service's setup asserts it) and its
 * own queues; publish to the exchange only if it produces, and there only its own routing keys; read and
 * bind only its own queues, and bind only its own bindings; move messages through the default exchange
 * (retry and dead-letter copies) only if it consumes.
 */
export function permissionsOf(service: BrokerService): BrokerPermissions {
  const events: ServiceEvents = SERVICE_EVENTS[service];
  const queues = events.consumes.flatMap(({ queue }) => [
    queue,
    retryQueueName(queue),
    deadLetterQueueName(queue),
  ]);
  const produces = events.publishes.length > 0;
  const consumes = queues.length > 0;
  return {
    configure: exactly([EVENTS_EXCHANGE, ...queues]),
    write: exactly([
      ...(produces ? [EVENTS_EXCHANGE] : []),
      ...(consumes ? [DEFAULT_EXCHANGE] : []),
      ...queues,
    ]),
    read: exactly([...(consumes ? [EVENTS_EXCHANGE] : []), ...queues]),
    topic: {
      exchange: EVENTS_EXCHANGE,
      write: anchored(events.publishes.map(({ routingKeys }) => topicPatternRegex(routingKeys))),
      read: exactly(events.consumes.flatMap(({ bindings }) => bindings)),
    },
  };
}

/** A RabbitMQ definitions document (the format of `rabbitmqctl import_definitions` and the HTTP API). */
export interface BrokerDefinitions {
  vhosts: Array<{ name: string }>;
  users: Array<{ name: string; password: string; tags: string }>;
  permissions: Array<{ user: string; vhost: string; configure: string; write: string; read: string }>;
  topic_permissions: Array<{ user: string; vhost: string; exchange: string; write: string; read: string }>;
}

export interface BrokerDefinitionsOptions {
  vhost: string;
  /** Each service's password. */
  passwordOf: (service: BrokerService) => string;
  prefix?: string;
}

/** Every service's user, password and permissions; importing it again updates them (idempotent). */
export function brokerDefinitions(options: BrokerDefinitionsOptions): BrokerDefinitions {
  const { vhost, prefix } = options;
  const definitions: BrokerDefinitions = {
    vhosts: [{ name: vhost }],
    users: [],
    permissions: [],
    topic_permissions: [],
  };
  for (const service of BROKER_SERVICES) {
    const user = brokerUser(service, prefix);
    const { configure, write, read, topic } = permissionsOf(service);
    definitions.users.push({ name: user, password: options.passwordOf(service), tags: '' });
    definitions.permissions.push({ user, vhost, configure, write, read });
    definitions.topic_permissions.push({ user, vhost, ...topic });
  }
  return definitions;
}

/** `^$` matches no name: RabbitMQ's way to grant nothing. */
const NOTHING = '^$';

function exactly(names: readonly string[]): string {
  return anchored(names.map(escapeRegex));
}

function anchored(alternatives: readonly string[]): string {
  return alternatives.length === 0 ? NOTHING : `^(${alternatives.join('|')})$`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `payments.payment.*` → `payments\.payment\.[^.]+`. */
export function topicPatternRegex(pattern: string): string {
  return pattern
    .split('.')
    .map((word) => {
      if (word === '#') throw new Error(`a producer's routing keys are words and *, not #: ${pattern}`);
      return word === '*' ? '[^.]+' : escapeRegex(word);
    })
    .join('\\.');
}
