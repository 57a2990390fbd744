import type { SqlDatabase, SqlTransaction } from '@sika/platform';

import type { WebhookRepository, WebhookRow } from '../app/ports';

interface WebhookColumns {
  id: string;
  client_id: string;
  callback_url: string;
  alias: string | null;
  events: string[];
  secret: string;
  created_at: Date;
}

function toWebhookRow(row: WebhookColumns): WebhookRow {
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
  tx: SqlTransaction,
  clientIds: readonly string[],
): Promise<Map<string, WebhookRow[]>> {
  const rows = await tx.$queryRaw<WebhookColumns[]>`
    SELECT id, client_id, callback_url, alias, events, secret, created_at FROM webhooks
    WHERE client_id = ANY(${[...new Set(clientIds)]}::text[]) AND deleted_at IS NULL`;
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
  constructor(private readonly db: SqlDatabase) {}

  async insert(webhook: WebhookRow): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO webhooks (id, client_id, callback_url, alias, events, secret, created_at)
      VALUES (${webhook.id}, ${webhook.clientId}, ${webhook.callbackUrl}, ${webhook.alias}, ${webhook.events},
        ${webhook.secret}, ${webhook.createdAt})`;
  }

  async find(clientId: string, id: string): Promise<WebhookRow | null> {
    const [row] = await this.db.$queryRaw<WebhookColumns[]>`
      SELECT id, client_id, callback_url, alias, events, secret, created_at FROM webhooks
      WHERE id = ${id} AND client_id = ${clientId} AND deleted_at IS NULL`;
    return row ? toWebhookRow(row) : null;
  }

  async delete(clientId: string, id: string, at: Date): Promise<boolean> {
    const count = await this.db.$executeRaw`
      UPDATE webhooks SET deleted_at = ${at}
      WHERE id = ${id} AND client_id = ${clientId} AND deleted_at IS NULL`;
    return count === 1;
  }
}
