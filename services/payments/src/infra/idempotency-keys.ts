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

const byScope = (scope: IdempotencyScope) => ({
  merchantId_livemode_key: { merchantId: scope.merchantId, livemode: scope.livemode, key: scope.key },
});

/** Idempotency keys in the `idempotency_keys` table, serialized per key by a transaction-scoped advisory lock. */
export class PrismaIdempotencyKeys implements IdempotencyKeyStore {
  async claim(tx: Tx, request: IdempotentRequest): Promise<string | null> {
    // Without waiting: false when another transaction holds the lock, i.e. a request with the key is in flight.
    const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
      SELECT pg_try_advisory_xact_lock(${idempotencyLockId(request.scope)}) AS locked`;
    if (row?.locked !== true) throw keyInUse();
    const stored = await tx.idempotencyKey.findUnique({
      where: byScope(request.scope),
      select: { operation: true, requestFingerprint: true, paymentId: true, createdAt: true },
    });
    if (stored === null) return null;
    const verdict = idempotencyVerdict({ ...stored, resourceId: stored.paymentId }, request);
    if (verdict.kind === 'replay') return verdict.resourceId;
    const { merchantId, livemode, key } = request.scope;
    await tx.idempotencyKey.deleteMany({ where: { merchantId, livemode, key } });
    return null;
  }

  async remember(tx: Tx, request: IdempotentRequest, paymentId: string): Promise<void> {
    await tx.idempotencyKey.create({
      data: {
        ...request.scope,
        operation: request.operation,
        requestFingerprint: request.fingerprint,
        paymentId,
        createdAt: request.now,
      },
    });
  }

  async deleteBefore(db: Reader, cutoff: Date, limit: number): Promise<number> {
    return db.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < ${cutoff} LIMIT ${limit})`;
  }
}
