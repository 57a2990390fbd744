import type { PrismaPg } from '@prisma/adapter-pg';
import { createTestSchema } from '@sika/testing';
import type { TestSchema } from '@sika/testing';

import { createPrismaClient } from '@sika/platform';

/** Stands in for a generated PrismaClient: keeps the adapter it was given, so the test can use it directly. */
class AdapterHolder {
  constructor(readonly options: { adapter: PrismaPg }) {}
}

let testSchema: TestSchema;

beforeAll(async () => {
  testSchema = await createTestSchema({ prefix: 'platform_prisma' });
  await testSchema.query('CREATE TABLE marker (name text)');
  await testSchema.query("INSERT INTO marker VALUES ('in the service schema')");
});

afterAll(() => testSchema.drop());

describe('createPrismaClient', () => {
  it('binds the connections to the service schema through search_path', async () => {
    const client = createPrismaClient(AdapterHolder, {
      url: testSchema.databaseUrl,
      schema: testSchema.schema,
    });
    const adapter = await client.options.adapter.connect();
    try {
      const pool = adapter.underlyingDriver();
      const searchPath = await pool.query<{ search_path: string }>('SHOW search_path');
      const marker = await pool.query<{ name: string }>('SELECT name FROM marker');

      expect(searchPath.rows[0]?.search_path).toBe(testSchema.schema);
      expect(marker.rows).toEqual([{ name: 'in the service schema' }]);
    } finally {
      await adapter.dispose();
    }
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() =>
      createPrismaClient(AdapterHolder, {
        url: testSchema.databaseUrl,
        schema: 'payments -c statement_timeout=1',
      }),
    ).toThrow('invalid Postgres schema name');
  });
});
