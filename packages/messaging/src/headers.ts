import type { ConsumeMessage } from 'amqplib';

/** Headers this library sets on messages it moves to the retry or dead-letter queue, and the producers' mode. */
export const HEADERS = {
  /** How many times the handler has been tried (after a failure) or the message was rejected (dead). */
  attempts: 'x-sika-attempts',
  /** The routing key the message was first published with; moving through queues replaces it. */
  routingKey: 'x-sika-routing-key',
  /** Why the message was dead-lettered or retried: the decode or handler error message. */
  reason: 'x-sika-reason',
  /** The consumer that gave up on the message. */
  consumer: 'x-sika-consumer',
  /** When the message was dead-lettered (ISO 8601). */
  deadAt: 'x-sika-dead-at',
  /** Set by producers of events about one mode's money (`test` or `live`): the published events' metric label. */
  mode: 'x-sika-mode',
} as const;

/** The header that names an event's mode, counted with it when it is published (outbox-metrics.ts). */
export function modeHeader(livemode: boolean): Record<string, string> {
  return { [HEADERS.mode]: livemode ? 'live' : 'test' };
}

/** AMQP header tables are limited to 64 KiB; a stack-sized error message must not make the move fail. */
const MAX_REASON_LENGTH = 1_000;

export function truncateReason(reason: string): string {
  return reason.length <= MAX_REASON_LENGTH ? reason : `${reason.slice(0, MAX_REASON_LENGTH)}…`;
}

export function previousAttempts(message: ConsumeMessage): number {
  const value: unknown = message.properties.headers?.[HEADERS.attempts];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

export function originalRoutingKey(message: ConsumeMessage): string {
  const value: unknown = message.properties.headers?.[HEADERS.routingKey];
  return typeof value === 'string' ? value : message.fields.routingKey;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** amqplib types message properties as `any`; this narrows them at the boundary. */
export function stringProperty(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
