import { IDEMPOTENCY_RETENTION_MS } from '@sika/platform/pure';
import type { UseCaseContext } from './ports';

/** Deletes idempotency keys past their 24 hours. */
export class ReapIdempotencyKeys {
  constructor(
    private readonly context: UseCaseContext,
    private readonly batchSize = 1_000,
  ) {}

  async execute(): Promise<number> {
    const cutoff = new Date(this.context.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
    const { idempotencyKeys, db } = this.context;
    return idempotencyKeys.deleteBefore(db.reader, cutoff, this.batchSize);
  }
}
