import { createTestSchema, waitFor, type TestSchema } from '@sika/testing';

import { SqlDatabase, toAppError } from '@sika/platform';

/**
 * A database that restarts under load: the statements on its way out fail, connections are refused until it is
 * back. Those are outages, answered 503 service_unavailable with Retry-After (the client's retry succeeds),
 * never 500. Driven by a real Postgres: a connection ended by the server (what a restart does to every one),
 * and a server that refuses connections.
 */

let testSchema: TestSchema;
const databases: SqlDatabase[] = [];

beforeAll(async () => {
  testSchema = await createTestSchema({ prefix: 'platform_unavailable' });
});

afterAll(async () => {
  await Promise.all(databases.map((database) => database.$disconnect().catch(() => undefined)));
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
  const database = new SqlDatabase({
    url: testSchema.databaseUrl,
    schema: testSchema.schema,
    maxConnections: 1,
  });
  databases.push(database);
  // One connection: the statement below runs on this backend.
  const [row] = await database.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const running = failureOf(database.$queryRaw`SELECT pg_sleep(5)`);
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
  await expect(database.$queryRaw`SELECT 1 AS one`).resolves.toEqual([{ one: 1 }]);
});

it('turns a transaction whose connection the server terminated into service_unavailable', async () => {
  const database = new SqlDatabase({
    url: testSchema.databaseUrl,
    schema: testSchema.schema,
    maxConnections: 1,
  });
  databases.push(database);
  const error = await failureOf(
    database.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await testSchema.query('SELECT pg_terminate_backend($1)', [row?.pid]);
      await tx.$queryRaw`SELECT 1`;
    }),
  );
  expect(toAppError(error).code).toBe('service_unavailable');
});

it('turns a database that refuses connections into service_unavailable', async () => {
  const refusing = new URL(testSchema.databaseUrl);
  refusing.port = '1';
  const database = new SqlDatabase({ url: refusing.href, schema: testSchema.schema });
  databases.push(database);
  const error = await failureOf(database.$queryRaw`SELECT 1`);
  expect(toAppError(error).code).toBe('service_unavailable');
});
