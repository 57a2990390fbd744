import { createHash } from 'node:crypto';
import type { IdempotentRequest as Request } from '@sika/platform/pure';

export type IdempotentOperation = 'create_payment' | 'cancel_payment';

export type IdempotentRequest = Request<IdempotentOperation>;

/** Cancel has no body: its fingerprint is its target, so one key cannot cancel two payments. */
export function cancelFingerprint(paymentId: string): string {
  return createHash('sha256').update(`cancel_payment:${paymentId}`).digest('hex');
}
