import { createHash } from 'node:crypto';
import { AppError } from '@sika/platform';
import type { Tx } from '../infra/database';
import {
  deleteIdempotencyKey,
  findIdempotencyKey,
  insertIdempotencyKey,
  tryLockIdempotencyKey,
} from '../infra/idempotency-keys';
import type { IdempotencyScope } from '../infra/idempotency-keys';

/** Spec §4.1: keys are kept 24 hours; a key older than that is free again. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export type IdempotentOperation = 'create_payment' | 'cancel_payment';

export interface IdempotentRequest {
  scope: IdempotencyScope;
  operation: IdempotentOperation;
  /** The gateway's hash of the validated body (create), or of the target (cancel). */
  fingerprint: string;
  now: Date;
}

/**
 * Call first in the transaction that performs the request. Returns the id of the payment an identical
 * earlier request answered with (replay), or null when this request is the first with its key. Never waits:
 * while another request with the key is in flight (its transaction holds the key's lock) this one gets
 * idempotency_key_in_use; a key stored for another request is idempotency_key_reused.
 */
export async function claimIdempotencyKey(tx: Tx, request: IdempotentRequest): Promise<string | null> {
  if (!(await tryLockIdempotencyKey(tx, request.scope))) {
    throw new AppError(
      'idempotency_key_in_use',
      'A request with this idempotency key is still in progress. Retry once it has completed.',
    );
  }
  const stored = await findIdempotencyKey(tx, request.scope);
  if (stored === null) return null;
  if (stored.createdAt.getTime() <= request.now.getTime() - IDEMPOTENCY_RETENTION_MS) {
    // Past retention but not reaped yet: the key is free, as if the reaper had already run.
    await deleteIdempotencyKey(tx, request.scope);
    return null;
  }
  if (stored.operation !== request.operation || stored.requestFingerprint !== request.fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'This idempotency key was already used with a different request. Use a new key for a new request.',
    );
  }
  return stored.paymentId;
}

/** Stores the key with the payment it answered with, in the same transaction as the effect. */
export async function rememberIdempotencyKey(
  tx: Tx,
  request: IdempotentRequest,
  paymentId: string,
): Promise<void> {
  await insertIdempotencyKey(tx, request.scope, {
    operation: request.operation,
    requestFingerprint: request.fingerprint,
    paymentId,
    createdAt: request.now,
  });
}

/** Cancel has no body: its fingerprint is its target, so one key cannot cancel two payments. */
export function cancelFingerprint(paymentId: string): string {
  return createHash('sha256').update(`cancel_payment:${paymentId}`).digest('hex');
}
