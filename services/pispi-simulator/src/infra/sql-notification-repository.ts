import { PreparedQuery } from '@sika/platform';
import { sql, type Kysely } from 'kysely';

import type { ClaimedNotification, DeliveredCallback, NotificationRepository } from '../app/ports';
import type { DB } from '../generated/database';
import { unnestedRows } from './unnested-rows';

/** Longer texts from a failing receiver are cut: the column is for diagnosis, not an archive. */
const MAX_ERROR_LENGTH = 500;

export class SqlNotificationRepository implements NotificationRepository {
  /**
   * claimDue's statement, compiled once (PreparedQuery): every round of the sender runs it. One statement: the
   * rows are locked (skipping those another worker holds), leased and returned at once.
   */
  private readonly claimStatement = new PreparedQuery(
    (_param, values: { now: Date; limit: number; leaseUntil: Date }) =>
      this.db
        .with('due', (db) =>
          db
            .selectFrom('notifications as n')
            .innerJoin('webhooks as w', (join) =>
              join.onRef('w.id', '=', 'n.webhook_id').on('w.deleted_at', 'is', null),
            )
            .select('n.id')
            .where('n.delivered_at', 'is', null)
            .where('n.abandoned_at', 'is', null)
            .where('n.next_attempt_at', '<=', values.now)
            .orderBy('n.next_attempt_at')
            .limit(values.limit)
            .forUpdate('n')
            .skipLocked(),
        )
        .updateTable('notifications as n')
        .from(['due', 'webhooks as w'])
        .set({ next_attempt_at: values.leaseUntil })
        .whereRef('n.id', '=', 'due.id')
        .whereRef('w.id', '=', 'n.webhook_id')
        .returning(['n.id', 'w.callback_url', 'w.secret', 'n.body', 'n.attempts', 'n.trace_context']),
  );

  /** markDelivered's statement, compiled once (PreparedQuery): every delivered callback runs it. */
  private readonly deliveredStatement = new PreparedQuery(
    (_param, values: { id: string[]; attempts: number[]; at: Date[] }) =>
      this.db
        .updateTable('notifications as n')
        .from(
          unnestedRows('d', {
            id: { type: 'text', values: values.id },
            attempts: { type: 'int', values: values.attempts },
            at: { type: 'timestamptz', values: values.at },
          }),
        )
        .set((eb) => ({ attempts: eb.ref('d.attempts'), delivered_at: eb.ref('d.at'), last_error: null }))
        .whereRef('n.id', '=', 'd.id'),
  );

  constructor(private readonly db: Kysely<DB>) {}

  async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedNotification[]> {
    const leaseUntil = new Date(now.getTime() + leaseMs);
    const rows = await this.claimStatement.execute(this.db, { now, limit, leaseUntil });
    return rows.map((row) => ({
      id: row.id,
      callbackUrl: row.callback_url,
      secret: row.secret,
      body: row.body,
      attempts: row.attempts,
      traceContext: row.trace_context,
    }));
  }

  async markDelivered(delivered: readonly DeliveredCallback[]): Promise<void> {
    await this.deliveredStatement.execute(this.db, {
      id: delivered.map(({ id }) => id),
      attempts: delivered.map(({ attempts }) => attempts),
      at: delivered.map(({ at }) => at),
    });
  }

  async markFailed(
    id: string,
    attempts: number,
    error: string,
    nextAttemptAt: Date | null,
    at: Date,
  ): Promise<void> {
    // Retried: due again at nextAttemptAt; out of attempts (null): abandoned at `at`, its due time kept.
    const retryAt = sql<Date | null>`${nextAttemptAt}::timestamptz`;
    await this.db
      .updateTable('notifications')
      .set((eb) => ({
        attempts,
        last_error: error.slice(0, MAX_ERROR_LENGTH),
        next_attempt_at: eb.fn.coalesce(retryAt, eb.ref('next_attempt_at')),
        abandoned_at: eb
          .case()
          .when(retryAt, 'is', null)
          .then(sql<Date>`${at}::timestamptz`)
          .else(eb.ref('abandoned_at'))
          .end(),
      }))
      .where('id', '=', id)
      .execute();
  }
}
