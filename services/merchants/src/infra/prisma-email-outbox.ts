import type { EmailOutbox, EmailRecord, EmailStatus } from '../app/email-outbox';
import type { EmailKind } from '../domain/email-templates';
import type { Email, PrismaClient } from '../generated/prisma/client';

function toRecord(row: Email): EmailRecord {
  return {
    ...row,
    // The only values this store writes.
    kind: row.kind as EmailKind,
    status: row.status as EmailStatus,
  };
}

/** The `emails` table through Prisma; the relay's claim is one statement with FOR UPDATE SKIP LOCKED. */
export class PrismaEmailOutbox implements EmailOutbox {
  constructor(private readonly prisma: PrismaClient) {}

  async record(email: EmailRecord): Promise<void> {
    await this.prisma.email.create({ data: email });
  }

  async cancel(emailId: string): Promise<boolean> {
    const { count } = await this.prisma.email.updateMany({
      where: { id: emailId, status: 'pending' },
      data: { status: 'canceled' },
    });
    return count === 1;
  }

  async list(merchantId: string | undefined, limit: number): Promise<EmailRecord[]> {
    const rows = await this.prisma.email.findMany({
      where: merchantId === undefined ? {} : { merchantId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(toRecord);
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<EmailRecord[]> {
    const ids = await this.prisma.$queryRaw<{ id: string }[]>`
      UPDATE emails SET send_after = ${leaseUntil}
      WHERE id IN (
        SELECT id FROM emails WHERE status = 'pending' AND send_after <= ${now}
        ORDER BY send_after LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      RETURNING id`;
    if (ids.length === 0) return [];
    const rows = await this.prisma.email.findMany({
      where: { id: { in: ids.map((row) => row.id) } },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map(toRecord);
  }

  async markDueUnsent(now: Date): Promise<number> {
    const { count } = await this.prisma.email.updateMany({
      where: { status: 'pending', sendAfter: { lte: now } },
      data: { status: 'unsent' },
    });
    return count;
  }

  async markSent(emailId: string, at: Date): Promise<void> {
    await this.prisma.email.update({
      where: { id: emailId },
      data: { status: 'sent', sentAt: at, attempts: { increment: 1 }, lastError: null },
    });
  }

  async markRefused(emailId: string, error: string, retryAt: Date | null): Promise<void> {
    await this.prisma.email.update({
      where: { id: emailId },
      data: {
        attempts: { increment: 1 },
        lastError: error,
        ...(retryAt === null ? { status: 'failed' } : { sendAfter: retryAt }),
      },
    });
  }
}
