import {
  idempotencyLockId as lockIdIn,
  idempotencyVerdict,
  keyInUse,
  type IdempotencyScope,
} from '@sika/platform/pure';
import type { IdempotencyKeyStore } from '../app/ports';
import type { IdempotentRequest } from '../domain/idempotency';
import type { Reader, Tx } from './database';

/** Keeps this service's advisory locks apart from any other user of pg_advisory_* in the database. */
const LOCK_NAMESPACE = 'sika.payments.idempotency';

export const idempotencyLockId = (scope: IdempotencyScope): bigint => lockIdIn(LOCK_NAMESPACE, scope);

/** Idempotency keys in the `idempotency_keys` table, serialized per key by a transaction-scoped advisory lock. */
export class SqlIdempotencyKeys implements IdempotencyKeyStore {
  async claim(tx: Tx, request: IdempotentRequest): Promise<string | null> {
    // Without waiting: false when another transaction holds the lock, i.e. a request with the key is in flight.
    const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
      SELECT pg_try_advisory_xact_lock(${idempotencyLockId(request.scope)}::bigint) AS locked`;
    if (row?.locked !== true) throw keyInUse();
    const { merchantId, livemode, key } = request.scope;
    const [stored] = await tx.$queryRaw<
      { operation: string; request_fingerprint: string; payment_id: string; created_at: Date }[]
    >`
      SELECT operation, request_fingerprint, payment_id, created_at FROM idempotency_keys
      WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND key = ${key}`;
    if (stored === undefined) return null;
    const verdict = idempotencyVerdict(
      {
        operation: stored.operation,
        requestFingerprint: stored.request_fingerprint,
        resourceId: stored.payment_id,
        createdAt: stored.created_at,
      },
      request,
    );
    if (verdict.kind === 'replay') return verdict.resourceId;
    await tx.$executeRaw`
      DELETE FROM idempotency_keys WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND key = ${key}`;
    return null;
  }

  async remember(tx: Tx, request: IdempotentRequest, paymentId: string): Promise<void> {
    const { merchantId, livemode, key } = request.scope;
    await tx.$executeRaw`
      INSERT INTO idempotency_keys (merchant_id, livemode, key, operation, request_fingerprint, payment_id,
        created_at)
      VALUES (${merchantId}, ${livemode}, ${key}, ${request.operation}, ${request.fingerprint}, ${paymentId},
        ${request.now}::timestamptz)`;
  }

  async forget(tx: Tx, { merchantId, livemode, key }: IdempotentRequest['scope']): Promise<void> {
    await tx.$executeRaw`
      DELETE FROM idempotency_keys WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND key = ${key}`;
  }

  async deleteBefore(db: Reader, cutoff: Date, limit: number): Promise<number> {
    return db.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < ${cutoff} LIMIT ${limit})`;
  }
}
