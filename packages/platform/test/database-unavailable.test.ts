import { createTestSchema, waitFor, type TestSchema } from '@sika/testing';

import { sql } from 'kysely';

import { Database, toAppError } from '@sika/platform';

/**
 * A database that restarts under load: the statements on its way out fail, connections are refused until it is
 * back. Those are outages, answered 503 service_unavailable with Retry-After (the client's retry succeeds),
 * never 500. Driven by a real Postgres: a connection ended by the server (what a restart does to every one),
 * and a server that refuses connections.
 */

let testSchema: TestSchema;
const databases: Database<object>[] = [];

beforeAll(async () => {
  testSchema = await createTestSchema({ prefix: 'platform_unavailable' });
});

afterAll(async () => {
  await Promise.all(databases.map((database) => database.destroy().catch(() => undefined)));
  await testSchema.drop();
});

/** The error a promise failed with. */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

it('turns a statement whose connection the server terminated (as a restart does) into service_unavailable', async () => {
  const database = new Database<object>({
    url: testSchema.databaseUrl,
    schema: testSchema.schema,
    maxConnections: 1,
  });
  databases.push(database);
  // One connection: the statement below runs on this backend.
  const {
    rows: [row],
  } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(database);
  const running = failureOf(sql`SELECT pg_sleep(5)`.execute(database));
  await waitFor(async () => {
    const [activity] = await testSchema.query<{ state: string }>(
      'SELECT state FROM pg_stat_activity WHERE pid = $1',
      [row?.pid],
    );
    return activity?.state === 'active';
  });
  await testSchema.query('SELECT pg_terminate_backend($1)', [row?.pid]);

  expect(toAppError(await running).code).toBe('service_unavailable');
  // The pool replaces the connection: once the database is back, the retry succeeds.
  expect((await sql`SELECT 1 AS one`.execute(database)).rows).toEqual([{ one: 1 }]);
});

it('turns a transaction whose connection the server terminated into service_unavailable', async () => {
  const database = new Database<object>({
    url: testSchema.databaseUrl,
    schema: testSchema.schema,
    maxConnections: 1,
  });
  databases.push(database);
  const error = await failureOf(
    database.transact(async (tx) => {
      const {
        rows: [row],
      } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(tx);
      await testSchema.query('SELECT pg_terminate_backend($1)', [row?.pid]);
      await sql`SELECT 1`.execute(tx);
    }),
  );
  expect(toAppError(error).code).toBe('service_unavailable');
});

it('turns a database that refuses connections into service_unavailable', async () => {
  const refusing = new URL(testSchema.databaseUrl);
  refusing.port = '1';
  const database = new Database<object>({ url: refusing.href, schema: testSchema.schema });
  databases.push(database);
  const error = await failureOf(sql`SELECT 1`.execute(database));
  expect(toAppError(error).code).toBe('service_unavailable');
});
