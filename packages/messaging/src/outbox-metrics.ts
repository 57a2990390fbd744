import { Counter } from 'prom-client';
import { sql } from 'kysely';
import { createScrapedGauges, type Metrics } from '@sika/platform';
import { HEADERS } from './headers';
import { messagingTablesOf, type TransactionRunner } from './sql';

/** What the relay tells of each row it published, once the batch's marks committed. */
export type PublishedCounter = (row: {
  routing_key: string;
  headers: Record<string, unknown> | null;
}) => void;

const PUBLISHED = 'sika_events_published_total';

/**
 * The outbox's series: `sika_events_published_total{routing_key, mode}` (each event once, when its row is marked
 * published, i.e. when the change it announces is committed and out; `mode` from the producer's
 * `x-sika-mode` header: payments and payouts by final status and mode are these events), and on each scrape
 * `sika_outbox_unsent_messages` and `sika_outbox_oldest_unsent_age_seconds`, read by one query on the
 * unpublished rows, which the relay's index keeps apart (a few rows, whatever the table's size).
 */
export function outboxMetrics(metrics: Metrics, db: TransactionRunner): PublishedCounter {
  const { registry } = metrics;
  const existing = registry.getSingleMetric(PUBLISHED) as Counter<'routing_key' | 'mode'> | undefined;
  const published =
    existing ??
    new Counter({
      name: PUBLISHED,
      help: 'Events published from the outbox, by routing key and mode (test, live, or none), once their row is marked.',
      labelNames: ['routing_key', 'mode'],
      registers: [registry],
    });
  if (existing === undefined) backlogGauges(metrics, db);
  return ({ routing_key, headers }) => {
    const mode = headers?.[HEADERS.mode];
    published.inc({ routing_key, mode: typeof mode === 'string' ? mode : 'none' });
  };
}

function backlogGauges(metrics: Metrics, db: TransactionRunner): void {
  createScrapedGauges(metrics, () => readBacklog(db), [
    { name: 'sika_outbox_unsent_messages', help: 'Outbox rows not yet published.', key: 'depth' },
    {
      name: 'sika_outbox_oldest_unsent_age_seconds',
      help: 'Age of the oldest outbox row not yet published; 0 when none waits.',
      key: 'age',
    },
  ]);
}

async function readBacklog(db: TransactionRunner): Promise<{ depth: number; age: number }> {
  // The relay's runner is all this has of the database; a read-only transaction of one statement.
  const row = await db.transact((tx) =>
    messagingTablesOf(tx)
      .selectFrom('outbox')
      .select([
        sql<number>`count(*)::int`.as('depth'),
        sql<number>`COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - min(created_at)), 0)::float8`.as('age'),
      ])
      .where('published_at', 'is', null)
      .executeTakeFirst(),
  );
  return row ?? { depth: 0, age: 0 };
}
