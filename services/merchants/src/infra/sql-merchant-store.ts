import type { Database } from '@sika/platform';
import type { Insertable, Kysely, Selectable } from 'kysely';

import type { EmailRecord } from '../app/email-outbox';
import type { ActiveKey, KeyOwner, MerchantRecord, MerchantStore } from '../app/ports';
import type { Activation, ActivationDetails } from '../domain/activation';
import type { SecretKeyRecord } from '../domain/secret-key';
import type { Activation as ActivationRow, DB, Merchant, SecretKey } from '../generated/database';
import { emailRow } from './sql-email-outbox';

/** An activation's columns but its key: what a merchant row is joined with. */
type ActivationColumns = Omit<Selectable<ActivationRow>, 'merchant_id'>;

const ACTIVATION_COLUMNS = [
  'activations.status',
  'activations.legal_name',
  'activations.registration_number',
  'activations.contact_name',
  'activations.contact_email',
  'activations.contact_phone',
  'activations.requested_at',
  'activations.approved_at',
] as const;

function toActivation(row: ActivationColumns): Activation {
  return {
    // The only two values this store writes.
    status: row.status === 'approved' ? 'approved' : 'pending_review',
    details: {
      legalName: row.legal_name,
      registrationNumber: row.registration_number,
      contactName: row.contact_name,
      contactEmail: row.contact_email,
      contactPhone: row.contact_phone,
    },
    requestedAt: row.requested_at,
    approvedAt: row.approved_at,
  };
}

function toMerchantRecord(
  row: Selectable<Merchant>,
  activation: ActivationColumns | undefined,
): MerchantRecord {
  return {
    id: row.id,
    name: row.name,
    feeRule: { rateBps: row.fee_rate_bps, fixedAmount: row.fee_fixed_amount },
    liveEnabled: row.live_enabled,
    createdAt: row.created_at,
    activation: activation === undefined ? undefined : toActivation(activation),
  };
}

function keyRow(merchantId: string, key: SecretKeyRecord): Insertable<SecretKey> {
  return {
    id: key.id,
    merchant_id: merchantId,
    livemode: key.livemode,
    hash: key.hash,
    suffix: key.suffix,
    created_at: key.createdAt,
  };
}

/**
 * Locks the merchant row for the rest of the transaction: concurrent writes about one merchant (key
 * renewals, activation) queue instead of reading each other's stale state. Undefined when it does not exist.
 */
function lockMerchant(tx: Kysely<DB>, merchantId: string): Promise<Selectable<Merchant> | undefined> {
  return tx.selectFrom('merchants').selectAll().where('id', '=', merchantId).forUpdate().executeTakeFirst();
}

/**
 * The locked merchant row and its activation, if any; undefined when the merchant does not exist. The
 * activation is read by a statement after the lock is granted, so it sees what the lock's previous holder
 * committed (a join in the locking statement would read it as of before the wait).
 */
async function lockWithActivation(
  tx: Kysely<DB>,
  merchantId: string,
): Promise<
  { merchant: Selectable<Merchant>; activation: Selectable<ActivationRow> | undefined } | undefined
> {
  const merchant = await lockMerchant(tx, merchantId);
  if (merchant === undefined) return undefined;
  const activation = await tx
    .selectFrom('activations')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return { merchant, activation };
}

/** The merchants schema. The fee rule takes the column defaults (1 %, no fixed part). */
export class SqlMerchantStore implements MerchantStore {
  constructor(private readonly db: Database<DB>) {}

  async createWithKey(
    merchant: { id: string; name: string; createdAt: Date },
    key: SecretKeyRecord,
  ): Promise<MerchantRecord> {
    // Both rows in one statement: the key's foreign key is checked at its end, when the merchant exists.
    const row = await this.db
      .with('merchant', (db) =>
        db
          .insertInto('merchants')
          .values({ id: merchant.id, name: merchant.name, created_at: merchant.createdAt })
          .returningAll(),
      )
      .with('key', (db) => db.insertInto('secret_keys').values(keyRow(merchant.id, key)))
      .selectFrom('merchant')
      .selectAll()
      .executeTakeFirstOrThrow();
    return toMerchantRecord(row, undefined);
  }

  async replaceActiveKey(
    merchantId: string,
    key: SecretKeyRecord,
    previousExpiresAt: Date | null,
    email?: EmailRecord,
  ): Promise<'replaced' | 'missing' | 'live_disabled'> {
    return this.db.transact(async (tx) => {
      // The lock also queues concurrent renewals of the same merchant, so each one revokes the key issued by
      // the one before it instead of tripping over the one-active-key index.
      const locked = await lockMerchant(tx, merchantId);
      if (locked === undefined) return 'missing';
      if (key.livemode && !locked.live_enabled) return 'live_disabled';
      // A key replaced earlier and still overlapping stops now: at most one previous key works at a time.
      await tx
        .updateTable('secret_keys')
        .set({ revoked_at: key.createdAt })
        .where('merchant_id', '=', merchantId)
        .where('livemode', '=', key.livemode)
        .where('revoked_at', '>', key.createdAt)
        .execute();
      await tx
        .updateTable('secret_keys')
        .set({ revoked_at: previousExpiresAt ?? key.createdAt })
        .where('merchant_id', '=', merchantId)
        .where('livemode', '=', key.livemode)
        .where('revoked_at', 'is', null)
        .execute();
      await tx.insertInto('secret_keys').values(keyRow(merchantId, key)).execute();
      if (email !== undefined) await tx.insertInto('emails').values(emailRow(email)).execute();
      return 'replaced';
    });
  }

