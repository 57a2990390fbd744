import type { SqlTransaction } from '@sika/platform';
import { SYSTEM_OWNER, type MerchantAccountKind, type SystemAccountKind } from '../domain/accounts';
import type { Scope } from '@sika/platform/pure';

/** The balance of one of Sika's accounts in a mode, as maintained with its postings; 0 for an account never used. */
export async function systemAccountTotal(
  client: Pick<SqlTransaction, '$queryRaw'>,
  livemode: boolean,
  kind: SystemAccountKind,
): Promise<bigint> {
  const [row] = await client.$queryRaw<{ balance: bigint }[]>`
    SELECT balance FROM accounts
     WHERE owner_id = ${SYSTEM_OWNER} AND livemode = ${livemode} AND kind = ${kind}`;
  return row?.balance ?? 0n;
}

/**
 * The balance of each of the merchant's accounts in the scope's mode, as maintained with its postings (the
 * trigger postings_update_balances): one index lookup, whatever the length of the history.
 */
export async function merchantAccountTotals(
  client: Pick<SqlTransaction, '$queryRaw'>,
  scope: Scope,
): Promise<Map<MerchantAccountKind, bigint>> {
  const rows = await client.$queryRaw<{ kind: MerchantAccountKind; balance: bigint }[]>`
    SELECT kind, balance FROM accounts WHERE owner_id = ${scope.merchantId} AND livemode = ${scope.livemode}`;
  return new Map(rows.map((row) => [row.kind, row.balance]));
}
