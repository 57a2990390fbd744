import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { runPrisma, type PrismaRun } from './prisma-cli';
import {
  ensureDatabase,
  ensureRole,
  ensureSchemaOwnedBy,
  grantServiceAccess,
  handOverOwnedObjects,
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

/** A service's database with the passwords of its two roles. */
interface ServiceLogins {
  database: ServiceDatabase;
  ownerPassword: string;
  runtimePassword: string;
}

/**
 * Brings the database to the state the services expect: the database, and per service a locked-down
 * schema, its owner role and its runtime role, every committed migration applied by the owner. Safe to run
 * any number of times and concurrently. Returns false when a service's migrations failed (the others are
 * still migrated).
 */
export async function migrateServices(options: MigrateOptions): Promise<boolean> {
  const started = Date.now();
  // Read first: a wrong services folder, a bad schema name or a missing password must fail before
  // anything is created.
  const services = listServices(options.servicesRoot, options.rolePrefix).map(({ service, database }) => ({
    service,
    logins: database && {
      database,
      ownerPassword: rolePassword(database, 'owner', options.adminUrl, options.env),
      runtimePassword: rolePassword(database, 'runtime', options.adminUrl, options.env),
    },
  }));
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
    // One connection runs the DDL, one statement at a time (concurrent GRANTs on one database can fail
    // with "tuple concurrently updated"); only the Prisma processes, the slow part, overlap.
    const plans: MigrationPlan[] = [];
    for (const { service, logins } of services) {
      plans.push(
        logins
          ? await planService(db, databaseUrl, logins, options)
          : {
              label: service,
              done: { ok: true, line: 'no prisma/schema.prisma nor prisma/schema/, no database' },
            },
      );
    }
    const deployed = await deployTwoAtATime(plans);
    const reports: Array<{ ok: boolean; line: string }> = [];
    for (const [index, plan] of plans.entries()) {
      const report = plan.done ?? (await plan.finish?.(deployed[index]));
      if (!report) throw new Error(`no outcome for ${plan.label}`);
      reports.push({ ok: report.ok, line: `${plan.label.padEnd(width)}  ${report.line}` });
    }
    for (const report of reports) options.log(report.line);
    options.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return reports.every((report) => report.ok);
  } finally {
    await db.end();
  }
}

interface Outcome {
  ok: boolean;
  line: string;
}

/**
 * Each plan's Prisma deploy, two processes at a time: one starts while the other migrates. Prisma holds an
 * advisory lock with one key per database for the whole deploy and gives up after waiting 10 s for it, so
 * the seven deploys started at once queued behind each other and the last ones failed (P1002) on a busy
 * machine.
 */
async function deployTwoAtATime(plans: readonly MigrationPlan[]): Promise<(PrismaRun | undefined)[]> {
  const results: (PrismaRun | undefined)[] = new Array(plans.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < plans.length) {
      const index = next++;
      results[index] = await plans[index]?.deploy?.();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

/** What to do for one service: nothing more (`done`), or run Prisma then `finish` with its result. */
interface MigrationPlan {
  label: string;
  done?: Outcome;
  deploy?: () => Promise<PrismaRun>;
  finish?: (run: PrismaRun | undefined) => Promise<Outcome>;
}

async function planService(
  db: Client,
  databaseUrl: string,
  { database: service, ownerPassword, runtimePassword }: ServiceLogins,
  options: MigrateOptions,
): Promise<MigrationPlan> {
  const label = service.service;
  const ownerOutcome = await ensureRole(db, service.ownerRole, ownerPassword);
  const runtimeOutcome = await ensureRole(db, service.runtimeRole, runtimePassword);
  const schemaOutcome = await ensureSchemaOwnedBy(db, service.schema, service.ownerRole);
  const handedOver = await handOverOwnedObjects(db, service.runtimeRole, service.ownerRole);
  await grantServiceAccess(db, options.database, service);
  const setup =
    `owner ${service.ownerRole} ${ownerOutcome}, runtime ${service.runtimeRole} ${runtimeOutcome}, ` +
    `schema ${service.schema} ${schemaOutcome}` +
    (handedOver > 0 ? `, ${plural(handedOver, 'object')} handed from runtime to owner` : '');

  const committed = committedMigrations(service.migrationsDir);
  const before = await readMigrationState(db, service.schema);
  const pending = committed.filter((name) => !before.applied.has(name));
  if (committed.length === 0) return { label, done: { ok: true, line: `${setup}, no migrations yet` } };
  // Spawning Prisma costs about a second per service; when nothing is pending it would do nothing anyway.
  if (pending.length === 0 && before.failed.length === 0) {
    return {
      label,
      done: { ok: true, line: `${setup}, up to date (${plural(committed.length, 'migration')})` },
    };
  }

  return {
    label,
    deploy: () =>
      runPrisma(['migrate', 'deploy'], {
        databaseUrl: withLogin(databaseUrl, service.ownerRole, ownerPassword),
        dbSchema: service.schema,
        prismaSchemaPath: service.prismaSchemaPath,
        migrationsDir: service.migrationsDir,
      }),
    async finish(run) {
      if (!run?.ok) {
        const said = run ? indent(run.output.trim()) : '    (not run)';
        return { ok: false, line: `${setup}, FAILED: prisma migrate deploy said:\n${said}` };
      }
      const after = await readMigrationState(db, service.schema);
      const applied = committed.filter((name) => after.applied.has(name) && !before.applied.has(name)).length;
      return {
        ok: true,
        line: `${setup}, ${plural(applied, 'migration')} applied (${committed.length} in total)`,
      };
    },
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
