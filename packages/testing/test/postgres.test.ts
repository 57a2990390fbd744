import path from 'node:path';
import { applyMigrations, createTestSchema, type TestSchema } from '@sika/testing';

const fixtures = path.join(__dirname, 'fixtures');

describe('createTestSchema', () => {
  const schemas: TestSchema[] = [];
  afterAll(async () => {
    await Promise.all(schemas.map((schema) => schema.drop()));
  });

  it('gives each test a schema the others do not see', async () => {
    const [first, second] = await Promise.all([
      createTestSchema({ prefix: 'iso' }),
      createTestSchema({ prefix: 'iso' }),
    ]);
    schemas.push(first, second);
    expect(first.schema).not.toBe(second.schema);

    await first.query('CREATE TABLE note (body TEXT)');
    await first.query("INSERT INTO note VALUES ('first only')");
    await second.query('CREATE TABLE note (body TEXT)');

    expect(await first.query('SELECT body FROM note')).toEqual([{ body: 'first only' }]);
    expect(await second.query('SELECT body FROM note')).toEqual([]);
  });

  it('drop() removes the schema and everything in it', async () => {
    const scratch = await createTestSchema();
    await scratch.query('CREATE TABLE gone (id INT)');
    const { databaseUrl, schema } = scratch;
    await scratch.drop();

    const observer = await createTestSchema({ databaseUrl });
    schemas.push(observer);
    expect(await observer.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).toEqual([]);
  });
});

describe('applyMigrations', () => {
  let db: TestSchema;
  beforeEach(async () => {
    db = await createTestSchema({ prefix: 'migrations' });
  });
  afterEach(async () => {
    await db.drop();
  });

  it('runs every migration of a Prisma migrations folder, in order, inside the schema', async () => {
    const applied = await applyMigrations({ ...db, migrationsDir: path.join(fixtures, 'migrations') });
    expect(applied).toEqual(['20250101000000_init', '20250102000000_counter_trigger']);

    const tables = await db.query(
      'SELECT table_schema FROM information_schema.tables WHERE table_name = $1',
      ['Widget'],
    );
    expect(tables).toContainEqual({ table_schema: db.schema });

    // The trigger of the second migration works, so its $$ body with semicolons arrived whole.
    await db.query(`INSERT INTO "Widget" (id, name) VALUES ('w1', 'first')`);
    await db.query(`UPDATE "Widget" SET name = 'renamed' WHERE id = 'w1'`);
    expect(await db.query('SELECT updates FROM "Widget"')).toEqual([{ updates: 1 }]);
  });

  it('leaves nothing behind when a migration fails, and names it', async () => {
    await expect(
      applyMigrations({ ...db, migrationsDir: path.join(fixtures, 'broken-migrations') }),
    ).rejects.toThrow(/migration 20250102000000_broken failed: relation "NoSuchTable" does not exist/);
    expect(
      await db.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [db.schema]),
    ).toEqual([]);
  });

  it('can be asked for by createTestSchema directly', async () => {
    const migrated = await createTestSchema({ migrationsDir: path.join(fixtures, 'migrations') });
    try {
      expect(await migrated.query('SELECT count(*)::int AS n FROM "Widget"')).toEqual([{ n: 0 }]);
    } finally {
      await migrated.drop();
    }
  });
});
