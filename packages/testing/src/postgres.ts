import { escapeIdentifier, Pool, type QueryResultRow } from 'pg';
import { resolveDatabaseUrl } from './infra';
import { applyMigrations } from './migrations';
import { testSchemaName, withSearchPath } from './schema-names';

export interface TestSchema {
  /** e.g. `t_outbox_k3j9x0a1b2`. */
  schema: string;
  /** Server URL without search_path: what `createPrismaClient(Ctor, { url, schema })` takes. */
  databaseUrl: string;
  /** The same URL with search_path set to the schema, for child processes and tools that take only a URL. */
  url: string;
  /** Connections of this pool see the schema first. */
  pool: Pool;
  query<Row extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Drops the schema with everything in it and closes the pool. */
  drop(): Promise<void>;
}

export interface CreateTestSchemaOptions {
  /** Names the test in the schema name, to recognise leftovers. */
  prefix?: string;
  /** Defaults to resolveDatabaseUrl(). */
  databaseUrl?: string;
  /** A Prisma migrations folder to apply right away (see applyMigrations). */
  migrationsDir?: string;
}

/**
 * A fresh schema per test (or per test file): tests sharing one database never see each other's rows,
 * can run in parallel and in any order, and cost a CREATE SCHEMA instead of a CREATE DATABASE.
 */
export async function createTestSchema(options: CreateTestSchemaOptions = {}): Promise<TestSchema> {
  const databaseUrl = options.databaseUrl ?? (await resolveDatabaseUrl());
  const schema = testSchemaName(options.prefix);
  const url = withSearchPath(databaseUrl, schema);
  const pool = new Pool({ connectionString: url, max: 4 });
  const drop = async (): Promise<void> => {
    try {
      await pool.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`);
    } finally {
      await pool.end();
    }
  };
  try {
    await pool.query(`CREATE SCHEMA ${escapeIdentifier(schema)}`);
    if (options.migrationsDir)
      await applyMigrations({ databaseUrl, schema, migrationsDir: options.migrationsDir });
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    schema,
    databaseUrl,
    url,
    pool,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    drop,
  };
}
