import { envVar, PollingLoop, type Clock, type Logger } from '@sika/platform';
import { messagingTablesOf, type MessagingClient } from './sql';

/**
 * The retention variables of every service with an outbox and an inbox, spread into its config schema. An
 * inbox row outlives the longest a message can wait for a redelivery (retries, a dead-letter replay).
 */
export const RETENTION_CONFIG = {
  OUTBOX_RETENTION: envVar.durationMs().prefault('1d'),
  INBOX_RETENTION: envVar.durationMs().prefault('7d'),
};

/** Old rows are no hurry: one look a minute, and rounds back to back only while a backlog lasts. */
const RETENTION_INTERVAL_MS = 60_000;

export interface MessagingRetentionOptions {
  db: MessagingClient;
  clock: Clock;
  /** A published outbox row is deleted once it is older than this. Unpublished rows are never deleted. */
  outboxRetentionMs: number;
  /**
   * An inbox row is deleted once it is older than this. Past it, a redelivery of the same message would be
   * applied again: keep it well beyond the longest a message can wait (retries, a dead-letter replay).
   */
  inboxRetentionMs: number;
  /** Rows deleted per statement, so that one round never holds long locks. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 1_000;

/**
 * Deletes outbox rows already published and inbox rows past their retention: without it both tables grow
 * by a row per event forever. One round deletes at most one batch from each table and says whether a
 * table had more, so a PollingLoop drains a backlog at once and then idles.
 */
export class MessagingRetention {
  private readonly batchSize: number;

  constructor(private readonly options: MessagingRetentionOptions) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  async round(): Promise<boolean> {
    const now = this.options.clock.now().getTime();
    const publishedBefore = new Date(now - this.options.outboxRetentionMs);
    const processedBefore = new Date(now - this.options.inboxRetentionMs);
    const db = messagingTablesOf(this.options.db);
    const outbox = await db
      .deleteFrom('outbox')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('outbox')
          .select('id')
          .where('published_at', '<', publishedBefore)
          .limit(this.batchSize),
      )
      .executeTakeFirst();
    const inbox = await db
      .deleteFrom('inbox')
      .where((eb) =>
        eb(
          eb.refTuple('consumer', 'message_id'),
          'in',
          eb
            .selectFrom('inbox')
            .select(['consumer', 'message_id'])
            .where('processed_at', '<', processedBefore)
            .limit(this.batchSize)
            .$asTuple('consumer', 'message_id'),
        ),
      )
      .executeTakeFirst();
    const full = BigInt(this.batchSize);
    return outbox.numDeletedRows === full || inbox.numDeletedRows === full;
  }
}

/**
 * The reaper as the background loop of a service, with the ages of its RETENTION_CONFIG (compose.ts adds it
 * like any other component).
 */
export function retentionLoop(
  db: MessagingClient,
  config: { OUTBOX_RETENTION: number; INBOX_RETENTION: number },
  { clock, logger }: { clock: Clock; logger: Logger },
): PollingLoop {
  const retention = new MessagingRetention({
    db,
    clock,
    outboxRetentionMs: config.OUTBOX_RETENTION,
    inboxRetentionMs: config.INBOX_RETENTION,
  });
  return new PollingLoop({
    name: 'messaging retention',
    round: () => retention.round(),
    intervalMs: RETENTION_INTERVAL_MS,
    clock,
    logger,
  });
}
