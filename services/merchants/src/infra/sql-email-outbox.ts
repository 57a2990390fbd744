import type { Insertable, Kysely, Selectable } from 'kysely';

import type { EmailOutbox, EmailRecord, EmailStatus } from '../app/email-outbox';
import type { EmailKind } from '../domain/email-templates';
import type { DB, Email } from '../generated/database';

/** The `emails` row of a record: also how the merchant store records one inside its own transaction. */
export function emailRow(email: EmailRecord): Insertable<Email> {
  return {
    id: email.id,
    merchant_id: email.merchantId,
    to_address: email.to,
    kind: email.kind,
    livemode: email.livemode,
    subject: email.subject,
    body: email.body,
    status: email.status,
    attempts: email.attempts,
    send_after: email.sendAfter,
    created_at: email.createdAt,
    sent_at: email.sentAt,
    last_error: email.lastError,
  };
}

function toRecord(row: Selectable<Email>): EmailRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    to: row.to_address,
    // The only values this store writes.
    kind: row.kind as EmailKind,
    livemode: row.livemode,
    subject: row.subject,
    body: row.body,
    status: row.status as EmailStatus,
    attempts: row.attempts,
    sendAfter: row.send_after,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    lastError: row.last_error,
  };
}

/** The `emails` table; the relay's claim is one statement with FOR UPDATE SKIP LOCKED. */
export class SqlEmailOutbox implements EmailOutbox {
  constructor(private readonly db: Kysely<DB>) {}

  async record(email: EmailRecord): Promise<void> {
    await this.db.insertInto('emails').values(emailRow(email)).execute();
  }

  async cancel(emailId: string): Promise<boolean> {
    const { numUpdatedRows } = await this.db
      .updateTable('emails')
      .set({ status: 'canceled' })
      .where('id', '=', emailId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return numUpdatedRows === 1n;
  }

  async list(merchantId: string | undefined, limit: number): Promise<EmailRecord[]> {
    const all = this.db.selectFrom('emails').selectAll();
    const rows = await (merchantId === undefined ? all : all.where('merchant_id', '=', merchantId))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<EmailRecord[]> {
    // The lease and the read of what it leased in one statement: RETURNING gives the rows as updated.
    const rows = await this.db
      .with('claimed', (db) =>
        db
          .updateTable('emails')
          .set({ send_after: leaseUntil })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('emails')
              .select('id')
              .where('status', '=', 'pending')
              .where('send_after', '<=', now)
              .orderBy('send_after')
              .limit(limit)
              .forUpdate()
              .skipLocked(),
          )
          .returningAll(),
      )
      .selectFrom('claimed')
      .selectAll()
      .orderBy('created_at')
      .execute();
    return rows.map(toRecord);
  }

  async markDueUnsent(now: Date): Promise<number> {
    const { numUpdatedRows } = await this.db
      .updateTable('emails')
      .set({ status: 'unsent' })
      .where('status', '=', 'pending')
      .where('send_after', '<=', now)
      .executeTakeFirstOrThrow();
    return Number(numUpdatedRows);
  }

  async markSent(emailId: string, at: Date): Promise<void> {
    await this.db
      .updateTable('emails')
      .set((eb) => ({ status: 'sent', sent_at: at, attempts: eb('attempts', '+', 1), last_error: null }))
      .where('id', '=', emailId)
      .execute();
  }

  async markRefused(emailId: string, error: string, retryAt: Date | null): Promise<void> {
    await this.db
      .updateTable('emails')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_error: error,
        ...(retryAt === null ? { status: 'failed' } : { send_after: retryAt }),
      }))
      .where('id', '=', emailId)
      .execute();
  }
}
