import type { Logger } from '@sika/platform';
import type { Broker } from './broker';
import type { SqlClient, TransactionRunner } from './sql';
import { EVENTS_EXCHANGE, declareEventsExchange } from './topology';

export interface OutboxRelayOptions {
  prisma: TransactionRunner;
  broker: Broker;
  exchange?: string;
  /** Rows claimed per transaction. */
  batchSize?: number;
  /** Pause after a batch that was not full (nothing more to do) or failed. wake() cuts it short. */
  idleIntervalMs?: number;
  /** Upper bound of one batch transaction; must exceed the broker's publish timeout. */
  transactionTimeoutMs?: number;
  logger?: Logger;
}

interface OutboxRow {
  id: string;
  routing_key: string;
  type: string;
  payload: Uint8Array;
  headers: Record<string, unknown> | null;
}

const DEFAULTS = { batchSize: 100, idleIntervalMs: 500, transactionTimeoutMs: 30_000 };

/**
 * Publishes outbox rows. Each batch is one transaction: claim unpublished rows with FOR UPDATE SKIP LOCKED
 * (so several relays share the work without waiting on each other), publish them with confirms, mark them
 * published, commit. A relay that dies after a confirm but before the commit leaves its rows unpublished;
 * another batch publishes them again, so delivery is at-least-once and consumers deduplicate by message id.
 */
export class OutboxRelay {
  private readonly settings: Required<Omit<OutboxRelayOptions, 'logger' | 'exchange'>> & { exchange: string };
  private readonly logger: Logger;
  private running = false;
  private exchangeDeclared = false;
  private loop: Promise<void> | undefined;
  /** Set by wake(): the next pause is skipped even if wake() came while a batch was running. */
  private wakeRequested = false;
  private endPause: (() => void) | undefined;

  constructor(options: OutboxRelayOptions) {
    this.settings = { ...DEFAULTS, exchange: EVENTS_EXCHANGE, ...options };
    this.logger = (options.logger ?? options.broker.logger).child({ component: 'outbox-relay' });
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (!this.exchangeDeclared) {
      await this.settings.broker.addPublisherSetup((channel) =>
        declareEventsExchange(channel, this.settings.exchange),
      );
      this.exchangeDeclared = true;
    }
    this.running = true;
    this.loop = this.run();
  }

  /** Skips the idle pause, e.g. right after a transaction that enqueued an event committed. */
  wake(): void {
    this.wakeRequested = true;
    this.endPause?.();
  }

  /** Lets the current batch finish (publish and commit), then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Publishes one batch and returns how many rows it published. */
  async publishBatch(): Promise<number> {
    const { prisma, batchSize, transactionTimeoutMs } = this.settings;
    return prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<OutboxRow[]>`
          SELECT id, routing_key, type, payload, headers FROM outbox
          WHERE published_at IS NULL
          ORDER BY created_at, id
          LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return 0;
        await this.publishAll(rows);
        await markPublished(tx, rows);
        return rows.length;
      },
      { timeout: transactionTimeoutMs },
    );
  }

  private async run(): Promise<void> {
    while (this.running) {
      let published = 0;
      try {
        published = await this.publishBatch();
      } catch (err) {
        this.logger.error({ err }, 'outbox batch failed; its rows stay unpublished and are retried');
      }
      if (published < this.settings.batchSize) await this.pause(this.settings.idleIntervalMs);
    }
  }

  /** Waits for every confirm before failing, so a rollback never races publishes still in flight. */
  private async publishAll(rows: OutboxRow[]): Promise<void> {
    const results = await Promise.allSettled(rows.map((row) => this.publishRow(row)));
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private publishRow(row: OutboxRow): Promise<void> {
    return this.settings.broker.publish(this.settings.exchange, row.routing_key, row.payload, {
      messageId: row.id,
      type: row.type,
      contentType: 'application/x-protobuf',
      headers: row.headers ?? {},
    });
  }

  private async pause(ms: number): Promise<void> {
    if (this.running && !this.wakeRequested) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.endPause = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.endPause = undefined;
    }
    this.wakeRequested = false;
  }
}

async function markPublished(tx: SqlClient, rows: readonly OutboxRow[]): Promise<void> {
  const ids = rows.map((row) => row.id);
  await tx.$executeRaw`UPDATE outbox SET published_at = now() WHERE id = ANY(${ids})`;
}
