export {
  BROKER_SERVICES,
  BROKER_USER_PREFIX,
  SERVICE_EVENTS,
  brokerDefinitions,
  brokerIdentity,
  brokerUser,
  permissionsOf,
  producerCheckFor,
  producerOf,
} from './accounts';
export type {
  BrokerDefinitions,
  BrokerDefinitionsOptions,
  BrokerPermissions,
  BrokerService,
  ProducerCheck,
  PublishedEvents,
  ServiceEvents,
} from './accounts';
export { AmqpBroker, createBroker } from './broker';
export type { Broker, BrokerOptions, ChannelSetup, PublishOptions } from './broker';
export {
  DELIVERY_LIMIT,
  EVENTS_EXCHANGE,
  deadLetterQueueName,
  declareConsumerTopology,
  declareEventsExchange,
  retryQueueName,
} from './topology';
export type { ConsumerTopology, TopologyChannel } from './topology';
export { enqueue, outboxRow, outboxRows } from './outbox';
export type { OutboxEvent, OutboxRows } from './outbox';
export { OutboxRelay } from './outbox-relay';
export type { OutboxRelayOptions } from './outbox-relay';
export { outboxMessaging } from './outbox-messaging';
export type { OutboxMessaging } from './outbox-messaging';
export { InboxConsumer, startConsumer } from './consumer';
export type {
  Consumer,
  ConsumerOptions,
  HandlerDeduplication,
  InboxDeduplication,
  ReceivedMessage,
} from './consumer';
export { HEADERS, modeHeader } from './headers';
export { brokerReadiness } from './readiness';
export { notifyingAfterCommit } from './sql';
export { messagingTablesOf } from './sql';
export type { MessagingClient, MessagingTables, TransactionOptions, TransactionRunner } from './sql';
export { MessagingRetention, RETENTION_CONFIG, retentionLoop } from './retention';
export type { MessagingRetentionOptions } from './retention';
