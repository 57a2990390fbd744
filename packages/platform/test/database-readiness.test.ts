import { createTestSchema, type TestSchema } from '@sika/testing';

import { Database, databaseReadiness } from '@sika/platform';

let testSchema: TestSchema;

beforeAll(async () => {
  testSchema = await createTestSchema({ prefix: 'platform_ready' });
});

afterAll(() => testSchema.drop());

describe('databaseReadiness', () => {
  it('is the `database` check, which passes while the database answers', async () => {
    const database = new Database<object>({ url: testSchema.databaseUrl, schema: testSchema.schema });
    const readiness = databaseReadiness(database);

    expect(readiness.name).toBe('database');
    await expect(readiness.check()).resolves.toBeUndefined();
    await database.destroy();
  });

  it('fails when the database cannot be reached, so the probe reports it', async () => {
    const refusing = new URL(testSchema.databaseUrl);
    refusing.port = '1';
    const database = new Database<object>({ url: refusing.href, schema: testSchema.schema });

    await expect(databaseReadiness(database).check()).rejects.toThrow();
    await database.destroy();
  });
});
