import { sql, type ColumnType, type Kysely } from 'kysely';

import {
  IDEMPOTENCY_RETENTION_MS,
  idempotencyLockId,
  idempotencyVerdict,
  keyInUse,
  type IdempotencyScope,
  type IdempotentRequest,
} from './idempotency';

/** The columns every service's `idempotency_keys` table has, but the one of the record a key answered with. */
interface IdempotencyKeyColumns {
  merchant_id: string;
  livemode: boolean;
  key: string;
  operation: string;
  request_fingerprint: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

/**
 * What the store needs of a service's generated `DB`: an `idempotency_keys` table with these columns (their
 * generated types may differ, e.g. a column with a default).
 */
export interface IdempotencyKeyTables {
  idempotency_keys: Record<keyof IdempotencyKeyColumns, unknown>;
}

/** The table as the store's statements read and write it. */
interface IdempotencyKeysTable {
  idempotency_keys: IdempotencyKeyColumns;
}

/** The column of `DB`'s `idempotency_keys` that holds the record a key answered with (payments' `payment_id`). */
export type ResourceColumnOf<DB extends IdempotencyKeyTables> = Exclude<
  keyof DB['idempotency_keys'] & string,
  keyof IdempotencyKeyColumns
>;

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

/**
 * Idempotency keys in a service's `idempotency_keys` table (merchant_id, livemode, key, operation,
 * request_fingerprint, the column of the record a key answered with, created_at), serialized per key by a
 * transaction-scoped advisory lock in the service's own namespace. Its methods take the service's database or
 * one of its transactions.
 */
export class SqlIdempotencyKeyStore<DB extends IdempotencyKeyTables> implements IdempotencyKeyStore {
  private readonly namespace: string;

  /**
   * `service` names the lock namespace (`sika.<service>.idempotency`), apart from any other service's;
   * `resource` is the table's column of the record a key answered with (payments' `payment_id`, payouts'
   * `payout_id`): kept as each table has it, since a renamed column would fail the previous release's replicas
   * during a rolling update.
   */
  constructor(
    service: string,
    private readonly resource: ResourceColumnOf<DB>,
  ) {
    this.namespace = `sika.${service}.idempotency`;
  }

  /** The advisory lock a request with this key holds while it runs. */
  lockIdOf(scope: IdempotencyScope): bigint {
    return idempotencyLockId(this.namespace, scope);
  }

  /**
   * `db` as a client of its `idempotency_keys` table alone: Kysely<DB> is invariant in DB, so a service's
   * database is no Kysely of that table by itself although its DB has it.
   */
  private keysIn(db: Kysely<DB>): Kysely<IdempotencyKeysTable> {
    return db as unknown as Kysely<IdempotencyKeysTable>;
  }

  async claim(tx: Kysely<DB>, request: IdempotentRequest): Promise<string | null> {
    const keys = this.keysIn(tx);
    // Without waiting: false when another transaction holds the lock, i.e. a request with the key is in flight.
    const lock = await keys
      .selectNoFrom(
        sql<boolean>`pg_try_advisory_xact_lock(${this.lockIdOf(request.scope)}::bigint)`.as('locked'),
      )
      .executeTakeFirst();
    if (lock?.locked !== true) throw keyInUse();
    const { merchantId, livemode, key } = request.scope;
    const stored = await keys
      .selectFrom('idempotency_keys')
      .select([
        'operation',
        'request_fingerprint',
        sql.ref<string>(this.resource).as('resource_id'),
        'created_at',
      ])
      .where('merchant_id', '=', merchantId)
      .where('livemode', '=', livemode)
      .where('key', '=', key)
      .executeTakeFirst();
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

  async remember(tx: Kysely<DB>, request: IdempotentRequest, resourceId: string): Promise<void> {
    const { merchantId, livemode, key } = request.scope;
    await this.keysIn(tx)
      .insertInto('idempotency_keys')
      .values({
        merchant_id: merchantId,
        livemode,
        key,
        operation: request.operation,
        request_fingerprint: request.fingerprint,
        [this.resource]: resourceId,
        created_at: request.now,
      })
      .execute();
  }

  async forget(tx: Kysely<DB>, { merchantId, livemode, key }: IdempotencyScope): Promise<void> {
    await this.keysIn(tx)
      .deleteFrom('idempotency_keys')
      .where('merchant_id', '=', merchantId)
      .where('livemode', '=', livemode)
      .where('key', '=', key)
      .execute();
  }

  async forgetResource(tx: Kysely<DB>, resourceId: string): Promise<void> {
    await this.keysIn(tx)
      .deleteFrom('idempotency_keys')
      .where(sql.ref(this.resource), '=', resourceId)
      .execute();
  }

  async deleteExpired(client: Kysely<DB>, now: Date, limit: number): Promise<number> {
    const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
    const result = await this.keysIn(client)
      .deleteFrom('idempotency_keys')
      .where((eb) =>
        eb(
          sql`ctid`,
          'in',
          eb
            .selectFrom('idempotency_keys')
            .select(sql`ctid`.as('ctid'))
            .where('created_at', '<', cutoff)
            .limit(limit),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
