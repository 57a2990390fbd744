import path from 'node:path';
import { readMigrations } from './migrations';

describe('readMigrations', () => {
  it('lists the migration folders in name order and skips folders without migration.sql', async () => {
    const migrations = await readMigrations(path.join(__dirname, '../test/fixtures/migrations'));
    expect(migrations.map((migration) => migration.name)).toEqual([
      '20250101000000_init',
      '20250102000000_counter_trigger',
    ]);
    expect(migrations[0]?.sql).toContain('CREATE TABLE "Widget"');
  });
});
