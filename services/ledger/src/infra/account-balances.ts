import { sql, type Kysely } from 'kysely';
import { SYSTEM_OWNER, type MerchantAccountKind, type SystemAccountKind } from '../domain/accounts';
import type { DB } from '../generated/database';
import type { Scope } from '@sika/platform/pure';

/** The balance of one of Sika's accounts in a mode, as maintained with its postings; 0 for an account never used. */
export async function systemAccountTotal(
  db: Kysely<DB>,
  livemode: boolean,
  kind: SystemAccountKind,
): Promise<bigint> {
  const row = await db
    .selectFrom('accounts')
    .select('balance')
    .where('owner_id', '=', SYSTEM_OWNER)
    .where('livemode', '=', livemode)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

/** The merchant's available balance in the scope's mode; 0 before its first credit. */
export async function availableBalance(db: Kysely<DB>, scope: Scope): Promise<bigint> {
  const row = await db
    .selectFrom('accounts')
    .select('balance')
    .where('owner_id', '=', scope.merchantId)
    .where('livemode', '=', scope.livemode)
    .where('kind', '=', sql.lit('available'))
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

/**
 * The balance of each of the merchant's accounts in the scope's mode, as maintained with its postings (the
 * trigger postings_update_balances): one index lookup, whatever the length of the history.
 */
export async function merchantAccountTotals(
  db: Kysely<DB>,
  scope: Scope,
): Promise<Map<MerchantAccountKind, bigint>> {
  const rows = await db
    .selectFrom('accounts')
    .select(['kind', 'balance'])
    .where('owner_id', '=', scope.merchantId)
    .where('livemode', '=', scope.livemode)
    .$narrowType<{ kind: MerchantAccountKind }>()
    .execute();
  return new Map(rows.map((row) => [row.kind, row.balance]));
}
