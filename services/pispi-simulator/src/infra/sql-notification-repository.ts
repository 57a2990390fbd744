import type { SqlDatabase } from '@sika/platform';

import type { ClaimedNotification, DeliveredCallback, NotificationRepository } from '../app/ports';

/** Longer texts from a failing receiver are cut: the column is for diagnosis, not an archive. */
const MAX_ERROR_LENGTH = 500;

export class SqlNotificationRepository implements NotificationRepository {
  constructor(private readonly db: SqlDatabase) {}

  async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedNotification[]> {
    const leaseUntil = new Date(now.getTime() + leaseMs);
    // One statement: the rows are locked (skipping those another worker holds), leased and returned at once.
    const rows = await this.db.$queryRaw<
      {
        id: string;
        callback_url: string;
        secret: string;
        body: string;
        attempts: number;
        trace_context: Record<string, string>;
      }[]
    >`
      WITH due AS (
        SELECT n.id FROM notifications n
        JOIN webhooks w ON w.id = n.webhook_id AND w.deleted_at IS NULL
        WHERE n.delivered_at IS NULL AND n.abandoned_at IS NULL AND n.next_attempt_at <= ${now}
        ORDER BY n.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF n SKIP LOCKED
      )
      UPDATE notifications n SET next_attempt_at = ${leaseUntil}
      FROM due, webhooks w
      WHERE n.id = due.id AND w.id = n.webhook_id
      RETURNING n.id, w.callback_url, w.secret, n.body, n.attempts, n.trace_context`;
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
    await this.db.$executeRaw`
      UPDATE notifications n SET attempts = d.attempts, delivered_at = d.at, last_error = NULL
      FROM unnest((SELECT ${delivered.map(({ id }) => id)}::text[]),
        (SELECT ${delivered.map(({ attempts }) => attempts)}::int[]),
        (SELECT ${delivered.map(({ at }) => at)}::timestamptz[])) AS d(id, attempts, at)
      WHERE n.id = d.id`;
  }

  async markFailed(
    id: string,
    attempts: number,
    error: string,
    nextAttemptAt: Date | null,
    at: Date,
  ): Promise<void> {
    // Retried: due again at nextAttemptAt; out of attempts (null): abandoned at `at`, its due time kept.
    await this.db.$executeRaw`
      UPDATE notifications SET attempts = ${attempts}, last_error = ${error.slice(0, MAX_ERROR_LENGTH)},
        next_attempt_at = COALESCE(${nextAttemptAt}::timestamptz, next_attempt_at),
        abandoned_at = CASE WHEN ${nextAttemptAt}::timestamptz IS NULL THEN ${at}::timestamptz
          ELSE abandoned_at END
      WHERE id = ${id}`;
  }
}
