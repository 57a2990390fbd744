/* eslint-disable no-console -- a command-line tool: its progress lines are its output. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateServices } from './migrate-services';
import { REPO_ROOT } from './prisma-cli';
import { DEFAULT_ROLE_PREFIX, localDatabaseName } from './service-databases';

const USAGE = `Usage: tsx scripts/db/migrate.ts [--services-root <dir>]

Creates the database and, per service, a schema, the owner role that owns it and the runtime role the
service logs in with (rows only), then applies every service's migrations as its owner. Idempotent.
Environment:
  DATABASE_ADMIN_URL              admin connection (default postgres://postgres@127.0.0.1:5432/postgres)
  SIKA_DB_NAME                    database to create and migrate (default sika)
  SIKA_DB_ROLE_PREFIX             prefix of the service roles (default sika_)
  SIKA_DB_OWNER_PASSWORD_<SCHEMA> password of the owner role, e.g. SIKA_DB_OWNER_PASSWORD_PAYMENTS
  SIKA_DB_PASSWORD_<SCHEMA>       password of the runtime role, e.g. SIKA_DB_PASSWORD_PAYMENTS
Both passwords default to the role's name, on a local server only (localhost, 127.0.0.1, ::1, a socket).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'services-root': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const ok = await migrateServices({
    adminUrl: process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    database: localDatabaseName(process.env),
    servicesRoot: path.resolve(values['services-root'] ?? path.join(REPO_ROOT, 'services')),
    rolePrefix: process.env.SIKA_DB_ROLE_PREFIX ?? DEFAULT_ROLE_PREFIX,
    env: process.env,
    log: (line) => console.log(`db:migrate  ${line}`),
  });
  process.exitCode = ok ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(`db:migrate  failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
