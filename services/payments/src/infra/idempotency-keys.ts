import { createHash } from 'node:crypto';
import type { Reader, Tx } from './database';

/** An Idempotency-Key in its scope: one merchant, one mode. */
export interface IdempotencyScope {
  merchantId: string;
  livemode: boolean;
  key: string;
}

export interface StoredIdempotencyKey {
  operation: string;
  requestFingerprint: string;
  paymentId: string;
  createdAt: Date;
}

/** Keeps this service's advisory locks apart from any other user of pg_advisory_* in the database. */
const LOCK_NAMESPACE = 'sika.payments.idempotency';

/** The 64-bit advisory lock id of a key: a hash, so any key length and character fits. */
export function idempotencyLockId(scope: IdempotencyScope): bigint {
  const digest = createHash('sha256')
    .update([LOCK_NAMESPACE, scope.merchantId, String(scope.livemode), scope.key].join('\u0000'))
    .digest();
  return digest.readBigInt64BE(0);
}

/**
 * Takes the key's transaction-scoped advisory lock without waiting: false when another transaction holds
 * it, i.e. a request with the same key is in flight. Released by the commit or rollback.
 */
export async function tryLockIdempotencyKey(tx: Tx, scope: IdempotencyScope): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(${idempotencyLockId(scope)}) AS locked`;
  return row?.locked === true;
}

const byScope = (scope: IdempotencyScope) => ({
  merchantId_livemode_key: { merchantId: scope.merchantId, livemode: scope.livemode, key: scope.key },
});

export async function findIdempotencyKey(
  db: Reader,
  scope: IdempotencyScope,
): Promise<StoredIdempotencyKey | null> {
  return db.idempotencyKey.findUnique({
    where: byScope(scope),
    select: { operation: true, requestFingerprint: true, paymentId: true, createdAt: true },
  });
}

export async function deleteIdempotencyKey(tx: Tx, scope: IdempotencyScope): Promise<void> {
  await tx.idempotencyKey.deleteMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode, key: scope.key },
  });
}

export async function insertIdempotencyKey(
  tx: Tx,
  scope: IdempotencyScope,
  record: StoredIdempotencyKey,
): Promise<void> {
  await tx.idempotencyKey.create({ data: { ...scope, ...record } });
}

/** Deletes up to `limit` keys created before `cutoff`; returns how many went. */
export async function deleteIdempotencyKeysBefore(db: Reader, cutoff: Date, limit: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < ${cutoff} LIMIT ${limit})`;
}
