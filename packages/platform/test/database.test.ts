import { setTimeout as sleep } from 'node:timers/promises';
import { createTestSchema, type TestSchema } from '@sika/testing';
import { sql, type Kysely } from 'kysely';

import { AppError, Database, createMetrics, type DatabaseOptions } from '@sika/platform';

/** How long pg's pool keeps an idle connection unless told otherwise. */
const PG_IDLE_TIMEOUT_MS = 10_000;

interface Tables {
  movements: {
    id: string;
    amount: bigint;
    body: Buffer | null;
    tags: string[] | null;
    at: Date | null;
    details: unknown;
  };
}

let testSchema: TestSchema;
const databases: Database<Tables>[] = [];

function open(options: Omit<DatabaseOptions, 'url' | 'schema'> = {}): Database<Tables> {
  const database = new Database<Tables>({
    url: testSchema.databaseUrl,
    schema: testSchema.schema,
    ...options,
  });
  databases.push(database);
  return database;
}

async function rowsOf<Row>(client: Kysely<Tables>, query: ReturnType<typeof sql<Row>>): Promise<Row[]> {
  return (await query.execute(client)).rows;
}

beforeAll(async () => {
  testSchema = await createTestSchema({ prefix: 'platform_sql' });
  await testSchema.query(
    'CREATE TABLE movements (id text PRIMARY KEY, amount bigint NOT NULL, body bytea, tags text[], at timestamptz, details jsonb)',
  );
});

afterAll(async () => {
  await Promise.all(databases.map((database) => database.destroy()));
  await testSchema.drop();
});

beforeEach(() => testSchema.query('TRUNCATE movements'));

