import type { EventAudit, EventAuditReader } from '../app/ports';
import type { WebhooksDatabase } from './database';

export class SqlEventAudit implements EventAuditReader {
  constructor(private readonly db: WebhooksDatabase) {}

  async audit(): Promise<EventAudit> {
    const sources = await this.db
      .selectFrom('events')
      .select('source_message_id')
      .where('source_message_id', 'is not', null)
      .execute();
    const undelivered = await this.db
      .selectFrom('events as e')
      .innerJoin('endpoints as p', (join) =>
        join
          .onRef('p.merchant_id', '=', 'e.merchant_id')
          .onRef('p.livemode', '=', 'e.livemode')
          .on('p.url', 'is not', null),
      )
      .select('e.id')
      .whereRef('e.created_at', '>=', 'p.url_since')
      .where(({ not, exists, selectFrom, lit }) =>
        not(
          exists(selectFrom('deliveries as d').select(lit(1).as('one')).whereRef('d.event_id', '=', 'e.id')),
        ),
      )
      .execute();
    return {
      sourceMessageIds: sources.flatMap((row) => row.source_message_id ?? []),
      undeliveredEventIds: undelivered.map((row) => row.id),
    };
  }
}
