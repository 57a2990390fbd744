import type { StoredEvent } from '../domain/event';
import type { DeliveryOutcome } from '../domain/retry-schedule';
import type { Scope } from '../domain/scope';

export interface Endpoint {
  id: string;
  scope: Scope;
  url: string | null;
  /** In clear: repositories encrypt it at rest. */
  secret: string;
}

export interface EndpointRepository {
  /**
   * Sets the URL of the scope's endpoint. Creates the endpoint from `created` when there is none (a
   * concurrent creation wins and is used instead), and otherwise keeps its id and secret.
   */
  setUrl(
    scope: Scope,
    url: string | null,
    created: { id: string; secret: string },
    now: Date,
  ): Promise<Endpoint>;
  find(scope: Scope): Promise<Endpoint | undefined>;
}

/** The writes of one consumed message, inside the transaction that records it in the inbox. */
export interface EventStore {
  /** False when an event was already stored for the same source message. */
  insertEvent(event: StoredEvent): Promise<boolean>;
  /** The scope's endpoint, if it has a URL to deliver to. */
  findDeliverableEndpoint(scope: Scope): Promise<{ id: string } | undefined>;
  scheduleDelivery(delivery: { id: string; eventId: string; endpointId: string; dueAt: Date }): Promise<void>;
}

/** A delivery a worker has claimed for one attempt. */
export interface ClaimedDelivery {
  deliveryId: string;
  /** 1-based number of the attempt being made. */
  attemptNumber: number;
  eventId: string;
  payload: string;
  /** The endpoint's URL now (it may have changed since the event); null if it was removed. */
  url: string | null;
  secret: string;
}

export interface AttemptRecord {
  deliveryId: string;
  number: number;
  attemptedAt: Date;
  url: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
}

export interface DeliveryQueue {
  /**
   * Claims up to `limit` deliveries due at `now` that no other worker holds: each gets its attempt count
   * incremented and is hidden from other workers until `leaseUntil`, after which a crashed worker's attempt
   * is made again.
   */
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempt and moves the delivery to `outcome`, unless another worker claimed it since (the
   * attempt is recorded anyway). Returns whether the outcome was applied.
   */
  recordAttempt(attempt: AttemptRecord, outcome: DeliveryOutcome): Promise<boolean>;
}

export type SendResult = { statusCode: number; durationMs: number } | { error: string; durationMs: number };

export interface WebhookSender {
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult>;
}

/** What an attempt came to, for metrics. */
export type AttemptResult = 'delivered' | 'retry_scheduled' | 'failed';

export interface DeliveryObserver {
  attemptFinished(result: AttemptResult, durationMs: number): void;
}

export interface EventAudit {
  sourceMessageIds: string[];
  undeliveredEventIds: string[];
}

export interface EventAuditReader {
  audit(): Promise<EventAudit>;
}
