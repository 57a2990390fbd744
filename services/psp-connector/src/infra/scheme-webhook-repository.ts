import type { SchemeWebhookAccess, SchemeWebhookRepository, SchemeWebhookRow } from '../app/ports';
import { isMode, type Mode } from '../domain/mode';
import type { Prisma, PspPrismaClient } from './prisma-client';

/** Registration calls the participant while holding the lock: allow for a few slow HTTP exchanges. */
const REGISTRATION_TIMEOUT_MS = 60_000;

function access(client: PspPrismaClient | Prisma.TransactionClient): SchemeWebhookAccess {
  return {
    async find(mode: Mode): Promise<SchemeWebhookRow | null> {
      const row = await client.schemeWebhook.findUnique({ where: { mode } });
      if (!row || !isMode(row.mode)) return null;
      return { ...row, mode: row.mode };
    },
    async save(row: SchemeWebhookRow): Promise<void> {
      await client.schemeWebhook.upsert({ where: { mode: row.mode }, create: row, update: row });
    },
  };
}

export class PrismaSchemeWebhookRepository implements SchemeWebhookRepository {
  private readonly direct: SchemeWebhookAccess;

  constructor(private readonly prisma: PspPrismaClient) {
    this.direct = access(prisma);
  }

  find(mode: Mode): Promise<SchemeWebhookRow | null> {
    return this.direct.find(mode);
  }

  save(row: SchemeWebhookRow): Promise<void> {
    return this.direct.save(row);
  }

  withRegistrationLock<T>(mode: Mode, work: (access: SchemeWebhookAccess) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      async (tx) => {
        // Transaction-scoped advisory lock: released at commit or rollback, even if the process dies.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`psp.scheme_webhooks.${mode}`}))`;
        return work(access(tx));
      },
      { timeout: REGISTRATION_TIMEOUT_MS, maxWait: REGISTRATION_TIMEOUT_MS },
    );
  }
}
