import type { SecretBox } from '@sika/platform';

import type {
  SchemeWebhookAccess,
  SchemeWebhookRepository,
  SchemeWebhookRow,
  SecretSealing,
} from '../app/ports';
import { isMode, type Mode } from '../domain/mode';
import type { Prisma, PspPrismaClient } from './prisma-client';

/** Registration calls the participant while holding the lock: allow for a few slow HTTP exchanges. */
const REGISTRATION_TIMEOUT_MS = 60_000;

/** What a sealed secret is bound to: a ciphertext copied onto another mode's or registration's row won't open. */
function contextOf(mode: Mode, webhookId: string): string {
  return `psp.scheme_webhooks:${mode}:${webhookId}`;
}

function access(client: PspPrismaClient | Prisma.TransactionClient, box: SecretBox): SchemeWebhookAccess {
  return {
    async find(mode: Mode): Promise<SchemeWebhookRow | null> {
      const row = await client.schemeWebhook.findUnique({ where: { mode } });
      if (!row || !isMode(row.mode)) return null;
      const { mode: rowMode, webhookId, callbackUrl, registeredAt } = row;
      // A clear value was written by an older version after this row was sealed (a rollout in progress): newer.
      const secret = row.secret ?? box.open(row.secretCiphertext ?? '', contextOf(rowMode, webhookId));
      return { mode: rowMode, webhookId, callbackUrl, secret, registeredAt };
    },
    async save({ secret, ...row }: SchemeWebhookRow): Promise<void> {
      const sealed = {
        ...row,
        secret: null,
        secretCiphertext: box.seal(secret, contextOf(row.mode, row.webhookId)),
      };
      await client.schemeWebhook.upsert({ where: { mode: row.mode }, create: sealed, update: sealed });
    },
    async reseal(mode: Mode): Promise<SecretSealing> {
      const row = await client.schemeWebhook.findUnique({ where: { mode } });
      if (!row) return 'absent';
      if (row.secret === null && row.secretCiphertext !== null && box.isCurrent(row.secretCiphertext)) {
        return 'current';
      }
      const context = contextOf(mode, row.webhookId);
      const secret = row.secret ?? box.open(row.secretCiphertext ?? '', context);
      await client.schemeWebhook.update({
        where: { mode },
        data: { secret: null, secretCiphertext: box.seal(secret, context) },
      });
      return row.secret === null ? 'resealed' : 'sealed';
    },
  };
}

/**
 * The registrations, their secrets sealed with the SecretBox of CALLBACK_SECRET_KEY: in clear only in memory,
 * never in the database.
 */
export class PrismaSchemeWebhookRepository implements SchemeWebhookRepository {
  private readonly direct: SchemeWebhookAccess;

  constructor(
    private readonly prisma: PspPrismaClient,
    private readonly box: SecretBox,
  ) {
    this.direct = access(prisma, box);
  }

  find(mode: Mode): Promise<SchemeWebhookRow | null> {
    return this.direct.find(mode);
  }

  save(row: SchemeWebhookRow): Promise<void> {
    return this.direct.save(row);
  }

  reseal(mode: Mode): Promise<SecretSealing> {
    return this.direct.reseal(mode);
  }

  withRegistrationLock<T>(mode: Mode, work: (access: SchemeWebhookAccess) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      async (tx) => {
        // Transaction-scoped advisory lock: released at commit or rollback, even if the process dies.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`psp.scheme_webhooks.${mode}`}))`;
        return work(access(tx, this.box));
      },
      { timeout: REGISTRATION_TIMEOUT_MS, maxWait: REGISTRATION_TIMEOUT_MS },
    );
  }
}
