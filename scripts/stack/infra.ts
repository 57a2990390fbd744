import { createHmac } from 'node:crypto';
import { join } from 'node:path';

import {
  DEFAULT_ROLE_PREFIX,
  describeServiceDatabase,
  localDatabaseName,
  rolePassword,
} from '../db/service-databases';
import { withDatabase, withLogin } from '../db/urls';
import { brokerUser, type BrokerService } from '../../packages/messaging/src/accounts';
import { throughSocket } from './database-socket';
import { LOCAL_TLS_DIRECTORY, localGrpcTlsEnv } from './local-certificates';
import type { LocalSecrets } from './local-secrets';
import type { Infra } from './services';

/** The connection that may create and drop databases and roles. */
export function adminUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_ADMIN_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/**
 * Where the services find the infrastructure, from the same variables and defaults as
 * scripts/infra/ensure.mjs and `pnpm db:migrate`: each service logs in as the runtime role db:migrate made
 * for it (rows only; the schema's owner is for migrations).
 */
export function infraFromEnv(
  env: NodeJS.ProcessEnv,
  servicesRoot: string,
  secrets: LocalSecrets,
  /** The directory of the Unix socket the services reach Postgres through (database-socket.ts), if any. */
  databaseSocket?: string,
): Infra {
  const adminUrl = adminUrlFromEnv(env);
  const database = localDatabaseName(env);
  return {
    databaseUrlFor(service) {
      const described = describeServiceDatabase(
        join(servicesRoot, service),
        env.SIKA_DB_ROLE_PREFIX ?? DEFAULT_ROLE_PREFIX,
      );
      if (!described) throw new Error(`services/${service} has no Prisma schema, so no database`);
      const url = withLogin(
        withDatabase(adminUrl, database),
        described.runtimeRole,
        rolePassword(described, 'runtime', adminUrl, env),
      );
      return databaseSocket === undefined ? url : throughSocket(url, databaseSocket);
    },
    amqpUrlFor: (service) => localBroker(env, secrets).urlFor(service),
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    secrets,
    grpcTlsFor: (identity) => localGrpcTlsEnv(LOCAL_TLS_DIRECTORY, identity),
  };
}

/** The broker of the local stack, and each service's own login on it (broker-users.ts provisions them). */
export interface LocalBroker {
  /** An administrator's URL: AMQP_URL, else the local guest. */
  adminUrl: string;
  /** The vhost of adminUrl, where the services' users get their permissions. */
  vhost: string;
  passwordOf(service: BrokerService): string;
  urlFor(service: BrokerService): string;
}

export function localBroker(env: NodeJS.ProcessEnv, secrets: LocalSecrets): LocalBroker {
  const adminUrl = env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const { pathname } = new URL(adminUrl);
  // One key in the local secrets, a password per user: a service added later needs no new secret.
  const passwordOf = (service: BrokerService) =>
    createHmac('sha256', secrets.brokerPasswordKey).update(brokerUser(service)).digest('hex');
  return {
    adminUrl,
    vhost: pathname.length > 1 ? decodeURIComponent(pathname.slice(1)) : '/',
    passwordOf,
    urlFor: (service) => withLogin(adminUrl, brokerUser(service), passwordOf(service)),
  };
}
