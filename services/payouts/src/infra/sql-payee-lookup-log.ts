import type { LookupOutcome, PayeeLookupLog, Scope } from '../app/ports';
import { lookupRefusal, type LookupWindow, type PayeeLookupLimits } from '../domain/payee-lookup-limits';
import type { PayoutsDatabase, Tx } from './database';

/** Serialises live look-ups (a few a day per merchant): the limits are counted and the row added as one step. */
const LIVE_LOOKUP_LOCK = 0x5045_4c4b; // "PELK"

/** The `payee_lookups` table: the audit of every look-up, and the counts of the limits on live ones. */
export class SqlPayeeLookupLog implements PayeeLookupLog {
  constructor(
    private readonly db: PayoutsDatabase,
    private readonly limits: PayeeLookupLimits,
  ) {}

  begin(
    lookup: Scope & { aliasMasked: string; requestedAt: Date },
  ): Promise<{ id: bigint } | { refused: 'merchant' | 'global'; retryAfterSeconds: number }> {
    const { merchantId, livemode, aliasMasked, requestedAt } = lookup;
    return this.db.transact(async (tx) => {
      if (livemode) {
        await tx
          .selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.val(LIVE_LOOKUP_LOCK)]).as('locked'))
          .execute();
        const since = (windowMs: number) => new Date(requestedAt.getTime() - windowMs);
        const [merchant, global] = await Promise.all([
          windowOf(tx, livemode, since(this.limits.perMerchant.windowMs), merchantId),
          windowOf(tx, livemode, since(this.limits.global.windowMs)),
        ]);
        const refusal = lookupRefusal({ merchant, global }, this.limits, requestedAt);
        if (refusal !== undefined) {
          return { refused: refusal.limit, retryAfterSeconds: refusal.retryAfterSeconds };
        }
      }
      return tx
        .insertInto('payee_lookups')
        .values({ merchant_id: merchantId, livemode, alias_masked: aliasMasked, requested_at: requestedAt })
        .returning('id')
        .executeTakeFirstOrThrow();
    });
  }

  async finish(id: bigint, outcome: LookupOutcome): Promise<void> {
    await this.db.updateTable('payee_lookups').set({ outcome }).where('id', '=', id).execute();
  }
}

/** The look-ups of the mode (of the merchant, when given) requested after `since`. */
async function windowOf(tx: Tx, livemode: boolean, since: Date, merchantId?: string): Promise<LookupWindow> {
  let query = tx
    .selectFrom('payee_lookups')
    .select((eb) => [eb.fn.countAll<bigint>().as('count'), eb.fn.min('requested_at').as('oldest')])
    .where('livemode', '=', livemode)
    .where('requested_at', '>', since);
  if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId);
  const { count, oldest } = await query.executeTakeFirstOrThrow();
  return { count: Number(count), oldest: oldest ?? undefined };
}
