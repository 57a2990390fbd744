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
