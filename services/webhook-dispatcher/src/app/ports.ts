import type { StoredEvent } from '../domain/event';
import type { PreviousSecret } from '../domain/webhook-secret';
import type { DeliveryOutcome, DeliveryStatus } from '../domain/retry-schedule';
import type { Scope } from '@sika/platform/pure';

export interface Endpoint {
  id: string;
  scope: Scope;
  url: string | null;
  /** In clear: repositories encrypt it at rest. */
  secret: string;
}

export interface RolledEndpoint {
  endpoint: Endpoint;
  /** Until when the replaced secret signs too; null when it stopped at once, or the roll created the endpoint. */
  previousSecretExpiresAt: Date | null;
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
  /**
   * Replaces the secret of the scope's endpoint with `created.secret`, or creates the endpoint from
   * `created` (without URL) when there is none. The replaced secret keeps signing until
   * `previousExpiresAt`; with null it stops at once (and so does any earlier one still overlapping).
   */
  rollSecret(
    scope: Scope,
    created: { id: string; secret: string },
    now: Date,
    previousExpiresAt: Date | null,
  ): Promise<RolledEndpoint>;
}

/** A delivery to schedule for a stored event, claimed for its first attempt until `leaseUntil`. */
export interface NewDelivery {
  id: string;
  createdAt: Date;
  leaseUntil: Date;
}

/** Where consumed changes become events: each write commits by itself. */
export interface EventRecorder {
  /**
   * Inserts the event and, when the scope's endpoint has a URL, schedules its delivery to it already claimed
   * for its first attempt until `delivery.leaseUntil`, and hands it to this process's worker once committed.
   * `stored` is false, and nothing is scheduled, when an event was already stored for the same source message.
   */
  storeEvent(event: StoredEvent, delivery: NewDelivery): Promise<{ stored: boolean; scheduled: boolean }>;
}

/** The writes of a test event's or a resend's transaction. */
export interface EventStore {
  /** False when an event was already stored for the same source message. */
  insertEvent(event: StoredEvent): Promise<boolean>;
  /** The scope's endpoint, if it has a URL to deliver to. */
  findDeliverableEndpoint(scope: Scope): Promise<{ id: string } | undefined>;
  /** Ids of the scope's events stored since `since` with no delivery to the endpoint, oldest first. */
  undeliveredEvents(scope: Scope, endpointId: string, since: Date): Promise<string[]>;
  /**
   * Schedules the event's delivery to the endpoint at `dueAt`. When it already has one (a resend), that one
   * becomes pending and due at `dueAt` whatever its state, its attempts kept; `id` is then unused.
   */
  scheduleDelivery(delivery: { id: string; eventId: string; endpointId: string; dueAt: Date }): Promise<void>;
  /**
   * Counts one more test event or resend to the endpoint in the rate-limit window `windowIndex` (the count
   * starts again in a new window); answers the window's count, this one included.
   */
  countManualSend(endpointId: string, windowIndex: number): Promise<number>;
}

/** Runs `work` in one transaction of the event store; the delivery loop looks for due work once it commits. */
export interface EventStoreTransactions {
  run<T>(work: (store: EventStore) => Promise<T>): Promise<T>;
}

export interface AttemptView {
  number: number;
  attemptedAt: Date;
  url: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryView {
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  /** Oldest first. */
  attempts: AttemptView[];
}

/** A stored event as its merchant sees it: the body sent, and how its delivery stands. */
export interface EventView {
  id: string;
  type: string;
  createdAt: Date;
  payload: string;
  /** Null when the endpoint had no URL when the event was stored and it was never resent. */
  delivery: DeliveryView | null;
}

/** Which of the scope's events a list keeps; null where it keeps every one. */
export interface EventFilter {
  /** Only the events whose `data.object` is this payment or payout. */
  objectId: string | null;
  type: string | null;
  /** Inclusive. */
  createdFrom: Date | null;
  /** Exclusive. */
  createdTo: Date | null;
}

export interface EventReader {
  /** The event if it belongs to the scope: another merchant's or mode's is undefined like an unknown id. */
  find(scope: Scope, eventId: string): Promise<EventView | undefined>;
  /** Most recent first (created_at, then id), after `after` when given; one row more tells has_more. */
  list(
    scope: Scope,
    page: { limit: number; after: { id: string; createdAt: Date } | null },
    filter: EventFilter,
  ): Promise<{ events: EventView[]; hasMore: boolean }>;
}

/** A delivery a worker has claimed for one attempt. */
export interface ClaimedDelivery {
  deliveryId: string;
  endpointId: string;
  /** 1-based number of the attempt being made. */
  attemptNumber: number;
  eventId: string;
  payload: string;
  /** The endpoint's URL now (it may have changed since the event); null if it was removed. */
  url: string | null;
  /** The endpoint's mode: live URLs must be https. */
  livemode: boolean;
  secret: string;
  /** The secret a roll replaced, while its overlap lasts. */
  previousSecret: PreviousSecret | null;
  /** The end of this claim's lease: what tells its outcome from that of a later claim or a resend. */
  leaseUntil: Date;
}

export interface AttemptRecord {
  deliveryId: string;
  number: number;
  /** The lease of the claim that made the attempt. */
  leaseUntil: Date;
  attemptedAt: Date;
  url: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
}

/**
 * Attempts in flight per endpoint: a claim takes no delivery of an endpoint already at `perEndpoint`, and at
 * most the rest of its share of the others.
 */
export interface EndpointSlots {
  perEndpoint: number;
  inFlight: ReadonlyMap<string, number>;
}

export interface DeliveryQueue {
  /**
   * Claims up to `limit` deliveries due at `now` that no other worker holds: each gets its attempt count
   * incremented and is hidden from other workers until `leaseUntil`, after which a crashed worker's attempt
   * is made again.
   */
  claimDue(now: Date, limit: number, leaseUntil: Date, slots: EndpointSlots): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempt and moves the delivery to `outcome`, unless another worker claimed it since or it was
   * resent (the attempt is recorded anyway). Returns whether the outcome was applied.
   */
  recordAttempt(attempt: AttemptRecord, outcome: DeliveryOutcome): Promise<boolean>;
}

export type SendResult = { statusCode: number; durationMs: number } | { error: string; durationMs: number };

export interface WebhookSender {
  /**
   * POSTs to `target.url` over a connection to `target.address` only, the address that was vetted: the host
   * name is not resolved again (a second answer could point inside), yet it stays the Host and TLS name.
   */
  post(
    target: { url: string; address: string },
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<SendResult>;
}

/** What a host name resolves to (every address), or why it does not. */
export type Resolution = { addresses: string[] } | { error: string };

export interface HostResolver {
  resolve(host: string): Promise<Resolution>;
}

/** What an attempt came to, for metrics. */
export type AttemptResult = 'delivered' | 'retry_scheduled' | 'failed';

/** Counts what the service does routinely, which its log shows at debug only. */
export interface DeliveryObserver {
  eventStored(type: string): void;
  attemptFinished(result: AttemptResult, durationMs: number): void;
}

export interface EventAudit {
  sourceMessageIds: string[];
  undeliveredEventIds: string[];
}

export interface EventAuditReader {
  audit(): Promise<EventAudit>;
}
