import { setTimeout as sleep } from 'node:timers/promises';
import { createTestSchema, type TestSchema } from '@sika/testing';

import { AppError, SqlDatabase, createMetrics, type SqlDatabaseOptions } from '@sika/platform';

/** How long pg's pool keeps an idle connection unless told otherwise. */
const PG_IDLE_TIMEOUT_MS = 10_000;

let testSchema: TestSchema;
const databases: SqlDatabase[] = [];

function open(options: Omit<SqlDatabaseOptions, 'url' | 'schema'> = {}): SqlDatabase {
  const database = new SqlDatabase({ url: testSchema.databaseUrl, schema: testSchema.schema, ...options });
  databases.push(database);
  return database;
}

beforeAll(async () => {
  testSchema = await createTestSchema({ prefix: 'platform_sql' });
  await testSchema.query(
    'CREATE TABLE movements (id text PRIMARY KEY, amount bigint NOT NULL, body bytea, tags text[], at timestamptz, details jsonb)',
  );
});

afterAll(async () => {
  await Promise.all(databases.map((database) => database.$disconnect()));
  await testSchema.drop();
});

beforeEach(() => testSchema.query('TRUNCATE movements'));

describe('SqlDatabase', () => {
  it("runs in the service's schema and returns values as Prisma's raw API does", async () => {
    const database = open();
    const at = new Date('2026-11-26T10:00:00.000Z');
    const inserted = await database.$executeRaw`
      INSERT INTO movements (id, amount, body, tags, at, details)
      VALUES (${'mv_1'}, ${9_007_199_254_740_993n}, ${new Uint8Array([1, 2, 3])}, ${['a', 'b']}, ${at},
              ${JSON.stringify({ fee: 150 })}::jsonb)`;
    const rows = await database.$queryRaw<Record<string, unknown>[]>`
      SELECT id, amount, body, tags, at, details, count(*) OVER () AS total FROM movements WHERE id = ANY(${['mv_1']})`;

    expect(inserted).toBe(1);
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
    expect(await database.$queryRaw`SHOW search_path`).toEqual([{ search_path: testSchema.schema }]);
  });

  it('runs one statement text per call site, whatever the values', async () => {
    const database = open({ maxConnections: 1 });
    for (const amount of [1, 2, 3]) {
      await database.$executeRaw`INSERT INTO movements (id, amount) VALUES (${`mv_${amount}`}, ${amount})`;
    }
    const prepared = await database.$queryRaw<{ count: bigint }[]>`
      SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO movements%'`;
    expect(prepared).toEqual([{ count: 1n }]);
  });

  it('commits a transaction whose callback resolves, and rolls back one that throws', async () => {
    const database = open();
    await database.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO movements (id, amount) VALUES (${'mv_kept'}, ${100})`;
    });
    const failing = database.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO movements (id, amount) VALUES (${'mv_lost'}, ${200})`;
      throw new Error('the effect failed');
    });

    await expect(failing).rejects.toThrow('the effect failed');
    expect(await testSchema.query('SELECT id FROM movements')).toEqual([{ id: 'mv_kept' }]);
  });

  it('commits without waiting for the disk only where asked: in one transaction, or in a whole pool', async () => {
    const database = open({ maxConnections: 1 });
    const synchronousCommit = (client: Pick<SqlDatabase, '$queryRaw'>) =>
      client.$queryRaw<{ synchronous_commit: string }[]>`SHOW synchronous_commit`;
    const usual = await synchronousCommit(database);

    const inside = await database.$transaction(
      async (tx) => {
        await tx.$executeRaw`INSERT INTO movements (id, amount) VALUES (${'mv_unflushed'}, ${100})`;
        return synchronousCommit(tx);
      },
      { asynchronousCommit: true },
    );

    expect(usual).not.toEqual([{ synchronous_commit: 'off' }]);
    expect(inside).toEqual([{ synchronous_commit: 'off' }]);
    expect(await testSchema.query('SELECT id FROM movements')).toEqual([{ id: 'mv_unflushed' }]);
    expect(await synchronousCommit(database)).toEqual(usual);
    expect(await database.$transaction(synchronousCommit)).toEqual(usual);
    expect(await synchronousCommit(open({ asynchronousCommit: true }))).toEqual([
      { synchronous_commit: 'off' },
    ]);
  });

  it('rolls back a transaction that outlived its timeout, and refuses its later queries', async () => {
    const database = open();
    const slow = database.$transaction(
      async (tx) => {
        await tx.$executeRaw`INSERT INTO movements (id, amount) VALUES (${'mv_slow'}, ${1})`;
        await tx.$queryRaw`SELECT pg_sleep(0.2)`;
        await tx.$executeRaw`INSERT INTO movements (id, amount) VALUES (${'mv_late'}, ${2})`;
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
    const holding = database.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        held();
        await new Promise<void>((resolve) => (release = resolve));
      },
      { maxWait: 10_000 },
    );
    await connectionHeld;

    const refused = await database.$queryRaw`SELECT 1`.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('service_unavailable');
    expect(await metrics.registry.getSingleMetricAsString('sika_db_pool_saturated_total')).toContain(
      'sika_db_pool_saturated_total{service="pool-test"} 1',
    );

    release();
    await holding;
    expect(await database.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("keeps the connections it opened through a lull longer than pg's idle timeout (10 s)", async () => {
    const database = open({ maxConnections: 3 });
    // Three queries at once, each on a connection of its own: the backends serving a burst.
    const burst = async () =>
      new Set(
        (
          await Promise.all(
            [1, 2, 3].map(
              () => database.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid FROM pg_sleep(0.1)`,
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
