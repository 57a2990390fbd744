import type { LookupOutcome, PayeeLookupLog, Scope } from '../app/ports';
import { lookupRefusal, type LookupWindow, type PayeeLookupLimits } from '../domain/payee-lookup-limits';
import type { Database, Tx } from './database';

/** Serialises live look-ups (a few a day per merchant): the limits are counted and the row added as one step. */
const LIVE_LOOKUP_LOCK = 0x5045_4c4b; // "PELK"

/** The `payee_lookups` table: the audit of every look-up, and the counts of the limits on live ones. */
export class PrismaPayeeLookupLog implements PayeeLookupLog {
  constructor(
    private readonly db: Database,
    private readonly limits: PayeeLookupLimits,
  ) {}

  begin(
    lookup: Scope & { aliasMasked: string; requestedAt: Date },
  ): Promise<{ id: bigint } | { refused: 'merchant' | 'global'; retryAfterSeconds: number }> {
    const { merchantId, livemode, aliasMasked, requestedAt } = lookup;
    return this.db.$transaction(async (tx) => {
      if (livemode) {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LIVE_LOOKUP_LOCK})`;
        const since = (windowMs: number) => new Date(requestedAt.getTime() - windowMs);
        const [merchant, global] = await Promise.all([
          windowOf(tx, {
            merchantId,
            livemode,
            requestedAt: { gt: since(this.limits.perMerchant.windowMs) },
          }),
          windowOf(tx, { livemode, requestedAt: { gt: since(this.limits.global.windowMs) } }),
        ]);
        const refusal = lookupRefusal({ merchant, global }, this.limits, requestedAt);
        if (refusal !== undefined) {
          return { refused: refusal.limit, retryAfterSeconds: refusal.retryAfterSeconds };
        }
      }
      const row = await tx.payeeLookup.create({ data: { merchantId, livemode, aliasMasked, requestedAt } });
      return { id: row.id };
    });
  }

  async finish(id: bigint, outcome: LookupOutcome): Promise<void> {
    await this.db.payeeLookup.update({ where: { id }, data: { outcome } });
  }
}

async function windowOf(
  tx: Tx,
  where: { merchantId?: string; livemode: boolean; requestedAt: { gt: Date } },
): Promise<LookupWindow> {
  const { _count, _min } = await tx.payeeLookup.aggregate({
    where,
    _count: { _all: true },
    _min: { requestedAt: true },
  });
  return { count: _count._all, oldest: _min.requestedAt ?? undefined };
}
