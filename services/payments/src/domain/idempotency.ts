import { createHash } from 'node:crypto';
import { AppError } from '@sika/platform/pure';

/** Spec §4.1: keys are kept 24 hours; a key older than that is free again. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export type IdempotentOperation = 'create_payment' | 'cancel_payment';

/** An Idempotency-Key in its scope: one merchant, one mode. */
export interface IdempotencyScope {
  merchantId: string;
  livemode: boolean;
  key: string;
}

export interface IdempotentRequest {
  scope: IdempotencyScope;
  operation: IdempotentOperation;
  /** The gateway's hash of the validated body (create), or of the target (cancel). */
  fingerprint: string;
  now: Date;
}

export interface StoredIdempotencyKey {
  operation: string;
  requestFingerprint: string;
  paymentId: string;
  createdAt: Date;
}

export const keyInUse = (): AppError =>
  new AppError(
    'idempotency_key_in_use',
    'A request with this idempotency key is still in progress. Retry once it has completed.',
  );

/**
 * What a stored key means for a new request with it: `expired` (past retention but not reaped yet: the key is
 * free, as if the reaper had already run), or the payment to replay; idempotency_key_reused when the key was
 * stored for another request.
 */
export function verdictOf(
  stored: StoredIdempotencyKey,
  request: IdempotentRequest,
): { kind: 'expired' } | { kind: 'replay'; paymentId: string } {
  if (stored.createdAt.getTime() <= request.now.getTime() - IDEMPOTENCY_RETENTION_MS)
    return { kind: 'expired' };
  if (stored.operation !== request.operation || stored.requestFingerprint !== request.fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'This idempotency key was already used with a different request. Use a new key for a new request.',
    );
  }
  return { kind: 'replay', paymentId: stored.paymentId };
}

/** Cancel has no body: its fingerprint is its target, so one key cannot cancel two payments. */
export function cancelFingerprint(paymentId: string): string {
  return createHash('sha256').update(`cancel_payment:${paymentId}`).digest('hex');
}
