import type { UseCaseContext } from './ports';

/**
 * Keeps the payer's alias no longer than needed: it is needed to send a request, and nothing is sent for a
 * final payment. Each round first seals the aliases still stored in clear (recorded before aliases were
 * sealed: the first rounds after the upgrade), then erases the sealed alias of payments final for
 * `retentionMs`, leaving the masked form for support and the merchant. Returns how many rows it changed.
 */
export class RetainPayerAliases {
  constructor(
    private readonly context: UseCaseContext,
    private readonly retentionMs: number,
    private readonly batchSize = 500,
  ) {}

  async execute(): Promise<number> {
    const { db, payments, clock, logger } = this.context;
    const sealed = await db.transaction((tx) => payments.sealClearAliases(tx, this.batchSize));
    const finalBefore = new Date(clock.now().getTime() - this.retentionMs);
    const erased = await payments.erasePayerAliases(db.reader, finalBefore, this.batchSize);
    if (sealed > 0 || erased > 0) logger.info({ sealed, erased }, 'payer aliases sealed or erased');
    return sealed + erased;
  }
}
