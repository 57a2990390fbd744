import {
  IDEMPOTENCY_RETENTION_MS,
  idempotencyLockId,
  idempotencyVerdict,
  keyInUse,
  type IdempotencyScope,
  type IdempotentRequest,
} from './idempotency';
import type { SqlTransaction } from './database';
import { sql, SqlFragment } from './sql-fragment';

/**
 * The raw API both runtime clients offer: SqlDatabase and its transactions, and Prisma's client and its
 * transactions, so the store runs in either service's transaction.
 */
type RawSql = Pick<SqlTransaction, '$queryRaw' | '$executeRaw'>;

/** Idempotency keys (spec §4.1), kept with the effect of their request in the same transaction. */
export interface IdempotencyKeyStore {
  /**
   * Call first in the transaction that performs the request: the id of the record an identical earlier request
   * answered with (replay), or null when this request is the first with its key. Never waits: a request with
   * the key in flight is idempotency_key_in_use, a key stored for another request idempotency_key_reused.
   */
  claim(tx: object, request: IdempotentRequest): Promise<string | null>;
  /** Stores the key with the record it answered with, in the same transaction as the effect. */
  remember(tx: object, request: IdempotentRequest, resourceId: string): Promise<void>;
  /** Deletes the key, in `tx`: its request left nothing behind, so it may be sent again. */
  forget(tx: object, scope: IdempotencyScope): Promise<void>;
  /** Deletes the keys that answered with this record, in `tx`: it was refused, so they may be sent again. */
  forgetResource(tx: object, resourceId: string): Promise<void>;
  /** Deletes up to `limit` keys past their 24 hours at `now`; returns how many went. */
  deleteExpired(client: object, now: Date, limit: number): Promise<number>;
}

const COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Idempotency keys in a service's `idempotency_keys` table (merchant_id, livemode, key, operation,
 * request_fingerprint, the column of the record a key answered with, created_at), serialized per key by a
 * transaction-scoped advisory lock in the service's own namespace.
 */
export class SqlIdempotencyKeyStore implements IdempotencyKeyStore {
  private readonly namespace: string;
  private readonly resource: SqlFragment;

  /**
   * `service` names the lock namespace (`sika.<service>.idempotency`), apart from any other service's;
   * `resourceColumn` is the table's column of the record a key answered with (payments' `payment_id`, payouts'
   * `payout_id`): kept as each table has it, since a renamed column would fail the previous release's replicas
   * during a rolling update.
   */
  constructor(service: string, resourceColumn: string) {
    if (!COLUMN_NAME.test(resourceColumn)) throw new Error(`invalid column name: ${resourceColumn}`);
    this.namespace = `sika.${service}.idempotency`;
    this.resource = new SqlFragment(resourceColumn);
  }

  /** The advisory lock a request with this key holds while it runs. */
  lockIdOf(scope: IdempotencyScope): bigint {
    return idempotencyLockId(this.namespace, scope);
  }

  async claim(tx: RawSql, request: IdempotentRequest): Promise<string | null> {
    // Without waiting: false when another transaction holds the lock, i.e. a request with the key is in flight.
    const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
      SELECT pg_try_advisory_xact_lock(${this.lockIdOf(request.scope)}::bigint) AS locked`;
    if (row?.locked !== true) throw keyInUse();
    const { merchantId, livemode, key } = request.scope;
    const [stored] = await tx.$queryRaw<
      { operation: string; request_fingerprint: string; resource_id: string; created_at: Date }[]
    >(
      ...sql`
      SELECT operation, request_fingerprint, ${this.resource} AS resource_id, created_at FROM idempotency_keys
      WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND key = ${key}`,
    );
    if (stored === undefined) return null;
    const verdict = idempotencyVerdict(
      {
        operation: stored.operation,
        requestFingerprint: stored.request_fingerprint,
        resourceId: stored.resource_id,
        createdAt: stored.created_at,
      },
      request,
    );
    if (verdict.kind === 'replay') return verdict.resourceId;
    await this.forget(tx, request.scope);
    return null;
  }

  async remember(tx: RawSql, request: IdempotentRequest, resourceId: string): Promise<void> {
    const { merchantId, livemode, key } = request.scope;
    await tx.$executeRaw(
      ...sql`
      INSERT INTO idempotency_keys (merchant_id, livemode, key, operation, request_fingerprint, ${this.resource},
        created_at)
      VALUES (${merchantId}, ${livemode}, ${key}, ${request.operation}, ${request.fingerprint}, ${resourceId},
        ${request.now}::timestamptz)`,
    );
  }

  async forget(tx: RawSql, { merchantId, livemode, key }: IdempotencyScope): Promise<void> {
    await tx.$executeRaw`
      DELETE FROM idempotency_keys WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND key = ${key}`;
  }

  async forgetResource(tx: RawSql, resourceId: string): Promise<void> {
    await tx.$executeRaw(...sql`DELETE FROM idempotency_keys WHERE ${this.resource} = ${resourceId}`);
  }

  deleteExpired(client: RawSql, now: Date, limit: number): Promise<number> {
    const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
    return client.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < ${cutoff} LIMIT ${limit})`;
  }
}
