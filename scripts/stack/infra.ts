import { join } from 'node:path';

import { DEFAULT_ROLE_PREFIX, describeServiceDatabase, rolePassword } from '../db/service-databases';
import { withDatabase, withLogin } from '../db/urls';
import type { LocalSecrets } from './local-secrets';
import type { Infra } from './services';

/** The connection that may create and drop databases and roles. */
export function adminUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_ADMIN_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/**
 * Where the services find the infrastructure, from the same variables and defaults as
 * scripts/infra/ensure.mjs and `pnpm db:migrate`: each service logs in as the role db:migrate made for it.
 */
export function infraFromEnv(env: NodeJS.ProcessEnv, servicesRoot: string, secrets: LocalSecrets): Infra {
  const adminUrl = adminUrlFromEnv(env);
  const database = env.SIKA_DB_NAME ?? 'sika';
  return {
    databaseUrlFor(service) {
      const described = describeServiceDatabase(
        join(servicesRoot, service),
        env.SIKA_DB_ROLE_PREFIX ?? DEFAULT_ROLE_PREFIX,
      );
      if (!described) throw new Error(`services/${service} has no Prisma schema, so no database`);
      return withLogin(withDatabase(adminUrl, database), described.role, rolePassword(described, env));
    },
    amqpUrl: env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    secrets,
  };
}
