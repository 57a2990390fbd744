import { createHash } from 'node:crypto';
import type { IdempotencyKeyStore } from '../app/ports';
import {
  keyInUse,
  verdictOf,
  type IdempotencyScope,
  type IdempotentRequest,
  type StoredIdempotencyKey,
} from '../domain/idempotency';
import type { Reader, Tx } from './database';

/** Keeps this service's advisory locks apart from any other user of pg_advisory_* in the database. */
const LOCK_NAMESPACE = 'sika.payments.idempotency';

/** The 64-bit advisory lock id of a key: a hash, so any key length and character fits. */
export function idempotencyLockId(scope: IdempotencyScope): bigint {
  const digest = createHash('sha256')
    .update([LOCK_NAMESPACE, scope.merchantId, String(scope.livemode), scope.key].join('\u0000'))
    .digest();
  return digest.readBigInt64BE(0);
}

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
    const stored: StoredIdempotencyKey | null = await tx.idempotencyKey.findUnique({
      where: byScope(request.scope),
      select: { operation: true, requestFingerprint: true, paymentId: true, createdAt: true },
    });
    if (stored === null) return null;
    const verdict = verdictOf(stored, request);
    if (verdict.kind === 'replay') return verdict.paymentId;
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
