import { defineConfig } from 'prisma/config';
import { resolvePrismaTarget } from './scripts/db/prisma-target';
import { SchemaScopedPg } from './scripts/db/schema-scoped-adapter';

/**
 * One Prisma config for every service (see scripts/db/README.md). Each service has its own Postgres schema,
 * so the target (Prisma schema, migrations, Postgres schema) comes from SIKA_* variables or from the service
 * folder the command runs in; the connection from DATABASE_URL. Prisma runs on its JS engine through the pg
 * adapter: no native engine is downloaded.
 */
const target = resolvePrismaTarget(process.env, process.cwd());

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  ...(target.prismaSchemaPath && { schema: target.prismaSchemaPath }),
  ...(target.migrationsDir && { migrations: { path: target.migrationsDir } }),
  // Called only by commands that touch a database, so `prisma generate` or `--help` work without these.
  async adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error('prisma.config.ts: set DATABASE_URL to the database to work on');
    if (!target.dbSchema) {
      throw new Error(
        'prisma.config.ts: run from a service folder or set SIKA_DB_SCHEMA (and SIKA_PRISMA_SCHEMA)',
      );
    }
    return new SchemaScopedPg({ connectionString, schema: target.dbSchema });
  },
});
