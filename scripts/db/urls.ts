/** Same server and options, another database. Needs a TCP URL (postgres://host:port/db). */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** Same server, database and options, another login. */
export function withLogin(databaseUrl: string, user: string, password: string): string {
  const url = new URL(databaseUrl);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** `host:port/database` without credentials, for log lines. */
export function describeServer(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.host}${url.pathname}`;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * Whether the URL reaches a server on this machine: a loopback host or a Unix socket. The host is found the
 * way pg finds it: a `host` parameter, else the URL's host, else PGHOST, else localhost.
 */
export function isLocalServer(databaseUrl: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const url = new URL(databaseUrl);
  const host =
    url.searchParams.get('host') ||
    decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1') ||
    env.PGHOST ||
    'localhost';
  return host.startsWith('/') || LOOPBACK_HOSTS.has(host.toLowerCase());
}
