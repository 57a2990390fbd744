import type { Database, SecretBox } from '@sika/platform';
import { sql, type Kysely, type Selectable } from 'kysely';

import type { PispiWebhookAccess, PispiWebhookStore, PispiWebhookRow, SecretSealing } from '../app/ports';
import { isMode, type Mode } from '../domain/mode';
import type { DB } from '../generated/database';

/** Registration calls the participant while holding the lock: allow for a few slow HTTP exchanges. */
const REGISTRATION_TIMEOUT_MS = 60_000;

/** What a sealed secret is bound to: a ciphertext copied onto another mode's or registration's row won't open. */
function contextOf(mode: Mode, webhookId: string): string {
  return `psp.scheme_webhooks:${mode}:${webhookId}`;
}

/** The mode's stored registration, as in the table. */
async function storedWebhook(
  client: Kysely<DB>,
  mode: Mode,
): Promise<Selectable<DB['scheme_webhooks']> | null> {
  const row = await client
    .selectFrom('scheme_webhooks')
    .select(['mode', 'webhook_id', 'callback_url', 'secret', 'secret_ciphertext', 'registered_at'])
    .where('mode', '=', mode)
    .executeTakeFirst();
  return row ?? null;
}

function access(client: Kysely<DB>, box: SecretBox): PispiWebhookAccess {
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
      await client
        .insertInto('scheme_webhooks')
        .values({
          mode,
          webhook_id: webhookId,
          callback_url: callbackUrl,
          secret: null,
          secret_ciphertext: sealed,
          registered_at: registeredAt,
        })
        .onConflict((oc) =>
          oc.column('mode').doUpdateSet((eb) => ({
            webhook_id: eb.ref('excluded.webhook_id'),
            callback_url: eb.ref('excluded.callback_url'),
            secret: null,
            secret_ciphertext: eb.ref('excluded.secret_ciphertext'),
            registered_at: eb.ref('excluded.registered_at'),
          })),
        )
        .execute();
    },
    async reseal(mode: Mode): Promise<SecretSealing> {
      const row = await storedWebhook(client, mode);
      if (!row) return 'absent';
      if (row.secret === null && row.secret_ciphertext !== null && box.isCurrent(row.secret_ciphertext)) {
        return 'current';
      }
      const context = contextOf(mode, row.webhook_id);
      const secret = row.secret ?? box.open(row.secret_ciphertext ?? '', context);
      await client
        .updateTable('scheme_webhooks')
        .set({ secret: null, secret_ciphertext: box.seal(secret, context) })
        .where('mode', '=', mode)
        .execute();
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
    private readonly db: Database<DB>,
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
    return this.db.transact(
      async (tx) => {
        // Waiting for another replica's registration may outlast the pool's statement timeout.
        await tx
          .selectNoFrom((eb) =>
            eb
              .fn('set_config', [
                sql.lit('statement_timeout'),
                eb.val(String(REGISTRATION_TIMEOUT_MS)),
                sql.lit(true),
              ])
              .as('set_config'),
          )
          .execute();
        // Transaction-scoped advisory lock: released at commit or rollback, even if the process dies.
        await tx
          .selectNoFrom((eb) =>
            eb
              .fn('pg_advisory_xact_lock', [eb.fn('hashtext', [eb.val(`psp.scheme_webhooks.${mode}`)])])
              .as('locked'),
          )
          .execute();
        return work(access(tx, this.box));
      },
      { timeout: REGISTRATION_TIMEOUT_MS, maxWait: REGISTRATION_TIMEOUT_MS },
    );
  }
}
