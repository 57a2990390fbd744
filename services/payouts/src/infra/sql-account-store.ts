import { sql, type Selectable } from 'kysely';
import type { PayoutSchedule } from '@sika/rules';
import type { AccountStore, Scope } from '../app/ports';
import type { PayoutAccount } from '../domain/payout-account';
import type { DB } from '../generated/database';
import type { PayoutsDatabase } from './database';

function toAccount(row: Selectable<DB['payout_accounts']>): PayoutAccount {
  return {
    merchantId: row.merchant_id,
    livemode: row.livemode,
    status: row.status,
    aliasType: row.alias_type,
    alias: row.alias,
    aliasMasked: row.alias_masked,
    holderName: row.holder_name,
    holderCountry: row.holder_country,
    updatedAt: row.updated_at,
    verifiedAt: row.verified_at,
    defaultTestAccount: false,
  };
}

/** Payout accounts, schedules and the daily runs' completion, in the `payouts` schema. */
export class SqlAccountStore implements AccountStore {
  constructor(private readonly db: PayoutsDatabase) {}

  async find(scope: Scope): Promise<PayoutAccount | undefined> {
    const row = await this.db
      .selectFrom('payout_accounts')
      .selectAll()
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .executeTakeFirst();
    return row && toAccount(row);
  }

  async findMany(livemode: boolean, merchantIds: readonly string[]): Promise<Map<string, PayoutAccount>> {
    const rows = await this.db
      .selectFrom('payout_accounts')
      .selectAll()
      .where('livemode', '=', livemode)
      .where('merchant_id', '=', sql<string>`any(${[...merchantIds]}::text[])`)
      .execute();
    return new Map(rows.map((row) => [row.merchant_id, toAccount(row)]));
  }

  async save(account: PayoutAccount, now: Date): Promise<void> {
    const data = {
      status: account.status,
      alias_type: account.aliasType,
      alias: account.alias,
      alias_masked: account.aliasMasked,
      holder_name: account.holderName,
      holder_country: account.holderCountry,
      updated_at: now,
      verified_at: null,
    };
    await this.db
      .insertInto('payout_accounts')
      .values({ merchant_id: account.merchantId, livemode: account.livemode, ...data })
      .onConflict((oc) => oc.columns(['merchant_id', 'livemode']).doUpdateSet(data))
      .execute();
  }

  async confirm(scope: Scope, holderName: string, now: Date): Promise<PayoutAccount | undefined> {
    const row = await this.db
      .updateTable('payout_accounts')
      .set({ status: 'verified', verified_at: now, updated_at: now })
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .where('status', '=', 'awaiting_confirmation')
      .where('holder_name', '=', holderName)
      .returningAll()
      .executeTakeFirst();
    return row && toAccount(row);
  }

  async schedule(scope: Scope): Promise<PayoutSchedule> {
    const row = await this.db
      .selectFrom('payout_settings')
      .select('schedule')
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .executeTakeFirst();
    return row?.schedule ?? 'daily';
  }

  async manualSchedules(livemode: boolean, merchantIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('payout_settings')
      .select('merchant_id')
      .where('livemode', '=', livemode)
      .where('schedule', '=', 'manual')
      .where('merchant_id', '=', sql<string>`any(${[...merchantIds]}::text[])`)
      .execute();
    return new Set(rows.map((row) => row.merchant_id));
  }

  async setSchedule(scope: Scope, schedule: PayoutSchedule, now: Date): Promise<void> {
    await this.db
      .insertInto('payout_settings')
      .values({ merchant_id: scope.merchantId, livemode: scope.livemode, schedule, updated_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'livemode']).doUpdateSet({ schedule, updated_at: now }))
      .execute();
  }

  async isRunComplete(day: string, livemode: boolean): Promise<boolean> {
    const row = await this.db
      .selectFrom('daily_payout_runs')
      .select('livemode')
      .where('day', '=', sql<Date>`${day}::date`)
      .where('livemode', '=', livemode)
      .executeTakeFirst();
    return row !== undefined;
  }

  async completeRun(day: string, livemode: boolean, now: Date): Promise<void> {
    await this.db
      .insertInto('daily_payout_runs')
      .values({ day, livemode, completed_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
