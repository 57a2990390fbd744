import type { SecretBox, SqlDatabase, SqlTransaction } from '@sika/platform';

import type { PispiWebhookAccess, PispiWebhookStore, PispiWebhookRow, SecretSealing } from '../app/ports';
import { isMode, type Mode } from '../domain/mode';

/** Registration calls the participant while holding the lock: allow for a few slow HTTP exchanges. */
const REGISTRATION_TIMEOUT_MS = 60_000;

/** What a sealed secret is bound to: a ciphertext copied onto another mode's or registration's row won't open. */
function contextOf(mode: Mode, webhookId: string): string {
  return `psp.scheme_webhooks:${mode}:${webhookId}`;
}

interface StoredWebhook {
  mode: string;
  webhook_id: string;
  callback_url: string;
  secret: string | null;
  secret_ciphertext: string | null;
  registered_at: Date;
}

/** The mode's stored registration, as in the table. */
async function storedWebhook(client: SqlTransaction, mode: Mode): Promise<StoredWebhook | null> {
  const rows = await client.$queryRaw<StoredWebhook[]>`
    SELECT mode, webhook_id, callback_url, secret, secret_ciphertext, registered_at
      FROM scheme_webhooks WHERE mode = ${mode}`;
  return rows[0] ?? null;
}

function access(client: SqlTransaction, box: SecretBox): PispiWebhookAccess {
  return {
    async find(mode: Mode): Promise<PispiWebhookRow | null> {
      const row = await storedWebhook(client, mode);
      if (!row || !isMode(row.mode)) return null;
      const context = contextOf(row.mode, row.webhook_id);
      // A clear value was written by an older version after this row was sealed (a rollout in progress): newer.
      const secret = row.secret ?? box.open(row.secret_ciphertext ?? '', context);
      return {
        mode: row.mode,
        webhookId: row.webhook_id,
        callbackUrl: row.callback_url,
        secret,
        registeredAt: row.registered_at,
      };
    },
    async save({ mode, webhookId, callbackUrl, secret, registeredAt }: PispiWebhookRow): Promise<void> {
      const sealed = box.seal(secret, contextOf(mode, webhookId));
      await client.$executeRaw`
        INSERT INTO scheme_webhooks (mode, webhook_id, callback_url, secret, secret_ciphertext, registered_at)
        VALUES (${mode}, ${webhookId}, ${callbackUrl}, NULL, ${sealed}, ${registeredAt})
        ON CONFLICT (mode) DO UPDATE
          SET webhook_id = EXCLUDED.webhook_id, callback_url = EXCLUDED.callback_url, secret = NULL,
              secret_ciphertext = EXCLUDED.secret_ciphertext, registered_at = EXCLUDED.registered_at`;
    },
    async reseal(mode: Mode): Promise<SecretSealing> {
      const row = await storedWebhook(client, mode);
      if (!row) return 'absent';
      if (row.secret === null && row.secret_ciphertext !== null && box.isCurrent(row.secret_ciphertext)) {
        return 'current';
      }
      const context = contextOf(mode, row.webhook_id);
      const secret = row.secret ?? box.open(row.secret_ciphertext ?? '', context);
      await client.$executeRaw`
        UPDATE scheme_webhooks SET secret = NULL, secret_ciphertext = ${box.seal(secret, context)}
         WHERE mode = ${mode}`;
      return row.secret === null ? 'resealed' : 'sealed';
    },
  };
}

/**
 * The registrations, their secrets sealed with the SecretBox of CALLBACK_SECRET_KEY: in clear only in memory,
 * never in the database.
 */
export class SqlPispiWebhookStore implements PispiWebhookStore {
  private readonly direct: PispiWebhookAccess;

  constructor(
    private readonly db: SqlDatabase,
    private readonly box: SecretBox,
  ) {
    this.direct = access(db, box);
  }

  find(mode: Mode): Promise<PispiWebhookRow | null> {
    return this.direct.find(mode);
  }

  save(row: PispiWebhookRow): Promise<void> {
    return this.direct.save(row);
  }

  reseal(mode: Mode): Promise<SecretSealing> {
    return this.direct.reseal(mode);
  }

  withRegistrationLock<T>(mode: Mode, work: (access: PispiWebhookAccess) => Promise<T>): Promise<T> {
    return this.db.$transaction(
      async (tx) => {
        // Waiting for another replica's registration may outlast the pool's statement timeout.
        await tx.$queryRaw`SELECT set_config('statement_timeout', ${String(REGISTRATION_TIMEOUT_MS)}, true)`;
        // Transaction-scoped advisory lock: released at commit or rollback, even if the process dies.
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`psp.scheme_webhooks.${mode}`}))`;
        return work(access(tx, this.box));
      },
      { timeout: REGISTRATION_TIMEOUT_MS, maxWait: REGISTRATION_TIMEOUT_MS },
    );
  }
}
