import { createHash } from 'node:crypto';
import { AppError } from './errors';

/**
 * Idempotency-Key rules shared by every service that stores keys (payments, payouts). Each stores its keys in
 * its own database, in the transaction of the effect; what a stored key means for a new request is decided here.
 */

/** Spec §8: keys are kept 24 hours; a key older than that is free again. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** An Idempotency-Key in its scope: one merchant, one mode. */
export interface IdempotencyScope {
  merchantId: string;
  livemode: boolean;
  key: string;
}

export interface IdempotentRequest<Operation extends string = string> {
  scope: IdempotencyScope;
  operation: Operation;
  /** The gateway's hash of the validated body, or of the target of a call without one. */
  fingerprint: string;
  now: Date;
}

export interface StoredIdempotencyKey {
  operation: string;
  requestFingerprint: string;
  /** The record the first request answered with (`pay_…`, `po_…`). */
  resourceId: string;
  createdAt: Date;
}

export const keyInUse = (): AppError =>
  new AppError(
    'idempotency_key_in_use',
    'A request with this idempotency key is still in progress. Retry once it has completed.',
  );

/**
 * What a stored key means for a new request with it: `expired` (past retention but not reaped yet: the key is
 * free, as if the reaper had already run), or the record to replay; idempotency_key_reused when the key was
 * stored for another request.
 */
export function idempotencyVerdict(
  stored: StoredIdempotencyKey,
  request: IdempotentRequest,
): { kind: 'expired' } | { kind: 'replay'; resourceId: string } {
  if (stored.createdAt.getTime() <= request.now.getTime() - IDEMPOTENCY_RETENTION_MS)
    return { kind: 'expired' };
  if (stored.operation !== request.operation || stored.requestFingerprint !== request.fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'This idempotency key was already used with a different request. Use a new key for a new request.',
    );
  }
  return { kind: 'replay', resourceId: stored.resourceId };
}

/**
 * The 64-bit advisory lock id of a key in a service's namespace: a hash, so any key length and character fits,
 * and two services' locks never meet.
 */
export function idempotencyLockId(namespace: string, scope: IdempotencyScope): bigint {
  const digest = createHash('sha256')
    .update([namespace, scope.merchantId, String(scope.livemode), scope.key].join('\u0000'))
    .digest();
  return digest.readBigInt64BE(0);
}
