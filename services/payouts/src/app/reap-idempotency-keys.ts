import { IDEMPOTENCY_RETENTION_MS } from '@sika/platform';
import type { UseCaseContext } from './ports';

const BATCH = 1000;

/** Frees Idempotency-Keys past their 24 hours, a batch at a time. */
export class ReapIdempotencyKeys {
  constructor(private readonly deps: UseCaseContext) {}

  execute(): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
    return this.deps.payouts.deleteKeysBefore(cutoff, BATCH);
  }
}
