import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { runPrisma } from './prisma-cli';
import {
  ensureDatabase,
  ensureRole,
  ensureSchemaOwnedBy,
  grantServiceAccess,
  lockDownDatabase,
  readMigrationState,
  takeMigrationLock,
} from './provision';
import { listServices, rolePassword, type ServiceDatabase } from './service-databases';
import { describeServer, withDatabase, withLogin } from './urls';

export interface MigrateOptions {
  /** A role allowed to create databases, roles and schemas (postgres locally). */
  adminUrl: string;
  /** The one database every service shares, each in its own schema. */
  database: string;
  servicesRoot: string;
  /** `sika_` gives sika_payments; tests use a random prefix because roles are server-wide. */
  rolePrefix: string;
  env: NodeJS.ProcessEnv;
  /** Receives one progress line at a time. */
  log(line: string): void;
}

/**
 * Brings the database to the state the services expect: the database, one locked-down schema and role per
 * service, every committed migration applied by that role. Safe to run any number of times and
 * concurrently. Returns false when a service's migrations failed (the others are still migrated).
 */
export async function migrateServices(options: MigrateOptions): Promise<boolean> {
  const started = Date.now();
  // Read first: a wrong services folder or a bad schema name must fail before anything is created.
  const services = listServices(options.servicesRoot, options.rolePrefix);
  const admin = new Client({ connectionString: options.adminUrl });
  await admin.connect();
  const databaseOutcome = await ensureDatabase(admin, options.database).finally(() => admin.end());

  const databaseUrl = withDatabase(options.adminUrl, options.database);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await takeMigrationLock(db);
    await lockDownDatabase(db, options.database);
    options.log(
      `database ${describeServer(databaseUrl)} ${databaseOutcome}; PUBLIC may not connect nor use schema public`,
    );

    const width = Math.max(0, ...services.map(({ service }) => service.length));
    const reports = await Promise.all(
      services.map(async ({ service, database }) => {
        const label = service.padEnd(width);
        if (!database)
          return { ok: true, line: `${label}  no prisma/schema.prisma nor prisma/schema/, no database` };
        const report = await migrateService(db, databaseUrl, database, options);
        return { ok: report.ok, line: `${label}  ${report.line}` };
      }),
    );
    for (const report of reports) options.log(report.line);
    options.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return reports.every((report) => report.ok);
  } finally {
    await db.end();
  }
}

async function migrateService(
  db: Client,
  databaseUrl: string,
  service: ServiceDatabase,
  options: MigrateOptions,
): Promise<{ ok: boolean; line: string }> {
  const password = rolePassword(service, options.env);
  const roleOutcome = await ensureRole(db, service.role, password);
  const schemaOutcome = await ensureSchemaOwnedBy(db, service.schema, service.role);
  await grantServiceAccess(db, options.database, service);
  const setup = `role ${service.role} ${roleOutcome}, schema ${service.schema} ${schemaOutcome}`;

  const committed = committedMigrations(service.migrationsDir);
  const before = await readMigrationState(db, service.schema);
  const pending = committed.filter((name) => !before.applied.has(name));
  if (committed.length === 0) return { ok: true, line: `${setup}, no migrations yet` };
  // Spawning Prisma costs about a second per service; when nothing is pending it would do nothing anyway.
  if (pending.length === 0 && before.failed.length === 0) {
    return { ok: true, line: `${setup}, up to date (${plural(committed.length, 'migration')})` };
  }

  const run = await runPrisma(['migrate', 'deploy'], {
    databaseUrl: withLogin(databaseUrl, service.role, password),
    dbSchema: service.schema,
    prismaSchemaPath: service.prismaSchemaPath,
    migrationsDir: service.migrationsDir,
  });
  if (!run.ok) {
    return { ok: false, line: `${setup}, FAILED: prisma migrate deploy said:\n${indent(run.output.trim())}` };
  }
  const after = await readMigrationState(db, service.schema);
  const applied = committed.filter((name) => after.applied.has(name) && !before.applied.has(name)).length;
  return {
    ok: true,
    line: `${setup}, ${plural(applied, 'migration')} applied (${committed.length} in total)`,
  };
}

/** Names of the migration folders Prisma would apply, in its order. */
function committedMigrations(migrationsDir: string): string[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, 'migration.sql')),
    )
    .map((entry) => entry.name)
    .sort();
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
