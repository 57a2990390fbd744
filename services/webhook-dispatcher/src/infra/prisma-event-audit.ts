import type { EventAudit, EventAuditReader } from '../app/ports';
import type { PrismaClient } from '../generated/prisma/client';

export class PrismaEventAudit implements EventAuditReader {
  constructor(private readonly prisma: PrismaClient) {}

  async audit(): Promise<EventAudit> {
    const sources = await this.prisma.webhookEvent.findMany({
      where: { sourceMessageId: { not: null } },
      select: { sourceMessageId: true },
    });
    const undelivered = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT e.id FROM events e
        JOIN endpoints p ON p.merchant_id = e.merchant_id AND p.livemode = e.livemode AND p.url IS NOT NULL
       WHERE e.created_at >= p.url_since
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)`;
    return {
      sourceMessageIds: sources.flatMap((row) => row.sourceMessageId ?? []),
      undeliveredEventIds: undelivered.map((row) => row.id),
    };
  }
}
