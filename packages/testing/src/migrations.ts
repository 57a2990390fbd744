import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, escapeIdentifier } from 'pg';

export interface Migration {
  name: string;
  sql: string;
}

/**
 * The migrations of a Prisma migrations folder in the order Prisma applies them: every subfolder holding a
 * migration.sql, sorted by name (the names start with a UTC timestamp).
 */
export async function readMigrations(migrationsDir: string): Promise<Migration[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, 'migration.sql')),
    )
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      sql: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8'),
    })),
  );
}

export interface ApplyMigrationsOptions {
  databaseUrl: string;
  /** Must exist already (createTestSchema makes it). */
  schema: string;
  migrationsDir: string;
}

/**
 * Runs a service's committed migrations inside one schema, the way `prisma migrate deploy` would but without
 * spawning the CLI (about a second per call), so every test can afford a fresh schema. All migrations run in
 * one transaction: a broken one leaves nothing behind. Returns the names applied.
 */
export async function applyMigrations({
  databaseUrl,
  schema,
  migrationsDir,
}: ApplyMigrationsOptions): Promise<string[]> {
  const migrations = await readMigrations(migrationsDir);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO ${escapeIdentifier(schema)}`);
    for (const migration of migrations) {
      await runMigration(client, migration);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await client.end();
  }
  return migrations.map((migration) => migration.name);
}

async function runMigration(client: Client, migration: Migration): Promise<void> {
  try {
    // No parameters: pg sends a simple query, which runs every statement of the file.
    await client.query(migration.sql);
  } catch (error) {
    throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
