import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { Client, escapeIdentifier } from 'pg';
import { assertPlainIdentifier } from './service-databases';
import { withDatabase } from './urls';

type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>;

export interface SchemaScopedPgOptions {
  connectionString: string;
  /** The service's Postgres schema: search_path of every connection and where Prisma keeps its tables. */
  schema: string;
}

/**
 * The Prisma adapter used by `prisma migrate` for one service schema. It is PrismaPg with two fixes:
 *
 * - Scripts run whole. PrismaPg splits a migration on ';' and sends the pieces one by one on any pool
 *   connection, which breaks function bodies ($$ ... ; ... $$) and string literals with ';', and leaves a
 *   half-applied migration when a statement fails. Sent as one simple query, a migration is one implicit
 *   transaction, as with Prisma's native engine.
 * - A real shadow database. PrismaPg's shadow copies the pool config, whose connection string overrides
 *   the new database name: `migrate diff --from-migrations` would replay every migration on the main
 *   database. It also forgets the schema, so the diff would start from an empty `public`.
 */
export class SchemaScopedPg extends PrismaPg {
  constructor(private readonly target: SchemaScopedPgOptions) {
    assertPlainIdentifier(target.schema, 'Postgres schema');
    super(poolConfig(target.connectionString, target.schema), { schema: target.schema });
  }

  override async connect(): Promise<PgAdapter> {
    return runScriptsWhole(await super.connect());
  }

  override async connectToShadowDb(): Promise<PgAdapter> {
    const { connectionString, schema } = this.target;
    const shadowDatabase = `${SHADOW_PREFIX}${Math.floor(Date.now() / 1000)}_${randomUUID().slice(0, 8)}`;
    await createShadowDatabase(connectionString, shadowDatabase);
    const cancelExitDrop = dropOnExit(connectionString, shadowDatabase);
    const shadowUrl = withDatabase(connectionString, shadowDatabase);
    const adapter = runScriptsWhole(await new PrismaPg(poolConfig(shadowUrl, schema), { schema }).connect());
    await adapter.underlyingDriver().query(`CREATE SCHEMA ${escapeIdentifier(schema)}`);
    const release = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await release();
      await runAdminStatement(
        connectionString,
        `DROP DATABASE IF EXISTS ${escapeIdentifier(shadowDatabase)} WITH (FORCE)`,
      );
      cancelExitDrop();
    };
    return adapter;
  }
}

const SHADOW_PREFIX = 'prisma_shadow_';

/** Run by a child node: the exiting process can no longer wait for a query of its own. */
const DROP_DATABASE_SCRIPT = `
const [pgPath, connectionString, database] = process.argv.slice(1);
const { Client, escapeIdentifier } = require(pgPath);
const client = new Client({ connectionString });
client
  .connect()
  .then(() => client.query('DROP DATABASE IF EXISTS ' + escapeIdentifier(database) + ' WITH (FORCE)'))
  .finally(() => client.end());
`;

/**
 * The CLI calls process.exit() on errors and on a non-empty diff with --exit-code, which cuts an async
 * dispose short and would leave the shadow database behind; so on exit it is dropped synchronously, by a
 * child process. Returns the function that cancels this once dispose has dropped it.
 */
function dropOnExit(connectionString: string, database: string): () => void {
  const drop = (): void => {
    spawnSync(
      process.execPath,
      ['-e', DROP_DATABASE_SCRIPT, require.resolve('pg'), connectionString, database],
      {
        stdio: 'ignore',
        timeout: 15_000,
      },
    );
  };
  process.once('exit', drop);
  return () => process.removeListener('exit', drop);
}

/** No diff runs this long: an older shadow belongs to a CLI killed by a signal before it could drop it. */
const ABANDONED_AFTER_SECONDS = 3600;

/** Creates the shadow database, first dropping the ones killed CLIs left behind. */
async function createShadowDatabase(connectionString: string, name: string): Promise<void> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'prisma\\_shadow\\_%'",
    );
    const now = Date.now() / 1000;
    for (const { datname } of rows) {
      const createdAt = Number(/^prisma_shadow_(\d+)_/.exec(datname)?.[1]);
      if (now - createdAt > ABANDONED_AFTER_SECONDS) {
        await client.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(datname)} WITH (FORCE)`);
      }
    }
    await client.query(`CREATE DATABASE ${escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

function poolConfig(connectionString: string, schema: string) {
  // allowExitOnIdle: the CLI does not always dispose the adapter, and idle pooled connections would keep
  // it alive for idleTimeoutMillis (10 s) after it has finished.
  return { connectionString, options: `-c search_path=${schema}`, allowExitOnIdle: true };
}

function runScriptsWhole(adapter: PgAdapter): PgAdapter {
  adapter.executeScript = async (script: string) => {
    await adapter.underlyingDriver().query(script);
  };
  return adapter;
}

async function runAdminStatement(connectionString: string, sql: string): Promise<void> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
