import type { Clock, Logger } from '@sika/platform';

import type { CallbackStore } from './ports';

/**
 * Keeps scheme callbacks' events no longer than `retentionMs`: one row per callback event would otherwise grow
 * forever. An event is needed while the scheme may redeliver it and while payments may still ask to return the
 * transfer it announced, both far shorter than the retention. Deletes one batch per call and answers how many
 * rows went, so a batch loop drains a backlog and then idles.
 */
export class RetainCallbackEvents {
  constructor(
    private readonly dependencies: {
      store: Pick<CallbackStore, 'deleteEventsReceivedBefore'>;
      clock: Clock;
      logger: Logger;
      retentionMs: number;
      batchSize?: number;
    },
  ) {}

  async execute(): Promise<number> {
    const { store, clock, logger, retentionMs, batchSize = 1_000 } = this.dependencies;
    const deleted = await store.deleteEventsReceivedBefore(
      new Date(clock.now().getTime() - retentionMs),
      batchSize,
    );
    if (deleted > 0) logger.info({ deleted }, 'scheme callback events past their retention deleted');
    return deleted;
  }
}
