import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from 'pg';

/** Where Debian's packages and upstream's builds of Postgres put its Unix socket. */
export const SOCKET_DIRECTORIES = ['/var/run/postgresql', '/tmp'] as const;

/** The same login and database, reached through the Unix socket in `directory` (pg and Prisma read `host`). */
export function throughSocket(databaseUrl: string, directory: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('host', directory);
  return url.toString();
}

export interface SocketProbe {
  exists(path: string): boolean;
  canLogIn(databaseUrl: string): Promise<boolean>;
}

export const systemSocketProbe: SocketProbe = {
  exists: existsSync,
  async canLogIn(databaseUrl) {
    const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  },
};

/**
 * The directory of the local Postgres's Unix socket when a service's role can log in through it, else
 * undefined (the services stay on TCP). A query costs less CPU on both ends of a Unix socket than of
 * loopback TCP (on the 2-core machine on 2026-11-27, the paid-payment benchmark went from 66–82 to 86–95 paid/s).
 * Only for the default local server: a DATABASE_ADMIN_URL or DATABASE_URL given is used as given. The login
 * is tried because Debian's rule for local sockets is `peer`, which refuses a service's role.
 */
export async function usableDatabaseSocket(
  env: NodeJS.ProcessEnv,
  serviceUrl: string,
  probe: SocketProbe = systemSocketProbe,
): Promise<string | undefined> {
  if (env.DATABASE_ADMIN_URL !== undefined || env.DATABASE_URL !== undefined) return undefined;
  const port = new URL(serviceUrl).port || '5432';
  for (const directory of SOCKET_DIRECTORIES) {
    if (!probe.exists(join(directory, `.s.PGSQL.${port}`))) continue;
    if (await probe.canLogIn(throughSocket(serviceUrl, directory))) return directory;
  }
  return undefined;
}
