import { deleteIdempotencyKeysBefore } from '../infra/idempotency-keys';
import type { UseCaseContext } from './context';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency';

/** Deletes idempotency keys past their 24 hours. */
export class ReapIdempotencyKeys {
  constructor(
    private readonly context: UseCaseContext,
    private readonly batchSize = 1_000,
  ) {}

  async execute(): Promise<number> {
    const cutoff = new Date(this.context.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
    return deleteIdempotencyKeysBefore(this.context.db, cutoff, this.batchSize);
  }
}
