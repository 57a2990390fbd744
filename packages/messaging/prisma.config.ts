import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

/**
 * Prisma CLI configuration for this package's test schema (test/prisma/schema). `engine: 'js'` with the
 * pg adapter replaces the native schema engine, which is never downloaded here. Only `migrate diff` (the
 * `sql:test` script) connects; it reads the schema files and writes SQL, changing nothing in the database.
 */
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'test/prisma/schema',
  async adapter() {
    const connectionString = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    // allowExitOnIdle: the CLI does not close the pool, which would otherwise keep it alive for 10 s.
    return new PrismaPg({ connectionString, allowExitOnIdle: true });
  },
});
