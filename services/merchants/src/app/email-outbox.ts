import type { EmailKind } from '../domain/email-templates';

export type EmailStatus = 'pending' | 'sent' | 'unsent' | 'failed' | 'canceled';

export interface EmailRecord {
  id: string;
  merchantId: string;
  to: string;
  kind: EmailKind;
  livemode: boolean;
  subject: string;
  body: string;
  status: EmailStatus;
  attempts: number;
  sendAfter: Date;
  createdAt: Date;
  sentAt: Date | null;
  lastError: string | null;
}

/** The outbox of emails (table `emails`), as the use cases and the relay need it. */
export interface EmailOutbox {
  record(email: EmailRecord): Promise<void>;
  /** Cancels a pending email; false when it is unknown or no longer pending. */
  cancel(emailId: string): Promise<boolean>;
  /** Most recent first; every merchant's when `merchantId` is undefined. */
  list(merchantId: string | undefined, limit: number): Promise<EmailRecord[]>;
  /**
   * Claims up to `limit` pending emails due at `now`, leasing them until `leaseUntil` (a relay that dies
   * mid-send leaves them to the next one then): sent at least once, never lost.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<EmailRecord[]>;
  /** Marks every pending email due at `now` `unsent` (no SMTP relay configured); how many. */
  markDueUnsent(now: Date): Promise<number>;
  markSent(emailId: string, at: Date): Promise<void>;
  /** A refusal: tried again at `retryAt`, or `failed` when `retryAt` is null. */
  markRefused(emailId: string, error: string, retryAt: Date | null): Promise<void>;
}

/** Where emails leave: the SMTP relay. */
export interface Mailer {
  send(email: { to: string; subject: string; text: string }): Promise<void>;
}
