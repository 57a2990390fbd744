import type { UseCaseContext } from './ports';

/**
 * Keeps the payer's alias no longer than needed: it is needed to send a request, and nothing is sent for a
 * final payment. Each round erases the sealed alias of payments final for `retentionMs`, leaving the masked
 * form for support and the merchant. Returns how many rows it changed.
 */
export class RetainPayerAliases {
  constructor(
    private readonly context: UseCaseContext,
    private readonly retentionMs: number,
    private readonly batchSize = 500,
  ) {}

  async execute(): Promise<number> {
    const { db, payments, clock, logger } = this.context;
    const finalBefore = new Date(clock.now().getTime() - this.retentionMs);
    const erased = await payments.erasePayerAliases(db.reader, finalBefore, this.batchSize);
    if (erased > 0) logger.info({ erased }, 'payer aliases erased');
    return erased;
  }
}