  async listActiveKeys(merchantId: string, now: Date): Promise<ActiveKey[] | undefined> {
    // The merchant's row joined with its working keys: no row at all when the merchant does not exist, one
    // row without a key when it has none working.
    const rows = await this.db
      .selectFrom('merchants')
      .leftJoin('secret_keys', (join) =>
        join
          .onRef('secret_keys.merchant_id', '=', 'merchants.id')
          .on((eb) =>
            eb.or([eb('secret_keys.revoked_at', 'is', null), eb('secret_keys.revoked_at', '>', now)]),
          ),
      )
      .select([
        'secret_keys.livemode',
        'secret_keys.suffix',
        'secret_keys.created_at',
        'secret_keys.revoked_at',
      ])
      .where('merchants.id', '=', merchantId)
      .orderBy('secret_keys.livemode', 'asc')
      .orderBy('secret_keys.created_at', 'desc')
      .execute();
    if (rows.length === 0) return undefined;
    return rows.flatMap(({ livemode, suffix, created_at: createdAt, revoked_at: revokedAt }) =>
      livemode === null || suffix === null || createdAt === null
        ? []
        : [{ livemode, lastFour: suffix, createdAt, ...(revokedAt !== null && { expiresAt: revokedAt }) }],
    );
  }

  async requestActivation(
    merchantId: string,
    details: ActivationDetails,
    requestedAt: Date,
  ): Promise<MerchantRecord | 'missing' | 'already_approved'> {
    return this.db.transact(async (tx) => {
      const locked = await lockWithActivation(tx, merchantId);
      if (locked === undefined) return 'missing';
      if (locked.activation?.status === 'approved') return 'already_approved';
      const pending = {
        status: 'pending_review',
        legal_name: details.legalName,
        registration_number: details.registrationNumber,
        contact_name: details.contactName,
        contact_email: details.contactEmail,
        contact_phone: details.contactPhone,
        requested_at: requestedAt,
        approved_at: null,
      };
      const activation = await tx
        .insertInto('activations')
        .values({ merchant_id: merchantId, ...pending })
        .onConflict((oc) => oc.column('merchant_id').doUpdateSet(pending))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toMerchantRecord(locked.merchant, activation);
    });
  }

  async approveActivation(
    merchantId: string,
    approvedAt: Date,
  ): Promise<MerchantRecord | 'missing' | 'not_requested'> {
    return this.db.transact(async (tx) => {
      const locked = await lockWithActivation(tx, merchantId);
      if (locked === undefined) return 'missing';
      const { merchant, activation: current } = locked;
      if (current === undefined) return 'not_requested';
      // Enabling again is harmless and makes an approval always end with live mode open; the first
      // approval's time is kept.
      await tx.updateTable('merchants').set({ live_enabled: true }).where('id', '=', merchantId).execute();
      if (current.status === 'approved') {
        return toMerchantRecord({ ...merchant, live_enabled: true }, current);
      }
      const approved = { status: 'approved', approved_at: approvedAt };
      await tx.updateTable('activations').set(approved).where('merchant_id', '=', merchantId).execute();
      return toMerchantRecord({ ...merchant, live_enabled: true }, { ...current, ...approved });
    });
  }

  async findActiveKeyOwner(hash: string, now: Date): Promise<KeyOwner | undefined> {
    const key = await this.db
      .selectFrom('secret_keys')
      .innerJoin('merchants', 'merchants.id', 'secret_keys.merchant_id')
      .select([
        'secret_keys.merchant_id',
        'secret_keys.livemode',
        'secret_keys.revoked_at',
        'merchants.live_enabled',
      ])
      .where('secret_keys.hash', '=', hash)
      .executeTakeFirst();
    if (key === undefined || (key.revoked_at !== null && key.revoked_at <= now)) return undefined;
    return { merchantId: key.merchant_id, livemode: key.livemode, liveEnabled: key.live_enabled };
  }

  async findMerchant(id: string): Promise<MerchantRecord | undefined> {
    const row = await this.db
      .selectFrom('merchants')
      .leftJoin('activations', 'activations.merchant_id', 'merchants.id')
      .selectAll('merchants')
      .select(ACTIVATION_COLUMNS)
      .where('merchants.id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    // status is NOT NULL: null only when the join found no activation.
    return toMerchantRecord(row, row.status === null ? undefined : (row as ActivationColumns));
  }
}
