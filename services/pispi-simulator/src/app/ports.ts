import type { AnsweredDemande, NewNotification } from '../domain/callback-event';
import type { DemandeRecord, PayerAction, ScheduledPayerAction } from '../domain/demande';
import type { ConfirmationResult, VirementRecord } from '../domain/virement';

/** A registered webhook, secret included (the repository's view). */
export interface WebhookRow {
  id: string;
  clientId: string;
  callbackUrl: string;
  alias: string | null;
  events: string[];
  secret: string;
  createdAt: Date;
}

export interface WebhookRepository {
  insert(webhook: WebhookRow): Promise<void>;
  find(clientId: string, id: string): Promise<WebhookRow | null>;
  /** Marks it deleted; false when there was no such live webhook. */
  delete(clientId: string, id: string, at: Date): Promise<boolean>;
}

export interface DemandeRepository {
  /** 'duplicate' when this client already used the txId (nothing is written then). */
  insert(
    clientId: string,
    id: string,
    record: DemandeRecord,
    payerAction: ScheduledPayerAction | undefined,
  ): Promise<'inserted' | 'duplicate'>;
  find(clientId: string, txId: string): Promise<DemandeRecord | null>;
}

/** What a worker round of payer answers did. */
export interface AppliedPayerActions {
  /** How many due actions it claimed. */
  applied: number;
  /**
   * The callbacks the answers queued, committed already leased to this process so that it sends them at once
   * without a claim; should it die first, they are claimed again once the lease runs out.
   */
  leased: ClaimedNotification[];
}

/** Given a payer action, the demande and the client's webhooks: the new demande, what follows, its callbacks. */
export type PayerActionHandler = (
  demande: DemandeRecord,
  action: PayerAction,
  webhooks: readonly WebhookRow[],
) => AnsweredDemande | undefined;

export interface PayerActionRepository {
  /**
   * Claims up to `limit` actions due at `now` and after `dueSince` (null: any time before; FOR UPDATE SKIP
   * LOCKED), and for each one, in the same transaction, saves what `handle` returns (the demande, its
   * callbacks, its next action, else the action marked applied). The callbacks are written leased until
   * `leaseUntil`, as a claim would leave them.
   */
  applyDue(
    now: Date,
    dueSince: Date | null,
    limit: number,
    leaseUntil: Date,
    handle: PayerActionHandler,
  ): Promise<AppliedPayerActions>;
  /**
   * Changes the demande whose payment has this end-to-end id, under its lock, and schedules what `change`
   * says follows; null when this client received no such payment.
   */
  changePaid(
    clientId: string,
    paiementEnd2endId: string,
    change: (demande: DemandeRecord) => { demande: DemandeRecord; next: ScheduledPayerAction | undefined },
  ): Promise<DemandeRecord | null>;
  /**
   * Applies `action` now to the demande with this txId, whatever was scheduled for it, under the same locks;
   * the demande as it was (null when there is none) and what `handle` returned.
   */
  applyNow(
    clientId: string,
    txId: string,
    action: PayerAction,
    now: Date,
    handle: PayerActionHandler,
  ): Promise<{ before: DemandeRecord; answered: AnsweredDemande | undefined } | null>;
}

/** Given a transfer whose answer is due and the client's webhooks: the answered transfer and its callbacks. */
export type VirementHandler = (
  virement: VirementRecord,
  webhooks: readonly WebhookRow[],
) => { virement: VirementRecord; notifications: NewNotification[] } | undefined;

export interface VirementRepository {
  /** 'duplicate' when this client already used the txId (nothing is written then). */
  insert(clientId: string, id: string, record: VirementRecord): Promise<'inserted' | 'duplicate'>;
  find(clientId: string, txId: string): Promise<VirementRecord | null>;
  /**
   * Takes the business's decision about a transfer under its lock, saving the transfer when `decide` changed
   * it; null when this client has no transfer with that txId.
   */
  confirm(
    clientId: string,
    txId: string,
    decide: (record: VirementRecord) => ConfirmationResult,
  ): Promise<ConfirmationResult | null>;
  /**
   * Claims up to `limit` transfers whose bank answer is due (FOR UPDATE SKIP LOCKED) and saves, for each in the
   * same transaction, what `handle` returns; returns how many were claimed.
   */
  answerDue(now: Date, limit: number, handle: VirementHandler): Promise<number>;
}

/** A callback a participant acknowledged (2xx): at which attempt, and when. */
export interface DeliveredCallback {
  id: string;
  attempts: number;
  at: Date;
}

/** A callback claimed for one attempt. */
export interface ClaimedNotification {
  id: string;
  callbackUrl: string;
  secret: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The request-to-pay's trace context (W3C headers): the callback continues that trace. */
  traceContext: Readonly<Record<string, string>>;
}

/** Sends callbacks this process holds the lease of, recording each attempt as for claimed ones. */
export type LeasedCallbackDelivery = (notifications: readonly ClaimedNotification[]) => Promise<void>;

export interface NotificationRepository {
  /**
   * Claims due callbacks by pushing their due time `leaseMs` ahead (FOR UPDATE SKIP LOCKED), so another
   * worker skips them while this one sends, and a crashed worker's callbacks come back after the lease.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedNotification[]>;
  /** Records deliveries, however many, at once. */
  markDelivered(delivered: readonly DeliveredCallback[]): Promise<void>;
  /** Records a failed attempt; `nextAttemptAt` null abandons the callback. */
  markFailed(
    id: string,
    attempts: number,
    error: string,
    nextAttemptAt: Date | null,
    at: Date,
  ): Promise<void>;
}

export interface CallbackSender {
  /** POSTs the body with its X-Signature; resolves with why it failed, or undefined on a 2xx. */
  send(url: string, body: string, signature: string): Promise<string | undefined>;
}