describe('Database', () => {
  it("runs in the service's schema, with int8 as bigint and bytes as Buffers", async () => {
    const database = open();
    const at = new Date('2026-11-26T10:00:00.000Z');
    const inserted = await database
      .insertInto('movements')
      .values({
        id: 'mv_1',
        amount: 9_007_199_254_740_993n,
        body: Buffer.from([1, 2, 3]),
        tags: ['a', 'b'],
        at,
        details: sql`${JSON.stringify({ fee: 150 })}::jsonb`,
      })
      .executeTakeFirst();
    const rows = await database
      .selectFrom('movements')
      .select(['id', 'amount', 'body', 'tags', 'at', 'details', sql<bigint>`count(*) OVER ()`.as('total')])
      .where('id', '=', sql<string>`any(${['mv_1']}::text[])`)
      .execute();

    expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    expect(rows).toEqual([
      {
        id: 'mv_1',
        amount: 9_007_199_254_740_993n,
        body: Buffer.from([1, 2, 3]),
        tags: ['a', 'b'],
        at,
        details: { fee: 150 },
        total: 1n,
      },
    ]);
    expect(await rowsOf(database, sql`SHOW search_path`)).toEqual([{ search_path: testSchema.schema }]);
  });

  it('prepares one statement per SQL text, whatever the values', async () => {
    const database = open({ maxConnections: 1 });
    for (const amount of [1, 2, 3]) {
      await database
        .insertInto('movements')
        .values({ id: `mv_${amount}`, amount: BigInt(amount) })
        .execute();
    }
    const prepared = await rowsOf(
      database,
      sql<{
        count: bigint;
      }>`SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'insert into "movements"%'`,
    );
    expect(prepared).toEqual([{ count: 1n }]);
  });

  it('commits a transaction whose callback resolves, and rolls back one that throws', async () => {
    const database = open();
    await database.transact(async (tx) => {
      await tx.insertInto('movements').values({ id: 'mv_kept', amount: 100n }).execute();
    });
    const failing = database.transact(async (tx) => {
      await tx.insertInto('movements').values({ id: 'mv_lost', amount: 200n }).execute();
      throw new Error('the effect failed');
    });

    await expect(failing).rejects.toThrow('the effect failed');
    expect(await testSchema.query('SELECT id FROM movements')).toEqual([{ id: 'mv_kept' }]);
  });

  it('commits without waiting for the disk only where asked: in one transaction, or in a whole pool', async () => {
    const database = open({ maxConnections: 1 });
    const synchronousCommit = (client: Kysely<Tables>) =>
      rowsOf(client, sql<{ synchronous_commit: string }>`SHOW synchronous_commit`);
    const usual = await synchronousCommit(database);

    const inside = await database.transact(
      async (tx) => {
        await tx.insertInto('movements').values({ id: 'mv_unflushed', amount: 100n }).execute();
        return synchronousCommit(tx);
      },
      { asynchronousCommit: true },
    );

    expect(usual).not.toEqual([{ synchronous_commit: 'off' }]);
    expect(inside).toEqual([{ synchronous_commit: 'off' }]);
    expect(await testSchema.query('SELECT id FROM movements')).toEqual([{ id: 'mv_unflushed' }]);
    expect(await synchronousCommit(database)).toEqual(usual);
    expect(await database.transact(synchronousCommit)).toEqual(usual);
    // A transaction begun inside another's callback takes the defaults, not the outer one's options.
    const roomy = open({ maxConnections: 2 });
    const nested = await roomy.transact(() => roomy.transact(synchronousCommit), {
      asynchronousCommit: true,
    });
    expect(nested).toEqual(usual);
    expect(await synchronousCommit(open({ asynchronousCommit: true }))).toEqual([
      { synchronous_commit: 'off' },
    ]);
  });

  it('rolls back a transaction that outlived its timeout, and refuses its later queries', async () => {
    const database = open();
    const slow = database.transact(
      async (tx) => {
        await tx.insertInto('movements').values({ id: 'mv_slow', amount: 1n }).execute();
        await sql`SELECT pg_sleep(0.2)`.execute(tx);
        await tx.insertInto('movements').values({ id: 'mv_late', amount: 2n }).execute();
      },
      { timeout: 100 },
    );

    await expect(slow).rejects.toThrow('outlived its timeout');
    expect(await testSchema.query('SELECT id FROM movements')).toEqual([]);
  });

  it('answers service_unavailable when no connection frees up in time, counts it, then serves again', async () => {
    const metrics = createMetrics({ service: 'pool-test' });
    const database = open({ maxConnections: 1, acquireTimeoutMs: 50, metrics });
    let release!: () => void;
    let held!: () => void;
    const connectionHeld = new Promise<void>((resolve) => (held = resolve));
    // The holder may wait longer than the others: opening the pool's first connection on a loaded machine
    // can take more than 50 ms, and the test is about the one that comes after.
    const holding = database.transact(
      async (tx) => {
        await sql`SELECT 1`.execute(tx);
        held();
        await new Promise<void>((resolve) => (release = resolve));
      },
      { maxWait: 10_000 },
    );
    await connectionHeld;

    const refused = await sql`SELECT 1`.execute(database).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('service_unavailable');
    expect(await metrics.registry.getSingleMetricAsString('sika_db_pool_saturated_total')).toContain(
      'sika_db_pool_saturated_total{service="pool-test"} 1',
    );

    release();
    await holding;
    expect(await rowsOf(database, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  it("keeps the connections it opened through a lull longer than pg's idle timeout (10 s)", async () => {
    const database = open({ maxConnections: 3 });
    // Three queries at once, each on a connection of its own: the backends serving a burst.
    const burst = async () =>
      new Set(
        (
          await Promise.all(
            [1, 2, 3].map(() =>
              rowsOf(database, sql<{ pid: number }>`SELECT pg_backend_pid() AS pid FROM pg_sleep(0.1)`),
            ),
          )
        ).map(([row]) => row?.pid),
      );
    const before = await burst();
    await sleep(PG_IDLE_TIMEOUT_MS + 1_000);

    expect(before.size).toBe(3);
    expect(await burst()).toEqual(before);
  });
});
