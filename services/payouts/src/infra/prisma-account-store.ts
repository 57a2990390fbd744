import type { PayoutSchedule } from '@sika/rules';
import type { AccountStore, Scope } from '../app/ports';
import type { PayoutAccount } from '../domain/payout-account';
import type { PayoutAccount as PayoutAccountRow } from '../generated/prisma/client';
import { dayToDate, type Database } from './database';

function toAccount(row: PayoutAccountRow): PayoutAccount {
  return {
    merchantId: row.merchantId,
    livemode: row.livemode,
    status: row.status,
    aliasType: row.aliasType,
    alias: row.alias,
    aliasMasked: row.aliasMasked,
    holderName: row.holderName,
    holderCountry: row.holderCountry,
    updatedAt: row.updatedAt,
    verifiedAt: row.verifiedAt,
    defaultTestAccount: false,
  };
}

const byScope = (scope: Scope) => ({
  merchantId_livemode: { merchantId: scope.merchantId, livemode: scope.livemode },
});

/** Payout accounts, schedules and the daily runs' completion, in the `payouts` schema. */
export class PrismaAccountStore implements AccountStore {
  constructor(private readonly db: Database) {}

  async find(scope: Scope): Promise<PayoutAccount | undefined> {
    const row = await this.db.payoutAccount.findUnique({ where: byScope(scope) });
    return row ? toAccount(row) : undefined;
  }

  async findMany(livemode: boolean, merchantIds: readonly string[]): Promise<Map<string, PayoutAccount>> {
    const rows = await this.db.payoutAccount.findMany({
      where: { livemode, merchantId: { in: [...merchantIds] } },
    });
    return new Map(rows.map((row) => [row.merchantId, toAccount(row)]));
  }

  async save(account: PayoutAccount, now: Date): Promise<void> {
    const data = {
      status: account.status,
      aliasType: account.aliasType,
      alias: account.alias,
      aliasMasked: account.aliasMasked,
      holderName: account.holderName,
      holderCountry: account.holderCountry,
      updatedAt: now,
      verifiedAt: null,
    };
    await this.db.payoutAccount.upsert({
      where: byScope(account),
      create: { merchantId: account.merchantId, livemode: account.livemode, ...data },
      update: data,
    });
  }

  async confirm(scope: Scope, holderName: string, now: Date): Promise<PayoutAccount | undefined> {
    const { count } = await this.db.payoutAccount.updateMany({
      where: { ...scope, status: 'awaiting_confirmation', holderName },
      data: { status: 'verified', verifiedAt: now, updatedAt: now },
    });
    return count === 0 ? undefined : this.find(scope);
  }

  async schedule(scope: Scope): Promise<PayoutSchedule> {
    const row = await this.db.payoutSettings.findUnique({ where: byScope(scope) });
    return row?.schedule ?? 'daily';
  }

  async manualSchedules(livemode: boolean, merchantIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.payoutSettings.findMany({
      where: { livemode, schedule: 'manual', merchantId: { in: [...merchantIds] } },
      select: { merchantId: true },
    });
    return new Set(rows.map((row) => row.merchantId));
  }

  async setSchedule(scope: Scope, schedule: PayoutSchedule, now: Date): Promise<void> {
    await this.db.payoutSettings.upsert({
      where: byScope(scope),
      create: { ...scope, schedule, updatedAt: now },
      update: { schedule, updatedAt: now },
    });
  }

  async isRunComplete(day: string, livemode: boolean): Promise<boolean> {
    const row = await this.db.dailyPayoutRun.findUnique({
      where: { day_livemode: { day: dayToDate(day), livemode } },
    });
    return row !== null;
  }

  async completeRun(day: string, livemode: boolean, now: Date): Promise<void> {
    await this.db.dailyPayoutRun.createMany({
      data: [{ day: dayToDate(day), livemode, completedAt: now }],
      skipDuplicates: true,
    });
  }
}
