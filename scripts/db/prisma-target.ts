import path from 'node:path';
import { describeServiceDatabase, migrationsDirFor } from './service-databases';

/** What the root prisma.config.ts works on: one service's Prisma schema, migrations and Postgres schema. */
export interface PrismaTarget {
  prismaSchemaPath?: string;
  migrationsDir?: string;
  dbSchema?: string;
}

/**
 * SIKA_PRISMA_SCHEMA, SIKA_PRISMA_MIGRATIONS and SIKA_DB_SCHEMA when set (scripts/db sets all three); for
 * what is not set, the service in the current directory, so `cd services/ledger && prisma ... --config
 * ../../prisma.config.ts` needs nothing but DATABASE_URL.
 */
export function resolvePrismaTarget(env: NodeJS.ProcessEnv, cwd: string): PrismaTarget {
  const service = describeServiceDatabase(cwd);
  const prismaSchemaPath = env.SIKA_PRISMA_SCHEMA
    ? path.resolve(cwd, env.SIKA_PRISMA_SCHEMA)
    : service?.prismaSchemaPath;
  const migrationsDir = env.SIKA_PRISMA_MIGRATIONS
    ? path.resolve(cwd, env.SIKA_PRISMA_MIGRATIONS)
    : prismaSchemaPath && migrationsDirFor(prismaSchemaPath);
  return { prismaSchemaPath, migrationsDir, dbSchema: env.SIKA_DB_SCHEMA ?? service?.schema };
}
