import { sql, type Kysely, type Selectable } from 'kysely';

import type { WebhookRepository, WebhookRow } from '../app/ports';
import type { DB } from '../generated/database';

const WEBHOOK_COLUMNS = [
  'id',
  'client_id',
  'callback_url',
  'alias',
  'events',
  'secret',
  'created_at',
] as const;

function toWebhookRow(row: Pick<Selectable<DB['webhooks']>, (typeof WEBHOOK_COLUMNS)[number]>): WebhookRow {
  return {
    id: row.id,
    clientId: row.client_id,
    callbackUrl: row.callback_url,
    alias: row.alias,
    events: row.events,
    secret: row.secret,
    createdAt: row.created_at,
  };
}

/** The live webhooks of these clients, by client: one query for a whole batch of the worker. */
export async function liveWebhooks(
  db: Kysely<DB>,
  clientIds: readonly string[],
): Promise<Map<string, WebhookRow[]>> {
  const rows = await db
    .selectFrom('webhooks')
    .select(WEBHOOK_COLUMNS)
    .where('client_id', '=', sql<string>`any(${[...new Set(clientIds)]}::text[])`)
    .where('deleted_at', 'is', null)
    .execute();
  const byClient = new Map<string, WebhookRow[]>();
  for (const row of rows) {
    const webhook = toWebhookRow(row);
    const ofClient = byClient.get(webhook.clientId);
    if (ofClient) ofClient.push(webhook);
    else byClient.set(webhook.clientId, [webhook]);
  }
  return byClient;
}

export class SqlWebhookRepository implements WebhookRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(webhook: WebhookRow): Promise<void> {
    await this.db
      .insertInto('webhooks')
      .values({
        id: webhook.id,
        client_id: webhook.clientId,
        callback_url: webhook.callbackUrl,
        alias: webhook.alias,
        events: webhook.events,
        secret: webhook.secret,
        created_at: webhook.createdAt,
      })
      .execute();
  }

  async find(clientId: string, id: string): Promise<WebhookRow | null> {
    const row = await this.db
      .selectFrom('webhooks')
      .select(WEBHOOK_COLUMNS)
      .where('id', '=', id)
      .where('client_id', '=', clientId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toWebhookRow(row) : null;
  }

  async delete(clientId: string, id: string, at: Date): Promise<boolean> {
    const { numUpdatedRows } = await this.db
      .updateTable('webhooks')
      .set({ deleted_at: at })
      .where('id', '=', id)
      .where('client_id', '=', clientId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return numUpdatedRows === 1n;
  }
}
